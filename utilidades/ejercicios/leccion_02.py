"""Comprobaciones de los ejercicios de la lección 02 · Atención a mano."""

import functools
import math

import numpy as np
import torch

from utilidades.ejercicios import (
    Veredicto,
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
    puntajes = productos / math.sqrt(2)
    esperado = _softmax(puntajes)
    valor = a_numpy(respuesta)
    # Se piden dos decimales: redondear bien deja cada peso a 0.005 o menos del exacto. Así pasan los redondeos (y
    # cualquier respuesta con más decimales), pero no un vecino inventado una centésima más allá ni un truncado.
    if _es(valor, esperado, _DOS_DECIMALES):
        return bien("Ahora ejecuta las celdas siguientes: la primera fila de la tabla de pesos debe coincidir.")
    # Cortar los pesos exactos da lo mismo que redondear los puntajes a un decimal (1.4 y 0.7) antes de la
    # exponencial y los pesos al final: la pista nombra los dos caminos.
    if _es(valor, np.floor(100 * esperado) / 100, 1e-9):
        return pista("casi. Hay dos maneras de llegar a esos números: cortar los decimales de los pesos en lugar de "
                     "redondearlos (mira la tercera cifra: si es 5 o más, la segunda sube), o redondear los puntajes "
                     "antes de la exponencial (guarda tres cifras o más en los pasos intermedios, √2 ≈ 1.414, y "
                     "redondea solo al final).")
    # Con los puntajes redondeados a dos decimales (1.41 y 0.71), la exponencial agranda el error y un peso se aleja
    # más de 0.005: el método es el bueno, pero el resultado no.
    if any(_es(valor, _softmax(np.round(puntajes, n)), _DOS_DECIMALES) for n in (1, 2)):
        return pista("tu método es el bueno, pero has redondeado los puntajes antes de la exponencial, y la "
                     "exponencial agranda ese error. Repite la cuenta guardando tres cifras o más en los pasos "
                     "intermedios (√2 ≈ 1.414) y redondea solo los pesos, al final.")
    if _es(valor, esperado[::-1], _DOS_DECIMALES):
        # La fila de «sacó» da los mismos pesos que la de «Ana» al revés: sus puntajes son los de «Ana» invertidos
        # más 1/√2, y sumar lo mismo a toda la fila no cambia el softmax.
        return pista("tienes los pesos de «Ana» en orden inverso (también son la fila de «sacó»): el primero es el de "
                     "la clave de «Ana», el segundo el de «sacó» y el tercero el de «plata».")
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
    if _es(valor, [2.0, 2.0, 2.0]):  # (2, 0) · (1, 1) = 2 con cada clave
        return pista("esos son los productos escalares de la consulta con cada clave, no pesos: faltan dos pasos, "
                     "dividirlos por √2 y aplicar el softmax.")
    if _es(valor, [2 / math.sqrt(2)] * 3):
        return pista("esos son los puntajes; conviértelos en pesos con el softmax.")
    if _es(valor, [1.0, 1.0, 1.0]):
        return pista("los pesos de una fila tienen que sumar 1.")
    if _es(valor, _softmax(K @ Q[2] / math.sqrt(2))):
        return pista("esos son los pesos con las claves originales; aquí las tres claves son iguales.")
    # Con dos decimales, como en 02.1: 0.33 pasa, pero no 0.34 ni 0.325, que ya no suman 1.
    iguales = valor is not None and valor.shape == (3,) and np.all(np.isfinite(valor)) and np.ptp(valor) < 1e-9
    # Subir uno a 0.34 para que sumen 1 tampoco: 0.34 no es 1/3 redondeado (está a más de 0.005), y la respuesta dice
    # que una palabra recibe más que las otras, justo lo que unas claves iguales impiden.
    forzada_a_sumar_1 = (_es(valor, [1 / 3] * 3) and not iguales and abs(valor.sum() - 1) < _DOS_DECIMALES
                         and not _es(valor, [1 / 3] * 3, _DOS_DECIMALES))
    if forzada_a_sumar_1:
        return pista("casi: tus pesos suman 1, pero no son iguales, y con las tres claves iguales ninguna palabra "
                     "puede recibir más que otra. Redondea cada peso por separado: que los redondeos no sumen justo 1 "
                     "es normal.")
    if iguales and not _es(valor, [1 / 3] * 3, _DOS_DECIMALES):
        return pista(f"un reparto a partes iguales, bien; pero tus tres pesos suman {valor.sum():.3g} y los de una "
                     "fila suman 1: ¿cuánto le toca a cada palabra?")
    veredicto = comparar_numeros(
        respuesta, [1 / 3, 1 / 3, 1 / 3], tolerancia=_DOS_DECIMALES,
        pista_forma="hay un peso por palabra.",
        pista_valor="si las tres claves son iguales, ¿en qué se diferencian los tres puntajes de la fila?",
    )
    if veredicto.correcto:
        return bien("Sin claves distintas, la consulta no puede preferir a nadie.")
    return veredicto


def _renormalizar(tabla, dim=-1):
    return tabla / tabla.sum(dim=dim, keepdim=True)


def _plantilla(pesos, T):
    ...  # la celda del ejercicio tal como llega: sin código


def _sin_escribir(funcion):
    """True si la función no hace nada, como la plantilla (sus instrucciones compiladas son las mismas)."""
    codigo = getattr(funcion, "__code__", None)
    return codigo is not None and codigo.co_code == _plantilla.__code__.co_code


@ejercicio("02.3")
def _con_temperatura(funcion):
    exigir_funcion(funcion, "comprobar('02.3', con_temperatura)")
    if _sin_escribir(funcion):
        return Veredicto(False, "Aún no has respondido: sustituye los tres puntos (...) de `con_temperatura` por "
                                "tu código.")
    generador = torch.Generator().manual_seed(1)
    # Temperaturas distintas de 1 (los pesos sin cambiar no pasan), una que concentra y otras que aplanan; la primera
    # forma es una sola frase y las otras, lotes y cabezas. Cada error frecuente da números distintos en la primera.
    for forma, T in (((5, 4), 0.7), ((2, 6, 8), 2.0), ((2, 3, 7, 16), 0.4)):
        Q = torch.randn(*forma, generator=generador, dtype=torch.float64)
        K = torch.randn(*forma, generator=generador, dtype=torch.float64)
        puntajes = Q @ K.transpose(-2, -1) / math.sqrt(forma[-1])  # (..., L, L)
        pesos = torch.softmax(puntajes, dim=-1)  # lo que recibe el estudiante: los pesos con T = 1
        esperado = torch.softmax(puntajes / T, dim=-1)  # la temperatura de la lección 01, con los puntajes
        obtenido = llamar(funcion, pesos.clone(), T, forma=pesos.shape,  # una copia: que no cambie los nuestros
                          pista_forma="Debe tener la forma de los pesos que recibe, (..., L, L).")
        obtenido = obtenido.detach().double()  # se compara siempre en float64, calcule el estudiante en el tipo que sea
        if torch.allclose(obtenido, esperado, atol=1e-5):
            continue
        elevados = pesos ** (1 / T)
        es = functools.partial(torch.allclose, obtenido, atol=1e-5)  # es(tabla): ¿devolvió esa tabla?
        if es(pesos):
            return pista("tus pesos no cambian con T: devuelves los que recibes. Una T baja (menor que 1) debe "
                         "concentrar cada fila y una alta, aplanarla.")
        if es(elevados):
            return pista("tras elevar, las filas ya no suman 1: te falta volver a normalizar cada fila.")
        if es(pesos / T):
            return pista("has dividido los pesos por T y las filas ya no suman 1: la temperatura divide los "
                         "puntajes, que están dentro de la exponencial, no los pesos que ya salieron del softmax.")
        if es(torch.softmax(pesos / T, dim=-1)):
            return pista("has aplicado el softmax a los pesos como si fueran puntajes: ya salieron de una "
                         "exponencial, y ahí dentro es donde actúa la temperatura. Piensa qué le hace a e^s dividir "
                         "s entre T.")
        if es(_renormalizar(elevados, dim=-2)):
            return pista("has normalizado por columnas: cada fila es una consulta, y es cada fila la que debe "
                         "sumar 1 (sobre el último eje).")
        if es(elevados / elevados.sum(dim=-1)):
            return pista("al dividir por la suma de cada fila, esa suma tiene que conservar su eje "
                         "(keepdim=True); sin ella, PyTorch divide cada columna j por la suma de la fila j.")
        if es(elevados / elevados.sum(dim=(-2, -1), keepdim=True)) or es(elevados / elevados.sum()):
            return pista("has dividido por la suma de toda la tabla: hay que normalizar cada fila por separado, "
                         "porque cada consulta reparte su propia atención.")
        if es(_renormalizar(pesos ** T)):
            return pista("tu temperatura va al revés: con T menor que 1 tus pesos se aplanan y deberían "
                         "concentrarse. Revisa el exponente.")
        if not torch.allclose(obtenido.sum(dim=-1), torch.ones(pesos.shape[:-1], dtype=torch.float64), atol=1e-5):
            return pista("las filas de tus pesos no suman 1: una tabla de pesos suma 1 en cada fila.")
        return pista("la forma y las sumas están bien, pero los valores no: los pesos que devuelves deben ser los "
                     "del softmax de los puntajes divididos por T.")
    return bien("Elevar a 1/T y volver a normalizar da lo mismo que dividir los puntajes por T: el denominador del "
                "softmax es el mismo en toda la fila, y se va al normalizar. Funciona con una frase, con lotes y "
                "con cabezas, y con temperaturas que concentran (T < 1) y que aplanan (T > 1).")


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
                    "tiene una fila por consulta, de la dimensión de los valores, d_v.")
    if (salida, pesos) == ((lote, L_q, L_k), (lote, L_q, d_v)):
        return pista("tienes las dos formas, pero en el orden contrario: primero los pesos y después la salida.")
    if pesos[0] != lote or salida[0] != lote:
        return pista("el lote no cambia: la atención trata cada frase del lote por separado, y el primer "
                     "eje sigue siendo el de Q.")
    if pesos == (lote, L_k, L_q):
        return pista("tu tabla de pesos tiene las claves en las filas: cada fila es una consulta (la que mira) y "
                     "cada columna, una clave.")
    if pesos[1] == pesos[2]:
        return pista("la tabla de pesos no tiene por qué ser cuadrada: aquí la traducción y la frase de entrada "
                     "son frases de distinta longitud.")
    if pesos != (lote, L_q, L_k):
        return pista("la tabla de pesos tiene una fila por consulta y una columna por clave: mira el penúltimo "
                     "eje de Q y el de K.")
    if salida == (lote, L_q, d):
        return pista("la salida mezcla valores, no consultas: su último eje es la dimensión de cada valor, "
                     "como el último de V.")
    if salida[1] == L_k:
        return pista("la salida tiene una fila por palabra que pregunta (cada consulta recibe su mezcla), no una "
                     "por clave.")
    return pista("la tabla de pesos está bien; la salida es pesos @ V: las filas de los pesos por las columnas de V.")
