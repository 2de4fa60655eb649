"""Casos de la lección 04 para la prueba por tabla de los ejercicios."""

from casos_ejercicios import Caso, Error


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
        solucion=16640,
        errores=[Error(16384, "sesgo"), Error(12480, "capa de salida"), Error(1088, "el de la lección"),
                 Error(4160, "el número de cabezas"), Error(10000, "nn.Linear(a, b)"), Error(16640.5, "sin decimales")],
    ),
    "04.2": Caso(
        solucion=(3, 8, 7, 7),
        errores=[Error((3, 8, 7, 4), "la salida de cada cabeza"), Error((8, 3, 7, 7), "revisa el orden"),
                 Error((3, 7, 7), "cuatro dimensiones"), Error((3, 8, 5, 5), "una fila y una columna por palabra"),
                 Error("3, 8, 7, 7", "tupla de números enteros")],
    ),
    "04.3": Caso(
        solucion=_separar,
        errores=[Error(_reshape_directo, "un reshape directo"), Error(_sin_transpose, "las cabezas, delante"),
                 Error(_cabezas_alternas, "números consecutivos"), Error(_sin_return, "no devuelve nada")],
    ),
    "04.4": Caso(
        solucion=4,
        errores=[Error(8, "raíz de d_modelo"), Error(16, "tamaño de cada trozo"), Error(2, "número de cabezas"),
                 Error(64, "reparte d_modelo")],
    ),
}
