"""Comprobaciones de los ejercicios de la lección 05 (máscaras)."""

import numpy as np
import torch

from utilidades.ejercicios import a_numpy, bien, ejercicio, exigir_entero, exigir_funcion, llamar, pista


@ejercicio("05.1")
def visibles_causal(respuesta):
    valor = exigir_entero(respuesta, "un número entero de celdas")
    if valor == 100:
        return pista("esas son todas las celdas de la tabla; la máscara oculta el futuro de cada palabra.")
    if valor == 45:
        return pista("esas son las celdas ocultas (encima de la diagonal); se preguntan las visibles.")
    if valor == 50:
        return pista("casi: no olvides que la diagonal (cada palabra consigo misma) también es visible.")
    if valor == 55:
        return bien("1 + 2 + … + 10 = 55: la diagonal y todo lo que hay debajo.")
    return pista("cuenta fila a fila: la primera palabra ve 1 celda, la segunda 2, …")


def _ventana(L, ventana):
    i = torch.arange(L)[:, None]
    j = torch.arange(L)[None, :]
    return (j > i) | (i - j > ventana)


def _anteriores_visibles(mascara):
    """Cuántas palabras anteriores (sin contar la propia) deja ver cada fila de una máscara (L, L)."""
    L = mascara.shape[-1]
    return ((~mascara) & torch.ones(L, L, dtype=torch.bool).tril(-1)).sum(dim=-1)


@ejercicio("05.2")
def mascara_de_ventana(funcion):
    exigir_funcion(funcion, "comprobar('05.2', mascara_de_ventana)")
    for L, ventana in ((5, 1), (6, 2), (4, 0), (7, 6), (3, 5)):
        resultado = llamar(funcion, L, ventana, tipo=None)
        if isinstance(resultado, np.ndarray):
            resultado = torch.from_numpy(resultado)
        if isinstance(resultado, (list, tuple)):
            return pista("tu función devuelve una lista: la máscara debe ser un tensor de PyTorch (L, L) de tipo bool "
                         "(torch.tensor(...) convierte una lista en tensor).")
        if not isinstance(resultado, torch.Tensor):
            return pista(f"tu función devuelve un valor de tipo {type(resultado).__name__}: la máscara debe ser un "
                         f"tensor de PyTorch (L, L) de tipo bool.")
        if tuple(resultado.shape) != (L, L):
            return pista(f"con L = {L} tu función devuelve forma {tuple(resultado.shape)} y se esperaba ({L}, {L}). "
                         f"Una fila y una columna por palabra.")
        if resultado.dtype != torch.bool:
            return pista("la máscara debe ser de tipo bool (True = no se puede mirar); prueba con .bool().")
        esperado = _ventana(L, ventana)
        if torch.equal(resultado, esperado):
            continue
        if torch.equal(resultado, ~esperado):
            return pista("la tienes al revés: en el curso True significa «no se puede mirar».")
        if bool(resultado.diagonal().any()):
            return pista("cada palabra siempre puede mirarse a sí misma: la diagonal debe ser False.")
        if not bool(resultado[torch.ones(L, L, dtype=torch.bool).triu(1)].all()):
            return pista("el futuro (encima de la diagonal) debe quedar oculto siempre.")
        if torch.equal(resultado, torch.ones(L, L, dtype=torch.bool).triu(1)):
            return pista(f"esa es la máscara causal: no oculta nada del pasado. Con L = {L} y ventana = {ventana}, "
                         f"las palabras que quedan más atrás que la ventana también se ocultan.")
        if torch.equal(resultado, _ventana(L, ventana - 1)):
            return pista("cada palabra ve una palabra anterior de menos: `ventana` cuenta las anteriores que se "
                         "pueden mirar, sin contar la propia palabra (esa se mira siempre).")
        if torch.equal(resultado, _ventana(L, ventana + 1)):
            return pista("cada palabra ve una palabra anterior de más: con ventana = 1, por ejemplo, cada palabra ve "
                         "a sí misma y a una sola anterior.")
        tuyas, buenas = _anteriores_visibles(resultado), _anteriores_visibles(esperado)
        fila = int((resultado != esperado).any(dim=-1).nonzero()[0])
        if int(tuyas[fila]) == int(buenas[fila]):
            return pista(f"con L = {L} y ventana = {ventana}, la fila {fila} ve tantas palabras anteriores como debe, "
                         f"pero no las más cercanas: la ventana son las palabras justo antes de cada una.")
        return pista(f"con L = {L} y ventana = {ventana}, la fila {fila} de tu máscara deja ver {int(tuyas[fila])} "
                     f"palabras anteriores: ¿cuántas anteriores tiene esa palabra, y cuántas caben en la ventana?")
    return bien("Con ventana = L - 1 es la causal. Ojo: con una máscara densa como esta se siguen calculando los "
                "L² puntajes y luego se tiran; el coste solo deja de crecer como L² con implementaciones que "
                "calculan únicamente la banda de la ventana (como la de Longformer).")


@ejercicio("05.3")
def visibles_con_las_dos(respuesta):
    valor = exigir_entero(respuesta, "un número entero de celdas")
    if valor == 36:
        return pista("eso sería solo con la máscara causal; el relleno oculta además sus columnas.")
    if valor == 40:
        return pista("eso sería solo con el relleno; la causal oculta además el futuro.")
    if valor == 15:
        return pista("¿contaste solo las filas de las palabras reales, o pusiste el relleno delante? Aquí el relleno "
                     "va detrás de las 5 palabras, y sus filas también ven celdas.")
    if valor == 30:
        return bien("Las filas ven 1, 2, 3, 4, 5, 5, 5 y 5 celdas.")
    return pista("dibuja la tabla 8 × 8: tacha lo que está encima de la diagonal y las 3 columnas del relleno, "
                 "que van al final.")


@ejercicio("05.4")
def longitudes_desde_relleno(funcion):
    exigir_funcion(funcion, "comprobar('05.4', longitudes_desde_relleno)")
    casos = (([5, 3, 2], 5, False), ([1], 4, False), ([0, 6, 2, 6], 6, False),
             ([5, 3, 2], 5, True), ([1, 4], 4, True), ([0, 6, 2], 6, True))  # relleno detrás y delante
    for longitudes, L, izquierda in casos:
        detras = torch.arange(L) >= torch.tensor(longitudes)[:, None]  # True en el relleno, al final
        relleno = detras.flip(-1) if izquierda else detras
        resultado = llamar(funcion, relleno.clone(), tipo=None)
        valor = a_numpy(resultado)
        lote = len(longitudes)
        if valor is None or valor.shape != (lote,):
            recibido = "algo que no es un número" if valor is None else (
                "un solo número" if valor.size == 1 else f"forma {valor.shape}")
            return pista(f"con un lote de {lote} frases (relleno de forma {tuple(relleno.shape)}) tu función "
                         f"devuelve {recibido}; se espera un número por frase, forma ({lote},).")
        if valor.tolist() == [L - n for n in longitudes]:
            return pista("has contado el relleno; se pide la longitud real (las posiciones con False).")
        if valor.tolist() != longitudes:
            if izquierda:
                return pista("con el relleno detrás funciona, pero con el relleno delante (izquierda=True, la "
                             "sección del relleno a la izquierda) no: no busques dónde empieza el relleno, cuenta "
                             "las posiciones que no lo son.")
            return pista("las longitudes no coinciden: cuenta cuántas posiciones de cada frase no son relleno.")
    return bien("Con la longitud y la máscara se puede ir y volver sin perder nada, esté el relleno detrás o delante.")
