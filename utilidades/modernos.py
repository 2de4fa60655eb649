"""Lo que cambiaron los modelos de hoy (lección 12): RMSNorm, el MLP SwiGLU, las posiciones por giro (RoPE), la
atención con grupos de claves (GQA y MQA) y un mini-GPT al estilo de Llama que enciende cada pieza por separado.

`GPTModerno` es el `MiniGPT` de la lección 10 con piezas cambiadas: usa su `forward` (un solo camino), y con todos
los interruptores apagados es exactamente el mini-GPT de la lección 10.
"""

import torch
import torch.nn.functional as F
from torch import nn

from utilidades.atencion import atencion
from utilidades.gpt import MiniGPT
from utilidades.multicabeza import AtencionMulticabeza, atencion_fusionada, comprobar_mascaras
from utilidades.posicion import posicion_sinusoidal
from utilidades.validacion import comprobar_entrada_modelo

# --- RMSNorm -------------------------------------------------------------------------------------------------------


class NormaRMS(nn.Module):
    """RMSNorm: x / √(media(x²) + eps) · peso, sin restar la media ni sumar sesgo; (..., d) -> (..., d)."""

    def __init__(self, d_modelo, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(d_modelo))  # se llama como en nn.LayerNorm y nn.RMSNorm

    def forward(self, x):
        rms = torch.sqrt(x.pow(2).mean(dim=-1, keepdim=True) + self.eps)  # (..., 1): el tamaño típico de x
        return x / rms * self.weight


# --- El MLP SwiGLU -------------------------------------------------------------------------------------------------


def parametros_mlp(d_modelo, mlp="gelu", d_oculta=None):
    """Parámetros del MLP de un bloque, con sesgos: GELU 2·d·h + h + d (h = 4d); SwiGLU 3·d·h + 2h + d."""
    if mlp == "gelu":
        h = 4 * d_modelo if d_oculta is None else d_oculta
        return 2 * d_modelo * h + h + d_modelo
    if mlp == "swiglu":
        h = oculta_swiglu(d_modelo) if d_oculta is None else d_oculta
        return 3 * d_modelo * h + 2 * h + d_modelo
    raise ValueError(f"No conozco mlp={mlp!r}; usa una de {list(MLPS)}.")


def oculta_swiglu(d_modelo):
    """Tamaño oculto del MLP SwiGLU con los parámetros más parecidos a los del MLP GELU 4·d: unos 8·d/3.

    SwiGLU tiene tres matrices en vez de dos; con h = 8·d/3 suman 8·d², como las dos del MLP 4·d. Con los sesgos,
    el entero que más se acerca (para d = 96, h = 256: 128 parámetros más que el MLP GELU, el 0.2 %).
    """
    objetivo = parametros_mlp(d_modelo, "gelu")
    ideal = (objetivo - d_modelo) / (3 * d_modelo + 2)  # despejando h en 3·d·h + 2h + d = objetivo
    candidatos = (int(ideal), int(ideal) + 1)
    return min(candidatos, key=lambda h: abs(parametros_mlp(d_modelo, "swiglu", h) - objetivo))


class MLPSwiGLU(nn.Module):
    """MLP con puerta: bajar(SiLU(puerta(x)) · subir(x)); (..., d_modelo) -> (..., d_modelo)."""

    def __init__(self, d_modelo, d_oculta=None):
        super().__init__()
        d_oculta = oculta_swiglu(d_modelo) if d_oculta is None else d_oculta
        self.puerta = nn.Linear(d_modelo, d_oculta)  # decide cuánto pasa de cada número oculto
        self.subir = nn.Linear(d_modelo, d_oculta)  # lo que pasa
        self.bajar = nn.Linear(d_oculta, d_modelo)

    def forward(self, x):
        return self.bajar(F.silu(self.puerta(x)) * self.subir(x))  # (..., d_oculta) -> (..., d_modelo)


# --- RoPE: girar las consultas y las claves ------------------------------------------------------------------------


def girar(x, inicio=0):
    """RoPE: gira cada pareja de números (2i, 2i+1) de x (..., L, d) un ángulo p · ω_i, con p la posición de cada
    fila (inicio, inicio + 1, …) y ω_i = 1 / 10000^(2i/d); devuelve (..., L, d).

    Es el giro R_p de la lección 06, el que lleva PE(q) a PE(q + p), con las frecuencias de sus senos y cosenos.
    """
    L, d = x.shape[-2], x.shape[-1]
    if d % 2 != 0:
        raise ValueError(f"RoPE gira los números por parejas: d_cabeza debe ser par, pero es {d}. Elige d_modelo "
                         f"y cabezas de modo que d_modelo / cabezas sea par.")
    tabla = posicion_sinusoidal(inicio + L, d)[inicio:].to(x.device, x.dtype)  # (L, d): sen en pares, cos en impares
    seno, coseno = tabla[:, 0::2], tabla[:, 1::2]  # (L, d/2): sen(p·ω_i) y cos(p·ω_i)
    pares, impares = x[..., 0::2], x[..., 1::2]  # (..., L, d/2)
    girado = torch.stack((pares * coseno + impares * seno, impares * coseno - pares * seno), dim=-1)
    return girado.flatten(-2)  # (..., L, d/2, 2) -> (..., L, d): cada pareja vuelve a su sitio


