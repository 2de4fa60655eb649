"""Lección 11: la pasada etapa por etapa, sus dibujos y su widget, el formato de los miles y la curva guardada."""

import csv
import math
import re

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
import torch  # noqa: E402

from utilidades.formato import ESPACIO_FINO, miles  # noqa: E402
from utilidades.gpt import MiniGPT, generar_texto  # noqa: E402
from utilidades.texto import RUTA_CORPUS, TokenizadorCaracteres, leer_corpus  # noqa: E402
from utilidades.visualizador import ETAPAS_DE_LA_FUENTE, recorrer, texto_de_la_etapa, visible  # noqa: E402
from utilidades.visualizador_widget import (  # noqa: E402
    EJE_CLAVE,
    EJE_CONSULTA,
    VisualizadorTransformer,
    dibujar_etapa,
    figura_atencion_de_un_bloque,
    figura_de_cerca,
)

TEXTO = "el modelo mira atrás y escribe la letra siguiente.\n"


@pytest.fixture(scope="module")
def tokenizador():
    return TokenizadorCaracteres(TEXTO)


def _modelo(tokenizador, dtype=torch.float64, capas=2, contexto=16, cabezas=2):
    torch.manual_seed(3)
    modelo = MiniGPT(len(tokenizador), d_modelo=16, cabezas=cabezas, capas=capas, contexto=contexto).to(dtype)
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
    assert len(recorrido) == 4 + 12 * 3 + 6
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
    assert "lo construiste en las lecciones 02, 04 y 05" in recorrido.describir(8)
    assert "media 0.00 y desviación 1.00" in recorrido.describir(4)
    assert f"se añade: «el modelo {recorrido.siguiente}»" in recorrido.describir(len(recorrido) - 1)
    resumen = recorrido.resumen().splitlines()
    assert len(resumen) == len(recorrido) and "(cabezas, L, L) = (2, 10, 10)" in resumen[8]
    assert "pesos de atención" in resumen[8] and "fuente  7" in resumen[8]
    assert visible(" ") == "␣" and visible("\n") == "↵" and visible("a") == "a"


def test_top_k_cero_es_sin_filtro(tokenizador):
    # El mando del widget usa 0 para «sin filtro», y la etapa top-k tiene su texto para k = 0: recorrer lo acepta.
    modelo = _modelo(tokenizador)
    sin_filtro = recorrer(modelo, tokenizador, "el mo", temperatura=1.3, top_k=None, semilla=2)
    con_cero = recorrer(modelo, tokenizador, "el mo", temperatura=1.3, top_k=0, semilla=2)
    assert con_cero.top_k is None and con_cero.siguiente == sin_filtro.siguiente
    assert torch.equal(con_cero.probabilidades, sin_filtro.probabilidades)
    assert (con_cero.probabilidades > 0).sum().item() == len(tokenizador)
    assert "Sin filtro (k = 0)" in con_cero.describir(len(con_cero) - 3)
    with pytest.raises(ValueError, match="top_k"):
        recorrer(modelo, tokenizador, "el", top_k=-1)


def test_el_resumen_queda_en_columnas(tokenizador):
    # La forma de «pesos · V por cabeza», (cabezas, L, d_cabeza) = (…), es más larga que las demás: la columna
    # de la forma debe ensancharse con ella, o sus filas empujan la lección fuera de su sitio.
    modelo = _modelo(tokenizador)
    lineas = recorrer(modelo, tokenizador, "el modelo mira").resumen().splitlines()
    assert any("(cabezas, L, d_cabeza)" in linea for linea in lineas)
    columnas = {linea.rindex(" · lecci") for linea in lineas}
    assert len(columnas) == 1, f"la columna de las lecciones empieza en {sorted(columnas)}"


def test_la_cabecera_cuenta_bien_las_etapas(tokenizador):
    # Con N etapas numeradas de 0 a N - 1, la cabecera no puede decir «Etapa 0 de N - 1» (serían N - 1 etapas).
    modelo = _modelo(tokenizador)
    recorrido = recorrer(modelo, tokenizador, "el modelo")
    for indice in (0, 7, len(recorrido) - 1):
        cabecera = recorrido.describir(indice).splitlines()[0]
        numeros = re.match(r"Etapa (\d+) del curso \(de 0 a (\d+)\)", cabecera)
        assert numeros, cabecera
        assert int(numeros[1]) == indice and int(numeros[2]) == len(recorrido) - 1
    assert recorrido.resumen().splitlines()[-1].startswith(f"{len(recorrido) - 1} ·")


