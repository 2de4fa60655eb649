"""La web del curso: un sitio estático con las lecciones, sus soluciones, el glosario, las cifras citadas, la guía
docente y una portada (el README), en resultados/sitio/.

    python3 tareas.py sitio [--destino CARPETA]

Usa Sphinx con myst-nb (los cuadernos con sus salidas GUARDADAS: nunca se ejecutan) y el tema sphinx-book-theme,
todo Python puro. Cada lección lleva arriba los botones para abrirla en Colab (la misma dirección que su insignia,
la de herramientas/celdas.py), para lanzarla en Binder y para descargar el .ipynb (el del repositorio, tal cual).
Las fórmulas las dibuja una copia local de MathJax (la del paquete jupyter-server-mathjax): el sitio se ve entero
sin conexión. Los widgets muestran su texto alternativo (una línea en castellano), no una caja vacía.

Se trabaja sobre copias en una carpeta temporal: los cuadernos del repositorio no se tocan. En las copias, los
enlaces a archivos que no forman parte del sitio (LICENSE, utilidades/…) apuntan a GitHub, en la versión publicada,
y la insignia de Colab se cambia por un enlace de texto (la imagen vendría de internet).
"""

import argparse
import json
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time

from herramientas.celdas import INSIGNIA_COLAB, REFERENCIA, REPOSITORIO
from herramientas.cuadernos import RAIZ

DESTINO = RAIZ / "resultados" / "sitio"
TITULO = "Atención y transformers"
LECCIONES = sorted((RAIZ / "notebooks").glob("[0-9][0-9]_*.ipynb"))
SOLUCIONES = sorted((RAIZ / "notebooks" / "soluciones").glob("[0-9][0-9]_*.ipynb"))
# Las páginas de texto, con su ruta en el repositorio (la misma que en el sitio); README.md es la portada.
TEXTOS = ["notebooks/GLOSARIO.md", "notebooks/CIFRAS_CITADAS.md", "DOCENTES.md"]
PORTADA = "README.md"
# MathJax 2 con su configuración completa (TeX y MathML), servido desde el propio sitio.
MATHJAX = "mathjax/MathJax.js?config=TeX-AMS-MML_HTMLorMML-full"
BINDER = "https://mybinder.org"
COLAB = "https://colab.research.google.com"
ENLACE = re.compile(r"(\]\()([^)\s]+)(\))")  # el destino de un enlace o una imagen de markdown


def paginas():
    """Las rutas (relativas a la raíz del repositorio) de cada página del sitio, portada incluida."""
    return ([PORTADA, *TEXTOS] + [str(p.relative_to(RAIZ)) for p in LECCIONES]
            + [str(p.relative_to(RAIZ)) for p in SOLUCIONES])


def enlace_en_github(ruta):
    """Dirección en GitHub (en la versión publicada) de un archivo o carpeta del repositorio."""
    tipo = "tree" if (RAIZ / ruta).is_dir() else "blob"
    return f"{REPOSITORIO}/{tipo}/{REFERENCIA}/{ruta.rstrip('/')}"


def adaptar_markdown(texto, ruta, en_el_sitio):
    """El markdown de la página `ruta` (relativa a la raíz) listo para el sitio.

    La insignia de Colab pasa a ser un enlace de texto (su imagen está en internet), y cada enlace relativo a algo
    que no es una página del sitio apunta a GitHub. Los enlaces entre páginas se quedan como están: myst los
    resuelve (y avisa si alguno no existe).
    """
    texto = texto.replace(f"[![Abrir en Colab]({INSIGNIA_COLAB})]", "[Abrir en Colab]")
    carpeta = pathlib.PurePosixPath(ruta).parent

    def cambiar(encaje):
        destino = encaje.group(2)
        if re.match(r"^[a-z][a-z0-9+.-]*:", destino, re.I) or destino.startswith("#"):
            return encaje.group(0)  # una dirección completa (https:, mailto:) o un ancla de la misma página
        archivo, _, ancla = destino.partition("#")
        normalizada = _normalizar(carpeta / archivo)
        if normalizada in en_el_sitio:
            return encaje.group(0)
        return f"{encaje.group(1)}{enlace_en_github(normalizada)}{'#' + ancla if ancla else ''}{encaje.group(3)}"

    return ENLACE.sub(cambiar, texto)


