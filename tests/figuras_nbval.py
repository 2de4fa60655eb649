"""Complemento de pytest: cada figura que muestran los kernels de nbval se revisa con revision_figuras.

Textos que se pisan o se cortan, letra de menos de 11 px o una imagen de más de 900 px hacen fallar la celda que
mostró la figura, con un mensaje que nombra el cuaderno, la celda y los textos. Lo carga el conftest.py de la raíz,
así que vale igual con todo el conjunto de pruebas que con un solo cuaderno (`pytest notebooks/04_….ipynb`).

Cómo llega la revisión al kernel: un archivo de arranque de IPython, en un IPYTHONDIR propio de esta sesión de
pytest, carga herramientas/revision_figuras.py e instala la revisión, que anota los problemas en un registro. Lo
que nbval compara no cambia: la revisión dibuja la figura aparte, después de guardarla, y no escribe en la salida.
"""

import atexit
import json
import os
import pathlib
import shutil
import tempfile

import pytest

RAIZ = pathlib.Path(__file__).resolve().parent.parent
MODULO_REVISION = RAIZ / "herramientas" / "revision_figuras.py"

ARRANQUE_KERNEL = """\
def _revisar_figuras_del_curso():
    import importlib.util
    especificacion = importlib.util.spec_from_file_location("_revision_figuras", {modulo!r})
    modulo = importlib.util.module_from_spec(especificacion)
    especificacion.loader.exec_module(modulo)
    modulo.instalar({registro!r})
_revisar_figuras_del_curso()
del _revisar_figuras_del_curso
"""

_REGISTRO = None  # archivo donde los kernels anotan los problemas (uno por sesión de pytest)


def preparar_ipythondir(carpeta):
    """Escribe en `carpeta` un IPYTHONDIR cuyo arranque instala la revisión; devuelve (ipythondir, registro)."""
    carpeta = pathlib.Path(carpeta)
    registro = carpeta / "problemas_de_figuras.jsonl"
    registro.touch()
    arranque = carpeta / "ipython" / "profile_default" / "startup"
    arranque.mkdir(parents=True, exist_ok=True)
    (arranque / "00-revisar_figuras.py").write_text(
        ARRANQUE_KERNEL.format(modulo=str(MODULO_REVISION), registro=str(registro)), encoding="utf-8")
    return carpeta / "ipython", registro


_ANTES = {}  # lo que había antes de esta sesión de pytest (para dejarlo igual al acabar)


def pytest_configure(config):
    """Si nbval está activo, los kernels que arranque tendrán la revisión de figuras."""
    global _REGISTRO
    if not (config.getoption("nbval", False) or config.getoption("nbval_lax", False)):
        return
    carpeta = tempfile.mkdtemp(prefix="revision_figuras_")
    ipythondir, _REGISTRO = preparar_ipythondir(carpeta)
    _ANTES.update(ipythondir=os.environ.get("IPYTHONDIR"))
    os.environ["IPYTHONDIR"] = str(ipythondir)  # lo heredan los kernels de nbval
    # La carpeta se borra al salir de Python, después de que un IPython abierto por alguna prueba en este proceso
    # cierre su historial allí (atexit ejecuta lo último registrado primero).
    atexit.register(shutil.rmtree, carpeta, ignore_errors=True)


def pytest_unconfigure(config):
    """Deja IPYTHONDIR como estaba."""
    global _REGISTRO
    if "ipythondir" not in _ANTES:
        return
    anterior = _ANTES.pop("ipythondir")
    if anterior is None:
        os.environ.pop("IPYTHONDIR", None)
    else:
        os.environ["IPYTHONDIR"] = anterior
    _REGISTRO = None


def _es_celda_de_nbval(item):
    return hasattr(item, "cell_num") and hasattr(item, "cell")


def _celda_del_cuaderno(item):
    """(índice de la celda en la lista de celdas del cuaderno, primera línea de su código)."""
    codigo = item.cell.source.strip().splitlines()
    primera = codigo[0] if codigo else ""
    cuaderno = getattr(item.parent, "nb", None)
    indice = None if cuaderno is None else next((k for k, c in enumerate(cuaderno.cells) if c is item.cell), None)
    return indice, primera


def mensaje_de_problemas(cuaderno, celda_nbval, indice, primera, figuras):
    """El mensaje de fallo: cuaderno, celda y, por figura, sus problemas."""
    lineas = [f"{cuaderno}, {celda_nbval} de nbval (celda {indice} del cuaderno, la que empieza por «{primera}»): "
              f"{len(figuras)} figura(s) que no se leen bien en un proyector."]
    for figura in figuras:
        lineas.append(f"  Figura «{figura['figura']}» ({figura['destino']}):")
        lineas += [f"    - {p}" for p in figura["problemas"]]
    lineas.append("  Cambia el código de la figura (tamaño, paneles en filas, menos marcas o números escritos) o el "
                  "de utilidades/graficos.py.")
    return "\n".join(lineas)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_call(item):
    """Anota dónde acaba el registro antes de ejecutar la celda (lo de antes es de otras celdas u otros kernels)."""
    if _REGISTRO is not None and _es_celda_de_nbval(item):
        item._inicio_registro_figuras = _REGISTRO.stat().st_size


def pytest_runtest_makereport(item, call):
    """Tras ejecutar una celda con nbval, recoge los problemas de las figuras que mostró y la hace fallar."""
    inicio = getattr(item, "_inicio_registro_figuras", None)
    if call.when != "call" or inicio is None:
        return None
    with open(_REGISTRO, encoding="utf-8") as archivo:
        archivo.seek(inicio)
        figuras = [json.loads(linea) for linea in archivo if linea.strip()]
    if not figuras:
        return None
    from _pytest.reports import TestReport

    informe = TestReport.from_item_and_call(item, call)
    indice, primera = _celda_del_cuaderno(item)
    mensaje = mensaje_de_problemas(item.fspath.basename, item.name, indice, primera, figuras)
    informe.longrepr = mensaje if informe.passed else f"{informe.longrepr}\n\n{mensaje}"
    informe.outcome = "failed"
    return informe
