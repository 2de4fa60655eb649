"""Actividad «¿A quién mira cada palabra?» (lección 01): la lógica en Python y el widget que la dibuja.

La lógica (pesos, máscara causal, temperatura, porcentajes, frase resumen) son funciones normales con
pruebas. El widget (`AQuienMira`) usa anywidget: un módulo de JavaScript propio (`actividad_01.js`,
sin dependencias de red) dibuja la frase, el plano y las barras, y Python calcula todo lo demás.
"""

import math
import pathlib

import numpy as np

PALABRAS = ("Ana", "guardó", "la", "plata", "en", "el", "banco")

# Vectores 2-D de juguete elegidos a mano: con T = 1, «banco» mira a «plata» (61 %) y a sí misma (28 %).
CONSULTAS_INICIALES = (
    (0.8, -2.0),  # Ana
    (-2.0, 1.0),  # guardó
    (0.8, 1.6),  # la
    (1.6, -1.0),  # plata
    (2.0, -1.0),  # en
    (2.2, -1.0),  # el
    (1.0, 1.7),  # banco
)
CLAVES_INICIALES = (
    (-1.4, 0.9),  # Ana
    (-0.2, -1.3),  # guardó
    (-0.4, -0.5),  # la
    (1.3, 1.4),  # plata
    (-1.0, -1.0),  # en
    (0.4, -0.7),  # el
    (1.9, 0.4),  # banco
)
ELEGIDA_INICIAL = 6  # «banco»
T_MINIMA = 0.1
T_MAXIMA = 10.0
LIMITE_PLANO = 3.0  # el plano va de -3 a 3 en cada eje


def _como_tabla(nombre, vectores):
    """Convierte una lista de vectores 2-D en un array (L, 2) float64, o explica qué falla."""
    tabla = np.asarray(vectores, dtype=np.float64)
    if tabla.ndim != 2 or tabla.shape[1] != 2:
        raise ValueError(
            f"{nombre} debe ser una lista de vectores de 2 números, uno por palabra (forma (L, 2)), "
            f"pero tiene forma {tabla.shape}."
        )
    if not np.all(np.isfinite(tabla)):
        raise ValueError(f"{nombre} contiene NaN o infinitos; usa números normales.")
    return tabla


def comprobar_vectores(consultas, claves, elegida, temperatura):
    """Devuelve (Q, K) como arrays (L, 2) float64, o lanza un error claro si algo no encaja."""
    Q = _como_tabla("consultas", consultas)  # (L, 2)
    K = _como_tabla("claves", claves)  # (L, 2)
    if Q.shape != K.shape:
        raise ValueError(f"Hay {len(Q)} consultas y {len(K)} claves: debe haber una de cada por palabra.")
    if not 0 <= elegida < len(Q):
        raise ValueError(f"La palabra elegida debe ser un índice entre 0 y {len(Q) - 1}, no {elegida}.")
    if not temperatura > 0:
        raise ValueError(f"La temperatura debe ser un número positivo (por ejemplo 1.0), no {temperatura}.")
    return Q, K


def pesos_de_la_palabra(consultas, claves, elegida, temperatura=1.0, causal=False):
    """Devuelve los pesos (L,) con que la palabra `elegida` mira a cada palabra: softmax(q·k / (√2·T))."""
    Q, K = comprobar_vectores(consultas, claves, elegida, temperatura)  # (L, 2) y (L, 2)
    puntajes = K @ Q[elegida] / (math.sqrt(2) * temperatura)  # (L,) un puntaje por palabra
    visibles = np.arange(len(K)) <= elegida if causal else np.ones(len(K), dtype=bool)
    puntajes = np.where(visibles, puntajes, -np.inf)  # máscara causal: lo posterior no cuenta
    puntajes = puntajes - puntajes[visibles].max()  # restar el máximo evita desbordes con T pequeña
    exponenciales = np.exp(puntajes)  # exp(-inf) = 0: lo oculto no recibe nada
    return exponenciales / exponenciales.sum()


