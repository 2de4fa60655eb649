"""Comprobaciones de los ejercicios de la lección 08 (invertir dígitos)."""

import torch

from utilidades.ejercicios import (
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
        obtenido = torch.as_tensor(llamar(funcion, logits.clone(), objetivos.clone(), tipo=None), dtype=torch.float32)
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
def _secuencias_con_95_por_ciento(respuesta):
    """Fracción de secuencias de 8 acertadas enteras si cada dígito se acierta con probabilidad 0.95, independiente."""
    valor = exigir_numero(respuesta, "un solo número entre 0 y 1 (una fracción, no un porcentaje)")
    esperado = 0.95**8
    if abs(valor - esperado) < 0.005:
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
    return pista("la secuencia sale perfecta solo si acierta el dígito 1 y el 2 y … y el 8; con aciertos "
                 "independientes, esas probabilidades se multiplican.")


@ejercicio("08.3")
def _parametros_contexto_doce(respuesta):
    """Parámetros de TransformerJuguete(contexto=12)."""
    valor = exigir_entero(respuesta, "un número entero de parámetros")
    if valor == 13_674 + 4 * 32:
        return bien("Solo crece la tabla de posiciones: 4 filas más de 32 números.")
    if valor == 13_674:
        return pista("casi: hay una pieza del modelo que tiene una fila por posición.")
    if valor == 13_674 + 12 * 32:
        return pista("la tabla de 8 posiciones ya está contada en el total de la lección: suma solo las filas nuevas.")
    if valor == 13_674 + 4 * 32 * 2:
        return pista("la tabla de posiciones tiene una fila de d_modelo números por posición, sin sesgo.")
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


@ejercicio("08.5")
def _ordenar_sin_posiciones(respuesta):
    if not isinstance(respuesta, bool):
        return pista("responde `True` o `False` (sin comillas).")
    if respuesta is False:
        return bien("Sin posiciones, la salida de cada lugar depende solo de su propio dígito y de la bolsa; pero la "
                    "posición i debe escribir el i-ésimo menor, y no sabe que es la i.")
    return pista("ordenar no necesita saber dónde estaba cada dígito en la entrada, cierto; pero la salida sí necesita "
                 "saber en qué posición escribe. ¿Lo sabe la posición 0 si no hay vectores de posición?")
