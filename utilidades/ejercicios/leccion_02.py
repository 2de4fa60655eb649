"""Comprobaciones de los ejercicios de la lección 02 · Atención a mano."""

import math

import numpy as np
import torch

from utilidades.ejercicios import (
    a_numpy,
    bien,
    comparar_numeros,
    ejercicio,
    exigir_funcion,
    llamar,
    pista,
)

Q = np.array([[0, 1], [1, 1], [2, 0]], dtype=float)
K = np.array([[0, 2], [1, 0], [2, 1]], dtype=float)


def _softmax(s):
    e = np.exp(np.asarray(s, dtype=float) - np.max(s))
    return e / e.sum()


_DOS_DECIMALES = 0.005  # lo más que se aleja del valor exacto un número bien redondeado a dos decimales


def _es(valor, esperado, tolerancia=0.01):
    return (valor is not None and valor.shape == np.shape(esperado)
            and np.allclose(valor, esperado, atol=tolerancia, rtol=0))


@ejercicio("02.1")
def _pesos_de_ana(respuesta):
    productos = K @ Q[0]  # (3,)
    esperado = _softmax(productos / math.sqrt(2))
    valor = a_numpy(respuesta)
    # Se piden dos decimales: redondear bien deja cada peso a 0.005 o menos del exacto. Así pasan los redondeos (y
    # cualquier respuesta con más decimales), pero no un vecino inventado una centésima más allá ni un truncado.
    if _es(valor, esperado, _DOS_DECIMALES):
        return bien("Ahora ejecuta las celdas siguientes: la primera fila de la tabla de pesos debe coincidir.")
    if _es(valor, np.floor(100 * esperado) / 100, 1e-9):
        return pista("casi: has cortado los decimales en lugar de redondear. Mira la tercera cifra de cada peso: "
                     "si es 5 o más, la segunda sube.")
    if _es(valor, _softmax(productos / 2)):
        return pista("has dividido los productos por d = 2; la fórmula divide por su raíz, √d = √2.")
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
    return comparar_numeros(respuesta, esperado, tolerancia=_DOS_DECIMALES, pista_forma="hay un peso por cada clave.",
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
    # los denominadores de los errores frecuentes (d·T, √d, √(d·T), √d·T², √d + T, √L·T) no coincidan con √d·T ni
    # entre sí en la primera forma: cada error da números distintos y recibe su pista.
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
        if torch.allclose(obtenido, torch.softmax(productos / math.sqrt(d * T), dim=-1), atol=1e-5):
            return pista("has metido T dentro de la raíz. La raíz es solo de d: divide por √d y, aparte, por T.")
        if torch.allclose(obtenido, torch.softmax(productos / (math.sqrt(d) * T ** 2), dim=-1), atol=1e-5):
            return pista("divides por T dos veces (por T²); la temperatura divide los puntajes una sola vez.")
        if torch.allclose(obtenido, torch.softmax(productos / (math.sqrt(d) + T), dim=-1), atol=1e-5):
            return pista("has sumado √d y T en el denominador; la fórmula los multiplica.")
        if torch.allclose(obtenido, torch.softmax(K @ Q.transpose(-2, -1) / (math.sqrt(d) * T), dim=-1), atol=1e-5):
            return pista("tu tabla tiene las claves en las filas: la fila i debe ser la consulta i contra cada clave, "
                         "así que Q va a la izquierda del producto.")
        return pista("la forma y las sumas están bien, pero los valores no; revisa cada paso de la fórmula.")
    return bien("Funciona con una frase, con lotes y con cabezas, y con temperaturas que concentran (T < 1) y que "
                "aplanan (T > 1).")


def _formas(respuesta):
    """La respuesta como tabla (2, 3) de floats; admite listas de listas, tuplas, torch.Size, arrays o tensores."""
    if isinstance(respuesta, (list, tuple)) and len(respuesta) == 2:
        filas = [a_numpy(fila) for fila in respuesta]
        if all(f is not None and f.ndim == 1 for f in filas) and filas[0].shape == filas[1].shape:
            return np.stack(filas)
    return a_numpy(respuesta)


@ejercicio("02.4")
def _formas_de_la_atencion_cruzada(respuesta):
    lote, L_q, L_k, d, d_v = 4, 7, 12, 16, 32  # los del enunciado: Q (4, 7, 16), K (4, 12, 16), V (4, 12, 32)
    valor = _formas(respuesta)
    if valor is not None and valor.shape == (2, 2):
        return pista("te falta el lote: cada forma empieza, como la de Q, por el número de frases del lote.")
    if valor is None or valor.shape != (2, 3):
        return pista("responde con dos listas de tres números: [forma de los pesos, forma de la salida].")
    if not np.all(np.isfinite(valor)) or not np.allclose(valor, np.round(valor)):
        return pista("una forma son números enteros: cuántas frases, cuántas filas y cuántas columnas.")
    pesos, salida = (tuple(int(round(x)) for x in fila) for fila in valor)
    if (pesos, salida) == ((lote, L_q, L_k), (lote, L_q, d_v)):
        return bien("La tabla de pesos es rectangular, una fila por consulta y una columna por clave, y la salida "
                    "tiene una fila por consulta, del tamaño de los valores.")
    if (salida, pesos) == ((lote, L_q, L_k), (lote, L_q, d_v)):
        return pista("tienes las dos formas, pero en el orden contrario: primero los pesos y después la salida.")
    if pesos[0] != lote or salida[0] != lote:
        return pista("el lote no cambia: la atención trata cada frase del lote por separado, y la primera "
                     "dimensión sigue siendo la de Q.")
    if pesos == (lote, L_k, L_q):
        return pista("tu tabla de pesos tiene las claves en las filas: cada fila es una consulta (la que mira) y "
                     "cada columna, una clave.")
    if pesos[1] == pesos[2]:
        return pista("la tabla de pesos no tiene por qué ser cuadrada: aquí las consultas y las claves salen de "
                     "frases de distinto largo.")
    if pesos != (lote, L_q, L_k):
        return pista("la tabla de pesos tiene una fila por consulta y una columna por clave: mira la penúltima "
                     "dimensión de Q y la de K.")
    if salida == (lote, L_q, d):
        return pista("la salida mezcla valores, no consultas: su última dimensión es el tamaño de cada valor, la "
                     "última de V.")
    if salida[1] == L_k:
        return pista("la salida tiene una fila por palabra que pregunta (cada consulta recibe su mezcla), no una "
                     "por clave.")
    return pista("la tabla de pesos está bien; la salida es pesos @ V: las filas de los pesos por las columnas de V.")
