"""Comprobaciones de los ejercicios de la lección 05 (máscaras)."""

import numpy as np
import torch

from utilidades.ejercicios import a_numpy, bien, ejercicio, exigir_entero, exigir_funcion, llamar, pista
from utilidades.mascaras import combinar_mascaras, mascara_de_relleno


@ejercicio("05.1")
def visibles_causal(respuesta):
    valor = exigir_entero(respuesta, "un número entero de celdas")
    if valor == 100:
        return pista("esas son todas las celdas de la tabla; la máscara oculta el futuro de cada palabra.")
    if valor == 45:
        return pista("45 son las celdas de encima de la diagonal, o las de debajo sin contar la diagonal: "
                     "¿cuentas la propia palabra? Cada palabra también se mira a sí misma.")
    if valor == 50:
        return pista("esa es la mitad de la tabla, pero la diagonal no se reparte a medias: cuenta por separado las "
                     "celdas de debajo de la diagonal y las de la diagonal (cada palabra consigo misma), que se ven "
                     "todas.")
    if valor == 55:
        return bien("1 + 2 + … + 10 = 55: la diagonal y todo lo que hay debajo.")
    return pista("dibuja la tabla de una frase corta (L = 3 o 4), cuenta las celdas visibles de cada fila y "
                 "busca la regla antes de pasar a L = 10.")


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
            return pista("has contado el relleno de cada frase; se pide su longitud real: cuántas palabras de verdad "
                         "tiene.")
        if valor.tolist() != longitudes:
            if izquierda:
                return pista("con el relleno detrás funciona, pero con el relleno delante (izquierda=True, la "
                             "sección del relleno a la izquierda) no. La longitud de una frase no depende del lado "
                             "en que esté su relleno: ¿depende tu cuenta de ese lado?")
            return pista("las longitudes no coinciden: prueba tu función con la máscara de relleno de la sección 4 "
                         "(frases de 5, 3 y 2 palabras) y compara, frase a frase, qué devuelve.")
    return bien("Con la longitud y la máscara se puede ir y volver sin perder nada, esté el relleno detrás o delante.")


def _aditiva(mascara):
    """La máscara aditiva de una máscara del curso: 0 donde se mira, −∞ donde no."""
    return torch.zeros(mascara.shape, dtype=torch.float64).masked_fill(mascara, float("-inf"))


