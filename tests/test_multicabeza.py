"""Pruebas de la lección 04: AtencionMulticabeza contra nn.MultiheadAttention, errores, selector y ejercicios."""

import functools

import matplotlib.pyplot as plt
import pytest
import torch
import torch.nn.functional as F
from torch import nn

from utilidades.atencion import atencion
from utilidades.multicabeza import AtencionMulticabeza, copiar_pesos_a_pytorch
from utilidades.vistas import favoritas, vista_de_cabeza


def _copia(capa):
    """Un nn.MultiheadAttention con los pesos de `capa`."""
    return copiar_pesos_a_pytorch(capa, nn.MultiheadAttention(capa.d_modelo, capa.cabezas, batch_first=True))


# --- Formas y equivalencias ----------------------------------------------------------------------------


def test_formas_del_temario():
    torch.manual_seed(0)
    capa = AtencionMulticabeza(16, 4)
    y = capa(torch.randn(2, 5, 16))
    assert y.shape == (2, 5, 16)
    assert capa.pesos.shape == (2, 4, 5, 5)
    assert torch.allclose(capa.pesos.sum(-1), torch.ones(2, 4, 5))
    assert sum(p.numel() for p in capa.parameters()) == 1088


@pytest.mark.parametrize("d_modelo,cabezas,lote,L", [(16, 4, 2, 5), (12, 3, 1, 7), (8, 1, 3, 4), (32, 8, 2, 9)])
def test_igual_que_multihead_attention(d_modelo, cabezas, lote, L):
    torch.manual_seed(d_modelo + cabezas)
    capa = AtencionMulticabeza(d_modelo, cabezas)
    mha = _copia(capa)
    x = torch.randn(lote, L, d_modelo)
    y = capa(x)
    y_torch, pesos_torch = mha(x, x, x, average_attn_weights=False)
    assert torch.allclose(y, y_torch, atol=1e-6)
    assert torch.allclose(capa.pesos, pesos_torch, atol=1e-6)


def test_igual_que_multihead_attention_en_float64():
    torch.manual_seed(1)
    capa = AtencionMulticabeza(16, 4).double()
    mha = _copia(capa)
    assert mha.in_proj_weight.dtype == torch.float64
    x = torch.randn(2, 6, 16, dtype=torch.float64)
    y_torch, pesos_torch = mha(x, x, x, average_attn_weights=False)
    assert torch.allclose(capa(x), y_torch, atol=1e-12)
    assert torch.allclose(capa.pesos, pesos_torch, atol=1e-12)


def test_copiar_no_comparte_memoria():
    capa = AtencionMulticabeza(8, 2)
    mha = _copia(capa)
    with torch.no_grad():
        capa.qkv.weight.add_(1.0)
    assert not torch.allclose(capa.qkv.weight, mha.in_proj_weight)


def test_una_cabeza_es_la_formula_con_las_matrices_separadas():
    torch.manual_seed(2)
    capa = AtencionMulticabeza(8, 1)
    x = torch.randn(1, 4, 8)
    W_Q, W_K, W_V = capa.qkv.weight.chunk(3, dim=0)
    b_Q, b_K, b_V = capa.qkv.bias.chunk(3)
    mezcla, _ = atencion(x @ W_Q.T + b_Q, x @ W_K.T + b_K, x @ W_V.T + b_V)
    assert torch.allclose(capa(x), capa.salida(mezcla), atol=1e-6)


def test_atencion_igual_que_scaled_dot_product_attention_sin_mascara():
    torch.manual_seed(3)
    Q, K, V = torch.randn(2, 4, 6, 8), torch.randn(2, 4, 7, 8), torch.randn(2, 4, 7, 5)
    salida, _ = atencion(Q, K, V)
    assert torch.allclose(salida, F.scaled_dot_product_attention(Q, K, V), atol=1e-6)


def test_cada_cabeza_es_independiente():
    """Cambiar los números de una cabeza en Q no cambia los pesos de las demás."""
    torch.manual_seed(4)
    capa = AtencionMulticabeza(16, 4)
    x = torch.randn(1, 5, 16)
    capa(x)
    antes = capa.pesos.clone()
    with torch.no_grad():
        capa.qkv.weight[0:4].mul_(3.0)  # filas de Q de la cabeza 0
    capa(x)
    assert not torch.allclose(capa.pesos[:, 0], antes[:, 0])
    assert torch.allclose(capa.pesos[:, 1:], antes[:, 1:])


