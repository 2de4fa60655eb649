"""Comprobaciones de los ejercicios de la lección 06 · Posición."""

import math

import torch

from utilidades.ejercicios import (
    a_numpy,
    bien,
    comparar_numeros,
    ejercicio,
    exigir_funcion,
    exigir_numero,
    llamar,
    pista,
)
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


# Ejercicio 06.2: con d = 80 cada error frecuente da un número distinto (a más de 0.05 de cualquier otro y de la
# respuesta). Otras d los juntan: con d = 64, 2i = 4 daba lo mismo que la d = 32 de la tabla de la lección
# (10000^(4/64) = 10000^(2/32)); con d = 96, 2i = 3 daba lo mismo que d = 64 (10000^(3/96) = 10000^(2/64)). Se evitan
# las d múltiplos de 16 o de 32 por el mismo motivo. tests/test_posicion.py comprueba que las cuentas no se juntan.
D_06_2 = 80


@ejercicio("06.2")
def _periodo_de_la_segunda_aguja(respuesta):
    """El periodo de la segunda aguja (columnas 2 y 3) con d_modelo = D_06_2: posiciones por vuelta completa."""
    valor = exigir_numero(respuesta, "un solo número (las posiciones que tarda la aguja en dar una vuelta)")
    d = D_06_2
    velocidad = 10000 ** (2 / d)  # la aguja gira 1 / velocidad radianes por posición
    esperado = 2 * math.pi * velocidad
    if abs(valor - esperado) < 0.05:
        return bien(f"Con d = {d} las agujas se frenan más despacio de una a otra que con d = 32: hay más agujas "
                    f"para repartir el mismo recorrido de velocidades.")
    errores = errores_06_2(d)
    for valor_erroneo, texto in errores:
        if abs(valor - valor_erroneo) < 0.05:
            return pista(texto)
    return pista(f"el ángulo de la segunda aguja es pos / 10000^(2i/d) con 2i = 2 y d = {d}; la vuelta se "
                 f"completa cuando ese ángulo llega a 2π.")


def errores_06_2(d):
    """(respuesta equivocada, su pista) de cada error frecuente del ejercicio 06.2 con d_modelo = d."""
    velocidad = 10000 ** (2 / d)
    return [
        (velocidad, "una vuelta completa son 2π radianes, no 1."),
        (360 * velocidad, "los ángulos de la fórmula están en radianes: una vuelta son 2π, no 360 grados."),
        (2 * math.pi * 10000 ** (2 / 32), f"ese sería el periodo con d = 32, el de la tabla de la lección; aquí "
                                          f"d = {d}."),
        (2 * math.pi * 10000 ** (2 / 64), f"ese sería el periodo con d = 64; aquí d = {d}."),
        (2 * math.pi * 10000 ** (1 / d), "en el exponente va 2i/d, y para las columnas 2 y 3 el número 2i vale 2 "
                                         "(no 1)."),
        (2 * math.pi * 10000 ** (3 / d), "en el exponente va 2i/d con 2i = 2 para las columnas 2 y 3: el 3 es el "
                                         "número de la columna del coseno, no 2i."),
        (2 * math.pi * 10000 ** (4 / d), "las columnas 2 y 3 son la aguja i = 1: en el exponente va 2i = 2, no el "
                                         "doble del número de columna."),
        (2 * math.pi / velocidad, "la aguja gira 1 / 10000^(2i/d) radianes por posición: para completar 2π "
                                  "radianes necesita más posiciones, no menos."),
    ]


@ejercicio("06.3")
def _sumar_posiciones(funcion):
    """Una función que suma la posición sinusoidal a un lote (lote, L, d_modelo)."""
    exigir_funcion(funcion, "comprobar('06.3', sumar_posiciones)")
    generador = torch.Generator().manual_seed(6)
    for forma in ((1, 5, 8), (3, 7, 16), (2, 1, 4)):
        x = torch.randn(*forma, generator=generador)
        copia = x.clone()
        resultado = llamar(funcion, x, forma=forma, pista_forma="La suma no debe cambiar la forma.")
        if not torch.equal(x, copia):
            return pista("tu función cambia la entrada en su sitio (+=); devuelve un tensor nuevo.")
        # En float64 las dos: una tabla calculada con NumPy (float64) es tan correcta como una de float32.
        resultado = resultado.detach().to(torch.float64)
        esperado = (x + posicion_sinusoidal(forma[1], forma[2])).to(torch.float64)
        if torch.allclose(resultado, esperado - x.to(torch.float64), atol=1e-5):
            return pista("devuelves solo las posiciones; hay que sumárselas a x.")
        if not torch.allclose(resultado, esperado, atol=1e-5):
            return pista("la tabla de vectores de posición debe tener L filas (una por palabra) y d_modelo columnas, "
                         "y se suma igual a cada frase del lote.")
    return bien("La misma tabla (L, d_modelo) se suma a todas las frases del lote gracias a la difusión "
                "(*broadcasting*) de PyTorch.")


@ejercicio("06.4")
def _parametros_de_las_posiciones(respuesta):
    """Parámetros de nn.Embedding(512, 64) como vectores de posición aprendidos, y de la tabla sinusoidal."""
    veredicto = comparar_numeros(
        respuesta, [512 * 64, 0], tolerancia=0.5,
        pista_forma="da dos números: [aprendidas, sinusoidales].",
        pista_valor="una tabla aprendida guarda un vector de d_modelo números por cada posición posible; "
                    "la sinusoidal se calcula con una fórmula y no se entrena.",
    )
    if veredicto.correcto:
        return bien("Las aprendidas cuestan memoria y no sirven más allá de la longitud máxima. Las sinusoidales no "
                    "cuestan parámetros y la fórmula sirve para cualquier posición, aunque un modelo no siempre "
                    "funciona bien con frases más largas que las que vio al entrenar.")
    return veredicto