@ejercicio("05.5")
def mascara_para_sdpa(funcion):
    exigir_funcion(funcion, "comprobar('05.5', mascara_para_sdpa)")
    for longitudes, L in (([5, 3, 2], 5), ([4, 1], 4), ([3], 3), ([2, 6, 6], 6)):  # el relleno, detrás
        relleno = mascara_de_relleno(longitudes, L)
        resultado = llamar(funcion, relleno.clone(), tipo=None)
        if isinstance(resultado, np.ndarray):
            resultado = torch.from_numpy(resultado)
        if not isinstance(resultado, torch.Tensor):
            return pista(f"tu función devuelve {type(resultado).__name__}: se espera un tensor de PyTorch, el "
                         f"attn_mask que recibirá F.scaled_dot_product_attention.")
        lote = len(longitudes)
        if tuple(resultado.shape) != (lote, L, L):
            extra = (" Esa es la forma de la máscara de relleno: falta una fila por cada palabra que mira."
                     if tuple(resultado.shape) == (lote, L) else "")
            return pista(f"con {lote} frases de L = {L} tu función devuelve forma {tuple(resultado.shape)} y se "
                         f"esperaba ({lote}, {L}, {L}), una tabla por frase.{extra}")
        ambas = combinar_mascaras(relleno, causal=True)  # (lote, L, L), True = no se mira
        if resultado.dtype == torch.bool:
            if torch.equal(resultado, ~ambas):
                return pista("esa es la máscara booleana que entiende F.scaled_dot_product_attention (True = se "
                             "puede mirar), y valdría; pero aquí se pide la forma aditiva, de decimales, que se "
                             "suma a los puntajes.")
            if torch.equal(resultado, ambas):
                return pista("es la máscara del curso tal cual (True = no se mira): F.scaled_dot_product_attention "
                             "la leería al revés. Además, se pide la forma aditiva, de decimales.")
            return pista("tu función devuelve un tensor bool; se pide la máscara aditiva, de decimales, que se suma "
                         "a los puntajes.")
        if not resultado.is_floating_point():
            return pista(f"tu función devuelve un tensor de tipo {resultado.dtype}; la máscara aditiva es de "
                         f"decimales (float), porque lleva −∞.")
        valores = resultado.detach().double()
        if valores.isnan().any():
            return pista("tu máscara tiene NaN: cada celda debe valer 0 (se mira) o −∞ (no se mira).")
        visibles, ocultas = valores[~ambas], valores[ambas]
        if (visibles == 0).all() and (ocultas <= -1e4).all():
            continue
        if (visibles == 0).all() and (ocultas < 0).all():  # oculta donde toca, pero con un número, no con −∞
            valor = ocultas.max().item()
            if valor <= -104:
                return pista(f"una celda que no se mira vale {valor:g} en tu máscara. Con puntajes como los de la "
                             f"lección eso ya da peso 0 en float32, pero no con cualquiera: un puntaje oculto unos "
                             f"{-valor:g} mayor que los visibles se colaría. Se pide −∞, que oculta siempre (o, como "
                             f"hacen muchos modelos, un número de −1e4 o menos).")
            return pista(f"una celda que no se mira vale {valor:g} en tu máscara: eso solo resta {-valor:g} a su "
                         f"puntaje, y la celda sigue recibiendo algo de peso (en float32 hace falta una diferencia de "
                         f"unos 104 para llegar a 0). Se pide −∞.")
        if torch.equal(valores, _aditiva(~ambas)):
            return pista("la tienes al revés: −∞ va en las celdas que NO se pueden mirar, y 0 en las demás.")
        if torch.equal(valores, ambas.double()):
            return pista("sumar 1 a un puntaje no lo oculta: en las celdas que no se miran hace falta −∞.")
        futuro = torch.ones(L, L, dtype=torch.bool).triu(1)
        if torch.equal(valores, _aditiva(combinar_mascaras(relleno))):
            return pista("el relleno está bien, pero falta la máscara causal: cada palabra tampoco puede mirar "
                         "al futuro.")
        if torch.equal(valores, _aditiva(futuro.expand(lote, L, L))):
            return pista("la causal está bien, pero falta el relleno: nadie debe mirar sus columnas.")
        if torch.equal(valores, _aditiva(relleno[:, :, None] | futuro)):
            return pista("ocultas las filas del relleno, pero lo que nadie debe mirar son sus columnas (las claves).")
        malas = ((valores != 0) & ~ambas) | ((valores > -1e4) & ambas)
        frase, fila, columna = (int(v) for v in malas.nonzero()[0])
        return pista(f"con frases de {longitudes} palabras y L = {L}, en la frase {frase} la celda (fila {fila}, "
                     f"columna {columna}) de tu máscara vale {valores[frase, fila, columna].item():g}: ¿puede esa "
                     f"palabra mirar a esa otra?")
    # Se acepta en cualquier tipo de decimales, pero F.scaled_dot_product_attention pide el de Q: se avisa.
    tipo = ("" if resultado.dtype == torch.float32 else
            f" Tu máscara es {resultado.dtype}: F.scaled_dot_product_attention la quiere del mismo tipo que Q (en la "
            f"lección, float32), o da error; conviértela con .to(Q.dtype).")
    return bien("Con esa máscara, F.scaled_dot_product_attention da lo mismo que atencion con "
                "combinar_mascaras(relleno, causal=True). Sumar 0 deja el puntaje igual; −∞ le da peso 0 (también "
                "un número de −1e4 o menos, como el −1e9 de muchos modelos, mientras los puntajes no sean enormes)."
                + tipo)
