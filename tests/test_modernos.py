"""Pruebas de las piezas de los modelos de hoy (lección 12): RMSNorm, SwiGLU, RoPE, GQA/MQA y el mini-Llama."""

import math

import pytest
import torch
import torch.nn.functional as F
from torch import nn

from herramientas.medidas import RECETA
from utilidades.ejercicios import leccion_06
from utilidades.gpt import MiniGPT, contar_parametros, entrenar_gpt, parametros_por_formula, perdida_en
from utilidades.mascaras import mascara_causal
from utilidades.modernos import (
    AtencionAgrupada,
    GPTModerno,
    MLPSwiGLU,
    NormaRMS,
    girar,
    mini_llama,
    oculta_swiglu,
    parametros_mlp,
    parametros_moderno_por_formula,
)
from utilidades.multicabeza import AtencionMulticabeza

pytestmark = pytest.mark.usefixtures("un_hilo")  # modelos diminutos: más hilos solo estorban

# --- RMSNorm -------------------------------------------------------------------------------------------------------


def test_norma_rms_igual_a_la_de_pytorch():
    torch.manual_seed(0)
    nuestra, suya = NormaRMS(16), nn.RMSNorm(16, eps=1e-6)
    with torch.no_grad():
        nuestra.weight.normal_()
        suya.weight.copy_(nuestra.weight)
    x = 3 * torch.randn(2, 5, 16) + 1
    assert torch.allclose(nuestra(x), suya(x), atol=1e-6)
    # Sin restar la media: a diferencia de LayerNorm, desplazar x cambia el resultado.
    assert not torch.allclose(nuestra(x + 5), nuestra(x), atol=1e-2)
    assert torch.allclose(nn.LayerNorm(16)(x + 5), nn.LayerNorm(16)(x), atol=1e-5)
    # Con el peso a 1, cada vector sale con media de cuadrados 1.
    assert torch.allclose(NormaRMS(16)(x).pow(2).mean(-1), torch.ones(2, 5), atol=1e-4)


# --- SwiGLU --------------------------------------------------------------------------------------------------------


def test_swiglu_tiene_los_parametros_del_mlp_gelu():
    assert oculta_swiglu(96) == 256  # 8 · 96 / 3
    gelu = nn.Sequential(nn.Linear(96, 384), nn.GELU(), nn.Linear(384, 96))
    swiglu = MLPSwiGLU(96)
    assert contar_parametros(gelu) == parametros_mlp(96, "gelu") == 74_208
    assert contar_parametros(swiglu) == parametros_mlp(96, "swiglu") == 74_336  # 128 más: los sesgos, el 0.2 %
    for d in (24, 32, 64, 96, 100, 128, 256):
        h = oculta_swiglu(d)
        diferencia = abs(parametros_mlp(d, "swiglu", h) - parametros_mlp(d, "gelu"))
        # El entero más cercano: con h ± 1 la diferencia no baja.
        assert all(diferencia <= abs(parametros_mlp(d, "swiglu", otro) - parametros_mlp(d, "gelu"))
                   for otro in (h - 1, h + 1))
        assert diferencia <= (3 * d + 2) // 2 and diferencia / parametros_mlp(d, "gelu") < 0.01
        assert contar_parametros(MLPSwiGLU(d)) == parametros_mlp(d, "swiglu")
    with pytest.raises(ValueError, match="No conozco mlp"):
        parametros_mlp(96, "relu")


def test_swiglu_hace_su_cuenta():
    torch.manual_seed(0)
    mlp = MLPSwiGLU(12)
    x = torch.randn(3, 12)
    a, b = x @ mlp.puerta.weight.T + mlp.puerta.bias, x @ mlp.subir.weight.T + mlp.subir.bias
    esperado = (a * torch.sigmoid(a) * b) @ mlp.bajar.weight.T + mlp.bajar.bias  # SiLU(a) = a · σ(a)
    assert torch.allclose(mlp(x), esperado, atol=1e-6)


# --- RoPE ----------------------------------------------------------------------------------------------------------

# La matriz R_k de la lección 06 (lleva PE(p) a PE(p + k)): la misma con que se comprueba su ejercicio 06.4.
rotacion = leccion_06._giro


def test_girar_es_el_giro_de_la_leccion_06():
    torch.manual_seed(0)
    x = torch.randn(2, 7, 8, dtype=torch.float64)  # (lote, L, d)
    girado = girar(x)
    for p in range(7):
        assert torch.allclose(girado[:, p], x[:, p] @ rotacion(p, 8).T, atol=1e-6)
    assert torch.allclose(girado[:, 0], x[:, 0])  # la posición 0 no gira
    assert torch.allclose(girado.norm(dim=-1), x.norm(dim=-1), atol=1e-6)  # girar no cambia la norma
    # Con `inicio`, las posiciones empiezan más tarde: lo mismo que girar detrás de otros 5 vectores.
    delante = torch.cat([torch.zeros(2, 5, 8, dtype=torch.float64), x], dim=1)
    assert torch.allclose(girar(x, inicio=5), girar(delante)[:, 5:], atol=1e-6)


