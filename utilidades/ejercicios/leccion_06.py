"""Comprobaciones de los ejercicios de la lección 06 · Posición."""

import math

import torch

from utilidades.ejercicios import (
    a_numpy,
    bien,
    comparar_numeros,
    ejercicio,
    exigir_entero,
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
    # Tolerancia 0.002: acepta el redondeo a dos decimales ([0.14, -0.99]), no valores a ojo como [0.15, -0.98].
    veredicto = comparar_numeros(
        respuesta, esperado, tolerancia=0.002,
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
        tabla = posicion_sinusoidal(forma[1], forma[2]).to(torch.float64)
        cambiada = torch.empty_like(tabla)
        cambiada[:, 0::2], cambiada[:, 1::2] = tabla[:, 1::2], tabla[:, 0::2]  # cosenos en las pares, senos en impares
        if torch.allclose(resultado, x.to(torch.float64) + cambiada, atol=1e-5):
            return pista("en tu tabla el seno y el coseno están cambiados de sitio: las columnas pares (0, 2, 4…) "
                         "llevan el seno y las impares (1, 3, 5…) el coseno.")
        if not torch.allclose(resultado, esperado, atol=1e-5):
            return pista("la tabla de vectores de posición debe tener L filas (una por palabra) y d_modelo columnas, "
                         "y se suma igual a cada frase del lote.")
    return bien("La misma tabla (L, d_modelo) se suma a todas las frases del lote gracias a la difusión "
                "(*broadcasting*) de PyTorch.")


# Ejercicio 06.4: el giro misterioso. La matriz es un giro R_k de la sección 4 con d_modelo = 64; el estudiante
# averigua k, con su signo, mirando dónde cae el puntaje mayor. Con k = -7 el máximo queda en p - 7 para toda p de 7 a
# 99 (tests/test_posicion.py lo comprueba) y ni 7 ni 3 (el ejemplo de la lección) sirven.
K_06_4 = -7
D_06_4 = 64


def _giro(k, d_modelo):
    """La matriz R_k de la lección: lleva PE(p) a PE(p + k) girando ω_i·k cada pareja de columnas."""
    omega = 1 / 10000 ** (torch.arange(0, d_modelo, 2, dtype=torch.float64) / d_modelo)
    coseno, seno = torch.diag(torch.cos(omega * k)), torch.diag(torch.sin(omega * k))
    R = torch.zeros(d_modelo, d_modelo, dtype=torch.float64)
    R[0::2, 0::2], R[0::2, 1::2] = coseno, seno
    R[1::2, 0::2], R[1::2, 1::2] = -seno, coseno
    return R


def giro_misterioso():
    """La matriz (64, 64) del ejercicio 06.4: un giro R_k con un k que el enunciado no dice."""
    return _giro(K_06_4, D_06_4)


@ejercicio("06.4")
def _k_del_giro_misterioso(respuesta):
    """El k (con su signo) del giro R_k que devuelve giro_misterioso()."""
    valor = exigir_entero(respuesta, "un número entero: k, con su signo")
    if valor == K_06_4:
        return bien(f"k = {K_06_4}: con esa W_Q cada posición da su puntaje mayor a la que está {-K_06_4} palabras "
                    f"atrás, en cualquier lugar de la frase; la franja queda a la izquierda de la diagonal.")
    if valor == -K_06_4:
        return pista("tienes la distancia, pero no el signo. Con W_Q = R_k la consulta de p da el puntaje mayor a "
                     "la clave q = p + k, así que k = q − p: negativo si el máximo cae antes de p. Si multiplicaste "
                     "por la matriz y no por su traspuesta, recuerda que R_kᵀ = R₋ₖ gira hacia el otro lado.")
    if abs(valor) == 3:
        return pista(f"{valor} es el k de un ejemplo de la lección (R_{valor}); el giro de giro_misterioso() es "
                     f"otro: calcula sus puntajes y mira dónde cae el máximo.")
    if valor == 0:
        return pista("con k = 0 la matriz sería la identidad y cada posición daría el puntaje mayor a sí misma; "
                     "calcula los puntajes de giro_misterioso() y mira dónde cae el máximo.")
    return pista("k es la distancia q − p: elige una posición p, calcula el puntaje de su consulta girada, "
                 "(W · PE(p)) · PE(q), para cada q (todas las filas a la vez: (P @ W.T) @ P.T) y resta p a la q del "
                 "máximo.")
