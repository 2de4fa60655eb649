"""Configuración común de las pruebas: la raíz del repositorio es importable (para `herramientas`)."""

import pathlib
import sys

RAIZ = pathlib.Path(__file__).resolve().parent.parent
if str(RAIZ) not in sys.path:
    sys.path.insert(0, str(RAIZ))
