"""Casos de la prueba por tabla para los ejercicios de la lección 07 · El bloque transformer."""

import torch
import torch.nn.functional as F

from casos_ejercicios import Adivinanza, Caso, Error

D, D_MLP = 48, 192
_ATENCION = (D * 3 * D + 3 * D) + (D * D + D)
_MLP = (D * D_MLP + D_MLP) + (D_MLP * D + D)
_NORMAS = 2 * 2 * D


def _norma_de_capa(x, eps=1e-5):
    media = x.mean(dim=-1, keepdim=True)
    return (x - media) / torch.sqrt(x.var(dim=-1, keepdim=True, unbiased=False) + eps)


def _norma_insesgada(x, eps=1e-5):
    media = x.mean(dim=-1, keepdim=True)
    return (x - media) / torch.sqrt(x.var(dim=-1, keepdim=True, unbiased=True) + eps)


def _norma_por_lote(x, eps=1e-5):
    return (x - x.mean(dim=0)) / x.std(dim=0, unbiased=False)


def _norma_sin_keepdim(x, eps=1e-5):
    """Olvida keepdim=True: la media pierde la última dimensión y la resta no encaja (RuntimeError de PyTorch)."""
    return (x - x.mean(dim=-1)) / torch.sqrt(x.var(dim=-1, unbiased=False) + eps)


def _norma_sin_eps(x, eps=1e-5):
    """Olvida eps: con una palabra constante divide 0 entre 0 (NaN)."""
    return (x - x.mean(dim=-1, keepdim=True)) / x.std(dim=-1, keepdim=True, unbiased=False)


def _norma_eps_fuera(x, eps=1e-5):
    """Suma eps fuera de la raíz: solo se nota cuando la varianza es del orden de eps o menor."""
    media = x.mean(dim=-1, keepdim=True)
    return (x - media) / (torch.sqrt(x.var(dim=-1, keepdim=True, unbiased=False)) + eps)


def _norma_con_nn(x, eps=1e-5):
    """Usa la LayerNorm de PyTorch en lugar de escribir la cuenta."""
    return torch.nn.LayerNorm(x.shape[-1], elementwise_affine=False)(x)


def _norma_con_f(x, eps=1e-5):
    return F.layer_norm(x, x.shape[-1:], eps=eps)


def _norma_sin_return(x, eps=1e-5):
    F.layer_norm(x, x.shape[-1:])


def _contar(d_modelo, d_mlp):
    return 4 * d_modelo**2 + 4 * d_modelo + 2 * d_modelo * d_mlp + d_mlp + d_modelo + 4 * d_modelo


def _contar_creando(d_modelo, d_mlp):
    """El atajo que el enunciado prohíbe: crear el bloque y sumar sus parámetros."""
    from utilidades.bloques import BloqueTransformer
    return sum(p.numel() for p in BloqueTransformer(d_modelo, 1, d_mlp).parameters())


def _contar_una_norma(d_modelo, d_mlp):
    return _contar(d_modelo, d_mlp) - 2 * d_modelo


def _contar_sin_sesgos(d_modelo, d_mlp):
    return 4 * d_modelo**2 + 2 * d_modelo * d_mlp + 4 * d_modelo


def _contar_4d(d_modelo, d_mlp):
    return _contar(d_modelo, 4 * d_modelo)


def _contar_fijo(d_modelo, d_mlp):
    return _contar(64, 256)


def _contar_sin_normas(d_modelo, d_mlp):
    return _contar(d_modelo, d_mlp) - 4 * d_modelo


def _contar_30_mas(d_modelo, d_mlp):
    return round(1.3 * _contar(d_modelo, d_mlp))


def _contar_30_menos(d_modelo, d_mlp):
    return round(0.7 * _contar(d_modelo, d_mlp))


def _contar_sin_return(d_modelo, d_mlp):
    _contar(d_modelo, d_mlp)


_CELDAS = 4096**2 * 12

def _norma_en_float64(x, eps=1e-5):
    """Correcta, calculada en float64: debe aceptarse (antes saltaba «Double did not match Float»)."""
    x = x.double()
    media = x.mean(dim=-1, keepdim=True)
    return (x - media) / torch.sqrt(x.var(dim=-1, keepdim=True, unbiased=False) + eps)


def _norma_en_su_sitio(x, eps=1e-5):
    """Resta la media sobre el propio tensor que recibe: el resultado es bueno, pero la entrada queda cambiada."""
    x -= x.mean(dim=-1, keepdim=True)
    x /= torch.sqrt(x.var(dim=-1, keepdim=True, unbiased=False) + eps)
    return x


def _norma_eps_fijo(x, eps=1e-5):
    """Escribe 1e-5 en la cuenta en lugar de usar el argumento eps."""
    media = x.mean(dim=-1, keepdim=True)
    return (x - media) / torch.sqrt(x.var(dim=-1, keepdim=True, unbiased=False) + 1e-5)


