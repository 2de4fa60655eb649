"""Imágenes como frases (lección 09): cortar una imagen en parches y el ViT diminuto que las clasifica."""

import torch
from torch import nn

from utilidades.bloques import BloqueTransformer
from utilidades.validacion import comprobar_decimales


def parches(imagenes, tam):
    """Corta (C, H, W) o (lote, C, H, W) en parches tam × tam, fila a fila: (N, C·tam·tam) o (lote, N, C·tam·tam)."""
    if not isinstance(imagenes, torch.Tensor):
        raise TypeError(
            f"Las imágenes deben ser un tensor de PyTorch, pero son {type(imagenes).__name__}. "
            f"Conviértelas con torch.as_tensor(...)."
        )
    if imagenes.dim() not in (3, 4):
        raise ValueError(
            f"Esperaba una imagen (canales, alto, ancho) o un lote (lote, canales, alto, ancho), pero la forma es "
            f"{tuple(imagenes.shape)}. Para una imagen en gris de (alto, ancho), usa imagen.unsqueeze(0)."
        )
    alto, ancho = imagenes.shape[-2:]
    if tam < 1 or alto % tam != 0 or ancho % tam != 0:
        raise ValueError(
            f"Los parches de {tam} × {tam} deben encajar exactos en la imagen de {alto} × {ancho}: recorta la "
            f"imagen o elige un tamaño de parche que divida a {alto} y a {ancho}."
        )
    rejilla = imagenes.unfold(-2, tam, tam).unfold(-2, tam, tam)  # (..., C, filas, columnas, tam, tam)
    *lote, canales, filas, columnas, _, _ = rejilla.shape
    rejilla = rejilla.movedim(-5, -3)  # (..., filas, columnas, C, tam, tam)
    return rejilla.reshape(*lote, filas * columnas, canales * tam * tam)  # (..., N, C·tam·tam)


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
