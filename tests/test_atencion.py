"""Pruebas de `atencion`: hechos de la lección 02, equivalencia con PyTorch y mensajes ante entradas malas."""

import math

import pytest
import torch
import torch.nn.functional as F

from utilidades.atencion import atencion

Q = torch.tensor([[0, 1], [1, 1], [2, 0]], dtype=torch.float64)
K = torch.tensor([[0, 2], [1, 0], [2, 1]], dtype=torch.float64)
V = torch.tensor([[1, 0], [0, 1], [1, 1]], dtype=torch.float64)


def _aleatorios(*forma, semilla=0, dtype=torch.float64):
    generador = torch.Generator().manual_seed(semilla)
    return tuple(torch.randn(*forma, generator=generador, dtype=dtype) for _ in range(3))


def test_ejemplo_a_mano_del_temario():
    salida, pesos = atencion(Q, K, V)
    assert torch.allclose(pesos, torch.tensor([[0.58, 0.14, 0.28], [0.28, 0.14, 0.58], [0.05, 0.19, 0.77]],
                                              dtype=torch.float64), atol=0.005)
    assert torch.allclose(salida, torch.tensor([[0.86, 0.42], [0.86, 0.72], [0.81, 0.95]], dtype=torch.float64),
                          atol=0.005)


def test_filas_suman_uno_y_formas_con_lote_y_cabezas():
    Qb, Kb, Vb = _aleatorios(4, 2, 10, 8)
    salida, pesos = atencion(Qb, Kb, Vb)
    assert salida.shape == (4, 2, 10, 8)
    assert pesos.shape == (4, 2, 10, 10)
    assert torch.allclose(pesos.sum(-1), torch.ones(4, 2, 10, dtype=torch.float64))
    assert (pesos > 0).all()


def test_longitudes_distintas_de_consultas_y_claves():
    generador = torch.Generator().manual_seed(3)
    Qc = torch.randn(2, 3, 8, generator=generador)
    Kc = torch.randn(2, 7, 8, generator=generador)
    Vc = torch.randn(2, 7, 5, generator=generador)
    salida, pesos = atencion(Qc, Kc, Vc)
    assert salida.shape == (2, 3, 5) and pesos.shape == (2, 3, 7)
    assert torch.allclose(salida, F.scaled_dot_product_attention(Qc, Kc, Vc), atol=1e-6)


def test_igual_que_pytorch_sin_mascara():
    Qb, Kb, Vb = _aleatorios(3, 4, 9, 16, dtype=torch.float32)
    salida, _ = atencion(Qb, Kb, Vb)
    assert torch.allclose(salida, F.scaled_dot_product_attention(Qb, Kb, Vb), atol=1e-6)


def test_igual_que_pytorch_con_mascara_causal():
    Qb, Kb, Vb = _aleatorios(2, 3, 6, 8, dtype=torch.float32)
    causal = torch.triu(torch.ones(6, 6, dtype=torch.bool), diagonal=1)
    salida, pesos = atencion(Qb, Kb, Vb, mascara=causal)
    assert torch.allclose(salida, F.scaled_dot_product_attention(Qb, Kb, Vb, is_causal=True), atol=1e-6)
    assert (pesos[..., causal] == 0).all(), "las celdas del futuro deben valer exactamente 0"
    assert torch.allclose(pesos.sum(-1), torch.ones(2, 3, 6))
    assert torch.equal(pesos[..., 0, 0], torch.ones(2, 3)), "la primera palabra solo puede mirarse a sí misma"