def test_etapas_de_la_atencion_una_a_una(tokenizador):
    # Puntajes escalados, con máscara, pesos y pesos · V de cada cabeza: cada etapa es la cuenta de la anterior, y
    # las cabezas, pegadas, dan la etapa «cabezas pegadas» que lee el modelo.
    modelo = _modelo(tokenizador)
    recorrido = recorrer(modelo, tokenizador, "el modelo mira")
    L, H, dc = len(recorrido.caracteres), 2, 8
    futuro = torch.triu(torch.ones(L, L, dtype=torch.bool), diagonal=1)
    for b in range(2):
        etapa = {e.titulo.split(" · ", 1)[1]: e.valor for e in recorrido.etapas if e.bloque == b}
        q, k, v = etapa["Q, K y V"].split(16, dim=-1)
        q, k, v = (t.view(L, H, dc).transpose(0, 1) for t in (q, k, v))  # (cabezas, L, d_cabeza)
        assert torch.allclose(etapa["puntajes QKᵀ/√d"], q @ k.transpose(-2, -1) / math.sqrt(dc), atol=1e-12)
        enmascarados = etapa["puntajes con máscara"]
        assert torch.isneginf(enmascarados[:, futuro]).all() and torch.isfinite(enmascarados[:, ~futuro]).all()
        assert torch.equal(enmascarados[:, ~futuro], etapa["puntajes QKᵀ/√d"][:, ~futuro])
        pesos = etapa["pesos de atención"]
        assert torch.allclose(torch.softmax(enmascarados, dim=-1), pesos, atol=1e-12)
        por_cabeza = etapa["pesos · V por cabeza"]
        assert por_cabeza.shape == (H, L, dc)
        assert torch.allclose(por_cabeza, pesos @ v, atol=1e-12)
        assert torch.equal(por_cabeza.transpose(0, 1).reshape(L, H * dc), etapa["cabezas pegadas"])
    assert "−∞" not in recorrido.describir(6)  # los puntajes escalados todavía no llevan la máscara
    assert "−∞, −∞" in recorrido.describir(7) and f"las {L * (L - 1) // 2} celdas" in recorrido.describir(7)


def test_numeracion_de_la_fuente(tokenizador):
    modelo = _modelo(tokenizador)
    recorrido = recorrer(modelo, tokenizador, "el modelo")
    assert len(ETAPAS_DE_LA_FUENTE) == 13
    assert {e.fuente for e in recorrido.etapas} == set(range(1, 14))  # las 13, ninguna sin etapa del curso
    titulos = {e.titulo: e.fuente for e in recorrido.etapas}
    assert (titulos["bloque 0 · puntajes QKᵀ/√d"], titulos["bloque 0 · puntajes con máscara"],
            titulos["bloque 0 · pesos de atención"], titulos["bloque 0 · pesos · V por cabeza"]) == (5, 6, 7, 8)
    assert recorrido.describir(7).startswith("Etapa 7 del curso (de 0 a 33) · 6 de la fuente (máscara causal)")
    lineas = recorrido.correspondencia().splitlines()
    assert len(lineas) == 13 and lineas[5].endswith("→ etapas 7 y 19") and lineas[0].endswith("→ etapas 0 y 1")


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
    fig, ejes = figura_atencion_de_un_bloque(recorrido, 1)
    assert ejes.size == 2 and [ax.get_title() for ax in ejes.flat] == ["cabeza 0", "cabeza 1"]
    assert "bloque 1" in fig._suptitle.get_text()
    plt.close(fig)
    with pytest.raises(ValueError, match="bloques"):
        figura_atencion_de_un_bloque(recorrido, 2)
    fig, ejes = figura_de_cerca(recorrido, 1, (0,))
    assert [ax.get_title() for ax in ejes.flat] == ["cabeza 0"] and "bloque 1" in fig._suptitle.get_text()
    plt.close(fig)
    with pytest.raises(ValueError, match="bloques"):
        figura_de_cerca(recorrido, 2, (0,))
    with pytest.raises(ValueError, match="cabezas"):
        figura_de_cerca(recorrido, 0, (5,))


def test_con_un_comienzo_largo_los_rotulos_no_se_pisan(tokenizador):
    # Con 40 caracteres, una ficha o un rótulo por carácter no caben: se dibujan los últimos o uno de cada k.
    import io

    from herramientas.revision_figuras import problemas_de_figura
    from utilidades.graficos import aplicar_estilo

    modelo = _modelo(tokenizador, contexto=40)
    comienzo = (TEXTO * 2)[:40]
    recorrido = recorrer(modelo, tokenizador, comienzo)
    with plt.rc_context():
        aplicar_estilo()  # el estilo del curso, como en las lecciones y en el widget
        for i in (0, 1, 4, 5, 6, 7, 9, 10):  # fichas, índices, tablas (L, n), puntajes y pesos · V por cabeza
            fig = dibujar_etapa(recorrido, i)
            fig.savefig(io.BytesIO(), format="png", bbox_inches="tight")  # como el backend inline
            problemas = problemas_de_figura(fig)
            plt.close(fig)
            assert not problemas, f"etapa {i} ({recorrido.etapas[i].titulo}): {problemas[:2]}"


