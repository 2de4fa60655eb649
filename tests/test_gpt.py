"""Pruebas del mini-GPT: parámetros, causalidad, entrenamiento, generación, pesos y ejercicios (lección 10)."""

import math
import pathlib
import subprocess
import sys

import pytest
import torch
import torch.nn.functional as F

from utilidades.bloques import BloqueTransformer
from utilidades.dropout import ApagarAlAzar, apagar_al_azar
from utilidades.ejercicios import evaluar
from utilidades.ejercicios.leccion_10 import (
    SOBREAJUSTE,
    diferencias_sin_y_con_posiciones,
    peso_en_el_anterior,
    referencias_10_2,
)
from utilidades.escritor import EscritorInteractivo, dibujo_del_escritor, texto_para_widget
from utilidades.gpt import (
    MiniGPT,
    cargar_pesos,
    contar_parametros,
    entrenar_gpt,
    filtrar_top_k,
    generar,
    generar_texto,
    guardar_pesos,
    lote_aleatorio,
    optimizador_adamw,
    parametros_por_formula,
    perdida_en,
    probabilidades_siguiente,
    ventanas_repartidas,
)
from utilidades.mascaras import mascara_causal
from utilidades.texto import TokenizadorCaracteres


def test_parametros_del_mini_gpt():
    modelo = MiniGPT(94)
    assert contar_parametros(modelo) == 248_064
    assert parametros_por_formula(94, 96, 2, 64) == 248_064
    for v, d, n, t in ((94, 96, 2, 64), (50, 32, 3, 16), (120, 128, 3, 64)):
        assert contar_parametros(MiniGPT(v, d_modelo=d, capas=n, contexto=t)) == parametros_por_formula(v, d, n, t)
    assert contar_parametros(MiniGPT(94, posiciones=False)) == 248_064 - 64 * 96
    assert modelo.salida.bias is None


def test_parametros_de_gpt2_en_meta():
    with torch.device("meta"):
        bloque = BloqueTransformer(768, 12, 3072, activacion="gelu")
        gpt2 = MiniGPT(50_257, d_modelo=768, cabezas=12, capas=12, contexto=1_024, atar_pesos=True)
    assert contar_parametros(bloque) == 7_087_872
    assert contar_parametros(gpt2) == 124_439_808 == parametros_por_formula(50_257, 768, 12, 1_024, atar_pesos=True)
    assert gpt2.salida.weight is gpt2.tokens.weight
    assert gpt2.tokens.weight.device.type == "meta"


def test_forma_y_contexto_maximo():
    modelo = MiniGPT(10, d_modelo=16, cabezas=2, contexto=8)
    assert modelo(torch.zeros(3, 8, dtype=torch.long)).shape == (3, 8, 10)
    with pytest.raises(ValueError, match=r"solo admite 8.*indices\[:, -8:\]"):
        modelo(torch.zeros(1, 9, dtype=torch.long))


def test_entradas_equivocadas_dan_errores_en_castellano():
    modelo = MiniGPT(10, d_modelo=16, cabezas=2, contexto=8)
    with pytest.raises(ValueError, match=r"forma \(lote, L\), pero recibe \(5,\).*indices.unsqueeze\(0\)"):
        modelo(torch.zeros(5, dtype=torch.long))  # una frase sin la dimensión del lote
    with pytest.raises(ValueError, match=r"forma \(lote, L\), pero recibe list"):
        modelo([[1, 2, 3]])
    with pytest.raises(TypeError, match=r"deben ser enteros.*indices.long\(\)"):
        modelo(torch.zeros(1, 5))


def test_apagar_al_azar_es_el_dropout_de_pytorch():
    torch.manual_seed(0)
    x = torch.randn(200_000, requires_grad=True)
    for p in (0.1, 0.2, 0.5):
        y = apagar_al_azar(x, p)
        apagados = y == 0
        assert apagados.float().mean().item() == pytest.approx(p, abs=0.005)  # cada número, con probabilidad p
        assert torch.allclose(y[~apagados], x[~apagados] / (1 - p))  # el resto, escalado como F.dropout
        y.sum().backward()
        assert torch.equal(x.grad == 0, apagados)  # por los apagados no pasa gradiente
        assert torch.allclose(x.grad[~apagados], torch.full_like(x.grad[~apagados], 1 / (1 - p)))
        x.grad = None
    # Cada número se sortea por separado: dos mitades del mismo tensor no se apagan a la vez.
    apagados = apagar_al_azar(torch.ones(200_000), 0.5) == 0
    assert (apagados[:100_000] & apagados[100_000:]).float().mean().item() == pytest.approx(0.25, abs=0.005)
    assert apagar_al_azar(x, 0.2, entrenando=False) is x and apagar_al_azar(x, 0.0) is x
    assert torch.equal(apagar_al_azar(x, 1.0), torch.zeros_like(x))
    torch.manual_seed(3)
    primera = apagar_al_azar(torch.ones(5, 7), 0.3)
    torch.manual_seed(3)
    assert torch.equal(primera, apagar_al_azar(torch.ones(5, 7), 0.3))  # la semilla de PyTorch lo fija


