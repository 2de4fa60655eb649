"""Lección 11: la pasada etapa por etapa, sus dibujos y su widget, el formato de los miles y la curva guardada."""

import csv

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
import torch  # noqa: E402

from utilidades.formato import ESPACIO_FINO, miles  # noqa: E402
from utilidades.gpt import MiniGPT, generar_texto  # noqa: E402
from utilidades.texto import RUTA_CORPUS, TokenizadorCaracteres, leer_corpus  # noqa: E402
from utilidades.visualizador import recorrer, texto_de_la_etapa, visible  # noqa: E402
from utilidades.visualizador_widget import (  # noqa: E402
    VisualizadorTransformer,
    dibujar_etapa,
    figura_atencion_completa,
    figura_una_cabeza,
)

TEXTO = "el modelo mira atrás y escribe la letra siguiente.\n"


@pytest.fixture(scope="module")
def tokenizador():
    return TokenizadorCaracteres(TEXTO)


def _modelo(tokenizador, dtype=torch.float64, capas=2, contexto=16):
    torch.manual_seed(3)
    modelo = MiniGPT(len(tokenizador), d_modelo=16, cabezas=2, capas=capas, contexto=contexto).to(dtype)
    with torch.no_grad():  # pesos de LayerNorm distintos de 1 y 0, para que γ y β cuenten en la prueba
        for nombre, p in modelo.named_parameters():
            if "norma" in nombre:
                p.add_(0.3 * torch.randn(p.shape, dtype=dtype))
    return modelo.eval()


# --- miles ---------------------------------------------------------------------------------------------


def test_miles_con_espacio_fino():
    assert miles(49984) == f"49{ESPACIO_FINO}984"
    assert miles(124_439_808) == f"124{ESPACIO_FINO}439{ESPACIO_FINO}808"
    assert miles(-1_234_567) == f"-1{ESPACIO_FINO}234{ESPACIO_FINO}567"
    assert miles(10_000) == f"10{ESPACIO_FINO}000"
    assert "," not in miles(1_000_000)


def test_miles_cuatro_cifras_y_decimales():
    assert miles(1024) == "1024" and miles(999) == "999"
    assert miles(1024, cuatro_cifras=True) == f"1{ESPACIO_FINO}024"
    assert miles(1234.567, 2) == "1234.57"  # el decimal sigue siendo el punto
    assert miles(12345.5, 1) == f"12{ESPACIO_FINO}345.5"


def test_miles_acepta_numpy_y_tensores():
    assert miles(np.int64(49984)) == miles(49984) == miles(torch.tensor(49984)) == miles(49984.0)


def test_miles_errores_claros():
    with pytest.raises(TypeError, match="necesita un número"):
        miles("49984")
    with pytest.raises(TypeError, match="necesita un número"):
        miles(True)
    with pytest.raises(ValueError, match="decimales"):
        miles(3.5, -1)


# --- la pasada etapa por etapa -------------------------------------------------------------------------


def test_la_pasada_a_mano_da_los_logits_del_modelo(tokenizador):
    modelo = _modelo(tokenizador)
    recorrido = recorrer(modelo, tokenizador, "el modelo mira", top_k=5)
    indices = torch.tensor([tokenizador.codificar("el modelo mira")])
    with torch.no_grad():
        esperado = modelo(indices)[0]
    assert recorrido.logits.shape == esperado.shape
    assert torch.allclose(recorrido.logits, esperado, rtol=0, atol=1e-10)


def test_tambien_con_la_atencion_del_curso_y_en_float32(tokenizador):
    modelo = _modelo(tokenizador, torch.float32)
    indices = torch.tensor([tokenizador.codificar("la letra")])
    recorrido = recorrer(modelo, tokenizador, "la letra")
    with torch.no_grad():
        assert torch.allclose(recorrido.logits, modelo(indices)[0], atol=1e-5)
        for bloque in modelo.bloques:  # el modelo puede pasar con la atención fusionada o con la del curso
            bloque.atencion.guardar_pesos = True
        assert torch.allclose(recorrido.logits, modelo(indices)[0], atol=1e-5)


def test_etapas_formas_y_lecciones(tokenizador):
    modelo = _modelo(tokenizador, capas=3)
    recorrido = recorrer(modelo, tokenizador, "mira")
    assert len(recorrido) == 4 + 9 * 3 + 6
    assert [e.titulo for e in recorrido.etapas[:4]] == ["caracteres", "índices", "embeddings de los caracteres",
                                                        "+ posiciones"]
    assert recorrido.etapas[-1].titulo == "carácter sorteado"
    atencion = [e for e in recorrido.etapas if e.tipo == "atencion"]
    assert [e.bloque for e in atencion] == [0, 1, 2]
    for etapa in atencion:
        assert etapa.forma == (2, 4, 4)
        futuro = torch.triu(torch.ones(4, 4, dtype=torch.bool), diagonal=1)
        assert etapa.valor[:, futuro].abs().max().item() == 0.0
        assert torch.allclose(etapa.valor.sum(-1), torch.ones(2, 4, dtype=torch.float64))
    formas = {e.titulo: e.forma for e in recorrido.etapas}
    assert formas["bloque 0 · Q, K y V"] == (4, 48) and formas["bloque 2 · MLP (GELU)"] == (4, 64)
    assert formas["logits del siguiente carácter"] == (len(tokenizador),)
    assert all(e.lecciones and all(len(x) == 2 for x in e.lecciones) for e in recorrido.etapas)