# --- Entradas malas ------------------------------------------------------------------------------------


def test_d_modelo_no_divisible_da_error_claro():
    with pytest.raises(ValueError, match=r"d_modelo \(16\) debe ser divisible entre el número de cabezas \(5\)"):
        AtencionMulticabeza(16, 5)


@pytest.mark.parametrize("d_modelo,cabezas", [(8, 0), (8, -2), (0, 1), (8, 2.0), (8, "4")])
def test_cabezas_o_d_modelo_no_enteros_positivos_dan_error_claro(d_modelo, cabezas):
    with pytest.raises(ValueError, match="debe ser un número entero positivo"):
        AtencionMulticabeza(d_modelo, cabezas)


def test_copiar_pesos_rellena_la_capa_dada_y_la_devuelve():
    capa = AtencionMulticabeza(8, 2)
    mha = nn.MultiheadAttention(8, 2, batch_first=True)
    assert copiar_pesos_a_pytorch(capa, mha) is mha
    assert torch.equal(mha.in_proj_weight, capa.qkv.weight)
    with pytest.raises(ValueError, match="no tienen la misma forma"):
        copiar_pesos_a_pytorch(capa, nn.MultiheadAttention(8, 4, batch_first=True))
    with pytest.raises(ValueError, match="batch_first=True"):
        copiar_pesos_a_pytorch(capa, nn.MultiheadAttention(8, 2))
    with pytest.raises(TypeError, match="debe ser un nn.MultiheadAttention"):
        copiar_pesos_a_pytorch(capa, nn.Linear(8, 8))


def test_cada_cabeza_divide_por_la_raiz_de_d_cabeza():
    """Cada cabeza escala por √d_cabeza (aquí √4 = 2), no por √d_modelo (√16 = 4)."""
    torch.manual_seed(5)
    capa = AtencionMulticabeza(16, 4)
    x = torch.randn(1, 5, 16)
    capa(x)
    q, k, _ = capa.qkv(x).chunk(3, dim=-1)
    q0, k0 = q[0, :, :4], k[0, :, :4]  # la cabeza 0
    assert torch.allclose(capa.pesos[0, 0], torch.softmax(q0 @ k0.T / 2, dim=-1), atol=1e-6)
    assert not torch.allclose(capa.pesos[0, 0], torch.softmax(q0 @ k0.T / 4, dim=-1), atol=1e-3)


def test_entrada_con_otro_d_modelo_da_error_claro():
    capa = AtencionMulticabeza(16, 4)
    with pytest.raises(ValueError, match="debe tener forma \\(lote, L, d_modelo\\)"):
        capa(torch.randn(2, 5, 12))
    with pytest.raises(ValueError, match="unsqueeze"):
        capa(torch.randn(5, 16))


def test_q_y_k_de_distinto_d_da_error_claro():
    with pytest.raises(ValueError, match="Q y K deben tener la misma dimensión d"):
        atencion(torch.randn(3, 8), torch.randn(4, 6), torch.randn(4, 6))


def test_mascara_que_no_encaja_da_error_claro():
    capa = AtencionMulticabeza(16, 4)
    with pytest.raises(ValueError, match=r"`mascara` tiene forma \(2, 4, 4\), que no encaja: debe ser \(5, 5\)"):
        capa(torch.randn(2, 5, 16), mascara=torch.zeros(2, 4, 4, dtype=torch.bool))


# --- Lo que muestra el selector de cabezas -------------------------------------------------------------


def test_favoritas():
    pesos = torch.tensor([[0.7, 0.3], [0.4, 0.6]])
    assert favoritas(pesos, ["a", "b"]) == "a→a 0.70 · b→b 0.60"
    with pytest.raises(ValueError, match="elige una frase y una cabeza"):
        favoritas(torch.ones(2, 3, 3), ["a", "b", "c"])


def _pesos_de_prueba():
    torch.manual_seed(0)
    capa = AtencionMulticabeza(16, 4)
    with torch.no_grad():
        capa(torch.randn(2, 3, 16))
    return capa.pesos, [["Ana", "sacó", "plata"], ["el", "perro", "ladra"]]


