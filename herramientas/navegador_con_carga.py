"""Las pruebas en el navegador varias veces seguidas con la CPU ocupada por otro proceso: ¿se cuelgan o fallan?

Uso: python -m herramientas.navegador_con_carga [VECES] [-- opciones de pytest]

Arranca un generador de carga (un proceso por núcleo, cada uno en un bucle de cálculo), ejecuta
`pytest tests/test_rise.py tests/test_navegador.py` VECES veces (5 por omisión), para la carga y resume el tiempo y el
resultado de cada pasada. Cada pasada tiene un plazo propio (el doble del de todas las lecciones juntas): si
se agotara, eso es un cuelgue y se informa como tal.
"""

import multiprocessing
import os
import subprocess
import sys
import time

from herramientas.cuadernos import RAIZ

PLAZO_POR_PASADA = 3600  # segundos; una pasada normal dura mucho menos


def _ocupar():
    """Un bucle de cálculo sin fin: ocupa un núcleo entero hasta que lo paren."""
    x = 0
    while True:
        x = (x * 1103515245 + 12345) % 2147483648


def main(argumentos):
    veces = int(argumentos[0]) if argumentos and argumentos[0].isdigit() else 5
    extra = argumentos[argumentos.index("--") + 1:] if "--" in argumentos else []
    carga = [multiprocessing.Process(target=_ocupar, daemon=True) for _ in range(os.cpu_count() or 2)]
    for proceso in carga:
        proceso.start()
    print(f"Carga: {len(carga)} procesos ocupando la CPU.", flush=True)
    resultados = []
    try:
        for vez in range(1, veces + 1):
            inicio = time.monotonic()
            orden = [sys.executable, "-m", "pytest", "-q", "-p", "no:nbval", "-o", "addopts=-p no:cacheprovider",
                     "tests/test_rise.py", "tests/test_navegador.py", *extra]
            try:
                codigo = subprocess.run(orden, cwd=RAIZ, timeout=PLAZO_POR_PASADA).returncode
            except subprocess.TimeoutExpired:
                codigo = "colgada"
            duracion = time.monotonic() - inicio
            resultados.append((vez, codigo, duracion))
            print(f"Pasada {vez}: {'bien' if codigo == 0 else f'FALLÓ ({codigo})'} en {duracion:.0f} s", flush=True)
    finally:
        for proceso in carga:
            proceso.terminate()
    print("\nResumen con la CPU ocupada:")
    for vez, codigo, duracion in resultados:
        print(f"  pasada {vez}: {'bien' if codigo == 0 else f'FALLÓ ({codigo})'}, {duracion:.0f} s")
    return 0 if all(codigo == 0 for _, codigo, _ in resultados) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
