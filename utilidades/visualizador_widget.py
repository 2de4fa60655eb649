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

from utilidades.graficos import (
    ACENTO,
    ALTO_MAXIMO,
    ANCHO_MAXIMO,
    FONDO_OCULTO,
    GRIS,
    TINTA,
    _reparto_en_filas,
    barras_de_pesos,
    mapa_de_calor,
)
from utilidades.mascaras import mascara_causal
from utilidades.paneles import figura_a_png
from utilidades.visualizador import recorrer, visible

# Negativo en rojo, cero en blanco, positivo en azul tinta: el signo se ve de lejos.
MAPA_SIGNO = LinearSegmentedColormap.from_list("signo_del_curso", [ACENTO, "#ffffff", TINTA])


def _etiquetas(recorrido):
    return [visible(c) for c in recorrido.caracteres]


# Lo que dicen los ejes de un mapa de atención (filas y columnas son caracteres de la frase).
EJE_CONSULTA, EJE_CLAVE = "carácter que mira (consulta)", "carácter mirado (clave)"


def _rejilla(matrices, titulos, etiquetas, titulo, nombre_barra, por_fila=None, oculto=True, alto_de_panel=3.8,
             **colores):
    """Mapas L × L en una rejilla que cabe en un proyector, con los ejes rotulados y una barra de color común.

    Los paneles se reparten en filas como menos encogen en ANCHO_MAXIMO × ALTO_MAXIMO (o `por_fila` por fila), y la
    figura se pide ya de ese tamaño: no hace falta encogerla ni repartirla después. Las filas son el carácter que
    mira (consulta) y las columnas, el mirado (clave), rotulados una vez para toda la figura. Con `oculto=True`, el
    futuro (encima de la diagonal) queda tapado, como en los pesos causales; `colores` pasa a `mapa_de_calor` la
    escala (vmin, vmax, mapa, relleno_oculto) cuando no son pesos entre 0 y 1; `nombre_barra` dice qué mide el
    color. Devuelve (fig, ejes)."""
    L, n = len(etiquetas), len(matrices)
    futuro = mascara_causal(L) if oculto else None
    if por_fila is None:
        por_fila, _ = _reparto_en_filas(n, 3.8, 3.8)
    filas = -(-n // por_fila)
    # Paneles de hasta 3.8 pulgadas, tan anchos y altos como quepan: a lo ancho, con sitio para el rótulo de la
    # izquierda y la barra (1.4 pulgadas); a lo alto, para el título de dos líneas y el rótulo de abajo (1.3).
    ancho = min(3.8, (ANCHO_MAXIMO - 1.4) / por_fila)
    alto = min(alto_de_panel, (ALTO_MAXIMO - 1.3) / filas)
    fig, ejes = plt.subplots(filas, por_fila, figsize=(ancho * por_fila + 1.4, alto * filas + 1.3), squeeze=False)
    for k, (eje, matriz, titulo_del_panel) in enumerate(zip(ejes.flat, matrices, titulos)):
        # Cada mapa lleva la frase en sus dos ejes: con muchas letras, mapa_de_calor deja al dibujar una de cada k
        # marcas, el mismo k en filas y columnas y en todos los paneles.
        mapa_de_calor(matriz, etiquetas, etiquetas, ax=eje, barra=False, oculto=futuro, titulo=titulo_del_panel,
                      **colores)
        # Los caracteres se leen solo en el borde: los de las filas en la primera columna, los de las columnas en
        # el panel de más abajo de cada columna (así los de arriba dejan ese sitio a los mapas).
        eje.tick_params(axis="y", labelleft=k % por_fila == 0)
        eje.tick_params(axis="x", labelbottom=k + por_fila >= n)
        # Las marcas conservan su letra aunque la figura encoja (un carácter de 9 puntos no se lee proyectado):
        # las que no quepan, las quita el aclarado de marcas.
        eje._letra_escalada = True
    for eje in list(ejes.flat)[n:]:
        eje.axis("off")
    fig.suptitle(titulo, fontsize=15)
    fig.supylabel(EJE_CONSULTA, fontsize=13)
    fig.supxlabel(EJE_CLAVE, fontsize=13)
    # La barra común, en una franja que se reserva a la derecha antes de colocar los paneles (como mapas_de_calor).
    fig.tight_layout(rect=(0, 0, 1 - 0.9 / fig.get_size_inches()[0], 1))
    visibles = [eje for eje in ejes.flat if eje.axison]
    abajo, arriba = min(e.get_position().y0 for e in visibles), max(e.get_position().y1 for e in visibles)
    derecha = max(e.get_position().x1 for e in visibles)
    barra = fig.add_axes((derecha + 0.02, abajo, 0.2 / fig.get_size_inches()[0], arriba - abajo), label="<colorbar>")
    fig.colorbar(ejes.flat[0].images[0], cax=barra, label=nombre_barra)
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


COLOR_SORTEADO = "#a35c00"  # ocre, de la paleta del curso: ni el azul (positivo) ni el rojo (negativo) de los mapas


def _dibujar_vector(ax, etapa, recorrido):
    """Barras de los 10 caracteres con el valor más alto (probabilidades, logits…); el sorteado, en ocre."""
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
        # El eje llega un poco por encima de la barra más alta (con sitio para su porcentaje), no hasta 1:
        # unas probabilidades de 0.1 o 0.2 no quedan aplastadas abajo.
        tope = min(1.15, 1.25 * float(alturas.max()) + 0.02)
        ax.set_ylim(0, tope)
        for texto, altura in zip(ax.texts, alturas):  # cada porcentaje, justo encima de su barra en la nueva escala
            texto.set_y(altura + 0.02 * tope)
        if etapa.tipo == "sorteo":
            # El sorteado, en ocre: el rojo ya significa «negativo» en los mapas de colores de esta lección.
            elegido = etapa.extra["indice"]
            for barra, marca, i in zip(ax.patches, ax.get_xticklabels(), indices):
                barra.set_color(COLOR_SORTEADO if i == elegido else TINTA)
                if i == elegido:
                    marca.set_color(COLOR_SORTEADO)
                    marca.set_fontweight("bold")
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
    clave = "arena: −∞ (el futuro)" if enmascarados else "azul positivo · rojo negativo"
    fig, _ = _rejilla(matrices, [f"cabeza {h}" for h in range(etapa.forma[0])], _etiquetas(recorrido),
                      f"{titulo}\n{clave}", "puntaje", oculto=enmascarados, **colores)
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
                          _etiquetas(recorrido), f"{titulo}\nrayadas: las celdas del futuro, que pesan 0", "peso")
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


