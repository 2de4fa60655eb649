"""Pruebas de la revisión de figuras (herramientas/revision_figuras.py) y de su enganche con nbval
(tests/figuras_nbval.py): figuras pequeñas hechas a mano que pisan, cortan o encogen sus textos, y otras que
no; y un cuaderno diminuto que nbval ejecuta de verdad."""

import io
import json
import os
import subprocess
import sys
import textwrap

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import nbformat  # noqa: E402
import pytest  # noqa: E402
from matplotlib.backend_bases import FigureCanvasBase  # noqa: E402

from herramientas import revision_figuras  # noqa: E402
from herramientas.revision_figuras import problemas_de_figura  # noqa: E402

RAIZ = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(autouse=True)
def cerrar_figuras():
    yield
    plt.close("all")


def _figura(ancho=4.0, alto=3.0):
    """Una figura de matplotlib sin los ajustes del curso: otra prueba pudo dejar puesto su estilo, cuyo gancho
    encoge al crearlas las figuras anchas (y entonces no habría nada que revisar)."""
    with plt.rc_context({"figure.hooks": []}):
        fig, ax = plt.subplots(figsize=(ancho, alto), dpi=100)
    return fig, ax


def _de_tipo(problemas, tipo):
    return [p for p in problemas if p.startswith(tipo)]


def test_una_figura_limpia_no_tiene_problemas():
    fig, ax = _figura()
    ax.plot([0, 1], [0, 1])
    ax.set_title("una recta")
    ax.set_xlabel("x")
    ax.set_ylabel("y")
    ax.text(0.1, 0.8, "nota")
    assert problemas_de_figura(fig) == []


def test_dos_textos_en_el_mismo_sitio_se_pisan_y_se_nombran():
    fig, ax = _figura()
    ax.text(0.4, 0.5, "0.93")
    ax.text(0.45, 0.5, "0.02")
    pisados = _de_tipo(problemas_de_figura(fig), "textos que se pisan")
    assert len(pisados) == 1
    assert "«0.93»" in pisados[0] and "«0.02»" in pisados[0]


def test_textos_cercanos_que_no_se_tocan_no_cuentan():
    fig, ax = _figura()
    ax.text(0.1, 0.5, "0.93")
    ax.text(0.6, 0.5, "0.02")
    assert _de_tipo(problemas_de_figura(fig), "textos que se pisan") == []


def test_marcas_apretadas_de_un_eje_se_pisan():
    fig, ax = _figura()
    ax.set_xticks(range(30), [f"palabra{k}" for k in range(30)])
    pisados = _de_tipo(problemas_de_figura(fig), "textos que se pisan")
    assert pisados and "marca del eje x" in pisados[0]


def test_marcas_giradas_se_miden_giradas():
    """Giradas 45°, las cajas sin girar de dos marcas vecinas se solapan aunque las letras no se toquen: eso no es
    pisarse. Si están tan juntas que las letras giradas se tocan, sí."""
    fig, ax = _figura(8, 3)
    ax.set_xticks(range(20), [f"palabra{k}" for k in range(20)], rotation=45, ha="right")
    renderer, textos = revision_figuras._dibujar_anotando_textos(fig)
    cajas = [t.get_window_extent(renderer) for t in textos if t.get_text().startswith("palabra")]
    assert cajas[0].overlaps(cajas[1])  # sin girar, las cajas vecinas se solapan…
    assert _de_tipo(problemas_de_figura(fig), "textos que se pisan") == []  # …pero las letras no se tocan
    fig, ax = _figura(3, 3)
    ax.set_xticks(range(40), [f"palabra{k}" for k in range(40)], rotation=45, ha="right")
    assert _de_tipo(problemas_de_figura(fig), "textos que se pisan")


def test_titulos_de_paneles_estrechos_se_pisan():
    fig, ejes = plt.subplots(1, 4, figsize=(6, 2), dpi=100)
    for k, eje in enumerate(ejes):
        eje.set_title(f"un título largo {k}")
    pisados = _de_tipo(problemas_de_figura(fig), "textos que se pisan")
    assert pisados and "título" in pisados[0]


def test_letra_pequena_en_la_imagen_guardada():
    fig, ax = _figura()
    ax.text(0.5, 0.5, "diminuta", fontsize=7)  # 7 pt a 100 ppp: 9.7 px
    pequenas = _de_tipo(problemas_de_figura(fig), "letra de menos de 11 px")
    assert len(pequenas) == 1 and "«diminuta»" in pequenas[0]
    # La misma letra guardada al doble de resolución sí se lee: cuenta el tamaño de la imagen guardada.
    assert _de_tipo(problemas_de_figura(fig, dpi=200), "letra de menos") == []


