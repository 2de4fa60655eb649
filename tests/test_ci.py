"""En CI (CI=true) una prueba saltada falla: verde debe querer decir probado."""

import subprocess
import sys
import textwrap

from conftest import RAIZ


def _correr(tmp_path, ci):
    (tmp_path / "conftest.py").write_text((RAIZ / "tests" / "conftest.py").read_text())
    (tmp_path / "test_interna.py").write_text(textwrap.dedent("""
        import pytest

        def test_sin_chromium():
            pytest.skip("no hay Chromium")

        @pytest.fixture
        def kernel():
            pytest.skip("no hay kernel")

        def test_sin_kernel(kernel):
            pass

        def test_normal():
            assert True
    """))
    entorno = {"PATH": "/usr/bin:/bin", "CI": "true" if ci else "false"}
    orden = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=", str(tmp_path)]
    return subprocess.run(orden, capture_output=True, text=True, cwd=tmp_path, env=entorno, timeout=120)


def test_en_ci_saltar_es_fallar(tmp_path):
    resultado = _correr(tmp_path, ci=True)
    assert resultado.returncode == 1, resultado.stdout
    assert "1 failed, 1 passed, 1 error" in resultado.stdout  # el salto en un fixture es un error
    assert "En CI (CI=true) no se puede saltar una prueba" in resultado.stdout and "no hay kernel" in resultado.stdout


def test_fuera_de_ci_se_salta(tmp_path):
    resultado = _correr(tmp_path, ci=False)
    assert resultado.returncode == 0, resultado.stdout
    assert "1 passed, 2 skipped" in resultado.stdout
