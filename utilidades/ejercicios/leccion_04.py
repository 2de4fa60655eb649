"""Comprobaciones de los ejercicios de la lección 04 (atención multicabeza)."""

import math

import torch

from utilidades.ejercicios import (
    bien,
    ejercicio,
    entero,
    es_cercano,
    exigir_entero,
    exigir_funcion,
    exigir_numero,
    llamar,
    pista,
)


@ejercicio("04.1")
def parametros_de_la_capa(respuesta):
    valor = exigir_entero(respuesta)
    d = 64
    qkv, salida = d * 3 * d + 3 * d, d * d + d
    if valor == qkv + salida:
        return bien(f"{qkv} en la capa de Q, K y V y {salida} en la de salida. Volverás a ver este número en el "
                    f"bloque transformer de la lección 07.")
    if valor == d * 3 * d + d * d:
        return pista("has contado los pesos, pero cada capa lineal también tiene un sesgo por salida.")
    if valor == qkv:
        return pista("esa es solo la capa que calcula Q, K y V; falta la capa de salida.")
    if valor == 16 * 48 + 48 + 16 * 16 + 16:
        return pista("ese es el recuento de AtencionMulticabeza(16, 4), el de la lección; aquí d_modelo es otro.")
    if valor in ((qkv + salida) // 4, (qkv + salida) * 4):
        return pista("el número de cabezas no cambia los parámetros: las mismas capas, leídas en trozos.")
    return pista("suma los parámetros de nn.Linear(64, 3 · 64) (la de Q, K y V juntas) y de nn.Linear(64, 64); "
                 "una capa nn.Linear(a, b) tiene a · b pesos y b sesgos.")


@ejercicio("04.2")
def forma_de_los_pesos(respuesta):
    try:
        forma = tuple(entero(n) for n in respuesta)
    except TypeError:
        return pista("responde con una tupla de números enteros, como (1, 2, 3, 4).")
    if isinstance(respuesta, (str, bytes)) or None in forma:
        return pista("responde con una tupla de números enteros, como (1, 2, 3, 4).")
    if len(forma) != 4:
        return pista("los pesos tienen cuatro dimensiones: lote, cabezas y una tabla de palabras × palabras.")
    if forma == (3, 8, 7, 4):
        return pista("(…, 7, 4) sería la salida de cada cabeza; los pesos comparan palabras con palabras.")
    if sorted(forma) == sorted((3, 8, 7, 7)) and forma != (3, 8, 7, 7):
        return pista("los números son esos, pero revisa el orden: primero el lote, luego las cabezas.")
    if forma == (3, 8, 7, 7):
        return bien("Una tabla de 7 × 7 por frase y por cabeza.")
    return pista("lote = 3 frases, 8 cabezas, y cada tabla tiene una fila y una columna por palabra.")


def _separar(x, cabezas):
    lote, L, d_modelo = x.shape
    return x.view(lote, L, cabezas, d_modelo // cabezas).transpose(1, 2)


@ejercicio("04.3")
def separar_cabezas(funcion):
    exigir_funcion(funcion, "comprobar('04.3', separar_cabezas)")
    generador = torch.Generator().manual_seed(4)
    for forma, cabezas in (((2, 5, 16), 4), ((1, 3, 12), 3), ((3, 7, 8), 2), ((2, 4, 6), 1)):
        x = torch.randn(*forma, generator=generador)
        lote, L, d_modelo = forma
        esperado = _separar(x, cabezas)
        resultado = llamar(funcion, x.clone(), cabezas, forma=esperado.shape,
                           pista_forma="Debe ser (lote, cabezas, L, d_cabeza): las cabezas, delante de las palabras.")
        if torch.allclose(resultado, esperado):
            continue
        if torch.allclose(resultado, x.reshape(lote, cabezas, L, d_modelo // cabezas)):
            return pista("la forma es correcta, pero cada «cabeza» mezcla números de palabras distintas: un "
                         "reshape directo a la forma final no respeta qué números son de qué palabra. Piensa en "
                         "dos pasos: primero trocear cada vector, después reordenar las dimensiones.")
        return pista("la forma es correcta, pero los números no están donde deben: la cabeza c de la palabra i "
                     "debe tener los números consecutivos c · d_cabeza … (c + 1) · d_cabeza − 1 del vector de i.")
    return bien("Es la función `separar` que usa AtencionMulticabeza por dentro.")


# Ejercicio 04.4: tamaños en los que la respuesta (√d_cabeza) no coincide con el número de cabezas ni con otra
# cuenta que se haga sin pensar (√d_modelo, d_cabeza, √cabezas, d_modelo / cabezas²).
D_MODELO_04_4, CABEZAS_04_4 = 144, 4


@ejercicio("04.4")
def divisor_de_cada_cabeza(respuesta):
    valor = exigir_numero(respuesta)
    d, h = D_MODELO_04_4, CABEZAS_04_4
    d_cabeza = d // h
    if es_cercano(valor, math.sqrt(d_cabeza), 0.01):
        return bien(f"Cada cabeza compara vectores de d_cabeza = {d_cabeza} números, así que escala por "
                    f"la raíz de {d_cabeza}.")
    if es_cercano(valor, math.sqrt(d), 0.01):
        return pista("esa es la raíz de d_modelo; pero cada cabeza solo ve su trozo del vector. ¿Cuántos números "
                     "tiene ese trozo?")
    if es_cercano(valor, d_cabeza, 0.01):
        return pista("ese es el tamaño de cada trozo; la atención divide por su raíz.")
    if es_cercano(valor, h, 0.01):
        return pista("ese es el número de cabezas: las cabezas no dividen los puntajes, dividen el vector. La "
                     "escala depende de cuántos números tiene cada consulta de una cabeza.")
    if es_cercano(valor, math.sqrt(h), 0.01):
        return pista("esa es la raíz del número de cabezas; la escala depende de cuántos números tiene cada "
                     "consulta de la cabeza.")
    if es_cercano(valor, math.sqrt(d) / h, 0.01):
        return pista("has repartido la raíz entre las cabezas; reparte primero d_modelo y saca después la raíz "
                     "del trozo de cada cabeza.")
    return pista(f"reparte d_modelo = {d} entre las {h} cabezas y recuerda qué raíz aparece en la fórmula de la "
                 f"atención.")
