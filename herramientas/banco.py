"""Banco de pruebas: ejecuta cada cuaderno y mide su tiempo, su celda más lenta y el pico de memoria del kernel.

Uso: python3 tareas.py banco [CUADERNO ...]   (sin argumentos: todos). No guarda nada en los cuadernos.
"""

import pathlib
import sys
import threading
import time
from datetime import datetime

import nbformat
import psutil
from nbclient import NotebookClient

from herramientas.celdas import cuadernos


def _pico_de_memoria(cliente, parar, resultado):
    """Mide cada 50 ms la memoria residente del kernel (y sus hijos) y guarda el máximo en MiB."""
    proceso = None
    while not parar.is_set():
        if proceso is None:
            try:
                proceso = psutil.Process(cliente.km.provisioner.process.pid)
            except (AttributeError, psutil.Error):
                time.sleep(0.05)
                continue
        try:
            total = proceso.memory_info().rss + sum(h.memory_info().rss for h in proceso.children(recursive=True))
            resultado[0] = max(resultado[0], total / 2**20)
        except psutil.Error:
            pass
        time.sleep(0.05)


def _segundos(celda):
    """Duración de una celda según las marcas que guarda nbclient."""
    marcas = celda.get("metadata", {}).get("execution", {})
    try:
        inicio = datetime.fromisoformat(marcas["iopub.execute_input"].replace("Z", "+00:00"))
        fin = datetime.fromisoformat(marcas["shell.execute_reply"].replace("Z", "+00:00"))
    except KeyError:
        return 0.0
    return (fin - inicio).total_seconds()


def medir(ruta):
    """Ejecuta el cuaderno sin guardarlo; devuelve (segundos, (índice, segundos) de la más lenta, MiB pico)."""
    ruta = pathlib.Path(ruta).resolve()
    cuaderno = nbformat.read(ruta, as_version=4)
    cliente = NotebookClient(cuaderno, timeout=900, kernel_name="python3", record_timing=True,
                             resources={"metadata": {"path": str(ruta.parent)}})
    parar, pico = threading.Event(), [0.0]
    vigia = threading.Thread(target=_pico_de_memoria, args=(cliente, parar, pico), daemon=True)
    inicio = time.perf_counter()
    vigia.start()
    try:
        cliente.execute()
    finally:
        parar.set()
        vigia.join()
    total = time.perf_counter() - inicio
    tiempos = [(i, _segundos(c)) for i, c in enumerate(cuaderno.cells) if c.cell_type == "code"]
    lenta = max(tiempos, key=lambda t: t[1]) if tiempos else (None, 0.0)
    return total, lenta, pico[0]


def main(argumentos):
    rutas = [pathlib.Path(a) for a in argumentos] or cuadernos()
    ancho = max(len(str(pathlib.Path(r).resolve().relative_to(pathlib.Path.cwd()))) for r in rutas) + 1
    print(f"{'cuaderno':{ancho}s} {'total':>8s} {'celda más lenta':>18s} {'memoria pico':>13s}")
    suma, peor, pico_max = 0.0, (None, None, 0.0), 0.0
    for ruta in rutas:
        total, (indice, segundos), pico = medir(ruta)
        nombre = str(pathlib.Path(ruta).resolve().relative_to(pathlib.Path.cwd()))
        print(f"{nombre:{ancho}s} {total:7.1f}s {f'#{indice}: {segundos:.1f}s':>18s} {pico:10.0f} MiB", flush=True)
        suma += total
        pico_max = max(pico_max, pico)
        if segundos > (peor[2] or 0):
            peor = (nombre, indice, segundos)
    print(f"{'TOTAL':{ancho}s} {suma:7.1f}s   más lenta: {peor[0]} #{peor[1]} ({peor[2]:.1f}s)"
          f"   pico máx.: {pico_max:.0f} MiB")


if __name__ == "__main__":
    main(sys.argv[1:])
