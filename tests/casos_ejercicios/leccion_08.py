"""Casos de la prueba por tabla para los ejercicios de la lección 08 · Invertir dígitos."""

from casos_ejercicios import Caso, Error


def _aciertos(logits, objetivos):
    return (logits.argmax(dim=-1) == objetivos).float().mean(dim=0)


def _aciertos_por_secuencia(logits, objetivos):
    return (logits.argmax(dim=-1) == objetivos).float().mean(dim=1)


def _aciertos_sin_return(logits, objetivos):
    (logits.argmax(dim=-1) == objetivos).float().mean(dim=0)


def _aciertos_mal(logits, objetivos):
    return (logits.argmax(dim=-1) == objetivos).float().mean(dim=0).flip(0)


CASOS = {
    "08.1": Caso(
        solucion=_aciertos,
        errores=[
            Error(_aciertos_por_secuencia, "¿Sobre qué dimensión promedias?"),
            Error(_aciertos_sin_return, "no devuelve nada"),
            Error(_aciertos_mal, "la forma es buena, pero los valores no"),
        ],
    ),
    "08.2": Caso(
        solucion=0.95**8,
        errores=[
            Error(100 * 0.95**8, "no un porcentaje"),
            Error(0.95, "exactitud de un solo dígito"),
            Error(0.95 * 8, "se multiplican, no se suman"),
            Error(1 - 8 * 0.05, "aproximación"),
            Error(0.95**7, "son 8 aciertos"),
            Error(0.05**8, "probabilidad de fallar"),
        ],
    ),
    "08.3": Caso(
        solucion=13_674 + 4 * 32,
        errores=[
            Error(13_674, "una fila por posición"),
            Error(13_674 + 12 * 32, "solo las filas nuevas"),
            Error(13_674 + 8 * 32, "sin sesgo"),
            Error(13_674 + 4 * 32 + 1, "el resto del modelo"),
        ],
    ),
    "08.4": Caso(
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
        solucion=False,
        errores=[Error(True, "saber en qué posición escribe"), Error("False", "sin comillas")],
        rechaza=[True, 0],
        tipos=False,
    ),
}
