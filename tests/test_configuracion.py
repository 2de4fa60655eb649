"""Pruebas de la preparación común: semillas, estilo, dispositivo y versiones."""

import re
import sys

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
import torch  # noqa: E402

from utilidades.configuracion import (  # noqa: E402
    comprobar_torch,
    elegir_dispositivo,
    fijar_semillas,
    preparar,
    versiones,
)


def test_semillas_reproducen_los_mismos_numeros():
    fijar_semillas(0)
    a = torch.randn(5)
    fijar_semillas(0)
    assert torch.equal(a, torch.randn(5))


def test_preparar_aplica_estilo_y_devuelve_dispositivo(capsys):
    dispositivo = preparar(semilla=0)
    assert isinstance(dispositivo, torch.device)
    assert dispositivo.type in {"cpu", "cuda", "mps"}
    assert plt.rcParams["font.size"] == 13
    salida = capsys.readouterr().out
    assert salida.startswith("torch ") and f"dispositivo: {dispositivo.type}" in salida
    assert "+cpu" not in versiones()


def test_preparar_callado_no_imprime(capsys):
    preparar(mostrar=False)
    assert capsys.readouterr().out == ""


def _simular(monkeypatch, cuda, mps):
    """Simula qué aceleradores hay, sin depender de la máquina que ejecuta las pruebas."""
    monkeypatch.setattr(torch.cuda, "is_available", lambda: cuda)
    monkeypatch.setattr(torch.backends.mps, "is_available", lambda: mps)


@pytest.mark.parametrize("cuda,mps,esperado", [
    (False, False, "cpu"), (True, False, "cuda"), (False, True, "mps"), (True, True, "cuda"),
])
def test_elegir_dispositivo_prefiere_cuda_luego_mps_luego_cpu(monkeypatch, cuda, mps, esperado):
    _simular(monkeypatch, cuda, mps)
    assert elegir_dispositivo() == torch.device(esperado)


def test_sin_mps_en_esta_compilacion_de_torch(monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    monkeypatch.delattr(torch.backends, "mps")  # compilaciones antiguas o de Linux sin el módulo
    assert elegir_dispositivo() == torch.device("cpu")


def test_preparar_dice_el_dispositivo_elegido(monkeypatch, capsys):
    _simular(monkeypatch, cuda=False, mps=True)
    assert preparar().type == "mps"
    assert capsys.readouterr().out.rstrip().endswith("dispositivo: mps")


@pytest.mark.parametrize("version", ["2.4.0", "2.11.0", "2.13.0+cpu", "2.12.0.dev20260101+cu128", "3.0.0"])
def test_versiones_de_torch_admitidas(version):
    comprobar_torch(version)  # no lanza nada


@pytest.mark.parametrize("version", ["2.3.1+cpu", "1.13.1", "2.0.0"])
def test_torch_demasiado_antiguo_lo_dice_en_castellano(version):
    with pytest.raises(RuntimeError, match=rf"necesita PyTorch 2\.4 o más nuevo, y aquí hay la {re.escape(version)}.*"
                                           r"tareas\.py abrir.*pip install -U torch"):
        comprobar_torch(version)


def test_preparar_comprueba_la_version_de_torch(monkeypatch):
    monkeypatch.setattr(torch, "__version__", "2.1.0")
    with pytest.raises(RuntimeError, match="necesita PyTorch 2.4"):
        preparar(mostrar=False)


def test_sin_las_piezas_internas_de_torch_coste_se_importa_y_explica(monkeypatch):
    """Si una versión de PyTorch quita los módulos internos que usa `memoria_pico`, el módulo se sigue importando
    (la lección usa también mejor_tiempo) y `memoria_pico` explica qué pasa."""
    import importlib

    import utilidades.coste as coste

    monkeypatch.setitem(sys.modules, "torch.utils._python_dispatch", None)  # «import» de None: ImportError
    try:
        sin_piezas = importlib.reload(coste)
        assert sin_piezas.mejor_tiempo(lambda: None, repeticiones=1) >= 0
        with pytest.raises(RuntimeError, match=r"no tiene las piezas internas.*requirements\.in"):
            sin_piezas.memoria_pico(torch.ones, 3)
    finally:
        monkeypatch.undo()
        importlib.reload(coste)
    assert coste.memoria_pico(torch.ones, 1000) >= 4000
