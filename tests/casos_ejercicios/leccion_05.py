"""Casos de la lección 05 para la prueba por tabla de los ejercicios."""

import torch

from casos_ejercicios import Caso, Error


def _ventana(L, ventana):
    i = torch.arange(L)[:, None]
    j = torch.arange(L)[None, :]
    return (j > i) | (i - j > ventana)


def _al_reves(L, ventana):
    return ~_ventana(L, ventana)


def _con_diagonal(L, ventana):
    return _ventana(L, ventana) | torch.eye(L, dtype=torch.bool)


def _sin_futuro(L, ventana):
    i = torch.arange(L)[:, None]
    j = torch.arange(L)[None, :]
    return (i - j).abs() > ventana


def _enteros(L, ventana):
    return _ventana(L, ventana).int()


def _ventana_corrida(L, ventana):
    i = torch.arange(L)[:, None]
    j = torch.arange(L)[None, :]
    return (j > i) | (i - j >= ventana)


def _longitudes(relleno):
    return (~relleno).sum(dim=-1)


def _cuenta_relleno(relleno):
    return relleno.sum(dim=-1)


def _suma_todo(relleno):
    return (~relleno).sum()


def _sin_return(relleno):
    (~relleno).sum(dim=-1)


CASOS = {
    "05.1": Caso(
        solucion=55,
        errores=[Error(45, "ocultas"), Error(50, "diagonal"), Error(100, "todas las celdas"),
                 Error(10, "fila a fila"), Error(55.5, "sin decimales")],
    ),
    "05.2": Caso(
        solucion=_ventana,
        errores=[Error(_al_reves, "al revés"), Error(_con_diagonal, "diagonal debe ser False"),
                 Error(_sin_futuro, "futuro"), Error(_enteros, "tipo bool"),
                 Error(_ventana_corrida, "de i - ventana a i")],
    ),
    "05.3": Caso(
        solucion=30,
        errores=[Error(36, "solo con la máscara causal"), Error(40, "solo con el relleno"),
                 Error(15, "filas del relleno"), Error(64, "dibuja la tabla")],
    ),
    "05.4": Caso(
        solucion=_longitudes,
        errores=[Error(_cuenta_relleno, "has contado el relleno"), Error(_suma_todo, "un número por frase"),
                 Error(_sin_return, "no devuelve nada")],
    ),
}
