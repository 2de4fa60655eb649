"""Casos de la prueba por tabla para los ejercicios de la lección 06 · Posición."""

import math

import numpy as np
import torch

from casos_ejercicios import Adivinanza, Caso, Error
from utilidades.posicion import posicion_sinusoidal


def _sumar_posiciones(x):
    _, L, d_modelo = x.shape
    return x + posicion_sinusoidal(L, d_modelo)


def _solo_posiciones(x):
    _, L, d_modelo = x.shape
    return posicion_sinusoidal(L, d_modelo).expand_as(x).clone()


def _en_su_sitio(x):
    x += posicion_sinusoidal(x.shape[1], x.shape[2])
    return x


def _sin_return(x):
    x + posicion_sinusoidal(x.shape[1], x.shape[2])


def _sumar_con_numpy(x):
    """Correcta, con la tabla calculada en NumPy: devuelve float64."""
    _, L, d = x.shape
    pos = np.arange(L)[:, None]
    angulos = pos / 10000 ** (np.arange(0, d, 2) / d)
    tabla = np.zeros((L, d))
    tabla[:, 0::2], tabla[:, 1::2] = np.sin(angulos), np.cos(angulos)
    return x + torch.from_numpy(tabla)


def _seno_y_coseno_cambiados(x):
    _, L, d_modelo = x.shape
    tabla = posicion_sinusoidal(L, d_modelo)
    return x + torch.cat([tabla[:, 1::2, None], tabla[:, 0::2, None]], dim=2).reshape(L, d_modelo)


def _tabla_equivocada(x):
    return x + posicion_sinusoidal(x.shape[0], x.shape[2]).unsqueeze(1)  # una posición por frase, no por palabra


_D = 80
_VELOCIDAD = 10000 ** (2 / _D)

CASOS = {
    "06.1": Caso(
        adivinanzas=[Adivinanza([0.0, 1.0], "PE(0): el seno y el coseno de 0"),
                     Adivinanza([math.sin(1), math.cos(1)], "la posición 1")],
        solucion=[math.sin(3), math.cos(3)],
        errores=[
            Error([math.sin(math.radians(3)), math.cos(math.radians(3))], "radianes"),
            Error([math.cos(3), math.sin(3)], "revisa el orden"),
            Error([math.sin(3)], "dos números"),
        ],
        acepta=[[0.14, -0.99], [0.141, -0.990]],
        rechaza=[[0.15, -0.98], [0.15, -0.99], [0.145, -0.99], [0.14, -0.985]],
    ),
    "06.2": Caso(
        solucion=2 * math.pi * _VELOCIDAD,
        errores=[
            Error(_VELOCIDAD, "2π radianes, no 1"),
            Error(360 * _VELOCIDAD, "no 360 grados"),
            Error(2 * math.pi * 10000 ** (2 / 32), "d = 32"),
            Error(2 * math.pi * 10000 ** (2 / 64), "d = 64"),
            Error(2 * math.pi * 10000 ** (1 / _D), "2i vale 2"),
            Error(2 * math.pi * 10000 ** (3 / _D), "columna del coseno"),
            Error(2 * math.pi * 10000 ** (4 / _D), "doble del número de columna"),
            Error(2 * math.pi / _VELOCIDAD, "más posiciones, no menos"),
        ],
        rechaza=[8],
        adivinanzas=[
            Adivinanza(11.2, "el periodo de la aguja 1 que imprime la tabla de la lección (d = 32)"),
            Adivinanza(2 * math.pi * 10000 ** (2 / 64), "el periodo con d = 64"),
            Adivinanza(2 * math.pi * 10000 ** (2 / 96), "la respuesta antigua, con d = 96"),
            Adivinanza(2 * math.pi * 10000 ** (3 / _D), "2i = 3: el número de la columna del coseno"),
            Adivinanza(2 * math.pi, "el periodo de la primera aguja, 6.3 en la tabla"),
            Adivinanza(2 * math.pi * 10000 ** (4 / _D), "2i = 4: el número de columna doblado"),
        ],
    ),
    "06.3": Caso(
        adivinanzas=[Adivinanza(_solo_posiciones, "la tabla de posiciones sola")],
        solucion=_sumar_posiciones,
        acepta=[_sumar_con_numpy],
        errores=[
            Error(_sin_return, "no devuelve nada"),
            Error(_solo_posiciones, "devuelves solo las posiciones"),
            Error(_en_su_sitio, "en su sitio"),
            Error(_tabla_equivocada, "L filas"),
            Error(_seno_y_coseno_cambiados, "cambiados de sitio"),
            Error(_sumar_posiciones(torch.zeros(1, 2, 4)), "sin paréntesis"),
        ],
    ),
    "06.4": Caso(
        adivinanzas=[Adivinanza(7, "la distancia sin el signo (o la matriz sin trasponer)"),
                     Adivinanza(3, "el giro del ejemplo de la lección, R₃"),
                     Adivinanza(-3, "el giro hacia atrás del ejemplo, R₋₃"),
                     Adivinanza(0, "la identidad: cada posición se mira a sí misma"),
                     Adivinanza(1, "un paso adelante"), Adivinanza(-1, "un paso atrás")],
        solucion=-7,
        errores=[Error(7, "no el signo"), Error(3, "ejemplo de la lección"), Error(-3, "ejemplo de la lección"),
                 Error(0, "identidad"), Error(-7.5, "sin decimales"), Error(40, "distancia q − p"),
                 Error([-7, 7], "un número entero")],
    ),
}
