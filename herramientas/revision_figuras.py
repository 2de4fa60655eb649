"""Revisa que una figura de matplotlib se lea en un proyector tal como se guarda en el cuaderno.

`problemas_de_figura(fig)` dibuja la figura (sin tocar lo que ya se guardó) y devuelve una lista de frases en
castellano, vacía si todo está bien:

- dos textos visibles (marcas de los ejes, títulos, nombres de los ejes, anotaciones, leyendas, números escritos en
  las celdas, título general, barra de color) cuyas cajas, ya giradas, se pisan;
- un texto que se sale de la imagen guardada (o de su recorte, si el texto se recorta a los ejes);
- una letra de menos de LETRA_MINIMA_PX píxeles en la imagen guardada;
- una imagen guardada de más de ANCHO_MAXIMO_PX píxeles de ancho.

`instalar(registro)` se ejecuta dentro de un kernel (ver tests/conftest.py): cada figura que el kernel guarda o
muestra se revisa después de guardarse (lo guardado no cambia) y sus problemas se añaden, en una línea JSON, al
archivo `registro`.
"""

import io
import json
import math
import os

import numpy as np

LETRA_MINIMA_PX = 11
ANCHO_MAXIMO_PX = 900
HOLGURA_PX = 1.0  # dos cajas que se tocan en menos de esto no cuentan como pisadas
MAXIMO_POR_TIPO = 6  # cuántos casos de cada tipo se describen (los demás se cuentan)


def _caja_sin_girar(texto, renderer):
    """(ancho, alto) en píxeles del texto sin girar, medido con una copia suelta (el original no cambia)."""
    from matplotlib.text import Text

    copia = Text(0, 0, texto.get_text(), fontproperties=texto.get_fontproperties(), rotation=0,
                 linespacing=texto.get_linespacing() if hasattr(texto, "get_linespacing") else None)
    copia.set_usetex(texto.get_usetex())
    copia.set_parse_math(texto.get_parse_math())
    copia.set_figure(texto.get_figure(root=True))
    caja = copia.get_window_extent(renderer)
    return caja.width, caja.height


def _esquinas(texto, renderer):
    """Las cuatro esquinas (4, 2) de la caja del texto en píxeles, giradas como se dibuja."""
    caja = texto.get_window_extent(renderer)
    angulo = texto.get_rotation() % 180
    if min(angulo % 90, 90 - angulo % 90) < 0.5:
        return np.array([[caja.x0, caja.y0], [caja.x1, caja.y0], [caja.x1, caja.y1], [caja.x0, caja.y1]])
    ancho, alto = _caja_sin_girar(texto, renderer)
    centro = np.array([(caja.x0 + caja.x1) / 2, (caja.y0 + caja.y1) / 2])
    c, s = math.cos(math.radians(angulo)), math.sin(math.radians(angulo))
    giro = np.array([[c, -s], [s, c]])
    base = np.array([[-ancho, -alto], [ancho, -alto], [ancho, alto], [-ancho, alto]]) / 2
    return centro + base @ giro.T


def _se_pisan(a, b, holgura=HOLGURA_PX):
    """¿Se pisan dos rectángulos (quizá girados) en más de `holgura` píxeles? (teorema del eje separador)."""
    for poligono in (a, b):
        for k in range(2):
            lado = poligono[k + 1] - poligono[k]
            normal = np.array([-lado[1], lado[0]])
            largo = np.hypot(*normal)
            if largo == 0:
                return False
            normal = normal / largo
            pa, pb = a @ normal, b @ normal
            if min(pa.max(), pb.max()) - max(pa.min(), pb.min()) <= holgura:
                return False
    return True