def test_el_sorteo_es_el_de_generar(tokenizador):
    modelo = _modelo(tokenizador)
    for semilla in range(5):
        recorrido = recorrer(modelo, tokenizador, "el mo", temperatura=1.3, top_k=6, semilla=semilla)
        generado = generar_texto(modelo, tokenizador, "el mo", longitud=1, temperatura=1.3, top_k=6, semilla=semilla)
        assert generado == "el mo" + recorrido.siguiente
        assert (recorrido.probabilidades > 0).sum().item() == 6
        assert recorrido.probabilidades[tokenizador.indice[recorrido.siguiente]] > 0


def test_temperatura_y_top_k_en_sus_etapas(tokenizador):
    modelo = _modelo(tokenizador)
    recorrido = recorrer(modelo, tokenizador, "el", temperatura=0.5, top_k=None)
    logits, escalados, filtrados = (e.valor for e in recorrido.etapas[-5:-2])
    assert torch.allclose(escalados, logits / 0.5)
    assert torch.equal(filtrados, escalados)  # sin top-k, nada se filtra
    assert "Sin filtro" in recorrido.describir(len(recorrido) - 3)


def test_textos_de_las_etapas(tokenizador):
    modelo = _modelo(tokenizador)
    recorrido = recorrer(modelo, tokenizador, "el modelo ")
    assert "«e» «l» «␣»" in recorrido.describir(0)
    assert "lo construiste en las lecciones 02, 04 y 05" in recorrido.describir(6)
    assert "media 0.00 y desviación 1.00" in recorrido.describir(4)
    assert f"se añade: «el modelo {recorrido.siguiente}»" in recorrido.describir(len(recorrido) - 1)
    resumen = recorrido.resumen().splitlines()
    assert len(resumen) == len(recorrido) and "(cabezas, L, L) = (2, 10, 10)" in resumen[6]
    assert visible(" ") == "␣" and visible("\n") == "↵" and visible("a") == "a"


def test_comienzo_mas_largo_que_el_contexto(tokenizador):
    modelo = _modelo(tokenizador, contexto=8)
    recorrido = recorrer(modelo, tokenizador, "el modelo mira atrás")
    assert recorrido.recortado and "".join(recorrido.caracteres) == "el modelo mira atrás"[-8:]
    assert texto_de_la_etapa(modelo, tokenizador, "el modelo mira atrás", 0).startswith("(Solo caben 8 caracteres")


def test_errores_claros(tokenizador):
    modelo = _modelo(tokenizador)
    with pytest.raises(ValueError, match="al menos un carácter"):
        recorrer(modelo, tokenizador, "")
    with pytest.raises(ValueError, match="no están en el vocabulario"):
        recorrer(modelo, tokenizador, "☃")
    with pytest.raises(ValueError, match="mayor que 0"):
        recorrer(modelo, tokenizador, "el", temperatura=0)
    with pytest.raises(IndexError, match="etapas"):
        recorrer(modelo, tokenizador, "el").describir(99)
    assert "no están en el vocabulario" in texto_de_la_etapa(modelo, tokenizador, "☃", 0)


# --- dibujos y widget ----------------------------------------------------------------------------------


def test_cada_etapa_se_dibuja(tokenizador):
    modelo = _modelo(tokenizador)
    recorrido = recorrer(modelo, tokenizador, "el modelo")
    for i in range(len(recorrido)):
        fig = dibujar_etapa(recorrido, i)
        assert fig.axes and str(i) in fig.axes[0].get_title() + (fig._suptitle.get_text() if fig._suptitle else "")
        plt.close(fig)
    fig, ejes = figura_atencion_completa(recorrido)
    assert ejes.shape == (2, 2)
    plt.close(fig)
    fig, ax = figura_una_cabeza(recorrido, 1, 0)
    assert ax.get_title() == "bloque 1 · cabeza 0"
    plt.close(fig)
    with pytest.raises(ValueError, match="bloques"):
        figura_una_cabeza(recorrido, 2, 0)
    with pytest.raises(ValueError, match="cabezas"):
        figura_una_cabeza(recorrido, 0, 5)


