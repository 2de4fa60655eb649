"""Casos de la lección 02 para la prueba por tabla de los ejercicios."""

import math
import warnings

import torch

from casos_ejercicios import Adivinanza, Caso, Error


def _escala(Q):
    return math.sqrt(Q.shape[-1])


def _pesos(Q, K, T):
    return torch.softmax(Q @ K.transpose(-2, -1) / (_escala(Q) * T), dim=-1)


def _potencia_renormalizada(Q, K, T):
    """Correcta por otro camino: elevar los pesos sin temperatura a 1/T y volver a normalizar cada fila."""
    p = torch.softmax(Q @ K.transpose(-2, -1) / _escala(Q), dim=-1) ** (1 / T)
    return p / p.sum(dim=-1, keepdim=True)


def _pesos_sin_T(Q, K, T):
    return torch.softmax(Q @ K.transpose(-2, -1) / _escala(Q), dim=-1)


def _por_T(Q, K, T):
    return torch.softmax(Q @ K.transpose(-2, -1) * T / _escala(Q), dim=-1)


def _T_tras_softmax(Q, K, T):
    return torch.softmax(Q @ K.transpose(-2, -1) / _escala(Q), dim=-1) / T


def _con_K_T(Q, K, T):
    with warnings.catch_warnings():  # PyTorch avisa de que .T con lotes dejará de funcionar: es el error que se imita
        warnings.simplefilter("ignore", UserWarning)
        return torch.softmax(Q @ K.T / (_escala(Q) * T), dim=-1)


def _solo_T(Q, K, T):
    return torch.softmax(Q @ K.transpose(-2, -1) / T, dim=-1)


def _sin_escala(Q, K, T):
    return torch.softmax(Q @ K.transpose(-2, -1), dim=-1)


def _entre_d(Q, K, T):
    return torch.softmax(Q @ K.transpose(-2, -1) / (Q.shape[-1] * T), dim=-1)


def _entre_raiz_de_L(Q, K, T):
    return torch.softmax(Q @ K.transpose(-2, -1) / (math.sqrt(Q.shape[-2]) * T), dim=-1)


def _por_columnas(Q, K, T):
    return torch.softmax(Q @ K.transpose(-2, -1) / (_escala(Q) * T), dim=-2)


def _al_reves(Q, K, T):
    return torch.softmax(K @ Q.transpose(-2, -1) / (_escala(Q) * T), dim=-1)


def _T_en_la_raiz(Q, K, T):
    return torch.softmax(Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1] * T), dim=-1)


def _T_al_cuadrado(Q, K, T):
    return torch.softmax(Q @ K.transpose(-2, -1) / (_escala(Q) * T ** 2), dim=-1)


def _raiz_mas_T(Q, K, T):
    return torch.softmax(Q @ K.transpose(-2, -1) / (_escala(Q) + T), dim=-1)


def _sin_return(Q, K, T):
    torch.softmax(Q @ K.transpose(-2, -1) / (_escala(Q) * T), dim=-1)


_ANA = [0.5761, 0.1411, 0.2828]

def _pesos_en_float32(Q, K, T):
    """La fórmula correcta calculada en float32 (el tipo por defecto de PyTorch): debe aceptarse."""
    Q, K = Q.float(), K.float()
    return torch.softmax(Q @ K.transpose(-2, -1) / (math.sqrt(Q.shape[-1]) * T), dim=-1)


CASOS = {
    "02.1": Caso(
        adivinanzas=[Adivinanza([1 / 3, 1 / 3, 1 / 3], "un reparto uniforme"),
                     Adivinanza([1.0, 0.0, 0.0], "todo a sí misma"),
                     Adivinanza([0.57, 0.15, 0.28], "vecinos inventados, a una centésima de los buenos"),
                     Adivinanza([0.59, 0.14, 0.27], "vecinos inventados que también suman 1")],
        solucion=_ANA,
        acepta=[[0.58, 0.14, 0.28], [0.576, 0.141, 0.283]],
        rechaza=[[0.58, 0.14, 0.29], [0.57, 0.15, 0.28]],
        errores=[Error([2, 0, 1], "productos escalares"), Error([1.41, 0.0, 0.71], "son los puntajes"),
                 Error([0.6652, 0.0900, 0.2447], "sin dividirlos"), Error([57.6, 14.1, 28.3], "porcentaje"),
                 Error([0.6, 0.1, 0.3], "un decimal"), Error([0.58, 0.14], "forma"),
                 Error([0.51, 0.19, 0.31], "por d = 2"),
                 Error([0.57, 0.14, 0.28], "cortado los decimales")],
    ),
    "02.2": Caso(
        adivinanzas=[Adivinanza([1.0, 0.0, 0.0], "todo a la primera"),
                     Adivinanza([0.5, 0.5, 0.0], "a medias entre dos"),
                     Adivinanza([0.0471, 0.1915, 0.7615], "la fila de «plata» con las claves de la lección")],
        solucion=[1 / 3, 1 / 3, 1 / 3],
        errores=[Error([1.41, 1.41, 1.41], "son los puntajes"), Error([1, 1, 1], "sumar 1"),
                 Error([0.0471, 0.1915, 0.7615], "claves originales"), Error([0.5, 0.5], "un peso por palabra")],
    ),
    "02.3": Caso(
        adivinanzas=[Adivinanza(_pesos_sin_T, "la tabla de pesos de la celda de `atencion`, que no usa T"),
                     Adivinanza(_sin_escala, "softmax(QKᵀ) sin escala ni temperatura"),
                     Adivinanza(_con_K_T, "K.T, que solo vale sin lotes")],
        solucion=_pesos,
        acepta=[_pesos_en_float32, _potencia_renormalizada],
        errores=[Error(_con_K_T, "transpose(-2, -1)"), Error(_sin_escala, "te falta la escala y la temperatura"),
                 Error(_solo_T, "te falta la escala: "),
                 Error(_pesos_sin_T, "no cambian con T"), Error(_por_T, "multiplicas"),
                 Error(_T_tras_softmax, "después del softmax"),
                 Error(_entre_d, "has dividido por d"), Error(_entre_raiz_de_L, "√L"),
                 Error(_T_en_la_raiz, "dentro de la raíz"), Error(_T_al_cuadrado, "dos veces"),
                 Error(_raiz_mas_T, "has sumado"),
                 Error(_por_columnas, "no suman 1"), Error(_al_reves, "Q va a la izquierda"),
                 Error(_sin_return, "no devuelve nada"),
                 Error(_pesos(torch.eye(2), torch.eye(2), 2.0), "sin paréntesis")],
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