def _nombres_de_textos(fig):
    """{id(texto): descripción} para decir en los mensajes qué texto es cada uno."""
    nombres = {}
    if getattr(fig, "_suptitle", None) is not None:
        nombres[id(fig._suptitle)] = "título general"
    for ax in fig.axes:
        panel = next((t.get_text() for t in (ax.title, ax._left_title, ax._right_title) if t.get_text()), "")
        donde = f" del panel «{panel}»" if panel else ""
        for t in (ax.title, ax._left_title, ax._right_title):
            nombres[id(t)] = "título"
        for eje, letra in ((ax.xaxis, "x"), (ax.yaxis, "y")):
            nombres[id(eje.label)] = f"nombre del eje {letra}{donde}"
            nombres[id(eje.offsetText)] = f"factor del eje {letra}{donde}"
            for tick in eje.get_major_ticks() + eje.get_minor_ticks():
                for t in (tick.label1, tick.label2):
                    nombres[id(t)] = f"marca del eje {letra}{donde}"
        leyenda = ax.get_legend()
        if leyenda is not None:
            for t in leyenda.get_texts() + [leyenda.get_title()]:
                nombres[id(t)] = f"leyenda{donde}"
        for t in getattr(ax, "_numeros_de_celdas", []):  # los que escribe utilidades.graficos.mapa_de_calor
            nombres[id(t)] = f"número de una celda{donde}"
        for t in ax.texts:
            nombres.setdefault(id(t), f"texto{donde}")
    for leyenda in fig.legends:
        for t in leyenda.get_texts() + [leyenda.get_title()]:
            nombres[id(t)] = "leyenda de la figura"
    return nombres


def _describir(texto, nombres):
    contenido = " ".join(texto.get_text().split())
    if len(contenido) > 40:
        contenido = contenido[:37] + "…"
    return f"«{contenido}» ({nombres.get(id(texto), 'texto')})"


def _dibujar_anotando_textos(fig):
    """Dibuja la figura con un renderizador propio y devuelve (renderer, textos que de verdad se dibujaron)."""
    from matplotlib.backends.backend_agg import RendererAgg
    from matplotlib.text import Text

    ancho, alto = fig.bbox.size
    renderer = RendererAgg(int(math.ceil(ancho)), int(math.ceil(alto)), fig.dpi)
    dibujados = []
    original = Text.draw

    def dibujar(texto, r):
        resultado = original(texto, r)
        if r is renderer and texto.get_visible() and texto.get_text().strip() and texto.get_alpha() != 0:
            dibujados.append(texto)
        return resultado

    Text.draw = dibujar
    try:
        fig.draw(renderer)
    finally:
        Text.draw = original
    unicos = list({id(t): t for t in dibujados}.values())
    return renderer, unicos


def _resumir(tipo, casos):
    if len(casos) <= MAXIMO_POR_TIPO:
        return [f"{tipo}: {c}" for c in casos]
    return [f"{tipo}: {c}" for c in casos[:MAXIMO_POR_TIPO]] + [
        f"{tipo}: … y {len(casos) - MAXIMO_POR_TIPO} casos más como esos"
    ]


