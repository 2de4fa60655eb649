"""Comprobaciones de los ejercicios de la lección 04 (atención multicabeza)."""

import torch

from utilidades.ejercicios import a_numpy, bien, comparar_numeros, ejercicio, pista, un_numero


@ejercicio("04.1")
def parametros_de_la_capa(respuesta):
    valor = un_numero(respuesta)
    if valor is None:
        return pista("la respuesta es un solo número entero.")
    if valor == 16 * 48 + 16 * 16:
        return pista("has contado los pesos, pero cada capa lineal también tiene un sesgo por salida.")
    if valor == 16 * 48 + 48:
        return pista("esa es solo la capa que calcula Q, K y V; falta la capa de salida.")
    if valor == 1088:
        return bien("816 en la capa de Q, K y V y 272 en la de salida.")
    return pista("suma los parámetros de nn.Linear(16, 48) (la de Q, K y V juntas) y de nn.Linear(16, 16).")


@ejercicio("04.2")
def forma_de_los_pesos(respuesta):
    try:
        forma = tuple(int(n) for n in respuesta)
    except (TypeError, ValueError):
        return pista("responde con una tupla de números, como (1, 2, 3, 4).")
    if len(forma) != 4:
        return pista("los pesos tienen cuatro dimensiones: lote, cabezas y una tabla de palabras × palabras.")
    if forma == (3, 8, 7, 4):
        return pista("(…, 7, 4) sería la salida de cada cabeza; los pesos comparan palabras con palabras.")
    if sorted(forma) == sorted((3, 8, 7, 7)) and forma != (3, 8, 7, 7):
        return pista("los números son esos, pero revisa el orden: primero el lote, luego las cabezas.")
    if forma == (3, 8, 7, 7):
        return bien("Una tabla de 7 × 7 por frase y por cabeza.")
    return pista("lote = 3 frases, 8 cabezas, y cada tabla tiene una fila y una columna por palabra.")


def _separar(x, cabezas):
    lote, L, d_modelo = x.shape
    return x.view(lote, L, cabezas, d_modelo // cabezas).transpose(1, 2)


@ejercicio("04.3")
def separar_cabezas(funcion):
    if not callable(funcion):
        return pista("la respuesta es la función `separar_cabezas` (sin paréntesis).")
    generador = torch.Generator().manual_seed(4)
    for forma, cabezas in (((2, 5, 16), 4), ((1, 3, 12), 3), ((3, 7, 8), 2), ((2, 4, 6), 1)):
        x = torch.randn(*forma, generator=generador)
        resultado = funcion(x.clone(), cabezas)
        if resultado is None:
            return pista("tu función todavía no devuelve nada: termina con `return`.")
        esperado = _separar(x, cabezas)
        if tuple(resultado.shape) != tuple(esperado.shape):
            return pista(f"con x de forma {forma} y {cabezas} cabezas tu función da forma "
                         f"{tuple(resultado.shape)} y debería ser (lote, cabezas, L, d_cabeza). ¿Falta un transpose?")
        if not torch.allclose(resultado, esperado):
            return pista("la forma es correcta, pero los números están revueltos: parte primero la última "
                         "dimensión con view(lote, L, cabezas, d_cabeza) y solo después mueve las cabezas.")
    return bien("Es la función `separar` que usa AtencionMulticabeza por dentro.")


@ejercicio("04.4")
def parametros_segun_cabezas(respuesta):
    valor = a_numpy(respuesta)
    if valor is not None and valor.shape == (4,) and len(set(valor.tolist())) > 1:
        return pista("¿de verdad cambian? Las capas lineales tienen la misma forma con cualquier número de cabezas.")
    veredicto = comparar_numeros(respuesta, [1088] * 4, tolerancia=0.5,
                                 pista_forma="da un número por cada h = 1, 2, 4, 8.",
                                 pista_valor="cuenta con sum(p.numel() for p in capa.parameters()).")
    if veredicto.correcto:
        return bien("Más cabezas no cuestan más parámetros: las mismas matrices, leídas en trozos.")
    return veredicto