def test_widget_avanza_y_escribe(tokenizador):
    modelo = _modelo(tokenizador)
    vista = VisualizadorTransformer(modelo, tokenizador, comienzo="el ", top_k=3)
    clases = {"vis-prompt": vista.comienzo, "vis-etapa": vista.etapa, "vis-siguiente": vista.siguiente,
              "vis-temperatura": vista.temperatura, "vis-top-k": vista.top_k, "vis-texto": vista.texto,
              "vis-imagen": vista.imagen}
    for clase, control in clases.items():
        assert clase in control._dom_classes
    assert vista.texto_plano.startswith("Etapa 0 de") and bytes(vista.imagen.value).startswith(b"\x89PNG")
    vista.avanzar()
    assert vista.etapa.value == 1 and "índices" in vista.texto_plano
    esperado = recorrer(modelo, tokenizador, "el ", top_k=3).siguiente
    vista.etapa.value = vista.ultima
    assert "sale «" in vista.texto_plano
    vista.avanzar()  # desde la última etapa: añade el carácter y vuelve a empezar
    assert vista.comienzo.value == "el " + esperado and vista.etapa.value == 0
    assert repr(vista) == (f"Visualizador: ejecuta la celda para usarlo. «el {esperado}» → sale "
                           f"«{visible(vista.recorrido.siguiente)}» (etapa 0 de {vista.ultima})")
    assert len(repr(vista)) <= 110  # Jupyter recorta el texto de un widget a 110 caracteres
    vista.comienzo.value = "el modelo mira atrás y escribe"
    assert "«…" in repr(vista) and len(repr(vista)) <= 110


def test_widget_con_un_comienzo_no_valido(tokenizador):
    modelo = _modelo(tokenizador)
    vista = VisualizadorTransformer(modelo, tokenizador, comienzo="el")
    vista.comienzo.value = "☃"
    assert "no están en el vocabulario" in vista.texto_plano and "no están en el vocabulario" in repr(vista)
    vista.etapa.value = vista.ultima
    vista.avanzar()  # sin carácter sorteado, el botón no añade nada
    assert vista.comienzo.value == "☃"
    vista.comienzo.value = ""
    assert vista.texto_plano == "Escribe al menos un carácter para empezar."
    vista.top_k.value = 0  # 0 en el mando = sin filtrar
    vista.comienzo.value = "el"
    assert vista.recorrido.top_k is None and vista.recorrido.comienzo == "el"


# --- la curva tamaño–pérdida guardada ------------------------------------------------------------------


def test_la_curva_guardada_corresponde_al_corpus():
    from herramientas.curva_tamanos import ARCHIVO, COLUMNAS, PASOS, TAMANOS

    assert ARCHIVO == RUTA_CORPUS.parent / "curva_tamanos.csv"
    assert ARCHIVO.exists(), "falta datos/curva_tamanos.csv: ejecuta python -m herramientas.curva_tamanos"
    with open(ARCHIVO, encoding="utf-8") as archivo:
        filas = list(csv.DictReader(archivo))
    assert tuple(filas[0]) == COLUMNAS
    assert [int(f["d_modelo"]) for f in filas] == list(TAMANOS)
    texto = leer_corpus()
    aviso = "el corpus cambió: vuelve a medir con python -m herramientas.curva_tamanos --forzar"
    assert all(int(f["caracteres_corpus"]) == len(texto) for f in filas), aviso
    assert all(int(f["vocabulario"]) == len(TokenizadorCaracteres(texto)) for f in filas), aviso
    assert all(int(f["pasos"]) == PASOS for f in filas)
    parametros = [int(f["parametros"]) for f in filas]
    assert parametros == sorted(parametros)


# --- los pesos guardados de la lección 11 --------------------------------------------------------------


def test_los_pesos_guardados_corresponden_al_corpus():
    from herramientas.modelo_leccion_11 import ARCHIVO, PASOS
    from utilidades.visualizador import RUTA_MODELO, cargar_mini_gpt

    assert ARCHIVO == RUTA_MODELO
    tokenizador = TokenizadorCaracteres(leer_corpus())
    modelo, datos = cargar_mini_gpt(tokenizador)  # falla con un mensaje claro si el corpus cambió
    assert next(modelo.parameters()).dtype == torch.float64 and not modelo.training
    assert datos["pasos"] == PASOS and datos["caracteres_corpus"] == len(leer_corpus())
    assert modelo.tokens.weight.shape[0] == len(tokenizador)


def test_cargar_pesos_errores_claros(tmp_path, tokenizador):
    from utilidades.visualizador import cargar_mini_gpt

    with pytest.raises(FileNotFoundError, match="herramientas.modelo_leccion_11"):
        cargar_mini_gpt(tokenizador, tmp_path / "no_existe.pt")
    modelo = MiniGPT(len(tokenizador) + 1, d_modelo=16, cabezas=2, capas=1, contexto=8)
    ruta = tmp_path / "otro.pt"
    torch.save({"estado": modelo.state_dict(), "caracteres": "".join(tokenizador.caracteres) + "☃",
                "configuracion": {"d_modelo": 16, "cabezas": 2, "capas": 1, "contexto": 8}}, ruta)
    with pytest.raises(ValueError, match="otro vocabulario"):
        cargar_mini_gpt(tokenizador, ruta)
