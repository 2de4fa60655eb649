"""Chromium para las pruebas en un navegador real (tests/test_navegador.py).

Solo usa la biblioteca estándar: lo llama `tareas.py` antes de crear o usar el entorno virtual.
"""

import os
import shutil
import subprocess

# Las opciones con que las pruebas arrancan Chromium sin cabeza: sin red de fondo ni actualizaciones.
OPCIONES_CHROMIUM = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

INSTRUCCIONES = (
    "Las pruebas en el navegador necesitan Chromium. En Debian o Ubuntu: "
    "`sudo apt-get update && sudo apt-get install -y chromium-headless-shell` (o `chromium`); en otros sistemas "
    "instala Chromium y pon su ruta en la variable de entorno CHROMIUM (por ejemplo CHROMIUM=/usr/bin/chromium). Sin "
    "él, esas pruebas se saltan y lo dicen."
)

# Se prefiere el Chromium sin cabeza de siempre («headless shell», el que usa playwright por defecto): el mismo motor
# que dibuja las páginas, sin la capa del navegador de escritorio. Con las mismas pruebas gasta alrededor de un
# cuarto menos de CPU que `chromium --headless`.
CANDIDATOS = ("chromium-headless-shell", "chromium", "chromium-browser")
CARPETA_DEL_SISTEMA = "/usr/bin"  # donde los instala apt-get


def ruta_chromium():
    """Ruta del ejecutable de Chromium (la variable CHROMIUM o, del sistema, el primero de CANDIDATOS que haya), o
    None si no hay."""
    candidatos = [os.environ.get("CHROMIUM")]
    for nombre in CANDIDATOS:
        candidatos += [os.path.join(CARPETA_DEL_SISTEMA, nombre), shutil.which(nombre)]
    for candidato in candidatos:
        if candidato and os.path.isfile(candidato) and os.access(candidato, os.X_OK):
            return candidato
    return None


def asegurar_chromium(instalar=True):
    """Devuelve la ruta de Chromium. Si somos root con apt-get y falta el Chromium sin cabeza (y CHROMIUM no elige
    otro), lo instala; si no se puede, vale el Chromium de escritorio que haya (o se instala ese). Si no queda
    ninguno, explica cómo instalarlo."""
    ruta = ruta_chromium()
    elegido = bool(os.environ.get("CHROMIUM")) or (ruta and os.path.basename(ruta) == CANDIDATOS[0])
    es_root = hasattr(os, "geteuid") and os.geteuid() == 0
    if instalar and not elegido and es_root and shutil.which("apt-get"):
        print("Instalando Chromium sin cabeza con apt-get para las pruebas en el navegador …", flush=True)
        entorno = dict(os.environ, DEBIAN_FRONTEND="noninteractive")

        def apt(*orden):
            return subprocess.call(["apt-get", *orden], env=entorno, stdout=subprocess.DEVNULL) == 0

        instalar_uno = ("install", "-y", "--no-install-recommends")
        if not (apt("update") and apt(*instalar_uno, CANDIDATOS[0])):
            if ruta:
                print(f"Aviso: apt-get no pudo instalar {CANDIDATOS[0]}; las pruebas usan {ruta}.", flush=True)
            elif not apt(*instalar_uno, "chromium"):
                print("Aviso: apt-get no pudo instalar Chromium.", flush=True)
        ruta = ruta_chromium()
    if not ruta:
        print("Aviso:", INSTRUCCIONES, flush=True)
    return ruta


if __name__ == "__main__":
    print(asegurar_chromium() or "Chromium no está instalado.")