def test_rope_el_puntaje_solo_depende_de_la_distancia():
    torch.manual_seed(0)
    q, k = torch.randn(16, dtype=torch.float64), torch.randn(16, dtype=torch.float64)

    def puntaje(m, n):  # la consulta en la posición m, la clave en la n
        return (girar(q.expand(1, 1, 16), m)[0, 0] @ girar(k.expand(1, 1, 16), n)[0, 0]).item()

    # Distancia 2, en cualquier sitio (también lejos). La tabla de ángulos es la de la lección 06, en float32: de
    # ahí la tolerancia, no de la cuenta.
    for m, n in ((3, 1), (10, 8), (40, 38), (200, 198)):
        assert puntaje(m, n) == pytest.approx(puntaje(3, 1), abs=1e-5)
    assert puntaje(3, 1) != pytest.approx(puntaje(3, 2), abs=1e-3)  # otra distancia, otro puntaje


def test_rope_pide_d_par():
    with pytest.raises(ValueError, match="d_cabeza debe ser par"):
        girar(torch.randn(3, 5))
    with pytest.raises(ValueError, match="d_cabeza"):
        AtencionAgrupada(12, 4, rope=True)  # d_cabeza = 3


def test_rope_con_un_texto_mas_largo_que_el_entrenamiento():
    torch.manual_seed(0)
    modelo = GPTModerno(20, d_modelo=24, cabezas=4, capas=2, contexto=16, dropout=0.0, rope=True).eval()
    x = torch.randint(20, (1, 40))
    with pytest.raises(ValueError, match="solo admite 16"):
        modelo(x)
    modelo.ampliar_contexto(40)
    with torch.no_grad():
        largo, corto = modelo(x), modelo(x[:, :16])
    assert largo.shape == (1, 40, 20) and torch.isfinite(largo).all()
    assert torch.allclose(largo[:, :16], corto, atol=1e-5)  # lo que ya había no cambia
    # Con vectores de posición aprendidos no hay vector para la posición 16: error en castellano.
    with pytest.raises(ValueError, match="rope=True"):
        GPTModerno(20, d_modelo=24, cabezas=4, contexto=16).ampliar_contexto(40)


# --- GQA y MQA -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("cabezas_kv", [4, 2, 1])
def test_atencion_agrupada_igual_a_la_de_pytorch(cabezas_kv):
    torch.manual_seed(0)
    capa = AtencionAgrupada(32, 4, cabezas_kv)
    capa.guardar_pesos = False
    x = torch.randn(2, 6, 32)
    q, k, v = capa.proyectar(x)
    assert q.shape == (2, 4, 6, 8) and k.shape == v.shape == (2, cabezas_kv, 6, 8)
    suya = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)  # (2, 4, 6, 8)
    esperado = capa.salida(suya.transpose(1, 2).reshape(2, 6, 32))
    assert torch.allclose(capa(x, mascara_causal(6)), esperado, atol=1e-6)
    capa.guardar_pesos = True  # con la tabla de pesos del curso, lo mismo
    assert torch.allclose(capa(x, mascara_causal(6)), esperado, atol=1e-6)
    assert capa.pesos.shape == (2, 4, 6, 6)
    # Lo que ahorra: la proyección de entrada da Q entera y solo cabezas_kv cabezas de K y V.
    assert capa.qkv.out_features == 32 + 2 * cabezas_kv * 8


def test_con_todas_las_cabezas_es_la_atencion_multicabeza():
    torch.manual_seed(0)
    nuestra, clasica = AtencionAgrupada(16, 4), AtencionMulticabeza(16, 4)
    clasica.load_state_dict(nuestra.state_dict())
    x = torch.randn(2, 5, 16)
    relleno = torch.tensor([[False] * 5, [False] * 3 + [True] * 2])
    assert torch.allclose(nuestra(x, mascara_causal(5), relleno), clasica(x, mascara_causal(5), relleno), atol=1e-6)
    assert torch.allclose(nuestra.pesos, clasica.pesos, atol=1e-6)


def test_cabezas_kv_que_no_dividen_dan_un_error_en_castellano():
    for mal in (3, 0, 2.0, True):
        with pytest.raises(ValueError, match="debe dividir al número de cabezas"):
            AtencionAgrupada(16, 4, mal)


# --- El mini-GPT moderno -------------------------------------------------------------------------------------------


