"""Diagramas dibujados con matplotlib: el bloque transformer con sus atajos residuales (lección 07)."""

import matplotlib.pyplot as plt
from matplotlib.patches import Circle, FancyBboxPatch

from utilidades.graficos import ACENTO, SECUNDARIO, TINTA

_COLOR_CAJA = {"LayerNorm": "#e9ecf5", "atención": "#fbe3e6", "MLP": "#dff2ef"}


def _etapas(pre_norma):
    """Lista de (tipo, texto) de abajo arriba y los atajos (rama tras la etapa i, suma en la etapa j)."""
    if pre_norma:
        etapas = [("texto", "x  (lote, L, d_modelo)"), ("caja", "LayerNorm"), ("caja", "Atención multicabeza"),
                  ("suma", "+"), ("caja", "LayerNorm"), ("caja", "MLP (por palabra)"),
                  ("suma", "+"), ("texto", "salida  (lote, L, d_modelo)")]
        atajos = [(0, 3), (3, 6)]
    else:
        etapas = [("texto", "x  (lote, L, d_modelo)"), ("caja", "Atención multicabeza"), ("suma", "+"),
                  ("caja", "LayerNorm"), ("caja", "MLP (por palabra)"), ("suma", "+"),
                  ("caja", "LayerNorm"), ("texto", "salida  (lote, L, d_modelo)")]
        atajos = [(0, 2), (3, 5)]
    return etapas, atajos


def _color(texto):
    for clave, color in _COLOR_CAJA.items():
        if clave.lower() in texto.lower():
            return color
    return "#f2f2f2"


def dibujar_bloque(ax=None, pre_norma=True, titulo=None):
    """Dibuja el bloque transformer (pre-norma o post-norma) con sus dos atajos residuales; devuelve (fig, ax)."""
    if ax is None:
        fig, ax = plt.subplots(figsize=(5.5, 8))
    else:
        fig = ax.figure
    etapas, atajos = _etapas(pre_norma)
    paso = 1.0
    alturas = [i * paso for i in range(len(etapas))]
    centro, ancho, alto = 0.0, 2.6, 0.55
    for (tipo, texto), y in zip(etapas, alturas):
        if tipo == "caja":
            ax.add_patch(FancyBboxPatch((centro - ancho / 2, y - alto / 2), ancho, alto,
                                        boxstyle="round,pad=0.02,rounding_size=0.12",
                                        facecolor=_color(texto), edgecolor=TINTA, linewidth=1.6))
            ax.text(centro, y, texto, ha="center", va="center", color=TINTA, fontsize=12)
        elif tipo == "suma":
            ax.add_patch(Circle((centro, y), 0.2, facecolor="white", edgecolor=ACENTO, linewidth=2.0))
            ax.text(centro, y, "+", ha="center", va="center", color=ACENTO, fontsize=17, fontweight="bold")
        else:
            ax.text(centro, y, texto, ha="center", va="center", color=TINTA, fontsize=12, fontstyle="italic")
    # Flechas del camino principal, de cada etapa a la siguiente.
    margen = {"caja": alto / 2, "suma": 0.2, "texto": 0.18}
    for i in range(len(etapas) - 1):
        y0 = alturas[i] + margen[etapas[i][0]]
        y1 = alturas[i + 1] - margen[etapas[i + 1][0]]
        ax.annotate("", xy=(centro, y1), xytext=(centro, y0),
                    arrowprops={"arrowstyle": "-|>", "color": TINTA, "lw": 1.6})
    # Atajos residuales: salen entre la etapa i y la i+1, rodean por la derecha y entran en la suma j.
    derecha = centro + ancho / 2 + 0.45
    for n, (i, j) in enumerate(atajos, start=1):
        y_rama = (alturas[i] + alturas[i + 1]) / 2
        y_suma = alturas[j]
        ax.plot([centro, derecha, derecha], [y_rama, y_rama, y_suma], color=SECUNDARIO, lw=2.2,
                linestyle="-")  # continua: el estilo del curso alterna trazos y dejaría uno discontinuo
        ax.plot([centro], [y_rama], "o", color=SECUNDARIO, markersize=6)
        ax.annotate("", xy=(centro + 0.2, y_suma), xytext=(derecha, y_suma),
                    arrowprops={"arrowstyle": "-|>", "color": SECUNDARIO, "lw": 2.2})
        ax.text(derecha + 0.1, (y_rama + y_suma) / 2, f"atajo\nresidual {n}", ha="left", va="center",
                color=SECUNDARIO, fontsize=11)
    ax.set_xlim(centro - ancho / 2 - 0.3, derecha + 1.3)
    ax.set_ylim(alturas[0] - 0.5, alturas[-1] + 0.5)
    ax.set_aspect("equal")
    ax.axis("off")
    if titulo is None:
        titulo = "Bloque pre-norma (el de hoy)" if pre_norma else "Bloque post-norma (el original)"
    ax.set_title(titulo, color=TINTA)
    return fig, ax
