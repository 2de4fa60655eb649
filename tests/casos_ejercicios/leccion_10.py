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
from utilidades.gpt import MiniGPT
from utilidades.texto import TokenizadorCaracteres, leer_corpus

_SIN, _CON = diferencias_sin_y_con_posiciones()
_CON_UNA_SEMILLA = diferencias_sin_y_con_posiciones(una_semilla=True)[1]


def _diferencias_10_3(capas=1, evaluar=True, ultima=True):
    """(diferencia_sin, diferencia_con) con los errores frecuentes del ejercicio 10.3 como opciones."""
    tokenizador = TokenizadorCaracteres(leer_corpus())
    abc, bac = (torch.tensor([tokenizador.codificar(t)]) for t in ("abc", "bac"))
    diferencias = []
    with torch.random.fork_rng(devices=[]), torch.no_grad():
        for posiciones in (False, True):
            torch.manual_seed(0)
            modelo = MiniGPT(len(tokenizador), capas=capas, posiciones=posiciones).train(not evaluar)
            a, b = (modelo(x)[0, -1] if ultima else modelo(x) for x in (abc, bac))
            diferencias.append((a - b).abs().max().item())
    return tuple(diferencias)


_DOS_BLOQUES = _diferencias_10_3(capas=2)  # sin capas=1: con dos bloques el orden se cuela
_SIN_EVAL = _diferencias_10_3(evaluar=False)  # sin modelo.eval(): el dropout cambia cada pasada
_TODAS_LAS_POSICIONES = _diferencias_10_3(ultima=False)  # todas las filas: la primera ya es otro carácter
_MEJOR, _ULTIMA, _ENTRENAMIENTO = SOBREAJUSTE["mejor"], SOBREAJUSTE["ultima"], SOBREAJUSTE["entrenamiento"]
_PASO_50 = SOBREAJUSTE["paso_50"]
_VECES = math.exp(_ULTIMA - _MEJOR)  # el cociente de perplejidades del ejercicio 10.5
_T = temperatura_para()  # 1 / ln 9 ≈ 0.455: con top-2, «plata» se lleva el 90 %


_REF = referencias_10_2()
_ANTERIOR = _REF["anterior"]


def _medias(modelo, datos, desplazamiento=-1, bloque=0, claves=range(4)):
    """La cuenta del enunciado, con los errores frecuentes como opciones."""
    n = len(datos) // 64
    pesos = modelo.pesos_de_atencion(datos[:n * 64].view(n, 64))[bloque]
    diagonal = torch.diagonal(pesos, offset=desplazamiento, dim1=-2, dim2=-1)
    return {c: diagonal[:, h].mean().item() for h, c in zip(range(4), claves)}


def _medias_en_float64(modelo, datos):
    return {h: torch.tensor(v, dtype=torch.float64) for h, v in _medias(modelo, datos).items()}


def _futuro(modelo, datos):
    return _medias(modelo, datos, desplazamiento=1)


def _diagonal(modelo, datos):
    return _medias(modelo, datos, desplazamiento=0)


def _dos_atras(modelo, datos):
    return _medias(modelo, datos, desplazamiento=-2)


def _bloque_1(modelo, datos):
    return _medias(modelo, datos, bloque=1)


def _desde_1(modelo, datos):
    return _medias(modelo, datos, claves=range(1, 5))


def _cambiadas(modelo, datos):
    medias = _medias(modelo, datos)
    return {h: medias[3 - h] for h in medias}


def _fijas(modelo, datos):
    return dict(_ANTERIOR)


def _en_una_lista(modelo, datos):
    return list(_medias(modelo, datos).values())


