"""Codificación de la posición (lección 06)."""

import torch

from utilidades.validacion import comprobar_entero


def posicion_sinusoidal(largo, d_modelo):
    """Devuelve la tabla (largo, d_modelo): columnas pares sen(pos/10000^(2i/d)), impares cos(...)."""
    comprobar_entero("largo", largo, "el número de posiciones")
    if d_modelo % 2 != 0:
        raise ValueError(
            f"d_modelo debe ser par para repartir senos y cosenos por parejas, pero es {d_modelo}."
        )
    posiciones = torch.arange(largo, dtype=torch.float32).unsqueeze(1)  # (largo, 1)
    pares = torch.arange(0, d_modelo, 2, dtype=torch.float32)  # 2i = 0, 2, 4, ...
    angulos = posiciones / 10000 ** (pares / d_modelo)  # (largo, d_modelo / 2)
    tabla = torch.zeros(largo, d_modelo)
    tabla[:, 0::2] = torch.sin(angulos)
    tabla[:, 1::2] = torch.cos(angulos)
    return tabla
