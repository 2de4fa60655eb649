"""Casos de la prueba por tabla para los ejercicios de la lección 11 · El transformer entero, etapa por etapa."""

import math

import torch

from casos_ejercicios import Caso, Error

L = len("la atención mira atrás")


def _gigas(contexto, cabezas=12, bloques=12, bytes_por_numero=4):
    return cabezas * bloques * contexto**2 * bytes_por_numero / 1e9


def _futuro(n):
    return torch.triu(torch.ones(n, n, dtype=torch.bool), diagonal=1)


def atencion_causal(q, k, v):
    puntajes = q @ k.T / math.sqrt(q.shape[-1])
    return torch.softmax(puntajes.masked_fill(_futuro(len(q)), float("-inf")), dim=-1) @ v


def _sin_escala(q, k, v):
    return torch.softmax((q @ k.T).masked_fill(_futuro(len(q)), float("-inf")), dim=-1) @ v


def _sin_mascara(q, k, v):
    return torch.softmax(q @ k.T / math.sqrt(q.shape[-1]), dim=-1) @ v


def _futuro_a_cero(q, k, v):
    return torch.softmax((q @ k.T / math.sqrt(q.shape[-1])).masked_fill(_futuro(len(q)), 0.0), dim=-1) @ v


def _devuelve_pesos(q, k, v):
    puntajes = q @ k.T / math.sqrt(q.shape[-1])
    return torch.softmax(puntajes.masked_fill(_futuro(len(q)), float("-inf")), dim=-1)


def _sin_return(q, k, v):
    atencion_causal(q, k, v)


CASOS = {
    "11.1": Caso(
        solucion="c",
        acepta=["C", " c ", "(c)"],
        errores=[Error("a", "lección 10"), Error("b", "lección 06"), Error("d", "lección 07"),
                 Error(3, "una sola letra")],
        rechaza=["e"],
        tipos=False,
    ),
    "11.2": Caso(
        solucion=4 * L * L,
        errores=[
            Error(L * L, "una por cabeza"),
            Error(2 * 4 * L * L, "solo el bloque 0"),
            Error(4 * L * (L + 1) // 2, "ceros del futuro"),
            Error(L * 96, "una fila y una columna por carácter"),
            Error(4 * 21 * 21, "espacios incluidos"),
        ],
    ),
    "11.3": Caso(
        solucion=_gigas(2048),
        errores=[
            Error(_gigas(1024) * 2, "no es lineal"),
            Error(_gigas(1024), "el doble de contexto"),
            Error(_gigas(2048, 1, 1), "una sola cabeza"),
            Error(_gigas(2048, 12, 1), "un solo bloque"),
            Error(_gigas(2048, bytes_por_numero=8), "4 bytes"),
            Error(_gigas(2048) * 1e9 / 2**30, "2³⁰"),
            Error(_gigas(2048) * 1e3, "no en MB"),
        ],
    ),
    "11.4": Caso(
        solucion=atencion_causal,
        errores=[
            Error(_sin_escala, "√d"),
            Error(_sin_mascara, "falta la máscara causal"),
            Error(_futuro_a_cero, "no 0"),
            Error(_devuelve_pesos, "no la tabla de pesos"),
            Error(_sin_return, "no devuelve nada"),
            Error(None, "pasa tu función sin paréntesis"),
        ],
    ),
    "11.5": Caso(
        solucion="b",
        acepta=["B"],
        errores=[Error("a", "futuro"), Error("c", "[CLS]"), Error("z", "una sola letra")],
        rechaza=["d"],
        tipos=False,
    ),
}
