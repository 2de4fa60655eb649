"""El aspecto del curso: colores, mapas de calor y curvas de aprendizaje (nada cambia al importar)."""

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
# proyector de 1280 × 720. Una figura pedida más grande se encoge en pulgadas al crearla (la letra conserva su tamaño
# en puntos, así que gana tamaño relativo), con sus proporciones.
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


def ajustar_a_proyector(fig):
    """Encoge una figura demasiado grande para un proyector (ver ANCHO_MAXIMO); devuelve la figura."""
    ancho, alto = fig.get_size_inches()
    nuevo = tamano_proyectable(ancho, alto)
    if nuevo != (ancho, alto):
        fig.set_size_inches(*nuevo)
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
    `valores=True` escribe cada número en su celda.
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
    ax.set_xticks(*_marcas(columnas, n_columnas), rotation=45 if columnas else 0, ha="right" if columnas else "center")
    ax.set_yticks(*_marcas(filas, n_filas))
    ax.tick_params(length=0)
    for lado in ax.spines.values():
        lado.set_visible(False)
    if etiqueta_filas:
        ax.set_ylabel(etiqueta_filas)
    if etiqueta_columnas:
        ax.set_xlabel(etiqueta_columnas)
    if titulo:
        ax.set_title(titulo)
    if valores:
        medio = vmin + (vmax - vmin) / 2
        for i in range(n_filas):
            for j in range(n_columnas):
                if np.isnan(datos[i, j]):
                    continue
                color = "white" if datos[i, j] > medio else TINTA
                ax.text(j, i, formato.format(datos[i, j]), ha="center", va="center", color=color, fontsize=11)
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
    por_fila = min(columnas_figura, n)
    n_filas_figura = (n + por_fila - 1) // por_fila
    alto, ancho = matrices[0].shape
    fig, ejes = plt.subplots(
        n_filas_figura, por_fila,
        figsize=(por_fila * max(3.0, 0.45 * ancho + 1.4), n_filas_figura * max(2.8, 0.4 * alto + 1.4)),
        squeeze=False,
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
