"""Comprobaciones de los ejercicios de la lección 09 (imágenes como frases)."""

import torch

from utilidades.ejercicios import bien, ejercicio, pista
from utilidades.vision import parches


def _es_numero(respuesta):
    return isinstance(respuesta, (int, float)) and not isinstance(respuesta, bool)


@ejercicio("09.1")
def _palabras_vit(respuesta):
    if not _es_numero(respuesta):
        return pista("responde con un número entero de «palabras».")
    if respuesta == 197:
        return bien("14 × 14 = 196 parches más el [CLS].")
    if respuesta == 196:
        return pista("esos son los parches; ¿no falta alguien delante de ellos?")
    return pista("¿cuántos parches de 16 caben a lo alto en 224? ¿Y a lo ancho? Multiplica, y no olvides el [CLS].")


@ejercicio("09.2")
def _numeros_por_parche(respuesta):
    if not _es_numero(respuesta):
        return pista("responde con un número entero.")
    if respuesta == 768:
        return bien("3 canales × 16 × 16: justo el d_modelo del ViT-Base, por cierto.")
    if respuesta == 256:
        return pista("eso sería en gris; la imagen es en color.")
    return pista("un parche aplanado tiene un número por píxel y por canal de color.")


@ejercicio("09.3")
def _recomponer(funcion):
    if not callable(funcion):
        return pista("la respuesta es una función: completa `recomponer` y pásala sin paréntesis.")
    generador = torch.Generator().manual_seed(9)
    for canales, alto, ancho, tam in ((3, 96, 160, 16), (1, 8, 8, 4), (2, 6, 10, 2)):
        imagen = torch.rand(canales, alto, ancho, generator=generador)
        obtenida = funcion(parches(imagen, tam), canales, alto, ancho, tam)
        if obtenida is None:
            return pista("tu función no devuelve nada: falta el `return`.")
        if not isinstance(obtenida, torch.Tensor) or tuple(obtenida.shape) != (canales, alto, ancho):
            forma = tuple(obtenida.shape) if isinstance(obtenida, torch.Tensor) else type(obtenida).__name__
            return pista(f"para una imagen ({canales}, {alto}, {ancho}) devolviste {forma}; "
                         f"debe tener la misma forma que la imagen.")
        if not torch.equal(obtenida, imagen):
            return pista("la forma es buena pero los píxeles no están en su sitio: primero separa (filas, columnas, "
                         "C, tam, tam), luego ordena como (C, filas, tam, columnas, tam) y aplana.")
    return bien("Parchear y recomponer no pierden nada: solo cambian el orden de los mismos números.")


@ejercicio("09.4")
def _posiciones_vit(respuesta):
    if not _es_numero(respuesta):
        return pista("responde con un número entero de parámetros.")
    if respuesta == 17 * 32:
        return bien("16 parches de 2 × 2 más el [CLS]: 17 filas de 32.")
    if respuesta == 16 * 32:
        return pista("casi: el [CLS] también tiene su posición.")
    return pista("cuenta los parches de 2 × 2 en una imagen de 8 × 8, suma el [CLS] y multiplica por d_modelo.")
