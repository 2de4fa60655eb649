"""Casos de la lección 03 para la prueba por tabla de los ejercicios."""

import math

import numpy as np
import torch

from casos_ejercicios import Adivinanza, Caso, Error


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


def _sin_keepdims_en_max(puntajes, T):
    z = np.asarray(puntajes, dtype=float) / T
    e = np.exp(z - z.max(axis=-1))
    return e / e.sum(axis=-1, keepdims=True)


def _restar_maximo_absoluto(puntajes, T):
    z = np.asarray(puntajes, dtype=float) / T
    e = np.exp(z - np.abs(z).max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _desviada_arriba(puntajes, T):
    return 1.3 * _softmax(puntajes, T)


def _desviada_abajo(puntajes, T):
    return 0.7 * _softmax(puntajes, T)


def _restar_media(puntajes, T):
    z = np.asarray(puntajes, dtype=float) / T
    e = np.exp(z - z.mean(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _restar_minimo(puntajes, T):
    z = np.asarray(puntajes, dtype=float) / T
    e = np.exp(z - z.min(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _maximo_global(puntajes, T):
    z = np.asarray(puntajes, dtype=float) / T
    e = np.exp(z - z.max())
    return e / e.sum(axis=-1, keepdims=True)


def _con_torch(puntajes, T):
    return torch.softmax(torch.as_tensor(puntajes, dtype=torch.float64) / T, dim=-1).numpy()


def _con_exp_de_torch(puntajes, T):
    z = torch.as_tensor(puntajes, dtype=torch.float64) / T
    e = torch.exp(z - z.max(dim=-1, keepdim=True).values)
    return (e / e.sum(dim=-1, keepdim=True)).numpy()


def _con_metodo_de_tensor(puntajes, T):
    return (torch.as_tensor(puntajes, dtype=torch.float64) / T).softmax(-1).numpy()


def _con_funcional(puntajes, T):
    return torch.nn.functional.softmax(torch.as_tensor(puntajes, dtype=torch.float64) / T, dim=-1)


def _con_scipy(puntajes, T):
    import scipy.special

    return scipy.special.softmax(np.asarray(puntajes, dtype=float) / T, axis=-1)


def _sin_return(puntajes, T):
    _softmax(puntajes, T)


_PUNTAJES = [2.0, 1.0, 0.5, -1.0]

CASOS = {
    "03.1": Caso(
        adivinanzas=[Adivinanza(256, "d, sin pensar"),
                     Adivinanza(1, "la desviación después de escalar"),
                     Adivinanza(8, "√64, la del ejemplo de la lección"),
                     Adivinanza(15.6, "un número cercano, a ojo"), Adivinanza(16.4, "un número cercano, a ojo")],
        solucion=16,
        errores=[Error(256, "varianza"), Error(1, "después de dividir"), Error(40, "suma d de ellos"),
                 Error("16", "un solo número"), Error(8, "tabla para d = 64"), Error(22.6, "tabla para d = 512"),
                 Error(128, "la mitad de d"), Error(4, "la raíz dos veces"), Error(15.6, "sale exacta")],
        rechaza=[16.1],
    ),
    "03.2": Caso(
        adivinanzas=[Adivinanza(_softmax(_PUNTAJES, 1.0), "los pesos con T = 1 de la tabla de la lección"),
                     Adivinanza([0.25] * 4, "el reparto uniforme de una temperatura muy alta"),
                     Adivinanza(_softmax(_PUNTAJES, 1.9), "los pesos de T = 1.9, cerca de la pedida"),
                     Adivinanza(_softmax(_PUNTAJES, 2.1), "los pesos de T = 2.1, cerca de la pedida"),
                     Adivinanza(_softmax(_PUNTAJES, 1.95), "los pesos de T = 1.95, cerca de la pedida"),
                     Adivinanza(_softmax(_PUNTAJES, 2.05), "los pesos de T = 2.05, cerca de la pedida"),
                     Adivinanza([0.43, 0.26, 0.21, 0.10], "los porcentajes que muestra el deslizador en T = 2.00"),
                     Adivinanza([0.44, 0.27, 0.20, 0.09], "unos pesos inventados cerca de los buenos")],
        solucion=_softmax(_PUNTAJES, 2.0),
        acepta=[[0.434, 0.264, 0.205, 0.097], [[0.434, 0.264, 0.205, 0.097]],
                torch.softmax(torch.tensor([[2.0, 1.0, 0.5, -1.0]]) / 2, dim=-1)],
        rechaza=[_softmax(_PUNTAJES, 1.99), _softmax(_PUNTAJES, 2.01), _softmax(_PUNTAJES, 2.0) + 0.004],
        errores=[Error(_softmax(_PUNTAJES, 0.5), "multiplicaste"), Error(100 * _softmax(_PUNTAJES, 2.0), "porcentaje"),
                 Error(_softmax(_PUNTAJES, 1.0), "T = 1"), Error(_softmax(_PUNTAJES, 4.0), "T = 4"),
                 Error([0.4, 0.3, 0.3], "forma"),
                 Error([0.4, 0.3, 0.2, 0.1], "un solo decimal"),
                 Error([0.43, 0.26, 0.21, 0.10], "con dos decimales no"),
                 Error(np.floor(100 * _softmax(_PUNTAJES, 2.0)) / 100, "cortado los decimales"),
                 Error(_softmax(_PUNTAJES, 2.0) + 0.004, "suman 1.016"),
                 Error([0.44, 0.27, 0.20, 0.09], "divide cada puntaje")],
    ),
    "03.3": Caso(
        solucion=_softmax,
        desviadas=[_desviada_arriba, _desviada_abajo],
        errores=[Error(_sin_restar_maximo, "desborda"), Error(_por_T, "Divide entre T"),
                 Error(_sin_keepdims, "no coinciden"), Error(_sin_return, "no devuelve nada"),
                 Error(3.0, "sin paréntesis"), Error(_restar_minimo, "restar el mínimo"),
                 Error(_maximo_global, "máximo de toda la tabla"),
                 Error(_restar_media, "restas la media"), Error(_sin_keepdims_en_max, "keepdims=True"),
                 Error(_restar_maximo_absoluto, "[-1000, -1001]"), Error(_con_torch, "sin PyTorch"),
                 Error(_con_exp_de_torch, "sin PyTorch")],
        adivinanzas=[
            Adivinanza(_con_torch, "torch.softmax, prohibido por el enunciado («sin PyTorch»)"),
            Adivinanza(_con_exp_de_torch, "el softmax escrito a mano con torch.exp y devuelto con .numpy()"),
            Adivinanza(_con_metodo_de_tensor, "el método .softmax de un tensor"),
            Adivinanza(_con_funcional, "torch.nn.functional.softmax, que además devuelve un tensor"),
            Adivinanza(_con_scipy, "scipy.special.softmax, un softmax ya hecho"),
            Adivinanza(_restar_minimo, "restar el mínimo de la fila: pasa con [1000, 999, 998] pero no es el truco"),
            Adivinanza(_maximo_global, "restar el máximo de toda la tabla en vez del de cada fila"),
            Adivinanza(_restar_media, "restar la media de la fila: pasa con [1000, 999, 998] y con [1000, 0]"),
            Adivinanza(_restar_maximo_absoluto, "restar el mayor |z| de la fila: falla con puntajes negativos grandes"),
        ],
    ),
    "03.4": Caso(
        adivinanzas=[Adivinanza(3, "la T de A, la única temperatura del enunciado"),
                     Adivinanza(3 * math.sqrt(128), "la temperatura total de A, la respuesta de la versión anterior"),
                     Adivinanza(math.sqrt(50), "√d de B"),
                     Adivinanza(8, "√64, la del ejemplo de la lección"),
                     Adivinanza(1, "«sin temperatura»"),
                     Adivinanza(5, "un número redondo cerca de la respuesta")],
        solucion=3 * math.sqrt(128 / 50),
        acepta=[4.8, 4.80, 4.804, 33.94 / 7.07],
        rechaza=[4.79, 4.81, 4.9, 4.7],
        errores=[Error(34 / math.sqrt(50), "paso intermedio"),
                 Error(3 * math.sqrt(128), "temperatura total de A"), Error(3, "las dos √d son distintas"),
                 Error(3 * math.sqrt(50 / 128), "al revés"), Error(3 * 128 / 50, "no divide por d"),
                 Error(3 * math.sqrt(128) - math.sqrt(50), "has restado"),
                 Error(math.sqrt(128 * 3 / 50), "dentro de la raíz"), Error(1 / 4.8, "no lo inviertas"),
                 Error(6, "iguala los dos")],
    ),
    "03.5": Caso(
        adivinanzas=[Adivinanza(0.75, "la suma de un reparto igual entre cuatro"),
                     Adivinanza(0.875, "1 - 1/8, la cifra de la lección"),
                     Adivinanza(0, "«saturada: 0»"),
                     Adivinanza(1, "la suma de los pesos"),
                     Adivinanza(0.06, "la respuesta redondeada a ojo"),
                     Adivinanza(0.05, "un número pequeño cualquiera")],
        solucion=0.97 * 0.03 + 3 * 0.01 * 0.99,
        acepta=[0.059, 0.0588],
        errores=[Error(0.75, "reparto igual entre cuatro"), Error(0.875, "entre ocho"), Error(1, "suma de los pesos"),
                 Error(0, "no 0"), Error(0.0291, "solo la derivada del peso mayor"),
                 Error(0.0297, "te falta la derivada del peso mayor"), Error(0.9412, "sumado p_j²"),
                 Error(0.06, "tres decimales"), Error(0.2, "súmalos"),
                 Error(0.0591, "1 − 0.97²"), Error(0.0594, "término del peso mayor"),
                 Error(0.058, "cortado los decimales"), Error(0.0285, "otra vez por su peso"),
                 Error(0.03, "una sola parte")],
        # Cerca, pero no son la cuenta (tests/test_escala.py mira la pista de las tres primeras):
        rechaza=[0.0595, 0.0582, 0.0597, 0.0591, 0.0594],
    ),
}
