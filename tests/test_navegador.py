"""Cada lección en la interfaz de Notebook 7, en un navegador de verdad: JupyterLab en 127.0.0.1 (el mismo servidor
sirve las dos interfaces) y Chromium sin cabeza (playwright), con las ayudas de tests/navegador_jupyter.py.

JupyterLab (cada lección con paneles abierta, ejecutada para sus paneles y usada como un estudiante; cada lección
presentada con RISE) está en tests/test_rise.py. Notebook 7 pinta las celdas con los mismos componentes de
JupyterLab: aquí se abre cada lección que guarda paneles (lo que cambia de una interfaz a otra es cómo se cargan los
widgets), SIN ejecutar, y se mira que las salidas guardadas se vean, que ninguna sea un error y que ningún widget se
muestre crudo (`Panel(children=…`) sino con su línea en castellano. La lección 01 se ejecuta entera («ejecutar
todo», como un estudiante) y se usa su actividad. Al terminar se cierran los kernels de la lección. Las copias de
las lecciones viven en una carpeta temporal: nunca se tocan las del repositorio.

Ninguna espera es ilimitada: cada `evaluate` compite en la página contra un plazo, playwright tiene plazos propios
y un vigilante cierra Chromium si algo se queda colgado; toda espera agotada falla con una captura y lo que mostraba
la página. Las capturas (1280 × 720, el tamaño de un proyector, prefijo nb7_) quedan en resultados/navegador/.
"""

import contextlib
import json
import os
import urllib.request

import navegador_jupyter
import pytest
from navegador_jupyter import (
    CAPTURAS,
    LECCIONES,
    PRESENTAR,
    TIEMPO_ABRIR,
    _celdas_de_paneles,
    _cerrar_kernels,
    _plazo_de_ejecucion,
    _vigilante,
    probar_leccion,
)

import tareas

# Los accesorios de pytest de navegador_jupyter (de alcance «module»: un JupyterLab para este archivo).
jupyterlab = navegador_jupyter.jupyterlab
playwright_sync = navegador_jupyter.playwright_sync
chromium = navegador_jupyter.chromium

# Las lecciones que guardan paneles; de ellas, solo la 01 (la de la actividad) se ejecuta.
CON_PANELES = [leccion for leccion in LECCIONES if _celdas_de_paneles(leccion)]


@pytest.mark.parametrize("leccion", CON_PANELES, ids=lambda ruta: f"nb7-{ruta.stem}")
def test_leccion_en_notebook_7(jupyterlab, chromium, leccion):
    CAPTURAS.mkdir(parents=True, exist_ok=True)
    ejecutar = leccion.name.startswith("01_")
    plazo_total = TIEMPO_ABRIR * 2 + (_plazo_de_ejecucion(leccion) + 240 if ejecutar else 60)
    with _vigilante(plazo_total, f"{leccion.name} (Notebook 7)"):
        pagina = chromium.pestana()
        try:
            probar_leccion(pagina, jupyterlab, leccion, "nb7", ejecutar)
        finally:
            with contextlib.suppress(Exception):
                pagina.close()
            _cerrar_kernels(jupyterlab)


def test_hay_lecciones_con_paneles():
    """Si ninguna lección guardara paneles, la prueba de arriba no comprobaría nada."""
    assert any(leccion.name.startswith("01_") for leccion in CON_PANELES) and len(CON_PANELES) >= 3


# --- La extensión que lleva los paneles a RISE, en el Jupyter de quien estudia y en el de las pruebas --------

EXTENSION_RISE = tareas.CARPETA_JUPYTER / "labextensions" / "curso-widgets-en-rise"


def test_abrir_pone_la_extension_de_los_paneles_en_jupyter_path(monkeypatch):
    """`tareas.py abrir` arranca JupyterLab con herramientas/jupyter en JUPYTER_PATH (delante del que hubiera), y ahí
    está la extensión que JupyterLab carga: su package.json apunta a un remoteEntry.js que existe."""
    monkeypatch.setenv("JUPYTER_PATH", "/otra/carpeta")
    arrancado = {}

    def vigilar(orden, entorno):
        arrancado.update(orden=orden, entorno=entorno)
        return 0, []

    monkeypatch.setattr(tareas, "_ejecutar_vigilando", vigilar)
    assert tareas.abrir([]) == 0
    assert arrancado["orden"][1:4] == ["-m", "jupyter", "lab"]
    rutas = arrancado["entorno"]["JUPYTER_PATH"].split(os.pathsep)
    assert rutas == [str(tareas.CARPETA_JUPYTER), "/otra/carpeta"]
    paquete = json.loads((EXTENSION_RISE / "package.json").read_text(encoding="utf-8"))
    entrada = EXTENSION_RISE / paquete["jupyterlab"]["_build"]["load"]
    assert entrada.is_file() and paquete["name"] in entrada.read_text(encoding="utf-8")


def test_el_jupyterlab_de_las_pruebas_ofrece_la_extension(jupyterlab):
    """El servidor de estas pruebas anuncia la extensión a JupyterLab y a RISE (en la configuración de la página)."""
    for pagina in ("lab", f"rise/{PRESENTAR}/{LECCIONES[0].name}"):
        with urllib.request.urlopen(jupyterlab + pagina, timeout=30) as respuesta:
            assert "curso-widgets-en-rise" in respuesta.read().decode("utf-8"), f"/{pagina} no carga la extensión"

