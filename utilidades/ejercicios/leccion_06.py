"""Comprobaciones de los ejercicios de la lección 06 · Posición."""

import math

import torch

from utilidades.ejercicios import a_numpy, bien, comparar_numeros, ejercicio, pista
from utilidades.posicion import posicion_sinusoidal


@ejercicio("06.1")
def _valores_en_la_posicion_3(respuesta):
    """PE(3, 0) y PE(3, 1) con la fórmula de la lección."""
    esperado = [math.sin(3), math.cos(3)]
    valor = a_numpy(respuesta)
    if valor is not None and valor.shape == (2,):
        en_grados = [math.sin(math.radians(3)), math.cos(math.radians(3))]
        if abs(valor[0] - en_grados[0]) < 0.01 and abs(valor[1] - en_grados[1]) < 0.01:
            return pista("parece que calculaste en grados; los senos de la fórmula usan radianes (math.sin).")
        if abs(valor[0] - esperado[1]) < 0.01 and abs(valor[1] - esperado[0]) < 0.01:
            return pista("las columnas pares llevan el seno y las impares el coseno; revisa el orden.")
    veredicto = comparar_numeros(
        respuesta, esperado,
        pista_forma="da dos números: [PE(3, 0), PE(3, 1)].",
        pista_valor="en las columnas 0 y 1 el divisor es 10000^0 = 1, así que el ángulo es la posición misma.",
    )
    if veredicto.correcto:
        return bien("La primera aguja gira un radián por posición: en la posición 3 ya casi ha dado media vuelta.")
    return veredicto


@ejercicio("06.2")
def _periodo_de_la_segunda_aguja(respuesta):
    """Cada cuántas posiciones se repiten las columnas 2 y 3 con d_modelo = 32."""
    esperado = 2 * math.pi * 10000 ** (2 / 32)
    valor = a_numpy(respuesta)
    if valor is not None and valor.shape == () and abs(float(valor) - 10000 ** (2 / 32)) < 0.05:
        return pista("una vuelta completa son 2π radianes, no 1.")
    veredicto = comparar_numeros(
        respuesta, esperado, tolerancia=0.05,
        pista_forma="da un solo número (las posiciones que tarda en dar una vuelta).",
        pista_valor="el ángulo es pos / 10000^(2i/d) con 2i = 2; la vuelta se completa cuando el ángulo llega a 2π.",
    )
    if veredicto.correcto:
        return bien("Cada pareja de columnas gira unas 1.78 veces más despacio que la anterior.")
    return veredicto


@ejercicio("06.3")
def _sumar_posiciones(funcion):
    """Una función que suma la posición sinusoidal a un lote (lote, L, d_modelo)."""
    if not callable(funcion):
        return pista("la respuesta debe ser la función `sumar_posiciones`, sin llamarla (sin paréntesis).")
    generador = torch.Generator().manual_seed(6)
    for forma in ((1, 5, 8), (3, 7, 16), (2, 1, 4)):
        x = torch.randn(*forma, generator=generador)
        copia = x.clone()
        resultado = funcion(x)
        if resultado is None:
            return pista("tu función no devuelve nada; termina con `return ...`.")
        if not isinstance(resultado, torch.Tensor):
            return pista(f"tu función debe devolver un tensor, pero devuelve {type(resultado).__name__}.")
        if tuple(resultado.shape) != forma:
            return pista(f"con una entrada {forma} tu función devuelve forma {tuple(resultado.shape)}; "
                         f"la suma no debe cambiar la forma.")
        if not torch.equal(x, copia):
            return pista("tu función cambia la entrada en su sitio (+=); devuelve un tensor nuevo.")
        esperado = x + posicion_sinusoidal(forma[1], forma[2])
        if torch.allclose(resultado, esperado - x, atol=1e-5):
            return pista("devuelves solo las posiciones; hay que sumárselas a x.")
        if not torch.allclose(resultado, esperado, atol=1e-5):
            return pista("la tabla de posiciones debe tener L filas (una por palabra) y d_modelo columnas, "
                         "y se suma igual a cada frase del lote.")
    return bien("La misma tabla (L, d_modelo) se suma a todas las frases del lote gracias a la difusión.")


@ejercicio("06.4")
def _parametros_de_las_posiciones(respuesta):
    """Parámetros de nn.Embedding(512, 64) como posiciones aprendidas, y de la tabla sinusoidal."""
    veredicto = comparar_numeros(
        respuesta, [512 * 64, 0], tolerancia=0.5,
        pista_forma="da dos números: [aprendidas, sinusoidales].",
        pista_valor="una tabla aprendida guarda un vector de d_modelo números por cada posición posible; "
                    "la sinusoidal se calcula con una fórmula y no se entrena.",
    )
    if veredicto.correcto:
        return bien("Las aprendidas cuestan memoria y no sirven más allá del largo máximo; "
                    "las sinusoidales son gratis.")
    return veredicto
