"""Casos de la lección 03 para la prueba por tabla de los ejercicios."""

import math

import numpy as np

from casos_ejercicios import Caso, Error


def _softmax(puntajes, T):
    z = np.asarray(puntajes, dtype=float) / T
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


def _sin_restar_maximo(puntajes, T):
    e = np.exp(np.asarray(puntajes, dtype=float) / T)
    return e / e.sum(axis=-1, keepdims=True)


def _por_T(puntajes, T):
    return _softmax(np.asarray(puntajes, dtype=float) * T * T, T)


def _sin_keepdims(puntajes, T):
    z = np.asarray(puntajes, dtype=float) / T
    e = np.exp(z - z.max())
    return e / e.sum()


def _desviada_arriba(puntajes, T):
    return 1.3 * _softmax(puntajes, T)


def _desviada_abajo(puntajes, T):
    return 0.7 * _softmax(puntajes, T)


def _sin_return(puntajes, T):
    _softmax(puntajes, T)


_PUNTAJES = [2.0, 1.0, 0.5, -1.0]

CASOS = {
    "03.1": Caso(
        solucion=16,
        errores=[Error(256, "varianza"), Error(1, "después de dividir"), Error(40, "suma d de ellos"),
                 Error("16", "un solo número")],
    ),
    "03.2": Caso(
        solucion=_softmax(_PUNTAJES, 2.0),
        errores=[Error(_softmax(_PUNTAJES, 0.5), "multiplicaste"), Error(100 * _softmax(_PUNTAJES, 2.0), "porcentaje"),
                 Error(_softmax(_PUNTAJES, 1.0), "T = 1"), Error([0.4, 0.3, 0.3], "forma")],
    ),
    "03.3": Caso(
        solucion=_softmax,
        desviadas=[_desviada_arriba, _desviada_abajo],
        errores=[Error(_sin_restar_maximo, "desborda"), Error(_por_T, "Divide entre T"),
                 Error(_sin_keepdims, "no coinciden"), Error(_sin_return, "no devuelve nada"),
                 Error(3.0, "sin paréntesis")],
    ),
    "03.4": Caso(
        solucion=math.sqrt(128),
        errores=[Error(128, "No es d"), Error(1 / math.sqrt(128), "no lo inviertas"), Error(8, "d = 64"),
                 Error(64, "una junto a otra")],
    ),
}