def test_el_minigpt_solo_apaga_al_entrenar():
    indices = torch.randint(20, (4, 12), generator=torch.Generator().manual_seed(0))
    con = MiniGPT(20, d_modelo=32, cabezas=4, contexto=12, dropout=0.3).train()
    sin = MiniGPT(20, d_modelo=32, cabezas=4, contexto=12, dropout=0.0).train()
    with torch.no_grad():
        assert not torch.equal(con(indices), con(indices))  # cada pasada apaga otros números
        assert torch.equal(sin(indices), sin(indices))
        con.eval()
        assert torch.equal(con(indices), con(indices))


def _guardar_pesos(modelo, guardar):
    for bloque in modelo.bloques:
        bloque.atencion.guardar_pesos = guardar


def test_apagar_al_azar_sortea_en_la_cpu_en_cualquier_dispositivo(monkeypatch):
    """Fuera de la CPU (aquí, el dispositivo «meta», que no calcula) sortea lo mismo que en ella: el mismo número
    de sorteos del generador de la CPU, y ninguno del dispositivo (F.dropout no se llama)."""
    def prohibido(*args, **kwargs):
        raise AssertionError("apagar_al_azar no debe usar F.dropout: sortearía con el generador del dispositivo")

    monkeypatch.setattr(F, "dropout", prohibido)
    torch.manual_seed(5)
    en_cpu = apagar_al_azar(torch.ones(6, 7), 0.3)
    estado_cpu = torch.get_rng_state()
    torch.manual_seed(5)
    fuera = apagar_al_azar(torch.ones(6, 7, device="meta"), 0.3)
    assert fuera.device.type == "meta" and fuera.shape == en_cpu.shape
    assert torch.equal(torch.get_rng_state(), estado_cpu)  # los mismos sorteos, en el mismo orden
    assert apagar_al_azar(torch.ones(3, device="meta"), 1.0).device.type == "meta"  # p = 1: ceros, allí mismo


def test_el_minigpt_apaga_siempre_con_apagar_al_azar():
    modelo = MiniGPT(20, d_modelo=32, cabezas=4, capas=2, contexto=12, dropout=0.3)
    apagadores = [m for m in modelo.modules() if isinstance(m, torch.nn.Dropout)]
    assert len(apagadores) == 3 and all(isinstance(m, ApagarAlAzar) and m.p == 0.3 for m in apagadores)


def test_el_minigpt_pasa_por_los_bloques_de_la_leccion_07():
    """Un solo camino: el forward del modelo es embeddings + cada `BloqueTransformer` con la máscara causal."""
    torch.manual_seed(0)
    modelo = MiniGPT(20, d_modelo=32, cabezas=4, capas=2, contexto=12).eval()
    assert all(type(b) is BloqueTransformer for b in modelo.bloques)
    indices = torch.randint(20, (2, 9))
    with torch.no_grad():
        x = modelo.tokens(indices) + modelo.posiciones(torch.arange(9))
        for bloque in modelo.bloques:
            x = bloque(x, mascara_causal(9))
        assert torch.equal(modelo.salida(modelo.norma_final(x)), modelo(indices))


def test_atencion_fusionada_igual_a_la_del_curso():
    torch.manual_seed(0)
    bloque = BloqueTransformer(32, 4, 128, activacion="gelu").eval()
    x = torch.randn(3, 10, 32)
    with torch.no_grad():
        del_curso = bloque(x, mascara_causal(10))
        bloque.atencion.guardar_pesos = False
        assert torch.allclose(bloque(x, mascara_causal(10)), del_curso, atol=1e-5)
    modelo = MiniGPT(20, d_modelo=32, cabezas=4, contexto=12).eval()
    assert not any(b.atencion.guardar_pesos for b in modelo.bloques)  # entrena con la fusionada
    indices = torch.randint(20, (2, 12))
    with torch.no_grad():
        fusionada = modelo(indices)
        _guardar_pesos(modelo, True)
        explicita = modelo(indices)
    assert torch.allclose(fusionada, explicita, atol=1e-5)
    # Y hacia atrás: los mismos gradientes por los dos caminos.
    gradientes = []
    for guardar in (False, True):
        _guardar_pesos(modelo, guardar)
        modelo.zero_grad()
        modelo(indices).square().mean().backward()
        gradientes.append(modelo.bloques[0].atencion.qkv.weight.grad.clone())
    assert torch.allclose(*gradientes, atol=1e-5)


def test_pesos_de_atencion():
    torch.manual_seed(0)
    modelo = MiniGPT(20, d_modelo=32, cabezas=4, capas=3, contexto=12).eval()
    indices = torch.randint(20, (2, 7))
    pesos = modelo.pesos_de_atencion(indices)
    assert len(pesos) == 3 and all(p.shape == (2, 4, 7, 7) for p in pesos)
    assert all(p[..., mascara_causal(7)].abs().max() == 0 for p in pesos)  # nadie mira al futuro
    assert torch.allclose(pesos[0].sum(-1), torch.ones(2, 4, 7))
    assert not any(b.atencion.guardar_pesos for b in modelo.bloques)  # vuelve al camino rápido