def test_vista_de_cabeza():
    pesos, frases = _pesos_de_prueba()
    texto, fig = vista_de_cabeza(pesos, frases, frase=1, cabeza=2)
    assert texto.startswith("cabeza 2, «el perro ladra»: el→")
    assert fig.axes[0].get_title() == "cabeza 2"  # el glosario: «cabeza» en minúscula también en las figuras
    assert fig.axes[1].get_ylabel() == "peso"  # la barra de color dice qué mide, como en la tabla de cuatro cabezas
    plt.close(fig)
    with pytest.raises(ValueError, match="La capa tiene 4 cabezas"):
        vista_de_cabeza(pesos, frases, frase=0, cabeza=4)


def test_panel_selector_de_cabeza_cambia_al_elegir():
    import ipywidgets as widgets

    from utilidades.paneles import Panel

    pesos, frases = _pesos_de_prueba()
    selector = widgets.ToggleButtons(options=[0, 1, 2, 3], value=0)
    frase = widgets.Dropdown(options=[("uno", 0), ("dos", 1)], value=0)
    panel = Panel({"frase": frase, "cabeza": selector}, functools.partial(vista_de_cabeza, pesos, frases))
    assert panel.texto_plano.startswith("cabeza 0, «Ana sacó plata»")
    selector.value = 3
    assert panel.texto_plano.startswith("cabeza 3, «Ana sacó plata»")
    frase.value = 1
    assert panel.texto_plano == "cabeza 3, «el perro ladra»: " + favoritas(pesos[1, 3], frases[1])


# --- Entradas de otro tipo ----------------------------------------------------------------------------


def test_multicabeza_con_float64_explica_que_convertir():
    capa = AtencionMulticabeza(8, 2)
    with pytest.raises(TypeError, match=r"x es de tipo torch\.float64 y los pesos del modelo son torch\.float32: .*"
                                        r"x\.float\(\), o el modelo entero con modelo\.double\(\)"):
        capa(torch.randn(2, 3, 8, dtype=torch.float64))


def test_multicabeza_con_enteros_explica_que_convertir():
    capa = AtencionMulticabeza(8, 2)
    with pytest.raises(TypeError, match=r"x es un tensor de enteros \(torch\.int64\).*x\.float\(\).*nn\.Embedding"):
        capa(torch.ones(2, 3, 8, dtype=torch.long))


def test_multicabeza_sigue_aceptando_float32_y_float64_con_pesos_iguales():
    torch.manual_seed(0)
    capa = AtencionMulticabeza(8, 2)
    x = torch.randn(2, 3, 8)
    y = capa(x)
    assert y.shape == (2, 3, 8) and y.dtype == torch.float32
    y64 = capa.double()(x.double())
    assert y64.dtype == torch.float64 and torch.allclose(y64.float(), y, atol=1e-5)


# --- Ejercicios --------------------------------------------------------------------------------------
# Soluciones en cualquier tipo, respuestas desviadas, una pista por error frecuente y ninguna pista con la
# respuesta: tests/test_ejercicios_tabla.py con los casos de tests/casos_ejercicios/.


def test_favoritas_dice_los_empates():
    pesos = torch.tensor([[1 / 3, 1 / 3, 1 / 3], [0.4, 0.4, 0.2], [0.1, 0.2, 0.7]], dtype=torch.float64)
    assert favoritas(pesos, ["a", "b", "c"]) == "a→todas 0.33 · b→a/b 0.40 · c→c 0.70"


def test_vista_de_cabeza_con_frases_de_distinta_longitud():
    frases = [["Ana", "sacó", "plata"], ["el", "perro", "del", "vecino", "ladra"]]
    pesos = [torch.softmax(torch.randn(2, len(f), len(f), generator=torch.Generator().manual_seed(len(f))), -1)
             for f in frases]  # una tabla (cabezas, L, L) por frase
    texto, fig = vista_de_cabeza(pesos, frases, frase=1, cabeza=1)
    assert texto.startswith("cabeza 1, «el perro del vecino ladra»: ") and texto.count("→") == 5
    plt.close(fig)
    with pytest.raises(ValueError, match="2 cabezas"):
        vista_de_cabeza(pesos, frases, frase=0, cabeza=2)
