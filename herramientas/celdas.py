"""Celdas y enlaces que deben ser idénticos en todo el curso, generados desde una sola fuente.

`python3 tareas.py enlaces` (o `python -m herramientas.celdas`) escribe en cada cuaderno la celda de preparación
(la primera de código) con la versión del curso, la insignia «Abrir en Colab» y los enlaces a la lección anterior
y a la siguiente, y pone al día las insignias del README. La versión sale de `utilidades.__version__` y el
repositorio de `utilidades/configuracion.py`: en Colab, cada cuaderno descarga exactamente la etiqueta
`v<versión>` del repositorio, la del código con el que se escribió.
"""

import json
import pathlib
import re
import subprocess
import sys

RAIZ = pathlib.Path(__file__).resolve().parent.parent
CARPETA_COLAB = "/content/atencion-y-transformers"
INSIGNIA_COLAB = "https://colab.research.google.com/assets/colab-badge.svg"
ETIQUETA_NAVEGACION = "navegacion"  # las celdas de enlaces que genera este módulo llevan esta etiqueta


def _leer_repositorio():
    """Lee REPOSITORIO y RAMA de utilidades/configuracion.py sin importar torch."""
    texto = (RAIZ / "utilidades" / "configuracion.py").read_text(encoding="utf-8")
    repositorio = re.search(r'^REPOSITORIO = "([^"]+)"', texto, re.M).group(1)
    rama = re.search(r'^RAMA = "([^"]+)"', texto, re.M).group(1)
    return repositorio, rama


def _leer_version():
    """Lee `__version__` de utilidades/__init__.py sin importar el paquete."""
    texto = (RAIZ / "utilidades" / "__init__.py").read_text(encoding="utf-8")
    return re.search(r'^__version__ = "([^"]+)"', texto, re.M).group(1)


REPOSITORIO, RAMA = _leer_repositorio()
VERSION = _leer_version()
REFERENCIA = f"v{VERSION}"  # la etiqueta de git que Colab descarga; se crea al publicar cada versión


def celda_de_preparacion(repositorio=None, referencia=None, version=None, carpeta_colab=CARPETA_COLAB):
    """Devuelve el texto de la primera celda de código de cada cuaderno (los argumentos, para las pruebas)."""
    repositorio = repositorio or REPOSITORIO
    version = version or VERSION
    referencia = referencia or f"v{version}"
    return f"""# Preparación: hace importable el código del curso (utilidades) y fija semillas y estilo de las figuras.
# En Colab descarga antes la versión del curso de este cuaderno (sin reinstalar torch ni ipywidgets).
import os
import shutil
import subprocess
import sys

version_del_curso = "{version}"
if "google.colab" in sys.modules:
    carpeta_del_curso = "{carpeta_colab}"
    repositorio_del_curso, referencia_del_curso = "{repositorio}", "{referencia}"
    marca_del_curso = os.path.join(carpeta_del_curso, ".version-del-curso")
    if not os.path.isfile(marca_del_curso) or open(marca_del_curso).read() != referencia_del_curso:
        shutil.rmtree(carpeta_del_curso, ignore_errors=True)  # falta, o es de otra versión: se descarga de nuevo
        clonado = subprocess.run(["git", "clone", "--quiet", "--depth", "1", "--branch", referencia_del_curso,
                                  repositorio_del_curso, carpeta_del_curso], capture_output=True, text=True)
        if clonado.returncode != 0:
            raise RuntimeError(
                f"No he podido descargar el código del curso (versión {{referencia_del_curso}}) de "
                f"{{repositorio_del_curso}}. Comprueba la conexión a internet y que esa dirección se abre en el "
                f"navegador; después vuelve a ejecutar esta celda. Git dijo: {{clonado.stderr.strip()}}") from None
        with open(marca_del_curso, "w") as archivo:
            archivo.write(referencia_del_curso)
else:  # en tu ordenador, la carpeta del curso es la de este cuaderno o una superior
    carpeta_del_curso = os.path.abspath("")
    while not os.path.isfile(os.path.join(carpeta_del_curso, "utilidades", "configuracion.py")):
        if os.path.dirname(carpeta_del_curso) == carpeta_del_curso:
            raise RuntimeError(
                "No encuentro el código del curso (la carpeta utilidades/) junto a este cuaderno. Abre el curso "
                "desde la carpeta que descargaste, con `python3 tareas.py abrir` (en Windows, `py tareas.py abrir`)."
            ) from None
        carpeta_del_curso = os.path.dirname(carpeta_del_curso)
if carpeta_del_curso not in sys.path:
    sys.path.insert(0, carpeta_del_curso)
try:
    import utilidades
    from utilidades.configuracion import preparar
except ModuleNotFoundError as error:
    raise ModuleNotFoundError(
        f"A este Jupyter le falta «{{error.name}}». Ciérralo y abre el curso con `python3 tareas.py abrir` en "
        f"{{carpeta_del_curso}}: instala lo necesario y abre JupyterLab.") from None
if utilidades.__version__ != version_del_curso:
    raise RuntimeError(
        f"Este cuaderno es de la versión {{version_del_curso}} del curso, pero el código cargado "
        f"({{utilidades.__file__}}) es de la {{utilidades.__version__}}. Reinicia el kernel (en Colab: «Entorno de "
        "ejecución → Reiniciar sesión») y vuelve a ejecutar esta celda; en tu ordenador, usa los cuadernos y el "
        "código de la misma copia del curso.")

dispositivo = preparar()"""