def porcentajes_redondeados(pesos):
    """Porcentajes enteros que suman exactamente 100 (método del resto mayor); devuelve una lista de int."""
    pesos = np.asarray(pesos, dtype=np.float64)
    if pesos.ndim != 1 or len(pesos) == 0 or not np.all(np.isfinite(pesos)) or np.any(pesos < 0):
        raise ValueError("Los pesos deben ser una lista no vacía de números finitos y no negativos.")
    total = pesos.sum()
    if total <= 0:
        raise ValueError("Los pesos suman 0: al menos una palabra debe recibir algo de atención.")
    exactos = 100 * pesos / total
    enteros = np.floor(exactos).astype(int)
    faltan = 100 - int(enteros.sum())
    # Los que más perdieron al truncar reciben un punto más (a igualdad, el primero de la frase).
    orden = sorted(range(len(pesos)), key=lambda i: (-(exactos[i] - enteros[i]), i))
    for i in orden[:faltan]:
        enteros[i] += 1
    return [int(e) for e in enteros]


def resumen(palabras, pesos, elegida):
    """Una frase que cuenta a quién mira la palabra `elegida`, con los porcentajes de las barras."""
    pesos = np.asarray(pesos, dtype=np.float64)
    porcentajes = porcentajes_redondeados(pesos)
    visibles = [i for i in range(len(pesos)) if pesos[i] > 0]

    def nombre(i):
        return "sí misma" if i == elegida else f"«{palabras[i]}»"

    quien = f"«{palabras[elegida]}»"
    if len(visibles) == 1:
        return f"{quien} solo puede mirar a {nombre(visibles[0])} ({porcentajes[visibles[0]]} %)"
    if pesos[visibles].max() - pesos[visibles].min() < 0.01:
        return f"{quien} reparte su atención casi por igual entre las {len(visibles)} palabras que ve"
    orden = sorted(visibles, key=lambda i: (-pesos[i], i))
    primera, segunda = orden[0], orden[1]
    if porcentajes[segunda] == 0:
        return f"{quien} mira casi solo a {nombre(primera)} ({porcentajes[primera]} %)"
    return (f"{quien} mira sobre todo a {nombre(primera)} ({porcentajes[primera]} %) "
            f"y después a {nombre(segunda)} ({porcentajes[segunda]} %)")


def recortar(valor, minimo, maximo):
    """`valor` llevado al intervalo [minimo, maximo] (un NaN se convierte en `minimo`)."""
    valor = float(valor)
    if math.isnan(valor):
        return float(minimo)
    return float(min(max(valor, minimo), maximo))


def estado(consultas, claves, elegida, temperatura=1.0, causal=False):
    """Todo lo que muestra la actividad para unos vectores y controles: diccionario con pesos, porcentajes y frase."""
    temperatura = recortar(temperatura, T_MINIMA, T_MAXIMA)
    pesos = pesos_de_la_palabra(consultas, claves, elegida, temperatura, causal)
    return {
        "pesos": [float(p) for p in pesos],
        "porcentajes": porcentajes_redondeados(pesos),
        "visibles": [bool(i <= elegida or not causal) for i in range(len(pesos))],
        "resumen": resumen(PALABRAS if len(pesos) == len(PALABRAS) else [str(i) for i in range(len(pesos))],
                           pesos, elegida),
    }


# --- El widget ---------------------------------------------------------------------------------------

try:  # anywidget y traitlets vienen con el entorno del curso (y con Colab); sin ellos, la lógica sigue sirviendo.
    import anywidget
    import traitlets
except ImportError:  # pragma: no cover
    anywidget = None

_CARPETA = pathlib.Path(__file__).resolve().parent