def _normalizar(ruta):
    """'notebooks/../LICENSE' → 'LICENSE' (sin tocar el disco)."""
    partes = []
    for parte in pathlib.PurePosixPath(ruta).parts:
        if parte == "..":
            partes.pop()
        elif parte != ".":
            partes.append(parte)
    return "/".join(partes)


def indice(portada):
    """La portada con los índices ocultos que ordenan el sitio (y dan «anterior» y «siguiente»)."""
    def toctree(titulo, rutas):
        lineas = "\n".join(rutas)
        return f"\n\n```{{toctree}}\n:hidden:\n:caption: {titulo}\n\n{lineas}\n```\n"

    sin_extension = lambda rutas: [str(pathlib.PurePosixPath(r).with_suffix("")) for r in rutas]  # noqa: E731
    return (portada
            + toctree("Lecciones", sin_extension(str(p.relative_to(RAIZ)) for p in LECCIONES))
            + toctree("Soluciones", sin_extension(str(p.relative_to(RAIZ)) for p in SOLUCIONES))
            + toctree("Referencia", sin_extension(TEXTOS)))


def configuracion():
    """Las opciones de Sphinx (se escriben como conf.py en la carpeta de trabajo)."""
    return {
        "project": TITULO,
        "author": "Las personas autoras del curso",
        "copyright": "el texto, CC BY 4.0; el código, MIT",
        "language": "es",
        "extensions": ["myst_nb"],
        "nb_execution_mode": "off",  # las salidas guardadas, tal cual: el sitio no ejecuta nada
        # Los widgets no guardan su estado: se muestra su texto alternativo en vez de una caja que no carga.
        "nb_mime_priority_overrides": [["html", "application/vnd.jupyter.widget-view+json", None]],
        "nb_ipywidgets_js": {},
        "myst_enable_extensions": ["dollarmath", "amsmath"],
        "myst_heading_anchors": 4,
        "mathjax_path": MATHJAX,
        # La copia de jupyter-server-mathjax solo trae las fuentes STIX-Web (como el Notebook clásico). myst-nb marca
        # cada cuaderno para que MathJax lo ignore salvo las fórmulas (clase math), como hace con MathJax 3.
        "mathjax2_config": {
            "HTML-CSS": {"availableFonts": [], "webFont": "STIX-Web", "imageFont": None},
            "SVG": {"font": "STIX-Web"},
            # Un error de TeX o una orden que no existe se ven como error (MathJax los disimula por defecto).
            "TeX": {"noErrors": {"disabled": True}, "noUndefined": {"disabled": True}},
            "tex2jax": {"processClass": "tex2jax_process|mathjax_process|math|output_area",
                        "ignoreClass": "tex2jax_ignore|mathjax_ignore|document"},
        },
        "html_theme": "sphinx_book_theme",
        "html_title": TITULO,
        "html_static_path": ["_static"],
        "html_sourcelink_suffix": "",
        "html_last_updated_fmt": None,
        "html_theme_options": {
            "repository_url": REPOSITORIO,
            "repository_branch": REFERENCIA,
            "path_to_docs": "",
            "use_repository_button": True,
            "use_download_button": True,
            "home_page_in_toc": True,
            "launch_buttons": {"colab_url": COLAB, "binderhub_url": BINDER, "notebook_interface": "jupyterlab"},
        },
        "exclude_patterns": ["_build"],
        # Las soluciones (de H1 a H3) y la guía docente (de H2 a H4) saltan niveles de título a propósito.
        "suppress_warnings": ["myst.header"],
    }


def copia_de_mathjax(destino):
    """Copia MathJax 2 (del paquete jupyter-server-mathjax) en `destino`, sin las traducciones que no usa."""
    import jupyter_server_mathjax

    origen = pathlib.Path(jupyter_server_mathjax.__file__).parent / "static"
    if not (origen / "MathJax.js").exists():
        sys.exit("No encuentro MathJax en el paquete jupyter-server-mathjax. Reinstala el entorno de quien "
                 "contribuye: borra .venv y ejecuta python3 tareas.py sitio.")
    ignorar = shutil.ignore_patterns("*.md", "LICENSE")

    def sin_idiomas(carpeta, nombres):
        if pathlib.Path(carpeta).name == "localization":
            return [n for n in nombres if n not in ("es", "en")]
        return ignorar(carpeta, nombres)

    shutil.copytree(origen, destino, ignore=sin_idiomas)