def enlace_colab(ruta_cuaderno, referencia=None):
    """Dirección para abrir un cuaderno del repositorio, en la versión `referencia`, en Google Colab."""
    ruta = pathlib.PurePosixPath(ruta_cuaderno)
    base = REPOSITORIO.removeprefix("https://github.com/")
    return f"https://colab.research.google.com/github/{base}/blob/{referencia or REFERENCIA}/{ruta}"


def insignia_colab(ruta_cuaderno, referencia=None):
    """La insignia «Abrir en Colab» en Markdown."""
    return f"[![Abrir en Colab]({INSIGNIA_COLAB})]({enlace_colab(ruta_cuaderno, referencia)})"


def titulo(ruta):
    """«NN · Título» de una lección, leído de su primera línea «# NN · Título»."""
    primera = fuente(leer_cuaderno(ruta)["cells"][0]).splitlines()[0]
    return primera.lstrip("# ").strip()


def celdas_de_navegacion(ruta, lecciones, referencia=None):
    """(celda de arriba, celda de abajo) en Markdown para una lección o un cuaderno de soluciones."""
    ruta = pathlib.Path(ruta)
    relativa = ruta.relative_to(RAIZ).as_posix()
    if ruta.parent.name == "soluciones":
        leccion = RAIZ / "notebooks" / f"{ruta.stem.removesuffix('_soluciones')}.ipynb"
        enlace = f"[{titulo(leccion)}](../{leccion.name})" if leccion.exists() else "la lección"
        arriba = f"{insignia_colab(relativa, referencia)} · Soluciones de {enlace}"
        return arriba, f"← Vuelve a {enlace}"
    lecciones = [pathlib.Path(r) for r in lecciones]
    i = lecciones.index(ruta)
    anterior = f"← [{titulo(lecciones[i - 1])}]({lecciones[i - 1].name})" if i > 0 else ""
    siguiente = f"[{titulo(lecciones[i + 1])}]({lecciones[i + 1].name}) →" if i + 1 < len(lecciones) else ""
    arriba = " · ".join(p for p in (insignia_colab(relativa, referencia), anterior, siguiente) if p)
    if siguiente:
        abajo = (f"{anterior} · " if anterior else "") + f"**Siguiente lección:** {siguiente}"
    else:
        abajo = f"Has llegado al final del curso. {anterior}"
    return arriba, abajo


def _celda_markdown(texto):
    return {"cell_type": "markdown", "metadata": {"tags": [ETIQUETA_NAVEGACION], "slideshow": {"slide_type": "skip"}},
            "source": texto.splitlines(keepends=True)}


def _es_navegacion(celda):
    return ETIQUETA_NAVEGACION in celda.get("metadata", {}).get("tags", [])


