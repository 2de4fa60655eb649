"""Pruebas de la lección 05: máscaras causal y de relleno frente a PyTorch, filas vacías, conmutadores y ejercicios."""

import functools

import matplotlib.pyplot as plt
import pytest
import torch
import torch.nn.functional as F
from torch import nn

from utilidades.atencion import atencion
from utilidades.mascaras import combinar_mascaras, mascara_causal, mascara_de_relleno
from utilidades.multicabeza import AtencionMulticabeza, copiar_pesos_a_pytorch
from utilidades.vistas import mascara_elegida, rellenar, vista_de_mascaras


def _copia(capa):
    """Un nn.MultiheadAttention con los pesos de `capa`."""
    return copiar_pesos_a_pytorch(capa, nn.MultiheadAttention(capa.d_modelo, capa.cabezas, batch_first=True))


# --- Las máscaras --------------------------------------------------------------------------------------


def test_mascara_causal():
    m = mascara_causal(4)
    assert m.dtype == torch.bool
    assert m.tolist() == [[False, True, True, True], [False, False, True, True],
                          [False, False, False, True], [False, False, False, False]]
    assert torch.equal(m, torch.ones(4, 4).triu(1).bool())
    # El convenio de F.scaled_dot_product_attention es el contrario: su máscara causal es ~la nuestra.
    assert torch.equal(~m, torch.ones(4, 4, dtype=torch.bool).tril())


def test_mascara_de_relleno():
    m = mascara_de_relleno([5, 3, 2], 5)
    assert m.tolist() == [[False] * 5, [False] * 3 + [True] * 2, [False] * 2 + [True] * 3]
    assert mascara_de_relleno(torch.tensor([0, 4]), 4).tolist() == [[True] * 4, [False] * 4]


@pytest.mark.parametrize("longitudes,L", [([6], 5), ([2, -1], 5), ([[1, 2]], 3)])
def test_mascara_de_relleno_longitudes_malas_dan_error_claro(longitudes, L):
    with pytest.raises(ValueError, match="Las longitudes deben ser una lista de enteros entre 0 y L"):
        mascara_de_relleno(longitudes, L)


def test_combinar_mascaras():
    relleno = mascara_de_relleno([3, 1], 3)
    solo = combinar_mascaras(relleno)
    assert solo.shape == (2, 3, 3)
    assert torch.equal(solo[1], torch.tensor([[False, True, True]] * 3))
    ambas = combinar_mascaras(relleno, causal=True)
    assert torch.equal(ambas[0], mascara_causal(3))
    assert torch.equal(ambas, solo | mascara_causal(3))


# --- Equivalencias con PyTorch -------------------------------------------------------------------------


def _qkv(semilla, *forma, d=8, dtype=torch.float64):
    g = torch.Generator().manual_seed(semilla)
    return tuple(torch.randn(*forma, d, generator=g, dtype=dtype) for _ in range(3))


def test_causal_igual_que_scaled_dot_product_attention():
    Q, K, V = _qkv(0, 2, 3, 6)
    salida, pesos = atencion(Q, K, V, mascara_causal(6))
    assert torch.allclose(salida, F.scaled_dot_product_attention(Q, K, V, is_causal=True), atol=1e-12)
    assert torch.allclose(salida, F.scaled_dot_product_attention(Q, K, V, attn_mask=~mascara_causal(6)), atol=1e-12)
    assert torch.all(pesos[..., 0, 0] == 1)
    assert torch.all(pesos.masked_select(mascara_causal(6)) == 0)
    assert torch.allclose(pesos.sum(-1), torch.ones(2, 3, 6, dtype=torch.float64))


def test_relleno_igual_que_scaled_dot_product_attention():
    Q, K, V = _qkv(1, 3, 5)
    relleno = mascara_de_relleno([5, 3, 1], 5)
    mascara = combinar_mascaras(relleno)
    salida, pesos = atencion(Q, K, V, mascara)
    esperada = F.scaled_dot_product_attention(Q, K, V, attn_mask=~mascara)
    assert torch.allclose(salida, esperada, atol=1e-12)
    assert torch.all(pesos.masked_select(relleno[:, None, :].expand(3, 5, 5)) == 0)


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("con_relleno", [False, True])
def test_multicabeza_con_mascaras_igual_que_multihead_attention(causal, con_relleno):
    torch.manual_seed(3)
    capa = AtencionMulticabeza(16, 4)
    mha = _copia(capa)
    x = torch.randn(3, 5, 16)
    relleno = mascara_de_relleno([5, 3, 2] if con_relleno else [5, 5, 5], 5)
    y = capa(x, mascara=combinar_mascaras(relleno, causal=causal))
    opciones = {"attn_mask": mascara_causal(5)} if causal else {}
    if con_relleno:
        opciones["key_padding_mask"] = relleno
    y_torch, pesos_torch = mha(x, x, x, average_attn_weights=False, **opciones)
    assert torch.allclose(y, y_torch, atol=1e-6)
    assert torch.allclose(capa.pesos, pesos_torch, atol=1e-6)


