"""Atención multicabeza (lección 04): la capa `AtencionMulticabeza` y cómo copiar sus pesos en la de PyTorch."""

import numbers

import torch
import torch.nn.functional as F
from torch import nn

from utilidades.atencion import atencion
from utilidades.validacion import comprobar_entrada_modelo, comprobar_mascara_bool


def comprobar_cabezas(d_modelo, cabezas):
    """Lanza un error claro si `cabezas` no es un entero positivo que divida a `d_modelo`."""
    for nombre, valor in (("d_modelo", d_modelo), ("cabezas", cabezas)):
        if isinstance(valor, bool) or not isinstance(valor, numbers.Integral) or valor < 1:
            raise ValueError(
                f"{nombre} debe ser un número entero positivo, pero es {valor!r}. "
                f"Por ejemplo: AtencionMulticabeza(d_modelo=16, cabezas=4)."
            )
    if d_modelo % cabezas != 0:
        divisores = [str(h) for h in range(1, min(d_modelo, 16) + 1) if d_modelo % h == 0]
        opciones = " o ".join([", ".join(divisores[:-1]), divisores[-1]] if len(divisores) > 1 else divisores)
        raise ValueError(
            f"d_modelo ({d_modelo}) debe ser divisible entre el número de cabezas ({cabezas}), porque cada "
            f"cabeza recibe un trozo igual del vector. Prueba, por ejemplo, con {opciones} "
            f"{'cabeza' if divisores == ['1'] else 'cabezas'}."
        )


def comprobar_mascaras(mascara, mascara_relleno, lote, L):
    """Lanza un error claro si las máscaras no encajan: `mascara` (L, L), (1, L, L) o (lote, L, L);
    `mascara_relleno` (lote, L)."""
    for nombre, m in (("mascara", mascara), ("mascara_relleno", mascara_relleno)):
        if m is not None:
            comprobar_mascara_bool(nombre, m)  # bool, o cómo convertirla
    if mascara is not None and tuple(mascara.shape) not in ((L, L), (1, L, L), (lote, L, L)):
        consejo = ""
        if tuple(mascara.shape) == (lote, L):
            consejo = (" Parece una máscara de relleno (lote, L): pásala como mascara_relleno=..., "
                       "o conviértela antes con combinar_mascaras(relleno).")
        raise ValueError(
            f"`mascara` tiene forma {tuple(mascara.shape)}, que no encaja: debe ser ({L}, {L}), la misma para "
            f"todo el lote (como la causal), o ({lote}, {L}, {L}), una por frase.{consejo}"
        )
    if mascara_relleno is not None and tuple(mascara_relleno.shape) != (lote, L):
        raise ValueError(
            f"`mascara_relleno` tiene forma {tuple(mascara_relleno.shape)} y debe ser (lote, L) = ({lote}, {L}): "
            f"una fila por frase, True en cada posición de relleno (la da mascara_de_relleno(longitudes, L))."
        )


def atencion_fusionada(Q, K, V, mascara=None):
    """La salida de `atencion(Q, K, V, mascara)` con `F.scaled_dot_product_attention`, sin devolver los pesos.

    La función de PyTorch marca con True lo que SÍ se mira (al revés que el curso), y una fila sin nada que mirar
    puede darla en NaN o en 0 según la versión y el dispositivo; `atencion` la deja en 0, y aquí también, siempre.
    """
    if mascara is None:
        return F.scaled_dot_product_attention(Q, K, V)
    vacia = mascara.all(dim=-1, keepdim=True)  # filas ocultas enteras (lección 05)
    salida = F.scaled_dot_product_attention(Q, K, V, attn_mask=~(mascara & ~vacia))  # esas filas miran a todas...
    return salida.masked_fill(vacia, 0.0)  # ... y después valen 0, como en `atencion`