def test_texto_recortado_por_sus_ejes_o_fuera_de_la_imagen():
    fig, ax = _figura()
    ax.text(0.95, 0.5, "se sale por la derecha", transform=ax.transAxes, clip_on=True)
    cortados = _de_tipo(problemas_de_figura(fig), "texto cortado")
    assert len(cortados) == 1 and "«se sale por la derecha»" in cortados[0]

    fig, ax = _figura()
    ax.text(1.3, 0.5, "fuera del lienzo", transform=ax.transAxes)
    # Con el recorte «tight» del backend inline la imagen crece y el texto entra; sin él, queda cortado.
    assert _de_tipo(problemas_de_figura(fig, bbox_inches="tight"), "texto cortado") == []
    cortados = _de_tipo(problemas_de_figura(fig, bbox_inches="standard"), "texto cortado")
    assert len(cortados) == 1 and "«fuera del lienzo»" in cortados[0]


def test_imagen_demasiado_ancha():
    fig, ax = _figura(12, 3)
    ax.plot([0, 1], [0, 1])
    anchas = _de_tipo(problemas_de_figura(fig), "la imagen guardada mide")
    assert len(anchas) == 1 and "máximo 900" in anchas[0]
    fig, ax = _figura(8.5, 3)
    assert _de_tipo(problemas_de_figura(fig), "la imagen guardada mide") == []


def test_revisar_no_cambia_la_figura_guardada():
    fig, ax = _figura()
    ax.text(0.4, 0.5, "0.93")
    ax.text(0.45, 0.5, "0.02")
    antes = io.BytesIO()
    fig.savefig(antes, format="png", bbox_inches="tight")
    problemas_de_figura(fig)
    despues = io.BytesIO()
    fig.savefig(despues, format="png", bbox_inches="tight")
    assert antes.getvalue() == despues.getvalue()


def test_instalar_anota_los_problemas_y_no_cambia_la_imagen(tmp_path):
    registro = tmp_path / "registro.jsonl"
    original = FigureCanvasBase.print_figure
    fig, ax = _figura()
    ax.set_title("pisada")
    ax.text(0.4, 0.5, "0.93")
    ax.text(0.45, 0.5, "0.02")
    sin = io.BytesIO()
    fig.savefig(sin, format="png", bbox_inches="tight")
    try:
        revision_figuras.instalar(str(registro))
        con = io.BytesIO()
        fig.savefig(con, format="png", bbox_inches="tight")
        limpia, ax2 = _figura()
        ax2.set_title("limpia")
        limpia.savefig(io.BytesIO(), format="png", bbox_inches="tight")
    finally:
        FigureCanvasBase.print_figure = original
    assert con.getvalue() == sin.getvalue()
    lineas = [json.loads(linea) for linea in registro.read_text(encoding="utf-8").splitlines()]
    assert len(lineas) == 1  # solo la figura con problemas
    assert lineas[0]["figura"] == "pisada"
    assert any("«0.93»" in p and "«0.02»" in p for p in lineas[0]["problemas"])


def _cuaderno(ruta, codigo):
    cuaderno = nbformat.v4.new_notebook()
    cuaderno.cells = [nbformat.v4.new_markdown_cell("Una figura"), nbformat.v4.new_code_cell(codigo)]
    cuaderno.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(cuaderno, str(ruta))


def _nbval(ruta, carpeta):
    """Ejecuta nbval (sin comparar salidas) sobre un cuaderno con el complemento de figuras; devuelve la salida."""
    entorno = dict(os.environ, PYTHONPATH=RAIZ)
    entorno.pop("IPYTHONDIR", None)
    orden = [sys.executable, "-m", "pytest", "-p", "tests.figuras_nbval", "--nbval-lax",
             "--nbval-current-env", "-p", "no:cacheprovider", "-q", "-c", os.devnull, "--rootdir", str(carpeta),
             str(ruta)]
    return subprocess.run(orden, capture_output=True, text=True, cwd=carpeta, env=entorno, timeout=240)


def test_nbval_falla_en_la_celda_de_una_figura_que_se_pisa(tmp_path):
    pisada = tmp_path / "pisada.ipynb"
    _cuaderno(pisada, textwrap.dedent("""\
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(4, 3))
        ax.text(0.4, 0.5, "0.93")
        ax.text(0.45, 0.5, "0.02")
        plt.show()
        print("hecho")"""))
    limpia = tmp_path / "limpia.ipynb"
    _cuaderno(limpia, textwrap.dedent("""\
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(4, 3))
        ax.set_title("bien")
        plt.show()"""))
    resultado = _nbval(pisada, tmp_path)
    salida = resultado.stdout + resultado.stderr
    assert resultado.returncode != 0, salida
    assert "pisada.ipynb, Cell 0 de nbval (celda 1 del cuaderno" in salida, salida
    assert "«0.93»" in salida and "«0.02»" in salida, salida
    resultado = _nbval(limpia, tmp_path)
    assert resultado.returncode == 0, resultado.stdout + resultado.stderr
