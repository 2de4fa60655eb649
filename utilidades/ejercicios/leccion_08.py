"""Comprobaciones de los ejercicios de la lección 08 (invertir dígitos)."""

import numpy as np
import torch

from utilidades.ejercicios import (
    Fallo,
    a_numpy,
    bien,
    ejercicio,
    entero,
    exigir_entero,
    exigir_funcion,
    exigir_numero,
    llamar,
    pista,
)


def _aciertos_por_posicion_referencia(logits, objetivos):
    return (logits.argmax(dim=-1) == objetivos).float().mean(dim=0)


@ejercicio("08.1")
def _aciertos_por_posicion(funcion):
    exigir_funcion(funcion, "comprobar('08.1', aciertos_por_posicion)")
    generador = torch.Generator().manual_seed(8)
    for lote, largo, clases in ((5, 8, 10), (3, 4, 7), (1, 6, 3)):
        logits = torch.randn(lote, largo, clases, generator=generador)
        objetivos = torch.randint(0, clases, (lote, largo), generator=generador)
        objetivos[0] = logits[0].argmax(-1)  # que haya algún acierto
        esperado = _aciertos_por_posicion_referencia(logits, objetivos)
        try:
            devuelto = llamar(funcion, logits.clone(), objetivos.clone(), tipo=None)
        except RuntimeError as error:
            if "must match the size" in str(error):  # p. ej. argmax(1): la predicción (lote, clases) no encaja
                return pista(
                    f"con logits {tuple(logits.shape)} y objetivos {tuple(objetivos.shape)}, tu función compara dos "
                    "tensores de formas que no encajan. La predicción debe tener la forma de los objetivos, "
                    "(lote, L): ¿en qué dimensión están las clases? Haz argmax sobre esa, la última."
                )
            raise
        obtenido = torch.as_tensor(devuelto, dtype=torch.float32)
        if obtenido.shape != esperado.shape:
            return pista(
                f"con logits {tuple(logits.shape)} devolviste forma {tuple(obtenido.shape)} y se esperaba "
                f"({largo},): un número por posición. ¿Sobre qué dimensión promedias?"
            )
        if torch.allclose(obtenido, 100 * esperado, atol=1e-4):
            return pista("tus valores están en porcentaje (de 0 a 100): devuelve la fracción de aciertos, un "
                         "número entre 0 y 1 por posición.")
        if not torch.allclose(obtenido, esperado, atol=1e-6):
            return pista("la forma es buena, pero los valores no: en cada ejemplo y cada posición hay acierto si la "
                         "clase con el logit más alto es la del objetivo; la fracción de una posición cuenta sus "
                         "aciertos en todos los ejemplos del lote.")
    return bien("Un número por posición: útil para ver qué posiciones aprende antes un modelo.")


@ejercicio("08.2")
def _secuencias_con_95_por_ciento(respuesta):
    """Fracción de secuencias de 8 acertadas enteras si cada dígito se acierta con probabilidad 0.95, independiente."""
    valor = exigir_numero(respuesta, "un solo número entre 0 y 1 (una fracción, no un porcentaje)")
    esperado = 0.95**8
    # ±0.0005, simétrica: vale el valor exacto o su redondeo a tres decimales (el enunciado los pide); no, 2/3 ni un
    # número inventado cerca (0.665, 0.662), ni el redondeo a dos decimales, que no distingue la cuenta de 2/3.
    if abs(valor - esperado) < 0.0005:
        return bien("Un 95 % por dígito parece mucho, pero deja fuera una de cada tres secuencias: por eso medimos las "
                    "dos exactitudes.")
    if abs(valor - 100 * esperado) < 0.5:
        return pista("da una fracción entre 0 y 1, no un porcentaje.")
    errores = [
        (0.95, "esa es la exactitud de un solo dígito; la secuencia necesita acertar los 8 a la vez."),
        (0.95 * 8, "las probabilidades de sucesos independientes que deben ocurrir todos se multiplican, no se suman."),
        (1 - 8 * 0.05, "restar 8 veces el 5 % de fallo es solo una aproximación: multiplica las probabilidades de "
                       "acertar cada dígito."),
        (0.95**7, "cuenta los dígitos de la secuencia: son 8 aciertos seguidos."),
        (0.05**8, "esa es la probabilidad de fallar los 8 dígitos; se pide la de acertarlos todos."),
    ]
    for valor_erroneo, texto in errores:
        if abs(valor - valor_erroneo) < 0.005:
            return pista(texto)
    if abs(valor - 2 / 3) < 0.0012:
        return pista("dos tercios es una estimación a ojo, no la cuenta: calcula la probabilidad de acertar los 8 "
                     "dígitos seguidos y escríbela con tres decimales.")
    if abs(valor - esperado) < 0.005:
        return pista("te acercas, pero no basta: haz la cuenta exacta (con Python, si quieres) y da el resultado con "
                     "tres decimales.")
    return pista("la secuencia sale perfecta solo si acierta el dígito 1 y el 2 y … y el 8; con aciertos "
                 "independientes, esas probabilidades se multiplican.")


