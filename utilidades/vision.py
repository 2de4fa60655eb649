"""Imágenes como frases: cortar una imagen en parches (lección 09)."""

import torch


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