@pytest.mark.parametrize("posicion", [0, 5, 11])
def test_causalidad(posicion):
    torch.manual_seed(0)
    modelo = MiniGPT(20, d_modelo=32, cabezas=4, contexto=12).eval()
    a = torch.randint(20, (2, 12))
    b = a.clone()
    b[:, posicion] = (b[:, posicion] + 1) % 20  # cambiamos un carácter
    with torch.no_grad():
        la, lb = modelo(a), modelo(b)
    assert torch.equal(la[:, :posicion], lb[:, :posicion])  # el pasado no se entera
    assert (la[:, posicion:] - lb[:, posicion:]).abs().amax(dim=-1).min() > 0  # el presente y el futuro sí


def test_lote_aleatorio_reproducible():
    datos = torch.arange(100)
    x, y = lote_aleatorio(datos, 10, 4, torch.Generator().manual_seed(0))
    x2, _ = lote_aleatorio(datos, 10, 4, torch.Generator().manual_seed(0))
    assert x.shape == y.shape == (4, 10)
    assert torch.equal(y, x + 1) and torch.equal(x, x2)


def test_perdida_en_cubre_cada_caracter():
    torch.manual_seed(0)
    modelo = MiniGPT(7, d_modelo=16, cabezas=2, contexto=5).eval()
    datos = torch.randint(7, (23,))
    esperado = []
    for inicio in range(0, 22, 5):
        x, y = datos[inicio:inicio + 5], datos[inicio + 1:inicio + 6]
        esperado.append(F.cross_entropy(modelo(x[:len(y)].unsqueeze(0))[0], y, reduction="sum"))
    assert perdida_en(modelo, datos) == pytest.approx(torch.stack(esperado).sum().item() / 22, rel=1e-6)


def test_perdida_en_ventanas_y_por_lotes():
    torch.manual_seed(0)
    modelo = MiniGPT(7, d_modelo=16, cabezas=2, contexto=5).eval()
    datos = torch.randint(7, (300,))
    ventanas = ventanas_repartidas(datos, 9, 5)
    assert ventanas.shape == (9, 6) and torch.equal(ventanas[0], datos[:6]) and torch.equal(ventanas[-1], datos[-6:])
    with torch.no_grad():
        esperado = F.cross_entropy(modelo(ventanas[:, :-1]).flatten(0, 1), ventanas[:, 1:].flatten()).item()
    assert perdida_en(modelo, ventanas) == pytest.approx(esperado, rel=1e-5)
    assert perdida_en(modelo, datos, tamano_lote=7) == pytest.approx(perdida_en(modelo, datos), rel=1e-6)
    modelo.train()
    perdida_en(modelo, datos)
    assert modelo.training  # vuelve al modo en que estaba


def test_optimizador_con_dos_grupos():
    modelo = MiniGPT(7, d_modelo=16, cabezas=2, contexto=5)
    decaen, no_decaen = optimizador_adamw(modelo, weight_decay=0.1).param_groups
    assert decaen["weight_decay"] == 0.1 and no_decaen["weight_decay"] == 0.0
    assert all(p.dim() >= 2 for p in decaen["params"]) and all(p.dim() < 2 for p in no_decaen["params"])
    assert len(decaen["params"]) + len(no_decaen["params"]) == len(list(modelo.parameters()))


def test_un_entrenamiento_corto_baja_la_perdida_y_guarda_el_mejor():
    texto = "la atención mira atrás. " * 60
    tokenizador = TokenizadorCaracteres(texto)
    datos = torch.tensor(tokenizador.codificar(texto))
    entrenamiento, validacion = datos[:1200], datos[1200:]
    torch.manual_seed(0)
    modelo = MiniGPT(len(tokenizador), d_modelo=32, cabezas=2, contexto=16, dropout=0.0)
    historial = entrenar_gpt(modelo, entrenamiento, validacion, pasos=150, tamano_lote=16, cada=50, mostrar=False)
    assert historial["pasos"] == [0, 50, 100, 150]
    assert historial["validacion"][0] > math.log(len(tokenizador)) - 0.5
    assert historial["mejor_perdida"] < 0.5 * historial["validacion"][0]
    assert historial["mejor_perdida"] == min(historial["validacion"])
    assert perdida_en(modelo, validacion) == pytest.approx(historial["mejor_perdida"], abs=1e-6)
    assert not modelo.training
    # Las dos pérdidas se miden igual: al principio, sin entrenar, casi coinciden.
    assert historial["entrenamiento"][0] == pytest.approx(historial["validacion"][0], abs=0.2)


def test_parada_temprana():
    datos = torch.randint(5, (400,), generator=torch.Generator().manual_seed(0))  # azar puro: nada que aprender
    torch.manual_seed(0)
    modelo = MiniGPT(5, d_modelo=16, cabezas=2, contexto=8, dropout=0.0)
    historial = entrenar_gpt(modelo, datos[:300], datos[300:], pasos=2000, tamano_lote=8, lr=1e-2, cada=10,
                             paciencia=2, mostrar=False)
    assert historial["pasos"][-1] < 2000 and historial["parada_temprana"]  # paró antes
    assert historial["pasos"][-1] - historial["mejor_paso"] == 20  # dos medidas sin mejorar
    assert perdida_en(modelo, datos[300:]) == pytest.approx(historial["mejor_perdida"], abs=1e-6)  # volvió al mejor


