"""Atención de producto escalar escalado: la idea en la lección 02; la versión entera, con máscaras, en la 05."""

import math

import torch

from utilidades.validacion import comprobar_atencion


def comprobar_tipos(Q, K, V):
    """Lanza TypeError, con qué cambiar, si Q, K o V no son tensores de coma flotante del mismo tipo."""
    tensores = [(nombre, x) for nombre, x in (("Q", Q), ("K", K), ("V", V)) if isinstance(x, torch.Tensor)]
    for nombre, x in tensores:
        if not x.is_floating_point():
            raise TypeError(
                f"{nombre} es un tensor de enteros ({x.dtype}), pero la atención necesita decimales: "
                f"el softmax da pesos entre 0 y 1. Créalo con dtype=torch.float32 (o float64), "
                f"o conviértelo con {nombre}.float()."
            )
    tipos = {x.dtype for _, x in tensores}
    if len(tipos) > 1:
        detalle = ", ".join(f"{nombre} es {x.dtype}" for nombre, x in tensores)
        raise TypeError(
            f"Q, K y V deben tener el mismo tipo de número, pero {detalle}. Conviértelos todos al mismo, "
            f"por ejemplo con .double() (float64) o .float() (float32)."
        )


def atencion(Q, K, V, mascara=None):
    """Devuelve (salida, pesos): salida (..., L_q, d_v) y pesos (..., L_q, L_k); `mascara` es True donde NO se mira."""
    comprobar_atencion(Q, K, V, mascara)
    comprobar_tipos(Q, K, V)
    d = Q.shape[-1]
    puntajes = Q @ K.transpose(-2, -1) / math.sqrt(d)  # (..., L_q, L_k)
    if mascara is not None:
        # 1. La máscara: lo oculto pasa a −∞ antes del softmax, y e^(−∞) = 0 le da peso 0.
        puntajes = puntajes.masked_fill(mascara, float("-inf"))
        # 2. Una fila oculta entera no tiene a quién mirar: sus puntajes pasan a 0 para que el softmax no dé NaN,
        #    y después sus pesos a 0 (lección 05, sección 7).
        fila_vacia = mascara.all(dim=-1, keepdim=True)  # (..., L_q, 1)
        puntajes = puntajes.masked_fill(fila_vacia, 0.0)
    pesos = torch.softmax(puntajes, dim=-1)  # cada fila suma 1 (las vacías, 0 tras la línea siguiente)
    if mascara is not None:
        pesos = pesos.masked_fill(fila_vacia, 0.0)
    salida = pesos @ V  # (..., L_q, d_v)
    return salida, pesos

