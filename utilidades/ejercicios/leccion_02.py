"""Comprobaciones de los ejercicios de la lección 02 · Atención a mano."""

import math

import numpy as np
import torch

from utilidades.ejercicios import a_numpy, bien, comparar_numeros, ejercicio, pista


@ejercicio("02.1")
def _puntajes_de_saco(respuesta):
    esperado = np.array([2.0, 1.0, 3.0]) / math.sqrt(2)
    valor = a_numpy(respuesta)
    if valor is not None and valor.shape == (3,) and np.allclose(valor, [2, 1, 3], atol=0.01):
        return pista("esos son los productos escalares; falta un paso antes de tenerlos como puntajes.")
    if valor is not None and valor.shape == (3,) and np.allclose(valor, esperado / math.sqrt(2), atol=0.01):
        return pista("has dividido dos veces: el divisor es √d una sola vez.")
    return comparar_numeros(
        respuesta, esperado, tolerancia=0.01,
        pista_forma="hay un puntaje por cada clave.",
        pista_valor="multiplica (1, 1) por cada clave componente a componente, suma y divide por √2.",
    )


@ejercicio("02.2")
def _claves_identicas(respuesta):
    veredicto = comparar_numeros(
        respuesta, [1 / 3, 1 / 3, 1 / 3], tolerancia=0.01,
        pista_forma="hay un peso por palabra.",
        pista_valor="si las tres claves son iguales, ¿en qué se diferencian los tres puntajes de la fila?",
    )
    if veredicto.correcto:
        return bien("Sin claves distintas, la consulta no puede preferir a nadie.")
    return veredicto


@ejercicio("02.3")
def _pesos_de_atencion(funcion):
    if not callable(funcion):
        return pista("la respuesta es una función: pásala sin paréntesis, comprobar('02.3', pesos_de_atencion).")
    generador = torch.Generator().manual_seed(1)
    for forma in ((5, 4), (2, 6, 8), (2, 3, 7, 16)):
        Q = torch.randn(*forma, generator=generador, dtype=torch.float64)
        K = torch.randn(*forma, generator=generador, dtype=torch.float64)
        esperado = torch.softmax(Q @ K.transpose(-2, -1) / math.sqrt(forma[-1]), dim=-1)
        obtenido = funcion(Q, K)
        if obtenido is None:
            return pista("tu función no devuelve nada: falta un return.")
        if not isinstance(obtenido, torch.Tensor):
            return pista("la función debe devolver un tensor de PyTorch.")
        if obtenido.shape != esperado.shape:
            return pista(f"con Q y K de forma {forma} la tabla debería ser (..., L, L) y la tuya es "
                         f"{tuple(obtenido.shape)}; ¿transpones solo las dos últimas dimensiones?")
        if not torch.allclose(obtenido.sum(dim=-1), torch.ones(esperado.shape[:-1], dtype=obtenido.dtype)):
            return pista("las filas de tus pesos no suman 1: ¿aplicas softmax sobre la última dimensión?")
        sin_escala = torch.softmax(Q @ K.transpose(-2, -1), dim=-1)
        if torch.allclose(obtenido, sin_escala, atol=1e-6):
            return pista("casi: te falta dividir los puntajes por √d antes del softmax.")
        if not torch.allclose(obtenido, esperado, atol=1e-6):
            return pista("la forma y las sumas están bien, pero los valores no; revisa el orden de Q y K.")
    return bien("Funciona con una frase, con lotes y con cabezas.")


@ejercicio("02.4")
def _celdas_ocultas(respuesta):
    if isinstance(respuesta, bool) or not isinstance(respuesta, (int, np.integer, float)):
        return pista("la respuesta es un número entero de celdas.")
    if respuesta == 15:
        return bien("Son L(L-1)/2: todo lo que queda por encima de la diagonal.")
    if respuesta == 21:
        return pista("esas son las celdas visibles (con la diagonal); se preguntan las ocultas.")
    if respuesta == 36:
        return pista("la tabla tiene 36 celdas, pero no todas están ocultas: solo el futuro de cada palabra.")
    return pista("dibuja la tabla 6 × 6 y tacha, en cada fila, las palabras que aún no se han escrito.")
