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

from herramientas.banco import GUIA, guardar_mapa  # el mapa de ejercicios de la guía docente
from herramientas.cuadernos import (
    ETIQUETA_NAVEGACION,
    RAIZ,
    cuadernos,
    escribir_cuaderno,
    fin_de_la_apertura,
    fuente,
    leer_argumentos,
    leer_cuaderno,
    titulo,
)

CARPETA_COLAB = "/content/atencion-y-transformers"
INSIGNIA_COLAB = "https://colab.research.google.com/assets/colab-badge.svg"


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


def huella_de_utilidades(referencia="HEAD"):
    """La huella de la carpeta utilidades/ en el commit `referencia`: el hash de su árbol en git, que cambia si
    cambia cualquier archivo. Colab la comprueba tras descargar la etiqueta: así no basta con que la etiqueta exista,
    tiene que traer el código con el que se escribió el cuaderno."""
    resultado = subprocess.run(["git", "rev-parse", f"{referencia}:utilidades"], cwd=RAIZ, capture_output=True,
                               text=True)
    if resultado.returncode != 0:
        raise RuntimeError(f"No puedo leer la huella de utilidades/ en {referencia} con git: "
                           f"{resultado.stderr.strip()}")
    return resultado.stdout.strip()


PATRON_HUELLA = re.compile(r'^version_del_curso, huella_del_curso = "[^"]*", "([0-9a-f]*)"', re.M)


def huella_de_los_cuadernos():
    """La huella que dicen las celdas de preparación (la de la lección 01; las pruebas exigen que todas digan la
    misma). La pone al día `python3 tareas.py publicar`."""
    for ruta in cuadernos(incluir_soluciones=False):
        for celda in leer_cuaderno(ruta)["cells"]:
            encontrada = PATRON_HUELLA.search(fuente(celda)) if celda["cell_type"] == "code" else None
            if encontrada:
                return encontrada.group(1)
    return ""


