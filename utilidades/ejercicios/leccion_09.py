"""Comprobaciones de los ejercicios de la lección 09 (imágenes como frases)."""

import torch

from utilidades.ejercicios import bien, ejercicio, exigir_entero, exigir_funcion, llamar, pista
from utilidades.vision import parches


@ejercicio("09.1")
def _palabras_vit_384(respuesta):
    """«Palabras» de un ViT con imágenes de 384 × 384 y parches de 16 × 16, contando el [CLS]."""
    valor = exigir_entero(respuesta, "un número entero de «palabras»")
    lado = 384 // 16
    if valor == lado**2 + 1:
        return bien("Al subir la resolución la frase se alarga con el cuadrado del lado, y la tabla de atención con "
                    "el cuadrado de la frase. El artículo del ViT (Dosovitskiy et al., 2021) entrena a 224 × 224 y "
                    "solo hace el ajuste fino final a 384 × 384.")
    errores = {
        lado**2: "esos son los parches; ¿no falta alguien delante de ellos?",
        lado + 1: "cuenta los parches de una fila y los de una columna: la rejilla tiene filas × columnas parches.",
        lado: "eso son los parches de una sola fila; la rejilla tiene filas × columnas parches, y falta el [CLS].",
        (384 * 384) // 16 + 1: "un parche de 16 × 16 tiene 16 · 16 píxeles: divide el número de píxeles entre 256, o "
                               "mejor, cuenta parches por lado.",
    }
    if valor in errores:
        return pista(errores[valor])
    return pista("¿cuántos parches de 16 caben a lo alto en 384? ¿Y a lo ancho? Multiplica, y no olvides el [CLS].")


@ejercicio("09.2")
def _numeros_por_parche_14(respuesta):
    """Números de un parche aplanado de 14 × 14 en una imagen en color."""
    valor = exigir_entero(respuesta, "un número entero")
    if valor == 3 * 14 * 14:
        return bien("3 canales × 14 × 14: cada parche llega como un vector de ese tamaño a la proyección.")
    errores = {
        14 * 14: "eso sería en gris; la imagen es en color, con tres canales.",
        3 * 14: "un parche es un cuadrado de 14 × 14 píxeles, y cada píxel tiene 3 canales.",
        3 * 16 * 16: "esos son los números de un parche de 16; aquí los parches son de 14 × 14.",
        14 * 14 + 1: "el [CLS] es otra «palabra» de la frase, no un número más de cada parche.",
    }
    if valor in errores:
        return pista(errores[valor])
    return pista("un parche aplanado tiene un número por píxel y por canal de color.")


@ejercicio("09.3")
def _recomponer(funcion):
    exigir_funcion(funcion, "comprobar('09.3', recomponer)")
    generador = torch.Generator().manual_seed(9)
    for canales, alto, ancho, tam in ((3, 96, 160, 16), (1, 8, 8, 4), (2, 6, 10, 2)):
        imagen = torch.rand(canales, alto, ancho, generator=generador)
        obtenida = llamar(funcion, parches(imagen, tam), canales, alto, ancho, tam, forma=(canales, alto, ancho),
                          pista_forma="Debe tener la misma forma que la imagen.")
        # Se acepta el redondeo de una cuenta de más (una diferencia de 1e-7 en float32): solo importa el orden.
        if torch.allclose(obtenida.double(), imagen.double(), rtol=0, atol=1e-5):
            continue
        if not torch.allclose(obtenida.flatten().sort().values.double(), imagen.flatten().sort().values.double(),
                              rtol=0, atol=1e-5):
            return pista("la forma es buena pero los números han cambiado: recomponer solo cambia el orden de los "
                         "números de la secuencia, sin sumar, multiplicar ni mezclar ninguno.")
        return pista("la forma es buena pero los píxeles no están en su sitio: deshaz los pasos de `parches` en "
                     "orden inverso y, antes del último reshape, asegúrate de que quedan seguidas las dimensiones "
                     "que forman una fila de píxeles de la imagen.")
    return bien("Parchear y recomponer no pierden nada: solo cambian el orden de los mismos números.")


@ejercicio("09.4")
def _posiciones_vit_28(respuesta):
    """Parámetros de la tabla de vectores de posición de ViTDiminuto(tam_imagen=28, tam_parche=4, d_modelo=64)."""
    valor = exigir_entero(respuesta, "un número entero de parámetros")
    parches_por_lado = 28 // 4
    if valor == (parches_por_lado**2 + 1) * 64:
        return bien("Una fila de d_modelo números por cada «palabra»: los parches y el [CLS].")
    errores = {
        parches_por_lado**2 * 64: "casi: el [CLS] también tiene su posición.",
        parches_por_lado**2 + 1: "cuentas las posiciones, pero cada una es un vector de d_modelo números.",
        parches_por_lado**2: "cuentas los parches, pero cada posición es un vector de d_modelo números y el [CLS] "
                             "también tiene la suya.",
        (28 * 28 + 1) * 64: "las posiciones son una por parche, no una por píxel.",
    }
    if valor in errores:
        return pista(errores[valor])
    return pista("cuenta los parches de 4 × 4 en una imagen de 28 × 28, suma el [CLS] y multiplica por d_modelo.")
