"""Configuración de pytest para todo el repositorio (pruebas y cuadernos): cada figura que muestran los cuadernos
bajo nbval se revisa (ver tests/figuras_nbval.py), y lo que tarda minutos lleva la marca `lento`, para poder
dejarlo fuera en una vuelta rápida: python3 tareas.py pruebas -m "not lento"."""

import pathlib

import pytest

pytest_plugins = ["tests.figuras_nbval"]

# Lo que tarda minutos: la lección que entrena el mini-GPT de verdad y las pruebas en el navegador.
LENTOS = {"10_mini_gpt.ipynb", "test_navegador.py"}


def pytest_configure(config):
    config.addinivalue_line("markers", "lento: tarda minutos (entrena de verdad o abre un navegador)")


def pytest_collection_modifyitems(config, items):
    for item in items:
        if pathlib.Path(str(item.fspath)).name in LENTOS:
            item.add_marker(pytest.mark.lento)
