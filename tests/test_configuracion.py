"""Pruebas de la preparación común: semillas, estilo, dispositivo y versiones."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
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


def test_dispositivo_es_cpu_sin_gpu():
    if not torch.cuda.is_available():
        assert elegir_dispositivo().type in {"cpu", "mps"}
