"""Casos de la lección 04 para la prueba por tabla de los ejercicios."""

import torch

from casos_ejercicios import Adivinanza, Caso, Error


def _separar(x, cabezas):
    """El `separar` que la lección muestra: (lote, L, d_modelo) -> (lote, cabezas, L, d_cabeza)."""
    lote, L, d_modelo = x.shape
    return x.view(lote, L, cabezas, d_modelo // cabezas).transpose(1, 2)


def _separar_qkv(qkv, cabezas):
    return torch.stack([_separar(t, cabezas) for t in qkv.chunk(3, dim=-1)])


def _separar_qkv_con_permute(qkv, cabezas):
    lote, L, triple = qkv.shape
    return qkv.view(lote, L, 3, cabezas, triple // 3 // cabezas).permute(2, 0, 3, 1, 4)


def _separar_qkv_en_float64(qkv, cabezas):
    return _separar_qkv(qkv.double(), cabezas)


def _tres_sueltos(qkv, cabezas):
    return tuple(_separar(t, cabezas) for t in qkv.chunk(3, dim=-1))


def _reshape_directo(qkv, cabezas):
    lote, L, triple = qkv.shape
    return qkv.reshape(3, lote, cabezas, L, triple // 3 // cabezas)


def _sin_transpose(qkv, cabezas):
    lote, L, triple = qkv.shape
    return torch.stack([t.reshape(lote, L, cabezas, -1) for t in qkv.chunk(3, dim=-1)])


def _reshape_sin_intercambiar(qkv, cabezas):
    """El error más frecuente: la forma de `separar` sin cambiar de sitio las palabras y las cabezas."""
    lote, L, triple = qkv.shape
    return torch.stack([t.reshape(lote, cabezas, L, -1) for t in qkv.chunk(3, dim=-1)])


def _cabezas_y_d_cabeza_cambiadas(qkv, cabezas):
    """Cada vector partido en d_cabeza trozos de `cabezas` números: el orden de view al revés."""
    lote, L, triple = qkv.shape
    return torch.stack([t.view(lote, L, -1, cabezas).transpose(1, 2) for t in qkv.chunk(3, dim=-1)])


def _lote_y_cabezas_cambiados(qkv, cabezas):
    """Las cabezas delante del lote: (3, cabezas, lote, L, d_cabeza)."""
    return _separar_qkv(qkv, cabezas).transpose(1, 2)


def _cabezas_fijas(qkv, cabezas):
    """Una función que no usa su argumento y separa siempre en 2 cabezas."""
    return _separar_qkv(qkv, 2)


def _intercalado(qkv, cabezas):
    lote, L, triple = qkv.shape
    return qkv.view(lote, L, cabezas, 3, triple // 3 // cabezas).permute(3, 0, 2, 1, 4)


def _orden_cambiado(qkv, cabezas):
    return _separar_qkv(qkv, cabezas)[[2, 1, 0]]


def _q_y_k_cambiadas(qkv, cabezas):
    """K delante de Q: el orden de la pregunta, «consultas y claves», leído al revés."""
    return _separar_qkv(qkv, cabezas)[[1, 0, 2]]


def _cabezas_alternas(qkv, cabezas):
    lote, L, triple = qkv.shape
    return torch.stack([t.reshape(lote, L, -1, cabezas).permute(0, 3, 1, 2) for t in qkv.chunk(3, dim=-1)])


def _sin_return(qkv, cabezas):
    _separar_qkv(qkv, cabezas)


CASOS = {
    "04.1": Caso(
        adivinanzas=[Adivinanza(16 * 48 + 48 + 16 * 16 + 16, "el recuento de AtencionMulticabeza(16, 4) de la lección"),
                     Adivinanza(4 * 64 * 64, "cuatro matrices de 64 × 64, sin sesgos")],
        solucion=16640,
        errores=[Error(54080, "sus propias W_Q, W_K y W_V"), Error(53248, "también un sesgo por salida"),
                 Error(16384, "sesgo"), Error(12480, "proyección de salida"), Error(1088, "el de la lección"),
                 Error(4160, "se queda corto: falta la proyección de entrada"), Error(10000, "nn.Linear(a, b)"),
                 Error(16640.5, "sin decimales")],
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
        adivinanzas=[Adivinanza(_separar, "el `separar` de AtencionMulticabeza, que la lección muestra, tal cual"),
                     Adivinanza(_tres_sueltos, "las dos líneas de AtencionMulticabeza copiadas: chunk y separar"),
                     Adivinanza(_reshape_directo, "un reshape directo a la forma final")],
        solucion=_separar_qkv,
        acepta=[_separar_qkv_con_permute, _separar_qkv_en_float64],
        errores=[Error(_separar, "el vector entero de 3 · d_modelo"), Error(_tres_sueltos, "por separado"),
                 Error(_reshape_directo, "un reshape directo"), Error(_sin_transpose, "delante de las palabras"),
                 Error(_reshape_sin_intercambiar, "intercambia las dimensiones de las palabras y de las cabezas"),
                 Error(_cabezas_y_d_cabeza_cambiadas, "has cambiado de sitio las cabezas y d_cabeza"),
                 Error(_lote_y_cabezas_cambiados, "has puesto las cabezas delante del lote"),
                 Error(_cabezas_fijas, "y 1 cabeza tu función devuelve"),
                 Error(_intercalado, "Q entera, luego K entera"), Error(_orden_cambiado, "no en su orden"),
                 Error(_q_y_k_cambiadas, "resultado[0] es K, resultado[1] es Q"),
                 Error(_cabezas_alternas, "números consecutivos"), Error(_sin_return, "no devuelve nada"),
                 Error(3, "debe ser una función")],
    ),
    "04.4": Caso(
        solucion=6,
        errores=[Error(12, "raíz de d_modelo"), Error(36, "cuántos números ve cada cabeza"),
                 Error(1 / 6, "el factor por el que se multiplican"),
                 Error(4, "ese es el número de cabezas"),
                 Error(2, "raíz del número de cabezas"), Error(3, "reparte primero d_modelo"),
                 Error(144, "reparte d_modelo")],
        adivinanzas=[
            Adivinanza(4, "el número de cabezas («dividir por las cabezas»)"),
            Adivinanza(8, "√64 = 8, el divisor de los ejemplos con d = 64"),
            Adivinanza(12, "√d_modelo, sin repartir entre las cabezas"),
            Adivinanza(36, "d_cabeza sin la raíz"),
            Adivinanza(1 / 6, "el factor 1/√d_cabeza, leyendo «multiplica» por «divide»"),
        ],
    ),
    "04.5": Caso(
        solucion=0.864,
        acepta=[0.8642, 0.8641685466077105],
        errores=[Error(0.86, "tres decimales"), Error(6, "ese es el puntaje"), Error(18, "antes de dividir por √9"),
                 Error(0.998, "no has dividido por √d_cabeza"), Error(0.480, "has dividido por d_cabeza = 9"),
                 Error(0.809, "√d_modelo = √13"), Error(0.333, "te falta la parte de posición"),
                 Error(0.086, "te falta la parte del papel"), Error(0.143, "reparto igual"),
                 Error(0.866, "te falta una palabra en el softmax"),
                 Error(1.5, "un peso está entre 0 y 1"), Error(0.5, "escribe el puntaje de «persigue»")],
        adivinanzas=[
            Adivinanza(0.143, "el reparto igual entre las 7 palabras"),
            Adivinanza(0.88, "el peso de «persigue» a «perro» en la frase de la lección, que está en pantalla"),
            Adivinanza(0.87, "el peso de «sacó» a «Ana», que está en pantalla"),
            Adivinanza(0.631, "«persigue» a «el» solo con la posición, que está en pantalla (0.63)"),
            Adivinanza(1.0, "todo el peso en el sujeto"),
            Adivinanza(0.333, "un tercio para cada sustantivo"),
        ],
    ),
}
