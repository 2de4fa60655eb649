"""Comprobaciones de los ejercicios de la lección 12 (de GPT-2 a los modelos de hoy): la memoria de la caché, el giro
de RoPE y lo que ahorran las cabezas de claves compartidas."""

import math

from utilidades.ejercicios import bien, ejercicio, exigir_numero, pista


def _reconocer(valor, candidatos, rel_tol=0.01):
    """La pista del primer error frecuente cuyo número se parece a `valor` (a un 1 %), o None."""
    for esperado, texto in candidatos:
        if math.isclose(valor, esperado, rel_tol=rel_tol, abs_tol=1e-9):
            return pista(texto)
    return None


# Ejercicio 12.1: la caché llena de un modelo con las medidas de GPT-2 medium, en float16 y con un lote de 4 textos.
MEDIDAS_12_1 = {"capas": 24, "cabezas": 16, "d_modelo": 1024, "contexto": 1024, "bytes": 2, "lote": 4}


def _megas_12_1(kv=2, capas=24, cabezas=16, d_cabeza=64, contexto=1024, bytes_por_numero=2, lote=4, unidad=1e6):
    return kv * capas * cabezas * d_cabeza * contexto * bytes_por_numero * lote / unidad


@ejercicio("12.1")
def _memoria_de_la_cache(respuesta):
    valor = exigir_numero(respuesta, "un solo número (MB)")
    exacta = _megas_12_1()  # 402.65… MB
    if math.isclose(valor, exacta, rel_tol=0.005):
        return bien("Son más de 400 MB solo para recordar lo leído, y crecen con el contexto y con el lote: por eso "
                    "los modelos de hoy comparten claves entre cabezas (GQA y MQA, sección 6).")
    encontrada = _reconocer(valor, [
        (_megas_12_1(kv=1), "la caché guarda dos tensores por bloque: las claves y los valores."),
        (_megas_12_1(bytes_por_numero=4), "en float16 cada número ocupa 2 bytes, no 4."),
        (_megas_12_1(lote=1), "cada texto del lote tiene su propia caché: multiplica por los 4 textos."),
        (_megas_12_1(unidad=2**20), "aquí 1 MB son 10⁶ bytes, no 2²⁰."),
        (_megas_12_1(d_cabeza=1024), "cada cabeza guarda d_cabeza = d_modelo / cabezas números por carácter, no "
                                     "d_modelo."),
        (_megas_12_1(capas=1), "cada bloque tiene su propia caché: GPT-2 medium tiene 24."),
        (_megas_12_1(unidad=1), "el resultado va en MB: divide los bytes entre 10⁶."),
        (_megas_12_1(bytes_por_numero=16), "float16 son 16 bits, que son 2 bytes: cuenta bytes, no bits."),
    ])
    return encontrada or pista("usa la fórmula de la sección 2: 2 · capas · cabezas_kv · d_cabeza · posiciones · "
                               "bytes por número · lote, y divide entre 10⁶.")


# Ejercicio 12.2: el puntaje de una consulta y una clave giradas con RoPE, con d = 2 (una sola pareja, ω = 1).
POSICION_Q_12_2, POSICION_K_12_2 = 3, 1


@ejercicio("12.2")
def _puntaje_girado(respuesta):
    valor = exigir_numero(respuesta, "un solo número (el puntaje q · k)")
    distancia = POSICION_Q_12_2 - POSICION_K_12_2
    if math.isclose(valor, math.cos(distancia), abs_tol=0.005):
        return bien("El puntaje solo depende de la distancia entre las dos posiciones: q en la 13 y k en la 11 darían "
                    "lo mismo. Por eso un modelo con RoPE puede leer textos más largos que los de entrenar "
                    "(leerlos bien es otra cosa: la sección 8 lo mide).")
    encontrada = _reconocer(valor, [
        (1.0, "sin girar, (1, 0) · (1, 0) = 1. Gira q un ángulo 3 y k un ángulo 1 antes del producto (con "
              "torch.cos y torch.sin el ángulo va en radianes, no en grados)."),
        (math.cos(POSICION_Q_12_2 + POSICION_K_12_2), "los giros no se suman: al multiplicar q girada por k girada, "
                                                      "el giro de k se resta del de q."),
        (math.cos(POSICION_Q_12_2), "has girado solo la consulta: la clave también se gira, con su posición."),
        (math.cos(POSICION_K_12_2), "has girado solo la clave: la consulta también se gira, con su posición."),
        (math.sin(distancia), "el producto de dos vectores girados da el coseno del ángulo entre ellos, no el seno."),
    ], rel_tol=0.002)
    return encontrada or pista("gira (1, 0) un ángulo p (la posición, porque ω = 1 con d = 2) para q y para k, y "
                               "multiplica: puedes usar girar() de la sección 5 con 4 filas iguales.")


