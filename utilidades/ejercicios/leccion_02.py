"""Comprobaciones de los ejercicios de la lección 02 · Atención a mano."""

import math

import numpy as np
import torch

from utilidades.ejercicios import (
    a_numpy,
    bien,
    comparar_numeros,
    ejercicio,
    es_cercano,
    exigir_funcion,
    exigir_numero,
    llamar,
    pista,
)

Q = np.array([[0, 1], [1, 1], [2, 0]], dtype=float)
K = np.array([[0, 2], [1, 0], [2, 1]], dtype=float)


def _softmax(s):
    e = np.exp(np.asarray(s, dtype=float) - np.max(s))
    return e / e.sum()


def _es(valor, esperado, tolerancia=0.01):
    return valor is not None and valor.shape == np.shape(esperado) and np.allclose(valor, esperado, atol=tolerancia)


@ejercicio("02.1")
def _pesos_de_ana(respuesta):
    productos = K @ Q[0]  # (3,)
    esperado = _softmax(productos / math.sqrt(2))
    valor = a_numpy(respuesta)
    if _es(valor, esperado):
        return bien("Ahora ejecuta las celdas siguientes: la primera fila de la tabla de pesos debe coincidir.")
    if _es(valor, productos):
        return pista("esos son los productos escalares; faltan dos pasos: dividir y softmax.")
    if _es(valor, productos / math.sqrt(2)):
        return pista("esos son los puntajes; falta convertirlos en pesos con el softmax.")
    if _es(valor, _softmax(productos)):
        return pista("has aplicado el softmax a los productos sin dividirlos antes por √2.")
    if _es(valor, 100 * esperado, 1.0):
        return pista("los has dado en porcentaje; escribe pesos entre 0 y 1.")
    if _es(valor, np.round(esperado, 1), 1e-9):
        return pista("vas bien, pero has redondeado a un decimal; da al menos dos decimales.")
    return comparar_numeros(respuesta, esperado, tolerancia=0.01, pista_forma="hay un peso por cada clave.",
                            pista_valor="sigue los tres pasos: consulta de «Ana» por cada clave, divide por √2 y "
                                        "aplica softmax (exponencial de cada uno dividida por la suma).")


@ejercicio("02.2")
def _claves_identicas(respuesta):
    valor = a_numpy(respuesta)
    if _es(valor, [2 / math.sqrt(2)] * 3):
        return pista("esos son los puntajes; conviértelos en pesos con el softmax.")
    if _es(valor, [1.0, 1.0, 1.0]):
        return pista("los pesos de una fila tienen que sumar 1.")
    if _es(valor, _softmax(K @ Q[2] / math.sqrt(2))):
        return pista("esos son los pesos con las claves originales; aquí las tres claves son iguales.")
    veredicto = comparar_numeros(
        respuesta, [1 / 3, 1 / 3, 1 / 3], tolerancia=0.01,
        pista_forma="hay un peso por palabra.",
        pista_valor="si las tres claves son iguales, ¿en qué se diferencian los tres puntajes de la fila?",
    )
    if veredicto.correcto:
        return bien("Sin claves distintas, la consulta no puede preferir a nadie.")
    return veredicto


def _con_K_T(Q, K):
    return torch.softmax(Q @ K.T / math.sqrt(Q.shape[-1]), dim=-1)


