"""Modelos del curso hechos con los bloques de la lección 07: un transformer de juguete (08) y un ViT diminuto (09)."""

import torch
from torch import nn

from utilidades.bloques import BloqueTransformer


class TransformerJuguete(nn.Module):
    """Codificador diminuto: dígitos (lote, L) -> logits (lote, L, vocabulario), uno por posición."""

    def __init__(self, vocabulario=10, largo=8, d_modelo=32, cabezas=2, d_mlp=128, posiciones=True):
        super().__init__()
        self.vocabulario = vocabulario
        self.largo = largo
        self.embedding = nn.Embedding(vocabulario, d_modelo)  # un vector por dígito
        self.posiciones = nn.Embedding(largo, d_modelo) if posiciones else None  # un vector por posición
        self.bloque = BloqueTransformer(d_modelo, cabezas, d_mlp)
        self.norma = nn.LayerNorm(d_modelo)
        self.salida = nn.Linear(d_modelo, vocabulario)  # 10 puntuaciones (logits) por posición

    def forward(self, x):
        if not isinstance(x, torch.Tensor) or x.dim() != 2 or x.dtype != torch.long:
            raise ValueError(
                "La entrada deben ser enteros (lote, L) de tipo torch.long, por ejemplo torch.tensor([[4, 9, 3]]); "
                f"recibí {tuple(x.shape) if isinstance(x, torch.Tensor) else type(x).__name__}."
            )
        if x.shape[1] > self.largo:
            raise ValueError(f"Las secuencias tienen {x.shape[1]} posiciones y el modelo sabe hasta {self.largo}.")
        if x.numel() and (x.min() < 0 or x.max() >= self.vocabulario):
            raise ValueError(f"Los símbolos deben ir de 0 a {self.vocabulario - 1}, pero hay un {int(x.max())}.")
        h = self.embedding(x)  # (lote, L, d_modelo)
        if self.posiciones is not None:
            h = h + self.posiciones(torch.arange(x.shape[1], device=x.device))  # (L, d_modelo) se suma a cada frase
        h = self.bloque(h)  # (lote, L, d_modelo)
        return self.salida(self.norma(h))  # (lote, L, vocabulario)
