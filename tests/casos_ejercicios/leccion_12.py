"""Casos de la prueba por tabla para los ejercicios de la lección 12 · De GPT-2 a los modelos de hoy."""

import math

import torch
import torch.nn.functional as F

from casos_ejercicios import Adivinanza, Caso, Error


def _megas(kv=2, capas=24, cabezas=16, d_cabeza=64, contexto=1024, bytes_por_numero=2, lote=4, unidad=1e6):
    return kv * capas * cabezas * d_cabeza * contexto * bytes_por_numero * lote / unidad


def _qkv(d=128, d_kv=32, kv=2, sesgo=True):
    return d * (d + kv * d_kv) + ((d + kv * d_kv) if sesgo else 0)


# 12.4: con la semilla 1 (validación), por debajo del mini-GPT: [RMSNorm, SwiGLU, RoPE, GQA, MQA, mini-Llama].
CON_LA_SEMILLA_1 = [False, True, True, False, True, True]
REGLA_DEL_RUIDO = [False, False, True, False, False, True]  # lo que dice la lección con las tres semillas
MEDIAS = [False, True, True, True, True, True]  # comparar las medias de la tabla (y también la semilla 0)
CON_LA_SEMILLA_2 = [False, True, True, True, False, True]


# 12.5: la atención con grupos de claves, causal. Cada cabeza de consulta c usa la clave c // (cabezas // cabezas_kv).
def _veces(q, k):
    return q.shape[1] // k.shape[1]


def _gqa(q, k, v):
    veces = _veces(q, k)
    k, v = k.repeat_interleave(veces, dim=1), v.repeat_interleave(veces, dim=1)
    L, d = q.shape[-2], q.shape[-1]
    puntajes = q @ k.transpose(-2, -1) / math.sqrt(d)
    futuro = torch.ones(L, L, dtype=torch.bool).triu(1)
    return torch.softmax(puntajes.masked_fill(futuro, float("-inf")), dim=-1) @ v


def _gqa_con_la_de_la_leccion(q, k, v):
    from utilidades.atencion import atencion
    from utilidades.mascaras import mascara_causal
    from utilidades.modernos import repetir_cabezas

    veces = _veces(q, k)
    return atencion(q, repetir_cabezas(k, veces), repetir_cabezas(v, veces), mascara_causal(q.shape[-2]))[0]


def _gqa_que_nombra_la_opcion(q, k, v):
    # lo mismo que enable_gqa=True, pero a mano: nombrarla en un comentario no es usarla
    return _gqa(q, k, v)


def _gqa_en_float32(q, k, v):
    return _gqa(q.float(), k.float(), v.float())


def _alternas(q, k, v):
    veces = _veces(q, k)
    return F.scaled_dot_product_attention(q, k.repeat(1, veces, 1, 1), v.repeat(1, veces, 1, 1), is_causal=True)


def _sin_mascara(q, k, v):
    veces = _veces(q, k)
    return F.scaled_dot_product_attention(q, k.repeat_interleave(veces, 1), v.repeat_interleave(veces, 1))


def _sin_escala(q, k, v):
    veces = _veces(q, k)
    return F.scaled_dot_product_attention(q, k.repeat_interleave(veces, 1), v.repeat_interleave(veces, 1),
                                          is_causal=True, scale=1.0)


def _sin_repetir(q, k, v):
    return F.scaled_dot_product_attention(q, k, v, is_causal=True)


def _con_enable_gqa(q, k, v):
    return F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)


def _una_por_clave(q, k, v):
    return F.scaled_dot_product_attention(q[:, :k.shape[1]], k, v, is_causal=True)


def _sin_return(q, k, v):
    _gqa(q, k, v)


CASOS = {
    "12.1": Caso(
        solucion=_megas(),
        acepta=[402.65, 402.7, 403],
        rechaza=[401, 404.5],  # a más de un 0.2 %
        errores=[
            # Sin el 2 de claves y valores, o la llamada de la sección 2 copiada con sus valores por defecto (float32 y
            # un texto): el mismo número, y una pista que nombra las dos causas.
            Error(_megas(kv=1), "o falta el 2 (la caché guarda dos tensores por bloque: las claves y los valores), o "
                                "has dejado los valores por defecto de bytes_por_formula"),
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
        solucion=CON_LA_SEMILLA_1,
        booleana=True,
        desviadas=[[True] * 6, [False] * 6],
        errores=[
            Error(REGLA_DEL_RUIDO, "la regla del ruido"),
            Error(MEDIAS, "las medias de la tabla"),
            Error([not v for v in CON_LA_SEMILLA_1], "una pérdida más baja es mejor"),
            Error(CON_LA_SEMILLA_2, "la semilla 2"),
            Error([True, True, False, False, True, True], "compara su «mejor_validacion»"),
            Error([0, 1, 1, 0, 1, 1], "no 0 o 1"),
            Error(["False", "True", "True", "False", "True", "True"], "sin comillas"),
            Error(CON_LA_SEMILLA_1[:5], "hay 6 variantes"),
            Error(True, "una lista de 6 valores"),
        ],
        adivinanzas=[Adivinanza(REGLA_DEL_RUIDO, "lo que dice la prosa de la sección 8 (la regla del ruido)"),
                     Adivinanza(MEDIAS, "comparar las medias que imprime la tabla"),
                     Adivinanza([True] * 6, "todas mejoran"), Adivinanza([False] * 6, "ninguna mejora")],
    ),
    "12.5": Caso(
        solucion=_gqa,
        acepta=[_gqa_con_la_de_la_leccion, _gqa_en_float32, _gqa_que_nombra_la_opcion],
        errores=[
            Error(_alternas, "una tras otra"),
            Error(_sin_mascara, "falta la máscara causal"),
            Error(_sin_escala, "√d_cabeza"),
            Error(_sin_repetir, "hay más consultas que claves"),
            Error(_con_enable_gqa, "sin enable_gqa"),
            Error(_una_por_clave, "una mezcla por cada cabeza de consulta"),
            Error(_sin_return, "no devuelve nada"),
            Error(3, "debe ser una función"),
        ],
        adivinanzas=[Adivinanza(_con_enable_gqa, "la función de PyTorch que el enunciado pide no usar"),
                     Adivinanza(_sin_repetir, "la atención causal de siempre, sin repetir las claves"),
                     Adivinanza(_alternas, "repetir las claves con .repeat, alternas")],
    ),
}
