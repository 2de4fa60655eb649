"""Paneles interactivos de las lecciones: controles de ipywidgets (7.7 y 8) unidos a una función que dibuja.

La función recibe los valores de los controles y devuelve (texto, figura). El panel pone el texto en un
`widgets.HTML` y la figura, convertida a PNG, en un `widgets.Image`: nada se imprime en la celda, así que el
cuaderno guarda solo el panel y se puede probar sin navegador leyendo `panel.texto.value`.
"""

import html
import io

import ipywidgets as widgets
import matplotlib.pyplot as plt


def figura_a_png(fig):
    """Devuelve los bytes PNG de una figura de matplotlib y la cierra (para que no se muestre dos veces)."""
    memoria = io.BytesIO()
    fig.savefig(memoria, format="png", bbox_inches="tight")
    plt.close(fig)
    return memoria.getvalue()


class Panel(widgets.VBox):
    """Controles arriba, texto y figura debajo; se redibuja cada vez que cambia un control."""

    def __init__(self, controles, dibujar):
        self.controles = dict(controles)
        self.dibujar = dibujar
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
