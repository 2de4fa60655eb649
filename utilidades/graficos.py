"""El aspecto del curso: colores, mapas de calor y curvas de aprendizaje (nada cambia al importar)."""

import math
import warnings

import matplotlib.pyplot as plt
import numpy as np
from matplotlib import patheffects
from matplotlib.collections import LineCollection
from matplotlib.colors import LinearSegmentedColormap

# Colores que se distinguen también con daltonismo (rojo frente a azul, no frente a verde) y con un contraste de al
# menos 4 : 1 sobre blanco, para que el texto de esos colores se lea en un proyector.
TINTA = "#1d2b4f"  # azul tinta: pesos altos, texto
ACENTO = "#d1495b"  # rojo: lo que queremos señalar
SECUNDARIO = "#0072b2"  # azul: la segunda serie
GRIS = "#5f6b7a"
FONDO_OCULTO = "#eedfb8"  # arena, fuera de la escala azul: celdas ocultas con mapa_de_calor(..., relleno_oculto=)
COLORES = [TINTA, ACENTO, SECUNDARIO, "#a35c00", "#6a4c93", GRIS]
# Cada serie lleva además su propio trazo: las curvas se distinguen sin color (en gris o con daltonismo).
TRAZOS = ["-", "--", "-.", ":", (0, (5, 1.5, 1, 1.5, 1, 1.5)), (0, (8, 2))]

# Tamaño máximo de una figura, en pulgadas a 100 ppp: 900 × 600 píxeles caben sin reducirse en una pantalla o un
# proyector de 1280 × 720. Una figura pedida más grande se encoge en pulgadas al crearla, con sus proporciones; como
# la letra conserva su tamaño en puntos, al dibujarla una fila de paneles se reparte en filas y, si no es una fila,
# la letra encoge con la figura (sin bajar de 11 píxeles). Ver ajustar_a_proyector.
ANCHO_MAXIMO, ALTO_MAXIMO = 9.0, 6.0

# Mapa de blanco (peso 0) a tinta (peso 1) para las tablas de pesos.
MAPA_PESOS = LinearSegmentedColormap.from_list("pesos_del_curso", ["#ffffff", TINTA])

# Letra grande y líneas gruesas: las figuras se proyectan en clase.
ESTILO = {
    "figure.figsize": (7.0, 4.5),
    "figure.dpi": 100,
    "savefig.dpi": 100,
    "font.size": 13,
    "axes.titlesize": 15,
    "axes.labelsize": 13,
    "xtick.labelsize": 12,
    "ytick.labelsize": 12,
    "legend.fontsize": 12,
    "lines.linewidth": 2.2,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": False,
    "axes.prop_cycle": plt.cycler(color=COLORES) + plt.cycler(linestyle=TRAZOS),
    "figure.hooks": ["utilidades.graficos:ajustar_a_proyector"],  # cada figura nueva cabe en un proyector
}


def tamano_proyectable(ancho, alto):
    """(ancho, alto) en pulgadas reducidos, con sus proporciones, para no pasar de ANCHO_MAXIMO × ALTO_MAXIMO."""
    escala = min(1.0, ANCHO_MAXIMO / ancho, ALTO_MAXIMO / alto)
    return ancho * escala, alto * escala