if anywidget is not None:

    class AQuienMira(anywidget.AnyWidget):
        """La actividad interactiva: elige una palabra, arrastra vectores, cambia T y la máscara causal."""

        _esm = (_CARPETA / "actividad_01.js").read_text(encoding="utf-8")
        _css = (_CARPETA / "actividad_01.css").read_text(encoding="utf-8")

        palabras = traitlets.List(traitlets.Unicode()).tag(sync=True)
        consultas = traitlets.List().tag(sync=True)
        claves = traitlets.List().tag(sync=True)
        elegida = traitlets.Int(ELEGIDA_INICIAL).tag(sync=True)
        temperatura = traitlets.Float(1.0).tag(sync=True)
        causal = traitlets.Bool(False).tag(sync=True)
        # Calculado en Python y dibujado por JavaScript:
        pesos = traitlets.List().tag(sync=True)
        porcentajes = traitlets.List().tag(sync=True)
        visibles = traitlets.List().tag(sync=True)
        frase = traitlets.Unicode("").tag(sync=True)
        limites = traitlets.Dict().tag(sync=True)

        def __init__(self, **opciones):
            super().__init__(**opciones)
            self.limites = {"t_minima": T_MINIMA, "t_maxima": T_MAXIMA, "plano": LIMITE_PLANO}
            self.reiniciar()
            self.observe(self._recalcular, names=["consultas", "claves", "elegida", "temperatura", "causal"])
            self.on_msg(self._mensaje)

        def reiniciar(self):
            """Vuelve al estado inicial: «banco» elegida, T = 1, sin máscara y los vectores de partida."""
            with self.hold_trait_notifications():
                self.palabras = list(PALABRAS)
                self.consultas = [list(v) for v in CONSULTAS_INICIALES]
                self.claves = [list(v) for v in CLAVES_INICIALES]
                self.elegida = ELEGIDA_INICIAL
                self.temperatura = 1.0
                self.causal = False
            self._recalcular()

        def _recalcular(self, _cambio=None):
            limite = LIMITE_PLANO
            consultas = [[recortar(x, -limite, limite) for x in v] for v in self.consultas]
            claves = [[recortar(x, -limite, limite) for x in v] for v in self.claves]
            elegida = int(recortar(self.elegida, 0, len(PALABRAS) - 1))
            nuevo = estado(consultas, claves, elegida, self.temperatura, self.causal)
            with self.hold_sync():
                self.pesos = nuevo["pesos"]
                self.porcentajes = nuevo["porcentajes"]
                self.visibles = nuevo["visibles"]
                self.frase = nuevo["resumen"]

        def _mensaje(self, _widget, contenido, _buffers):
            if isinstance(contenido, dict) and contenido.get("accion") == "reiniciar":
                self.reiniciar()

        def __repr__(self):
            return (f"Actividad interactiva «¿A quién mira cada palabra?»: ejecuta la celda para usarla. "
                    f"Al empezar: {self.frase}.")


# --- Dibujo estático (matplotlib) --------------------------------------------------------------------


