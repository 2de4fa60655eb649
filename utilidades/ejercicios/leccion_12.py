"""Comprobaciones de los ejercicios de la lección 12 (de GPT-2 a los modelos de hoy): la memoria de la caché, el giro
de RoPE, lo que ahorran las cabezas de claves compartidas, lo que dice una sola semilla frente al ruido y la atención
con grupos de claves escrita a mano."""

import ast
import csv
import functools
import inspect
import math
import textwrap

import numpy as np
import torch
import torch.nn.functional as F

from utilidades.ejercicios import Fallo, bien, ejercicio, exigir_funcion, exigir_numero, llamar, pista
from utilidades.texto import RUTA_CORPUS


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
    if math.isclose(valor, exacta, rel_tol=0.002):  # 402 o 403 valen; 400, no
        return bien("Son más de 400 MB solo para recordar lo leído, y crecen con el contexto y con el lote: por eso "
                    "los modelos de hoy comparten claves entre cabezas (GQA y MQA, sección 6).")
    encontrada = _reconocer(valor, [
        # Olvidar el 2 de claves y valores da lo mismo que copiar la llamada de la sección 2 dejando sus valores por
        # defecto (float32 y un solo texto: × 2 y ÷ 4).
        (_megas_12_1(kv=1), "o falta el 2 (la caché guarda dos tensores por bloque: las claves y los valores), o has "
                            "dejado los valores por defecto de bytes_por_formula, que son float32 (4 bytes) y un solo "
                            "texto: aquí son float16 y un lote de 4."),
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


# Ejercicio 12.4: lo que dirías con una sola semilla. Con la semilla 1, cuatro de las seis variantes quedan por debajo
# del mini-GPT de la lección 10 en validación; con las tres semillas y su ruido, solo RoPE y el mini-Llama. Se elige la
# semilla 1 porque con ella la respuesta no coincide con la de comparar las medias de la tabla (con la 0, sí).
ORDEN_12_4 = ("rms", "swiglu", "rope", "gqa", "mqa", "llama")
SEMILLA_12_4 = 1
RUTA_VARIANTES = RUTA_CORPUS.parent / "variantes_modernas.csv"


@functools.cache
def _filas_de_variantes():
    with open(RUTA_VARIANTES, encoding="utf-8") as archivo:
        return tuple(csv.DictReader(archivo))


def _validacion(variante, semilla=None, columna="mejor_validacion"):
    """La columna de una variante con una semilla, o su media en las tres (semilla=None)."""
    valores = [float(f[columna]) for f in _filas_de_variantes() if f["variante"] == variante
               and (semilla is None or int(f["semilla"]) == semilla)]
    return sum(valores) / len(valores)


def _por_debajo(semilla=SEMILLA_12_4, columna="mejor_validacion"):
    """Para cada variante de ORDEN_12_4, si su pérdida queda por debajo de la del mini-GPT (misma semilla)."""
    base = _validacion("leccion", semilla, columna)
    return [_validacion(v, semilla, columna) < base for v in ORDEN_12_4]


def _regla_del_ruido():
    """Lo que dice la regla de la lección con las tres semillas: la peor semilla, por debajo de la mejor del mini-GPT
    menos el ruido (de la menor a la mayor de sus semillas)."""
    base = [float(f["mejor_validacion"]) for f in _filas_de_variantes() if f["variante"] == "leccion"]
    ruido = max(base) - min(base)
    peor = {v: max(float(f["mejor_validacion"]) for f in _filas_de_variantes() if f["variante"] == v)
            for v in ORDEN_12_4}
    return [peor[v] < min(base) - ruido for v in ORDEN_12_4]


def _booleanos(respuesta, cuantos):
    """La respuesta como lista de bool (listas, tuplas, arrays y tensores bool); si no, termina con una pista."""
    if isinstance(respuesta, (torch.Tensor, np.ndarray)) and respuesta.ndim == 1:
        respuesta = list(respuesta)
    if not isinstance(respuesta, (list, tuple)):
        raise Fallo(pista(f"responde con una lista de {cuantos} valores True o False, uno por variante y en el orden "
                          f"del enunciado."))
    if len(respuesta) != cuantos:
        raise Fallo(pista(f"tu lista tiene {len(respuesta)} valores y hay {cuantos} variantes: uno por variante."))
    valores = []
    for v in respuesta:
        if isinstance(v, torch.Tensor) and v.numel() == 1 or isinstance(v, np.ndarray) and v.size == 1:
            v = v.item()  # un tensor o un array de un elemento: su valor
        if isinstance(v, str):
            raise Fallo(pista("escribe True y False sin comillas: son booleanos, no textos."))
        if not isinstance(v, (bool, np.bool_)):
            raise Fallo(pista("cada elemento es True o False, no 0 o 1 ni otros números: la comparación «<» ya da "
                              "un booleano."))
        valores.append(bool(v))
    return valores


@ejercicio("12.4")
def _una_sola_semilla(respuesta):
    valores = _booleanos(respuesta, len(ORDEN_12_4))
    if valores == _por_debajo():
        return bien("Con una sola semilla, cuatro de las seis variantes «mejoran» al mini-GPT; con las tres semillas "
                    "y su ruido, solo RoPE y el mini-Llama. Por eso una diferencia se compara con el ruido antes de "
                    "creerla.")
    if valores == _regla_del_ruido():
        return pista("eso es lo que dice la regla del ruido, con las tres semillas. Aquí se pide lo que dirías si "
                     "solo tuvieras la semilla 1: compara, variante a variante, con el mini-GPT de esa misma semilla.")
    if valores == _por_debajo(semilla=None):
        return pista("esa es la comparación de las medias de la tabla (con la semilla 0 sale lo mismo). Se pide solo "
                     "la semilla 1: en `variantes[nombre]` hay una fila por semilla, con su columna «semilla».")
    if valores == [not v for v in _por_debajo()]:
        return pista("has marcado las variantes con la pérdida más alta; una pérdida más baja es mejor.")
    if valores == _por_debajo(semilla=2):
        return pista("esas son las comparaciones con la semilla 2; se pide la semilla 1 (las filas de cada variante "
                     "van en el orden 0, 1, 2).")
    return pista("para cada variante, en el orden del enunciado, compara su «mejor_validacion» con la semilla 1 con "
                 "la del mini-GPT de la lección 10 con la semilla 1: True si es más baja.")


# Ejercicio 12.5: la atención con grupos de claves escrita a mano, causal, comparada con la de PyTorch
# (scaled_dot_product_attention con enable_gqa=True). Cada cabeza de consulta c usa la cabeza de claves
# c // (cabezas // cabezas_kv): las copias de cada clave van seguidas (repeat_interleave), no alternas (repeat).
FORMAS_12_5 = ((2, 4, 2, 6, 8), (1, 6, 3, 5, 4), (2, 4, 1, 7, 6), (1, 2, 2, 4, 8))  # lote, cabezas, cabezas_kv, L, d


def _codigo(funcion):
    try:
        return inspect.getsource(funcion)
    except (OSError, TypeError):
        return ""


def _pide_enable_gqa(funcion):
    """¿Llama la función a algo con el argumento enable_gqa? Se mira el árbol del código, no el texto: un comentario
    o un nombre que lo mencione no cuenta."""
    try:
        arbol = ast.parse(textwrap.dedent(_codigo(funcion)))
    except SyntaxError:
        return False
    return any(isinstance(nodo, ast.keyword) and nodo.arg == "enable_gqa" for nodo in ast.walk(arbol))


def _causal(q, k, v, escala=None, causal=True):
    return F.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=escala)


@ejercicio("12.5")
def _atencion_agrupada(funcion):
    exigir_funcion(funcion, "comprobar('12.5', atencion_agrupada)")
    if _pide_enable_gqa(funcion):
        return pista("escríbela sin enable_gqa: esa opción de PyTorch es justo la pieza que se pide construir (la "
                     "comprobación la usa para compararla con la tuya).")
    generador = torch.Generator().manual_seed(12)
    for lote, cabezas, cabezas_kv, L, d in FORMAS_12_5:
        q = torch.randn(lote, cabezas, L, d, generator=generador, dtype=torch.float64)
        k, v = (torch.randn(lote, cabezas_kv, L, d, generator=generador, dtype=torch.float64) for _ in range(2))
        esperado = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
        try:
            resultado = llamar(funcion, q.clone(), k.clone(), v.clone())
        except RuntimeError as error:
            return pista(f"con {cabezas} cabezas de consulta y {cabezas_kv} de claves tu función da un error "
                         f"({str(error).splitlines()[0][:90]}): hay más consultas que claves, y cada clave y cada "
                         f"valor tiene que servir a todas las consultas de su grupo antes de multiplicar.")
        if tuple(resultado.shape) != tuple(esperado.shape):
            return pista(f"con q {tuple(q.shape)} y k {tuple(k.shape)} tu función devuelve "
                         f"{tuple(resultado.shape)}: se espera una mezcla por cada cabeza de consulta, (lote, "
                         f"cabezas, L, d_cabeza).")
        resultado = resultado.detach().to(torch.float64)
        if torch.allclose(resultado, esperado, atol=1e-6):
            continue
        veces = cabezas // cabezas_kv
        seguidas = k.repeat_interleave(veces, dim=1), v.repeat_interleave(veces, dim=1)
        alternas = k.repeat(1, veces, 1, 1), v.repeat(1, veces, 1, 1)
        if torch.allclose(resultado, _causal(q, *alternas), atol=1e-6):
            return pista("las claves están repetidas una tras otra (0, 1, 0, 1…): así la consulta 1 usa la clave 1 y "
                         "no la de su grupo. Las cabezas de un grupo son consecutivas: sus copias deben ir seguidas "
                         "(0, 0, 1, 1…).")
        if torch.allclose(resultado, _causal(q, *seguidas, causal=False), atol=1e-6):
            return pista("cada posición mira también a las siguientes: falta la máscara causal (lección 05).")
        if torch.allclose(resultado, _causal(q, *seguidas, escala=1.0), atol=1e-6):
            return pista("los puntajes van sin escalar: divide por √d_cabeza antes del softmax (lección 03).")
        return pista("la forma es correcta, pero los números no: repite cada clave y cada valor para las consultas "
                     "de su grupo y atiende como en la lección 02, con la máscara causal.")
    return bien("Es lo que hace AtencionAgrupada por dentro, y lo que PyTorch ahorra con enable_gqa=True: la caché "
                "solo guarda las claves de cada grupo, y se repiten al atender.")