def celda_de_preparacion(repositorio=None, referencia=None, version=None, carpeta_colab=CARPETA_COLAB, huella=None):
    """Devuelve el texto de la primera celda de código de cada cuaderno (los argumentos, para las pruebas)."""
    repositorio = repositorio or REPOSITORIO
    version = version or VERSION
    referencia = referencia or f"v{version}"
    huella = huella_de_los_cuadernos() if huella is None else huella
    return f"""# Preparación: carga el código del curso (utilidades) y fija semillas y estilo de las figuras.
# En Colab descarga antes la versión del curso de este cuaderno (sin reinstalar torch ni ipywidgets).
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile

# La versión del curso y la huella (el árbol de git) de su carpeta utilidades/, que Colab comprueba al descargar.
version_del_curso, huella_del_curso = "{version}", "{huella}"
if "google.colab" in sys.modules:
    carpeta_del_curso = "{carpeta_colab}"
    repositorio_del_curso, referencia_del_curso = "{repositorio}", "{referencia}"

    def huella_de(carpeta):
        orden = ["git", "-C", carpeta, "rev-parse", "HEAD:utilidades"]
        return subprocess.run(orden, capture_output=True, text=True).stdout.strip()

    if not os.path.isdir(carpeta_del_curso) or huella_de(carpeta_del_curso) != huella_del_curso:
        # Se descarga en una carpeta aparte; la copia que hubiera solo se sustituye si la descarga sale bien.
        os.makedirs(os.path.dirname(carpeta_del_curso), exist_ok=True)
        temporal = tempfile.mkdtemp(prefix=".descarga-", dir=os.path.dirname(carpeta_del_curso))
        try:
            clonado = subprocess.run(["git", "clone", "--quiet", "--depth", "1", "--branch", referencia_del_curso,
                                      repositorio_del_curso, temporal], capture_output=True, text=True, timeout=180)
            problema = f"git dijo: {{clonado.stderr.strip()}}" if clonado.returncode else ""
        except subprocess.TimeoutExpired:
            problema = "la descarga tardó más de 3 minutos"
        if not problema and huella_de(temporal) != huella_del_curso:
            problema = "la etiqueta no trae el código con el que se escribió este cuaderno (otra huella)"
        if problema:
            shutil.rmtree(temporal, ignore_errors=True)
            raise RuntimeError(
                f"No he podido descargar el código del curso (versión {{referencia_del_curso}}) de "
                f"{{repositorio_del_curso}}: {{problema}}. Comprueba la conexión a internet y que esa dirección "
                f"se abre en el navegador; después vuelve a ejecutar esta celda. Si tenías una copia, sigue intacta "
                f"en {{carpeta_del_curso}}.") from None
        shutil.rmtree(carpeta_del_curso, ignore_errors=True)
        os.rename(temporal, carpeta_del_curso)
else:  # en tu ordenador, la carpeta del curso es la de este cuaderno o una superior
    carpeta_del_curso = os.path.abspath("")
    while not os.path.isfile(os.path.join(carpeta_del_curso, "utilidades", "configuracion.py")):
        if os.path.dirname(carpeta_del_curso) == carpeta_del_curso:
            raise RuntimeError(
                "No encuentro el código del curso (la carpeta utilidades/) junto a este cuaderno. Abre el curso "
                "desde la carpeta que descargaste, con `python3 tareas.py abrir` (en Windows, `py tareas.py abrir`)."
            ) from None
        carpeta_del_curso = os.path.dirname(carpeta_del_curso)
# Solo el paquete utilidades de esa carpeta se vuelve importable (sys.path no cambia: tests/ o datos/ no
# pasan a ser nombres de módulos).
inicio_del_paquete = os.path.join(carpeta_del_curso, "utilidades", "__init__.py")
if "utilidades" not in sys.modules:
    especificacion = importlib.util.spec_from_file_location("utilidades", inicio_del_paquete)
    sys.modules["utilidades"] = importlib.util.module_from_spec(especificacion)
    try:
        especificacion.loader.exec_module(sys.modules["utilidades"])
    except BaseException:
        del sys.modules["utilidades"]
        raise
import utilidades

try:
    from utilidades.configuracion import preparar
except ModuleNotFoundError as error:
    raise ModuleNotFoundError(
        f"A este Jupyter le falta «{{error.name}}». Ciérralo y abre el curso con `python3 tareas.py abrir` en "
        f"{{carpeta_del_curso}}: instala lo necesario y abre JupyterLab.") from None
if utilidades.__version__ != version_del_curso or os.path.realpath(utilidades.__file__) != os.path.realpath(
        inicio_del_paquete):
    raise RuntimeError(
        f"Este cuaderno es de la versión {{version_del_curso}} del curso, en {{carpeta_del_curso}}, pero el código "
        f"cargado ({{utilidades.__file__}}) es de la {{utilidades.__version__}}. Reinicia el kernel (en Colab: "
        "«Entorno de ejecución → Reiniciar sesión») y vuelve a ejecutar esta celda; en tu ordenador, usa los "
        "cuadernos y el código de la misma copia del curso.")

dispositivo = preparar()"""


def enlace_colab(ruta_cuaderno, referencia=None):
    """Dirección para abrir un cuaderno del repositorio, en la versión `referencia`, en Google Colab."""
    ruta = pathlib.PurePosixPath(ruta_cuaderno)
    base = REPOSITORIO.removeprefix("https://github.com/")
    return f"https://colab.research.google.com/github/{base}/blob/{referencia or REFERENCIA}/{ruta}"


def insignia_colab(ruta_cuaderno, referencia=None):
    """La insignia «Abrir en Colab» en Markdown."""
    return f"[![Abrir en Colab]({INSIGNIA_COLAB})]({enlace_colab(ruta_cuaderno, referencia)})"


def enlace_de_avisos():
    """La página de GitHub donde se abre un aviso nuevo con los formularios de .github/ISSUE_TEMPLATE/."""
    return f"{REPOSITORIO}/issues/new/choose"


def linea_de_avisos():
    """La línea «¿Dudas o erratas?» que cierra cada cuaderno y el README: lleva a los formularios de GitHub."""
    return (f"**¿Dudas o erratas?** [Cuéntanoslo en GitHub]({enlace_de_avisos()}): hay un formulario para una "
            "errata en una lección, otro para una pregunta y otro para proponer una mejora.")


