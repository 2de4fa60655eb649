"""Ensayo con las versiones de Google Colab: ejecuta cada cuaderno en un entorno aparte (.venv-colab).

Colab (finales de 2026) trae Python 3.13, torch 2.11, IPython 7.34, ipywidgets 7.7.1 y anywidget 0.9, más
antiguos que los del entorno de referencia (salvo Python). Este ensayo instala esas versiones de los paquetes en
`.venv-colab`, con el Python que lo ejecuta (3.13 si lo ejecutas con él), y ejecuta de principio a fin cada
cuaderno con ellas, fallando si alguna celda lanza un error. No compara salidas (las versiones cambian los
textos) ni puede probar el navegador de Colab: comprueba que el código Python del curso funciona allí.
La primera vez descarga torch 2.11 de PyPI: en Linux es su compilación con CUDA (unos 3 GB); se ejecuta en la CPU.

Uso: python3 tareas.py colab [CUADERNO ...]
"""

import os
import pathlib
import subprocess
import sys
import time
import venv

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

from herramientas.cuadernos import RAIZ, cuadernos, leer_argumentos

ENTORNO = RAIZ / ".venv-colab"
PYTHON = ENTORNO / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
# Lo que se ensaya son las versiones de Colab de torch, IPython, ipywidgets, anywidget, ipykernel y jupyter_client;
# numpy, matplotlib, scikit-learn y psutil, las del entorno de referencia (requirements.txt).
VERSIONES = [
    "torch==2.11.0", "ipython==7.34.0", "ipywidgets==7.7.1", "anywidget==0.9.21", "ipykernel==6.29.5",
    "jupyter_client==8.6.3", "numpy==2.4.6", "matplotlib==3.11.2", "scikit-learn==1.9.1", "psutil==7.2.2",
]
NUCLEO = "curso-colab"


def preparar():
    """Crea .venv-colab con las versiones de Colab y registra su kernel (solo la primera vez)."""
    sello = ENTORNO / "versiones.txt"
    if sello.exists() and sello.read_text() == "\n".join(VERSIONES):
        return
    if not PYTHON.exists():
        venv.EnvBuilder(with_pip=True).create(ENTORNO)
    subprocess.run([PYTHON, "-m", "pip", "install", "--quiet", *VERSIONES], check=True)
    subprocess.run([PYTHON, "-m", "pip", "install", "--quiet", "--no-deps", "-e", str(RAIZ)], check=True)
    subprocess.run([PYTHON, "-m", "ipykernel", "install", "--prefix", str(ENTORNO), "--name", NUCLEO], check=True)
    sello.write_text("\n".join(VERSIONES))


def ensayar(ruta):
    """Ejecuta un cuaderno con el kernel de .venv-colab; devuelve None si va bien o el texto del error."""
    cuaderno = nbformat.read(ruta, as_version=4)
    cliente = NotebookClient(cuaderno, timeout=600, kernel_name=NUCLEO,
                             resources={"metadata": {"path": str(pathlib.Path(ruta).parent)}})
    try:
        cliente.execute()
    except CellExecutionError as error:
        return str(error).splitlines()[-1]
    return None


def main(argumentos):
    rutas = leer_argumentos(argumentos, uso=__doc__)[1]  # antes de instalar nada: una ruta mal escrita para aquí
    preparar()
    os.environ["JUPYTER_PATH"] = str(ENTORNO / "share" / "jupyter") + os.pathsep + os.environ.get("JUPYTER_PATH", "")
    version = subprocess.run([PYTHON, "-c", "import IPython, ipywidgets, anywidget, torch; print("
                              "f'IPython {IPython.__version__} · ipywidgets {ipywidgets.__version__} · "
                              "anywidget {anywidget.__version__} · torch {torch.__version__}')"],
                             capture_output=True, text=True, check=True).stdout.strip()
    print(f"Ensayo con versiones de Colab: {version}")
    fallos = 0
    for ruta in rutas or cuadernos():
        inicio = time.perf_counter()
        error = ensayar(ruta)
        estado = "bien" if error is None else f"ERROR: {error}"
        print(f"  {ruta.relative_to(RAIZ) if ruta.is_relative_to(RAIZ) else ruta}: {estado} "
              f"({time.perf_counter() - inicio:.0f} s)", flush=True)
        fallos += error is not None
    print(f"{fallos} cuadernos con errores." if fallos else
          "Todos los cuadernos se ejecutan con las versiones de Colab.")
    return 1 if fallos else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