@ejercicio("02.3")
def _pesos_con_temperatura(funcion):
    exigir_funcion(funcion, "comprobar('02.3', pesos_con_temperatura)")
    generador = torch.Generator().manual_seed(1)
    # Temperaturas distintas de 1 (la tabla de pesos de la celda de `atencion`, sin T, no pasa) y elegidas para que
    # d·T no coincida con √d: dividir por d o no usar T dan números distintos y cada uno recibe su pista.
    for forma, T in (((5, 4), 0.7), ((2, 6, 8), 2.0), ((2, 3, 7, 16), 0.4)):
        Q = torch.randn(*forma, generator=generador, dtype=torch.float64)
        K = torch.randn(*forma, generator=generador, dtype=torch.float64)
        L, d = forma[-2], forma[-1]
        productos = Q @ K.transpose(-2, -1)  # (..., L, L)
        esperado = torch.softmax(productos / (math.sqrt(d) * T), dim=-1)
        try:
            obtenido = llamar(funcion, Q, K, T,
                              pista_forma="Deben ser (..., L, L): una fila y una columna por palabra.")
        except RuntimeError:
            if len(forma) > 2:
                return pista("con una sola frase funciona, pero con lotes falla: K.T da la vuelta a todas las "
                             "dimensiones. Intercambia solo las dos últimas con K.transpose(-2, -1).")
            raise
        obtenido = obtenido.detach().double()  # se compara siempre en float64, calcule el estudiante en el tipo que sea
        if torch.allclose(obtenido, torch.softmax(productos / math.sqrt(d), dim=-1) / T, atol=1e-5):
            return pista("has dividido los pesos por T después del softmax, y las filas ya no suman 1: la "
                         "temperatura divide los puntajes, antes del softmax.")
        if not torch.allclose(obtenido.sum(dim=-1), torch.ones(esperado.shape[:-1], dtype=torch.float64), atol=1e-5):
            return pista("las filas de tus pesos no suman 1: ¿aplicas softmax sobre la última dimensión (dim=-1)?")
        if torch.allclose(obtenido, esperado, atol=1e-5):
            continue
        if torch.allclose(obtenido, torch.softmax(productos / math.sqrt(d), dim=-1), atol=1e-5):
            return pista("tus pesos no cambian con T: son los de la fórmula sin temperatura. La temperatura "
                         "divide los puntajes, además de √d.")
        if torch.allclose(obtenido, torch.softmax(productos * T / math.sqrt(d), dim=-1), atol=1e-5):
            return pista("multiplicas por la temperatura; se divide por ella: una T baja (menor que 1) debe concentrar "
                         "los pesos, no aplanarlos.")
        if torch.allclose(obtenido, torch.softmax(productos, dim=-1), atol=1e-5):
            return pista("te falta la escala y la temperatura: los puntajes se dividen por √d y por T antes del "
                         "softmax.")
        if torch.allclose(obtenido, torch.softmax(productos / T, dim=-1), atol=1e-5):
            return pista("te falta la escala: los puntajes se dividen por √d y por la temperatura.")
        if torch.allclose(obtenido, torch.softmax(productos / (d * T), dim=-1), atol=1e-5):
            return pista("has dividido por d; la fórmula divide por su raíz, √d (y por T).")
        if torch.allclose(obtenido, torch.softmax(productos / (math.sqrt(L) * T), dim=-1), atol=1e-5):
            return pista("has dividido por la raíz del número de palabras (√L); d es el tamaño de cada vector, "
                         "la última dimensión de Q.")
        if torch.allclose(obtenido, torch.softmax(K @ Q.transpose(-2, -1) / (math.sqrt(d) * T), dim=-1), atol=1e-5):
            return pista("tu tabla tiene las claves en las filas: la fila i debe ser la consulta i contra cada clave, "
                         "así que Q va a la izquierda del producto.")
        return pista("la forma y las sumas están bien, pero los valores no; revisa cada paso de la fórmula.")
    return bien("Funciona con una frase, con lotes y con cabezas, y con temperaturas que concentran (T < 1) y que "
                "aplanan (T > 1).")


@ejercicio("02.4")
def _dos_palabras(respuesta):
    valor = exigir_numero(respuesta, "un solo número entre 0 y 1")
    esperado = math.exp(1) / (math.exp(1) + math.exp(-1))
    if es_cercano(valor, esperado, 0.006):
        return bien("La primera se lleva casi nueve de cada diez partes: con dos palabras, una diferencia de 2 en "
                    "los puntajes ya decide mucho.")
    if es_cercano(valor, 100 * esperado, 1.0):
        return pista("lo has dado en porcentaje; escribe el peso como un número entre 0 y 1.")
    if es_cercano(valor, 1 - esperado, 0.01):
        return pista("ese es el peso de la segunda palabra; se pregunta el de la primera.")
    if es_cercano(valor, 0.5, 0.01):
        return pista("si te sale un reparto a medias, revisa el signo: e elevado a −1 no es lo mismo que e "
                     "elevado a 1.")
    if es_cercano(valor, math.exp(1) / (math.exp(1) + 1), 0.006):
        return pista("ese sería el peso si el segundo puntaje fuera 0; es −1, y e elevado a −1 no vale 1.")
    if es_cercano(valor, math.exp(2 ** -0.5) / (math.exp(2 ** -0.5) + math.exp(-(2 ** -0.5))), 0.006):
        return pista("parece que has dividido otra vez por una raíz: los puntajes del enunciado ya vienen "
                     "divididos por √d.")
    if es_cercano(valor, math.exp(2), 0.05):
        return pista("ese es el cociente entre las dos exponenciales; el peso divide cada exponencial entre la "
                     "suma de las dos.")
    return pista("calcula e^1 y e^(−1), y divide la primera entre la suma de las dos.")
