"""El bloque transformer pre-norma (lección 07)."""

from torch import nn

from utilidades.atencion import AtencionMulticabeza
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

    def forward(self, x, mascara=None):
        comprobar_entrada_modelo(x, self.atencion.d_modelo)  # (lote, L, d_modelo) o un error claro
        x = x + self.dropout(self.atencion(self.norma_1(x), mascara))  # primer atajo residual
        x = x + self.dropout(self.mlp(self.norma_2(x)))  # segundo atajo residual
        return x


def copiar_pesos_a_pytorch(bloque, capa):
    """Copia los pesos de un BloqueTransformer en un nn.TransformerEncoderLayer(norm_first=True); devuelve `capa`."""
    if not isinstance(capa, nn.TransformerEncoderLayer):
        raise TypeError(f"`capa` debe ser un nn.TransformerEncoderLayer, pero es {type(capa).__name__}.")
    if not capa.norm_first:
        raise ValueError("Crea la capa de PyTorch con norm_first=True: nuestro bloque normaliza antes de cada subcapa.")
    if capa.self_attn.num_heads != bloque.atencion.cabezas:
        raise ValueError(f"El bloque tiene {bloque.atencion.cabezas} cabezas y la capa de PyTorch "
                         f"{capa.self_attn.num_heads}: crea las dos con el mismo número de cabezas.")
    nuestra = "gelu" if isinstance(bloque.mlp[1], nn.GELU) else "relu"
    suya = {1: "relu", 2: "gelu"}.get(capa.activation_relu_or_gelu, "otra")
    if nuestra != suya:
        raise ValueError(f"El bloque usa la activación «{nuestra}» y la capa de PyTorch «{suya}»: "
                         f"crea la capa con activation=\"{nuestra}\".")
    destino = {
        "norm1": bloque.norma_1, "norm2": bloque.norma_2,
        "self_attn.out_proj": bloque.atencion.salida,  # capa de salida de la atención
        "linear1": bloque.mlp[0], "linear2": bloque.mlp[2],  # las dos capas del MLP
    }
    pesos = {}
    for prefijo, modulo in destino.items():
        for nombre, valor in modulo.state_dict().items():
            pesos[f"{prefijo}.{nombre}"] = valor
    # PyTorch llama in_proj a nuestra capa fusionada que calcula Q, K y V de una vez.
    pesos["self_attn.in_proj_weight"] = bloque.atencion.qkv.weight
    pesos["self_attn.in_proj_bias"] = bloque.atencion.qkv.bias
    formas = {nombre: tuple(valor.shape) for nombre, valor in capa.state_dict().items()}
    for nombre, valor in pesos.items():
        if formas.get(nombre) != tuple(valor.shape):
            raise ValueError(
                f"El peso «{nombre}» tiene forma {tuple(valor.shape)} en el bloque y {formas.get(nombre)} en la capa "
                f"de PyTorch: crea las dos con el mismo d_modelo, cabezas y d_mlp (dim_feedforward)."
            )
    capa.load_state_dict(pesos)
    return capa