def test_multicabeza_causal_igual_con_is_causal_y_mascara_2d():
    torch.manual_seed(4)
    capa = AtencionMulticabeza(8, 2)
    mha = _copia(capa)
    x = torch.randn(2, 6, 8)
    y = capa(x, mascara=mascara_causal(6))  # (L, L) se reparte a todo el lote y todas las cabezas
    y_torch, _ = mha(x, x, x, attn_mask=mascara_causal(6), is_causal=True)
    assert torch.allclose(y, y_torch, atol=1e-6)


def test_con_relleno_una_frase_da_lo_mismo_sola_que_en_el_lote():
    torch.manual_seed(5)
    capa = AtencionMulticabeza(16, 4)
    x = torch.randn(2, 6, 16)
    relleno = mascara_de_relleno([6, 4], 6)
    en_lote = capa(x, mascara=combinar_mascaras(relleno, causal=True))
    sola = capa(x[1:, :4], mascara=mascara_causal(4))
    assert torch.allclose(en_lote[1, :4], sola[0], atol=1e-6)
    sin_mascara = capa(x)
    assert not torch.allclose(sin_mascara[1, :4], capa(x[1:, :4])[0], atol=1e-6)


# --- Fila oculta entera --------------------------------------------------------------------------------


def test_fila_oculta_entera_da_ceros_y_no_nan():
    Q, K, V = _qkv(6, 2, 3)
    mascara = combinar_mascaras(mascara_de_relleno([3, 0], 3))
    salida, pesos = atencion(Q, K, V, mascara)
    assert not salida.isnan().any() and not pesos.isnan().any()
    assert torch.all(pesos[1] == 0) and torch.all(salida[1] == 0)
    assert torch.allclose(pesos[0].sum(-1), torch.ones(3, dtype=torch.float64))
    # Lo mismo que scaled_dot_product_attention; torch.softmax a secas daría NaN.
    assert torch.allclose(salida, F.scaled_dot_product_attention(Q, K, V, attn_mask=~mascara), atol=1e-12)
    assert torch.softmax(torch.full((3,), float("-inf")), dim=-1).isnan().all()


def test_fila_oculta_entera_multicabeza_frente_a_pytorch():
    torch.manual_seed(7)
    capa = AtencionMulticabeza(8, 2)
    mha = _copia(capa)
    x = torch.randn(2, 3, 8)
    relleno = mascara_de_relleno([3, 0], 3)
    y = capa(x, mascara=combinar_mascaras(relleno))
    y_torch, _ = mha(x, x, x, key_padding_mask=relleno)
    assert not y.isnan().any()
    assert torch.allclose(y[1], capa.salida.bias.expand(3, 8))
    assert y_torch[1].isnan().all()  # PyTorch da NaN en la frase vacía…
    assert torch.allclose(y[0], y_torch[0], atol=1e-6)  # …y lo mismo que el curso en la otra


def test_fila_oculta_no_rompe_el_gradiente():
    torch.manual_seed(8)
    capa = AtencionMulticabeza(8, 2)
    x = torch.randn(2, 3, 8, requires_grad=True)
    capa(x, mascara=combinar_mascaras(mascara_de_relleno([2, 0], 3))).sum().backward()
    assert all(torch.isfinite(p.grad).all() for p in capa.parameters())
    assert torch.isfinite(x.grad).all()


# --- Entradas malas ------------------------------------------------------------------------------------


def test_relleno_por_su_argumento_aunque_lote_sea_igual_a_L():
    """Con lote == L, una máscara de relleno (lote, L) no se puede confundir: va en `mascara_relleno`."""
    torch.manual_seed(10)
    capa = AtencionMulticabeza(8, 2)
    mha = _copia(capa)
    x = torch.randn(4, 4, 8)
    relleno = mascara_de_relleno([4, 2, 3, 1], 4)
    y = capa(x, mascara_relleno=relleno)
    y_torch, _ = mha(x, x, x, key_padding_mask=relleno)
    assert torch.allclose(y, y_torch, atol=1e-6)
    assert torch.allclose(y, capa(x, mascara=combinar_mascaras(relleno)), atol=1e-6)
    causal = mascara_causal(4)
    y_ambas = capa(x, mascara=causal, mascara_relleno=relleno)
    y_torch, _ = mha(x, x, x, attn_mask=causal, key_padding_mask=relleno)
    assert torch.allclose(y_ambas, y_torch, atol=1e-6)
    assert torch.allclose(y_ambas, capa(x, mascara=combinar_mascaras(relleno, causal=True)), atol=1e-6)


