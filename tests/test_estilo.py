"""ruff revisa el código y los cuadernos con la configuración de pyproject.toml."""

import shutil
import subprocess

from herramientas.cuadernos import RAIZ, cuadernos


def _ruff():
    return shutil.which("ruff") or str(RAIZ / ".venv" / "bin" / "ruff")


def test_ruff_sin_avisos():
    ruff = _ruff()
    resultado = subprocess.run([ruff, "check", "--no-cache", "."], cwd=RAIZ, capture_output=True, text=True)
    assert resultado.returncode == 0, f"ruff encontró problemas:\n{resultado.stdout}{resultado.stderr}"


def test_ruff_revisa_tambien_los_cuadernos():
    ruff = _ruff()
    resultado = subprocess.run([ruff, "check", "--no-cache", "--show-files", "."], cwd=RAIZ,
                               capture_output=True, text=True)
    revisados = set(resultado.stdout.split())
    for ruta in cuadernos():
        relativa = ruta.relative_to(RAIZ).as_posix()
        assert any(r.endswith(relativa) for r in revisados), f"ruff no revisa {relativa}"


def test_ruff_detecta_un_fallo_de_estilo(tmp_path):
    """La configuración de verdad encuentra problemas: un import sin usar en un .py y una línea larguísima."""
    (tmp_path / "pyproject.toml").write_text((RAIZ / "pyproject.toml").read_text(encoding="utf-8"))
    (tmp_path / "malo.py").write_text("import os\n\nx = '" + "a" * 130 + "'\n")
    resultado = subprocess.run([_ruff(), "check", "--no-cache", "--output-format", "concise", "."], cwd=tmp_path,
                               capture_output=True, text=True)
    assert resultado.returncode == 1 and "F401" in resultado.stdout and "E501" in resultado.stdout


def test_cada_modulo_de_utilidades_esta_en_el_mapa_por_lecciones():
    """El docstring de utilidades/__init__.py dice qué lección enseña cada módulo: ninguno falta ni sobra."""
    import re

    import utilidades

    filas = [linea.split("|")[2] for linea in utilidades.__doc__.splitlines() if linea.startswith("| ")][1:]
    en_mapa = set(re.findall(r"`(\w+)`", "\n".join(filas)))  # la columna «módulo», sin la cabecera
    modulos = {p.stem for p in (RAIZ / "utilidades").glob("*.py") if p.stem != "__init__"} | {"ejercicios"}
    assert en_mapa == modulos, f"faltan: {sorted(modulos - en_mapa)} · sobran: {sorted(en_mapa - modulos)}"
