"""Casos de la prueba por tabla para los ejercicios de la lección 11 · El transformer entero, etapa por etapa."""

import math

import torch

from casos_ejercicios import Adivinanza, Caso, Error

L = len("la atención mira atrás")


def _gigas(contexto, cabezas=12, bloques=12, bytes_por_numero=4, tablas=2):
    return tablas * cabezas * bloques * contexto**2 * bytes_por_numero / 1e9


def _futuro(n):
    return torch.triu(torch.ones(n, n, dtype=torch.bool), diagonal=1)


def atencion_causal(q, k, v):
    puntajes = q @ k.T / math.sqrt(q.shape[-1])
    return torch.softmax(puntajes.masked_fill(_futuro(len(q)), float("-inf")), dim=-1) @ v


def _sin_escala(q, k, v):
    return torch.softmax((q @ k.T).masked_fill(_futuro(len(q)), float("-inf")), dim=-1) @ v


def _sin_mascara(q, k, v):
    return torch.softmax(q @ k.T / math.sqrt(q.shape[-1]), dim=-1) @ v


def _futuro_a_cero(q, k, v):
    return torch.softmax((q @ k.T / math.sqrt(q.shape[-1])).masked_fill(_futuro(len(q)), 0.0), dim=-1) @ v


def _tapa_la_diagonal(q, k, v):
    # triu con diagonal=0: la diagonal también a −∞; la fila 0 no tiene nada que mirar y sale NaN.
    tapadas = torch.triu(torch.ones(len(q), len(q), dtype=torch.bool))
    return torch.softmax((q @ k.T / math.sqrt(q.shape[-1])).masked_fill(tapadas, float("-inf")), dim=-1) @ v


def _claves_por_consultas(q, k, v):
    return torch.softmax((k @ q.T / math.sqrt(q.shape[-1])).masked_fill(_futuro(len(q)), float("-inf")), dim=-1) @ v


def _escala_por_d(q, k, v):
    return torch.softmax((q @ k.T / q.shape[-1]).masked_fill(_futuro(len(q)), float("-inf")), dim=-1) @ v


def _devuelve_pesos(q, k, v):
    puntajes = q @ k.T / math.sqrt(q.shape[-1])
    return torch.softmax(puntajes.masked_fill(_futuro(len(q)), float("-inf")), dim=-1)


def _sin_return(q, k, v):
    atencion_causal(q, k, v)


CASOS = {
    "11.1": Caso(
        solucion=[1, 1, L, L],
        acepta=[(1, 1, L, L), torch.tensor([1, 1, L, L])],
        desviadas=[[1, 1, 15, 15], [1, 1, 29, 29]],
        errores=[
            Error([1, 1, 1, 1], "la atención mezcla filas"),
            Error([L] * 4, "fila a fila: en esas dos etapas"),
            Error([1, 1, L, 1], "el MLP trabaja fila a fila, cierto"),
            Error([1, 1, L - 1, L - 1], "la fila del propio primer carácter"),
            Error([1, 1, 5, 5], "sigue el cambio etapa a etapa"),
            Error("c", "lista de 4 números enteros"),
            Error([1, 1, 2.5, 3], "cada elemento es un número entero"),
        ],
        adivinanzas=[Adivinanza(letra, "la respuesta antigua, una letra de cuatro: se acertaba descartando")
                     for letra in "abcd"] + [
            Adivinanza([1, 1, 1, 1], "«todo trabaja fila a fila»"),
            Adivinanza([L] * 4, "«todo cambia»"),
        ],
    ),
    "11.2": Caso(
        adivinanzas=[Adivinanza(L * L, "una tabla L × L"), Adivinanza(4 * 21 * 21, "L sin contar bien los caracteres")],
        solucion=4 * L * L,
        errores=[
            Error(L * L, "una por cabeza"),
            Error(2 * 4 * L * L, "solo el bloque 0"),
            Error(4 * L * (L + 1) // 2, "ceros del futuro"),
            Error(L * 96, "una fila y una columna por carácter"),
            Error(4 * 21 * 21, "espacios incluidos"),
        ],
    ),
    "11.3": Caso(
        solucion=_gigas(2048),
        acepta=[round(_gigas(2048), 1), round(_gigas(2048), 2), 4.8318],
        rechaza=[4.82, 4.825, 4.84, 4.845],  # a un 0.1 % de 4.8318… (4.827 a 4.837): con el 0.2 %, 4.84 y 4.825 pasaban
        errores=[
            # Una tabla por cabeza con el contexto doblado da lo mismo que dos tablas con la memoria solo doblada
            # (_gigas(1024) * 2): un número, una pista que nombra los dos errores.
            Error(_gigas(2048, tablas=1), "una sola tabla por cabeza"),
            Error(_gigas(1024), "el doble de contexto"),
            Error(_gigas(1024, tablas=1), "con el contexto de 1024"),
            Error(_gigas(2048, 1, 1), "una sola cabeza"),
            Error(_gigas(2048, 12, 1), "un solo bloque"),
            Error(_gigas(2048, bytes_por_numero=8), "no 8"),
            Error(_gigas(2048, bytes_por_numero=32), "no bits"),
            Error(_gigas(2048) * 1e9 / 2**30, "2³⁰"),
            Error(_gigas(2048) * 1e3, "no en MB"),
            Error(_gigas(2048) * 1e9, "eso son bytes"),
        ],
        adivinanzas=[
            Adivinanza(_gigas(1024), "el contexto de la tabla, sin doblar"),
            Adivinanza(_gigas(2048, tablas=1), "la respuesta antigua de la lección 11: solo los pesos, una tabla por "
                                               "cabeza, cuando la lección 07 cuenta dos (puntajes y pesos)"),
        ] + [Adivinanza(inventada, "un número inventado cerca de la respuesta (4.83), a menos del 1 %: el margen de "
                                   "antes lo aceptaba") for inventada in (4.79, 4.825, 4.84, 4.845, 4.85, 4.88)],
    ),
    "11.4": Caso(
        adivinanzas=[Adivinanza(_sin_mascara, "la atención de la lección 02, sin máscara"),
                     Adivinanza(_devuelve_pesos, "la tabla de pesos en vez de la salida")],
        solucion=atencion_causal,
        errores=[
            Error(_sin_escala, "√d"),
            Error(_sin_mascara, "falta la máscara causal"),
            Error(_futuro_a_cero, "no 0"),
            Error(_tapa_la_diagonal, "tapa también la diagonal"),
            Error(_claves_por_consultas, "no k @ q.T"),
            Error(_escala_por_d, "no por d"),
            Error(_devuelve_pesos, "no la tabla de pesos"),
            Error(_sin_return, "no devuelve nada"),
            Error(None, "pasa tu función sin paréntesis"),
        ],
    ),
    "11.5": Caso(
        solucion=17 * 17,
        errores=[
            Error(17 * 18 // 2, "máscara causal"),
            Error(16 * 16, "falta el token [CLS]"),
            Error(16 * 17 // 2, "con máscara causal y sin [CLS]"),
            Error(17, "eso es una fila"),
            Error(16, "número de parches"),
            Error(32 * 32, "no son los píxeles"),
            Error(300, "cuenta las «palabras» del ViT"),
            Error("b", "un número entero de celdas"),
        ],
        adivinanzas=[Adivinanza(letra, "la respuesta antigua, una letra de tres: la tabla de la sección 8 de la "
                                       "lección 11 y la de la lección 07 ya decían que un ViT es un codificador")
                     for letra in "abc"] + [
            Adivinanza(17 * 18 // 2, "contar con máscara causal, sin pensar en la familia"),
        ],
    ),
}