def _mapas_del_bloque(recorrido, bloque, cabezas):
    """(mapas (cabezas, L, L) del bloque, lista de cabezas pedidas), con un error claro si no existen."""
    mapas = [e for e in recorrido.etapas if e.tipo == "atencion"]
    if not 0 <= bloque < len(mapas):
        raise ValueError(f"El modelo tiene {len(mapas)} bloques (0 a {len(mapas) - 1}); pediste el {bloque}.")
    total = mapas[bloque].forma[0]
    cabezas = list(range(total)) if cabezas is None else list(cabezas)
    for cabeza in cabezas:
        if not 0 <= cabeza < total:
            raise ValueError(f"Cada bloque tiene {total} cabezas (0 a {total - 1}); pediste la {cabeza}.")
    return mapas[bloque].valor.detach().cpu(), cabezas


def _nombrar_cabezas(cabezas):
    return " y ".join(", ".join(str(h) for h in cabezas).rsplit(", ", 1))


def figura_atencion_de_un_bloque(recorrido, bloque, cabezas=None):
    """Las cabezas de un bloque (todas, o las de la lista `cabezas`), repartidas para que cada mapa se lea
    proyectado, con su barra de color; devuelve (fig, ejes).

    Los paneles son tan altos como quepan en el proyector: con dos cabezas en una fila, una frase de 24 caracteres
    lleva el suyo en cada fila y cada columna (con cuatro, en 2 × 2, solo uno de cada dos). Con letras anchas
    juntas, como «mo», los rótulos de las columnas no caben todos y se rotula uno de cada dos en los dos ejes."""
    valores, cabezas = _mapas_del_bloque(recorrido, bloque, cabezas)
    titulo = f"«{''.join(recorrido.caracteres)}» · bloque {bloque}"
    if len(cabezas) < valores.shape[0]:
        titulo += f" · cabeza{'s' if len(cabezas) > 1 else ''} {_nombrar_cabezas(cabezas)}"
    return _rejilla([valores[h] for h in cabezas], [f"cabeza {h}" for h in cabezas], _etiquetas(recorrido),
                    titulo, "peso", alto_de_panel=ALTO_MAXIMO)


def figura_de_cerca(recorrido, bloque, cabezas, primeros=10):
    """Unas cabezas de un bloque de cerca, lado a lado: los `primeros` caracteres, con el peso escrito en cada
    celda; devuelve (fig, ejes)."""
    valores, cabezas = _mapas_del_bloque(recorrido, bloque, cabezas)
    if primeros < 2:
        raise ValueError(f"Pide al menos 2 caracteres de cerca (primeros={primeros}).")
    n = min(primeros, len(recorrido.caracteres))
    titulo = (f"bloque {bloque} de cerca: los {n} primeros caracteres de «{''.join(recorrido.caracteres)}»"
              if n < len(recorrido.caracteres) else f"bloque {bloque} de cerca: «{''.join(recorrido.caracteres)}»")
    return _rejilla([valores[h, :n, :n] for h in cabezas], [f"cabeza {h}" for h in cabezas],
                    _etiquetas(recorrido)[:n], titulo, "peso", alto_de_panel=ALTO_MAXIMO, valores=True)


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