# --- Atención con grupos de claves (GQA y MQA) ---------------------------------------------------------------------


def repetir_cabezas(t, veces):
    """(lote, cabezas_kv, L, d_cabeza) -> (lote, cabezas_kv · veces, L, d_cabeza): cada grupo comparte su clave."""
    return t if veces == 1 else t.repeat_interleave(veces, dim=1)


class AtencionAgrupada(AtencionMulticabeza):
    """Atención multicabeza con solo `cabezas_kv` cabezas de claves y valores, que comparten por grupos las
    consultas (GQA; MQA si cabezas_kv = 1), y, si `rope`, consultas y claves giradas por su posición;
    (lote, L, d_modelo) -> (lote, L, d_modelo).

    Con cabezas_kv = cabezas y rope=False hace la misma cuenta que `AtencionMulticabeza`.
    """

    def __init__(self, d_modelo, cabezas, cabezas_kv=None, rope=False):
        super().__init__(d_modelo, cabezas)
        cabezas_kv = cabezas if cabezas_kv is None else cabezas_kv
        if isinstance(cabezas_kv, bool) or not isinstance(cabezas_kv, int) or cabezas_kv < 1 \
                or cabezas % cabezas_kv != 0:
            divisores = [h for h in range(1, cabezas + 1) if cabezas % h == 0]
            raise ValueError(f"cabezas_kv ({cabezas_kv!r}) debe dividir al número de cabezas ({cabezas}): cada "
                             f"grupo de consultas comparte unas claves y unos valores. Prueba con {divisores}.")
        if rope and self.d_cabeza % 2 != 0:
            raise ValueError(f"RoPE gira los números por parejas y d_cabeza = {d_modelo} / {cabezas} = "
                             f"{self.d_cabeza} es impar: elige d_modelo y cabezas con d_cabeza par.")
        self.cabezas_kv = cabezas_kv
        self.rope = rope
        d_kv = cabezas_kv * self.d_cabeza
        self.qkv = nn.Linear(d_modelo, d_modelo + 2 * d_kv)  # la proyección de entrada: Q entera, K y V más cortas

    def proyectar(self, x, inicio=0):
        """q (lote, cabezas, L, d_cabeza), k y v (lote, cabezas_kv, L, d_cabeza); con `rope`, q y k giradas (las
        posiciones empiezan en `inicio`)."""
        lote, L, _ = x.shape
        d_kv = self.cabezas_kv * self.d_cabeza
        q, k, v = self.qkv(x).split((self.d_modelo, d_kv, d_kv), dim=-1)
        q = q.view(lote, L, self.cabezas, self.d_cabeza).transpose(1, 2)
        k = k.view(lote, L, self.cabezas_kv, self.d_cabeza).transpose(1, 2)
        v = v.view(lote, L, self.cabezas_kv, self.d_cabeza).transpose(1, 2)
        if self.rope:
            q, k = girar(q, inicio), girar(k, inicio)  # solo Q y K: la posición entra en los puntajes, no en V
        return q, k, v

    def mezclar(self, q, k, v, mascara=None):
        """Cada grupo de consultas atiende a sus claves y valores; se pegan las cabezas y pasan por la proyección
        de salida: -> (lote, L de q, d_modelo)."""
        veces = self.cabezas // self.cabezas_kv
        k, v = repetir_cabezas(k, veces), repetir_cabezas(v, veces)  # (lote, cabezas, Lk, d_cabeza)
        if self.guardar_pesos:
            mezcla, pesos = atencion(q, k, v, mascara)
            self.pesos = pesos.detach()
        else:
            mezcla = atencion_fusionada(q, k, v, mascara)
            self.pesos = None
        lote, _, Lq, _ = q.shape
        return self.salida(mezcla.transpose(1, 2).reshape(lote, Lq, self.d_modelo))

    def forward(self, x, mascara=None, mascara_relleno=None):
        """Las máscaras, como en AtencionMulticabeza: True = no mirar."""
        comprobar_entrada_modelo(x, self.d_modelo, self.qkv.weight.dtype)
        lote, L, _ = x.shape
        comprobar_mascaras(mascara, mascara_relleno, lote, L)
        if mascara is not None and mascara.dim() == 3:
            mascara = mascara.unsqueeze(1)  # (lote, 1, L, L): la misma para todas las cabezas
        if mascara_relleno is not None:
            columnas = mascara_relleno[:, None, None, :]  # (lote, 1, 1, L)
            mascara = columnas if mascara is None else mascara | columnas
        return self.mezclar(*self.proyectar(x), mascara)