def actualizar_cuaderno(cuaderno, ruta, lecciones, referencia=None, celda=None):
    """Pone al día, en el diccionario `cuaderno`, la celda de preparación y las de navegación; True si cambió."""
    antes = json.dumps(cuaderno, sort_keys=True)
    celdas = [c for c in cuaderno["cells"] if not _es_navegacion(c)]
    codigo = [c for c in celdas if c["cell_type"] == "code"]
    if codigo and "preparar" in fuente(codigo[0]):
        codigo[0]["source"] = (celda or celda_de_preparacion(referencia=referencia)).splitlines(keepends=True)
    arriba, abajo = celdas_de_navegacion(ruta, lecciones, referencia)
    cuaderno["cells"] = celdas[:1] + [_celda_markdown(arriba)] + celdas[1:] + [_celda_markdown(abajo)]
    return json.dumps(cuaderno, sort_keys=True) != antes


def actualizar_readme(texto, referencia=None):
    """Las insignias de Colab del README apuntan a la versión `referencia` del repositorio."""
    base = re.escape(REPOSITORIO.removeprefix("https://github.com/"))
    patron = re.compile(rf"(https://colab\.research\.google\.com/github/{base}/blob/)[^/\s)]+/")
    return patron.sub(lambda m: f"{m.group(1)}{referencia or REFERENCIA}/", texto)


def actualizar_enlaces(rutas=None, readme=RAIZ / "README.md", referencia=None):
    """Reescribe preparación y navegación de cada cuaderno y las insignias del README; devuelve los cambiados."""
    lecciones = cuadernos(incluir_soluciones=False)
    cambiados = []
    for ruta in rutas or cuadernos():
        cuaderno = leer_cuaderno(ruta)
        if actualizar_cuaderno(cuaderno, ruta, lecciones, referencia):
            escribir_cuaderno(ruta, cuaderno)
            cambiados.append(ruta)
    if readme and pathlib.Path(readme).exists():
        texto = pathlib.Path(readme).read_text(encoding="utf-8")
        nuevo = actualizar_readme(texto, referencia)
        if nuevo != texto:
            pathlib.Path(readme).write_text(nuevo, encoding="utf-8")
            cambiados.append(pathlib.Path(readme))
    return cambiados


def main(argumentos):
    """`python3 tareas.py enlaces`: pone al día los cuadernos y el README y recuerda la etiqueta de la versión."""
    rutas = leer_argumentos(argumentos, uso=__doc__)[1] or None
    cambiados = actualizar_enlaces(rutas)
    from herramientas.banco import GUIA, guardar_mapa  # el mapa de ejercicios de la guía docente

    if GUIA.exists() and guardar_mapa():
        cambiados.append(GUIA)
    cita = RAIZ / "CITATION.cff"
    if cita.exists():
        texto = cita.read_text(encoding="utf-8")
        nuevo = re.sub(r'^version: ".*"$', f'version: "{VERSION}"', texto, flags=re.M)
        if nuevo != texto:
            cita.write_text(nuevo, encoding="utf-8")
            cambiados.append(cita)
    for ruta in cambiados:
        print(f"actualizado: {ruta.relative_to(RAIZ)}")
    print(f"{len(cambiados)} archivos actualizados. Colab descargará la versión {REFERENCIA} de {REPOSITORIO}.")
    etiquetas = subprocess.run(["git", "tag", "--list", REFERENCIA], cwd=RAIZ, capture_output=True, text=True)
    if etiquetas.returncode == 0 and not etiquetas.stdout.strip():
        print(f"Recuerda: al publicar, crea y sube la etiqueta: git tag {REFERENCIA} && git push origin {REFERENCIA}")
    return 0