def celdas_de_navegacion(ruta, lecciones, referencia=None):
    """(celda de arriba, celda de abajo) en Markdown para una lección o un cuaderno de soluciones."""
    ruta = pathlib.Path(ruta)
    relativa = ruta.relative_to(RAIZ).as_posix()
    if ruta.parent.name == "soluciones":
        leccion = RAIZ / "notebooks" / f"{ruta.stem.removesuffix('_soluciones')}.ipynb"
        enlace = f"[{titulo(leccion)}](../{leccion.name})" if leccion.exists() else "la lección"
        arriba = f"{insignia_colab(relativa, referencia)} · Soluciones de {enlace}"
        return arriba, f"← Vuelve a {enlace}\n\n{linea_de_avisos()}"
    lecciones = [pathlib.Path(r) for r in lecciones]
    i = lecciones.index(ruta)
    anterior = f"← [{titulo(lecciones[i - 1])}]({lecciones[i - 1].name})" if i > 0 else ""
    siguiente = f"[{titulo(lecciones[i + 1])}]({lecciones[i + 1].name}) →" if i + 1 < len(lecciones) else ""
    arriba = " · ".join(p for p in (insignia_colab(relativa, referencia), anterior, siguiente) if p)
    if siguiente:
        abajo = (f"{anterior} · " if anterior else "") + f"**Siguiente lección:** {siguiente}"
    else:
        abajo = f"Has llegado al final del curso. {anterior}"
    return arriba, f"{abajo}\n\n{linea_de_avisos()}"


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
    fin = fin_de_la_apertura(celdas)  # la navegación va justo después del título y lo que lo acompaña
    cuaderno["cells"] = celdas[:fin] + [_celda_markdown(arriba)] + celdas[fin:] + [_celda_markdown(abajo)]
    return json.dumps(cuaderno, sort_keys=True) != antes


def actualizar_readme(texto, referencia=None):
    """Las insignias de Colab del README, y el ZIP de la versión (su dirección y la carpeta que sale al
    descomprimirlo), apuntan a la versión `referencia` del repositorio."""
    referencia = referencia or REFERENCIA
    base = re.escape(REPOSITORIO.removeprefix("https://github.com/"))
    patron = re.compile(rf"(https://colab\.research\.google\.com/github/{base}/blob/)[^/\s)]+/")
    texto = patron.sub(lambda m: f"{m.group(1)}{referencia}/", texto)
    zip_de_la_version = re.compile(rf"({re.escape(REPOSITORIO)}/archive/refs/tags/)[^/\s)`]+\.zip")
    texto = zip_de_la_version.sub(lambda m: f"{m.group(1)}{referencia}.zip", texto)
    nombre = REPOSITORIO.rstrip("/").rsplit("/", 1)[1]
    carpeta = re.compile(rf"(`{re.escape(nombre)}-)\d+\.\d+\.\d+(`)")
    texto = carpeta.sub(lambda m: f"{m.group(1)}{referencia.removeprefix('v')}{m.group(2)}", texto)
    return re.sub(r"(la de la versión )\d+\.\d+\.\d+( es `)", rf"\g<1>{referencia.removeprefix('v')}\g<2>", texto)


def actualizar_enlaces(rutas=None, readme=RAIZ / "README.md", referencia=None, huella=None):
    """Reescribe preparación y navegación de cada cuaderno y las insignias del README; devuelve los cambiados.

    La huella de la celda de preparación se conserva, salvo que se dé otra (`publicar` da la del commit actual)."""
    lecciones = cuadernos(incluir_soluciones=False)
    celda = celda_de_preparacion(referencia=referencia, huella=huella)
    cambiados = []
    for ruta in rutas or cuadernos():
        cuaderno = leer_cuaderno(ruta)
        if actualizar_cuaderno(cuaderno, ruta, lecciones, referencia, celda):
            escribir_cuaderno(ruta, cuaderno)
            cambiados.append(ruta)
    if readme and pathlib.Path(readme).exists():
        texto = pathlib.Path(readme).read_text(encoding="utf-8")
        nuevo = actualizar_readme(texto, referencia)
        if nuevo != texto:
            pathlib.Path(readme).write_text(nuevo, encoding="utf-8")
            cambiados.append(pathlib.Path(readme))
    return cambiados