# --- El mini-GPT con las piezas de hoy -----------------------------------------------------------------------------

NORMAS = ("layer", "rms")
MLPS = ("gelu", "swiglu")


class GPTModerno(MiniGPT):
    """El `MiniGPT` de la lección 10 con interruptores: `norma` "layer" o "rms", `mlp` "gelu" o "swiglu", `rope`
    (True: giros en vez de vectores de posición aprendidos) y `cabezas_kv` (None = tantas como cabezas; menos =
    GQA; 1 = MQA). Índices (lote, L) -> logits (lote, L, vocabulario).

    Usa el `forward` de `MiniGPT`: solo cambian las piezas de cada bloque. Todo a la vez es un mini-Llama.
    """

    def __init__(self, vocabulario, d_modelo=96, cabezas=4, capas=2, contexto=64, dropout=0.2, atar_pesos=False,
                 norma="layer", mlp="gelu", rope=False, cabezas_kv=None):
        for nombre, valor, opciones in (("norma", norma, NORMAS), ("mlp", mlp, MLPS)):
            if valor not in opciones:
                raise ValueError(f"No conozco {nombre}={valor!r}; usa una de {list(opciones)}.")
        super().__init__(vocabulario, d_modelo, cabezas, capas, contexto, dropout, posiciones=not rope,
                         atar_pesos=atar_pesos)
        cabezas_kv = cabezas if cabezas_kv is None else cabezas_kv
        self.config = {"norma": norma, "mlp": mlp, "rope": rope, "cabezas_kv": cabezas_kv}
        for bloque in self.bloques:
            if norma == "rms":
                bloque.norma_1, bloque.norma_2 = NormaRMS(d_modelo), NormaRMS(d_modelo)
            if mlp == "swiglu":
                bloque.mlp = MLPSwiGLU(d_modelo)
            if rope or cabezas_kv != cabezas:
                bloque.atencion = AtencionAgrupada(d_modelo, cabezas, cabezas_kv, rope=rope)
                bloque.atencion.guardar_pesos = False  # la cuenta fusionada, como en MiniGPT
        if norma == "rms":
            self.norma_final = NormaRMS(d_modelo)

    def ampliar_contexto(self, contexto):
        """Deja pasar secuencias de hasta `contexto` caracteres (solo con `rope`, que no aprende un vector por
        posición); devuelve el modelo."""
        if self.posiciones is not None:
            raise ValueError("Con vectores de posición aprendidos no hay vector para las posiciones que no se "
                             "entrenaron: el contexto solo se puede ampliar en un GPTModerno con rope=True.")
        self.contexto = contexto
        return self


def mini_llama(vocabulario, d_modelo=96, cabezas=4, capas=2, contexto=64, dropout=0.2, cabezas_kv=2):
    """Un GPTModerno con todas las piezas de hoy: RMSNorm, SwiGLU, RoPE y GQA (`cabezas_kv` < cabezas)."""
    return GPTModerno(vocabulario, d_modelo, cabezas, capas, contexto, dropout, norma="rms", mlp="swiglu",
                      rope=True, cabezas_kv=cabezas_kv)


def parametros_moderno_por_formula(vocabulario, d_modelo=96, cabezas=4, capas=2, contexto=64, atar_pesos=False,
                                   norma="layer", mlp="gelu", rope=False, cabezas_kv=None):
    """Parámetros de un GPTModerno contados pieza a pieza (las mismas opciones que GPTModerno)."""
    d, d_cabeza = d_modelo, d_modelo // cabezas
    d_kv = (cabezas if cabezas_kv is None else cabezas_kv) * d_cabeza
    por_norma = d if norma == "rms" else 2 * d  # RMSNorm: solo el peso; LayerNorm: peso y sesgo
    atencion_ = d * (d + 2 * d_kv) + (d + 2 * d_kv) + d * d + d  # proyecciones de entrada y de salida, con sesgo
    por_capa = atencion_ + parametros_mlp(d, mlp) + 2 * por_norma
    posiciones = 0 if rope else contexto * d  # RoPE no aprende nada
    salida = 0 if atar_pesos else vocabulario * d
    return vocabulario * d + posiciones + capas * por_capa + por_norma + salida
