"""Atención multicabeza (lección 04): la misma capa en PyTorch y lo que muestra el selector de cabezas."""

import torch
from torch import nn

from utilidades.graficos import mapa_de_calor


def copiar_a_pytorch(capa):
    """Devuelve un nn.MultiheadAttention(d_modelo, cabezas, batch_first=True) con los mismos pesos que `capa`."""
    mha = nn.MultiheadAttention(capa.d_modelo, capa.cabezas, batch_first=True)
    mha = mha.to(capa.qkv.weight.dtype)
    with torch.no_grad():
        mha.in_proj_weight.copy_(capa.qkv.weight)  # filas 0-15 hacen Q, 16-31 hacen K, 32-47 hacen V (si d = 16)
        mha.in_proj_bias.copy_(capa.qkv.bias)
        mha.out_proj.weight.copy_(capa.salida.weight)
        mha.out_proj.bias.copy_(capa.salida.bias)
    return mha


# --- Lo que muestra el selector de cabezas (no se enseña en una celda) ---------------------------------


def favoritas(pesos, palabras):
    """Devuelve «Ana→plata 0.41 · sacó→…»: a qué palabra mira más cada palabra según una tabla (L, L)."""
    pesos = torch.as_tensor(pesos).detach().double()
    if pesos.shape != (len(palabras), len(palabras)):
        raise ValueError(
            f"La tabla de pesos tiene forma {tuple(pesos.shape)}, pero hay {len(palabras)} palabras: "
            f"elige una frase y una cabeza, por ejemplo pesos[0, 0]."
        )
    mayores, indices = pesos.max(dim=-1)
    return " · ".join(f"{p}→{palabras[j]} {m:.2f}" for p, j, m in zip(palabras, indices.tolist(), mayores.tolist()))


def vista_de_cabeza(pesos, frases, frase, cabeza):
    """Lo que muestra el selector: (texto con la favorita de cada palabra, mapa de calor de una cabeza)."""
    if not 0 <= cabeza < pesos.shape[1]:
        raise ValueError(f"La capa tiene {pesos.shape[1]} cabezas (0 a {pesos.shape[1] - 1}); pediste la {cabeza}.")
    palabras = frases[frase]
    tabla = pesos[frase, cabeza]  # (L, L)
    texto = f"cabeza {cabeza}, «{' '.join(palabras)}»: " + favoritas(tabla, palabras)
    fig, _ = mapa_de_calor(tabla, palabras, palabras, valores=True, titulo=f"Cabeza {cabeza}",
                           etiqueta_filas="palabra que mira", etiqueta_columnas="palabra mirada")
    return texto, fig