def _norma_en_float32(x, eps=1e-5):
    """Convierte la entrada a float32: con una entrada float64 devuelve float32."""
    return _norma_de_capa(x.float(), eps)


def _norma_de_ida_y_vuelta(x, eps=1e-5):
    """Pasa por float32 y vuelve al tipo de la entrada: el tipo es bueno, pero se pierden cifras."""
    return _norma_de_capa(x.float(), eps).to(x.dtype)


CASOS = {
    "07.1": Caso(
        adivinanzas=[Adivinanza(_ATENCION, "solo la atención (el ejercicio 1 de la lección 04)"),
                     Adivinanza(_ATENCION + _MLP, "sin las LayerNorm")],
        solucion=_ATENCION + _MLP + _NORMAS,
        errores=[
            Error(_ATENCION + _MLP, "te faltan las dos LayerNorm"),
            Error(_ATENCION + _MLP + 2 * D, "les falta la mitad"),
            Error(4 * D * D + 2 * D * D_MLP + _NORMAS, "también un sesgo"),
            Error(_ATENCION, "solo la atención"),
            Error(_MLP, "solo el MLP"),
            Error(2 * D * D + 2 * D + _MLP + _NORMAS, "3 · d_modelo salidas"),
            Error(49_984 + 1, "cuenta por piezas"),
        ],
    ),
    "07.2": Caso(
        adivinanzas=[Adivinanza(_norma_insesgada, "torch.var por defecto (entre d − 1)")],
        solucion=_norma_de_capa,
        acepta=[_norma_en_float64],
        rechaza=[_norma_con_f],  # F.layer_norm, como nn.LayerNorm: el enunciado pide la cuenta a mano
        errores=[
            Error(_norma_insesgada, "unbiased=False"),
            Error(_norma_por_lote, "ÚLTIMA dimensión"),
            Error(_norma_sin_return, "no devuelve nada"),
            Error(_norma_sin_keepdim, "keepdim=True"),
            Error(_norma_sin_eps, "no suma eps"),
            Error(_norma_eps_fuera, "eps va dentro de la raíz"),
            Error(_norma_con_nn, "a mano"),
            Error(_norma_en_su_sitio, "cambia el tensor que recibe"),
            Error(_norma_eps_fijo, "no usa ese eps"),
            Error(_norma_en_float32, "devuelve float32"),
            Error(_norma_de_ida_y_vuelta, "pierde cifras"),
        ],
    ),
    "07.3": Caso(
        adivinanzas=[Adivinanza(_CELDAS * 4 / 1e6, "una sola tabla, la cuenta de la sección 6"),
                     Adivinanza(4096**2 * 4 / 1e6, "una tabla de una cabeza: la columna L² · 4 bytes de la sección 6")],
        solucion=2 * _CELDAS * 4 / 1e6,
        acepta=[1609, 1609.5, 1610, 1611, 1611.5, 1612],  # redondeos de 1610.6, por los dos lados por igual
        rechaza=[1608, 1613],
        errores=[
            Error(12 * (2 * 4096**2 + 4096 * 64) * 4 / 1e6, "12 veces la memoria pico"),
            Error(_CELDAS * 4 / 1e6, "dos: los puntajes y los pesos"),
            Error(2 * _CELDAS * 8 / 1e6, "4 bytes por número, no 8"),
            Error(2 * _CELDAS * 4 / 1e6 / 12, "una sola cabeza"),
            Error(2 * _CELDAS * 4 / 2**20, "2²⁰"),
            Error(2 * _CELDAS / 1e6, "multiplica las celdas por 4"),
            Error(4096**2 * 4 / 1e6, "una sola tabla de una sola cabeza"),
            Error(2 * 4096 * 12 * 4 / 1e6, "L · L celdas, no L"),
            Error(2 * _CELDAS * 4, "está en bytes"),
            Error(2 * _CELDAS * 4 / 1e9, "está en GB"),
            Error(1000, "parte de lo que ocupa una tabla"),
        ],
    ),
    "07.4": Caso(
        adivinanzas=[Adivinanza(_contar_fijo, "el número del ejercicio 1 para cualquier tamaño")],
        solucion=_contar,
        errores=[
            Error(_contar_fijo, "d_modelo = 48"),
            Error(_contar_sin_normas, "te faltan las dos LayerNorm"),
            Error(_contar_una_norma, "el bloque tiene dos LayerNorm"),
            Error(_contar_sin_sesgos, "un sesgo por cada salida"),
            Error(_contar_4d, "usa el argumento d_mlp"),
            Error(_contar_creando, "sin crear el bloque"),
            Error(_contar_sin_return, "no devuelve nada"),
        ],
        desviadas=[_contar_30_mas, _contar_30_menos],
    ),
}
