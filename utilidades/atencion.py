"""Atención de producto escalar escalado (lección 02)."""

import math

import torch
from torch import nn

from utilidades.validacion import comprobar_atencion, comprobar_entrada_modelo


def atencion(Q, K, V, mascara=None):
    """Devuelve (salida, pesos): salida (..., L_q, d_v) y pesos (..., L_q, L_k); `mascara` es True donde NO se mira."""
    comprobar_atencion(Q, K, V, mascara)
    d = Q.shape[-1]
    puntajes = Q @ K.transpose(-2, -1) / math.sqrt(d)  # (..., L_q, L_k)
    if mascara is not None:
        puntajes = puntajes.masked_fill(mascara, float("-inf"))
        # Una fila oculta entera no tiene a quién mirar: la dejamos en 0 en vez de NaN (lección 05).
        fila_vacia = mascara.all(dim=-1, keepdim=True)
        puntajes = puntajes.masked_fill(fila_vacia, 0.0)
    pesos = torch.softmax(puntajes, dim=-1)  # cada fila suma 1
    if mascara is not None:
        pesos = pesos.masked_fill(fila_vacia, 0.0)
    salida = pesos @ V  # (..., L_q, d_v)
    return salida, pesos


class AtencionMulticabeza(nn.Module):
    """Autoatención con varias cabezas: x (lote, L, d_modelo) -> (lote, L, d_modelo); guarda los pesos en `pesos`."""

    def __init__(self, d_modelo, cabezas):
        super().__init__()
        if d_modelo % cabezas != 0:
            raise ValueError(
                f"d_modelo ({d_modelo}) debe ser divisible entre el número de cabezas ({cabezas}), porque cada "
                f"cabeza recibe un trozo igual del vector. Prueba, por ejemplo, con cabezas = "
                f"{[h for h in range(1, d_modelo + 1) if d_modelo % h == 0 and h <= 16]}."
            )
        self.d_modelo = d_modelo
        self.cabezas = cabezas
        self.d_cabeza = d_modelo // cabezas
        self.qkv = nn.Linear(d_modelo, 3 * d_modelo)  # Q, K y V en una sola multiplicación
        self.salida = nn.Linear(d_modelo, d_modelo)  # mezcla lo que encontró cada cabeza
        self.pesos = None  # (lote, cabezas, L, L) de la última llamada, para dibujarlos

    def forward(self, x, mascara=None):
        comprobar_entrada_modelo(x, self.d_modelo)
        lote, L, _ = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)  # 3 × (lote, L, d_modelo)

        def separar(t):  # (lote, L, d_modelo) -> (lote, cabezas, L, d_cabeza)
            return t.view(lote, L, self.cabezas, self.d_cabeza).transpose(1, 2)

        if mascara is not None and mascara.dim() == 3:
            mascara = mascara.unsqueeze(1)  # (lote, L, L) -> (lote, 1, L, L): la misma para todas las cabezas
        mezcla, pesos = atencion(separar(q), separar(k), separar(v), mascara)
        self.pesos = pesos.detach()
        mezcla = mezcla.transpose(1, 2).reshape(lote, L, self.d_modelo)  # pegamos las cabezas
        return self.salida(mezcla)


# --- Máscaras (lección 05) -----------------------------------------------------------------------------


def mascara_causal(L):
    """Devuelve (L, L) bool: True encima de la diagonal, el futuro que cada palabra no puede mirar."""
    return torch.triu(torch.ones(L, L, dtype=torch.bool), diagonal=1)


def mascara_de_relleno(longitudes, L):
    """Devuelve (lote, L) bool: True en las posiciones de relleno (las que siguen a la longitud real de cada frase)."""
    longitudes = torch.as_tensor(longitudes)
    if longitudes.dim() != 1 or (longitudes < 0).any() or (longitudes > L).any():
        raise ValueError(
            f"Las longitudes deben ser una lista de enteros entre 0 y L = {L} (una por frase), pero son "
            f"{longitudes.tolist()}. Si una frase es más larga que L, aumenta L o recórtala."
        )
    return torch.arange(L) >= longitudes[:, None]  # (lote, L)


def combinar_mascaras(relleno, causal=False):
    """Devuelve (lote, L, L) bool para `atencion`: oculta las columnas de relleno y, si `causal`, el futuro."""
    lote, L = relleno.shape
    mascara = relleno[:, None, :].expand(lote, L, L)  # cada fila oculta las mismas columnas
    if causal:
        mascara = mascara | mascara_causal(L)
    return mascara
