"""Actividad «¿A quién mira cada palabra?» (lección 01): la lógica en Python y el widget que la dibuja.

La lógica (pesos, máscara causal, temperatura, porcentajes, frase resumen) son funciones normales con
pruebas. El widget (`AQuienMira`) usa anywidget: un módulo de JavaScript propio (`actividad_01.js`,
sin dependencias de red) dibuja la frase, el plano y las barras. La página calcula los mismos pesos que
`estado` (para responder al ratón sin esperar al kernel; una prueba en el navegador los compara) y manda los
vectores, la palabra, T y la máscara a Python al terminar cada gesto: lo que leen las comprobaciones es lo de
Python.
"""

import math
import pathlib

import numpy as np

PALABRAS = ("Ana", "guardó", "la", "plata", "en", "el", "banco")

# Vectores 2-D de juguete elegidos a mano: con T = 1, la palabra «banco» mira a «plata» (61 %) y a sí misma (28 %).
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


# Dos números que difieren menos que esto cuentan como iguales al ordenar: la página (JavaScript) y NumPy pueden
# diferir en el último decimal con pesos que en exactas son iguales (en la rejilla de 0.1 del plano es fácil), y
# así las dos ordenan igual: primero el mayor y, a igualdad, el primero de la frase.
TOLERANCIA_EMPATE = 1e-9


def orden_con_empates(valores, indices=None):
    """Los `indices` (por defecto, todos) de mayor a menor valor; a igualdad (dentro de TOLERANCIA_EMPATE), primero
    el índice menor. Devuelve una lista."""
    quedan = list(range(len(valores)) if indices is None else indices)
    orden = []
    while quedan:
        maximo = max(valores[i] for i in quedan)
        siguiente = min(i for i in quedan if valores[i] >= maximo - TOLERANCIA_EMPATE)
        orden.append(siguiente)
        quedan.remove(siguiente)
    return orden


def porcentajes_redondeados(pesos):
    """Porcentajes enteros que suman exactamente 100 (método del resto mayor); devuelve una lista de int."""
    pesos = np.asarray(pesos, dtype=np.float64)
    if pesos.ndim != 1 or len(pesos) == 0 or not np.all(np.isfinite(pesos)) or np.any(pesos < 0):
        raise ValueError("Los pesos deben ser una lista no vacía de números finitos y no negativos.")
    total = pesos.sum()
    if total <= 0:
        raise ValueError("Los pesos suman 0: al menos una palabra debe recibir algo de atención.")
    exactos = 100 * pesos / total
    enteros = np.floor(exactos + TOLERANCIA_EMPATE).astype(int)  # 14.999999999999998 cuenta como 15
    faltan = 100 - int(enteros.sum())
    # Los que más perdieron al truncar reciben un punto más (a igualdad, el primero de la frase).
    restos = [float(exactos[i] - enteros[i]) for i in range(len(pesos))]
    for i in orden_con_empates(restos)[:faltan]:
        enteros[i] += 1
    return [int(e) for e in enteros]


def resumen(palabras, pesos, elegida):
    """Una frase que cuenta a quién mira la palabra `elegida`, con los porcentajes de las barras. Empieza por «La
    palabra»: así «a sí misma» concuerda con ella, sea cual sea el género de la palabra («banco», «el», «Ana»)."""
    pesos = np.asarray(pesos, dtype=np.float64)
    porcentajes = porcentajes_redondeados(pesos)
    visibles = [i for i in range(len(pesos)) if pesos[i] > 0]

    def nombre(i):
        return "sí misma" if i == elegida else f"«{palabras[i]}»"

    quien = f"La palabra «{palabras[elegida]}»"
    if len(visibles) == 1:
        return f"{quien} solo puede mirar a {nombre(visibles[0])} ({porcentajes[visibles[0]]} %)"
    if pesos[visibles].max() - pesos[visibles].min() < 0.01:
        return f"{quien} reparte su atención casi por igual entre las {len(visibles)} palabras que ve"
    primera, segunda = orden_con_empates([float(p) for p in pesos], visibles)[:2]
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
        # Calculado en Python con cada estado que llega de la página (la página dibuja su propio cálculo, igual):
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
                    f"Al empezar, {self.frase[:1].lower() + self.frase[1:]}.")


# --- Dibujo estático (matplotlib) --------------------------------------------------------------------


def TAMANO_PUNTO(peso):  # noqa: N802 (una fórmula, escrita como las constantes)
    """Área (en puntos², la `s` de scatter) del punto de una clave que recibe `peso`: 60 + 400·peso."""
    return 60 + 400 * peso


