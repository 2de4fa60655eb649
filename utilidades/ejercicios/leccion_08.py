"""Comprobaciones de los ejercicios de la lección 08 (invertir dígitos)."""

import torch

from utilidades.ejercicios import bien, ejercicio, pista


def _aciertos_por_posicion_referencia(logits, objetivos):
    return (logits.argmax(dim=-1) == objetivos).float().mean(dim=0)


@ejercicio("08.1")
def _aciertos_por_posicion(funcion):
    if not callable(funcion):
        return pista("la respuesta es una función: completa `aciertos_por_posicion` y pásala sin paréntesis.")
    generador = torch.Generator().manual_seed(8)
    for lote, largo, clases in ((5, 8, 10), (3, 4, 7), (1, 6, 3)):
        logits = torch.randn(lote, largo, clases, generator=generador)
        objetivos = torch.randint(0, clases, (lote, largo), generator=generador)
        objetivos[0] = logits[0].argmax(-1)  # que haya algún acierto
        esperado = _aciertos_por_posicion_referencia(logits, objetivos)
        obtenido = funcion(logits.clone(), objetivos.clone())
        if obtenido is None:
            return pista("tu función no devuelve nada: falta el `return`.")
        obtenido = torch.as_tensor(obtenido, dtype=torch.float32)
        if obtenido.shape != esperado.shape:
            return pista(
                f"con logits {tuple(logits.shape)} devolviste forma {tuple(obtenido.shape)} y se esperaba "
                f"({largo},): un número por posición. ¿Sobre qué dimensión promedias?"
            )
        if not torch.allclose(obtenido, esperado, atol=1e-6):
            return pista("la forma es buena, pero los valores no: compara argmax(logits, dim=-1) con los objetivos "
                         "y promedia sobre el lote (dimensión 0), no sobre las posiciones.")
    return bien("Un número por posición: útil para ver qué posiciones aprende antes un modelo.")


@ejercicio("08.2")
def _parametros_ocho_cabezas(respuesta):
    if not isinstance(respuesta, (int, float)) or isinstance(respuesta, bool):
        return pista("responde con un número entero de parámetros.")
    if respuesta == 13_674:
        return bien("Las cabezas reparten el vector en trozos; las matrices siguen siendo de 32 × 32.")
    return pista("¿cambia el tamaño de alguna matriz de `AtencionMulticabeza` al cambiar `cabezas`? Mira `qkv` y "
                 "`salida` y cuenta de nuevo.")


@ejercicio("08.3")
def _parametros_largo_doce(respuesta):
    if not isinstance(respuesta, (int, float)) or isinstance(respuesta, bool):
        return pista("responde con un número entero de parámetros.")
    if respuesta == 13_674 + 4 * 32:
        return bien("Solo crece la tabla de posiciones: 4 filas más de 32 números.")
    if respuesta == 13_674:
        return pista("casi: hay una pieza del modelo que tiene una fila por posición.")
    return pista("parte de 13 674 y piensa qué tabla tiene una fila por cada posición; el resto no depende del largo.")


@ejercicio("08.4")
def _posiciones_rotacion(respuesta):
    try:
        lista = [int(v) for v in respuesta]
    except (TypeError, ValueError):
        return pista("responde con una lista de 8 enteros, uno por posición de salida.")
    if len(lista) != 8:
        return pista(f"tu lista tiene {len(lista)} números y hacen falta 8, uno por posición de salida.")
    if lista == [1, 2, 3, 4, 5, 6, 7, 0]:
        return bien("La salida i copia la entrada i + 1: una diagonal desplazada, y la última da la vuelta al 0.")
    if lista == [7, 0, 1, 2, 3, 4, 5, 6]:
        return pista("esa es la rotación hacia el otro lado. En el ejemplo, la salida 0 es 9: ¿en qué posición de la "
                     "entrada está ese 9?")
    return pista("mira el ejemplo: la salida 0 es 9 y la salida 7 es 4. ¿En qué posiciones de la entrada están?")


@ejercicio("08.5")
def _ordenar_sin_posiciones(respuesta):
    if not isinstance(respuesta, bool):
        return pista("responde `True` o `False` (sin comillas).")
    if respuesta is False:
        return bien("Sin posiciones, la salida de cada lugar depende solo de su propio dígito y de la bolsa; pero la "
                    "posición i debe escribir el i-ésimo menor, y no sabe que es la i.")
    return pista("ordenar no necesita saber dónde estaba cada dígito en la entrada, cierto; pero la salida sí necesita "
                 "saber en qué posición escribe. ¿Lo sabe la posición 0 si no hay vectores de posición?")
