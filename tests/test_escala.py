"""Pruebas de la lección 03: escala √d, temperatura, sus paneles interactivos y sus ejercicios."""

import math
import re

import matplotlib.pyplot as plt
import pytest
import torch

from utilidades.atencion import atencion
from utilidades.escala import (
    experimento_de_escala,
    softmax_con_temperatura,
    texto_de_porcentajes,
    vista_de_escala,
    vista_de_temperatura,
)

PUNTAJES = torch.tensor([2.0, 1.0, 0.5, -1.0], dtype=torch.float64)


# --- El experimento de escala ---------------------------------------------------------------------------


def test_experimento_da_las_cifras_del_temario():
    r = experimento_de_escala([2, 64, 512])
    # Cada d con su propio generador de semilla 0 (el temario da ≈ 1.5, 8.0, 23.3 con un solo generador seguido).
    assert [round(r[d]["desviacion_cruda"], 1) for d in (2, 64, 512)] == [1.5, 7.8, 21.9]
    assert [round(r[d]["peso_mayor_crudo"], 2) for d in (2, 64, 512)] == [0.40, 0.88, 0.95]
    assert [round(r[d]["peso_mayor_escalado"], 2) for d in (2, 64, 512)] == [0.32, 0.36, 0.35]
    for d in (2, 64, 512):
        assert abs(r[d]["desviacion_escalada"] - 1) < 0.1


def test_el_deslizador_da_las_cifras_de_la_tabla():
    """El deslizador de d y la tabla de la lección usan los mismos números: mismas cifras para d = 64."""
    r = experimento_de_escala([2, 64, 512])[64]
    texto, fig = vista_de_escala(64)
    plt.close(fig)
    assert f"desviación cruda {r['desviacion_cruda']:.2f}" in texto
    assert f"{r['peso_mayor_crudo']:.2f} sin escalar" in texto


def test_la_desviacion_cruda_crece_como_raiz_de_d():
    r = experimento_de_escala([16, 256], consultas=4000, semilla=3)
    for d in (16, 256):
        assert r[d]["desviacion_cruda"] / math.sqrt(d) == pytest.approx(1, abs=0.1)


def test_experimento_es_reproducible_y_depende_de_la_semilla():
    assert experimento_de_escala([8], semilla=5) == experimento_de_escala([8], semilla=5)
    assert experimento_de_escala([8], semilla=5) != experimento_de_escala([8], semilla=6)


# --- Temperatura ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("T,esperado", [
    (0.25, [0.98, 0.02, 0.00, 0.00]),
    (0.5, [0.84, 0.11, 0.04, 0.00]),
    (1, [0.61, 0.22, 0.14, 0.03]),
    (4, [0.34, 0.27, 0.23, 0.16]),
])
def test_tabla_de_temperaturas_del_temario(T, esperado):
    pesos = softmax_con_temperatura(PUNTAJES, T)
    assert [round(p, 2) for p in pesos.tolist()] == esperado
    assert pesos.sum().item() == pytest.approx(1.0)


def test_temperatura_contra_la_formula_y_el_orden():
    torch.manual_seed(0)
    s = torch.randn(3, 7, dtype=torch.float64)
    for T in (0.1, 0.7, 3.0):
        formula = torch.exp(s / T) / torch.exp(s / T).sum(dim=-1, keepdim=True)
        pesos = softmax_con_temperatura(s, T)
        assert torch.allclose(pesos, formula, atol=1e-12)
        assert torch.equal(pesos.argsort(dim=-1), s.argsort(dim=-1))


def test_temperatura_extremos():
    assert softmax_con_temperatura(PUNTAJES, 1e-3).tolist() == pytest.approx([1, 0, 0, 0], abs=1e-9)
    assert softmax_con_temperatura(PUNTAJES, 1e6).tolist() == pytest.approx([0.25] * 4, abs=1e-5)


def test_dividir_por_raiz_de_d_es_temperatura_raiz_de_d():
    torch.manual_seed(1)
    Q, K, V = torch.randn(4, 32), torch.randn(6, 32), torch.randn(6, 3)
    _, pesos = atencion(Q, K, V)
    assert torch.allclose(pesos, softmax_con_temperatura(Q @ K.T, math.sqrt(32)), atol=1e-6)
    esperado = torch.nn.functional.scaled_dot_product_attention(Q, K, V)
    assert torch.allclose(atencion(Q, K, V)[0], esperado, atol=1e-6)


