"""Configuración común de las pruebas: la raíz del repositorio es importable (para `herramientas`), y en CI
(CI=true) ninguna prueba puede saltarse: verde debe querer decir probado."""

import os
import pathlib
import sys

import pytest
import torch

RAIZ = pathlib.Path(__file__).resolve().parent.parent
if str(RAIZ) not in sys.path:
    sys.path.insert(0, str(RAIZ))

EN_CI = os.environ.get("CI", "").lower() == "true"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """En CI, una prueba saltada (falta Chromium, playwright, un kernel…) cuenta como fallo, con su motivo."""
    resultado = yield
    informe = resultado.get_result()
    if EN_CI and informe.skipped and not hasattr(informe, "wasxfail"):
        motivo = informe.longrepr[2] if isinstance(informe.longrepr, tuple) else str(informe.longrepr)
        informe.outcome = "failed"
        informe.longrepr = f"En CI (CI=true) no se puede saltar una prueba: {motivo}"


@pytest.fixture
def un_hilo():
    """Entrena con un solo hilo (modelo diminuto) y deja después los hilos como estaban."""
    antes = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(antes)
