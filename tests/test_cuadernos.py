"""Los cuadernos tal como se guardan: anatomía, celda de preparación, salidas limpias y conversión a HTML."""

import re

import nbformat
import pytest
from nbconvert import HTMLExporter

from herramientas.celdas import REPOSITORIO, celda_de_preparacion, enlace_colab
from herramientas.cuadernos import RAIZ, apertura, cuadernos, fuente, leer_cuaderno

LECCIONES = cuadernos(incluir_soluciones=False)
TODOS = cuadernos()
NOMBRES = {
    "01": "01_a_quien_mira_cada_palabra", "02": "02_atencion_a_mano", "03": "03_escala_y_temperatura",
    "04": "04_atencion_multicabeza", "05": "05_mascaras", "06": "06_posicion", "07": "07_bloque_transformer",
    "08": "08_invertir_digitos", "09": "09_imagenes_como_frases", "10": "10_mini_gpt",
    "11": "11_el_transformer_entero", "12": "12_de_gpt2_a_los_modelos_de_hoy",
}


def _ids(rutas):
    return [str(r.relative_to(RAIZ / "notebooks")) for r in rutas]


def test_hay_lecciones():
    assert LECCIONES, "no hay ninguna lección en notebooks/"


@pytest.mark.parametrize("ruta", LECCIONES, ids=_ids(LECCIONES))
def test_nombre_y_solucion(ruta):
    numero = ruta.name[:2]
    assert ruta.stem == NOMBRES[numero], f"la lección {numero} debe llamarse {NOMBRES[numero]}.ipynb"
    solucion = RAIZ / "notebooks" / "soluciones" / f"{ruta.stem}_soluciones.ipynb"
    assert solucion.exists(), f"falta el cuaderno de soluciones {solucion.name}"


@pytest.mark.parametrize("ruta", LECCIONES, ids=_ids(LECCIONES))
def test_anatomia_de_la_leccion(ruta):
    celdas = leer_cuaderno(ruta)["cells"]
    primera = apertura(leer_cuaderno(ruta))  # las celdas de texto antes de la navegación
    assert celdas[0]["cell_type"] == "markdown"
    assert re.match(rf"# {ruta.name[:2]} · \S", fuente(celdas[0])), "la primera celda empieza con «# NN · Título»"
    for parte in ("Al terminar podrás", "Requisitos", "Tiempo"):
        assert parte in primera, f"la apertura (antes de la navegación) debe decir «{parte}…»"
    titulos = [linea for c in celdas if c["cell_type"] == "markdown" for linea in fuente(c).splitlines()
               if linea.startswith("## ")]
    for seccion in ("## Resumen", "## Ejercicios", "## Para saber más"):
        assert seccion in titulos, f"falta la sección «{seccion}»"
    codigo = "\n".join(fuente(c) for c in celdas if c["cell_type"] == "code")
    assert len(re.findall(rf'comprobar\("{ruta.name[:2]}\.\d+"', codigo)) >= 3, "al menos tres ejercicios"


@pytest.mark.parametrize("ruta", TODOS, ids=_ids(TODOS))
def test_celda_de_preparacion_identica(ruta):
    codigo = [c for c in leer_cuaderno(ruta)["cells"] if c["cell_type"] == "code"]
    assert fuente(codigo[0]) == celda_de_preparacion(), (
        "la primera celda de código debe ser la de preparación; `python3 tareas.py enlaces` la rehace")


@pytest.mark.parametrize("ruta", TODOS, ids=_ids(TODOS))
def test_salidas_guardadas_limpias(ruta):
    cuaderno = leer_cuaderno(ruta)
    assert "widgets" not in cuaderno["metadata"], "sin metadata.widgets (rompe la vista de GitHub)"
    for i, celda in enumerate(cuaderno["cells"]):
        if celda["cell_type"] != "code" or not fuente(celda).strip():
            continue
        assert celda.get("execution_count") is not None, f"celda {i} sin ejecutar: nbval no la compararía"
        for salida in celda.get("outputs", []):
            assert salida["output_type"] != "error", f"celda {i} guarda un error"
            texto = str(salida.get("text", "")) + str(salida.get("data", {}).get("text/plain", ""))
            assert not re.search(r" at 0x[0-9a-f]+", texto), f"celda {i}: dirección de memoria en la salida"
            assert "/tmp/ipykernel_" not in texto, f"celda {i}: ruta temporal del kernel en la salida"
            assert salida.get("name") != "stderr", f"celda {i}: avisos en stderr"


@pytest.mark.parametrize("ruta", TODOS, ids=_ids(TODOS))
def test_se_convierte_a_html(ruta):
    cuaderno = nbformat.read(ruta, as_version=4)
    nbformat.validate(cuaderno)
    html, _ = HTMLExporter().from_notebook_node(cuaderno)
    assert "<html" in html and len(html) > 10_000


def test_readme_enlaza_cada_leccion_y_su_colab():
    readme = (RAIZ / "README.md").read_text(encoding="utf-8")
    assert f"git clone {REPOSITORIO}.git" in readme, "el README debe clonar la dirección de REPOSITORIO"
    for ruta in LECCIONES:
        relativa = ruta.relative_to(RAIZ).as_posix()
        assert f"({relativa})" in readme, f"el README no enlaza {relativa}"
        assert enlace_colab(relativa) in readme, f"el README no tiene el botón de Colab de {relativa}"
