"""Casos de la lección 04 para la prueba por tabla de los ejercicios."""

from casos_ejercicios import Adivinanza, Caso, Error


def _separar(x, cabezas):
    lote, L, d_modelo = x.shape
    return x.view(lote, L, cabezas, d_modelo // cabezas).transpose(1, 2)


def _reshape_directo(x, cabezas):
    lote, L, d_modelo = x.shape
    return x.reshape(lote, cabezas, L, d_modelo // cabezas)


def _sin_transpose(x, cabezas):
    lote, L, d_modelo = x.shape
    return x.view(lote, L, cabezas, d_modelo // cabezas)


def _cabezas_alternas(x, cabezas):
    lote, L, d_modelo = x.shape
    return x.view(lote, L, d_modelo // cabezas, cabezas).permute(0, 3, 1, 2)


def _sin_return(x, cabezas):
    _separar(x, cabezas)


CASOS = {
    "04.1": Caso(
        adivinanzas=[Adivinanza(16 * 48 + 48 + 16 * 16 + 16, "el recuento de AtencionMulticabeza(16, 4) de la lección"),
                     Adivinanza(4 * 64 * 64, "cuatro matrices de 64 × 64, sin sesgos")],
        solucion=16640,
        errores=[Error(16384, "sesgo"), Error(12480, "capa de salida"), Error(1088, "el de la lección"),
                 Error(4160, "el número de cabezas"), Error(10000, "nn.Linear(a, b)"), Error(16640.5, "sin decimales")],
    ),
    "04.2": Caso(
        adivinanzas=[Adivinanza((3, 7, 7), "la forma de una sola cabeza"),
                     Adivinanza((8, 3, 7, 7), "cabezas delante del lote")],
        solucion=(3, 8, 7, 7),
        errores=[Error((3, 8, 7, 4), "la salida de cada cabeza"), Error((8, 3, 7, 7), "revisa el orden"),
                 Error((3, 7, 7), "cuatro dimensiones"), Error((3, 8, 5, 5), "una fila y una columna por palabra"),
                 Error("3, 8, 7, 7", "tupla de números enteros")],
    ),
    "04.3": Caso(
        adivinanzas=[Adivinanza(_reshape_directo, "un reshape directo a la forma final")],
        solucion=_separar,
        errores=[Error(_reshape_directo, "un reshape directo"), Error(_sin_transpose, "las cabezas, delante"),
                 Error(_cabezas_alternas, "números consecutivos"), Error(_sin_return, "no devuelve nada")],
    ),
    "04.4": Caso(
        solucion=6,
        errores=[Error(12, "raíz de d_modelo"), Error(36, "tamaño de cada trozo"),
                 Error(4, "ese es el número de cabezas"),
                 Error(2, "raíz del número de cabezas"), Error(3, "reparte primero d_modelo"),
                 Error(144, "reparte d_modelo")],
        adivinanzas=[
            Adivinanza(4, "el número de cabezas («dividir por las cabezas»)"),
            Adivinanza(8, "√64 = 8, el divisor de los ejemplos con d = 64"),
            Adivinanza(12, "√d_modelo, sin repartir entre las cabezas"),
            Adivinanza(36, "d_cabeza sin la raíz"),
        ],
    ),
}
