"""El panel interactivo: su texto plano es lo que calculó (lo que se ve antes de ejecutar y lo que nbval compara)."""

import ipywidgets as widgets
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from IPython.core.interactiveshell import InteractiveShell  # noqa: E402

from utilidades.paneles import AVISO, Panel  # noqa: E402

WIDGET = "application/vnd.jupyter.widget-view+json"


def _dibujar(T):
    fig, ejes = plt.subplots()
    ejes.plot([0, 1], [0, T])
    return f"con T = {T:.2f} el peso mayor es {1 / (1 + T):.3f}; " + "texto largo " * 20, fig


def _panel():
    return Panel({"T": widgets.FloatSlider(value=1.0, min=0.1, max=8.0, description="T")}, _dibujar)


def test_el_texto_plano_es_lo_calculado_y_completo():
    panel = _panel()
    texto = repr(panel)
    assert texto.startswith(AVISO) and "T = 1.0" in texto and "el peso mayor es 0.500" in texto
    assert len(texto) > 200 and not texto.endswith("…"), "ipywidgets corta a 110 caracteres; el panel no debe"
    assert "children=" not in texto and "FloatSlider" not in texto
    panel.controles["T"].value = 3.0
    assert "el peso mayor es 0.250" in repr(panel) and "T = 3.0" in repr(panel)


def test_se_muestra_como_widget_con_su_texto():
    panel = _panel()
    datos = panel._repr_mimebundle_()
    assert datos["text/plain"] == repr(panel)
    assert datos[WIDGET]["model_id"] == panel.model_id


def test_el_kernel_publica_el_texto_y_el_widget(capsys):
    """Lo que ve el cuaderno: IPython muestra el panel con su texto completo y la vista del widget."""
    publicados = []
    shell = InteractiveShell.instance()
    original = shell.display_pub.publish
    shell.display_pub.publish = lambda data, *a, **k: publicados.append(data)
    try:
        from IPython.display import display

        display(_panel())
    finally:
        shell.display_pub.publish = original
    assert publicados, "no se publicó nada"
    datos = publicados[-1]
    assert datos["text/plain"].startswith(AVISO) and WIDGET in datos


def test_un_desplegable_se_muestra_por_su_etiqueta():
    frases = widgets.Dropdown(options=[("Ana sacó plata del banco", 0), ("el perro ladra", 1)], value=1)
    panel = Panel({"frase": frases}, lambda frase: (f"frase número {frase}", plt.figure()))
    assert "frase = «el perro ladra»" in repr(panel) and "frase número 1" in repr(panel)