# Ejercicio 12.3: los parámetros de la proyección de entrada (qkv, con sesgo) de AtencionAgrupada(128, 8, cabezas_kv=2).
D_12_3, CABEZAS_12_3, CABEZAS_KV_12_3 = 128, 8, 2


def _parametros_qkv(d=128, d_kv=32, kv=2, sesgo=True):
    salidas = d + kv * d_kv
    return d * salidas + (salidas if sesgo else 0)


@ejercicio("12.3")
def _parametros_de_gqa(respuesta):
    valor = exigir_numero(respuesta, "un número entero de parámetros")
    d_cabeza = D_12_3 // CABEZAS_12_3
    d_kv = CABEZAS_KV_12_3 * d_cabeza
    if valor == _parametros_qkv(D_12_3, d_kv):
        return bien("Q sigue con sus 128 salidas; K y V se quedan en 32 cada una (2 cabezas de 16). La matriz tiene la "
                    "mitad de columnas que la de la atención multicabeza, y la caché, la cuarta parte.")
    encontrada = _reconocer(valor, [
        (_parametros_qkv(D_12_3, D_12_3), "esa es la proyección de la atención multicabeza de siempre: con "
                                          "cabezas_kv=2, K y V tienen solo cabezas_kv · d_cabeza salidas cada una."),
        (_parametros_qkv(D_12_3, d_kv, sesgo=False), "la proyección lleva sesgo: una suma por cada salida."),
        (_parametros_qkv(D_12_3, d_kv, kv=1), "K y V tienen cada una su parte de la proyección: son dos, no una."),
        (_parametros_qkv(D_12_3, 4 * d_cabeza), "eso sería con cabezas_kv=4; aquí hay 2 cabezas de claves y "
                                                "valores."),
        (_parametros_qkv(D_12_3, d_kv) + D_12_3 * D_12_3 + D_12_3, "se pide solo la proyección de entrada (qkv), "
                                                                   "sin la de salida."),
    ], rel_tol=1e-9)
    return encontrada or pista("la proyección de entrada tiene d_modelo entradas y d_modelo + 2 · cabezas_kv · "
                               "d_cabeza salidas, con un sesgo por salida; d_cabeza = d_modelo / cabezas.")


# Ejercicio 12.4: bytes por carácter (por token) de la caché de un modelo grande con GQA.
MEDIDAS_12_4 = {"capas": 32, "cabezas": 32, "cabezas_kv": 8, "d_cabeza": 128, "bytes": 2}


def _bytes_12_4(kv=2, capas=32, cabezas_kv=8, d_cabeza=128, bytes_por_numero=2):
    return kv * capas * cabezas_kv * d_cabeza * bytes_por_numero


@ejercicio("12.4")
def _bytes_con_gqa(respuesta):
    valor = exigir_numero(respuesta, "un número entero de bytes")
    if valor == _bytes_12_4():
        return bien("128 KiB por token. Con 32 cabezas de claves serían cuatro veces más: con un contexto de 8192 "
                    "tokens, 1 GiB por texto en vez de 4.")
    encontrada = _reconocer(valor, [
        (_bytes_12_4(cabezas_kv=32), "guardan claves y valores solo las cabezas de claves (cabezas_kv = 8); las 32 "
                                     "consultas las comparten."),
        (_bytes_12_4(kv=1), "la caché guarda claves y valores: dos tensores por bloque."),
        (_bytes_12_4(bytes_por_numero=4), "en bfloat16 cada número ocupa 2 bytes, no 4."),
        (_bytes_12_4(capas=1), "cada bloque guarda sus propias claves y valores: son 32 bloques."),
    ], rel_tol=1e-9)
    return encontrada or pista("por cada token, cada bloque guarda una clave y un valor de d_cabeza números por cada "
                               "cabeza de claves: 2 · capas · cabezas_kv · d_cabeza · bytes por número.")
