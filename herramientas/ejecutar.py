"""Vuelve a ejecutar cuadernos en su sitio y guarda sus salidas (sin metadatos de widgets ni tiempos).

Uso: python3 tareas.py salidas [CUADERNO ...]   (sin argumentos: todos, lecciones y soluciones)
"""

import json
import pathlib
import sys
import time

import nbformat
from nbclient import NotebookClient

from herramientas.cuadernos import cuadernos, escribir_cuaderno, leer_argumentos, limpiar_metadatos


def ejecutar(ruta, tiempo_por_celda=1800):
    """Ejecuta un cuaderno de principio a fin en su carpeta y lo guarda con las salidas nuevas."""
    ruta = pathlib.Path(ruta).resolve()
    cuaderno = nbformat.read(ruta, as_version=4)
    cliente = NotebookClient(
        cuaderno, timeout=tiempo_por_celda, kernel_name="python3",
        resources={"metadata": {"path": str(ruta.parent)}},
    )
    cliente.execute()
    datos = limpiar_metadatos(json.loads(nbformat.writes(cuaderno)))
    escribir_cuaderno(ruta, datos)


def main(argumentos):
    rutas = leer_argumentos(argumentos, uso=__doc__)[1] or cuadernos()
    for ruta in rutas:
        inicio = time.perf_counter()
        print(f"Ejecutando {ruta} …", end=" ", flush=True)
        ejecutar(ruta)
        print(f"{time.perf_counter() - inicio:.1f} s", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