def _colocar_etiquetas(ax, renderer, etiquetas, posiciones, areas, consulta, esquina):
    """Pone cada nombre junto a su punto, en la primera de ocho posiciones (primero hacia fuera del origen) que no
    pisa otro nombre, ningún punto, el cruce de los ejes, la flecha ni el rótulo de la esquina, sin salir del plano.
    Si ninguna está libre, la que menos pisa."""
    a_pixeles = ax.transData.transform
    escala = ax.figure.dpi / 72  # puntos → píxeles
    origen = a_pixeles((0.0, 0.0))
    cruce = [origen[0] - 6, origen[1] - 6, origen[0] + 6, origen[1] + 6]
    puntos = []
    for (x, y), area in zip(posiciones, areas):
        cx, cy = a_pixeles((x, y))
        r = math.sqrt(area) / 2 * escala
        puntos.append([cx - r, cy - r, cx + r, cy + r])
    flecha = [a_pixeles((0.0, 0.0)) + t * (a_pixeles(tuple(consulta)) - origen) for t in np.linspace(0.05, 1, 20)]
    caja_ejes = ax.get_window_extent(renderer)
    ocupadas = [list(esquina.get_window_extent(renderer).extents)]

    def pisa(a, b):
        return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]

    direcciones = [(math.cos(a), math.sin(a)) for a in np.radians(np.arange(0, 360, 45))]
    for j, etiqueta in enumerate(etiquetas):
        x, y = posiciones[j]
        hacia_fuera = math.atan2(y, x) if (x, y) != (0, 0) else math.pi / 4
        orden = sorted(direcciones, key=lambda d: -(d[0] * math.cos(hacia_fuera) + d[1] * math.sin(hacia_fuera)))
        separacion = math.sqrt(areas[j]) / 2 + 3  # en puntos, desde el centro del punto
        mejor = None
        for dx, dy in orden:
            etiqueta.set_position((dx * separacion, dy * separacion))
            etiqueta.set_horizontalalignment("left" if dx > 0.3 else "right" if dx < -0.3 else "center")
            etiqueta.set_verticalalignment("bottom" if dy > 0.3 else "top" if dy < -0.3 else "center")
            caja = list(etiqueta.get_window_extent(renderer).extents)
            fuera = (caja[0] < caja_ejes.x0 or caja[2] > caja_ejes.x1 or caja[1] < caja_ejes.y0
                     or caja[3] > caja_ejes.y1)
            # Un nombre más cerca de otro punto que del suyo confunde: también cuenta como choque.
            cerca = [math.hypot(max(c[0] - caja[2], caja[0] - c[2], 0), max(c[1] - caja[3], caja[1] - c[3], 0))
                     for c in ([(p[0] + p[2]) / 2, (p[1] + p[3]) / 2] * 2 for p in puntos)]
            ajeno = any(cerca[k] <= cerca[j] + 2 for k in range(len(puntos)) if k != j)
            choques = (10 * fuera + 10 * sum(pisa(caja, o) for o in ocupadas) + 8 * ajeno
                       + 10 * sum(pisa(caja, p) for k, p in enumerate(puntos) if k != j)
                       + 5 * pisa(caja, cruce) + sum(caja[0] <= px <= caja[2] and caja[1] <= py <= caja[3]
                                                     for px, py in flecha))
            if mejor is None or choques < mejor[0]:
                mejor = (choques, (dx, dy), caja)
            if choques == 0:
                break
        dx, dy = mejor[1]
        etiqueta.set_position((dx * separacion, dy * separacion))
        etiqueta.set_horizontalalignment("left" if dx > 0.3 else "right" if dx < -0.3 else "center")
        etiqueta.set_verticalalignment("bottom" if dy > 0.3 else "top" if dy < -0.3 else "center")
        ocupadas.append(mejor[2])


