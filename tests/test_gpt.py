"""Pruebas del mini-GPT: parámetros, causalidad, entrenamiento, generación, pesos y ejercicios (lección 10)."""

import math

import pytest
import torch
import torch.nn.functional as F

from utilidades.bloques import BloqueTransformer
from utilidades.ejercicios import evaluar
from utilidades.ejercicios.leccion_10 import _referencia_sorteo
from utilidades.gpt import (
    MiniGPT,
    cargar_pesos,
    contar_parametros,
    dibujo_del_generador,
    entrenar_gpt,
    filtrar_top_k,
    generar,
    generar_texto,
    guardar_pesos,
    lote_aleatorio,
    parametros_por_formula,
    perdida_en,
    probabilidades_siguiente,
    texto_para_widget,
)
from utilidades.texto import TokenizadorCaracteres, leer_corpus


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


def test_parada_temprana():
    datos = torch.randint(5, (400,), generator=torch.Generator().manual_seed(0))  # azar puro: nada que aprender
    torch.manual_seed(0)
    modelo = MiniGPT(5, d_modelo=16, cabezas=2, contexto=8, dropout=0.0)
    historial = entrenar_gpt(modelo, datos[:300], datos[300:], pasos=2000, tamano_lote=8, lr=1e-2, cada=10,
                             paciencia=2, mostrar=False)
    assert historial["pasos"][-1] < 2000  # paró antes
    assert historial["pasos"][-1] - historial["mejor_paso"] == 20  # dos medidas sin mejorar


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


def test_generar_texto_y_widget():
    tokenizador = TokenizadorCaracteres("abc de")
    torch.manual_seed(0)
    modelo = MiniGPT(len(tokenizador), d_modelo=16, cabezas=2, contexto=4)
    texto = generar_texto(modelo, tokenizador, "ab", longitud=9, semilla=3)
    assert texto.startswith("ab") and len(texto) == 11
    assert texto == texto_para_widget(modelo, tokenizador, "ab", 0.8, 0, 9, semilla=3)
    assert "al menos un carácter" in texto_para_widget(modelo, tokenizador, "", 0.8, 5, 9)
    assert "no están en el vocabulario" in texto_para_widget(modelo, tokenizador, "xyz", 0.8, 5, 9)


def test_probabilidades_y_dibujo_del_generador():
    import matplotlib.pyplot as plt

    tokenizador = TokenizadorCaracteres("abcdefghij ")
    torch.manual_seed(0)
    modelo = MiniGPT(len(tokenizador), d_modelo=16, cabezas=2, contexto=4)
    p = probabilidades_siguiente(modelo, tokenizador, "abcdefg", temperatura=0.7, top_k=3)
    assert p.shape == (11,) and p.sum().item() == pytest.approx(1.0) and (p > 0).sum() == 3
    with torch.no_grad():  # solo cuentan los últimos 4 caracteres (el contexto)
        esperado = torch.softmax(modelo(torch.tensor([tokenizador.codificar("defg")]))[0, -1] / 0.7, -1)
    assert torch.allclose(probabilidades_siguiente(modelo, tokenizador, "abcdefg", 0.7), esperado, atol=1e-6)
    texto, fig = dibujo_del_generador(modelo, tokenizador, "ab", 0.8, 3, 5)
    assert len(texto) == 7 and len(fig.axes[0].patches) == 10
    plt.close(fig)
    texto, fig = dibujo_del_generador(modelo, tokenizador, "xyz", 0.8, 3, 5)
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


# --- Ejercicios -------------------------------------------------------------------------------------


def _vocabulario():
    return len(TokenizadorCaracteres(leer_corpus()))


def test_ejercicio_1():
    V = _vocabulario()
    assert evaluar("10.1", [contar_parametros(MiniGPT(V, cabezas=h)) for h in (1, 2, 4, 8)]).correcto
    assert not evaluar("10.1", [248_064] * 4).correcto or V == 94
    assert not evaluar("10.1", [1, 2, 3, 4]).correcto
    assert not evaluar("10.1", ...).correcto


def test_ejercicio_2():
    assert evaluar("10.2", {1: 2.3, 2: 2.25, 4: 2.2, 8: 2.3}).correcto
    assert not evaluar("10.2", {1: 2.3, 2: 2.25, 4: 2.2}).correcto
    assert not evaluar("10.2", {1: 4.5, 2: 2.25, 4: 2.2, 8: 2.3}).correcto
    assert not evaluar("10.2", ...).correcto


def test_ejercicio_3():
    V = _vocabulario()
    tokenizador = TokenizadorCaracteres(leer_corpus())
    diferencias = []
    for posiciones in (False, True):
        torch.manual_seed(0)
        modelo = MiniGPT(V, capas=1, posiciones=posiciones).eval()
        with torch.no_grad():
            a = modelo(torch.tensor([tokenizador.codificar("abc")]))[0, -1]
            b = modelo(torch.tensor([tokenizador.codificar("bac")]))[0, -1]
        diferencias.append((a - b).abs().max().item())
    assert evaluar("10.3", tuple(diferencias)).correcto
    assert not evaluar("10.3", (diferencias[1], diferencias[1])).correcto
    assert not evaluar("10.3", (0.0, 0.0)).correcto
    assert not evaluar("10.3", ...).correcto


def test_ejercicio_4():
    assert evaluar("10.4", _referencia_sorteo).correcto
    assert not evaluar("10.4", lambda logits, t, k=None: torch.softmax(logits, -1)).correcto
    assert not evaluar("10.4", lambda logits, t, k=None: torch.softmax(logits / t, -1)).correcto
    assert not evaluar("10.4", lambda logits, t, k=None: None).correcto
    assert not evaluar("10.4", ...).correcto


def test_ejercicio_5():
    V = _vocabulario()
    parametros = contar_parametros(MiniGPT(V, d_modelo=128, capas=3, dropout=0.0))
    assert evaluar("10.5", (parametros, math.exp(5.13) / math.exp(2.81))).correcto
    assert not evaluar("10.5", (parametros, 5.13 / 2.81)).correcto
    assert not evaluar("10.5", (parametros + 1000, math.exp(5.13) / math.exp(2.81))).correcto
    assert not evaluar("10.5", ...).correcto