def test_continuar_un_entrenamiento_da_lo_mismo_que_hacerlo_de_una_vez():
    texto = "la atención mira atrás. " * 60
    tokenizador = TokenizadorCaracteres(texto)
    datos = torch.tensor(tokenizador.codificar(texto))
    entrenamiento, validacion = datos[:1200], datos[1200:]
    receta = dict(tamano_lote=8, cada=50, paciencia=3, mostrar=False)

    def nuevo():
        torch.manual_seed(0)
        return MiniGPT(len(tokenizador), d_modelo=32, cabezas=2, contexto=16)  # con dropout: usa el azar global

    torch.manual_seed(1)
    de_una_vez = nuevo()
    entero = entrenar_gpt(de_una_vez, entrenamiento, validacion, pasos=200, **receta)
    torch.manual_seed(1)
    a_trozos = nuevo()
    mitad = entrenar_gpt(a_trozos, entrenamiento, validacion, pasos=120, **receta)  # 120: no es múltiplo de 50
    assert mitad["pasos"] == [0, 50, 100]
    seguido = entrenar_gpt(a_trozos, entrenamiento, validacion, pasos=200, continuar=mitad, **receta)
    assert seguido is mitad  # el mismo historial, alargado
    for clave in ("pasos", "entrenamiento", "validacion", "mejor_paso", "mejor_perdida"):
        assert seguido[clave] == entero[clave]
    assert all(torch.equal(p, q) for p, q in zip(a_trozos.state_dict().values(), de_una_vez.state_dict().values()))
    with pytest.raises(ValueError, match="el total al que llegar"):
        entrenar_gpt(a_trozos, entrenamiento, validacion, pasos=150, continuar=seguido, **receta)


def test_no_se_continua_un_entrenamiento_que_ya_paro():
    datos = torch.randint(5, (400,), generator=torch.Generator().manual_seed(0))
    torch.manual_seed(0)
    modelo = MiniGPT(5, d_modelo=16, cabezas=2, contexto=8, dropout=0.0)
    historial = entrenar_gpt(modelo, datos[:300], datos[300:], pasos=2000, tamano_lote=8, lr=1e-2, cada=10,
                             paciencia=2, mostrar=False)
    assert historial["parada_temprana"]
    with pytest.raises(ValueError, match="ya paró"):
        entrenar_gpt(modelo, datos[:300], datos[300:], pasos=3000, continuar=historial, mostrar=False)


def test_filtrar_top_k():
    logits = torch.tensor([[1.0, 3.0, 2.0, 0.0], [0.0, -1.0, 5.0, 4.0]])
    filtrados = filtrar_top_k(logits, 2)
    assert torch.isinf(filtrados).sum() == 4
    assert torch.equal(filtrados[0, 1:3], logits[0, 1:3]) and torch.equal(filtrados[1, 2:], logits[1, 2:])
    assert torch.equal(filtrar_top_k(logits, None), logits) and torch.equal(filtrar_top_k(logits, 10), logits)
    with pytest.raises(ValueError, match="top_k debe ser al menos 1"):
        filtrar_top_k(logits, 0)


def test_generar_top_k_y_temperatura():
    torch.manual_seed(0)
    modelo = MiniGPT(12, d_modelo=16, cabezas=2, contexto=6).eval()
    inicio = [1, 2, 3]
    voraz = generar(modelo, inicio, 10, top_k=1, generador=torch.Generator().manual_seed(5))
    secuencia = torch.tensor(inicio)
    with torch.no_grad():
        for _ in range(10):  # elegir siempre el más probable, a mano
            siguiente = modelo(secuencia[-6:].unsqueeze(0))[0, -1].argmax()
            secuencia = torch.cat([secuencia, siguiente.view(1)])
    assert torch.equal(voraz, secuencia)
    # Con top-3, cada carácter nuevo está entre los 3 más probables en su momento.
    muestra = generar(modelo, inicio, 15, temperatura=2.0, top_k=3, generador=torch.Generator().manual_seed(1))
    with torch.no_grad():
        for t in range(3, 18):
            mejores = modelo(muestra[max(0, t - 6):t].unsqueeze(0))[0, -1].topk(3).indices
            assert muestra[t] in mejores
    otra = generar(modelo, inicio, 15, temperatura=2.0, top_k=3, generador=torch.Generator().manual_seed(1))
    assert torch.equal(muestra, otra)
    with pytest.raises(ValueError, match="La temperatura debe ser mayor que 0"):
        generar(modelo, inicio, 1, temperatura=0)


def test_generar_texto_y_textos_del_generador():
    tokenizador = TokenizadorCaracteres("abc de")
    torch.manual_seed(0)
    modelo = MiniGPT(len(tokenizador), d_modelo=16, cabezas=2, contexto=4)
    texto = generar_texto(modelo, tokenizador, "ab", longitud=9, semilla=3)
    assert texto.startswith("ab") and len(texto) == 11
    assert texto == texto_para_widget(modelo, tokenizador, "ab", 0.8, 0, 9, semilla=3)
    assert "al menos un carácter" in texto_para_widget(modelo, tokenizador, "", 0.8, 5, 9)
    assert "no están en el vocabulario" in texto_para_widget(modelo, tokenizador, "xyz", 0.8, 5, 9)


