"""Casos de la prueba por tabla para los ejercicios de la lección 07 · El bloque transformer."""

import torch
import torch.nn.functional as F

from casos_ejercicios import Adivinanza, Caso, Error

D, D_MLP = 48, 192
_ATENCION = (D * 3 * D + 3 * D) + (D * D + D)
_MLP = (D * D_MLP + D_MLP) + (D_MLP * D + D)
_NORMAS = 2 * 2 * D


def _norma_de_capa(x, eps=1e-5):
    media = x.mean(dim=-1, keepdim=True)
    return (x - media) / torch.sqrt(x.var(dim=-1, keepdim=True, unbiased=False) + eps)


def _norma_insesgada(x, eps=1e-5):
    media = x.mean(dim=-1, keepdim=True)
    return (x - media) / torch.sqrt(x.var(dim=-1, keepdim=True, unbiased=True) + eps)


def _norma_por_lote(x, eps=1e-5):
    return (x - x.mean(dim=0)) / x.std(dim=0, unbiased=False)


def _norma_sin_keepdim(x, eps=1e-5):
    """Olvida keepdim=True: la media pierde la última dimensión y la resta no encaja (RuntimeError de PyTorch)."""
    return (x - x.mean(dim=-1)) / torch.sqrt(x.var(dim=-1, unbiased=False) + eps)


def _norma_sin_return(x, eps=1e-5):
    F.layer_norm(x, x.shape[-1:])


def _contar(d_modelo, d_mlp):
    return 4 * d_modelo**2 + 4 * d_modelo + 2 * d_modelo * d_mlp + d_mlp + d_modelo + 4 * d_modelo


def _contar_fijo(d_modelo, d_mlp):
    return _contar(64, 256)


def _contar_sin_normas(d_modelo, d_mlp):
    return _contar(d_modelo, d_mlp) - 4 * d_modelo


def _contar_30_mas(d_modelo, d_mlp):
    return round(1.3 * _contar(d_modelo, d_mlp))


def _contar_30_menos(d_modelo, d_mlp):
    return round(0.7 * _contar(d_modelo, d_mlp))


def _contar_sin_return(d_modelo, d_mlp):
    _contar(d_modelo, d_mlp)


_CELDAS = 4096**2 * 12

def _norma_en_float64(x):
    """Correcta, calculada en float64: debe aceptarse (antes saltaba «Double did not match Float»)."""
    x = x.double()
    media = x.mean(dim=-1, keepdim=True)
    return (x - media) / torch.sqrt(x.var(dim=-1, keepdim=True, unbiased=False) + 1e-5)


CASOS = {
    "07.1": Caso(
        adivinanzas=[Adivinanza(_ATENCION, "solo la atención (el ejercicio 1 de la lección 04)"),
                     Adivinanza(_ATENCION + _MLP, "sin las LayerNorm")],
        solucion=_ATENCION + _MLP + _NORMAS,
        errores=[
            Error(_ATENCION + _MLP, "te faltan las dos LayerNorm"),
            Error(_ATENCION + _MLP + 2 * D, "les falta la mitad"),
            Error(4 * D * D + 2 * D * D_MLP + _NORMAS, "también un sesgo"),
            Error(_ATENCION, "solo la atención"),
            Error(_MLP, "solo el MLP"),
            Error(2 * D * D + 2 * D + _MLP + _NORMAS, "3 · d_modelo salidas"),
            Error(49_984 + 1, "cuenta por piezas"),
        ],
    ),
    "07.2": Caso(
        adivinanzas=[Adivinanza(_norma_insesgada, "torch.var por defecto (entre d − 1)")],
        solucion=_norma_de_capa,
        acepta=[_norma_en_float64],
        errores=[
            Error(_norma_insesgada, "unbiased=False"),
            Error(_norma_por_lote, "ÚLTIMA dimensión"),
            Error(_norma_sin_return, "no devuelve nada"),
            Error(_norma_sin_keepdim, "keepdim=True"),
        ],
    ),
    "07.3": Caso(
        adivinanzas=[Adivinanza(_CELDAS * 4 / 1e6, "una sola tabla, la cuenta de la sección 6"),
                     Adivinanza(4096**2 * 4 / 1e6, "una tabla de una cabeza: la columna L² · 4 bytes de la sección 6")],
        solucion=2 * _CELDAS * 4 / 1e6,
        errores=[
            Error(_CELDAS * 4 / 1e6, "dos: los puntajes y los pesos"),
            Error(2 * _CELDAS * 8 / 1e6, "4 bytes por número, no 8"),
            Error(2 * _CELDAS * 4 / 1e6 / 12, "una sola cabeza"),
            Error(2 * _CELDAS * 4 / 2**20, "2²⁰"),
            Error(2 * _CELDAS / 1e6, "multiplica las celdas por 4"),
            Error(4096**2 * 4 / 1e6, "una sola tabla de una sola cabeza"),
            Error(2 * 4096 * 12 * 4 / 1e6, "L · L celdas, no L"),
            Error(2 * _CELDAS * 4, "está en bytes"),
            Error(2 * _CELDAS * 4 / 1e9, "está en GB"),
            Error(1000, "parte de lo que ocupa una tabla"),
        ],
    ),
    "07.4": Caso(
        adivinanzas=[Adivinanza(_contar_fijo, "el número del ejercicio 1 para cualquier tamaño")],
        solucion=_contar,
        errores=[
            Error(_contar_fijo, "d_modelo = 48"),
            Error(_contar_sin_normas, "con (64, 256)"),
            Error(_contar_sin_return, "no devuelve nada"),
        ],
        desviadas=[_contar_30_mas, _contar_30_menos],
    ),
}
