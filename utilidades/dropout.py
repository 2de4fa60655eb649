"""El *dropout* del mini-GPT (lección 10): el mismo que `nn.Dropout`, con un sorteo más barato en la CPU y el mismo
en cualquier dispositivo.

La lección no se detiene en él: es un detalle de velocidad, no una idea nueva. Hace exactamente lo que enseña la
lección 02 (apagar cada número con probabilidad p y multiplicar los demás por 1 / (1 - p)).
"""

import torch
from torch import nn


# Al entrenar, `F.dropout` sortea cada número por separado, y en la CPU ese sorteo pesa: con las activaciones del
# mini-GPT, (32, 64, 96), costaba casi tanto como la atención entera (míralo con
# `python -m herramientas.banco_gpt --desglose`). `apagar_al_azar` apaga con la misma probabilidad y escala igual,
# pero cada entero de 64 bits sorteado da 16 bits al azar a cuatro números, y un número se apaga si sus 16 bits
# caen entre los p · 65 536 valores más bajos: la probabilidad es p redondeada a múltiplos de 1/65 536.
# El sorteo se hace siempre en la CPU, con su generador: en una GPU, con la misma semilla, se apagan los mismos
# números que en la CPU (el generador de la GPU daría otro entrenamiento).
def apagar_al_azar(x, p, entrenando=True):
    """El *dropout* de `nn.Dropout(p)` con un sorteo más barato, el mismo en cualquier dispositivo; x (...) -> igual."""
    if not entrenando or p == 0:
        return x
    if p >= 1:
        return torch.zeros_like(x)
    n = x.numel()
    bits = torch.randint(-2**63, 2**63 - 1, (-(-n // 4),), dtype=torch.int64).view(torch.int16)[:n]  # 16 bits
    se_queda = (bits >= round(p * 65_536) - 32_768).view(x.shape).to(x.device)  # cierto con probabilidad 1 - p
    return x * se_queda.to(x.dtype).mul_(1 / (1 - p))


class ApagarAlAzar(nn.Dropout):
    """`nn.Dropout(p)` que sortea con `apagar_al_azar`: misma probabilidad, mismo escalado."""

    def forward(self, x):
        return apagar_al_azar(x, self.p, self.training)