def test_probabilidades_y_dibujo_del_escritor():
    import matplotlib.pyplot as plt

    tokenizador = TokenizadorCaracteres("abcdefghij ")
    torch.manual_seed(0)
    modelo = MiniGPT(len(tokenizador), d_modelo=16, cabezas=2, contexto=4)
    p = probabilidades_siguiente(modelo, tokenizador, "abcdefg", temperatura=0.7, top_k=3)
    assert p.shape == (11,) and p.sum().item() == pytest.approx(1.0) and (p > 0).sum() == 3
    with torch.no_grad():  # solo cuentan los últimos 4 caracteres (el contexto)
        esperado = torch.softmax(modelo(torch.tensor([tokenizador.codificar("defg")]))[0, -1] / 0.7, -1)
    assert torch.allclose(probabilidades_siguiente(modelo, tokenizador, "abcdefg", 0.7), esperado, atol=1e-6)
    texto, fig = dibujo_del_escritor(modelo, tokenizador, "ab", 0.8, 3, 5)
    assert len(texto) == 7 and len(fig.axes[0].patches) == 10
    plt.close(fig)
    texto, fig = dibujo_del_escritor(modelo, tokenizador, "xyz", 0.8, 3, 5)
    assert "no están en el vocabulario" in texto and not fig.axes[0].patches
    plt.close(fig)


def test_guardar_y_cargar_pesos(tmp_path):
    torch.manual_seed(0)
    modelo = MiniGPT(10, d_modelo=16, cabezas=2, contexto=4)
    ruta = guardar_pesos(modelo, tmp_path / "pesos.pt")
    antes = ruta.read_bytes()
    with pytest.raises(FileExistsError, match="no quiero borrar tu trabajo"):
        guardar_pesos(MiniGPT(10, d_modelo=16, cabezas=2, contexto=4), ruta)
    assert ruta.read_bytes() == antes
    torch.manual_seed(1)
    copia = cargar_pesos(MiniGPT(10, d_modelo=16, cabezas=2, contexto=4), ruta)
    for a, b in zip(modelo.state_dict().values(), copia.state_dict().values()):
        assert torch.equal(a, b)
    guardar_pesos(copia, ruta, sobrescribir=True)
    with pytest.raises(FileNotFoundError, match="guarda antes los pesos"):
        cargar_pesos(copia, tmp_path / "otro.pt")
    with pytest.raises(ValueError, match=r"otra forma.*tokens.weight: \(10, 16\) en el archivo y \(10, 8\)"):
        cargar_pesos(MiniGPT(10, d_modelo=8, cabezas=2, contexto=4), ruta)
    with pytest.raises(ValueError, match=r"otra forma.*faltan \['bloques.2"):
        cargar_pesos(MiniGPT(10, d_modelo=16, cabezas=2, capas=3, contexto=4), ruta)


def test_escritor_interactivo_como_lo_usa_un_estudiante():
    tokenizador = TokenizadorCaracteres("abc de")
    torch.manual_seed(0)
    modelo = MiniGPT(len(tokenizador), d_modelo=16, cabezas=2, contexto=4)
    panel = EscritorInteractivo(modelo, tokenizador, inicio="ab", temperatura=1.5, top_k=0, longitud=40)
    assert all(not c.continuous_update for c in panel.controles.values())  # se regenera al soltar, no al mover
    primera = panel.texto_plano
    assert primera == texto_para_widget(modelo, tokenizador, "ab", 1.5, 0, 40, semilla=0)
    texto = repr(panel)
    assert texto.startswith("Escritor interactivo: ejecuta la celda para usarlo.")
    assert "«ab»" in texto and "sin filtrar" in texto and primera in texto
    assert panel._repr_mimebundle_()["text/plain"] == texto
    panel.boton.click()  # «Otra muestra»
    assert panel.semilla == 1 and panel.texto_plano != primera and panel.estado.value == "muestra 1"
    panel.controles["inicio"].value = "de"
    assert panel.texto_plano.startswith("de") and len(panel.texto_plano) == 42
    panel.controles["inicio"].value = ""
    assert "al menos un carácter" in panel.texto_plano


def test_el_escritor_interactivo_escribe_con_la_cache():
    tokenizador = TokenizadorCaracteres("abc de")
    torch.manual_seed(0)
    modelo = MiniGPT(len(tokenizador), d_modelo=16, cabezas=2, contexto=8)
    pasadas = []  # cuántas posiciones pasan por el modelo en cada forward
    modelo.tokens.register_forward_hook(lambda capa, entrada, salida: pasadas.append(entrada[0].shape[-1]))
    panel = EscritorInteractivo(modelo, tokenizador, inicio="ab", temperatura=1.2, top_k=0, longitud=20)
    # El comienzo entra una vez y cada carácter nuevo una vez mientras cabe en el contexto (8); después, la ventana
    # que se desliza, entera; al final, las barras del siguiente carácter tras el comienzo. Sin la caché serían
    # 2, 3, 4, 5, 6, 7, 8, 8…
    assert pasadas == [2] + [1] * 6 + [8] * 13 + [2]
    assert panel.texto_plano == texto_para_widget(modelo, tokenizador, "ab", 1.2, 0, 20)  # el mismo texto
    panel.boton.click()
    assert panel.texto_plano == texto_para_widget(modelo, tokenizador, "ab", 1.2, 0, 20, semilla=1)


