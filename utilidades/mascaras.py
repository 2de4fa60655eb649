"""Máscaras (lección 05): la causal, la de relleno y las dos juntas. `True` significa siempre «no se mira»."""

import torch

from utilidades.validacion import comprobar_entero, comprobar_enteros, comprobar_relleno


def mascara_causal(L):
    """Devuelve (L, L) bool: True encima de la diagonal, el futuro que cada palabra no puede mirar."""
    comprobar_entero("L", L, "el número de palabras")
    return torch.triu(torch.ones(L, L, dtype=torch.bool), diagonal=1)


def mascara_de_relleno(longitudes, L, izquierda=False):
    """Devuelve (lote, L) bool: True en el relleno, detrás de cada frase (o delante, si `izquierda`)."""
    longitudes = torch.as_tensor(longitudes)
    comprobar_enteros("Las longitudes", longitudes)  # 2.5 palabras no tiene sentido
    if longitudes.dim() != 1 or (longitudes < 0).any() or (longitudes > L).any():
        raise ValueError(
            f"Las longitudes deben ser una lista de enteros entre 0 y L = {L} (una por frase), pero son "
            f"{longitudes.tolist()}. Si una frase es más larga que L, aumenta L o recórtala."
        )
    posiciones = torch.arange(L)
    if izquierda:  # el relleno va delante: «· · hoy llueve»
        return posiciones < L - longitudes[:, None]  # (lote, L)
    return posiciones >= longitudes[:, None]  # (lote, L)


def combinar_mascaras(relleno, causal=False):
    """Devuelve (lote, L, L) bool para `atencion`: oculta las columnas de relleno y, si `causal`, el futuro."""
    comprobar_relleno(relleno)  # bool de forma (lote, L), o un error claro
    lote, L = relleno.shape
    mascara = relleno[:, None, :].expand(lote, L, L)  # cada fila oculta las mismas columnas
    if causal:
        mascara = mascara | mascara_causal(L)
    return mascara