def test_con_todo_apagado_es_el_minigpt_de_la_leccion_10():
    torch.manual_seed(0)
    clasico = MiniGPT(30, d_modelo=24, cabezas=4, capas=2, contexto=16)
    torch.manual_seed(0)
    moderno = GPTModerno(30, d_modelo=24, cabezas=4, capas=2, contexto=16)
    assert list(moderno.state_dict()) == list(clasico.state_dict())
    assert all(torch.equal(a, b) for a, b in zip(moderno.state_dict().values(), clasico.state_dict().values()))
    x = torch.randint(30, (2, 16))
    assert torch.equal(moderno.eval()(x), clasico.eval()(x))


OPCIONES = [{}, {"norma": "rms"}, {"mlp": "swiglu"}, {"rope": True}, {"cabezas_kv": 2}, {"cabezas_kv": 1},
            {"norma": "rms", "mlp": "swiglu", "rope": True, "cabezas_kv": 2}]


@pytest.mark.parametrize("opciones", OPCIONES)
def test_parametros_por_formula_y_contados(opciones):
    medidas = {"d_modelo": 96, "cabezas": 4, "capas": 2, "contexto": 64}
    for atar in (False, True):
        modelo = GPTModerno(94, **medidas, atar_pesos=atar, **opciones)
        assert contar_parametros(modelo) == parametros_moderno_por_formula(94, **medidas, atar_pesos=atar, **opciones)
    if not opciones:
        assert parametros_moderno_por_formula(94, **medidas) == parametros_por_formula(94, 96, 2, 64) == 248_064


def test_el_mini_llama_lleva_todas_las_piezas():
    modelo = mini_llama(94)
    bloque = modelo.bloques[0]
    assert isinstance(bloque.norma_1, NormaRMS) and isinstance(modelo.norma_final, NormaRMS)
    assert isinstance(bloque.mlp, MLPSwiGLU) and isinstance(bloque.atencion, AtencionAgrupada)
    assert bloque.atencion.rope and bloque.atencion.cabezas_kv == 2 and modelo.posiciones is None
    assert modelo.config == {"norma": "rms", "mlp": "swiglu", "rope": True, "cabezas_kv": 2}
    # Frente al de la lección 10: sin vectores de posición (64 · 96); por capa, K y V de 2 cabezas en vez de 4
    # (96 · 96 + 96 menos), 128 más en el MLP y dos normas sin sesgo (2 · 96 menos); la norma final, 96 menos.
    diferencia = contar_parametros(modelo) - contar_parametros(MiniGPT(94))
    assert diferencia == -64 * 96 + 2 * (-(96 * 96 + 96) + 128 - 2 * 96) - 96 == -24_992
    with pytest.raises(ValueError, match="No conozco norma"):
        GPTModerno(94, norma="batch")


@pytest.mark.parametrize("opciones", OPCIONES[1:])
def test_cada_variante_es_causal(opciones):
    torch.manual_seed(0)
    modelo = GPTModerno(20, d_modelo=24, cabezas=4, capas=2, contexto=12, dropout=0.0, **opciones).eval()
    x = torch.randint(20, (1, 12))
    cambiado = x.clone()
    cambiado[0, 7] = (x[0, 7] + 1) % 20
    with torch.no_grad():
        antes, despues = modelo(x), modelo(cambiado)
    assert torch.allclose(antes[0, :7], despues[0, :7], atol=1e-6)  # el pasado no ve el futuro
    assert not torch.allclose(antes[0, 7:], despues[0, 7:], atol=1e-4)


def test_el_mini_llama_entrena_con_la_receta_de_la_leccion_10():
    texto = "la atención mira atrás. " * 60
    vocabulario = sorted(set(texto))
    datos = torch.tensor([vocabulario.index(c) for c in texto])
    entrenamiento, validacion = datos[:1200], datos[1200:]
    torch.manual_seed(0)
    modelo = mini_llama(len(vocabulario), d_modelo=24, cabezas=4, contexto=16, dropout=0.0)
    historial = entrenar_gpt(modelo, entrenamiento, validacion, pasos=150, tamano_lote=16, lr=RECETA["lr"],
                             weight_decay=RECETA["weight_decay"], cada=50, mostrar=False)
    assert historial["pasos"] == [0, 50, 100, 150]
    assert historial["validacion"][0] > math.log(len(vocabulario)) - 0.5
    assert historial["mejor_perdida"] < 0.5 * historial["validacion"][0]
    assert perdida_en(modelo, validacion) == pytest.approx(historial["mejor_perdida"], abs=1e-6)
    # Los pesos de RMSNorm no decaen (una dimensión), como los de LayerNorm.
    from utilidades.gpt import optimizador_adamw

    decaen, _ = optimizador_adamw(modelo).param_groups
    assert not any(p is modelo.norma_final.weight for p in decaen["params"])
