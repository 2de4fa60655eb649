"""El aspecto del curso: colores, mapas de calor y curvas de aprendizaje (nada cambia al importar)."""

import math
import warnings

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.collections import LineCollection
from matplotlib.colors import LinearSegmentedColormap

# Colores que se distinguen también con daltonismo (rojo frente a azul, no frente a verde) y con un contraste de al
# menos 4 : 1 sobre blanco, para que el texto de esos colores se lea en un proyector.
TINTA = "#1d2b4f"  # azul tinta: pesos altos, texto
ACENTO = "#d1495b"  # rojo: lo que queremos señalar
SECUNDARIO = "#0072b2"  # azul: la segunda serie
GRIS = "#5f6b7a"
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
    nueva = fig.add_gridspec(filas, por_fila)
    for ax, casilla in zip(fig.axes, casillas):
        destino = nueva[casilla.num1 // por_fila, casilla.num1 % por_fila]
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


def _aclarar_marcas(ax, renderer, eje):
    """Deja en `eje` ("x" o "y") una de cada k marcas, con el k más pequeño con el que no se pisan.

    Dos marcas vecinas necesitan entre sí el alto de la letra (marcas en columna, o giradas: medido en
    perpendicular) o media anchura de cada una (marcas horizontales), más un pequeño hueco.
    """
    posiciones, etiquetas, opciones = ax._marcas_completas[eje]
    fijar = ax.set_xticks if eje == "x" else ax.set_yticks
    actuales = (ax.get_xticklabels() if eje == "x" else ax.get_yticklabels())
    puestas = ([float(p) for p in (ax.get_xticks() if eje == "x" else ax.get_yticks())],
               [t.get_text() for t in actuales])
    if puestas != ax._marcas_puestas[eje]:
        return  # el código cambió estas marcas después de dibujar el mapa: se respetan tal cual
    if not posiciones:
        return
    propiedades = actuales[0].get_fontproperties() if actuales else None
    if propiedades is None:
        return
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
    for salto in range(1, len(posiciones) + 1):
        indices = list(range(0, len(posiciones), salto))
        if all(caben(i, j) for i, j in zip(indices, indices[1:])):
            break
    elegidas = [(posiciones[i], etiquetas[i], medidas[i][0]) for i in indices]
    nuevas = ([float(p) for p, _, _ in elegidas], [str(e) for _, e, _ in elegidas])
    if nuevas != puestas:
        fijar(*nuevas, **opciones)
        ax._marcas_puestas[eje] = nuevas


def _aclarar_mapa(ax, renderer):
    """Antes de dibujar un mapa de calor: marcas que no se pisan y números solo si caben en sus celdas."""
    for eje in ("x", "y"):
        _aclarar_marcas(ax, renderer, eje)
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
):
    """Dibuja una tabla (L_filas, L_columnas) con palabras en los ejes; devuelve (fig, ax).

    `oculto` (bool, misma forma) deja en blanco y con un trazo gris las celdas prohibidas por una máscara;
    `valores=True` escribe cada número en su celda, si al dibujarse las celdas son lo bastante anchas para ellos
    (en una tabla grande no se escriben: se pisarían). Al dibujarse también se dejan solo las marcas de los ejes que
    no se pisan (una de cada k, el mismo k en todo el eje).
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
    imagen = ax.imshow(datos, cmap=mapa, vmin=vmin, vmax=vmax, aspect="auto")
    if oculto is not None:
        # Un trazo diagonal marca las celdas ocultas, para distinguirlas de un peso 0 (todos en un solo dibujo).
        trazos = [[(j - 0.45, i + 0.45), (j + 0.45, i - 0.45)] for i, j in zip(*np.nonzero(oculto))]
        ax.add_collection(LineCollection(trazos, colors=GRIS, linewidths=0.8, capstyle="projecting"), autolim=False)
    # Rótulos de columna girados para que quepan las palabras; letras sueltas o números cortos, rectos.
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
        fig.colorbar(imagen, ax=ax, fraction=0.046, pad=0.04)
    return fig, ax


def mapas_de_calor(matrices, titulos=None, filas=None, columnas=None, *, columnas_figura=4, barra_comun=False,
                   **opciones):
    """Dibuja varias tablas lado a lado (una por cabeza, por ejemplo); devuelve (fig, ejes).

    `barra_comun=True` añade una sola barra de color para todas; `etiqueta_filas` se escribe solo en la primera
    columna de tablas.
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
        mostrar_filas = filas if k % por_fila == 0 else [""] * alto if filas is not None else None
        propias = dict(opciones)
        if k % por_fila != 0:
            propias.pop("etiqueta_filas", None)
        mapa_de_calor(
            matrices[k], mostrar_filas, columnas, ax=eje, barra=False,
            titulo=titulos[k] if titulos is not None else None, **propias,
        )
    fig.tight_layout()
    if barra_comun:
        fig.colorbar(ejes.flat[0].images[0], ax=ejes.ravel().tolist(), fraction=0.02, pad=0.02, label="peso")
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
        ax.text(barra.get_x() + barra.get_width() / 2, p + 0.02, f"{100 * p:.0f} %", ha="center", va="bottom")
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
