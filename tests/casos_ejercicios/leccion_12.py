"""Casos de la prueba por tabla para los ejercicios de la lección 12 · De GPT-2 a los modelos de hoy."""

import math

from casos_ejercicios import Adivinanza, Caso, Error


def _megas(kv=2, capas=24, cabezas=16, d_cabeza=64, contexto=1024, bytes_por_numero=2, lote=4, unidad=1e6):
    return kv * capas * cabezas * d_cabeza * contexto * bytes_por_numero * lote / unidad


def _qkv(d=128, d_kv=32, kv=2, sesgo=True):
    return d * (d + kv * d_kv) + ((d + kv * d_kv) if sesgo else 0)


def _bytes(kv=2, capas=32, cabezas_kv=8, d_cabeza=128, bytes_por_numero=2):
    return kv * capas * cabezas_kv * d_cabeza * bytes_por_numero


CASOS = {
    "12.1": Caso(
        solucion=_megas(),
        acepta=[402.65, 402.7, 403],
        errores=[
            Error(_megas(kv=1), "claves y los valores"),
            Error(_megas(bytes_por_numero=4), "2 bytes, no 4"),
            Error(_megas(lote=1), "su propia caché: multiplica"),
            Error(_megas(unidad=2**20), "no 2²⁰"),
            Error(_megas(d_cabeza=1024), "d_cabeza = d_modelo / cabezas"),
            Error(_megas(capas=1), "GPT-2 medium tiene 24"),
            Error(_megas(unidad=1), "divide los bytes"),
            Error(_megas(bytes_por_numero=16), "no bits"),
            Error(500, "usa la fórmula de la sección 2"),
        ],
        adivinanzas=[Adivinanza(_megas(kv=2, capas=12, cabezas=12, bytes_por_numero=4, lote=1),
                                "la caché de GPT-2 small en float32, la cuenta de la lección sin cambiar las medidas"),
                     Adivinanza(400, "un número redondo cerca de la respuesta")],
    ),
    "12.2": Caso(
        solucion=math.cos(2),
        acepta=[-0.416, -0.42],
        errores=[
            Error(1.0, "sin girar"),
            Error(math.cos(4), "no se suman"),
            Error(math.cos(3), "solo la consulta"),
            Error(math.cos(1), "solo la clave"),
            Error(math.sin(2), "no el seno"),
            Error(0.0, "gira (1, 0) un ángulo p"),
        ],
        adivinanzas=[Adivinanza(-0.5, "un número inventado cerca"), Adivinanza(0.99939, "el ángulo en grados")],
    ),
    "12.3": Caso(
        solucion=_qkv(),
        errores=[
            Error(_qkv(d_kv=128), "la atención multicabeza de siempre"),
            Error(_qkv(sesgo=False), "lleva sesgo"),
            Error(_qkv(kv=1), "son dos, no una"),
            Error(_qkv(d_kv=64), "cabezas_kv=4"),
            Error(_qkv() + 128 * 128 + 128, "sin la de salida"),
            Error(25000, "d_cabeza = d_modelo / cabezas"),
        ],
        adivinanzas=[Adivinanza(_qkv(d_kv=128), "contar la proyección de la lección 04 sin pensar en cabezas_kv"),
                     Adivinanza(96 * 144 + 144, "la proyección de MQA con las medidas del mini-GPT, que se deduce "
                                                "de la tabla de la sección 8")],
    ),
    "12.4": Caso(
        solucion=_bytes(),
        acepta=[131072.0],
        errores=[
            Error(_bytes(cabezas_kv=32), "solo las cabezas de claves"),
            Error(_bytes(kv=1), "dos tensores por bloque"),
            Error(_bytes(bytes_por_numero=4), "2 bytes, no 4"),
            Error(_bytes(capas=1), "son 32 bloques"),
            Error(100_000, "2 · capas · cabezas_kv"),
        ],
        adivinanzas=[Adivinanza(128 * 1024 * 4, "las cuatro veces más de la MHA")],
    ),
}