def test_comprobar_la_leccion_10_no_importa_pyplot():
    codigo = ("import sys\nfrom utilidades.ejercicios import evaluar\nevaluar('10.4', None)\n"
              "print('matplotlib.pyplot' in sys.modules, 'ipywidgets' in sys.modules)")
    salida = subprocess.run([sys.executable, "-c", codigo], capture_output=True, text=True, check=True)
    assert salida.stdout.split() == ["False", "False"]


# --- Ejercicios (la tabla de tests/casos_ejercicios/leccion_10.py prueba el resto) ----------------------


def test_ejercicio_2_mide_la_cabeza_del_caracter_anterior():
    referencias = referencias_10_2()
    anterior = referencias["anterior"]
    assert evaluar("10.2", peso_en_el_anterior).correcto
    assert max(anterior.values()) > 0.5  # alguna cabeza del bloque 0 mira sobre todo al carácter anterior
    # los errores frecuentes dan otros números, lejos de la tolerancia: si no, su pista no podría distinguirlos
    for error in ("el_mismo", "bloque_1", "dos_atras"):
        assert max(abs(referencias[error][h] - anterior[h]) for h in anterior) > 0.1, error
    assert max(abs(referencias["sin_entrenar"][h] - anterior[h]) for h in anterior) > 0.1
    # unos números fijos (los buenos, leídos en algún sitio) no pasan: la función se prueba con otro modelo
    assert not evaluar("10.2", lambda modelo, datos: dict(anterior)).correcto
    assert not evaluar("10.2", dict(anterior)).correcto  # los números sin la función tampoco


def test_ejercicio_5_juzga_con_el_registro_del_estudiante():
    # Otra máquina (una GPU, otro procesador) da otro registro: con registro= se juzga con el suyo.
    registro = {"pasos": [0, 50, 100, 150, 200], "validacion": [4.6, 2.75, 2.70, 2.90, 4.70],
                "entrenamiento": [4.6, 2.6, 2.0, 1.0, 0.3], "parada_temprana": False}
    suyo = math.exp(4.70 - 2.70)
    assert evaluar("10.5", suyo, registro=registro).correcto
    assert evaluar("10.5", torch.tensor(suyo), registro=registro).correcto
    assert not evaluar("10.5", suyo * 1.3, registro=registro).correcto  # un 30 % lejos
    del_curso = math.exp(SOBREAJUSTE["ultima"] - SOBREAJUSTE["mejor"])
    assert evaluar("10.5", del_curso).correcto and not evaluar("10.5", del_curso, registro=registro).correcto
    paso_50 = evaluar("10.5", math.exp(4.70 - 2.75), registro=registro)  # su propio error del paso 50
    assert not paso_50.correcto and "paso 50" in paso_50.mensaje
    que_para = evaluar("10.5", suyo, registro={**registro, "parada_temprana": True})
    assert not que_para.correcto and "sin_parar" in que_para.mensaje
    assert "sin_parar" in evaluar("10.5", suyo, registro=[4.6, 2.7]).mensaje
    with pytest.raises(TypeError, match=r"no recibe registro="):
        evaluar("10.4", 0.45, registro=registro)


def test_peso_en_el_anterior_con_pesos_conocidos():
    class DosCabezas(torch.nn.Module):  # cabeza 0: todo al anterior (o a sí mismo al empezar); 1: todo a sí mismo
        contexto = 4

        def __init__(self):
            super().__init__()
            self.peso = torch.nn.Parameter(torch.zeros(1))

        def pesos_de_atencion(self, trozos):
            n, c = trozos.shape
            al_anterior = torch.diag(torch.ones(c - 1), -1)
            al_anterior[0, 0] = 1
            return [torch.stack([al_anterior, torch.eye(c)]).expand(n, 2, c, c)]

    medias = peso_en_el_anterior(DosCabezas(), torch.arange(10))  # 2 trozos de 4 (sobran 2)
    assert medias == {0: 1.0, 1: 0.0}
    assert peso_en_el_anterior(DosCabezas(), torch.arange(10), desplazamiento=0) == {0: 0.25, 1: 1.0}


def test_ejercicio_3_rechaza_respuestas_inventadas():
    sin, con = diferencias_sin_y_con_posiciones()
    assert sin < 1e-4 < con
    assert evaluar("10.3", (sin, con)).correcto
    assert not evaluar("10.3", (0.0, 1.0)).correcto
    assert not evaluar("10.3", (0.0, 1.3 * con)).correcto


