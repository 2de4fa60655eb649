"""El bloque transformer pre-norma (lección 07)."""

import torch
from torch import nn

from utilidades import multicabeza
from utilidades.multicabeza import AtencionMulticabeza
from utilidades.validacion import comprobar_entrada_modelo


class BloqueTransformer(nn.Module):
    """x + atención(LN(x)) y después x + MLP(LN(x)); (lote, L, d_modelo) -> (lote, L, d_modelo)."""

    def __init__(self, d_modelo, cabezas, d_mlp, activacion="relu", dropout=0.0):
        super().__init__()
        activaciones = {"relu": nn.ReLU, "gelu": nn.GELU}
        if activacion not in activaciones:
            raise ValueError(f"No conozco la activación «{activacion}»; usa una de {sorted(activaciones)}.")
        self.norma_1 = nn.LayerNorm(d_modelo)
        self.atencion = AtencionMulticabeza(d_modelo, cabezas)
        self.norma_2 = nn.LayerNorm(d_modelo)
        self.mlp = nn.Sequential(  # se aplica a cada palabra por separado
            nn.Linear(d_modelo, d_mlp),
            activaciones[activacion](),
            nn.Linear(d_mlp, d_modelo),
        )
        self.dropout = nn.Dropout(dropout)

    def forward(self, x, mascara=None, mascara_relleno=None):
        """Las máscaras, como en AtencionMulticabeza: `mascara` (L, L) o (lote, L, L); `mascara_relleno` (lote, L)."""
        comprobar_entrada_modelo(x, self.atencion.d_modelo, self.norma_1.weight.dtype)  # forma y tipo, o error claro
        x = x + self.dropout(self.atencion(self.norma_1(x), mascara, mascara_relleno))  # primer atajo residual
        x = x + self.dropout(self.mlp(self.norma_2(x)))  # segundo atajo residual
        return x


def copiar_bloque_a_pytorch(nuestra, capa_pytorch):
    """Copia los pesos de `nuestra` (BloqueTransformer) en un nn.TransformerEncoderLayer(norm_first=True) y devuelve
    `capa_pytorch`."""
    if not isinstance(capa_pytorch, nn.TransformerEncoderLayer):
        raise TypeError(
            f"`capa_pytorch` debe ser un nn.TransformerEncoderLayer, pero es {type(capa_pytorch).__name__}."
        )
    if not capa_pytorch.norm_first:
        raise ValueError("Crea la capa de PyTorch con norm_first=True: nuestro bloque normaliza antes de cada subcapa.")
    if capa_pytorch.self_attn.num_heads != nuestra.atencion.cabezas:
        raise ValueError(f"El bloque tiene {nuestra.atencion.cabezas} cabezas y la capa de PyTorch "
                         f"{capa_pytorch.self_attn.num_heads}: crea las dos con el mismo número de cabezas.")
    activacion = "gelu" if isinstance(nuestra.mlp[1], nn.GELU) else "relu"
    suya = {1: "relu", 2: "gelu"}.get(capa_pytorch.activation_relu_or_gelu, "otra")
    if activacion != suya:
        raise ValueError(f"El bloque usa la activación «{activacion}» y la capa de PyTorch «{suya}»: "
                         f"crea la capa con activation=\"{activacion}\".")
    parejas = {  # nombre en PyTorch -> la misma pieza en nuestro bloque
        "norm1": nuestra.norma_1, "norm2": nuestra.norma_2,
        "linear1": nuestra.mlp[0], "linear2": nuestra.mlp[2],  # las dos capas del MLP
    }
    for nombre, pieza in parejas.items():
        forma_suya, forma_nuestra = tuple(getattr(capa_pytorch, nombre).weight.shape), tuple(pieza.weight.shape)
        if forma_suya != forma_nuestra:
            raise ValueError(
                f"«{nombre}» tiene forma {forma_suya} en la capa de PyTorch y {forma_nuestra} en el bloque: crea las "
                f"dos con el mismo d_modelo, cabezas y d_mlp (dim_feedforward)."
            )
    multicabeza.copiar_pesos_a_pytorch(nuestra.atencion, capa_pytorch.self_attn)  # la atención, como en la lección 04
    with torch.no_grad():
        for nombre, pieza in parejas.items():
            getattr(capa_pytorch, nombre).weight.copy_(pieza.weight)
            getattr(capa_pytorch, nombre).bias.copy_(pieza.bias)
    return capa_pytorch