def test_relleno_pasado_como_mascara_da_error_que_dice_como_arreglarlo():
    capa = AtencionMulticabeza(8, 2)
    relleno = mascara_de_relleno([3, 1], 4)  # (lote = 2, L = 4)
    with pytest.raises(ValueError, match=r"mascara_relleno=.*combinar_mascaras"):
        capa(torch.randn(2, 4, 8), mascara=relleno)
    with pytest.raises(ValueError, match=r"`mascara_relleno` tiene forma \(4, 4\) y debe ser \(lote, L\)"):
        capa(torch.randn(2, 4, 8), mascara_relleno=combinar_mascaras(relleno)[0])
    with pytest.raises(TypeError, match="debe ser un tensor bool"):
        capa(torch.randn(2, 4, 8), mascara_relleno=relleno.int())


def test_relleno_a_la_izquierda_con_causal():
    relleno = mascara_de_relleno([2, 4], 4, izquierda=True)
    assert relleno.tolist() == [[True, True, False, False], [False] * 4]
    ambas = combinar_mascaras(relleno, causal=True)
    # Las filas del relleno de la izquierda no ven nada (solo relleno y futuro): atencion les da 0, sin NaN.
    assert ambas[0, 0].all() and ambas[0, 1].all() and not ambas[0, 2].all()
    Q, K, V = _qkv(11, 2, 4)
    salida, pesos = atencion(Q, K, V, ambas)
    assert torch.isfinite(salida).all()
    assert pesos[0, :2].abs().sum() == 0
    assert torch.allclose(pesos[0, 2:].sum(-1), torch.ones(2, dtype=pesos.dtype))


def test_mascara_que_no_encaja_da_error_claro():
    Q, K, V = _qkv(9, 5)
    with pytest.raises(ValueError, match="no encaja con la tabla de puntajes"):
        atencion(Q, K, V, mascara_causal(4))


def test_mascara_no_booleana_da_error_claro():
    Q, K, V = _qkv(9, 3)
    with pytest.raises(TypeError, match="debe ser de tipo bool"):
        atencion(Q, K, V, mascara_causal(3).int())


def test_q_y_k_de_distinto_d_da_error_claro():
    with pytest.raises(ValueError, match="Q y K deben tener la misma dimensión d"):
        atencion(torch.randn(2, 4, 8), torch.randn(2, 4, 6), torch.randn(2, 4, 6), mascara_causal(4))


# --- Lo que muestran los conmutadores ------------------------------------------------------------------


FRASES = [["Ana", "sacó", "plata", "del", "banco"], ["el", "perro", "ladra"], ["hoy", "llueve"]]


def test_rellenar():
    rellenas, longitudes = rellenar(FRASES)
    assert longitudes == [5, 3, 2]
    assert rellenas[2] == ["hoy", "llueve", "‹relleno›", "‹relleno›", "‹relleno›"]
    assert rellenar([["a"]], L=3)[0] == [["a", "‹relleno›", "‹relleno›"]]
    assert rellenar([["a"]], L=3, izquierda=True)[0] == [["‹relleno›", "‹relleno›", "a"]]


@pytest.mark.parametrize("causal,relleno,visibles", [(False, False, 25), (True, False, 15), (False, True, 15),
                                                     (True, True, 12)])
def test_mascara_elegida(causal, relleno, visibles):
    m = mascara_elegida([5, 3, 2], 5, causal, relleno)
    assert m.shape == (3, 5, 5)
    assert int((~m[1]).sum()) == visibles


def _panel_y_controles():
    import ipywidgets as widgets

    from utilidades.paneles import Panel

    g = torch.Generator().manual_seed(0)
    Q, K = torch.randn(3, 5, 8, generator=g), torch.randn(3, 5, 8, generator=g)
    controles = {"frase": widgets.Dropdown(options=[("a", 0), ("b", 1), ("c", 2)], value=1),
                 "causal": widgets.Checkbox(value=True), "relleno": widgets.Checkbox(value=True)}
    return Panel(controles, functools.partial(vista_de_mascaras, Q, K, FRASES)), controles


