"""Casos de la lección 02 para la prueba por tabla de los ejercicios."""

import math

import torch

from casos_ejercicios import Adivinanza, Caso, Error


def _normalizar(tabla, dim=-1):
    return tabla / tabla.sum(dim=dim, keepdim=True)


def _con_temperatura(pesos, T):
    """Elevar los pesos de T = 1 a 1/T y volver a normalizar cada fila."""
    return _normalizar(pesos ** (1 / T))


def _con_logaritmos(pesos, T):
    """Correcta por otro camino: el logaritmo de los pesos son los puntajes menos una constante por fila."""
    return torch.softmax(torch.log(pesos) / T, dim=-1)


def _en_float32(pesos, T):
    """La respuesta correcta calculada en float32 (el tipo por defecto de PyTorch): debe aceptarse."""
    return _normalizar(pesos.float() ** (1 / T))


def _sin_cambio(pesos, T):
    return pesos


def _sin_normalizar(pesos, T):
    return pesos ** (1 / T)


def _pesos_entre_T(pesos, T):
    return pesos / T


def _softmax_de_los_pesos(pesos, T):
    return torch.softmax(pesos / T, dim=-1)


def _por_columnas(pesos, T):
    return _normalizar(pesos ** (1 / T), dim=-2)


def _sin_keepdim(pesos, T):
    elevados = pesos ** (1 / T)
    return elevados / elevados.sum(dim=-1)


def _toda_la_tabla(pesos, T):
    elevados = pesos ** (1 / T)
    return elevados / elevados.sum()


def _exponente_T(pesos, T):
    return _normalizar(pesos ** T)


def _una_fila_que_no_suma_1(pesos, T):
    salida = _con_temperatura(pesos, T).clone()
    salida[..., 0] += 0.1
    return salida


def _otra_temperatura(pesos, T):
    return _normalizar(pesos ** (1 / (2 * T)))


def _solo_la_primera_fila(pesos, T):
    """Solo la fila de la primera consulta (..., L): por difusión, suma 1 y se compara con todas las filas."""
    return _con_temperatura(pesos, T)[..., 0, :]


def _sin_return(pesos, T):
    _con_temperatura(pesos, T)


def _plantilla_sin_tocar(pesos, T):
    ...  # la celda del ejercicio tal como llega, sin código: aún no hay respuesta


def _en_numpy(pesos, T):
    """La receta correcta, pero pasada a NumPy: el enunciado pide devolver un tensor de PyTorch."""
    elevados = pesos.numpy() ** (1 / T)
    return elevados / elevados.sum(axis=-1, keepdims=True)


def _con_Q_y_K(Q, K, T):
    """La función del enunciado anterior (con Q y K): ahora recibe pesos y T."""
    return torch.softmax(Q @ K.transpose(-2, -1) / (math.sqrt(Q.shape[-1]) * T), dim=-1)


_ANA = [0.5760, 0.1400, 0.2840]  # softmax([2, 0, 1] / √2), con cuatro decimales