@pytest.mark.parametrize("T", [0, -1.0])
def test_temperatura_no_positiva_da_error_claro(T):
    with pytest.raises(ValueError, match="La temperatura debe ser positiva"):
        softmax_con_temperatura(PUNTAJES, T)


# --- La lógica de las figuras y de los paneles ---------------------------------------------------------


def test_texto_de_porcentajes():
    assert texto_de_porcentajes([0.5, 0.25, 0.25], ["a", "b", "c"]) == "a 50 % · b 25 % · c 25 %"
    with pytest.raises(ValueError, match="deben coincidir"):
        texto_de_porcentajes([0.5, 0.5], ["a"])


def test_vistas_devuelven_texto_y_figura():
    import matplotlib.pyplot as plt

    texto, fig = vista_de_temperatura(1.0)
    assert texto == "T = 1.00: plata 61 % · sacó 22 % · Ana 14 % · del 3 %"
    plt.close(fig)
    texto, fig = vista_de_escala(64)
    assert texto.startswith("d = 64: desviación cruda")
    assert len(fig.axes) == 2
    plt.close(fig)


def test_el_eje_de_los_puntajes_no_cambia_con_d():
    """La prosa dice que el histograma rojo se ensancha y el azul se queda quieto: eso solo se ve si el eje de los
    puntajes es el mismo en todo el deslizador (antes se ajustaba al rojo y parecía encoger el azul)."""
    import matplotlib.pyplot as plt

    limites = []
    for d in (2, 512):
        _, fig = vista_de_escala(d)
        limites.append(fig.axes[0].get_xlim())
        plt.close(fig)
    assert limites[0] == limites[1]
    assert limites[0][1] > 50  # cabe el rojo de d = 512 (desviación ≈ 22)


def test_panel_de_temperatura_se_actualiza_al_mover_el_deslizador():
    import ipywidgets as widgets

    from utilidades.paneles import Panel

    deslizador = widgets.FloatSlider(value=1.0, min=0.1, max=8.0, step=0.05)
    panel = Panel({"T": deslizador}, vista_de_temperatura)
    assert "plata 61 %" in panel.texto.value
    primera = bytes(panel.imagen.value)
    assert primera.startswith(b"\x89PNG")
    deslizador.value = 0.25
    assert "plata 98 %" in panel.texto.value
    assert bytes(panel.imagen.value) != primera
    deslizador.value = 4.0
    assert panel.texto_plano == "T = 4.00: plata 34 % · sacó 27 % · Ana 23 % · del 16 %"


def test_desviaciones_cruda_y_escalada_con_los_mismos_decimales():
    """Con d = 1 las dos desviaciones son el mismo número: escritas con decimales distintos («1.0» y «0.98»)
    parecían distintas."""
    import matplotlib.pyplot as plt

    texto, fig = vista_de_escala(1)
    plt.close(fig)
    cruda = re.search(r"desviación cruda ([\d.]+)", texto).group(1)
    escalada = re.search(r"escalada ([\d.]+)", texto).group(1)
    assert cruda == escalada, texto


@pytest.mark.parametrize("T", [1, 4, 5, 10, 1000])
def test_rotulo_del_reparto_igual_no_pisa_los_porcentajes(T):
    """El rótulo «reparto igual» del deslizador de T no se escribe encima de ningún porcentaje de las barras: con T
    grande, todas las barras quedan cerca del 25 %, a la altura de la línea."""
    import matplotlib.pyplot as plt

    _, fig = vista_de_temperatura(T)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    ax = fig.axes[0]
    textos = list(ax.texts) + (list(ax.get_legend().get_texts()) if ax.get_legend() else [])
    rotulos = [t for t in textos if t.get_text() == "reparto igual"]
    porcentajes = [t for t in ax.texts if t.get_text().endswith("%")]
    assert rotulos and len(porcentajes) == 4
    rotulo = rotulos[0].get_window_extent(renderer)
    pisados = [t.get_text() for t in porcentajes if rotulo.overlaps(t.get_bbox_patch().get_window_extent(renderer))]
    plt.close(fig)
    assert not pisados, f"con T = {T}, «reparto igual» pisa {pisados}"


