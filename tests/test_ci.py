"""En CI (CI=true) una prueba saltada falla: verde debe querer decir probado."""

import os
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


def test_el_flujo_de_github_prueba_cada_condicion():
    """El flujo de GitHub Actions corre el comando del README en cada condición de tareas.PERTURBACIONES."""
    import yaml

    import tareas

    flujo = yaml.safe_load((RAIZ / ".github" / "workflows" / "pruebas.yml").read_text(encoding="utf-8"))
    trabajo = flujo["jobs"]["pruebas"]
    assert trabajo["env"]["CI"] == "true"
    assert trabajo["strategy"]["fail-fast"] is False
    filas = {fila["condicion"]: (fila["entorno"], fila["rutas"]) for fila in trabajo["strategy"]["matrix"]["include"]}
    esperados = {nombre: (" ".join(f"{k}={v}" for k, v in extra.items()), " ".join(opciones))
                 for nombre, (extra, opciones) in tareas.PERTURBACIONES.items()}
    assert filas == esperados, "la normal, todas las pruebas; en las demás condiciones, los cuadernos"
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


def test_los_procesos_de_xdist_se_reparten_los_nucleos(tmp_path, monkeypatch):
    """Con pytest-xdist, cada proceso (y los kernels de nbval, que heredan su entorno) usa su parte de los núcleos:
    dos procesos de dos hilos en dos núcleos se estorban y la lección 10 tardaba diez veces más."""
    import importlib.util

    especificacion = importlib.util.spec_from_file_location("conftest_raiz", RAIZ / "conftest.py")
    raiz = importlib.util.module_from_spec(especificacion)
    especificacion.loader.exec_module(raiz)
    assert raiz.hilos_por_proceso(nucleos=2, procesos=2) == 1
    assert raiz.hilos_por_proceso(nucleos=8, procesos=4) == 2
    assert raiz.hilos_por_proceso(nucleos=1, procesos=4) == 1
    (tmp_path / "conftest.py").write_text((RAIZ / "conftest.py").read_text().replace(
        'pytest_plugins = ["tests.figuras_nbval"]', ""))
    (tmp_path / "test_hilos.py").write_text(textwrap.dedent("""
        import os, subprocess, sys
        import torch

        def test_reparto():
            esperado = max(1, (os.cpu_count() or 1) // 2)
            assert os.environ["OMP_NUM_THREADS"] == str(esperado)
            assert torch.get_num_threads() == esperado
            hijo = subprocess.run([sys.executable, "-c", "import torch; print(torch.get_num_threads())"],
                                  capture_output=True, text=True, check=True)
            assert hijo.stdout.strip() == str(esperado)  # un kernel lanzado desde aquí hereda el reparto
    """))
    entorno = {k: v for k, v in os.environ.items() if k != "OMP_NUM_THREADS"}
    orden = [sys.executable, "-m", "pytest", "-q", "-n", "2", "-p", "no:cacheprovider", "-o", "addopts=",
             str(tmp_path)]
    resultado = subprocess.run(orden, capture_output=True, text=True, cwd=tmp_path, env=entorno, timeout=300)
    assert resultado.returncode == 0, resultado.stdout[-2000:]
    # Quien fija los hilos manda: con OMP_NUM_THREADS puesto, no se toca (el mismo pytest_configure, aquí dentro).
    import torch

    class Configuracion:
        def addinivalue_line(self, *argumentos):
            pass

    antes = torch.get_num_threads()
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw0")
    monkeypatch.setenv("PYTEST_XDIST_WORKER_COUNT", "2")
    try:
        monkeypatch.setenv("OMP_NUM_THREADS", "3")
        raiz.pytest_configure(Configuracion())
        assert os.environ["OMP_NUM_THREADS"] == "3"
        monkeypatch.delenv("OMP_NUM_THREADS")  # sin fijar, lo pone él
        raiz.pytest_configure(Configuracion())
        assert os.environ["OMP_NUM_THREADS"] == str(raiz.hilos_por_proceso(procesos=2))
    finally:
        torch.set_num_threads(antes)