CITA = RAIZ / "CITATION.cff"
PATRON_FECHA = re.compile(r"^date-released: \"?(\d{4}-\d{2}-\d{2})\"?$", re.M)


def fecha_de_la_version(version=None, hoy=None):
    """La fecha de publicación (AAAA-MM-DD) de `version`, la que CITATION.cff da como `date-released`.

    Si la etiqueta v<versión> ya existe, es la fecha del commit que etiqueta; si no, la de hoy (UTC), porque la
    versión se publica el día que `python3 tareas.py publicar` la deja lista y se crea la etiqueta.
    """
    import datetime

    version = version or VERSION
    try:
        etiqueta = _git("log", "-1", "--format=%cs", f"refs/tags/v{version}")
    except OSError:  # sin git (el curso descargado como ZIP): no hay etiquetas que mirar
        etiqueta = None
    if etiqueta is not None and etiqueta.returncode == 0 and re.fullmatch(r"\d{4}-\d{2}-\d{2}",
                                                                           etiqueta.stdout.strip()):
        return etiqueta.stdout.strip()
    return (hoy or datetime.datetime.now(datetime.UTC).date()).isoformat()


def cita_al_dia(texto, version, fecha):
    """El texto de CITATION.cff con `version` y `date-released` (que se añade tras la versión si no estaba)."""
    texto = re.sub(r'^version: ".*"$', f'version: "{version}"', texto, flags=re.M)
    linea = f'date-released: "{fecha}"'
    if PATRON_FECHA.search(texto):
        return PATRON_FECHA.sub(linea, texto)
    return re.sub(r'^(version: ".*")$', lambda m: f"{m.group(1)}\n{linea}", texto, count=1, flags=re.M)


def poner_al_dia_la_cita(cita=None):
    """Escribe en CITATION.cff la versión y su fecha de publicación; True si cambió."""
    cita = pathlib.Path(cita or CITA)
    if not cita.exists():
        return False
    texto = cita.read_text(encoding="utf-8")
    nuevo = cita_al_dia(texto, VERSION, fecha_de_la_version(VERSION))
    if nuevo != texto:
        cita.write_text(nuevo, encoding="utf-8")
    return nuevo != texto


def poner_al_dia(rutas=None, huella=None):
    """Cuadernos, README, mapa de ejercicios de DOCENTES.md, y versión y fecha de CITATION.cff; devuelve los
    cambiados."""
    cambiados = actualizar_enlaces(rutas, huella=huella)
    if GUIA.exists() and guardar_mapa():
        cambiados.append(GUIA)
    if poner_al_dia_la_cita():
        cambiados.append(CITA)
    return cambiados


def main(argumentos):
    """`python3 tareas.py enlaces`: pone al día los cuadernos y el README y recuerda la etiqueta de la versión."""
    rutas = leer_argumentos(argumentos, uso=__doc__)[1] or None
    cambiados = poner_al_dia(rutas)
    for ruta in cambiados:
        print(f"actualizado: {ruta.relative_to(RAIZ)}")
    print(f"{len(cambiados)} archivos actualizados. Colab descargará la versión {REFERENCIA} de {REPOSITORIO}.")
    print(f"Para publicarla: python3 tareas.py publicar (comprueba todo y dice cómo crear la etiqueta {REFERENCIA}).")
    return 0


def _git(*orden):
    return subprocess.run(["git", *orden], cwd=RAIZ, capture_output=True, text=True)


PATRON_COLAB = re.compile(r"https://colab\.research\.google\.com/github/[^)\s]+")


