"""Paneles interactivos de las lecciones: controles de ipywidgets (7.7 y 8) unidos a una función que dibuja.

La función recibe los valores de los controles y devuelve (texto, figura). El panel pone el texto en un
`widgets.HTML` y la figura, convertida a PNG, en un `widgets.Image`: nada se imprime en la celda, así que el
cuaderno guarda solo el panel y se puede probar sin navegador leyendo `panel.texto.value`.

Su representación de texto (`repr`) es lo que el panel calculó, en castellano: es lo que muestran JupyterLab,
GitHub y nbviewer antes de ejecutar la celda (los widgets se guardan sin estado) y lo que nbval compara.
"""

import html
import io

import ipywidgets as widgets
import matplotlib.pyplot as plt

from utilidades.graficos import ajustar_a_proyector


def figura_a_png(fig):
    """Devuelve los bytes PNG de una figura de matplotlib y la cierra (para que no se muestre dos veces)."""
    memoria = io.BytesIO()
    ajustar_a_proyector(fig).savefig(memoria, format="png", bbox_inches="tight")
    plt.close(fig)
    return memoria.getvalue()


AVISO = "Panel interactivo: ejecuta la celda para usarlo."


def representacion_de_widget(widget, texto):
    """Datos para mostrar un widget con `texto` como su versión en texto plano, completa (ipywidgets la corta
    a 110 caracteres). Sirve con ipywidgets 8 (`_repr_mimebundle_`) y con el 7.7 de Colab."""
    datos = {"text/plain": texto}
    if widget._view_name is not None:
        datos["application/vnd.jupyter.widget-view+json"] = {
            "version_major": 2, "version_minor": 0, "model_id": widget._model_id}
    return datos


def _mostrar(control):
    """El valor de un control tal como lo ve el estudiante: la etiqueta de un desplegable, no su índice."""
    etiqueta = getattr(control, "label", None)
    return f"«{etiqueta}»" if isinstance(etiqueta, str) and etiqueta else control.value


class Panel(widgets.VBox):
    """Controles arriba, texto y figura debajo; se redibuja cada vez que cambia un control."""

    def __init__(self, controles, dibujar):
        self.controles = dict(controles)
        self.dibujar = dibujar
        self.texto_plano = ""
        self.texto = widgets.HTML()
        self.imagen = widgets.Image(format="png")
        for control in self.controles.values():
            control.observe(self.actualizar, names="value")
        super().__init__([widgets.HBox(list(self.controles.values())), self.texto, self.imagen])
        self.actualizar()

    def valores(self):
        """Diccionario nombre -> valor actual de cada control."""
        return {nombre: control.value for nombre, control in self.controles.items()}

    def actualizar(self, _cambio=None):
        """Llama a `dibujar` con los valores actuales y muestra su texto y su figura."""
        texto, fig = self.dibujar(**self.valores())
        self.texto.value = f"<pre style='font-size: 14px'>{html.escape(texto)}</pre>"
        self.texto_plano = texto
        self.imagen.value = figura_a_png(fig)

    def __repr__(self):
        valores = ", ".join(f"{nombre} = {_mostrar(control)}" for nombre, control in self.controles.items())
        return f"{AVISO} Con {valores}:\n{self.texto_plano}"

    def _repr_mimebundle_(self, **_opciones):
        return representacion_de_widget(self, repr(self))

    def _ipython_display_(self, **_opciones):  # ipywidgets 7.7 (Colab) muestra los widgets por aquí
        from IPython.display import display

        display(representacion_de_widget(self, repr(self)), raw=True)