@ejercicio("08.3")
def _parametros_contexto_doce(respuesta):
    """Parámetros de TransformerJuguete(contexto=12)."""
    valor = exigir_entero(respuesta, "un número entero de parámetros")
    if valor == 13_674 + 4 * 32:
        return bien("Solo crece la tabla de vectores de posición: 4 filas más de 32 números.")
    if valor == 13_674:
        return pista("casi: hay una pieza del modelo que tiene una fila por posición.")
    if valor == 13_674 + 12 * 32:
        return pista("la tabla de 8 posiciones ya está contada en el total de la lección: suma solo las filas nuevas.")
    if valor == 13_674 + 4 * 32 * 2:
        return pista("la tabla de vectores de posición tiene una fila de d_modelo números por posición, sin sesgo.")
    return pista("parte del total de la lección y piensa qué tabla tiene una fila por cada posición; el resto del "
                 "modelo no depende del contexto.")


@ejercicio("08.4")
def _posiciones_rotacion(respuesta):
    valores = a_numpy(respuesta)
    if valores is None or valores.ndim != 1:
        return pista("responde con una lista de 8 enteros, uno por posición de salida.")
    if len(valores) != 8:
        return pista(f"tu lista tiene {len(valores)} números y hacen falta 8, uno por posición de salida.")
    lista = [entero(v) for v in valores]
    if None in lista:
        return pista("cada elemento es una posición: un número entero de 0 a 7.")
    if lista == [1, 2, 3, 4, 5, 6, 7, 0]:
        return bien("La salida i copia la entrada i + 1: una diagonal desplazada, y la última da la vuelta al 0.")
    if lista == [7, 0, 1, 2, 3, 4, 5, 6]:
        return pista("esa es la rotación hacia el otro lado. En el ejemplo, la salida 0 es 9: ¿en qué posición de la "
                     "entrada está ese 9?")
    if lista == [7, 6, 5, 4, 3, 2, 1, 0]:
        return pista("esa es la antidiagonal de invertir; la tarea ahora es rotar. Busca en el ejemplo dónde está, en "
                     "la entrada, cada dígito de la salida.")
    return pista("mira el ejemplo: la salida 0 es 9 y la salida 7 es 4. ¿En qué posiciones de la entrada están?")


# Ejercicio 08.5: para cada tarea, ¿tiene la posición i, sin vectores de posición, lo que necesita para escribir su
# salida? Solo conoce su propio dígito y la bolsa de todos los dígitos.
TAREAS_SIN_POSICIONES = (
    ("ordenar de menor a mayor", False),
    ("cambiar cada dígito d por 9 − d", True),
    ("escribir en cada posición el mayor dígito de la secuencia", True),
    ("rotar una posición a la izquierda (la tarea del ejercicio 4)", False),
    ("escribir en cada posición cuántas veces aparece su dígito en la secuencia", True),
)


def _booleano(valor):
    """True/False si el valor es un booleano de Python, de NumPy o un tensor bool de un elemento; si no, None."""
    if isinstance(valor, (bool, np.bool_)):
        return bool(valor)
    if isinstance(valor, torch.Tensor) and valor.dtype == torch.bool and valor.numel() == 1:
        return bool(valor.item())
    if isinstance(valor, np.ndarray) and valor.dtype == np.bool_ and valor.size == 1:
        return bool(valor.item())
    return None


def _lista_de_booleanos(respuesta, cuantos):
    """La respuesta como lista de bool (acepta listas, tuplas, arrays y tensores bool); si no, termina con una pista."""
    if isinstance(respuesta, (torch.Tensor, np.ndarray)) and respuesta.ndim == 1:
        respuesta = list(respuesta)
    if not isinstance(respuesta, (list, tuple)):
        raise Fallo(pista(f"responde con una lista de {cuantos} valores True o False, uno por tarea y en su orden."))
    if len(respuesta) != cuantos:
        raise Fallo(pista(f"tu lista tiene {len(respuesta)} valores y hay {cuantos} tareas: uno por tarea."))
    if any(isinstance(v, str) for v in respuesta):
        raise Fallo(pista("escribe True y False sin comillas: son booleanos, no textos."))
    valores = [_booleano(v) for v in respuesta]
    if None in valores:
        raise Fallo(pista("cada elemento de la lista es True o False (no 0 y 1, ni otros números)."))
    return valores


@ejercicio("08.5")
def _tareas_sin_posiciones(respuesta):
    valores = _lista_de_booleanos(respuesta, len(TAREAS_SIN_POSICIONES))
    esperado = [posible for _, posible in TAREAS_SIN_POSICIONES]
    if valores == esperado:
        return bien("Sin posiciones, la salida del lugar i solo puede depender de su propio dígito y de la bolsa. "
                    "Basta para transformar cada dígito o para leer algo de la bolsa entera; no basta cuando la "
                    "salida depende de qué lugar ocupa i (el i-ésimo menor, el vecino de la derecha).")
    if not any(valores):
        return pista("sin posiciones el modelo no es inútil: la posición i todavía conoce su propio dígito y la "
                     "bolsa de todos los dígitos. ¿Qué tareas se pueden hacer solo con eso?")
    if all(valores):
        return pista("hay tareas en las que la salida depende del lugar que ocupa cada posición, no solo de los "
                     "dígitos; sin vectores de posición, dos lugares con el mismo dígito son indistinguibles.")
    if any(v and not e for v, e in zip(valores, esperado)):
        return pista("marcas como posible alguna tarea en la que dos posiciones con el mismo dígito y la misma "
                     "bolsa tendrían que escribir cosas distintas; sin vectores de posición no pueden.")
    return pista("marcas como imposible alguna tarea cuya salida en cada lugar se calcula con el propio dígito y "
                 "con la bolsa de todos los dígitos; para eso no hace falta saber qué lugar es.")