def dibujar_estado(consultas=CONSULTAS_INICIALES, claves=CLAVES_INICIALES, elegida=ELEGIDA_INICIAL,
                   temperatura=1.0, causal=False, palabras=PALABRAS):
    """Dibuja lo mismo que la actividad, sin interacción: arcos, plano y barras; devuelve la figura."""
    import matplotlib.pyplot as plt
    from matplotlib.patches import PathPatch
    from matplotlib.path import Path

    from utilidades.graficos import ACENTO, GRIS, TINTA, barras_de_pesos

    datos = estado(consultas, claves, elegida, temperatura, causal)
    pesos = np.asarray(datos["pesos"])
    Q = _como_tabla("consultas", consultas)
    K = _como_tabla("claves", claves)
    fig = plt.figure(figsize=(12, 7.4))
    rejilla = fig.add_gridspec(2, 2, height_ratios=[1, 2.1], width_ratios=[1, 1.25], hspace=0.25, wspace=0.25)
    ax_frase = fig.add_subplot(rejilla[0, :])
    ax_plano = fig.add_subplot(rejilla[1, 0])
    ax_barras = fig.add_subplot(rejilla[1, 1])

    # 1. La frase y los arcos (más gruesos cuanto más peso).
    xs = np.arange(len(palabras))
    for j in xs:
        if not datos["visibles"][j]:
            continue
        if j == elegida:  # un lazo sobre la propia palabra
            puntos = [(j - 0.12, 0.3), (j - 0.45, 1.3), (j + 0.45, 1.3), (j + 0.12, 0.3)]
            codigos = [Path.MOVETO, Path.CURVE4, Path.CURVE4, Path.CURVE4]
        else:  # una curva que sube más cuanto más lejos está la palabra
            altura = min(1.9, 0.45 + 0.3 * abs(j - elegida))
            puntos = [(elegida, 0.3), ((elegida + j) / 2, 0.3 + 2 * altura), (j, 0.3)]
            codigos = [Path.MOVETO, Path.CURVE3, Path.CURVE3]
        ax_frase.add_patch(PathPatch(Path(puntos, codigos), fill=False, lw=1 + 16 * pesos[j], color=ACENTO,
                                     alpha=0.25 + 0.75 * pesos[j], capstyle="round"))
    for j, palabra in enumerate(palabras):
        elegida_aqui = j == elegida
        ax_frase.text(j, 0, palabra, ha="center", va="center", fontsize=17,
                      color="white" if elegida_aqui else (TINTA if datos["visibles"][j] else GRIS),
                      fontweight="bold" if elegida_aqui else "normal",
                      bbox={"boxstyle": "round,pad=0.4", "fc": ACENTO if elegida_aqui else "#f3f5f9",
                            "ec": ACENTO if elegida_aqui else GRIS})
    ax_frase.set_xlim(-0.6, len(palabras) - 0.4)
    ax_frase.set_ylim(-0.35, 2.35)
    ax_frase.axis("off")
    ax_frase.set_title(datos["resumen"], fontsize=15)

    # 2. El plano: la consulta de la palabra elegida como flecha y todas las claves como puntos.
    ax_plano.axhline(0, color=GRIS, lw=1)
    ax_plano.axvline(0, color=GRIS, lw=1)
    for j, palabra in enumerate(palabras):
        ax_plano.scatter(*K[j], s=60 + 400 * pesos[j], color=ACENTO if j == elegida else TINTA,
                         alpha=0.85 if datos["visibles"][j] else 0.25, zorder=3)
        ax_plano.annotate(palabra, K[j], xytext=(8, 6), textcoords="offset points", fontsize=12)
    ax_plano.annotate("", xy=Q[elegida], xytext=(0, 0),
                      arrowprops={"arrowstyle": "-|>", "color": ACENTO, "lw": 3, "mutation_scale": 20})
    # El nombre de la flecha va en una esquina, lejos de las claves, para no tapar ninguna etiqueta.
    ax_plano.text(0.03, 0.97, f"flecha: consulta de «{palabras[elegida]}»", transform=ax_plano.transAxes,
                  ha="left", va="top", color=ACENTO, fontsize=12, fontweight="bold")
    ax_plano.set_xlim(-LIMITE_PLANO, LIMITE_PLANO)
    ax_plano.set_ylim(-LIMITE_PLANO, LIMITE_PLANO)
    ax_plano.set_aspect("equal")
    ax_plano.set_title("consulta (flecha) y claves (puntos)")

    # 3. Las barras con los porcentajes, que suman 100 %.
    barras_de_pesos(np.asarray(datos["porcentajes"]) / 100, list(palabras), ax=ax_barras,
                    titulo=f"pesos de «{palabras[elegida]}» (T = {temperatura:g})")
    ax_barras.tick_params(axis="x", rotation=30)
    return fig


if anywidget is None:

    class AQuienMira:
        """Sin anywidget (Binder, Kaggle, una imagen antigua) no hay actividad interactiva: se dice en castellano y
        se muestra la misma actividad quieta, con los mismos datos, para seguir con las preguntas guiadas."""

        AVISO = ("La actividad interactiva necesita el paquete anywidget, que este Jupyter no tiene. En el entorno "
                 "del curso (`python3 tareas.py abrir`) y en Colab ya viene; aquí puedes instalarlo con "
                 "`pip install anywidget` y reiniciar el kernel. Mientras, esta es la actividad quieta, en su estado "
                 "inicial: las preguntas guiadas se pueden responder con ella.")

        def __init__(self):
            self.consultas = [list(v) for v in CONSULTAS_INICIALES]
            self.claves = [list(v) for v in CLAVES_INICIALES]
            self.elegida = ELEGIDA_INICIAL
            self.frase = estado(self.consultas, self.claves, self.elegida)["resumen"]
            print(self.AVISO)

        def __repr__(self):
            return f"Actividad «¿A quién mira cada palabra?» (quieta, sin anywidget): {self.frase}"

        def _repr_png_(self):
            from utilidades.paneles import figura_a_png

            return figura_a_png(dibujar_estado(self.consultas, self.claves, self.elegida))
