"""Dibujos y widget del visualizador de la lección 11; la lógica (la pasada etapa por etapa) está en `visualizador`.

El widget funciona con ipywidgets 7.7 (Colab) y 8: un cuadro de texto para el comienzo, un selector de etapa, un
botón «siguiente etapa» y dos mandos del sorteo. Cada control lleva una clase CSS estable (`vis-…`) para que una
prueba en el navegador lo encuentre.
"""

import html

import ipywidgets as widgets
import matplotlib.pyplot as plt
import numpy as np
import torch
from matplotlib.colors import LinearSegmentedColormap

from utilidades.graficos import ACENTO, FONDO_OCULTO, GRIS, TINTA, barras_de_pesos, mapa_de_calor
from utilidades.mascaras import mascara_causal
from utilidades.paneles import figura_a_png
from utilidades.visualizador import recorrer, visible

# Negativo en rojo, cero en blanco, positivo en azul tinta: el signo se ve de lejos.
MAPA_SIGNO = LinearSegmentedColormap.from_list("signo_del_curso", [ACENTO, "#ffffff", TINTA])


def _etiquetas(recorrido):
    return [visible(c) for c in recorrido.caracteres]


def _rejilla(matrices, titulos, etiquetas, por_fila, lado=3.8, oculto=True, **colores):
    """Mapas L × L en una rejilla de tamaño fijo (se lee proyectada aunque la frase sea larga).

    Con `oculto=True`, el futuro (encima de la diagonal) queda tapado, como en los pesos causales; `colores` pasa a
    `mapa_de_calor` la escala (vmin, vmax, mapa, relleno_oculto) cuando no son pesos entre 0 y 1."""
    L = len(etiquetas)
    futuro = mascara_causal(L) if oculto else None
    filas = -(-len(matrices) // por_fila)
    fig, ejes = plt.subplots(filas, por_fila, figsize=(lado * por_fila + 0.6, lado * filas + 0.4), squeeze=False)
    for k, (eje, matriz, titulo) in enumerate(zip(ejes.flat, matrices, titulos)):
        # Cada mapa lleva la frase en sus dos ejes: con muchas letras, mapa_de_calor deja al dibujar una de cada k
        # marcas, el mismo k en filas y columnas y en todos los paneles. Los caracteres de las filas se leen solo en
        # la primera columna (si la rejilla se reparte de nuevo al dibujarse, graficos los pasa a la nueva).
        mapa_de_calor(matriz, etiquetas, etiquetas, ax=eje, barra=False, oculto=futuro, titulo=titulo, **colores)
        if k % por_fila != 0:
            eje.tick_params(axis="y", labelleft=False)
        # Las marcas conservan su letra aunque la figura encoja (un carácter de 9 puntos no se lee proyectado):
        # las que no quepan, las quita el aclarado de marcas.
        eje._letra_escalada = True
    for eje in list(ejes.flat)[len(matrices):]:
        eje.axis("off")
    return fig, ejes


MAXIMO_DE_FILAS_ROTULADAS = 24  # con más caracteres, los rótulos de las filas se pisarían: se rotula uno de cada k


def _alto_de_tabla(L):
    """Alto en pulgadas de una tabla de L filas: crece con L hasta un tope que cabe en una pantalla."""
    return min(max(3.2, 0.32 * L + 1.8), 8.0)


def _rotular_filas(ax, recorrido, con_rotulos=True):
    """Un rótulo por carácter en el eje de las filas; con muchos caracteres, uno de cada k (el mismo k siempre)."""
    etiquetas = _etiquetas(recorrido)
    cada = -(-len(etiquetas) // MAXIMO_DE_FILAS_ROTULADAS)
    filas = list(range(0, len(etiquetas), cada))
    ax.set_yticks(filas)
    ax.set_yticklabels([etiquetas[i] for i in filas] if con_rotulos else [])


MAXIMO_DE_FICHAS = 13  # las fichas que caben a lo ancho; de un comienzo más largo se dibujan las últimas


def _dibujar_fichas(ax, recorrido, con_indices):
    """Una ficha por carácter (y su índice debajo, si se pide); de un comienzo largo, solo los últimos."""
    caracteres = _etiquetas(recorrido)
    primero = max(0, len(caracteres) - MAXIMO_DE_FICHAS)
    caracteres = caracteres[primero:]
    for j, c in enumerate(caracteres):
        ax.add_patch(plt.Rectangle((j + 0.05, 0.05), 0.9, 0.9, facecolor="#eef1f7", edgecolor=TINTA, lw=1.5))
        ax.text(j + 0.5, 0.5, c, ha="center", va="center", fontsize=20, color=TINTA)
        if con_indices:
            ax.text(j + 0.5, -0.35, str(int(recorrido.etapas[1].valor[primero + j])), ha="center", va="center",
                    fontsize=15, color=ACENTO)
    ax.set_xlim(0, max(len(caracteres), 4))
    ax.set_ylim(-0.8 if con_indices else 0, 1.1)
    ax.set_aspect("equal")
    ax.axis("off")


def _dibujar_matriz(ax, etapa, recorrido):
    """Tabla (L, n) con una fila por carácter y el signo en color; separa Q, K, V o las cabezas con líneas."""
    datos = etapa.valor.detach().cpu().double().numpy()
    tope = float(np.abs(datos).max()) or 1.0
    imagen = ax.imshow(datos, cmap=MAPA_SIGNO, vmin=-tope, vmax=tope, aspect="auto", interpolation="nearest")
    _rotular_filas(ax, recorrido)
    ax.set_xlabel(f"columna (0 a {datos.shape[1] - 1})")
    ax.set_ylabel("carácter")
    trozos = 3 if etapa.tipo == "qkv" else etapa.extra.get("trozos")
    if trozos:
        ancho = datos.shape[1] // trozos
        for t in range(1, trozos):
            ax.axvline(t * ancho - 0.5, color=GRIS, lw=2)
        nombres = ["Q", "K", "V"] if etapa.tipo == "qkv" else [f"cabeza {t}" for t in range(trozos)]
        for t, nombre in enumerate(nombres):
            ax.text((t + 0.5) * ancho - 0.5, -0.9, nombre, ha="center", va="bottom", fontsize=13, color=TINTA)
    ax.figure.colorbar(imagen, ax=ax, fraction=0.03, pad=0.02)


def _dibujar_vector(ax, etapa, recorrido):
    """Barras de los 10 caracteres con el valor más alto (probabilidades, logits…); el sorteado, en rojo."""
    valores = etapa.valor.detach().cpu().double()
    caracteres = etapa.extra.get("vocabulario")
    if etapa.tipo == "sorteo":
        valores, caracteres = recorrido.probabilidades.detach().cpu().double(), recorrido.etapas[-2].extra[
            "vocabulario"]
    validos = torch.where(torch.isfinite(valores), valores, torch.full_like(valores, -np.inf))
    mejores = torch.topk(validos, min(10, len(valores)))
    indices = [i for i, x in zip(mejores.indices.tolist(), mejores.values.tolist()) if np.isfinite(x)]
    etiquetas = [visible(caracteres[i]) for i in indices]
    alturas = valores[indices].numpy()
    if etapa.tipo == "sorteo" or etapa.extra.get("probabilidades"):
        barras_de_pesos(alturas, etiquetas, ax=ax)
        ax.set_ylabel("probabilidad")
        if etapa.tipo == "sorteo":
            elegido = etapa.extra["indice"]
            for barra, i in zip(ax.patches, indices):
                barra.set_color(ACENTO if i == elegido else GRIS)
    else:
        ax.bar(range(len(alturas)), alturas, color=[TINTA if x >= 0 else ACENTO for x in alturas])
        ax.axhline(0, color=GRIS, lw=1)
        ax.set_xticks(range(len(alturas)))
        ax.set_xticklabels(etiquetas)
        ax.set_ylabel("valor")
    ax.set_xlabel("los caracteres con el valor más alto")


def _dibujar_puntajes(etapa, recorrido, titulo):
    """Los puntajes de cada cabeza, (cabezas, L, L), con el signo en color; con máscara, el −∞ en color arena."""
    valores = etapa.valor.detach().cpu().double()
    finitos = valores[torch.isfinite(valores)]
    tope = float(finitos.abs().max()) if finitos.numel() else 1.0
    enmascarados = bool(etapa.extra.get("enmascarados"))
    matrices = [torch.nan_to_num(m, neginf=0.0) for m in valores]  # las celdas −∞ van tapadas: su valor no se pinta
    colores = {"vmin": -tope, "vmax": tope, "mapa": MAPA_SIGNO}
    if enmascarados:
        colores["relleno_oculto"] = FONDO_OCULTO
    fig, _ = _rejilla(matrices, [f"cabeza {h}" for h in range(etapa.forma[0])], _etiquetas(recorrido),
                      etapa.forma[0], oculto=enmascarados, **colores)
    clave = "arena: −∞ (el futuro)" if enmascarados else "azul positivo · rojo negativo"
    fig.suptitle(f"{titulo}\n{clave}", fontsize=15)
    fig.tight_layout()
    return fig


def _dibujar_cabezas(etapa, recorrido, titulo):
    """pesos · V de cada cabeza, (cabezas, L, d_cabeza): una tabla por cabeza, separadas, antes de pegarlas."""
    valores = etapa.valor.detach().cpu().double().numpy()
    tope = float(np.abs(valores).max()) or 1.0
    cabezas, L, _ = valores.shape
    fig, ejes = plt.subplots(1, cabezas, figsize=(11, _alto_de_tabla(L)), squeeze=False)
    for h, ax in enumerate(ejes[0]):
        imagen = ax.imshow(valores[h], cmap=MAPA_SIGNO, vmin=-tope, vmax=tope, aspect="auto",
                           interpolation="nearest")
        ax.set_title(f"cabeza {h}")
        _rotular_filas(ax, recorrido, con_rotulos=h == 0)
    ejes[0, 0].set_ylabel("carácter")
    fig.supxlabel(f"columna de cada cabeza (0 a {valores.shape[2] - 1})")
    fig.colorbar(imagen, ax=list(ejes[0]), fraction=0.03, pad=0.02)
    fig.suptitle(titulo, fontsize=15)
    return fig


def dibujar_etapa(recorrido, indice):
    """Figura de la etapa `indice` de un `Recorrido`: fichas, tabla de colores, mapas de atención o barras."""
    etapa = recorrido.etapas[indice]
    titulo = f"{indice} (fuente {etapa.fuente}) · {etapa.titulo} · forma {etapa.forma}"
    L = len(recorrido.caracteres)
    if etapa.tipo == "puntajes":
        return _dibujar_puntajes(etapa, recorrido, titulo)
    if etapa.tipo == "cabezas":
        return _dibujar_cabezas(etapa, recorrido, titulo)
    if etapa.tipo == "atencion":
        fig, _ = _rejilla(list(etapa.valor.detach().cpu()), [f"cabeza {h}" for h in range(etapa.forma[0])],
                          _etiquetas(recorrido), etapa.forma[0])
        fig.suptitle(titulo, fontsize=15)
        fig.tight_layout()
        return fig
    if etapa.tipo in ("caracteres", "indices"):
        fig, ax = plt.subplots(figsize=(max(6.0, 0.75 * min(L, MAXIMO_DE_FICHAS) + 1), 2.2))
        _dibujar_fichas(ax, recorrido, etapa.tipo == "indices")
        if L > MAXIMO_DE_FICHAS:
            titulo += f" · los últimos {MAXIMO_DE_FICHAS} de {L}"
    elif etapa.tipo in ("matriz", "qkv"):
        fig, ax = plt.subplots(figsize=(11, _alto_de_tabla(L)))
        _dibujar_matriz(ax, etapa, recorrido)
    else:
        fig, ax = plt.subplots(figsize=(9, 3.6))
        _dibujar_vector(ax, etapa, recorrido)
    ax.set_title(titulo, pad=24 if etapa.tipo == "qkv" or etapa.extra.get("trozos") else 6)
    return fig


def figura_atencion_completa(recorrido):
    """Todos los bloques y cabezas de un recorrido: una fila por bloque, una columna por cabeza (causal)."""
    mapas = [e for e in recorrido.etapas if e.tipo == "atencion"]
    cabezas = mapas[0].forma[0]
    matrices = [m.valor[h].detach().cpu() for m in mapas for h in range(cabezas)]
    titulos = [f"bloque {m.bloque} · cabeza {h}" for m in mapas for h in range(cabezas)]
    fig, ejes = _rejilla(matrices, titulos, _etiquetas(recorrido), cabezas)
    fig.suptitle(f"«{''.join(recorrido.caracteres)}»: fila = carácter que mira (consulta), "
                 f"columna = carácter mirado (clave)", fontsize=15)
    fig.tight_layout()
    return fig, ejes


def figura_una_cabeza(recorrido, bloque, cabeza):
    """Una sola cabeza de cerca, con el peso escrito en cada celda si las celdas son lo bastante anchas."""
    mapas = [e for e in recorrido.etapas if e.tipo == "atencion"]
    if not 0 <= bloque < len(mapas):
        raise ValueError(f"El modelo tiene {len(mapas)} bloques (0 a {len(mapas) - 1}); pediste el {bloque}.")
    cabezas = mapas[bloque].forma[0]
    if not 0 <= cabeza < cabezas:
        raise ValueError(f"Cada bloque tiene {cabezas} cabezas (0 a {cabezas - 1}); pediste la {cabeza}.")
    L = len(recorrido.caracteres)
    futuro = mascara_causal(L)
    etiquetas = _etiquetas(recorrido)
    return mapa_de_calor(mapas[bloque].valor[cabeza].detach().cpu(), etiquetas, etiquetas, valores=True,
                         oculto=futuro, titulo=f"bloque {bloque} · cabeza {cabeza}",
                         etiqueta_filas="carácter que mira (consulta)", etiqueta_columnas="carácter mirado (clave)")


class VisualizadorTransformer(widgets.VBox):
    """Widget: escribe un comienzo y recorre la pasada del mini-GPT etapa a etapa.

    Con el botón «siguiente etapa» se avanza; en la última etapa, el botón añade el carácter sorteado al comienzo y
    vuelve a la primera. `texto_plano` guarda lo que muestra el texto, para leerlo desde Python.
    """

    def __init__(self, modelo, tokenizador, comienzo="El modelo ", temperatura=0.8, top_k=10, semilla=0):
        self.modelo, self.tokenizador, self.semilla = modelo, tokenizador, semilla
        self.recorrido = None
        self.texto_plano = ""
        self._quieto = False  # True mientras cambiamos varios controles a la vez
        self.comienzo = widgets.Text(value=comienzo, description="comienzo", continuous_update=False)
        self.temperatura = widgets.FloatSlider(value=temperatura, min=0.1, max=2.0, step=0.1,
                                               description="temperatura")
        self.top_k = widgets.IntSlider(value=top_k or 0, min=0, max=len(tokenizador), description="top-k")
        # Los títulos solo dependen del modelo: basta con una pasada de un carácter que seguro está en el vocabulario.
        etapas = recorrer(modelo, tokenizador, tokenizador.caracteres[0]).etapas
        opciones = [(f"{i} · {e.titulo} (fuente {e.fuente})", i) for i, e in enumerate(etapas)]
        self.etapa = widgets.Dropdown(options=opciones, value=0, description="etapa")
        self.siguiente = widgets.Button(description="siguiente etapa", button_style="primary")
        self.texto = widgets.HTML()
        self.imagen = widgets.Image(format="png")
        for control, clase in ((self.comienzo, "vis-prompt"), (self.etapa, "vis-etapa"),
                               (self.siguiente, "vis-siguiente"), (self.temperatura, "vis-temperatura"),
                               (self.top_k, "vis-top-k"), (self.texto, "vis-texto"), (self.imagen, "vis-imagen")):
            control.add_class(clase)
        for control in (self.comienzo, self.temperatura, self.top_k, self.etapa):
            control.observe(self.actualizar, names="value")
        self.siguiente.on_click(self.avanzar)
        super().__init__([widgets.HBox([self.comienzo, self.etapa, self.siguiente]),
                          widgets.HBox([self.temperatura, self.top_k]), self.texto, self.imagen])
        self.actualizar()

    @property
    def ultima(self):
        """Índice de la última etapa (el carácter sorteado)."""
        return len(self.etapa.options) - 1

    def avanzar(self, _boton=None):
        """Pasa a la etapa siguiente; desde la última, añade el carácter sorteado y vuelve a empezar."""
        if self.etapa.value < self.ultima:
            self.etapa.value += 1
            return
        if self.recorrido is None:  # un comienzo no válido: no hay carácter que añadir
            return
        self._quieto = True
        try:
            self.comienzo.value += self.recorrido.siguiente
            self.etapa.value = 0
        finally:
            self._quieto = False
        self.actualizar()

    def actualizar(self, _cambio=None):
        """Recalcula la pasada con los valores de los controles y muestra el texto y la figura de la etapa."""
        if self._quieto:
            return
        try:
            self.recorrido = recorrer(self.modelo, self.tokenizador, self.comienzo.value, self.temperatura.value,
                                      self.top_k.value or None, self.semilla)
        except ValueError as error:
            self.recorrido = None
            self.texto_plano = str(error)
            fig, ax = plt.subplots(figsize=(6, 1))
            ax.axis("off")
        else:
            aviso = (f"(Solo caben {self.modelo.contexto} caracteres: el modelo lee los últimos.)\n"
                     if self.recorrido.recortado else "")
            self.texto_plano = aviso + self.recorrido.describir(self.etapa.value)
            fig = dibujar_etapa(self.recorrido, self.etapa.value)
        self.texto.value = f"<pre style='font-size: 14px; white-space: pre-wrap'>{html.escape(self.texto_plano)}</pre>"
        self.imagen.value = figura_a_png(fig)

    def __repr__(self):
        # Corto a propósito: Jupyter recorta el texto de un widget a 110 caracteres.
        if self.recorrido is None:
            return f"Visualizador: ejecuta la celda para usarlo. {self.texto_plano}"
        comienzo = self.comienzo.value if len(self.comienzo.value) <= 20 else "…" + self.comienzo.value[-19:]
        return (f"Visualizador: ejecuta la celda para usarlo. «{comienzo}» → sale "
                f"«{visible(self.recorrido.siguiente)}» (etapa {self.etapa.value} de 0 a {self.ultima})")