def test_la_referencia_del_banco_es_un_gpt_como_nanogpt():
    from herramientas.banco_gpt import GPTNano, medir_pasos

    torch.manual_seed(0)
    nano = GPTNano(50, d_modelo=32, cabezas=4, capas=3, contexto=16).eval()
    assert nano(torch.randint(50, (2, 16))).shape == (2, 16, 50)
    assert nano.wte.weight is nano.lm_head.weight  # pesos atados
    escalada = torch.cat([b.attn.c_proj.weight.flatten() for b in nano.h]).std().item()
    assert escalada == pytest.approx(0.02 / math.sqrt(6), rel=0.15)  # proyecciones residuales escaladas
    tiempos = medir_pasos(torch.randint(50, (500,)), 50, rondas=1, pasos=1)
    assert len(tiempos) == 3 and all(len(t) == 1 and t[0] > 0 for t in tiempos.values())


def test_las_cotas_del_banco_quitan_solo_su_pieza():
    from herramientas.banco_gpt import MiniGPTSinPiezas, medir_pasos

    x = torch.randint(50, (2, 16))
    torch.manual_seed(0)
    tamano = {"d_modelo": 32, "cabezas": 4, "capas": 2, "contexto": 16}
    entero = MiniGPT(50, **tamano).eval()
    nada = MiniGPTSinPiezas(50, (), **tamano).eval()
    nada.load_state_dict(entero.state_dict())
    assert torch.allclose(nada(x), entero(x), atol=1e-6)  # sin quitar nada, el mismo modelo
    sin_atencion = MiniGPTSinPiezas(50, ("atención",), **tamano).eval()
    otra = x.clone()
    otra[:, 0] = (otra[:, 0] + 1) % 50  # cambia solo el primer carácter
    # Sin atención nada mezcla posiciones: cambiar el primer carácter solo cambia la primera salida.
    assert torch.equal(sin_atencion(otra)[:, 1:], sin_atencion(x)[:, 1:])
    assert not torch.equal(nada(otra)[:, 1:], nada(x)[:, 1:])  # con atención, sí cambia lo que viene después
    sin_gelu = MiniGPTSinPiezas(50, ("GELU",), **tamano)
    assert all(isinstance(b.mlp[1], torch.nn.Identity) for b in sin_gelu.bloques)
    sin_dropout = MiniGPTSinPiezas(50, ("dropout",), **tamano).train()
    assert sin_dropout.dropout.p == 0 and all(b.dropout.p == 0 for b in sin_dropout.bloques)
    assert torch.equal(sin_dropout(x), sin_dropout(x))  # en modo entrenamiento, sin sorteos
    sin_posiciones = MiniGPTSinPiezas(50, ("atención",), posiciones=False, **tamano).eval()
    repetido = sin_posiciones(torch.full((1, 16), 7))  # sin posiciones ni atención, cada salida solo ve su carácter
    assert torch.allclose(repetido, repetido[:, :1].expand_as(repetido))
    with pytest.raises(ValueError, match="No sé quitar"):
        MiniGPTSinPiezas(50, ("LayerNorm",))
    tiempos = medir_pasos(torch.randint(50, (500,)), 50, rondas=1, pasos=1, cotas=True)
    assert len(tiempos) == 7 and sum(nombre.startswith("cota:") for nombre in tiempos) == 4


def test_el_suelo_del_banco_cuenta_las_capas_lineales():
    from herramientas.banco_gpt import flop_de_las_capas_lineales, suelo_de_matrices

    # A mano para el tamaño de la lección: 2048 posiciones; por bloque 2048·96·(288 + 96 + 384) + 2048·384·96
    # productos hacia delante, más la salida 2048·96·109; cada producto son 2 FLOP y el paso entero, 3 veces eso.
    por_bloque = 2048 * 96 * (288 + 96 + 384) + 2048 * 384 * 96
    assert flop_de_las_capas_lineales(109) == 3 * 2 * (2 * por_bloque + 2048 * 96 * 109) == 2_846_490_624
    flop, ms = suelo_de_matrices(50, d_modelo=32, capas=1, contexto=16, tamano_lote=4, repeticiones=2)
    assert flop == flop_de_las_capas_lineales(50, d_modelo=32, capas=1, contexto=16, tamano_lote=4) and ms > 0


def test_el_desglose_del_banco_reparte_todo_el_paso():
    from herramientas.banco_gpt import CATEGORIAS, desglose

    partes = desglose(torch.randint(50, (500,)), 50, pasos=2, tamano_lote=4, contexto=16)
    assert len(partes) == 3
    for tiempos in partes.values():
        assert set(tiempos) == {*CATEGORIAS, "lo demás", "total"}
        assert tiempos["matrices"] > 0 and tiempos["dropout"] > 0 and tiempos["GELU"] > 0
        assert sum(v for c, v in tiempos.items() if c != "total") == pytest.approx(tiempos["total"])


# --- Variantes cercanas a GPT-2 (herramientas/variantes_gpt.py, datos/variantes_gpt.csv) -----------------


def test_la_inicializacion_de_gpt2_escala_las_proyecciones_residuales():
    from herramientas.variantes_gpt import inicializar_como_gpt2

    torch.manual_seed(0)
    modelo = inicializar_como_gpt2(MiniGPT(60, d_modelo=64, capas=4, atar_pesos=True))
    assert modelo.salida.weight is modelo.tokens.weight
    assert modelo.tokens.weight.std().item() == pytest.approx(0.02, rel=0.1)
    residuales = torch.cat([torch.cat([b.atencion.salida.weight.flatten(), b.mlp[-1].weight.flatten()])
                            for b in modelo.bloques])
    assert residuales.std().item() == pytest.approx(0.02 / math.sqrt(8), rel=0.1)
    assert all(b.atencion.qkv.bias.abs().max() == 0 for b in modelo.bloques)