def cuadernos(incluir_soluciones=True):
    """Lista ordenada de los cuadernos del curso (lecciones y, si se pide, soluciones)."""
    lecciones = sorted((RAIZ / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    if not incluir_soluciones:
        return lecciones
    return lecciones + sorted((RAIZ / "notebooks" / "soluciones").glob("[0-9][0-9]_*.ipynb"))


def leer_argumentos(argumentos, opciones=(), uso="", deben_existir=True):
    """(opciones pedidas, rutas de los cuadernos) de una orden del curso; si algo no encaja, sale con un mensaje claro.

    `opciones` son las que admite la orden (por ejemplo "--guardar"). Con -h, --help o --ayuda muestra `uso` y sale
    sin error. Una opción desconocida, algo que no es un .ipynb o (con `deben_existir`) un cuaderno que no existe
    paran antes de hacer nada.
    """
    pedidas, rutas = [], []
    for argumento in argumentos:
        if argumento in ("-h", "--help", "--ayuda"):
            print(uso.strip())
            sys.exit(0)
        if argumento.startswith("-"):
            if argumento not in opciones:
                admitidas = f"las que admite son {', '.join(opciones)}" if opciones else "no admite ninguna"
                sys.exit(f"No conozco la opción «{argumento}»: esta orden {admitidas}. Añade --ayuda para ver cómo "
                         f"se usa.")
            pedidas.append(argumento)
            continue
        ruta = pathlib.Path(argumento)
        if ruta.suffix != ".ipynb":
            sys.exit(f"«{argumento}» no es un cuaderno: se esperan rutas .ipynb, como "
                     f"notebooks/02_atencion_a_mano.ipynb (o ninguna, para todos).")
        if deben_existir and not ruta.is_file():
            sys.exit(f"No existe el cuaderno {argumento}; revisa la ruta (por ejemplo "
                     f"notebooks/02_atencion_a_mano.ipynb).")
        rutas.append(ruta.resolve())
    return pedidas, rutas


def leer_cuaderno(ruta):
    """Carga un cuaderno como diccionario JSON."""
    return json.loads(pathlib.Path(ruta).read_text(encoding="utf-8"))


def escribir_cuaderno(ruta, cuaderno):
    """Guarda un cuaderno con el formato de Jupyter (indentación 1, salto de línea final)."""
    texto = json.dumps(cuaderno, ensure_ascii=False, indent=1) + "\n"
    pathlib.Path(ruta).write_text(texto, encoding="utf-8")


def fuente(celda):
    """El texto de una celda, sea lista de líneas o cadena."""
    texto = celda.get("source", "")
    return "".join(texto) if isinstance(texto, list) else texto


def crear_cuaderno(ruta, celdas):
    """Escribe un cuaderno nuevo (sin salidas) desde [("md", texto), ("py", código), ...].

    La celda de preparación se inserta sola como primera celda de código, tras la primera celda de texto.
    Para obtener las salidas, ejecútalo después con `python3 tareas.py salidas RUTA`.
    """
    import nbformat

    cuaderno = nbformat.v4.new_notebook()
    cuaderno.metadata = {
        "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
        "language_info": {"name": "python"},
    }
    nuevas = []
    for i, (tipo, texto) in enumerate(celdas):
        texto = texto.strip("\n")
        if tipo == "md":
            nuevas.append(nbformat.v4.new_markdown_cell(texto))
        elif tipo == "py":
            nuevas.append(nbformat.v4.new_code_cell(texto))
        else:
            raise ValueError(f"Tipo de celda desconocido: {tipo!r} (usa 'md' o 'py').")
        if i == 0:
            nuevas.append(nbformat.v4.new_code_cell(celda_de_preparacion()))
    cuaderno.cells = nuevas
    for celda in cuaderno.cells:
        celda.pop("id", None)
    cuaderno.nbformat, cuaderno.nbformat_minor = 4, 4
    ruta = pathlib.Path(ruta)
    ruta.parent.mkdir(parents=True, exist_ok=True)
    escribir_cuaderno(ruta, json.loads(nbformat.writes(cuaderno)))
    return ruta


def limpiar_metadatos(cuaderno):
    """Quita lo que cambia en cada ejecución o rompe la vista de GitHub: widgets y tiempos de ejecución."""
    cuaderno.get("metadata", {}).pop("widgets", None)
    for celda in cuaderno.get("cells", []):
        celda.get("metadata", {}).pop("execution", None)
        celda.pop("id", None)
    cuaderno["nbformat"], cuaderno["nbformat_minor"] = 4, 4
    return cuaderno


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
