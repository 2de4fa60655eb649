"""Lo que muestran las figuras y los conmutadores de la lección 05 (las máscaras viven en `atencion.py`)."""

import torch

from utilidades.atencion import atencion, combinar_mascaras, mascara_de_relleno
from utilidades.graficos import mapa_de_calor

RELLENO = "·"  # la ficha de relleno, tal como se ve en las figuras


def rellenar(frases, L=None):
    """Devuelve (frases rellenadas con «·» hasta L palabras, longitudes reales)."""
    longitudes = [len(f) for f in frases]
    L = max(longitudes) if L is None else L
    return [list(f) + [RELLENO] * (L - len(f)) for f in frases], longitudes


def mascara_elegida(longitudes, L, causal, relleno):
    """La máscara (lote, L, L) que piden los conmutadores: relleno, causal, las dos o ninguna."""
    columnas = mascara_de_relleno(longitudes, L) if relleno else torch.zeros(len(longitudes), L, dtype=torch.bool)
    return combinar_mascaras(columnas, causal=causal)


def vista_de_mascaras(Q, K, frases, frase, causal, relleno):
    """Lo que muestran los conmutadores: (texto con las celdas visibles, mapa de calor con lo oculto en blanco)."""
    rellenas, longitudes = rellenar(frases, Q.shape[-2])
    L = len(rellenas[0])
    mascara = mascara_elegida(longitudes, L, causal, relleno)[frase]  # (L, L)
    _, pesos = atencion(Q[frase], K[frase], K[frase], mascara)
    palabras = rellenas[frase]
    visibles = int((~mascara).sum())
    texto = (f"«{' '.join(palabras)}» · causal: {'sí' if causal else 'no'} · relleno: {'sí' if relleno else 'no'}"
             f" · {visibles} de {L * L} celdas visibles · cada fila suma "
             + " ".join(f"{s:.2f}" for s in pesos.sum(dim=-1).tolist()))
    fig, _ = mapa_de_calor(pesos, palabras, palabras, valores=True, oculto=mascara,
                           titulo="Pesos (en blanco y tachado: oculto)",
                           etiqueta_filas="palabra que mira", etiqueta_columnas="palabra mirada")
    return texto, fig
