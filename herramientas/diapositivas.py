"""Diapositivas de cada lección: metadatos de presentación por reglas y diapositivas reveal.js estáticas.

Uso:
    python3 tareas.py diapositivas [CUADERNO ...]            escribe resultados/diapositivas/NN_nombre.slides.html
    python3 tareas.py diapositivas --marcar [CUADERNO ...]   escribe los metadatos `slideshow` en las lecciones
(por dentro, python -m herramientas.diapositivas html|marcar [CUADERNO ...]). Sin cuadernos: todas las lecciones.

Las reglas (una sola fuente para todo el curso, así las lecciones se presentan igual):
- el título de la lección y cada sección «## …» abren una diapositiva; cada «### …», una subdiapositiva;
- una celda con figura (imagen) o con un panel interactivo (widget) abre una diapositiva: es lo que se presenta
  en directo;
- el código largo (más de 15 líneas, como el de las celdas «# guardar: …») va en su propia subdiapositiva, y lo
  que no cabe en una pantalla (más de 22 líneas seguidas de texto, código y salida; una figura cuenta 14) pasa a
  otra;
- la celda de preparación, las de navegación y las comprobaciones que solo afirman (`assert`) se saltan.

Con JupyterLab y `jupyterlab-rise` (en requirements.txt), Alt+R presenta la lección con celdas ejecutables.
"""

import ast
import json
import pathlib
import sys

from herramientas.cuadernos import (
    ETIQUETA_NAVEGACION,
    RAIZ,
    cuadernos,
    escribir_cuaderno,
    fuente,
    leer_argumentos,
    leer_cuaderno,
)

CARPETA = RAIZ / "resultados" / "diapositivas"  # resultados/ no se guarda en git
LINEAS_LARGO = 15  # código con más líneas que esto: subdiapositiva propia
LINEAS_PANTALLA = 22  # líneas (texto, código y salida) que caben en una diapositiva a 1280 × 720
LINEAS_FIGURA = 14  # lo que ocupa una figura, en líneas


def _solo_afirma(codigo):
    """True si la celda solo contiene `assert` (una comprobación del curso, no algo que presentar)."""
    try:
        cuerpo = ast.parse(codigo).body
    except SyntaxError:
        return False
    return bool(cuerpo) and all(isinstance(n, ast.Assert) for n in cuerpo)


def _tipos_de_salida(celda):
    return {clave for salida in celda.get("outputs", []) for clave in salida.get("data", {})}


def _lineas_de_salida(celda):
    """Líneas de texto que muestra la celda al ejecutarse (las figuras cuentan LINEAS_FIGURA)."""
    total = 0
    for salida in celda.get("outputs", []):
        datos = salida.get("data", {})
        if "image/png" in datos:
            total += LINEAS_FIGURA
        texto = salida.get("text", datos.get("text/plain", ""))
        total += len("".join(texto).splitlines())
    return total


def tipo_de_diapositiva(celda, primera_de_codigo=False):
    """El `slide_type` que toca a una celda según las reglas (sin tener en cuenta lo que lleva delante)."""
    texto = fuente(celda)
    if ETIQUETA_NAVEGACION in celda.get("metadata", {}).get("tags", []):
        return "skip"
    if primera_de_codigo and "preparar(" in texto:  # la celda de preparación
        return "skip"
    if celda["cell_type"] == "markdown":
        primera = texto.lstrip().split("\n", 1)[0]
        if primera.startswith(("# ", "## ")):
            return "slide"
        if primera.startswith("### "):
            return "subslide"
        return "-"
    if celda["cell_type"] != "code":
        return "skip"
    if not texto.strip() or (_solo_afirma(texto) and not celda.get("outputs")):
        return "skip"
    tipos = _tipos_de_salida(celda)
    if "image/png" in tipos or any("widget" in t for t in tipos):
        return "slide"
    if len(texto.splitlines()) > LINEAS_LARGO:
        return "subslide"
    return "-"


def marcar(cuaderno):
    """Escribe metadata.slideshow en cada celda del cuaderno (un diccionario); devuelve cuántas cambiaron."""
    cambiadas, ocupadas = 0, 0
    primera_de_codigo = True
    for celda in cuaderno["cells"]:
        es_codigo = celda["cell_type"] == "code"
        tipo = tipo_de_diapositiva(celda, primera_de_codigo and es_codigo)
        primera_de_codigo = primera_de_codigo and not es_codigo
        lineas = len(fuente(celda).splitlines()) + _lineas_de_salida(celda)
        if tipo == "-" and ocupadas + lineas > LINEAS_PANTALLA and ocupadas > 0:
            tipo = "subslide"  # no cabe en la pantalla: sigue debajo
        if tipo in ("slide", "subslide"):
            ocupadas = 0
        if tipo != "skip":
            ocupadas += lineas
        metadatos = celda.setdefault("metadata", {})
        if metadatos.get("slideshow") != {"slide_type": tipo}:
            metadatos["slideshow"] = {"slide_type": tipo}
            cambiadas += 1
    return cambiadas


def marcar_cuadernos(rutas=None):
    """Aplica las reglas a las lecciones (o a `rutas`) y guarda las que cambian; devuelve sus rutas."""
    cambiados = []
    for ruta in rutas or cuadernos(incluir_soluciones=False):
        cuaderno = leer_cuaderno(ruta)
        if marcar(cuaderno):
            escribir_cuaderno(ruta, cuaderno)
            cambiados.append(pathlib.Path(ruta))
    return cambiados


def escribir_html(ruta, carpeta=CARPETA):
    """Diapositivas reveal.js de un cuaderno con sus salidas guardadas (sin ejecutarlo); devuelve la ruta."""
    import nbformat
    from nbconvert import SlidesExporter

    cuaderno = leer_cuaderno(ruta)
    marcar(cuaderno)  # las reglas, también si el cuaderno aún no lleva los metadatos
    nodo = nbformat.reads(json.dumps(cuaderno), as_version=4)
    exportador = SlidesExporter()
    exportador.reveal_scroll = True  # una diapositiva larga se desplaza en lugar de cortarse
    html, _ = exportador.from_notebook_node(nodo, resources={"metadata": {"name": pathlib.Path(ruta).stem}})
    carpeta.mkdir(parents=True, exist_ok=True)
    destino = carpeta / f"{pathlib.Path(ruta).stem}.slides.html"
    destino.write_text(html, encoding="utf-8")
    return destino


def main(argumentos):
    if not argumentos or argumentos[0] not in ("marcar", "html"):
        print(__doc__)
        return 0 if argumentos[:1] in (["-h"], ["--help"], ["--ayuda"]) else 2
    orden, rutas = argumentos[0], leer_argumentos(argumentos[1:], uso=__doc__)[1]
    if orden == "marcar":
        cambiados = marcar_cuadernos(rutas or None)
        for ruta in cambiados:
            print(f"marcado: {ruta.relative_to(RAIZ)}")
        print(f"{len(cambiados)} cuadernos con metadatos de diapositivas nuevos.")
        return 0
    for ruta in rutas or cuadernos(incluir_soluciones=False):
        destino = escribir_html(ruta)
        print(f"{destino.relative_to(RAIZ)}")
    print(f"Ábrelas en un navegador con conexión (reveal.js y MathJax se cargan de internet). Carpeta: {CARPETA}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
