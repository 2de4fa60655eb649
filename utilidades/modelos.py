"""Modelos del curso hechos con los bloques de la lección 07: un transformer de juguete (08) y un ViT diminuto (09)."""

import torch
from torch import nn

from utilidades.bloques import BloqueTransformer
from utilidades.validacion import comprobar_decimales
from utilidades.vision import parches


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


class ViTDiminuto(nn.Module):
    """Transformer de visión: imágenes (lote, C, H, W) -> logits (lote, clases), leyendo el vector [CLS]."""

    def __init__(self, tam_imagen=8, tam_parche=2, canales=1, clases=10, d_modelo=32, cabezas=2, d_mlp=128,
                 bloques=2):
        super().__init__()
        if tam_imagen % tam_parche != 0:
            raise ValueError(
                f"El parche de {tam_parche} debe dividir exacto a la imagen de {tam_imagen}: elige, por ejemplo, "
                f"tam_parche = {[t for t in range(1, tam_imagen + 1) if tam_imagen % t == 0]}."
            )
        self.tam_imagen = tam_imagen
        self.tam_parche = tam_parche
        self.canales = canales
        n_parches = (tam_imagen // tam_parche) ** 2
        self.proyeccion = nn.Linear(canales * tam_parche**2, d_modelo)  # cada parche aplanado -> un vector
        self.cls = nn.Parameter(0.02 * torch.randn(1, 1, d_modelo))  # la «palabra» extra que resume la imagen
        self.posiciones = nn.Parameter(0.02 * torch.randn(1, n_parches + 1, d_modelo))  # [CLS] + parches
        self.bloques = nn.ModuleList(BloqueTransformer(d_modelo, cabezas, d_mlp) for _ in range(bloques))
        self.norma = nn.LayerNorm(d_modelo)
        self.clasificador = nn.Linear(d_modelo, clases)  # un logit por clase

    def representar(self, imagenes):
        """Devuelve los vectores de salida del último bloque: (lote, 1 + parches, d_modelo); el 0 es [CLS]."""
        forma = (self.canales, self.tam_imagen, self.tam_imagen)
        if not isinstance(imagenes, torch.Tensor) or imagenes.dim() != 4 or tuple(imagenes.shape[1:]) != forma:
            raise ValueError(
                f"El modelo espera un lote de imágenes (lote, {', '.join(map(str, forma))}), pero recibió "
                f"{tuple(imagenes.shape) if isinstance(imagenes, torch.Tensor) else type(imagenes).__name__}. "
                f"Para una sola imagen usa imagen.unsqueeze(0)."
            )
        comprobar_decimales("imagenes", imagenes, self.proyeccion.weight.dtype)  # del mismo tipo que los pesos
        x = self.proyeccion(parches(imagenes, self.tam_parche))  # (lote, N, d_modelo)
        cls = self.cls.expand(len(x), -1, -1)  # (lote, 1, d_modelo): el mismo [CLS] para cada imagen
        x = torch.cat([cls, x], dim=1) + self.posiciones  # (lote, 1 + N, d_modelo)
        for bloque in self.bloques:
            x = bloque(x)
        return x

    def forward(self, imagenes):
        return self.clasificador(self.norma(self.representar(imagenes)[:, 0]))  # (lote, clases), solo desde [CLS]
