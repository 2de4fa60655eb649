"""Casos de la lección 01 para la prueba por tabla de los ejercicios."""

import math

import torch

from casos_ejercicios import Adivinanza, Caso, Error


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
        adivinanzas=[Adivinanza("banco", "la favorita de «en» sin máscara, la que enseña la actividad al abrirla"),
                     Adivinanza("en", "la propia palabra"),
                     Adivinanza("Ana", "la primera palabra, la única que ve cualquiera")],
        solucion="plata",
        errores=[Error("banco", "sin máscara"), Error("el", "van después"), Error("en", "sí misma"),
                 Error("guardó", "segunda"), Error("perro", "no está en la frase"), Error(4, "entre comillas")],
        acepta=["«plata»", " Plata "],
        desviadas=["guardó", "Ana", "la"],
        tipos=False,
    ),
    "01.2": Caso(
        adivinanzas=[Adivinanza(_media_simple, "la media de los valores, sin consulta"),
                     Adivinanza(_dividida, "la fórmula de la lección 02: el enunciado dice «sin dividir»")],
        solucion=_busqueda_blanda,
        errores=[Error(_sin_return, "no devuelve nada"), Error(_dividida, "sin dividir por nada"),
                 Error(_media_simple, "media simple"), Error(_solo_pesos, "son los pesos"),
                 Error(_sin_softmax, "puntajes en crudo"), Error(_busqueda_blanda(
                     torch.zeros(2), torch.zeros(3, 2), torch.zeros(3, 2)), "sin paréntesis")],
    ),
    "01.3": Caso(
        adivinanzas=[Adivinanza(0.5, "un reparto a medias entre las dos palabras visibles"),
                     Adivinanza(1.0, "«solo ve a Ana»"),
                     Adivinanza(0.746, "el peso sin máscara"),
                     Adivinanza(0.97, "«casi todo», a ojo"), Adivinanza(0.95, "«casi todo», a ojo")],
        solucion=0.963,
        acepta=[0.96, 0.963],
        errores=[Error(96.3, "porcentaje"), Error(0.746, "sin la máscara"), Error(0.037, "a sí misma"),
                 Error([0.963, 0.037], "un solo número")],
    ),
    "01.4": Caso(
        # La clave inicial alargada 1.72 veces, sin girarla: mide 3.29 y «banco» le da el 91 %.
        solucion=[2.24, 2.41],
        acepta=[[1.7, 2.8], [2.0, 2.6], [1.9, 2.7], [2.21, 2.38], [1.3 * 1.7, 1.4 * 1.7]],
        desviadas=[[2.24 * 0.7, 2.41 * 0.7], [2.24 * 1.3, 2.41 * 1.3]],
        errores=[Error([5.0, 5.0], "caber en el plano"), Error([1.3, 1.4], "clave inicial"),
                 Error([-1.0, 1.0], "hace falta al menos 90"), Error(3.0, "dos números"),
                 Error([2.6, 2.8], "más de lo necesario"), Error([-3.0, -3.0], "no puede medir más de"),
                 Error([2.9, 2.0], "acércala también a la dirección"),
                 Error([1.3 * 1.6, 1.4 * 1.6], "alárgala")],
        adivinanzas=[
            Adivinanza([2.6, 2.8], "la clave doblada: la pregunta 5 enseña que «banco» le da el 95 %"),
            Adivinanza([3.0, 3.0], "la esquina del plano hacia la consulta: alargar sin medir"),
            Adivinanza([-3.0, 3.0], "otra esquina del plano"), Adivinanza([3.0, -3.0], "otra esquina del plano"),
            Adivinanza([-3.0, -3.0], "otra esquina del plano"),
            Adivinanza([1.8, 3.0], "la solución de antes del límite de longitud"),
            Adivinanza([2.0, 3.4], "el doble de la consulta de «banco»"),
            Adivinanza([1.0, 1.7], "la consulta de «banco» copiada como clave"),
            Adivinanza([1.3, 1.4], "la clave inicial, sin tocar"),
            Adivinanza([1.3 * 1.5, 1.4 * 1.5], "alargarla «un poco», a ojo, sin medir cuánto"),
        ],
    ),
}
