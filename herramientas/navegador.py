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
    "`sudo apt-get update && sudo apt-get install -y chromium`; en otros sistemas instala Chromium y pon su "
    "ruta en la variable de entorno CHROMIUM (por ejemplo CHROMIUM=/usr/bin/chromium). Sin él, esas pruebas "
    "se saltan y lo dicen."
)


def ruta_chromium():
    """Ruta del ejecutable de Chromium (variable CHROMIUM o el del sistema), o None si no hay."""
    candidatos = [os.environ.get("CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium"),
                  shutil.which("chromium-browser")]
    for candidato in candidatos:
        if candidato and os.path.isfile(candidato) and os.access(candidato, os.X_OK):
            return candidato
    return None


def asegurar_chromium(instalar=True):
    """Devuelve la ruta de Chromium; si falta y somos root con apt-get, lo instala; si no, explica cómo."""
    ruta = ruta_chromium()
    if ruta or not instalar:
        if not ruta:
            print("Aviso:", INSTRUCCIONES, flush=True)
        return ruta
    es_root = hasattr(os, "geteuid") and os.geteuid() == 0
    if es_root and shutil.which("apt-get"):
        print("Instalando Chromium con apt-get para las pruebas en el navegador …", flush=True)
        entorno = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        for orden in (["apt-get", "update"], ["apt-get", "install", "-y", "--no-install-recommends", "chromium"]):
            if subprocess.call(orden, env=entorno, stdout=subprocess.DEVNULL) != 0:
                print(f"Aviso: falló «{' '.join(orden)}». {INSTRUCCIONES}", flush=True)
                return None
        ruta = ruta_chromium()
    if not ruta:
        print("Aviso:", INSTRUCCIONES, flush=True)
    return ruta


if __name__ == "__main__":
    print(asegurar_chromium() or "Chromium no está instalado.")
