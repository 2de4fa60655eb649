"""Pruebas de la preparación común: semillas, estilo, dispositivo y versiones."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
import torch  # noqa: E402

from utilidades.configuracion import elegir_dispositivo, fijar_semillas, preparar, versiones  # noqa: E402


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