def _reparto_en_filas(n, ancho_panel, alto_panel):
    """Cuántos paneles por fila caben mejor: el reparto que menos encoge cada panel; ante casi un empate, el que
    deja menos casillas vacías y, después, el de más paneles por fila. Devuelve (paneles_por_fila, escala)."""
    mejor = None
    for por_fila in range(n, 0, -1):
        filas = -(-n // por_fila)
        ancho, alto = por_fila * ancho_panel, filas * alto_panel
        escala = min(1.0, ANCHO_MAXIMO / ancho, ALTO_MAXIMO / alto)
        vacias = por_fila * filas - n
        if (mejor is None or escala > 1.02 * mejor[1]
                or (escala * 1.02 >= mejor[1] and vacias < mejor[2])):
            mejor = (por_fila, escala, vacias)
    return mejor[:2]


def _celda_de_arriba(ax):
    """La casilla de la rejilla de la figura donde está el panel `ax` (aunque su barra de color la comparta)."""
    casilla = ax.get_subplotspec()
    return None if casilla is None else casilla.get_topmost_subplotspec()


def _heredar_rotulos_del_borde(ejes, casillas, por_fila):
    """Tras repartir una fila de paneles en filas, cada fila nueva se rotula como la rotulaba el primer panel.

    El código de una lección suele nombrar el eje y (y, en un mapa de calor, escribir las marcas de las filas) solo
    en el primer panel de la fila: en la rejilla nueva, el primer panel de cada fila se quedaría sin ellos. Aquí lo
    hereda del primer panel de la fila original, si ningún otro panel tenía su propio rótulo.
    """
    paneles = [(ax, c.num1) for ax, c in zip(ejes, casillas) if ax.get_label() != "<colorbar>"]
    primero = next((ax for ax, k in paneles if k == 0), None)
    if primero is None:
        return
    resto = [ax for ax, k in paneles if k != 0]
    nombre = primero.get_ylabel()
    if nombre and not any(ax.get_ylabel() for ax in resto):
        for ax, k in paneles:
            if k % por_fila == 0 and k != 0:
                ax.set_ylabel(nombre)
    # Marcas escritas pero escondidas en los paneles que no empezaban la fila (sin ejes compartidos).
    if primero.yaxis.get_tick_params().get("labelleft", True) and len(primero.get_shared_y_axes().get_siblings(
            primero)) == 1:
        for ax, k in paneles:
            if (k % por_fila == 0 and k != 0 and not ax.yaxis.get_tick_params().get("labelleft", True)
                    and list(ax.get_yticks()) == list(primero.get_yticks())):
                ax.yaxis.set_tick_params(which="both", labelleft=True)
    # Marcas de las filas de un mapa de calor (mapa_de_calor solo pone las que tienen texto).
    marcas = getattr(primero, "_marcas_completas", {}).get("y")
    if marcas and marcas[0]:
        for ax, k in paneles:
            propias = getattr(ax, "_marcas_completas", {}).get("y")
            if (k % por_fila == 0 and k != 0 and propias is not None and not propias[0]
                    and ax.get_ylim() == primero.get_ylim()):
                posiciones, etiquetas, opciones = marcas
                ax._marcas_completas["y"] = marcas
                ax.set_yticks(posiciones, etiquetas, **opciones)
                ax._marcas_puestas["y"] = ([float(p) for p in posiciones], [str(e) for e in etiquetas])
                if primero.get_ylabel() and not ax.get_ylabel():
                    ax.set_ylabel(primero.get_ylabel())


def _recolocar_paneles(fig):
    """Si la figura se encogió y es una fila de paneles, reparte los paneles en filas (una vez; antes de dibujar).

    Una fila de 4 u 11 paneles encogida a ANCHO_MAXIMO deja cada panel tan estrecho que sus textos se pisan (la
    letra no encoge). Repartidos en filas, cada panel conserva casi el tamaño pedido. Solo se hace si todos los
    ejes están en una misma rejilla de 1 fila (sus barras de color, dentro de su casilla).
    """
    pedido = getattr(fig, "_tamano_pedido", None)
    if pedido is None or hasattr(fig, "_paneles_recolocados"):
        return False
    fig._paneles_recolocados = False
    casillas = [_celda_de_arriba(ax) for ax in fig.axes]
    if not casillas or any(c is None for c in casillas):
        return False
    rejilla = casillas[0].get_gridspec()
    n_filas, n = rejilla.get_geometry()
    if n_filas != 1 or n < 2 or any(c.get_gridspec() is not rejilla or c.num1 != c.num2 for c in casillas):
        return False
    por_fila, _ = _reparto_en_filas(n, pedido[0] / n, pedido[1])
    if por_fila == n:
        return False
    filas = -(-n // por_fila)
    # Cada panel ocupa dos columnas de la rejilla nueva: así una última fila incompleta (3 paneles en 2 + 1) va
    # centrada, en vez de dejar una casilla vacía a la derecha.
    nueva = fig.add_gridspec(filas, 2 * por_fila)
    en_la_ultima = n - (filas - 1) * por_fila
    for ax, casilla in zip(fig.axes, casillas):
        fila, columna = divmod(casilla.num1, por_fila)
        inicio = 2 * columna + (por_fila - en_la_ultima if fila == filas - 1 else 0)
        destino = nueva[fila, inicio:inicio + 2]
        propia = ax.get_subplotspec()
        if propia is casilla or propia.get_gridspec() is rejilla:
            ax.set_subplotspec(destino)
            continue
        # Un panel con barra de color vive en una sub-rejilla colgada de su casilla: se cuelga de la nueva.
        sub = propia.get_gridspec()
        while sub._subplot_spec.get_gridspec() not in (rejilla, nueva):
            sub = sub._subplot_spec.get_gridspec()
        sub._subplot_spec = destino
        ax._set_position(propia.get_position(fig))
    # Los ejes compartidos solo rotulan sus marcas en el borde: la columna izquierda y la fila de abajo nuevas.
    for ax, casilla in zip(fig.axes, casillas):
        fila, columna = divmod(casilla.num1, por_fila)
        if len(ax.get_shared_y_axes().get_siblings(ax)) > 1:
            ax.yaxis.set_tick_params(which="both", labelleft=columna == 0)
        if len(ax.get_shared_x_axes().get_siblings(ax)) > 1:
            ultima = fila == filas - 1 or casilla.num1 + por_fila >= n
            ax.xaxis.set_tick_params(which="both", labelbottom=ultima)
    _heredar_rotulos_del_borde(fig.axes, casillas, por_fila)
    fig.set_size_inches(*tamano_proyectable(por_fila * pedido[0] / n, filas * pedido[1]), forward=False)
    fig._paneles_recolocados = True
    return True


# Una figura encogida que no se puede repartir en filas encoge también su letra, como mucho hasta este factor y
# nunca por debajo de LETRA_MINIMA puntos (11 píxeles a 100 ppp, lo mínimo que se lee en un proyector).
FACTOR_LETRA_MINIMO = 0.75
LETRA_MINIMA = 8.0


def _escalar_letra(fig, factor):
    """Multiplica por `factor` el tamaño de cada texto de la figura que aún no se escaló (sin bajar del mínimo)."""
    from matplotlib.text import Text

    def nuevo(tamano):
        return max(LETRA_MINIMA, min(tamano, tamano * factor))

    for ax in fig.axes:
        if not getattr(ax, "_letra_escalada", False):
            ax._letra_escalada = True
            for eje, letra in ((ax.xaxis, "x"), (ax.yaxis, "y")):
                tamano = eje.get_ticklabels()[0].get_fontsize() if eje.get_ticklabels() else plt.rcParams[
                    f"{letra}tick.labelsize"]
                if isinstance(tamano, str):
                    tamano = plt.rcParams["font.size"]
                ax.tick_params(axis=letra, which="both", labelsize=nuevo(tamano))  # vale también para marcas futuras
    # Las marcas (y el factor del eje) ya tienen su tamaño por tick_params, también las que se creen después
    # (buscar los textos crea las marcas que falten: se buscan antes de apartarlas).
    textos = fig.findobj(Text)
    de_las_marcas = {id(eje.offsetText) for ax in fig.axes for eje in (ax.xaxis, ax.yaxis)}
    de_las_marcas |= {id(t) for ax in fig.axes for eje in (ax.xaxis, ax.yaxis)
                      for marca in eje.majorTicks + eje.minorTicks for t in (marca.label1, marca.label2)}
    for texto in textos:
        if id(texto) not in de_las_marcas and not getattr(texto, "_letra_escalada", False):
            texto._letra_escalada = True
            texto.set_fontsize(nuevo(texto.get_fontsize()))


def _preparar_tamano(fig):
    """Lo que hace falta porque la figura se encogió: paneles en filas o, si no se puede, letra más pequeña.

    Devuelve "paneles" si se repartieron en filas, "letra" si encogió la letra y None si nada cambió."""
    pedido = getattr(fig, "_tamano_pedido", None)
    if pedido is None:
        return None
    if _recolocar_paneles(fig):
        return "paneles"
    if getattr(fig, "_paneles_recolocados", False):
        return None  # ya se repartieron en filas: la letra no cambia
    factor = max(FACTOR_LETRA_MINIMO, fig.get_size_inches()[0] / pedido[0])
    antes = len([t for t in fig.findobj() if getattr(t, "_letra_escalada", False)])
    _escalar_letra(fig, factor)
    return "letra" if len([t for t in fig.findobj() if getattr(t, "_letra_escalada", False)]) != antes else None


def _admite_tight_layout(fig):
    """¿Puede tight_layout colocar todos los ejes? (todos en rejillas sin márgenes propios; no, p. ej., una barra
    de color común o una rejilla con hspace propio)."""
    for ax in fig.axes:
        casilla = ax.get_subplotspec()
        if casilla is None or casilla.get_topmost_subplotspec().get_gridspec().locally_modified_subplot_params():
            return False
    return True


def _ajustar_antes_de_dibujar(fig, renderer=None):
    """Lo que depende del tamaño final: paneles en filas o letra menor, marcas que no se pisan, números que caben
    en su celda. Tras repartir los paneles se recoloca todo con tight_layout; tras encoger la letra, solo si el
    código lo había pedido (con la letra menor, la colocación que había sigue valiendo)."""
    cambio = _preparar_tamano(fig)
    pedido = getattr(fig, "_tight_layout_pedido", None)
    if cambio and (cambio == "paneles" or pedido is not None) and _admite_tight_layout(fig):
        argumentos, opciones = pedido if pedido is not None else ((), {})
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # los avisos de tight_layout ya salieron, si tocaba, al pedirlo el código
            fig.tight_layout(*argumentos, **opciones)
    if renderer is not None:
        for ax in fig.axes:
            for ajuste in getattr(ax, "_ajustes_al_dibujar", ()):
                ajuste(ax, renderer)
            _espacios_legibles(ax)


# El espacio se rotula «␣» (ver utilidades.visualizador.visible): con la letra de las demás marcas es un trazo
# diminuto pegado a la línea de base, que queda por debajo de su marca. Se escribe más grande y centrado.
ESPACIO_VISIBLE = "␣"
FACTOR_ESPACIO = 1.6


def _espacios_legibles(ax):
    """Agranda y centra en su marca cada rótulo «␣» de los ejes de `ax` (al dibujar, con la letra ya final).

    Solo si las marcas vecinas dejan sitio (el doble del alto de la letra): en un mapa con las marcas apretadas,
    un «␣» mayor o desplazado pisaría a sus vecinas. Entonces, en el eje y, su caja se queda donde está (la de las
    demás marcas, centrada en la suya) y solo su trazo, que va bajo la línea de base, sube hasta la altura de la
    marca: si no, queda media letra más abajo, junto al rótulo siguiente, y se lee como parte de él."""
    for eje, alineacion, coordenada in ((ax.xaxis, "center", 0), (ax.yaxis, "baseline", 1)):
        marcas = eje.get_ticklabels()
        otras = [t.get_fontsize() for t in marcas if t.get_text() != ESPACIO_VISIBLE]
        if len(otras) == len(marcas):
            continue
        base = otras[0] if otras else eje.get_tick_params().get("labelsize", plt.rcParams["font.size"])
        posiciones = sorted(float(p) for p in eje.get_ticklocs())
        hay_sitio = True
        if len(posiciones) > 1:
            puntos = [ax.transData.transform((p, p))[coordenada] for p in posiciones]
            separacion = min(abs(b - a) for a, b in zip(puntos, puntos[1:]))
            hay_sitio = separacion >= 2.0 * float(base) * ax.figure.dpi / 72
        if not hay_sitio and eje is ax.xaxis:
            continue  # bajo su marca, con la letra de las demás, queda a la altura de sus vecinas
        for marca in eje.majorTicks:
            for texto in (marca.label1, marca.label2):
                if texto.get_text() != ESPACIO_VISIBLE:
                    continue
                if hay_sitio:
                    texto.set_fontsize(FACTOR_ESPACIO * float(base))
                    texto.set_verticalalignment(alineacion)
                    texto.set_path_effects([])
                elif texto.get_verticalalignment() == "center_baseline":  # la de las marcas del eje y
                    texto.set_fontsize(float(base))
                    texto.set_path_effects([patheffects.Stroke(offset=(0, _subida_del_espacio(texto)))])


def _subida_del_espacio(texto):
    """Puntos que hay que subir el trazo de un rótulo «␣» alineado como las marcas del eje y («center_baseline»: la
    marca a media altura entre la línea de base y lo alto de la línea) para que quede centrado en la marca."""
    from matplotlib.textpath import TextPath

    letra = texto.get_fontproperties()
    dibujo = texto.get_figure(root=True).canvas.get_renderer()
    alto, bajo = dibujo.get_text_width_height_descent("lp", letra, ismath=False)[1:]  # píxeles, como matplotlib
    media_linea = (alto - bajo) / 2 / dibujo.points_to_pixels(1.0)  # en puntos, de la base a la marca
    trazo = TextPath((0, 0), ESPACIO_VISIBLE, size=letra.get_size_in_points(), prop=letra).get_extents()
    return media_linea - (trazo.y0 + trazo.y1) / 2  # el centro del trazo, de su sitio a la marca


def _vigilar_dibujo(fig):
    """Hace que la figura se ajuste (ver _ajustar_antes_de_dibujar) cada vez que se dibuja o se guarda."""
    if getattr(fig, "_vigilada_por_el_curso", False):
        return
    fig._vigilada_por_el_curso = True
    dibujar_original, guardar_original, ajuste_original = fig.draw, fig.savefig, fig.tight_layout

    def draw(renderer):
        _ajustar_antes_de_dibujar(fig, renderer)
        return dibujar_original(renderer)

    def savefig(*args, **kwargs):
        _ajustar_antes_de_dibujar(fig)  # cambia el tamaño antes de crear la imagen
        return guardar_original(*args, **kwargs)

    def tight_layout(*args, **kwargs):
        fig._tight_layout_pedido = (args, kwargs)
        _preparar_tamano(fig)
        return ajuste_original(*args, **kwargs)

    fig.draw, fig.savefig, fig.tight_layout = draw, savefig, tight_layout


def ajustar_a_proyector(fig):
    """Encoge una figura demasiado grande para un proyector (ver ANCHO_MAXIMO); devuelve la figura.

    Si era una fila de paneles, al dibujarla los reparte en filas (ver _recolocar_paneles); los mapas de calor
    aclaran sus marcas y sus números al dibujarse, según el tamaño que tengan entonces.
    """
    ancho, alto = fig.get_size_inches()
    nuevo = tamano_proyectable(ancho, alto)
    if nuevo != (ancho, alto):
        fig._tamano_pedido = (ancho, alto)
        fig.set_size_inches(*nuevo)
    _vigilar_dibujo(fig)
    return fig


def aplicar_estilo():
    """Aplica el estilo del curso a matplotlib (se llama desde `preparar`, nunca al importar)."""
    plt.rcParams.update(ESTILO)


def _a_numpy(matriz):
    """Convierte un tensor o lista en un array de NumPy 2-D (float)."""
    if hasattr(matriz, "detach"):
        matriz = matriz.detach().cpu().numpy()
    matriz = np.asarray(matriz, dtype=float)
    if matriz.ndim != 2:
        raise ValueError(
            f"El mapa de calor necesita una tabla de 2 dimensiones (filas × columnas), pero recibió "
            f"forma {matriz.shape}. Elige una cabeza y una frase, por ejemplo pesos[0, 0]."
        )
    return matriz


def _marcas(etiquetas, n):
    """(posiciones, textos) de las marcas de un eje de n casillas: solo las que tienen texto.

    Con 100 posiciones rotuladas de 10 en 10 son 10 marcas en vez de 100, y la figura se dibuja mucho antes.
    """
    con_texto = [(k, e) for k, e in enumerate(range(n) if etiquetas is None else etiquetas) if str(e)]
    return [k for k, _ in con_texto], [e for _, e in con_texto]


def _medida_de_texto(renderer, texto, propiedades):
    """(ancho, alto) en píxeles de `texto` escrito con esas propiedades de letra, sin girar."""
    ancho, alto, _ = renderer.get_text_width_height_descent(str(texto), propiedades, ismath=False)
    return ancho, alto


def _aclarar_marcas(ax, renderer, eje, salto_minimo=1, aplicar=True):
    """Deja en `eje` ("x" o "y") una de cada k marcas, con el k más pequeño (y no menor que `salto_minimo`) con
    el que no se pisan; devuelve ese k (None si el eje no se toca). Con `aplicar=False` solo lo calcula.

    Dos marcas vecinas necesitan entre sí el alto de la letra (marcas en columna, o giradas: medido en
    perpendicular) o media anchura de cada una (marcas horizontales), más un pequeño hueco.
    """
    posiciones, etiquetas, opciones = ax._marcas_completas[eje]
    fijar = ax.set_xticks if eje == "x" else ax.set_yticks
    # Los textos de las marcas aunque estén escondidos (p. ej., las filas de un panel que no empieza su fila de
    # la rejilla): el salto debe ser el mismo que en los paneles que sí los muestran.
    objeto = ax.xaxis if eje == "x" else ax.yaxis
    actuales = [marca.label1 for marca in objeto.get_major_ticks(len(objeto.get_majorticklocs()))]
    puestas = ([float(p) for p in (ax.get_xticks() if eje == "x" else ax.get_yticks())],
               [t.get_text() for t in actuales])
    if puestas != ax._marcas_puestas[eje]:
        return None  # el código cambió estas marcas después de dibujar el mapa: se respetan tal cual
    if not posiciones:
        return None
    propiedades = actuales[0].get_fontproperties() if actuales else None
    if propiedades is None:
        return None
    giro = math.radians(opciones.get("rotation", 0) or 0)
    origen = ax.transData.transform((0, 0))
    paso = ax.transData.transform((1, 1)) - origen
    px_por_casilla = abs(paso[0] if eje == "x" else paso[1])
    hueco = 2.0
    medidas = [_medida_de_texto(renderer, etiqueta, propiedades) for etiqueta in etiquetas]

    def caben(i, j):
        """¿Caben las marcas i y j una junto a la otra sin pisarse?"""
        distancia = abs(posiciones[j] - posiciones[i]) * px_por_casilla
        if eje == "y":
            necesaria = max(medidas[i][1], medidas[j][1]) + hueco
        elif math.sin(giro) > 0.2:
            necesaria = (max(medidas[i][1], medidas[j][1]) + hueco) / math.sin(giro)
        else:
            necesaria = (medidas[i][0] + medidas[j][0]) / 2 + hueco
        return distancia >= necesaria

    # Una de cada `salto` marcas, con el salto más pequeño con el que ninguna se pisa (el mismo en todo el eje,
    # para que se cuente igual en todas partes).
    for salto in range(max(1, salto_minimo), len(posiciones) + 1):
        indices = list(range(0, len(posiciones), salto))
        if all(caben(i, j) for i, j in zip(indices, indices[1:])):
            break
    else:
        salto = max(1, salto_minimo)
        indices = list(range(0, len(posiciones), salto))
    if not aplicar:
        return salto
    elegidas = [(posiciones[i], etiquetas[i], medidas[i][0]) for i in indices]
    nuevas = ([float(p) for p, _, _ in elegidas], [str(e) for _, e, _ in elegidas])
    if nuevas != puestas:
        fijar(*nuevas, **opciones)
        ax._marcas_puestas[eje] = nuevas
    return salto


def _aclarar_mapa(ax, renderer):
    """Antes de dibujar un mapa de calor: marcas que no se pisan y números solo si caben en sus celdas.

    Si los dos ejes llevan los mismos rótulos (una frase contra sí misma), se aclaran con el mismo salto: así la
    frase se lee igual a lo largo de las filas y de las columnas, y la casilla (i, i) cae en la diagonal.
    """
    completas = ax._marcas_completas
    mismas = completas["x"][:2] == completas["y"][:2] and len(completas["x"][0]) > 1
    salto_minimo = 1
    if mismas:
        saltos = [_aclarar_marcas(ax, renderer, eje, aplicar=False) for eje in ("x", "y")]
        salto_minimo = max((s for s in saltos if s is not None), default=1)
    for eje in ("x", "y"):
        _aclarar_marcas(ax, renderer, eje, salto_minimo=salto_minimo)
    numeros = getattr(ax, "_numeros_de_celdas", [])
    if numeros:
        origen = ax.transData.transform((0, 0))
        ancho_celda, alto_celda = abs(ax.transData.transform((1, 1)) - origen)
        caben = all(
            ancho <= 0.92 * ancho_celda and alto <= 0.9 * alto_celda
            for ancho, alto in (_medida_de_texto(renderer, t.get_text(), t.get_fontproperties()) for t in numeros)
        )
        for t in numeros:
            t.set_visible(caben)


def mapa_de_calor(
    matriz,
    filas=None,
    columnas=None,
    *,
    ax=None,
    valores=False,
    formato="{:.2f}",
    titulo=None,
    etiqueta_filas=None,
    etiqueta_columnas=None,
    oculto=None,
    vmin=0.0,
    vmax=1.0,
    barra=True,
    mapa=None,
    etiqueta_barra=None,
    girar=None,
    relleno_oculto=None,
):
    """Dibuja una tabla (L_filas, L_columnas) con palabras en los ejes; devuelve (fig, ax).

    `oculto` (bool, misma forma) deja en blanco y con un trazo gris las celdas prohibidas por una máscara;
    `relleno_oculto` (un color, como FONDO_OCULTO) las pinta de ese color en lugar de blanco, para que no se
    confundan con un peso casi 0, que también sale casi blanco;
    `valores=True` escribe cada número en su celda, si al dibujarse las celdas son lo bastante anchas para ellos
    (en una tabla grande no se escriben: se pisarían). Al dibujarse también se dejan solo las marcas de los ejes que
    no se pisan (una de cada k, el mismo k en todo el eje). `etiqueta_barra` nombra lo que mide la barra de color.
    `girar` decide si los rótulos de las columnas van girados; con None (por defecto) se giran los de más de dos
    letras, y con False quedan rectos (para unas pocas palabras cortas que caben de sobra).
    """
    datos = _a_numpy(matriz)
    n_filas, n_columnas = datos.shape
    for nombre, etiquetas, n in (("filas", filas, n_filas), ("columnas", columnas, n_columnas)):
        if etiquetas is not None and len(etiquetas) != n:
            raise ValueError(
                f"Diste {len(etiquetas)} etiquetas para las {nombre}, pero la tabla tiene {n} {nombre}."
            )
    if oculto is not None:
        oculto = _a_numpy(oculto).astype(bool)
        if oculto.shape != datos.shape:
            raise ValueError(
                f"`oculto` tiene forma {oculto.shape} y la tabla {datos.shape}: deben coincidir."
            )
        datos = np.where(oculto, np.nan, datos)
    if ax is None:
        ancho = max(5.0, 0.75 * n_columnas + 2.5)
        alto = max(4.0, 0.6 * n_filas + 1.8)
        fig, ax = plt.subplots(figsize=(ancho, alto))
    else:
        fig = ax.figure
    mapa = mapa or MAPA_PESOS
    if oculto is not None and relleno_oculto is not None:
        mapa = plt.get_cmap(mapa).with_extremes(bad=relleno_oculto)  # las celdas ocultas son NaN: color «bad»
    imagen = ax.imshow(datos, cmap=mapa, vmin=vmin, vmax=vmax, aspect="auto")
    if oculto is not None:
        # Un trazo diagonal marca las celdas ocultas, para distinguirlas de un peso 0 (todos en un solo dibujo).
        trazos = [[(j - 0.45, i + 0.45), (j + 0.45, i - 0.45)] for i, j in zip(*np.nonzero(oculto))]
        ax.add_collection(LineCollection(trazos, colors=GRIS, linewidths=0.8, capstyle="projecting"), autolim=False)
    # Rótulos de columna girados para que quepan las palabras; letras sueltas o números cortos, rectos.
    if girar is None:
        girar = columnas is not None and max((len(str(c)) for c in columnas), default=0) > 2
    opciones_x = {"rotation": 45 if girar else 0, "ha": "right" if girar else "center"}
    ax._marcas_completas = {"x": (*_marcas(columnas, n_columnas), opciones_x), "y": (*_marcas(filas, n_filas), {})}
    ax._marcas_puestas = {}
    for eje, fijar, opciones in (("x", ax.set_xticks, opciones_x), ("y", ax.set_yticks, {})):
        posiciones, etiquetas = ax._marcas_completas[eje][:2]
        fijar(posiciones, etiquetas, **opciones)
        ax._marcas_puestas[eje] = ([float(p) for p in posiciones], [str(e) for e in etiquetas])
    # Al dibujarse, con el tamaño ya final: menos marcas si se pisan, y los números solo si caben en sus celdas.
    ax._ajustes_al_dibujar = [_aclarar_mapa]
    _vigilar_dibujo(fig)
    ax.tick_params(length=0)
    for lado in ax.spines.values():
        lado.set_visible(False)
    if etiqueta_filas:
        ax.set_ylabel(etiqueta_filas)
    if etiqueta_columnas:
        ax.set_xlabel(etiqueta_columnas)
    if titulo:
        ax.set_title(titulo)
    ax._numeros_de_celdas = []
    if valores:
        medio = vmin + (vmax - vmin) / 2
        for i in range(n_filas):
            for j in range(n_columnas):
                if np.isnan(datos[i, j]):
                    continue
                color = "white" if datos[i, j] > medio else TINTA
                ax._numeros_de_celdas.append(
                    ax.text(j, i, formato.format(datos[i, j]), ha="center", va="center", color=color, fontsize=11))
    if barra:
        fig.colorbar(imagen, ax=ax, fraction=0.046, pad=0.04, label=etiqueta_barra)
    return fig, ax


def mapas_de_calor(matrices, titulos=None, filas=None, columnas=None, *, columnas_figura=4, barra_comun=False,
                   **opciones):
    """Dibuja varias tablas lado a lado (una por cabeza, por ejemplo); devuelve (fig, ejes).

    `barra_comun=True` añade una sola barra de color («peso») para todas; las filas (marcas y `etiqueta_filas`) se
    leen solo en la primera columna de tablas y las columnas (marcas y `etiqueta_columnas`), solo en la tabla de
    más abajo de cada columna.
    """
    matrices = [_a_numpy(m) for m in matrices]
    n = len(matrices)
    if titulos is not None and len(titulos) != n:
        raise ValueError(f"Diste {len(titulos)} títulos para {n} tablas: deben coincidir.")
    alto, ancho = matrices[0].shape
    ancho_panel, alto_panel = max(3.0, 0.45 * ancho + 1.4), max(2.8, 0.4 * alto + 1.4)
    # Las tablas por fila que menos las encogen en ANCHO_MAXIMO × ALTO_MAXIMO (una fila de 4 encogida pisaba sus
    # textos), sin pasar de `columnas_figura`.
    por_fila = min(columnas_figura, _reparto_en_filas(n, ancho_panel, alto_panel)[0])
    n_filas_figura = (n + por_fila - 1) // por_fila
    fig, ejes = plt.subplots(
        n_filas_figura, por_fila, figsize=(por_fila * ancho_panel, n_filas_figura * alto_panel), squeeze=False,
    )
    for k, eje in enumerate(ejes.flat):
        if k >= n:
            eje.axis("off")
            continue
        # Cada tabla lleva sus rótulos en los dos ejes (así el aclarado de marcas usa el mismo salto en todas y en
        # filas y columnas), pero se leen solo en el borde: las filas en la primera columna, las columnas en la
        # última tabla de cada columna (las de arriba dejan ese sitio a las tablas).
        propias = dict(opciones)
        primera_columna, abajo = k % por_fila == 0, k + por_fila >= n
        if not primera_columna:
            propias.pop("etiqueta_filas", None)
        if not abajo:
            propias.pop("etiqueta_columnas", None)
        mapa_de_calor(
            matrices[k], filas, columnas, ax=eje, barra=False,
            titulo=titulos[k] if titulos is not None else None, **propias,
        )
        eje.tick_params(axis="y", labelleft=primera_columna)
        eje.tick_params(axis="x", labelbottom=abajo)
        # Las marcas (palabras, caracteres) conservan su letra aunque la figura encoja: las que no quepan las quita
        # el aclarado de marcas al dibujar, en vez de encoger todas hasta 9 puntos.
        eje._letra_escalada = True
    if not barra_comun:
        fig.tight_layout()
        return fig, ejes
    # La barra común, en una franja que se reserva a la derecha antes de colocar las tablas: robada a las tablas
    # después de colocarlas, su nombre se salía por la derecha de la figura (más de 900 píxeles al guardarla).
    fig.tight_layout(rect=(0, 0, 0.9, 1))
    visibles = [eje for eje in ejes.flat if eje.axison]
    abajo = min(eje.get_position().y0 for eje in visibles)
    arriba = max(eje.get_position().y1 for eje in visibles)
    barra = fig.add_axes((0.91, abajo, 0.018, arriba - abajo))
    fig.colorbar(ejes.flat[0].images[0], cax=barra, label="peso")
    return fig, ejes


def curvas_de_aprendizaje(historial, *, eje_x="paso", titulo="Curvas de aprendizaje", etiqueta_y="pérdida",
                          ax=None, log=False):
    """Dibuja varias series {nombre: (xs, ys)} o {nombre: ys}; devuelve (fig, ax)."""
    if ax is None:
        fig, ax = plt.subplots()
    else:
        fig = ax.figure
    for nombre, serie in historial.items():
        if isinstance(serie, tuple) and len(serie) == 2:
            xs, ys = serie
        else:
            ys = list(serie)
            xs = list(range(1, len(ys) + 1))
        ax.plot(xs, ys, marker="o" if len(ys) <= 30 else None, label=nombre)
    if log:
        ax.set_yscale("log")
    ax.set_xlabel(eje_x)
    ax.set_ylabel(etiqueta_y)
    ax.set_title(titulo)
    ax.legend()
    return fig, ax


def barras_de_pesos(pesos, etiquetas, *, ax=None, titulo=None, color=TINTA):
    """Barras con el porcentaje de cada peso escrito encima; devuelve (fig, ax)."""
    pesos = np.asarray(pesos.detach().cpu() if hasattr(pesos, "detach") else pesos, dtype=float).ravel()
    if len(etiquetas) != len(pesos):
        raise ValueError(f"Hay {len(pesos)} pesos y {len(etiquetas)} etiquetas: deben coincidir.")
    if ax is None:
        fig, ax = plt.subplots(figsize=(max(4.0, 0.9 * len(pesos) + 1.5), 3.6))
    else:
        fig = ax.figure
    barras = ax.bar(range(len(pesos)), pesos, color=color)
    for barra, p in zip(barras, pesos):
        # Con fondo blanco: una línea de referencia que cruce el porcentaje (p. ej., el reparto igual) no lo tacha.
        ax.text(barra.get_x() + barra.get_width() / 2, p + 0.02, f"{100 * p:.0f} %", ha="center", va="bottom",
                bbox={"facecolor": "white", "edgecolor": "none", "pad": 1.0}, zorder=3)
    ax.set_xticks(range(len(pesos)))
    ax.set_xticklabels(etiquetas)
    ax.set_ylim(0, 1.15)
    ax.set_ylabel("peso")
    if titulo:
        ax.set_title(titulo)
    return fig, ax


def tabla_de_texto(matriz, filas=None, columnas=None, decimales=2):
    """Devuelve una tabla (filas × columnas) como texto alineado, con palabras como rótulos y sin «-0.00»."""
    datos = _a_numpy(matriz)
    filas = [str(f) for f in (filas if filas is not None else range(datos.shape[0]))]
    columnas = [str(c) for c in (columnas if columnas is not None else range(datos.shape[1]))]
    if len(filas) != datos.shape[0] or len(columnas) != datos.shape[1]:
        raise ValueError(
            f"La tabla tiene forma {datos.shape}, pero diste {len(filas)} rótulos de fila y "
            f"{len(columnas)} de columna."
        )
    # Sumar 0.0 tras redondear convierte -0.0 en 0.0, que se imprime igual en cualquier máquina.
    celdas = [[f"{round(float(x), decimales) + 0.0:.{decimales}f}" for x in fila] for fila in datos]
    ancho = max([len(c) for c in columnas] + [len(x) for fila in celdas for x in fila])
    margen = max(len(f) for f in filas)
    lineas = [" " * margen + "  " + "  ".join(c.rjust(ancho) for c in columnas)]
    for rotulo, fila in zip(filas, celdas):
        lineas.append(rotulo.ljust(margen) + "  " + "  ".join(x.rjust(ancho) for x in fila))
    return "\n".join(lineas)
