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


def test_el_flujo_de_github_prueba_las_tres_condiciones():
    """El flujo de GitHub Actions corre el comando del README en las tres condiciones de PRUEBAS.md."""
    import yaml

    import tareas

    flujo = yaml.safe_load((RAIZ / ".github" / "workflows" / "pruebas.yml").read_text(encoding="utf-8"))
    trabajo = flujo["jobs"]["pruebas"]
    assert trabajo["env"]["CI"] == "true"
    assert trabajo["strategy"]["fail-fast"] is False
    filas = {fila["entorno"]: fila["rutas"] for fila in trabajo["strategy"]["matrix"]["include"]}
    esperados = {" ".join(f"{k}={v}" for k, v in extra.items()): "notebooks" if extra else ""
                 for extra in tareas.PERTURBACIONES.values()}
    assert filas == esperados, "la normal, todas las pruebas; con un hilo y con otra CPU, los cuadernos"
    pasos = {paso.get("name"): paso for paso in trabajo["steps"]}
    orden = pasos["Todas las pruebas (el comando del README)"]["run"]
    assert orden == "env ${{ matrix.entorno }} python3 tareas.py pruebas ${{ matrix.rutas }}"
    python = next(p for p in trabajo["steps"] if p.get("uses", "").startswith("actions/setup-python"))
    assert python["with"]["cache"] == "pip"
    assert "python3 tareas.py pruebas" in (RAIZ / ".ci" / "run").read_text()


def test_el_flujo_prueba_tambien_macos_y_windows():
    """rasbt y los cursos que admiramos prueban en los tres sistemas: aquí, unitarias y la lección 01 con nbval."""
    import yaml

    flujo = yaml.safe_load((RAIZ / ".github" / "workflows" / "pruebas.yml").read_text(encoding="utf-8"))
    trabajo = flujo["jobs"]["otros-sistemas"]
    assert set(trabajo["strategy"]["matrix"]["sistema"]) == {"macos-latest", "windows-latest"}
    assert trabajo["runs-on"] == "${{ matrix.sistema }}"
    orden = [p["run"] for p in trabajo["steps"] if "run" in p]
    assert orden == ["python tareas.py pruebas tests notebooks/01_a_quien_mira_cada_palabra.ipynb "
                     "--ignore=tests/test_navegador.py"]