@pytest.mark.parametrize("d", [1, 2, 64, 512])
def test_la_leyenda_de_los_puntajes_no_toca_los_histogramas(d):
    """La leyenda del histograma de la sección 6 queda por encima de las barras, con aire: con el eje hasta 3, su
    borde inferior rozaba el pico azul de los puntajes escalados. Con el estilo de las lecciones (letra grande)."""
    from utilidades.graficos import aplicar_estilo

    aplicar_estilo()
    _, fig = vista_de_escala(d)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    ax = fig.axes[0]
    leyenda = ax.get_legend().get_window_extent(renderer)
    margen = 12 * fig.dpi / 72  # unos 12 puntos de aire alrededor de la leyenda
    cajas = [barra.get_window_extent(renderer) for barra in ax.patches if barra.get_height() > 0]
    tocadas = [caja for caja in cajas if caja.x1 > leyenda.x0 - margen and caja.x0 < leyenda.x1 + margen
               and caja.y1 > leyenda.y0 - margen]
    plt.close(fig)
    assert not tocadas, f"con d = {d}, la leyenda toca o casi toca {len(tocadas)} barras de los histogramas"


def test_panel_de_escala_se_actualiza_al_mover_d():
    import ipywidgets as widgets

    from utilidades.paneles import Panel

    deslizador = widgets.IntSlider(value=64, min=1, max=512)
    panel = Panel({"d": deslizador}, vista_de_escala)
    assert panel.texto_plano.startswith("d = 64:")
    deslizador.value = 2
    assert panel.texto_plano.startswith("d = 2:")


# --- Ejercicios --------------------------------------------------------------------------------------
# Soluciones en cualquier tipo, respuestas desviadas, una pista por error frecuente y ninguna pista con la
# respuesta: tests/test_ejercicios_tabla.py con los casos de tests/casos_ejercicios/.


@pytest.mark.parametrize("valor", [0.0595, 0.0582, 0.0597])
def test_03_5_la_pista_de_los_decimales_solo_para_el_redondeo_correcto(valor):
    """«Con dos decimales no basta» es para quien hizo la cuenta bien y redondeó a 0.06; un valor de cuatro
    decimales que no es la cuenta recibe la pista del método."""
    from utilidades.ejercicios import evaluar

    assert "dos decimales" in evaluar("03.5", 0.06).mensaje
    veredicto = evaluar("03.5", valor)
    assert not veredicto.correcto and "dos decimales" not in veredicto.mensaje, veredicto.mensaje


def test_03_4_un_paso_intermedio_redondeado_recibe_su_pista():
    """Quien redondea la temperatura total de A a 34 y sigue bien no recibe una pista que culpe al método."""
    from utilidades.ejercicios import evaluar

    for valor in (34 / math.sqrt(50), 4.81):
        veredicto = evaluar("03.4", valor)
        assert not veredicto.correcto and "paso intermedio" in veredicto.mensaje, (valor, veredicto.mensaje)
    assert evaluar("03.4", 4.8).correcto and evaluar("03.4", 4.80).correcto


def test_el_rojo_de_d_512_se_ve_junto_al_azul():
    """Con d = 512 el histograma rojo (área 1) es muy ancho y bajo: en un eje lineal quedaba en una raya casi plana
    bajo el pico azul. Su pico debe llegar, en la figura, a más de un tercio de la altura a la que llega el azul."""
    import matplotlib.pyplot as plt

    _, fig = vista_de_escala(512)
    ax = fig.axes[0]
    alturas = []
    for contenedor in ax.containers:  # un contenedor de barras por histograma: primero el rojo, luego el azul
        pico = max(barra.get_height() for barra in contenedor)
        alturas.append(ax.transLimits.transform(ax.transScale.transform((0, pico)))[1])  # fracción de la altura
    plt.close(fig)
    rojo, azul = alturas
    assert rojo > azul / 3, f"el pico rojo llega al {rojo:.0%} de la altura del panel y el azul al {azul:.0%}"
