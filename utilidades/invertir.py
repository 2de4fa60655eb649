"""Invertir dígitos (lección 08): las secuencias de dígitos para invertir y el transformer de juguete que aprende."""

import torch
from torch import nn

from utilidades.bloques import BloqueTransformer


def secuencias_invertidas(n, largo=8, digitos=10, generador=None):
    """Devuelve (entradas, objetivos): n secuencias (n, largo) de dígitos al azar y las mismas al revés."""
    if n < 1 or largo < 1 or digitos < 2:
        raise ValueError(
            f"Necesito n ≥ 1, largo ≥ 1 y al menos 2 dígitos distintos, pero recibí n = {n}, largo = {largo}, "
            f"digitos = {digitos}."
        )
    entradas = torch.randint(0, digitos, (n, largo), generator=generador)  # (n, largo)
    objetivos = entradas.flip(1)  # la misma secuencia leída de derecha a izquierda
    return entradas, objetivos


def datos_invertir_digitos(n_entrenamiento=20_000, n_validacion=2_000, largo=8, digitos=10, semilla=0):
    """Devuelve (x_ent, y_ent, x_val, y_val) con un generador sembrado: siempre los mismos datos."""
    generador = torch.Generator().manual_seed(semilla)
    x_ent, y_ent = secuencias_invertidas(n_entrenamiento, largo, digitos, generador)
    x_val, y_val = secuencias_invertidas(n_validacion, largo, digitos, generador)
    return x_ent, y_ent, x_val, y_val


class TransformerJuguete(nn.Module):
    """Codificador diminuto: dígitos (lote, L) -> logits (lote, L, vocabulario), uno por posición."""

    def __init__(self, vocabulario=10, contexto=8, d_modelo=32, cabezas=2, d_mlp=128, posiciones=True):
        super().__init__()
        self.vocabulario = vocabulario
        self.contexto = contexto  # cuántas posiciones sabe leer como mucho
        self.tokens = nn.Embedding(vocabulario, d_modelo)  # un vector por símbolo (aquí, por dígito)
        self.posiciones = nn.Embedding(contexto, d_modelo) if posiciones else None  # un vector por posición
        self.bloque = BloqueTransformer(d_modelo, cabezas, d_mlp)
        self.norma = nn.LayerNorm(d_modelo)
        self.salida = nn.Linear(d_modelo, vocabulario)  # 10 logits por posición

    def forward(self, x):
        if not isinstance(x, torch.Tensor) or x.dim() != 2:
            raise ValueError(
                "La entrada deben ser enteros de forma (lote, L), por ejemplo torch.tensor([[4, 9, 3]]); recibí "
                f"{'forma ' + str(tuple(x.shape)) if isinstance(x, torch.Tensor) else type(x).__name__}. "
                "Para una sola secuencia usa x.unsqueeze(0)."
            )
        if x.dtype != torch.long:
            raise ValueError(f"La entrada debe ser de tipo torch.long (enteros de 64 bits), pero es {x.dtype}: "
                             f"conviértela con x.long().")
        if x.shape[1] > self.contexto:
            raise ValueError(f"Las secuencias tienen {x.shape[1]} posiciones y el modelo sabe hasta {self.contexto}.")
        fuera = x[(x < 0) | (x >= self.vocabulario)]
        if fuera.numel():
            raise ValueError(f"Los símbolos deben ir de 0 a {self.vocabulario - 1}, pero hay un {int(fuera[0])}.")
        h = self.tokens(x)  # (lote, L, d_modelo)
        if self.posiciones is not None:
            h = h + self.posiciones(torch.arange(x.shape[1], device=x.device))  # (L, d_modelo) se suma a cada secuencia
        h = self.bloque(h)  # (lote, L, d_modelo)
        return self.salida(self.norma(h))  # (lote, L, vocabulario)