def problemas_de_publicacion(huella):
    """Lo que impide etiquetar esta versión: lista de frases (vacía si todo está listo)."""
    problemas = []
    cita = CITA
    version_cita = re.search(r'^version: "(.*)"$', cita.read_text(encoding="utf-8"), re.M) if cita.exists() else None
    if not version_cita or version_cita.group(1) != VERSION:
        problemas.append(f"CITATION.cff no dice version: \"{VERSION}\" (la de utilidades/__init__.py).")
    fecha_cita = PATRON_FECHA.search(cita.read_text(encoding="utf-8")) if cita.exists() else None
    if not fecha_cita:
        problemas.append("CITATION.cff no dice date-released (la fecha de la versión): python3 tareas.py enlaces "
                         "la escribe.")
    elif _git("rev-parse", "--verify", "--quiet", f"refs/tags/{REFERENCIA}").stdout.strip() and \
            fecha_cita.group(1) != fecha_de_la_version():
        problemas.append(f"CITATION.cff dice date-released: {fecha_cita.group(1)}, pero la etiqueta {REFERENCIA} es "
                         f"del {fecha_de_la_version()}.")
    esperada = celda_de_preparacion(huella=huella)
    prefijo = enlace_colab("notebooks/")
    for ruta in [*cuadernos(), RAIZ / "README.md"]:
        if ruta.suffix == ".ipynb":
            celdas = leer_cuaderno(ruta)["cells"]
            codigo = [c for c in celdas if c["cell_type"] == "code"]
            if not codigo or fuente(codigo[0]) != esperada:
                problemas.append(f"{ruta.relative_to(RAIZ)}: su celda de preparación no es la de la versión "
                                 f"{VERSION} con la huella {huella[:12]}.")
            texto = "\n".join(fuente(c) for c in celdas if c["cell_type"] == "markdown")
        else:
            texto = ruta.read_text(encoding="utf-8")
        enlaces = PATRON_COLAB.findall(texto)
        if ruta.suffix == ".ipynb" and not enlaces:
            problemas.append(f"{ruta.relative_to(RAIZ)}: no tiene insignia de Colab.")
        for enlace in enlaces:
            if not enlace.startswith(prefijo):
                problemas.append(f"{ruta.relative_to(RAIZ)}: la insignia {enlace} no abre la versión {REFERENCIA}.")
    return problemas


def publicar(argumentos):
    """`python3 tareas.py publicar`: pone la huella del commit actual en las lecciones y comprueba, antes de crear la
    etiqueta v<versión>, todo lo que necesitan las insignias de Colab; dice qué falta o cómo etiquetar."""
    if leer_argumentos(argumentos, uso=publicar.__doc__)[1]:
        sys.exit("`publicar` no recibe cuadernos: pone al día y comprueba el curso entero.")
    cambios = _git("status", "--porcelain", "--", "utilidades").stdout.strip()
    if cambios:
        print(f"utilidades/ tiene cambios sin commit:\n{cambios}\nHaz commit (o descártalos) y vuelve a ejecutar "
              f"python3 tareas.py publicar: la huella que descarga Colab es la del código guardado en git.")
        return 1
    huella = huella_de_utilidades("HEAD")
    for ruta in poner_al_dia(huella=huella):
        print(f"actualizado: {ruta.relative_to(RAIZ)}")
    problemas = problemas_de_publicacion(huella)
    pendientes = _git("status", "--porcelain").stdout.strip()
    if pendientes:
        problemas.append(f"Hay cambios sin commit (haz commit y vuelve a ejecutar python3 tareas.py publicar):\n"
                         f"{pendientes}")
    etiqueta = _git("rev-parse", "--verify", "--quiet", f"{REFERENCIA}^{{commit}}").stdout.strip()
    actual = _git("rev-parse", "HEAD").stdout.strip()
    if etiqueta and etiqueta != actual:
        problemas.append(f"La etiqueta {REFERENCIA} ya existe y apunta a otro commit ({etiqueta[:12]}): una versión "
                         f"publicada no se mueve. Sube la versión en utilidades/__init__.py.")
    if problemas:
        print("Todavía no se puede publicar la versión " + VERSION + ":\n- " + "\n- ".join(problemas))
        return 1
    print(f"Todo listo para la versión {VERSION}: CITATION.cff, las insignias y las celdas de preparación la "
          f"nombran, y la huella de utilidades/ es la de este commit ({huella[:12]}).")
    if not etiqueta:
        print(f"Crea y sube la etiqueta: git tag {REFERENCIA} && git push origin {REFERENCIA}")
    return 0


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


if __name__ == "__main__":
    if sys.argv[1:2] == ["publicar"]:
        sys.exit(publicar(sys.argv[2:]))
    sys.exit(main(sys.argv[1:]))