class AtencionMulticabeza(nn.Module):
    """Autoatención con varias cabezas: x (lote, L, d_modelo) -> (lote, L, d_modelo); guarda los pesos en `pesos`.

    Con `guardar_pesos = False` hace la misma cuenta con la función fusionada de PyTorch (lección 02), que no
    guarda la tabla de pesos y es más rápida: así entrena el mini-GPT de la lección 10.
    """

    def __init__(self, d_modelo, cabezas):
        super().__init__()
        comprobar_cabezas(d_modelo, cabezas)  # enteros positivos, y d_modelo divisible entre cabezas
        self.d_modelo = d_modelo
        self.cabezas = cabezas
        self.d_cabeza = d_modelo // cabezas
        self.qkv = nn.Linear(d_modelo, 3 * d_modelo)  # Q, K y V en una sola multiplicación
        self.salida = nn.Linear(d_modelo, d_modelo)  # mezcla lo que encontró cada cabeza
        self.pesos = None  # (lote, cabezas, L, L) de la última llamada, para dibujarlos
        self.guardar_pesos = True  # False: la cuenta fusionada, sin tabla de pesos que mirar

    def forward(self, x, mascara=None, mascara_relleno=None):
        """`mascara` (L, L) o (lote, L, L) y `mascara_relleno` (lote, L): True = no mirar (lección 05)."""
        comprobar_entrada_modelo(x, self.d_modelo, self.qkv.weight.dtype)  # (lote, L, d_modelo), del tipo de los pesos
        lote, L, _ = x.shape
        comprobar_mascaras(mascara, mascara_relleno, lote, L)
        q, k, v = self.qkv(x).chunk(3, dim=-1)  # 3 × (lote, L, d_modelo)

        def separar(t):  # (lote, L, d_modelo) -> (lote, cabezas, L, d_cabeza)
            return t.view(lote, L, self.cabezas, self.d_cabeza).transpose(1, 2)

        if mascara is not None and mascara.dim() == 3:
            mascara = mascara.unsqueeze(1)  # (lote, L, L) -> (lote, 1, L, L): la misma para todas las cabezas
        if mascara_relleno is not None:
            columnas = mascara_relleno[:, None, None, :]  # (lote, 1, 1, L): nadie mira el relleno
            mascara = columnas if mascara is None else mascara | columnas
        if self.guardar_pesos:
            mezcla, pesos = atencion(separar(q), separar(k), separar(v), mascara)  # cada cabeza divide por √d_cabeza
            self.pesos = pesos.detach()
        else:
            mezcla = atencion_fusionada(separar(q), separar(k), separar(v), mascara)  # lo mismo, sin los pesos
            self.pesos = None
        mezcla = mezcla.transpose(1, 2).reshape(lote, L, self.d_modelo)  # pegamos las cabezas
        return self.salida(mezcla)


def comprobar_copia(nuestra, capa_pytorch):
    """Lanza un error claro si `capa_pytorch` no es un nn.MultiheadAttention con la forma de `nuestra`."""
    receta = f"nn.MultiheadAttention({nuestra.d_modelo}, {nuestra.cabezas}, batch_first=True)"
    if not isinstance(capa_pytorch, nn.MultiheadAttention):
        raise TypeError(
            f"`capa_pytorch` debe ser un nn.MultiheadAttention, pero es {type(capa_pytorch).__name__}. "
            f"Créala con {receta}."
        )
    forma_nuestra = (nuestra.d_modelo, nuestra.cabezas)
    forma_pytorch = (capa_pytorch.embed_dim, capa_pytorch.num_heads)
    if forma_pytorch != forma_nuestra or capa_pytorch.in_proj_weight is None or capa_pytorch.in_proj_bias is None:
        raise ValueError(
            f"Las capas no tienen la misma forma: la nuestra es (d_modelo, cabezas) = {forma_nuestra} y la de "
            f"PyTorch {forma_pytorch}. Créala con {receta}."
        )
    if not capa_pytorch.batch_first:
        raise ValueError(f"Crea la capa de PyTorch con batch_first=True, {receta}: la nuestra recibe "
                         f"(lote, L, d_modelo), y sin esa opción PyTorch leería (L, lote, d_modelo).")


def copiar_pesos_a_pytorch(nuestra, capa_pytorch):
    """Copia los parámetros de `nuestra` (AtencionMulticabeza) en un nn.MultiheadAttention y devuelve `capa_pytorch`."""
    comprobar_copia(nuestra, capa_pytorch)  # misma d_modelo, mismas cabezas y batch_first=True
    capa_pytorch.to(nuestra.qkv.weight.dtype)
    with torch.no_grad():
        capa_pytorch.in_proj_weight.copy_(nuestra.qkv.weight)  # filas: primero las de Q, luego K, luego V
        capa_pytorch.in_proj_bias.copy_(nuestra.qkv.bias)
        capa_pytorch.out_proj.weight.copy_(nuestra.salida.weight)
        capa_pytorch.out_proj.bias.copy_(nuestra.salida.bias)
    return capa_pytorch