def test_las_variantes_guardadas_corresponden_al_corpus():
    import csv

    from herramientas.medidas import RECETA
    from herramientas.variantes_gpt import ARCHIVO, COLUMNAS, PASOS, SEMILLAS, VARIANTES
    from utilidades.texto import RUTA_CORPUS, TokenizadorCaracteres, leer_corpus

    assert ARCHIVO == RUTA_CORPUS.parent / "variantes_gpt.csv"
    assert ARCHIVO.exists(), "falta datos/variantes_gpt.csv: ejecuta python -m herramientas.variantes_gpt"
    with open(ARCHIVO, encoding="utf-8") as archivo:
        filas = list(csv.DictReader(archivo))
    assert tuple(filas[0]) == COLUMNAS
    assert [(f["variante"], int(f["semilla"])) for f in filas] == [(v, s) for v in VARIANTES for s in SEMILLAS]
    texto = leer_corpus()
    aviso = "el corpus cambió: vuelve a medir con python -m herramientas.variantes_gpt --forzar"
    assert all(int(f["caracteres_corpus"]) == len(texto) for f in filas), aviso
    assert all(int(f["vocabulario"]) == len(TokenizadorCaracteres(texto)) for f in filas), aviso
    assert [(int(f["pasos"]), float(f["lr"])) for f in filas] == [
        (pasos, lr) for _, _, pasos, lr in VARIANTES.values() for _ in SEMILLAS]
    assert PASOS == RECETA["pasos"] and {int(f["pasos"]) for f in filas} == {PASOS, 1000, 3 * PASOS}
    for fila in filas:
        assert 0 < int(fila["mejor_paso"]) <= int(fila["ultimo_paso"]) <= int(fila["pasos"])
        assert int(fila["mejor_paso"]) % 100 == 0 and int(fila["ultimo_paso"]) % 100 == 0
        if int(fila["ultimo_paso"]) < int(fila["pasos"]):  # paró antes: tres medidas seguidas sin mejorar
            assert int(fila["ultimo_paso"]) == int(fila["mejor_paso"]) + 3 * 100
        assert float(fila["mejor_validacion"]) <= float(fila["ultima_validacion"])
        assert 0 < float(fila["entrenamiento_en_mejor"]) < math.log(int(fila["vocabulario"]))
        assert 0 < float(fila["prueba"]) < math.log(int(fila["vocabulario"]))


def test_la_leccion_10_entrena_con_la_receta_de_las_herramientas():
    """La lección, el modelo guardado de la 11 y la tabla de variantes usan los mismos números."""
    import json

    from herramientas.medidas import RECETA

    leccion = pathlib.Path(__file__).resolve().parent.parent / "notebooks" / "10_mini_gpt.ipynb"
    celdas = json.loads(leccion.read_text(encoding="utf-8"))["cells"]
    codigo = "\n".join("".join(c["source"]) for c in celdas if c["cell_type"] == "code")
    lr = f"{RECETA['lr']:.0e}".replace("e-0", "e-")  # 0.004 -> «4e-3», como se escribe en la lección
    assert f"pasos={RECETA['pasos'] // 2}, tamano_lote={RECETA['tamano_lote']}, lr={lr}" in codigo
    assert f"pasos={RECETA['pasos']}, tamano_lote={RECETA['tamano_lote']}" in codigo
    assert optimizador_adamw.__defaults__[0] == RECETA["lr"]


def test_medir_una_variante_da_una_fila_completa():
    from herramientas.variantes_gpt import COLUMNAS, medir

    (fila,) = medir(["sin_dropout"], semillas=[1], pasos=100, mostrar=False)
    assert tuple(fila) == COLUMNAS
    assert fila["variante"] == "sin_dropout" and fila["semilla"] == 1
    assert fila["pasos"] == 100 and fila["mejor_paso"] == 100
    assert float(fila["mejor_validacion"]) < 4.0 and 0 < float(fila["prueba"]) < 4.5
    assert float(fila["entrenamiento_en_mejor"]) < float(fila["mejor_validacion"]) + 0.5 < 4.0


@pytest.mark.parametrize("fuera", [5, -1])
def test_minigpt_con_un_indice_fuera_del_vocabulario(fuera):
    modelo = MiniGPT(5, d_modelo=8, cabezas=2, capas=1, contexto=8)
    for guardar in (False, True):  # las dos atenciones pasan por la misma tabla de tokens
        _guardar_pesos(modelo, guardar)
        with pytest.raises(ValueError, match=rf"Los índices deben ir de 0 a 4 .*pero hay un {fuera}\. "
                                             r".*MiniGPT\(len\(tokenizador\)\)") as error:
            modelo(torch.tensor([[0, 1, fuera]]))
        assert error.value.__suppress_context__  # sin el «index out of range in self» de PyTorch delante
    assert modelo(torch.tensor([[0, 4, 2]])).shape == (1, 3, 5)  # los índices buenos siguen funcionando
