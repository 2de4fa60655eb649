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
# Los archivos que más tardan, del más largo al más corto, van primero: pytest-xdist reparte archivos enteros
# (--dist loadfile, sin reordenar: ver tareas.en_paralelo) y, si uno de minutos empieza al final, el otro proceso se
# queda esperando sin nada que hacer. Detrás, los cuadernos y, al final, las pruebas cortas, que rellenan huecos.
PRIMERO = ("test_rise.py", "test_sitio.py", "test_diapositivas.py", "10_mini_gpt.ipynb", "test_navegador.py")


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


def orden_de_ejecucion(ruta):
    """Clave para ordenar los archivos de pruebas: los de PRIMERO en su orden, después los cuadernos, después el
    resto (sorted es estable: dentro de cada grupo, y dentro de cada archivo, queda el orden de pytest)."""
    ruta = pathlib.Path(ruta)
    if ruta.name in PRIMERO:
        return (0, PRIMERO.index(ruta.name))
    return (1, 0) if ruta.suffix == ".ipynb" else (2, 0)


def pytest_collection_modifyitems(config, items):
    for item in items:
        if pathlib.Path(str(item.fspath)).name in LENTOS:
            item.add_marker(pytest.mark.lento)
    items.sort(key=lambda item: orden_de_ejecucion(item.fspath))