def test_vista_de_mascaras():
    g = torch.Generator().manual_seed(0)
    Q, K = torch.randn(3, 5, 8, generator=g), torch.randn(3, 5, 8, generator=g)
    texto, fig = vista_de_mascaras(Q, K, FRASES, frase=2, causal=False, relleno=True)
    assert texto.startswith("«hoy llueve ‹relleno› ‹relleno› ‹relleno›» · causal: no · relleno: sí · "
                            "10 de 25 celdas visibles")
    assert texto.endswith("1.00 1.00 1.00 1.00 1.00")
    plt.close(fig)


def test_conmutadores_cambian_lo_que_se_ve():
    panel, controles = _panel_y_controles()
    assert "12 de 25 celdas visibles" in panel.texto_plano
    controles["causal"].value = False
    assert "causal: no" in panel.texto_plano and "15 de 25 celdas visibles" in panel.texto_plano
    controles["relleno"].value = False
    assert "25 de 25 celdas visibles" in panel.texto_plano
    controles["frase"].value = 0
    controles["causal"].value = True
    assert panel.texto_plano.startswith("«Ana sacó plata del banco» · causal: sí · relleno: no · 15 de 25")


# --- Máscaras mal formadas: un error que dice qué cambiar ---------------------------------------------


def test_multicabeza_acepta_la_mascara_1_L_L_como_atencion():
    torch.manual_seed(0)
    capa = AtencionMulticabeza(8, 2)
    x = torch.randn(3, 4, 8)
    causal = mascara_causal(4)
    assert torch.equal(capa(x, mascara=causal[None]), capa(x, mascara=causal))  # (1, L, L) vale para todo el lote
    q = torch.randn(3, 4, 8)
    assert torch.equal(atencion(q, q, q, causal[None])[0], atencion(q, q, q, causal)[0])


def test_mascara_de_decimales_pide_bool_y_dice_como():
    capa = AtencionMulticabeza(8, 2)
    x = torch.randn(2, 4, 8)
    with pytest.raises(TypeError, match=r"`mascara` debe ser un tensor bool .*torch\.float32.*usa mascara\.bool\(\)"):
        capa(x, mascara=mascara_causal(4).float())
    with pytest.raises(TypeError, match=r"`mascara_relleno` .*torch\.float32.*usa mascara_relleno\.bool\(\)"):
        capa(x, mascara_relleno=mascara_de_relleno([4, 2], 4).float())


def test_combinar_mascaras_con_una_sola_frase_sin_lote():
    with pytest.raises(ValueError, match=r"debe tener forma \(lote, L\).*tiene forma \(4,\).*relleno\.unsqueeze\(0\)"):
        combinar_mascaras(torch.tensor([False, False, True, True]))
    assert combinar_mascaras(torch.tensor([[False, False, True, True]])).shape == (1, 4, 4)


def test_combinar_mascaras_no_acepta_enteros_en_silencio():
    with pytest.raises(TypeError, match=r"`relleno` debe ser un tensor bool .*torch\.int64.*relleno\.bool\(\)"):
        combinar_mascaras(torch.tensor([[0, 0, 1, 1]]))


def test_mascara_causal_con_un_largo_imposible():
    with pytest.raises(ValueError, match=r"L es el número de palabras: debe ser un entero mayor o igual que 0, "
                                         r"pero es -1"):
        mascara_causal(-1)
    with pytest.raises(TypeError, match=r"L es el número de palabras: debe ser un número entero, pero es 2\.5"):
        mascara_causal(2.5)
    assert mascara_causal(0).shape == (0, 0) and mascara_causal(torch.tensor(3)).shape == (3, 3)


def test_longitudes_con_decimales_no_se_aceptan_en_silencio():
    with pytest.raises(TypeError, match=r"Las longitudes deben ser números enteros, pero son \[2\.5, 3\.0\]"):
        mascara_de_relleno([2.5, 3], 4)
    assert mascara_de_relleno([2, 3], 4).tolist() == [[False, False, True, True], [False, False, False, True]]
    assert mascara_de_relleno(torch.tensor([1]), 2).tolist() == [[False, True]]


# --- Ejercicios --------------------------------------------------------------------------------------
# Soluciones en cualquier tipo, respuestas desviadas, una pista por error frecuente y ninguna pista con la
# respuesta: tests/test_ejercicios_tabla.py con los casos de tests/casos_ejercicios/.