def _sin_item(modelo, datos):
    return {0: "0.1", 1: 0.9, 2: 0.1, 3: 0.9}


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
        solucion=_medias,
        tipos=False,
        acepta=[_medias_en_float64],
        desviadas=[lambda modelo, datos: {h: 1.3 * v for h, v in _medias(modelo, datos).items()},
                   lambda modelo, datos: {h: 0.7 * v for h, v in _medias(modelo, datos).items()}],
        errores=[
            Error(_futuro, "en el futuro que la máscara tapa"),
            Error(_diagonal, "a sí mismo"),
            Error(_dos_atras, "dos caracteres atrás"),
            Error(_bloque_1, "segundo bloque"),
            Error(_desde_1, "desde 0"),
            Error(_cambiadas, "no en su sitio"),
            Error(_fijas, "con otro modelo no"),
            Error(_en_una_lista, "un diccionario"),
            Error(_sin_item, "un número por cabeza"),
            Error(dict(_ANTERIOR), "debe ser una función"),
        ],
        adivinanzas=[
            Adivinanza(lambda modelo, datos: {h: 0.25 for h in range(4)}, "un cuarto para cada cabeza"),
            Adivinanza(_fijas, "los números buenos escritos a mano, leídos en algún sitio"),
            Adivinanza(dict(_ANTERIOR), "los números sin la función"),
        ],
    ),
    "10.3": Caso(
        adivinanzas=[Adivinanza((0.0, 0.0), "«nada cambia»"),
                     Adivinanza((0.0, 1.0), "un número redondo para la segunda"),
                     Adivinanza((0.0, 0.1), "«con posiciones, algo»: un número pequeño inventado")],
        solucion=(_SIN, _CON),
        # Sembrar una vez y crear los dos modelos seguidos mide lo mismo con otros pesos al azar: también vale.
        acepta=[(_SIN, _CON_UNA_SEMILLA), [_SIN, _CON_UNA_SEMILLA], torch.tensor([_SIN, _CON_UNA_SEMILLA]),
                (torch.tensor(_SIN), torch.tensor(_CON_UNA_SEMILLA))],
        rechaza=[(0.0, 1.0), (0.0, 2 * _CON), (0.0, 1.3 * _CON_UNA_SEMILLA), (0.0, 0.7 * _CON_UNA_SEMILLA),
                 (_CON, _SIN), _SIN_EVAL, _TODAS_LAS_POSICIONES],
        errores=[
            Error(_DOS_BLOQUES, "capas=1"),
            Error((_CON, _SIN), "orden del enunciado"),
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
        # El enunciado pide un decimal: esa es la respuesta; con todas sus cifras también vale.
        solucion=round(_VECES, 1),
        acepta=[_VECES, round(_VECES, 2)],
        # Los errores, redondeados a un decimal como pide el enunciado (con todas sus cifras, en rechaza).
        errores=[
            Error(round(_ULTIMA / _MEJOR, 1), "cociente de las pérdidas"),
            Error(round(_ULTIMA - _MEJOR, 1), "diferencia de las pérdidas"),
            Error(round(1 / _VECES, 1), "al revés"),
            Error(round(_VECES - 1, 1), "cociente menos 1"),
            Error(round(math.exp(_ULTIMA - _ENTRENAMIENTO), 1), "validación con entrenamiento"),
            Error(round(math.exp(_ULTIMA - _PASO_50), 1), "medida del paso 50"),
            Error(round(_VECES), "con un decimal"),
            Error([1.0, 2.0], "un solo número"),
        ],
        rechaza=[1.1, float(round(_VECES)), 10.0, round(_VECES, 1) + 0.1, round(_VECES, 1) - 0.1,
                 _ULTIMA / _MEJOR, _ULTIMA - _MEJOR, 1 / _VECES, _VECES - 1, math.exp(_ULTIMA - _ENTRENAMIENTO),
                 math.exp(_ULTIMA - _PASO_50)],
        adivinanzas=[
            Adivinanza(1.1, "«un poco más de 1»"),
            Adivinanza(2.0, "«el doble», a ojo en la figura"),
            Adivinanza(10.0, "«unas diez veces», redondeando"),
            Adivinanza(1.0, "«no cambia»"),
            Adivinanza(math.exp(_ULTIMA - _PASO_50), "la última frente al paso 50, no frente a la mejor"),
            Adivinanza(_VECES * 1.012, "el cociente un 1.2 % desviado (0.012 nats, el doble de la tolerancia)"),
        ],
    ),
}
