"""Casos de la prueba por tabla para los ejercicios de la lección 10 · Un mini-GPT que escribe."""

import math

import torch

from casos_ejercicios import Adivinanza, Caso, Error
from utilidades.ejercicios.leccion_10 import (
    SOBREAJUSTE,
    diferencias_sin_y_con_posiciones,
    posiciones_calculadas,
    referencias_10_2,
    temperatura_para,
)

_SIN, _CON = diferencias_sin_y_con_posiciones()
_MEJOR, _ULTIMA, _ENTRENAMIENTO = SOBREAJUSTE["mejor"], SOBREAJUSTE["ultima"], SOBREAJUSTE["entrenamiento"]
_PASO_50 = SOBREAJUSTE["paso_50"]
_T = temperatura_para()  # 1 / ln 9 ≈ 0.455: con top-2, «plata» se lleva el 90 %


_REF = referencias_10_2()
_ANTERIOR = _REF["anterior"]


def _cabezas(valores, factor=1.0, desplazamiento=0.0):
    return {h: v * factor + desplazamiento for h, v in valores.items()}


CASOS = {
    "10.1": Caso(
        adivinanzas=[Adivinanza(200, "una pasada por carácter"), Adivinanza(200 * 64, "todas las ventanas llenas")],
        solucion=posiciones_calculadas(),
        errores=[
            Error(200, "pasadas del modelo"),
            Error(200 * 64, "no todas las ventanas están llenas"),
            Error(sum(range(10, 210)), "no crece sin fin"),
            Error(posiciones_calculadas(inicio=11), "la primera pasada ve solo"),
            Error(posiciones_calculadas(nuevos=201), "una pasada por carácter nuevo"),
            Error(11_000.5, "sin decimales"),
        ],
    ),
    "10.2": Caso(
        solucion=dict(_ANTERIOR),
        tipos=False,
        acepta=[_cabezas(_ANTERIOR, desplazamiento=0.005), {h: torch.tensor(v) for h, v in _ANTERIOR.items()},
                {h: torch.tensor(v, dtype=torch.float64) for h, v in _ANTERIOR.items()}],
        desviadas=[_cabezas(_ANTERIOR, 1.3), _cabezas(_ANTERIOR, 0.7)],
        rechaza=[_cabezas(_ANTERIOR, desplazamiento=0.05), 0.5],
        errores=[
            Error({h: 0.0 for h in range(4)}, "en el futuro que la máscara tapa"),
            Error(dict(_REF["el_mismo"]), "a sí mismo"),
            Error(dict(_REF["bloque_1"]), "segundo bloque"),
            Error(dict(_REF["sin_entrenar"]), "sin entrenar"),
            Error({h + 1: v for h, v in _ANTERIOR.items()}, "desde 0"),
            Error({h: 0.3 for h in range(3)}, "exactamente las claves 0, 1, 2 y 3"),
            Error(dict(zip(range(4), reversed(list(_ANTERIOR.values())))), "no en su sitio"),
            Error({0: 0.3, 1: "0.3", 2: 0.3, 3: 0.3}, "un número por cabeza"),
            Error([0.3, 0.3, 0.3, 0.3], "diccionario"),
        ],
        adivinanzas=[
            Adivinanza({h: 0.25 for h in range(4)}, "un cuarto para cada cabeza"),
            Adivinanza({h: 1 / 32 for h in range(4)}, "el reparto por igual entre los 32 caracteres que ve, de media"),
            Adivinanza({0: 1.0, 1: 0.0, 2: 0.0, 3: 0.0}, "«una cabeza mira solo al anterior»"),
            Adivinanza(dict(_REF["el_mismo"]), "la diagonal principal, que es otra pregunta"),
        ],
    ),
    "10.3": Caso(
        adivinanzas=[Adivinanza((0.0, 0.0), "«nada cambia»"),
                     Adivinanza((0.0, 1.0), "un número redondo para la segunda")],
        solucion=(_SIN, _CON),
        rechaza=[(0.0, 1.0), (0.0, 2 * _CON)],
        errores=[
            Error((_CON, _CON), "casi 0"),
            Error((0.0, 0.0), "posiciones=True"),
            Error((0.0, 1.0), "no es la que da el modelo"),
            Error((0.0,), "tupla de dos números"),
        ],
    ),
    "10.4": Caso(
        solucion=_T,
        acepta=[0.45, 0.455, 0.46, 1 / math.log(9)],
        rechaza=[temperatura_para(top_k=3)],
        errores=[
            Error(temperatura_para(top_k=None), "más de dos caracteres"),
            # con top_k = 3 sale casi lo mismo (0.407): el mismo error, la misma pista
            Error(math.log(9), "1/T en vez de T"),
            Error(1 / math.log10(9), "el decimal"),
            Error(-0.455, "mayor que 0"),
            Error(0.5, "baja la temperatura"),
            Error(0.3, "sube la temperatura"),
            Error([0.455, 0.5], "un solo número"),
        ],
        adivinanzas=[
            Adivinanza(0.5, "la temperatura baja que imprime la sección 8"),
            Adivinanza(1.0, "la temperatura por defecto de generar"),
            Adivinanza(0.8, "la temperatura de generar_texto"),
            Adivinanza(2.0, "la temperatura alta de la sección 8"),
            Adivinanza(0.4, "un número redondo por debajo de 0.5"),
        ],
    ),
    "10.5": Caso(
        solucion=math.exp(_ULTIMA - _MEJOR),
        errores=[
            Error(_ULTIMA / _MEJOR, "cociente de las pérdidas"),
            Error(_ULTIMA - _MEJOR, "diferencia de las pérdidas"),
            Error(math.exp(_MEJOR - _ULTIMA), "al revés"),
            Error(math.exp(_ULTIMA - _ENTRENAMIENTO), "validación con entrenamiento"),
            Error(math.exp(_ULTIMA - _PASO_50), "medida del paso 50"),
            Error([1.0, 2.0], "un solo número"),
        ],
        rechaza=[1.1, 9.0, 10.0],
        adivinanzas=[
            Adivinanza(1.1, "«un poco más de 1»"),
            Adivinanza(2.0, "«el doble», a ojo en la figura"),
            Adivinanza(10.0, "«unas diez veces», redondeando"),
            Adivinanza(1.0, "«no cambia»"),
            Adivinanza(math.exp(_ULTIMA - _PASO_50), "la última frente al paso 50, no frente a la mejor"),
            Adivinanza(math.exp(_ULTIMA - _MEJOR) * 1.012, "el cociente un 1.2 % desviado (0.012 nats, el doble de "
                                                          "la tolerancia)"),
        ],
    ),
}
