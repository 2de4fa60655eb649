"""Celdas y enlaces que deben ser idénticos en todo el curso, generados desde una sola fuente."""

import json
import pathlib
import re

RAIZ = pathlib.Path(__file__).resolve().parent.parent
CARPETA_COLAB = "/content/atencion-y-transformers"


def _leer_repositorio():
    """Lee REPOSITORIO y RAMA de utilidades/configuracion.py sin importar torch."""
    texto = (RAIZ / "utilidades" / "configuracion.py").read_text(encoding="utf-8")
    repositorio = re.search(r'^REPOSITORIO = "([^"]+)"', texto, re.M).group(1)
    rama = re.search(r'^RAMA = "([^"]+)"', texto, re.M).group(1)
    return repositorio, rama


REPOSITORIO, RAMA = _leer_repositorio()


def celda_de_preparacion():
    """Devuelve el texto de la primera celda de código de cada cuaderno."""
    return f'''# Preparación. En Colab trae el código del curso (sin reinstalar torch ni ipywidgets);
# en tu ordenador no hace nada más que fijar semillas y el estilo de las figuras.
import os
import subprocess
import sys

if "google.colab" in sys.modules:
    carpeta = "{CARPETA_COLAB}"
    if not os.path.isdir(carpeta):
        repositorio = "{REPOSITORIO}"
        subprocess.run(["git", "clone", "--depth", "1", repositorio, carpeta], check=True)
    sys.path.insert(0, carpeta)

from utilidades.configuracion import preparar

dispositivo = preparar()'''


def enlace_colab(ruta_cuaderno):
    """Dirección para abrir un cuaderno del repositorio en Google Colab."""
    ruta = pathlib.PurePosixPath(ruta_cuaderno)
    base = REPOSITORIO.removeprefix("https://github.com/")
    return f"https://colab.research.google.com/github/{base}/blob/{RAMA}/{ruta}"


def cuadernos(incluir_soluciones=True):
    """Lista ordenada de los cuadernos del curso (lecciones y, si se pide, soluciones)."""
    lecciones = sorted((RAIZ / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    if not incluir_soluciones:
        return lecciones
    return lecciones + sorted((RAIZ / "notebooks" / "soluciones").glob("[0-9][0-9]_*.ipynb"))


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


def actualizar_enlaces():
    """Reescribe la celda de preparación de cada cuaderno con la dirección de REPOSITORIO; devuelve los cambiados."""
    cambiados = []
    esperado = celda_de_preparacion()
    for ruta in cuadernos():
        cuaderno = leer_cuaderno(ruta)
        codigo = [c for c in cuaderno["cells"] if c["cell_type"] == "code"]
        if codigo and fuente(codigo[0]) != esperado and "preparar" in fuente(codigo[0]):
            codigo[0]["source"] = esperado.splitlines(keepends=True)
            escribir_cuaderno(ruta, cuaderno)
            cambiados.append(ruta)
    return cambiados


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
