"""Casos de la lección 01 para la prueba por tabla de los ejercicios."""

import math

import torch

from casos_ejercicios import Caso, Error


def _busqueda_blanda(consulta, claves, valores):
    return torch.softmax(claves @ consulta, dim=0) @ valores


def _sin_return(consulta, claves, valores):
    torch.softmax(claves @ consulta, dim=0) @ valores


def _dividida(consulta, claves, valores):
    return torch.softmax(claves @ consulta / math.sqrt(len(consulta)), dim=0) @ valores


def _media_simple(consulta, claves, valores):
    return valores.mean(dim=0)


def _solo_pesos(consulta, claves, valores):
    return torch.softmax(claves @ consulta, dim=0)


def _sin_softmax(consulta, claves, valores):
    return (claves @ consulta) @ valores


CASOS = {
    "01.1": Caso(
        solucion="plata",
        errores=[Error("banco", "sin máscara"), Error("el", "van después"), Error("en", "sí misma"),
                 Error("guardó", "segunda"), Error("perro", "no está en la frase"), Error(4, "entre comillas")],
        acepta=["«plata»", " Plata "],
        desviadas=["guardó", "Ana", "la"],
        tipos=False,
    ),
    "01.2": Caso(
        solucion=_busqueda_blanda,
        errores=[Error(_sin_return, "no devuelve nada"), Error(_dividida, "sin dividir por nada"),
                 Error(_media_simple, "media simple"), Error(_solo_pesos, "son los pesos"),
                 Error(_sin_softmax, "similitudes en crudo"), Error(_busqueda_blanda(
                     torch.zeros(2), torch.zeros(3, 2), torch.zeros(3, 2)), "sin paréntesis")],
    ),
    "01.3": Caso(
        solucion=0.963,
        acepta=[0.96, 0.97],
        errores=[Error(96.3, "porcentaje"), Error(0.746, "sin la máscara"), Error(0.037, "a sí misma"),
                 Error([0.963, 0.037], "un solo número")],
    ),
    "01.4": Caso(
        solucion=[1.8, 3.0],
        acepta=[[2.0, 3.0], [3.0, 3.0]],
        errores=[Error([5.0, 5.0], "caber en el plano"), Error([1.3, 1.4], "clave inicial"),
                 Error([-1.0, 1.0], "hace falta al menos 90"), Error(3.0, "dos números")],
    ),
}