def problemas_de_figura(fig, *, dpi=None, bbox_inches="tight", pad_inches=None):
    """Lista de problemas (frases) de `fig` guardada con esos `dpi` y `bbox_inches`; vacía si se lee bien.

    Los valores por omisión son los del backend `inline` de Jupyter: dpi de la figura y recorte «tight».
    """
    import matplotlib

    if not fig.axes and not fig.texts:
        return []  # el backend inline no muestra una figura vacía
    if dpi is None:
        dpi = matplotlib.rcParams["savefig.dpi"]
    if dpi == "figure":
        dpi = fig.dpi
    if bbox_inches is None and matplotlib.rcParams["savefig.bbox"] == "tight":
        bbox_inches = "tight"  # como hace savefig cuando no se le dice nada
    escala = dpi / fig.dpi  # de los píxeles de la figura a los de la imagen guardada
    renderer, textos = _dibujar_anotando_textos(fig)
    nombres = _nombres_de_textos(fig)

    # La zona que se guarda, en píxeles de la figura.
    if bbox_inches == "tight":
        if pad_inches in (None, "layout"):
            pad_inches = matplotlib.rcParams["savefig.pad_inches"]
        caja = fig.get_tightbbox(renderer).padded(pad_inches)
        x0, y0, x1, y1 = (v * fig.dpi for v in caja.extents)
    elif bbox_inches in (None, "standard"):
        x0, y0, x1, y1 = fig.bbox.extents
    else:
        x0, y0, x1, y1 = (v * fig.dpi for v in bbox_inches.extents)

    problemas = []
    ancho_guardado = (x1 - x0) * escala
    if ancho_guardado > ANCHO_MAXIMO_PX + 0.5:
        problemas.append(
            f"la imagen guardada mide {ancho_guardado:.0f} píxeles de ancho (máximo {ANCHO_MAXIMO_PX}): "
            "no cabe en el proyector sin reducirse"
        )

    pequenas = []
    for t in textos:
        px = t.get_fontsize() * dpi / 72
        if px < LETRA_MINIMA_PX - 1e-6:
            pequenas.append(f"{_describir(t, nombres)} mide {px:.1f} px")
    problemas += _resumir(f"letra de menos de {LETRA_MINIMA_PX} px en la imagen guardada", pequenas)

    cortados = []
    for t in textos:
        c = t.get_window_extent(renderer)
        limites = [(x0, y0, x1, y1)]
        if t.get_clip_on() and t.get_clip_box() is not None:
            limites.append(t.get_clip_box().extents)
        for a0, b0, a1, b1 in limites:
            if (c.x0 < a0 - HOLGURA_PX or c.y0 < b0 - HOLGURA_PX or c.x1 > a1 + HOLGURA_PX
                    or c.y1 > b1 + HOLGURA_PX):
                cortados.append(_describir(t, nombres))
                break
    problemas += _resumir("texto cortado (se sale de la imagen guardada o de su recorte)", cortados)

    esquinas = [_esquinas(t, renderer) for t in textos]
    if len(textos) > 1:
        minimos = np.array([e.min(axis=0) for e in esquinas])
        maximos = np.array([e.max(axis=0) for e in esquinas])
        # Primer filtro con las cajas sin girar; después, la prueba exacta con las giradas.
        solapan = ((np.minimum(maximos[:, None, 0], maximos[None, :, 0])
                    - np.maximum(minimos[:, None, 0], minimos[None, :, 0]) > HOLGURA_PX)
                   & (np.minimum(maximos[:, None, 1], maximos[None, :, 1])
                      - np.maximum(minimos[:, None, 1], minimos[None, :, 1]) > HOLGURA_PX))
        pisados = []
        for i, j in zip(*np.nonzero(np.triu(solapan, k=1))):
            a, b = textos[i], textos[j]
            if a.get_text() == b.get_text() and np.allclose(esquinas[i], esquinas[j], atol=0.5):
                continue  # el mismo texto dos veces en el mismo sitio no se ve doble
            if _se_pisan(esquinas[i], esquinas[j]):
                pisados.append(f"{_describir(a, nombres)} y {_describir(b, nombres)}")
        problemas += _resumir("textos que se pisan", pisados)
    return problemas


def titulo_de_figura(fig):
    """Un nombre corto para la figura en los mensajes: su título general o el del primer panel."""
    if getattr(fig, "_suptitle", None) is not None and fig._suptitle.get_text():
        return fig._suptitle.get_text()
    for ax in fig.axes:
        if ax.get_title():
            return ax.get_title()
    return f"figura de {len(fig.axes)} ejes"


def instalar(registro):
    """Hace que cada figura que se guarde o se muestre en este proceso se revise y anote en `registro`.

    Envuelve `FigureCanvasBase.print_figure`: primero se guarda la figura como siempre (la imagen no cambia) y
    después se revisa con los mismos `dpi`, `bbox_inches` y `pad_inches`. Un fallo de la propia revisión también
    se anota, para que no pase inadvertido.
    """
    from matplotlib.backend_bases import FigureCanvasBase

    original = FigureCanvasBase.print_figure
    if getattr(original, "_revisa_figuras", False):
        return
    estado = {"revisando": False}

    def print_figure(canvas, filename, *args, **kwargs):
        resultado = original(canvas, filename, *args, **kwargs)
        if estado["revisando"]:
            return resultado
        estado["revisando"] = True
        fig = canvas.figure
        try:
            dpi = kwargs.get("dpi", args[0] if args else None)
            problemas = problemas_de_figura(fig, dpi=dpi, bbox_inches=kwargs.get("bbox_inches"),
                                            pad_inches=kwargs.get("pad_inches"))
        except Exception as error:  # noqa: BLE001 - se anota para que la prueba falle con el motivo
            problemas = [f"no se pudo revisar la figura: {type(error).__name__}: {error}"]
        finally:
            estado["revisando"] = False
        if problemas:
            destino = "pantalla" if isinstance(filename, io.IOBase) else os.fspath(filename)
            linea = json.dumps({"figura": titulo_de_figura(fig), "destino": destino, "problemas": problemas},
                               ensure_ascii=False)
            with open(registro, "a", encoding="utf-8") as archivo:
                archivo.write(linea + "\n")
        return resultado

    print_figure._revisa_figuras = True
    FigureCanvasBase.print_figure = print_figure