CASOS = {
    "02.1": Caso(
        adivinanzas=[Adivinanza([1 / 3, 1 / 3, 1 / 3], "un reparto uniforme"),
                     Adivinanza([1.0, 0.0, 0.0], "todo a sí misma"),
                     Adivinanza([0.57, 0.15, 0.28], "vecinos inventados, a una centésima de los buenos"),
                     Adivinanza([0.59, 0.14, 0.27], "vecinos inventados que también suman 1")],
        solucion=_ANA,
        # Con los puntajes redondeados a 1.41 y 0.71 pero tres cifras en los pesos, la respuesta sigue siendo buena.
        acepta=[[0.58, 0.14, 0.28], [0.576, 0.141, 0.283], [0.575, 0.140, 0.285]],
        rechaza=[[0.58, 0.14, 0.29], [0.57, 0.15, 0.28]],
        errores=[Error([2, 0, 1], "productos escalares"), Error([1.41, 0.0, 0.71], "son los puntajes"),
                 Error([0.6652, 0.0900, 0.2447], "sin dividirlos"), Error([57.6, 14.1, 28.3], "porcentaje"),
                 Error([0.6, 0.1, 0.3], "un decimal"), Error([0.58, 0.14], "forma"),
                 Error([0.51, 0.19, 0.31], "por d = 2"),
                 Error([0.57, 0.14, 0.28], "cortar los decimales"),
                 Error([0.57, 0.14, 0.29], "redondeado los puntajes antes de la exponencial"),
                 Error([0.28, 0.14, 0.58], "orden inverso")],
    ),
    "02.2": Caso(
        adivinanzas=[Adivinanza([1.0, 0.0, 0.0], "todo a la primera"),
                     Adivinanza([0.5, 0.5, 0.0], "a medias entre dos"),
                     Adivinanza([0.0471, 0.1915, 0.7615], "la fila de «plata» con las claves de la lección")],
        solucion=[1 / 3, 1 / 3, 1 / 3],
        acepta=[[0.33, 0.33, 0.33], [0.333, 0.333, 0.333]],
        rechaza=[[0.34, 0.34, 0.34], [0.325, 0.325, 0.325], [0.34, 0.33, 0.34],
                 [0.34, 0.33, 0.33], [0.33, 0.34, 0.33]],
        errores=[Error([1.41, 1.41, 1.41], "son los puntajes"), Error([1, 1, 1], "sumar 1"),
                 Error([2, 2, 2], "productos escalares"), Error([0.33, 0.33, 0.34], "no son iguales"),
                 Error([0.34, 0.34, 0.34], "partes iguales"),
                 Error([0.0471, 0.1915, 0.7615], "claves originales"), Error([0.5, 0.5], "un peso por palabra")],
    ),
    "02.3": Caso(
        adivinanzas=[Adivinanza(_sin_cambio, "devolver los pesos que recibe, sin temperatura"),
                     Adivinanza(_softmax_de_los_pesos, "softmax(pesos / T): la fórmula de la lección 01 con los pesos"),
                     Adivinanza(_con_Q_y_K, "la fórmula con Q y K, que aquí no se tienen"),
                     Adivinanza(_otra_temperatura, "la receta con la temperatura equivocada")],
        solucion=_con_temperatura,
        acepta=[_en_float32, _con_logaritmos],
        errores=[Error(_sin_cambio, "no cambian con T"), Error(_sin_normalizar, "volver a normalizar"),
                 Error(_pesos_entre_T, "has dividido los pesos por T"),
                 Error(_softmax_de_los_pesos, "como si fueran puntajes"), Error(_por_columnas, "por columnas"),
                 Error(_sin_keepdim, "keepdim"), Error(_toda_la_tabla, "toda la tabla"),
                 Error(_exponente_T, "al revés"), Error(_una_fila_que_no_suma_1, "no suman 1"),
                 Error(_otra_temperatura, "los valores no"),
                 Error(_sin_return, "no devuelve nada"), Error(_plantilla_sin_tocar, "Aún no has respondido"),
                 Error(_solo_la_primera_fila, "la forma de los pesos"),
                 Error(_en_numpy, "debe devolver un tensor de PyTorch"),
                 Error(torch.eye(2), "sin paréntesis")],
    ),
    "02.4": Caso(
        adivinanzas=[Adivinanza([[1, 2, 3], [4, 5, 6]], "el ejemplo de formato del enunciado"),
                     Adivinanza([[4, 7, 16], [4, 12, 16]], "las formas de Q y de K, copiadas del enunciado"),
                     Adivinanza([[4, 7, 7], [4, 7, 32]], "una tabla cuadrada, como en la autoatención"),
                     Adivinanza([[4, 12, 12], [4, 12, 32]], "todo del largo de la frase de entrada")],
        solucion=[[4, 7, 12], [4, 7, 32]],
        acepta=[[(4, 7, 12), (4, 7, 32)], [torch.Size([4, 7, 12]), torch.Size([4, 7, 32])],
                [torch.tensor([4, 7, 12]), torch.tensor([4, 7, 32])], [[4.0, 7.0, 12.0], [4.0, 7.0, 32.0]]],
        rechaza=[[[4, 7, 12], [4, 7, 33]], [[4, 8, 12], [4, 8, 32]]],
        errores=[Error([[4, 7, 32], [4, 7, 12]], "orden contrario"), Error([[7, 12], [7, 32]], "te falta el lote"),
                 Error([[1, 7, 12], [1, 7, 32]], "el lote no cambia"),
                 Error([[4, 12, 7], [4, 7, 32]], "claves en las filas"),
                 Error([[4, 7, 7], [4, 7, 32]], "cuadrada"), Error([[4, 7, 12], [4, 7, 16]], "mezcla valores"),
                 Error([[4, 7, 12], [4, 12, 32]], "palabra que pregunta"),
                 Error([[4, 7, 12.5], [4, 7, 32]], "enteros"), Error([4, 7, 12], "dos listas")],
    ),
}
