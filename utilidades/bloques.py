"""El bloque transformer pre-norma (lección 07)."""

from torch import nn

from utilidades.atencion import AtencionMulticabeza


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
        x = x + self.dropout(self.atencion(self.norma_1(x), mascara))  # primer atajo residual
        x = x + self.dropout(self.mlp(self.norma_2(x)))  # segundo atajo residual
        return x