def _rotulos_de_la_figura(fig):
    return fig.get_supylabel(), fig.get_supxlabel()


def test_mapas_de_atencion_con_barra_y_ejes_rotulados(tokenizador):
    # Los puntajes (con máscara) y los pesos de cada cabeza, y los mapas de un bloque: cada figura dice qué es cada
    # eje (consulta en las filas, clave en las columnas) y lleva una barra de color con lo que mide.
    modelo = _modelo(tokenizador, cabezas=4)
    recorrido = recorrer(modelo, tokenizador, "el modelo mira")
    figuras = {"puntajes": dibujar_etapa(recorrido, 6), "puntajes con máscara": dibujar_etapa(recorrido, 7),
               "pesos": dibujar_etapa(recorrido, 8), "bloque": figura_atencion_de_un_bloque(recorrido, 0)[0]}
    for nombre, fig in figuras.items():
        barras = [ax for ax in fig.axes if getattr(ax, "_colorbar", None) is not None]
        assert len(barras) == 1, f"{nombre}: {len(barras)} barras de color"
        esperada = "puntaje" if nombre.startswith("puntajes") else "peso"
        assert barras[0].get_ylabel() == esperada, f"{nombre}: la barra dice «{barras[0].get_ylabel()}»"
        assert _rotulos_de_la_figura(fig) == (EJE_CONSULTA, EJE_CLAVE), nombre
        plt.close(fig)


def test_cuatro_cabezas_de_una_frase_larga_se_leen_proyectadas(tokenizador):
    # 24 caracteres y 4 cabezas: en una rejilla de 2 × 2 y sin encoger, cada mapa mide al menos 3 pulgadas de ancho
    # y 1.7 de alto (antes, 8 mapas de 1.7 pulgadas en una figura); la figura cabe en el proyector tal cual.
    import io

    from utilidades.graficos import ALTO_MAXIMO, ANCHO_MAXIMO, aplicar_estilo

    modelo = _modelo(tokenizador, contexto=24, cabezas=4)
    recorrido = recorrer(modelo, tokenizador, (TEXTO * 2)[:24])
    with plt.rc_context():
        aplicar_estilo()
        fig, ejes = figura_atencion_de_un_bloque(recorrido, 0)
        fig.savefig(io.BytesIO(), format="png", bbox_inches="tight")
        ancho, alto = fig.get_size_inches()
        assert ancho <= ANCHO_MAXIMO and alto <= ALTO_MAXIMO and not hasattr(fig, "_tamano_pedido")
        assert ejes.shape == (2, 2)
        for ax in ejes.flat:
            caja = ax.get_window_extent()
            assert caja.width / fig.dpi >= 3.0 and caja.height / fig.dpi >= 1.7, (caja.width, caja.height)
        plt.close(fig)


def _rotulos_que_se_leen(fig, ejes):
    """Los rótulos de las filas (del primer panel) y de las columnas (de cada panel) y el menor hueco, en píxeles,
    entre dos rótulos vecinos de un mismo eje (negativo si se pisan), con la figura dibujada como en el cuaderno."""
    import io

    fig.savefig(io.BytesIO(), format="png", bbox_inches="tight")
    dibujo = fig.canvas.get_renderer()
    filas = [t for t in ejes.flat[0].get_yticklabels() if t.get_visible() and t.get_text()]
    columnas = [[t for t in ax.get_xticklabels() if t.get_visible() and t.get_text()] for ax in ejes.flat]
    huecos = []
    for marcas, es_y in [(filas, True)] + [(c, False) for c in columnas]:
        cajas = sorted((t.get_window_extent(dibujo) for t in marcas), key=lambda c: c.y0 if es_y else c.x0)
        huecos += [(b.y0 - a.y1) if es_y else (b.x0 - a.x1) for a, b in zip(cajas, cajas[1:])]
    return [t.get_text() for t in filas], [[t.get_text() for t in c] for c in columnas], min(huecos)


