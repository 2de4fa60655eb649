"""ruff revisa el código y los cuadernos con la configuración de pyproject.toml."""

import shutil
import subprocess
import sys

from herramientas.celdas import RAIZ


def test_ruff_sin_avisos():
    ruff = shutil.which("ruff") or str(RAIZ / ".venv" / "bin" / "ruff")
    resultado = subprocess.run([ruff, "check", "--no-cache", "."], cwd=RAIZ, capture_output=True, text=True)
    assert resultado.returncode == 0, f"ruff encontró problemas:\n{resultado.stdout}{resultado.stderr}"


def test_ruff_revisa_tambien_los_cuadernos():
    ruff = shutil.which("ruff") or str(RAIZ / ".venv" / "bin" / "ruff")
    resultado = subprocess.run([ruff, "check", "--no-cache", "--show-files", "."], cwd=RAIZ,
                               capture_output=True, text=True)
    assert "02_atencion_a_mano.ipynb" in resultado.stdout, "ruff no está leyendo los cuadernos"
    assert sys.version_info >= (3, 11)
