"""Casos de la prueba por tabla para los ejercicios de la lección 08 · Invertir dígitos."""

from casos_ejercicios import Adivinanza, Caso, Error


def _aciertos(logits, objetivos):
    return (logits.argmax(dim=-1) == objetivos).float().mean(dim=0)


def _aciertos_por_secuencia(logits, objetivos):
    return (logits.argmax(dim=-1) == objetivos).float().mean(dim=1)


def _aciertos_sin_return(logits, objetivos):
    (logits.argmax(dim=-1) == objetivos).float().mean(dim=0)


def _aciertos_mal(logits, objetivos):
    return (logits.argmax(dim=-1) == objetivos).float().mean(dim=0).flip(0)


def _aciertos_en_porcentaje(logits, objetivos):
    return 100 * (logits.argmax(dim=-1) == objetivos).float().mean(dim=0)


def _aciertos_argmax_en_lote(logits, objetivos):
    return (logits.argmax(dim=1) == objetivos).float().mean(dim=0)


CASOS = {
    "08.1": Caso(
        adivinanzas=[Adivinanza(_aciertos_por_secuencia, "la media por secuencia, la otra dimensión")],
        solucion=_aciertos,
        errores=[
            Error(_aciertos_por_secuencia, "¿Sobre qué dimensión promedias?"),
            Error(_aciertos_sin_return, "no devuelve nada"),
            Error(_aciertos_mal, "la forma es buena, pero los valores no"),
            Error(_aciertos_en_porcentaje, "en porcentaje"),
            Error(_aciertos_argmax_en_lote, "Haz argmax sobre esa, la última"),
        ],
    ),
    "08.2": Caso(
        adivinanzas=[Adivinanza(0.95, "la exactitud de un dígito"),
                     Adivinanza(0.5, "«la mitad»"),
                     Adivinanza(1 - 8 * 0.05, "restar los fallos"),
                     Adivinanza(0.659, "un número inventado cerca de la respuesta, por debajo"),
                     Adivinanza(0.668, "un número inventado cerca de la respuesta, por encima"),
                     Adivinanza(2 / 3, "«una de cada tres», del mensaje de acierto y de la solución"),
                     Adivinanza(0.666, "dos tercios con tres decimales"),
                     Adivinanza(0.665, "un número inventado a medio camino de dos tercios"),
                     Adivinanza(0.66, "dos decimales: no distingue la cuenta de dos tercios"),
                     Adivinanza(0.664, "la cuenta mal redondeada a tres decimales"),
                     Adivinanza(0.662, "un número inventado cerca de la respuesta, por debajo")],
        solucion=0.95**8,
        acepta=[0.663, 0.6634],
        errores=[
            Error(100 * 0.95**8, "no un porcentaje"),
            Error(0.95, "exactitud de un solo dígito"),
            Error(0.95 * 8, "se multiplican, no se suman"),
            Error(1 - 8 * 0.05, "aproximación"),
            Error(0.95**7, "son 8 aciertos"),
            Error(0.05**8, "probabilidad de fallar"),
            Error(2 / 3, "dos tercios es una estimación"),
            Error(0.66, "con tres decimales"),
        ],
    ),
    "08.3": Caso(
        adivinanzas=[Adivinanza(13_674, "el total de la lección, sin cambiar nada"),
                     Adivinanza(13_674 - 8 * 32, "el modelo sin posiciones de la sección 7")],
        solucion=13_674 + 4 * 32,
        errores=[
            Error(13_674, "una fila por posición"),
            Error(13_674 + 12 * 32, "solo las filas nuevas"),
            Error(13_674 + 8 * 32, "sin sesgo"),
            Error(13_674 + 4 * 32 + 1, "el resto del modelo"),
        ],
    ),
    "08.4": Caso(
        adivinanzas=[Adivinanza([7, 6, 5, 4, 3, 2, 1, 0], "la antidiagonal del enunciado"),
                     Adivinanza([0, 1, 2, 3, 4, 5, 6, 7], "cada una a sí misma")],
        solucion=[1, 2, 3, 4, 5, 6, 7, 0],
        errores=[
            Error([7, 0, 1, 2, 3, 4, 5, 6], "hacia el otro lado"),
            Error([7, 6, 5, 4, 3, 2, 1, 0], "la antidiagonal"),
            Error([1, 2, 3], "hacen falta 8"),
            Error([0, 1, 2, 3, 4, 5, 6, 7], "¿En qué posiciones de la entrada están?"),
            Error([0.5] * 8, "número entero de 0 a 7"),
        ],
    ),
    "08.5": Caso(
        solucion=[False, True, True, False, True],
        booleana=True,
        desviadas=[[True, True, True, False, True], [False, False, True, False, True]],
        errores=[
            Error([False] * 5, "no es inútil"),
            Error([True] * 5, "dos lugares con el mismo dígito son indistinguibles"),
            Error([True, True, True, False, True], "marcas como posible"),
            Error([False, True, False, False, True], "marcas como imposible"),
            Error(["False", "True", "True", "False", "True"], "sin comillas"),
            Error([0, 1, 1, 0, 1], "no 0 y 1"),
            Error([False, True, True], "hay 5 tareas"),
            Error(False, "una lista de 5 valores"),
        ],
        adivinanzas=[
            Adivinanza(False, "la respuesta antigua: «ordenar sin posiciones no se puede», un sí o no"),
            Adivinanza(True, "la otra cara de la moneda"),
            Adivinanza([False] * 5, "«sin posiciones nada funciona», lo que sugiere la sección 7"),
            Adivinanza([True] * 5, "todo posible"),
            Adivinanza([False, True, True, True, True], "solo ordenar es imposible (la respuesta de antes)"),
            Adivinanza([True, True, True, False, True], "solo rotar es imposible (el ejercicio 4 vecino)"),
        ],
    ),
}