def test_los_mapas_de_una_frase_de_24_caracteres_rotulan_cada_caracter(tokenizador):
    # La figura de la sección 5 de la lección: dos cabezas por figura, y cada uno de los 24 caracteres con su rótulo
    # en las filas y en las columnas, sin pisarse (con las cuatro en 2 × 2, solo se rotulaba uno de cada dos y cada
    # «␣» se montaba en el rótulo siguiente). Lo mismo en el primer plano de dos cabezas.
    from herramientas.revision_figuras import problemas_de_figura
    from utilidades.graficos import aplicar_estilo

    modelo = _modelo(tokenizador, contexto=24, cabezas=4)
    frase = "la letra siguiente atrás"  # 24 caracteres, sin letras anchas como la «m»
    recorrido = recorrer(modelo, tokenizador, frase)
    esperados = [visible(c) for c in frase]
    with plt.rc_context():
        aplicar_estilo()
        for cabezas in ((0, 1), (2, 3)):
            fig, ejes = figura_atencion_de_un_bloque(recorrido, 1, cabezas)
            assert [ax.get_title() for ax in ejes.flat] == [f"cabeza {h}" for h in cabezas]
            assert fig._suptitle.get_text().endswith(f"bloque 1 · cabezas {cabezas[0]} y {cabezas[1]}")
            filas, columnas, hueco = _rotulos_que_se_leen(fig, ejes)
            assert filas == esperados and all(c == esperados for c in columnas), (filas, columnas)
            assert hueco > 0, f"dos rótulos vecinos se pisan ({hueco:.1f} px)"
            assert not problemas_de_figura(fig)
            plt.close(fig)
        fig, ejes = figura_de_cerca(recorrido, 0, (2, 3), primeros=8)
        filas, columnas, hueco = _rotulos_que_se_leen(fig, ejes)
        assert filas == esperados[:8] and hueco > 0 and "8 primeros" in fig._suptitle.get_text()
        numeros = [t for ax in ejes.flat for t in ax._numeros_de_celdas]
        assert len(numeros) == 2 * 8 * 9 // 2 and all(t.get_visible() for t in numeros)  # el peso, en cada celda
        assert not problemas_de_figura(fig)
        plt.close(fig)
    with pytest.raises(ValueError, match="cabezas"):
        figura_atencion_de_un_bloque(recorrido, 0, (1, 4))
    with pytest.raises(ValueError, match="al menos 2"):
        figura_de_cerca(recorrido, 0, (2,), primeros=1)


def test_el_sorteado_no_va_en_rojo_y_el_eje_se_ajusta(tokenizador):
    # El rojo es «negativo» en los mapas de la lección: el carácter sorteado va en otro color. Y con
    # probabilidades pequeñas, el eje no llega hasta 1 (las barras quedarían aplastadas abajo).
    from matplotlib.colors import to_hex

    from utilidades.graficos import ACENTO

    modelo = _modelo(tokenizador)
    recorrido = recorrer(modelo, tokenizador, "el mo", temperatura=5.0, top_k=10, semilla=1)
    mayor = float(recorrido.probabilidades.max())
    assert mayor < 0.5
    for indice in (len(recorrido) - 2, len(recorrido) - 1):  # el softmax y el sorteo
        fig = dibujar_etapa(recorrido, indice)
        ax = fig.axes[0]
        assert mayor < ax.get_ylim()[1] <= 1.3 * mayor + 0.05, ax.get_ylim()
        for texto, barra in zip(ax.texts, ax.patches):  # cada porcentaje sigue encima de su barra, dentro del eje
            assert barra.get_height() < texto.get_position()[1] < ax.get_ylim()[1]
        if indice == len(recorrido) - 1:
            colores = {to_hex(barra.get_facecolor()) for barra in ax.patches}
            assert len(colores) == 2 and ACENTO.lower() not in colores, colores
        plt.close(fig)


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
                           f"«{visible(vista.recorrido.siguiente)}» (etapa 0 de 0 a {vista.ultima})")
    assert len(repr(vista)) <= 110  # Jupyter recorta el texto de un widget a 110 caracteres
    vista.comienzo.value = "el modelo mira atrás y escribe"
    assert "«…" in repr(vista) and len(repr(vista)) <= 110


def test_widget_sin_la_letra_a():
    # Los nombres de las etapas se sacan de una pasada de prueba: no puede pedir un carácter que el corpus no tenga.
    tokenizador = TokenizadorCaracteres("xyz .\n")
    modelo = _modelo(tokenizador)
    vista = VisualizadorTransformer(modelo, tokenizador, comienzo="xy z")
    assert vista.texto_plano.startswith("Etapa 0 del curso") and vista.recorrido.comienzo == "xy z"
    assert len(vista.etapa.options) == len(vista.recorrido)


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
    from herramientas import modelo_leccion_11

    assert PASOS == modelo_leccion_11.PASOS  # el punto d_modelo = 96 es el modelo de la lección 11
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
