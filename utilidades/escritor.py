"""El escritor interactivo de la lección 10: escribe con el mini-GPT y enseña las opciones del siguiente carácter.

La lógica es Python normal (`texto_para_widget`, `dibujo_del_escritor`); `EscritorInteractivo` solo la une a
unos controles. Vive aparte de `utilidades.gpt` para que el modelo no dependa de matplotlib ni de ipywidgets.
"""

import html

import ipywidgets as widgets
import matplotlib.pyplot as plt

from utilidades.cache import ModeloConCache
from utilidades.gpt import generar_texto, probabilidades_siguiente
from utilidades.graficos import barras_de_pesos
from utilidades.paneles import figura_a_png, representacion_de_widget


def texto_para_widget(modelo, tokenizador, inicio, temperatura, top_k, longitud, semilla=0):
    """Lo que muestra el escritor interactivo: el texto generado, o el motivo por el que no se puede."""
    if not inicio:
        return "Escribe al menos un carácter para empezar."
    try:
        return generar_texto(modelo, tokenizador, inicio, longitud, temperatura, top_k or None, semilla)
    except ValueError as error:
        return str(error)


def dibujo_del_escritor(modelo, tokenizador, inicio, temperatura, top_k, longitud, semilla=0):
    """(texto, figura) del escritor interactivo: lo generado y las 10 opciones más probables tras `inicio`."""
    texto = texto_para_widget(modelo, tokenizador, inicio, temperatura, top_k, longitud, semilla)
    fig, ax = plt.subplots(figsize=(8, 3.4))
    if not inicio or set(inicio) - set(tokenizador.indice):
        ax.axis("off")  # sin un comienzo válido no hay nada que dibujar
        return texto, fig
    probabilidades = probabilidades_siguiente(modelo, tokenizador, inicio, temperatura, top_k or None)
    mejores = probabilidades.topk(min(10, len(probabilidades)))  # vocabularios de menos de 10, también
    etiquetas = [{" ": "␣", "\n": "↵"}.get(c, c) for c in tokenizador.decodificar(mejores.indices)]
    barras_de_pesos(mejores.values, etiquetas, ax=ax, titulo=f"¿Qué carácter sigue a «{inicio[-15:]}»?")
    ax.set_ylabel("probabilidad")
    ax.set_ylim(0, min(1.15, 1.3 * float(mejores.values.max()) + 0.08))  # que las barras llenen el panel
    return texto, fig


class EscritorInteractivo(widgets.VBox):
    """Comienzo, temperatura, top-k y longitud; «Otra muestra» sortea de nuevo con la semilla siguiente.

    Escribir tarda un momento, así que no se regenera en cada movimiento: los deslizadores actúan al soltarlos y el
    comienzo al pulsar Intro (o al salir de la casilla). Escribe con la caché de la lección 12 (`ModeloConCache`):
    el mismo texto que `generar_texto` con el modelo solo, más deprisa mientras el texto cabe en el contexto (pasado
    el contexto la ventana se desliza y cada paso pasa la ventana entera, con caché o sin ella).
    """

    def __init__(self, modelo, tokenizador, inicio="El modelo ", temperatura=0.8, top_k=20, longitud=200):
        self.modelo, self.tokenizador = modelo, tokenizador
        self.semilla = 0
        self.texto_plano = ""
        self.controles = {
            "inicio": widgets.Text(value=inicio, description="comienzo", continuous_update=False),
            "temperatura": widgets.FloatSlider(value=temperatura, min=0.1, max=2.0, step=0.1,
                                               description="temperatura", continuous_update=False),
            "top_k": widgets.IntSlider(value=top_k, min=0, max=len(tokenizador), description="top-k",
                                       continuous_update=False),
            "longitud": widgets.IntSlider(value=longitud, min=20, max=600, step=20, description="longitud",
                                          continuous_update=False),
        }
        self.boton = widgets.Button(description="Otra muestra", tooltip="sortea otro texto con la semilla siguiente")
        self.boton.on_click(self.otra_muestra)
        self.estado = widgets.Label()
        self.texto = widgets.HTML()
        self.imagen = widgets.Image(format="png")
        for control in self.controles.values():
            control.observe(self.actualizar, names="value")
        for widget, clase in ((self.controles["inicio"], "gen-comienzo"), (self.boton, "gen-otra"),
                              (self.estado, "gen-estado"), (self.texto, "gen-texto")):
            widget.add_class(clase)  # nombres estables para la prueba en el navegador
        c = self.controles
        super().__init__([widgets.HBox([c["inicio"], c["temperatura"]]), widgets.HBox([c["top_k"], c["longitud"]]),
                          widgets.HBox([self.boton, self.estado]), self.texto, self.imagen])
        self.actualizar()

    def valores(self):
        """Diccionario nombre -> valor actual de cada control."""
        return {nombre: control.value for nombre, control in self.controles.items()}

    def otra_muestra(self, _boton=None):
        """Sortea otro texto con los mismos mandos: la semilla siguiente."""
        self.semilla += 1
        self.actualizar()

    def actualizar(self, _cambio=None):
        """Genera con los valores actuales y muestra el texto y las barras del siguiente carácter."""
        self.estado.value = "Escribiendo…"
        # Una caché nueva en cada respuesta: si entre dos respuestas los pesos cambian, no queda nada viejo.
        con_cache = ModeloConCache(self.modelo)
        texto, fig = dibujo_del_escritor(con_cache, self.tokenizador, semilla=self.semilla, **self.valores())
        self.texto_plano = texto
        self.texto.value = f"<pre style='font-size: 14px; white-space: pre-wrap'>{html.escape(texto)}</pre>"
        self.imagen.value = figura_a_png(fig)
        self.estado.value = f"muestra {self.semilla}"

    def __repr__(self):
        v = self.valores()
        return (f"Escritor interactivo: ejecuta la celda para usarlo. Con el comienzo «{v['inicio']}», "
                f"temperatura {v['temperatura']}, top-k {v['top_k'] or 'sin filtrar'}, {v['longitud']} caracteres "
                f"y la muestra {self.semilla}, escribió:\n{self.texto_plano}")

    def _repr_mimebundle_(self, **_opciones):
        return representacion_de_widget(self, repr(self))

    def _ipython_display_(self, **_opciones):  # ipywidgets 7.7 (Colab) muestra los widgets por aquí
        from IPython.display import display

        display(representacion_de_widget(self, repr(self)), raw=True)
