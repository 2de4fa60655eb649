"""Comprobaciones de los ejercicios de la lección 10 (un mini-GPT que escribe)."""

import math

import torch

from utilidades.ejercicios import a_numpy, bien, comparar_numeros, ejercicio, pista
from utilidades.gpt import filtrar_top_k, parametros_por_formula
from utilidades.texto import TokenizadorCaracteres, leer_corpus

CABEZAS = (1, 2, 4, 8)


def _vocabulario():
    """Tamaño del vocabulario del corpus del curso."""
    return len(TokenizadorCaracteres(leer_corpus()))


@ejercicio("10.1")
def _cabezas_y_parametros(respuesta):
    valores = a_numpy(respuesta)
    if valores is None or valores.shape != (4,):
        return pista("responde con una lista de cuatro números: los parámetros con H = 1, 2, 4 y 8.")
    esperado = parametros_por_formula(_vocabulario(), 96, 2, 64)
    if len(set(valores.tolist())) > 1:
        return pista("tus cuatro recuentos no son iguales; ¿construiste cada modelo con cabezas=H y el mismo "
                     "d_modelo = 96? Cuenta con contar_parametros.")
    veredicto = comparar_numeros(valores, [esperado] * 4, tolerancia=0.5,
                                 pista_valor="cuenta con contar_parametros(MiniGPT(V, cabezas=H)), usando el V "
                                             "del corpus.")
    if veredicto.correcto:
        return bien("Las cabezas no cuestan parámetros: se reparten los 96 números de cada vector "
                    "(96/H cada una), y las matrices Q, K, V y de salida miden lo mismo.")
    return veredicto


@ejercicio("10.2")
def _cabezas_y_perdida(respuesta):
    if not isinstance(respuesta, dict) or sorted(respuesta) != list(CABEZAS):
        return pista("responde con un diccionario cuyas claves sean exactamente 1, 2, 4 y 8.")
    valores = a_numpy([respuesta[h] for h in CABEZAS])
    if valores is None or valores.shape != (4,) or not all(math.isfinite(v) for v in valores):
        return pista("cada valor debe ser un número: la mejor pérdida de validación (historial['mejor_perdida']).")
    techo = math.log(_vocabulario())
    if (valores > techo - 1.0).any():
        return pista(f"alguna pérdida está cerca de ln V = {techo:.2f}: ese modelo apenas aprendió. "
                     f"¿Entrenaste al menos 300 pasos con entrenar_gpt?")
    if (valores < 1.0).any():
        return pista("alguna pérdida es sospechosamente baja para validación; ¿usaste la de validación, "
                     "historial['mejor_perdida']?")
    return bien("Con d_modelo fijo, el número de cabezas cambia poco la pérdida en un modelo tan pequeño: "
                "más cabezas miran a más sitios a la vez, pero cada una con vectores más cortos.")


@ejercicio("10.3")
def _sin_posiciones(respuesta):
    if not isinstance(respuesta, (tuple, list)) or len(respuesta) != 2:
        return pista("responde con una tupla de dos números: (diferencia_sin, diferencia_con).")
    valores = a_numpy(respuesta)
    if valores is None or valores.shape != (2,):
        return pista("los dos elementos deben ser números (usa .item() sobre el máximo).")
    sin, con = valores.tolist()
    if sin > 1e-4:
        return pista("la diferencia sin posiciones debería ser casi 0. ¿Usaste capas=1, modo evaluación "
                     "(modelo.eval()) y solo la última posición (logits[0, -1])?")
    if con < 1e-3:
        return pista("con posiciones, la última fila de logits debería cambiar al cambiar el orden; "
                     "¿comparaste el modelo con posiciones=True?")
    return bien("Sin posiciones, en un bloque la última palabra ve a las anteriores como una bolsa: el orden "
                "del pasado no existe para ella. Con dos bloques algo se filtra gracias a la máscara, pero poco.")


def _referencia_sorteo(logits, temperatura, top_k=None):
    return torch.softmax(filtrar_top_k(logits / temperatura, top_k), dim=-1)


@ejercicio("10.4")
def _probabilidades_de_sorteo(funcion):
    if not callable(funcion):
        return pista("pasa la función probabilidades_de_sorteo, sin llamarla (sin paréntesis).")
    generador = torch.Generator().manual_seed(10)
    casos = [(torch.tensor([2.0, 1.0, 0.5, -1.0]), 1.0, None), (torch.tensor([2.0, 1.0, 0.5, -1.0]), 0.5, None),
             (torch.tensor([2.0, 1.0, 0.5, -1.0]), 1.0, 2), (torch.randn(20, generator=generador), 2.0, 5),
             (torch.randn(20, generator=generador), 0.8, 1)]
    for logits, temperatura, k in casos:
        salida = funcion(logits.clone(), temperatura, k)
        if salida is None:
            return pista("tu función no devuelve nada: termina con return.")
        esperado = _referencia_sorteo(logits, temperatura, k)
        valor = a_numpy(salida)
        if valor is None or valor.shape != tuple(esperado.shape):
            return pista("devuelve un tensor con una probabilidad por logit (la misma forma que la entrada).")
        if abs(valor.sum() - 1) > 1e-5:
            return pista("las probabilidades deben sumar 1: termina con torch.softmax(..., dim=-1).")
        if not torch.allclose(torch.as_tensor(valor, dtype=torch.float32), esperado, atol=1e-5):
            if k is None:
                return pista(f"con T = {temperatura} y sin top-k no coincide: divide los logits por la "
                             f"temperatura antes del softmax.")
            return pista(f"con top_k = {k} no coincide: deja solo los k logits más altos (filtrar_top_k) "
                         f"después de dividir por la temperatura.")
    return bien("Es exactamente lo que hace generar() en cada paso antes de sortear.")


@ejercicio("10.5")
def _sobreajuste(respuesta):
    if not isinstance(respuesta, (tuple, list)) or len(respuesta) != 2:
        return pista("responde con una tupla de dos números: (parametros, veces).")
    parametros, veces = respuesta
    esperado = parametros_por_formula(_vocabulario(), 128, 3, 64)
    if a_numpy(parametros) is None or a_numpy(veces) is None:
        return pista("los dos elementos deben ser números.")
    if abs(float(parametros) - esperado) > 0.5:
        return pista("el recuento no coincide: usa parametros_por_formula (o cuenta un MiniGPT con d_modelo=128, "
                     "capas=3 y el V del corpus).")
    if abs(float(veces) - 5.13 / 2.81) < 0.05:
        return pista("ese es el cociente de las pérdidas; la perplejidad es e elevado a la pérdida.")
    veredicto = comparar_numeros(veces, math.exp(5.13 - 2.81), tolerancia=0.1,
                                 pista_valor="calcula las dos perplejidades (e^pérdida) y divídelas.")
    if veredicto.correcto:
        return bien("Diez veces más dudoso con texto nuevo, mientras en el entrenamiento duda entre 1.2 "
                    "caracteres: se lo ha aprendido de memoria.")
    return veredicto