def preparar_fuente(fuente):
    """Escribe en `fuente` las copias de las páginas (adaptadas), la portada con su índice, MathJax y conf.py."""
    en_el_sitio = set(paginas())
    for ruta in paginas():
        destino = fuente / ("index.md" if ruta == PORTADA else ruta)
        destino.parent.mkdir(parents=True, exist_ok=True)
        texto = (RAIZ / ruta).read_text(encoding="utf-8")
        if ruta.endswith(".ipynb"):
            cuaderno = json.loads(texto)
            for celda in cuaderno["cells"]:
                if celda["cell_type"] == "markdown":
                    fuente_celda = "".join(celda["source"]) if isinstance(celda["source"], list) else celda["source"]
                    celda["source"] = adaptar_markdown(fuente_celda, ruta, en_el_sitio)
            texto = json.dumps(cuaderno, ensure_ascii=False, indent=1)
        else:
            texto = adaptar_markdown(texto, ruta, en_el_sitio)
            if ruta == PORTADA:
                texto = indice(texto)
        destino.write_text(texto, encoding="utf-8")
    copia_de_mathjax(fuente / "_static" / "mathjax")
    opciones = configuracion()
    lineas = ["# Escrito por herramientas/sitio.py en cada construcción: los cambios se hacen allí."]
    lineas += [f"{clave} = {valor!r}" for clave, valor in opciones.items()]
    (fuente / "conf.py").write_text("\n".join(lineas) + "\n", encoding="utf-8")


def construir(destino=DESTINO, silencioso=False):
    """Construye el sitio en `destino` (lo borra antes) y devuelve los segundos que tardó."""
    inicio = time.perf_counter()
    destino = pathlib.Path(destino)
    with tempfile.TemporaryDirectory(prefix="sitio-") as temporal:
        fuente = pathlib.Path(temporal) / "fuente"
        html = pathlib.Path(temporal) / "html"  # myst-nb deja sus figuras junto a esta carpeta: en la temporal
        preparar_fuente(fuente)
        orden = [sys.executable, "-m", "sphinx", "-b", "html", "-E", "-j", "auto", "--keep-going",
                 str(fuente), str(html), "-d", str(pathlib.Path(temporal) / "arboles")]
        if silencioso:
            orden.append("-q")
        resultado = subprocess.run(orden, cwd=RAIZ)
        if resultado.returncode != 0:
            sys.exit(f"Sphinx no pudo construir el sitio (código {resultado.returncode}); el motivo está en sus "
                     "mensajes, justo encima.")
        if destino.exists():
            shutil.rmtree(destino)
        destino.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(html, destino)
    # El botón de descarga ofrece el cuaderno del repositorio tal cual (con su insignia y sus enlaces relativos).
    for ruta in paginas():
        if ruta.endswith(".ipynb"):
            shutil.copyfile(RAIZ / ruta, destino / "_sources" / ruta)
    (destino / ".nojekyll").write_text("")  # GitHub Pages: servir también las carpetas que empiezan por _
    shutil.rmtree(destino / ".doctrees", ignore_errors=True)
    return time.perf_counter() - inicio


def main(argumentos=None):
    lector = argparse.ArgumentParser(prog="python3 tareas.py sitio", description=__doc__.split("\n\n")[0])
    lector.add_argument("--destino", type=pathlib.Path, default=DESTINO, help="carpeta del sitio")
    opciones = lector.parse_args(argumentos)
    segundos = construir(opciones.destino)
    from tareas import tamano

    print(f"Sitio listo en {segundos:.0f} s: {opciones.destino} ({tamano(opciones.destino) / 2**20:.0f} MB). "
          f"Ábrelo en el navegador: {opciones.destino / 'index.html'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