def dibujar_estado(consultas=CONSULTAS_INICIALES, claves=CLAVES_INICIALES, elegida=ELEGIDA_INICIAL,
                   temperatura=1.0, causal=False, palabras=PALABRAS):
    """Dibuja lo mismo que la actividad, sin interacción: arcos, plano y barras; devuelve la figura."""
    import matplotlib.pyplot as plt
    from matplotlib.patches import PathPatch
    from matplotlib.path import Path
    from matplotlib.ticker import FuncFormatter

    from utilidades.graficos import ACENTO, GRIS, TINTA, ajustar_a_proyector, barras_de_pesos

    datos = estado(consultas, claves, elegida, temperatura, causal)
    pesos = np.asarray(datos["pesos"])
    Q = _como_tabla("consultas", consultas)
    K = _como_tabla("claves", claves)
    fig = plt.figure(figsize=(9, 6))  # lo que cabe en un proyector sin encoger la letra
    ajustar_a_proyector(fig)  # aunque no se haya aplicado el estilo del curso: coloca los nombres al dibujar
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
    ax_frase.set_title(datos["resumen"], fontsize=14)

    # 2. El plano: la consulta de la palabra elegida como flecha y todas las claves como puntos, de área
    #    TAMANO_PUNTO(p): más grandes cuanto más peso reciben (la leyenda de debajo da la escala).
    ax_plano.axhline(0, color=GRIS, lw=1)
    ax_plano.axvline(0, color=GRIS, lw=1)
    etiquetas = []
    for j, palabra in enumerate(palabras):
        ax_plano.scatter(*K[j], s=TAMANO_PUNTO(pesos[j]), color=ACENTO if j == elegida else TINTA,
                         alpha=0.85 if datos["visibles"][j] else 0.25, zorder=3)
        # El nombre de la clave de la palabra elegida, en su mismo rojo: junto a otra clave no parece de esa otra.
        color = {"color": ACENTO} if j == elegida else {}
        etiquetas.append(ax_plano.annotate(palabra, K[j], xytext=(8, 6), textcoords="offset points", fontsize=12,
                                           **color))
    # La punta se queda 5 puntos antes de la consulta y la cabeza es algo menor que la de matplotlib: en el estado
    # inicial la clave de «plata» está a 0.42 de la consulta de «banco», y con la flecha entera la cabeza la rozaba.
    ax_plano.annotate("", xy=Q[elegida], xytext=(0, 0),
                      arrowprops={"arrowstyle": "-|>", "color": ACENTO, "lw": 3, "mutation_scale": 17,
                                  "shrinkA": 0, "shrinkB": 5})
    # El nombre de la flecha va en una esquina, lejos de las claves, para no tapar ninguna etiqueta.
    # El punto de su clave va en el mismo rojo que la palabra elegida: el rótulo lo dice, para que nadie lo tome por
    # una segunda consulta.
    esquina = ax_plano.text(0.03, 0.97, f"flecha: consulta de «{palabras[elegida]}»\npunto rojo: su clave",
                            transform=ax_plano.transAxes, ha="left", va="top", color=ACENTO, fontsize=12,
                            fontweight="bold")
    # Cada nombre se coloca al dibujar (con la letra ya definitiva) donde no pise otro nombre, un punto, el cruce
    # de los ejes ni la flecha.
    ax_plano._ajustes_al_dibujar = [lambda ax, renderer: _colocar_etiquetas(
        ax, renderer, etiquetas, K, [TAMANO_PUNTO(p) for p in pesos], Q[elegida], esquina)]
    muestras = [ax_plano.scatter([], [], s=TAMANO_PUNTO(p), color=TINTA, alpha=0.85) for p in (0.1, 0.3, 0.6)]
    ax_plano.legend(muestras, ["10 %", "30 %", "60 %"], title="cada punto es una clave;\nsu tamaño, el peso que recibe",
                    ncol=3, loc="upper center", bbox_to_anchor=(0.5, -0.1), frameon=False, fontsize=12,
                    title_fontsize=12, handletextpad=0.3, columnspacing=1.2)
    ax_plano.set_xlim(-LIMITE_PLANO, LIMITE_PLANO)
    ax_plano.set_ylim(-LIMITE_PLANO, LIMITE_PLANO)
    ax_plano.set_aspect("equal")
    ax_plano.set_title("consulta y claves")  # la esquina nombra la flecha; la leyenda, los puntos

    # 3. Las barras con los porcentajes, que suman 100 %.
    barras_de_pesos(np.asarray(datos["porcentajes"]) / 100, list(palabras), ax=ax_barras,
                    titulo=f"pesos de «{palabras[elegida]}» (T = {temperatura:g})")
    ax_barras.tick_params(axis="x", rotation=30)
    # El eje, en porcentajes como los números de encima de las barras (0 %, 20 %, …, 100 %).
    ax_barras.set_yticks(np.linspace(0, 1, 6))
    ax_barras.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{100 * v:.0f} %"))
    ax_barras.set_ylabel("")  # las marcas ya dicen la unidad, y el título qué se mide
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
