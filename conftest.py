"""Configuración de pytest para todo el repositorio (pruebas y cuadernos): cada figura que muestran los cuadernos
bajo nbval se revisa (ver tests/figuras_nbval.py), y lo que tarda minutos lleva la marca `lento`, para poder
dejarlo fuera en una vuelta rápida: python3 tareas.py pruebas -m "not lento"."""

import os
import pathlib
import sys

import pytest

pytest_plugins = ["tests.figuras_nbval"]

# Lo que tarda minutos: la lección que entrena el mini-GPT de verdad y las pruebas en el navegador.
LENTOS = {"10_mini_gpt.ipynb", "test_navegador.py", "test_rise.py"}


def hilos_por_proceso(nucleos=None, procesos=None):
    """Hilos de PyTorch para cada proceso de pytest-xdist: los núcleos repartidos entre los procesos (al menos uno).

    Con dos procesos de dos hilos cada uno en dos núcleos, los hilos de OpenMP se esperan unos a otros girando y
    la lección 10 tardaba diez veces más que sola. Las salidas no cambian con el número de hilos (esa es la
    condición «un hilo» de PRUEBAS.md, y «todos los hilos» ejecuta los cuadernos uno tras otro con todos)."""
    nucleos = nucleos or os.cpu_count() or 1
    procesos = procesos or int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    return max(1, nucleos // procesos)


def pytest_configure(config):
    config.addinivalue_line("markers", "lento: tarda minutos (entrena de verdad o abre un navegador)")
    # En cada proceso de pytest-xdist, salvo que alguien haya fijado los hilos: también los kernels de nbval, que
    # heredan el entorno, usan su parte de los núcleos.
    if os.environ.get("PYTEST_XDIST_WORKER") and "OMP_NUM_THREADS" not in os.environ:
        hilos = hilos_por_proceso()
        os.environ["OMP_NUM_THREADS"] = str(hilos)
        if "torch" in sys.modules:
            sys.modules["torch"].set_num_threads(hilos)


def pytest_collection_modifyitems(config, items):
    for item in items:
        if pathlib.Path(str(item.fspath)).name in LENTOS:
            item.add_marker(pytest.mark.lento)
