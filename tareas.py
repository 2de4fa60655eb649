#!/usr/bin/env python3
"""Tareas del curso con un solo comando, en cualquier sistema con Python ≥ 3.11 y git.

    python3 tareas.py abrir         prepara el entorno y abre el curso en JupyterLab
    python3 tareas.py pruebas       prepara el entorno y ejecuta todas las pruebas
    python3 tareas.py perturbadas   las pruebas tres veces: normal, con 1 hilo y con otra CPU (avx2)
    python3 tareas.py salidas [CUADERNO ...]   vuelve a ejecutar los cuadernos y guarda sus salidas
    python3 tareas.py banco [CUADERNO ...]     mide tiempo, celda más lenta y memoria de cada cuaderno
    python3 tareas.py colab [CUADERNO ...]     los ejecuta con las versiones de Colab (.venv-colab)
    python3 tareas.py enlaces       copia la dirección del repositorio en la celda de preparación

El entorno es una carpeta .venv junto a este archivo, instalada desde requirements.txt; solo se
reinstala cuando cambia requirements.txt o pyproject.toml.
"""

import hashlib
import os
import pathlib
import shutil
import subprocess
import sys
import venv

RAIZ = pathlib.Path(__file__).resolve().parent
ENTORNO = RAIZ / ".venv"
BIN = ENTORNO / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
SELLO = ENTORNO / "instalado.sha256"

# Las dos perturbaciones de PRUEBAS.md: otro número de hilos y otra capacidad de CPU.
PERTURBACIONES = {
    "normal": {},
    "un hilo": {"OMP_NUM_THREADS": "1"},
    "cpu avx2": {"ATEN_CPU_CAPABILITY": "avx2"},
}


def _huella():
    """Huella de lo que define el entorno: si cambia, hay que reinstalar."""
    h = hashlib.sha256()
    for nombre in ("requirements.txt", "pyproject.toml"):
        h.update((RAIZ / nombre).read_bytes())
    return h.hexdigest()


def _ejecutar(orden, **opciones):
    """Ejecuta una orden mostrando qué se ejecuta; devuelve su código de salida."""
    print("→", " ".join(str(p) for p in orden), flush=True)
    return subprocess.call([str(p) for p in orden], cwd=RAIZ, **opciones)


def preparar_entorno():
    """Crea .venv e instala requirements.txt y el paquete `utilidades` si hace falta."""
    if sys.version_info < (3, 11):  # noqa: UP036 (se ejecuta con el Python del sistema, antes del entorno)
        sys.exit(f"El curso necesita Python 3.11 o posterior; este es {sys.version.split()[0]}.")
    if not PYTHON.exists():
        print(f"Creando el entorno virtual en {ENTORNO} …", flush=True)
        venv.EnvBuilder(with_pip=True).create(ENTORNO)
    huella = _huella()
    if SELLO.exists() and SELLO.read_text().strip() == huella:
        return
    print("Instalando las dependencias fijadas en requirements.txt (la primera vez tarda unos minutos) …", flush=True)
    pasos = [
        [PYTHON, "-m", "pip", "install", "--quiet", "--upgrade", "pip"],
        [PYTHON, "-m", "pip", "install", "--quiet", "-r", "requirements.txt"],
        [PYTHON, "-m", "pip", "install", "--quiet", "--no-deps", "-e", "."],
    ]
    for paso in pasos:
        if _ejecutar(paso) != 0:
            sys.exit("La instalación falló; revisa el mensaje de pip de arriba.")
    SELLO.write_text(huella)


def _en_entorno(argumentos, entorno_extra=None):
    """Ejecuta `python ARGUMENTOS` dentro de .venv; devuelve su código de salida."""
    entorno = dict(os.environ)
    entorno.update(entorno_extra or {})
    entorno["PATH"] = str(BIN) + os.pathsep + entorno.get("PATH", "")
    entorno.setdefault("PYTHONHASHSEED", "0")
    return _ejecutar([PYTHON, *argumentos], env=entorno)


def abrir(_argumentos):
    """Abre el curso en JupyterLab."""
    return _en_entorno(["-m", "jupyter", "lab", "notebooks"])


def pruebas(argumentos, entorno_extra=None):
    """Ejecuta todas las pruebas (unitarias, sincronía, estilo, cuadernos con nbval, navegador)."""
    from herramientas.navegador import asegurar_chromium

    asegurar_chromium()  # para tests/test_navegador.py; si no puede instalarlo, explica cómo
    return _en_entorno(["-m", "pytest", *argumentos], entorno_extra)


def perturbadas(argumentos):
    """Ejecuta las pruebas en las tres condiciones de PRUEBAS.md y resume."""
    resultados = {}
    for nombre, extra in PERTURBACIONES.items():
        print(f"\n===== Pruebas: {nombre} {extra or ''} =====", flush=True)
        resultados[nombre] = pruebas(argumentos, extra)
    print("\nResumen:")
    for nombre, codigo in resultados.items():
        print(f"  {nombre:10s} {'bien' if codigo == 0 else f'FALLÓ (código {codigo})'}")
    return max(resultados.values())


def salidas(argumentos):
    """Vuelve a ejecutar los cuadernos en el entorno de referencia y guarda sus salidas."""
    return _en_entorno(["-m", "herramientas.ejecutar", *argumentos])


def banco(argumentos):
    """Mide cada cuaderno: tiempo total, celda más lenta y pico de memoria del kernel."""
    return _en_entorno(["-m", "herramientas.banco", *argumentos])


def colab(argumentos):
    """Ejecuta los cuadernos con las versiones de Colab (IPython 7.34, ipywidgets 7.7.1, anywidget 0.9)."""
    return _en_entorno(["-m", "herramientas.colab", *argumentos])


def enlaces(_argumentos):
    """Copia la dirección del repositorio en la celda de preparación de cada cuaderno."""
    return _en_entorno(["-c", "from herramientas.celdas import actualizar_enlaces as a; print(*a(), sep='\\n')"])


TAREAS = {"abrir": abrir, "pruebas": pruebas, "perturbadas": perturbadas, "salidas": salidas,
          "banco": banco, "colab": colab, "enlaces": enlaces}


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in TAREAS:
        print(__doc__)
        conocidas = ", ".join(TAREAS)
        sys.exit(f"Indica una tarea: {conocidas}." if len(sys.argv) < 2 else
                 f"No conozco la tarea «{sys.argv[1]}». Las tareas son: {conocidas}.")
    if shutil.which("git") is None:
        print("Aviso: no encuentro git; no hace falta para las pruebas, pero sí para contribuir.")
    preparar_entorno()
    sys.exit(TAREAS[sys.argv[1]](sys.argv[2:]))


if __name__ == "__main__":
    main()