def test_igual_que_pytorch_con_mascara_de_relleno():
    Qb, Kb, Vb = _aleatorios(3, 2, 5, 8, dtype=torch.float32)
    longitudes = torch.tensor([5, 3, 2])
    relleno = torch.arange(5)[None, :] >= longitudes[:, None]  # (lote, L): True en el relleno
    mascara = relleno[:, None, None, :]  # (lote, 1, 1, L)
    salida, pesos = atencion(Qb, Kb, Vb, mascara=mascara)
    # SDPA usa la convención contraria: True = se puede mirar.
    referencia = F.scaled_dot_product_attention(Qb, Kb, Vb, attn_mask=~mascara)
    assert torch.allclose(salida, referencia, atol=1e-6)
    assert (pesos[1, :, :, 3:] == 0).all() and (pesos[2, :, :, 2:] == 0).all()


def test_fila_oculta_entera_da_ceros_sin_nan():
    Qb, Kb, Vb = _aleatorios(1, 4, 4)
    mascara = torch.zeros(4, 4, dtype=torch.bool)
    mascara[2] = True
    Qb.requires_grad_(True)
    salida, pesos = atencion(Qb, Kb, Vb, mascara=mascara)
    assert not torch.isnan(salida).any() and not torch.isnan(pesos).any()
    assert (pesos[0, 2] == 0).all() and (salida[0, 2] == 0).all()
    assert torch.allclose(pesos[0, [0, 1, 3]].sum(-1), torch.ones(3, dtype=torch.float64))
    salida.sum().backward()
    assert not torch.isnan(Qb.grad).any(), "el gradiente tampoco debe tener NaN"


def test_escala_por_raiz_de_d():
    Qb, Kb, Vb = _aleatorios(5, 32)
    _, pesos = atencion(Qb, Kb, Vb)
    assert torch.allclose(pesos, torch.softmax(Qb @ Kb.T / math.sqrt(32), dim=-1))


@pytest.mark.parametrize(
    "Qx,Kx,Vx,mascara,error,texto",
    [
        (torch.randn(3, 8), torch.randn(3, 4), torch.randn(3, 4), None, ValueError, "misma dimensión d"),
        (torch.randn(3, 4), torch.randn(5, 4), torch.randn(4, 4), None, ValueError, "mismo número de palabras"),
        (torch.randn(4), torch.randn(3, 4), torch.randn(3, 4), None, ValueError, "unsqueeze"),
        ([[1.0, 2.0]], torch.randn(3, 2), torch.randn(3, 2), None, TypeError, "torch.tensor"),
        (torch.randn(3, 4), torch.randn(3, 4), torch.randn(3, 4), torch.zeros(3, 3), TypeError, "bool"),
        (torch.randn(3, 4), torch.randn(3, 4), torch.randn(3, 4), torch.zeros(4, 4, dtype=torch.bool),
         ValueError, "no encaja"),
        (torch.randn(2, 3, 4), torch.randn(5, 3, 4), torch.randn(5, 3, 4), None, ValueError, "lote"),
    ],
)
def test_entradas_malas_dan_mensaje_claro(Qx, Kx, Vx, mascara, error, texto):
    with pytest.raises(error, match=texto):
        atencion(Qx, Kx, Vx, mascara)


def test_tensores_de_enteros_dan_error_claro():
    Qi = torch.tensor([[0, 1], [1, 1]])
    with pytest.raises(TypeError, match=r"Q es un tensor de enteros \(torch.int64\).*Q.float\(\)"):
        atencion(Qi, Qi, Qi)


def test_float64_mezclado_con_float32_da_error_claro():
    with pytest.raises(TypeError, match="mismo tipo de número.*K es torch.float32"):
        atencion(Q, Q.float(), V)



def test_cada_concepto_vive_en_su_modulo():
    """La multicabeza en multicabeza.py, las máscaras en mascaras.py; atencion.py solo tiene la atención."""
    from utilidades import atencion as modulo

    assert not hasattr(modulo, "AtencionMulticabeza") and not hasattr(modulo, "mascara_causal")
    from utilidades.mascaras import combinar_mascaras, mascara_causal, mascara_de_relleno  # noqa: F401
    from utilidades.multicabeza import AtencionMulticabeza, copiar_pesos_a_pytorch  # noqa: F401
