"""herramientas/: la celda de preparación (en tu ordenador y en Colab), los enlaces, el saneado de nbval, ejecutar,
banco, el ensayo de Colab y las diapositivas. Todo sobre copias y cuadernos diminutos en carpetas temporales."""

import configparser
import copy
import json
import os
import re
import shutil
import subprocess
import sys

import nbformat
import pytest

from herramientas import banco, celdas, colab, corregir, diapositivas, ejecutar
from herramientas.celdas import celda_de_preparacion, enlace_colab
from herramientas.cuadernos import (
    ETIQUETA_NAVEGACION,
    RAIZ,
    cuadernos,
    fin_de_la_apertura,
    fuente,
    leer_argumentos,
    leer_cuaderno,
)

LECCIONES = cuadernos(incluir_soluciones=False)
PYTHON_BASE = getattr(sys, "_base_executable", sys.executable)  # sin el .venv: ahí `utilidades` no está instalado
GIT = ["git", "-c", "user.name=curso", "-c", "user.email=curso@example.org", "-c", "advice.detachedHead=false"]


# --- La celda de preparación ---------------------------------------------------------------------------------


def _curso_falso(carpeta, version):
    """Una copia mínima del curso: utilidades con su versión y un `preparar` que no necesita torch; y, al lado,
    paquetes que la celda no debe volver importables (herramientas, tests)."""
    (carpeta / "utilidades").mkdir(parents=True)
    (carpeta / "utilidades" / "__init__.py").write_text(f'__version__ = "{version}"\n')
    (carpeta / "utilidades" / "configuracion.py").write_text(
        'def preparar():\n    print("preparado desde", __file__)\n    return "cpu"\n')
    for paquete in ("herramientas", "tests"):
        (carpeta / paquete).mkdir()
        (carpeta / paquete / "__init__.py").write_text("")
    (carpeta / "notebooks" / "soluciones").mkdir(parents=True)
    return carpeta


def _ejecutar_celda(celda, carpeta, colab=None, despues="", ruta_extra=None):
    """Ejecuta la celda con un Python sin el entorno del curso, en `carpeta`; con `colab`, como si fuera Colab."""
    previo = ""
    if colab:
        (colab / "google" / "colab").mkdir(parents=True, exist_ok=True)
        (colab / "google" / "__init__.py").write_text("")
        (colab / "google" / "colab" / "__init__.py").write_text("")
        previo = f"import sys; sys.path.insert(0, {str(colab)!r}); import google.colab\n"
    camino = os.environ.get("PATH", "")
    if ruta_extra:
        camino = f"{ruta_extra}{os.pathsep}{camino}"
    return subprocess.run([PYTHON_BASE, "-I", "-c", previo + celda + "\n" + despues], cwd=carpeta,
                          capture_output=True, text=True, timeout=90, env={"PATH": camino, "HOME": str(carpeta)})


def test_en_tu_ordenador_encuentra_el_curso_desde_la_carpeta_del_cuaderno(tmp_path):
    curso = _curso_falso(tmp_path / "mi curso", celdas.VERSION)
    resultado = _ejecutar_celda(celda_de_preparacion(), curso / "notebooks" / "soluciones")
    assert resultado.returncode == 0, resultado.stderr
    assert f"preparado desde {curso / 'utilidades' / 'configuracion.py'}" in resultado.stdout


def test_solo_utilidades_se_vuelve_importable(tmp_path):
    """La celda no pone la carpeta del curso en sys.path: herramientas/ y tests/ no pasan a ser módulos."""
    curso = _curso_falso(tmp_path / "curso", celdas.VERSION)
    despues = ("import importlib.util\n"
               "real = os.path.realpath(carpeta_del_curso)\n"
               "print('en sys.path:', any(os.path.realpath(p) == real for p in sys.path))\n"
               "print('herramientas:', importlib.util.find_spec('herramientas') is not None)\n"
               "print('tests:', importlib.util.find_spec('tests') is not None)\n"
               "import utilidades.configuracion\n"
               "print('submódulo desde', utilidades.configuracion.__file__)\n")
    resultado = _ejecutar_celda(celda_de_preparacion(), curso / "notebooks", despues=despues)
    assert resultado.returncode == 0, resultado.stderr
    assert "en sys.path: False" in resultado.stdout
    assert "herramientas: False" in resultado.stdout and "tests: False" in resultado.stdout
    assert f"submódulo desde {curso / 'utilidades' / 'configuracion.py'}" in resultado.stdout
    # Y ejecutarla dos veces en el mismo kernel no recarga ni se queja.
    dos_veces = _ejecutar_celda(celda_de_preparacion() + "\n" + celda_de_preparacion(), curso / "notebooks")
    assert dos_veces.returncode == 0, dos_veces.stderr
    assert dos_veces.stdout.count("preparado desde") == 2


def test_otra_copia_del_curso_ya_cargada_se_detecta(tmp_path):
    primera = _curso_falso(tmp_path / "primera", celdas.VERSION)
    segunda = _curso_falso(tmp_path / "segunda", celdas.VERSION)
    antes = f"import os\nos.chdir({str(primera / 'notebooks')!r})\n" + celda_de_preparacion()
    resultado = _ejecutar_celda(antes + f"\nos.chdir({str(segunda / 'notebooks')!r})\n" + celda_de_preparacion(),
                                tmp_path)
    assert "Reinicia el kernel" in resultado.stderr and str(primera / "utilidades") in resultado.stderr


def test_fuera_del_curso_dice_que_ejecutar(tmp_path):
    resultado = _ejecutar_celda(celda_de_preparacion(), tmp_path)
    assert "No encuentro el código del curso" in resultado.stderr and "python3 tareas.py abrir" in resultado.stderr
    assert "ModuleNotFoundError" not in resultado.stderr


def test_si_falta_un_paquete_lo_dice_en_castellano(tmp_path):
    curso = _curso_falso(tmp_path / "curso", celdas.VERSION)
    (curso / "utilidades" / "configuracion.py").write_text("import paquete_que_no_existe\n")
    resultado = _ejecutar_celda(celda_de_preparacion(), curso / "notebooks")
    assert "A este Jupyter le falta «paquete_que_no_existe»" in resultado.stderr
    assert "python3 tareas.py abrir" in resultado.stderr


def test_version_distinta_del_codigo_se_detecta(tmp_path):
    curso = _curso_falso(tmp_path / "curso", "0.0.1")
    resultado = _ejecutar_celda(celda_de_preparacion(version="9.9.9"), curso / "notebooks")
    assert "Este cuaderno es de la versión 9.9.9 del curso" in resultado.stderr and "0.0.1" in resultado.stderr


@pytest.fixture
def origen(tmp_path):
    """Un repositorio git con el curso falso en la versión 9.9.9, etiquetado v9.9.9, y después otro commit."""
    repositorio = _curso_falso(tmp_path / "origen", "9.9.9")
    subprocess.run(["git", "init", "-q"], cwd=repositorio, check=True)
    subprocess.run([*GIT, "add", "."], cwd=repositorio, check=True)
    subprocess.run([*GIT, "commit", "-q", "-m", "9.9.9"], cwd=repositorio, check=True)
    subprocess.run([*GIT, "tag", "v9.9.9"], cwd=repositorio, check=True)
    (repositorio / "utilidades" / "__init__.py").write_text('__version__ = "10.0.0"\n')
    subprocess.run([*GIT, "commit", "-q", "-am", "10.0.0"], cwd=repositorio, check=True)
    return repositorio


def _huella(repositorio, referencia):
    orden = ["git", "rev-parse", f"{referencia}:utilidades"]
    return subprocess.run(orden, cwd=repositorio, capture_output=True, text=True, check=True).stdout.strip()


def _celda_colab(origen, destino, huella=None):
    return celda_de_preparacion(repositorio=str(origen), version="9.9.9", carpeta_colab=str(destino),
                                huella=huella or _huella(origen, "v9.9.9"))


def test_colab_descarga_la_version_exacta_del_cuaderno(tmp_path, origen):
    destino = tmp_path / "content" / "curso"
    resultado = _ejecutar_celda(_celda_colab(origen, destino), tmp_path, colab=tmp_path / "falso")
    assert resultado.returncode == 0, resultado.stderr
    assert f"preparado desde {destino}" in resultado.stdout
    assert '__version__ = "9.9.9"' in (destino / "utilidades" / "__init__.py").read_text(), "no la punta de la rama"
    assert _huella(destino, "HEAD") == _huella(origen, "v9.9.9")
    assert sorted(p.name for p in destino.parent.iterdir()) == ["curso"], "sin carpetas de descarga sobrantes"


def test_colab_renueva_una_copia_de_otra_version(tmp_path, origen):
    destino = tmp_path / "content" / "curso"
    _curso_falso(destino, "0.0.1")  # una copia vieja de otra versión
    (destino / "basura.txt").write_text("vieja")
    celda = _celda_colab(origen, destino)
    resultado = _ejecutar_celda(celda, tmp_path, colab=tmp_path / "falso")
    assert resultado.returncode == 0, resultado.stderr
    assert not (destino / "basura.txt").exists()
    (destino / "basura.txt").write_text("la copia buena no se vuelve a descargar")
    assert _ejecutar_celda(celda, tmp_path, colab=tmp_path / "falso").returncode == 0
    assert (destino / "basura.txt").exists()


def test_colab_sin_red_no_borra_la_copia_que_habia(tmp_path, origen):
    """Sin conexión (aquí, un repositorio que ya no está) la copia anterior sigue entera, y se dice."""
    destino = tmp_path / "content" / "curso"
    _curso_falso(destino, "0.0.1")
    (destino / "mis_notas.txt").write_text("no me borres")
    movido = str(tmp_path / "repositorio-que-ya-no-esta")
    celda = celda_de_preparacion(repositorio=movido, version="9.9.9", carpeta_colab=str(destino),
                                 huella=_huella(origen, "v9.9.9"))
    resultado = _ejecutar_celda(celda, tmp_path, colab=tmp_path / "falso")
    assert "No he podido descargar el código del curso (versión v9.9.9)" in resultado.stderr
    assert movido in resultado.stderr and "sigue intacta" in resultado.stderr
    assert "CalledProcessError" not in resultado.stderr
    assert (destino / "mis_notas.txt").read_text() == "no me borres"
    assert sorted(p.name for p in destino.parent.iterdir()) == ["curso"], "la descarga fallida no deja restos"


def test_colab_rechaza_una_etiqueta_con_otro_codigo(tmp_path, origen):
    """Si la etiqueta se movió (o se creó en otro commit), la huella no coincide y no se usa lo descargado."""
    destino = tmp_path / "content" / "curso"
    celda = _celda_colab(origen, destino, huella=_huella(origen, "HEAD"))  # la del commit 10.0.0, no la de v9.9.9
    resultado = _ejecutar_celda(celda, tmp_path, colab=tmp_path / "falso")
    assert "la etiqueta no trae el código con el que se escribió este cuaderno" in resultado.stderr
    assert not destino.exists()


@pytest.mark.skipif(os.name == "nt", reason="el git falso que se cuelga está escrito en sh")
def test_colab_con_la_descarga_colgada_para_con_un_limite(tmp_path, origen):
    """Un `git clone` que no termina no deja la celda esperando para siempre."""
    falso = tmp_path / "bin"
    falso.mkdir()
    git_real = shutil.which("git")
    (falso / "git").write_text(f'#!/bin/sh\nif [ "$1" = clone ]; then sleep 30; fi\nexec {git_real} "$@"\n')
    (falso / "git").chmod(0o755)
    celda = _celda_colab(origen, tmp_path / "content" / "curso").replace("timeout=180", "timeout=2")
    assert "timeout=2" in celda
    resultado = _ejecutar_celda(celda, tmp_path, colab=tmp_path / "falso", ruta_extra=falso)
    assert "la descarga tardó más de" in resultado.stderr


def test_version_de_la_celda_es_la_del_paquete():
    import utilidades

    assert celdas.VERSION == utilidades.__version__
    assert f'version_del_curso, huella_del_curso = "{utilidades.__version__}", "' in celda_de_preparacion()
    assert f'"{celdas.REPOSITORIO}", "v{utilidades.__version__}"' in celda_de_preparacion()


# --- enlaces: insignias de Colab, navegación y README --------------------------------------------------------


def test_la_navegacion_va_tras_la_apertura_entera():
    """Título y objetivos en una celda o en dos (para que quepan en las diapositivas): la navegación va detrás."""
    from herramientas.cuadernos import apertura

    ruta = LECCIONES[1]
    sin_nav = [c for c in leer_cuaderno(ruta)["cells"] if ETIQUETA_NAVEGACION not in c["metadata"].get("tags", [])]
    texto = apertura({"cells": sin_nav})
    titulo, resto = texto.split("**Al terminar podrás", 1)
    cuerpo = [c for c in sin_nav if not (c["cell_type"] == "markdown" and fuente(c) and fuente(c) in texto)]
    for apertura_en_celdas in ([_md(texto)], [_md(titulo.rstrip()), _md("**Al terminar podrás" + resto)]):
        cuaderno = {"metadata": {}, "cells": copy.deepcopy(apertura_en_celdas + cuerpo)}
        celdas.actualizar_cuaderno(cuaderno, ruta, LECCIONES)
        n = len(apertura_en_celdas)
        assert [fuente(c) for c in cuaderno["cells"][:n]] == [fuente(c) for c in apertura_en_celdas]
        assert ETIQUETA_NAVEGACION in cuaderno["cells"][n]["metadata"]["tags"]
        assert "Al terminar podrás" in apertura(cuaderno) and "Tiempo" in apertura(cuaderno)
        assert not celdas.actualizar_cuaderno(cuaderno, ruta, LECCIONES), "otra vez no cambia nada"


def test_enlaces_pone_preparacion_insignia_y_navegacion(tmp_path):
    ruta = LECCIONES[1]
    cuaderno = leer_cuaderno(ruta)
    viejo = copy.deepcopy(cuaderno)
    codigo = [c for c in cuaderno["cells"] if c["cell_type"] == "code"]
    codigo[0]["source"] = ["# una celda vieja\n", "from utilidades.configuracion import preparar\n"]
    assert celdas.actualizar_cuaderno(cuaderno, ruta, LECCIONES)
    celdas_nuevas = cuaderno["cells"]
    assert fuente(celdas_nuevas[0]) == fuente(viejo["cells"][0]), "el título sigue primero"
    fin = fin_de_la_apertura(celdas_nuevas)  # tras el título y lo que lo acompaña, la navegación
    arriba, abajo = fuente(celdas_nuevas[fin]), fuente(celdas_nuevas[-1])
    assert enlace_colab(ruta.relative_to(RAIZ).as_posix()) in arriba and "colab-badge.svg" in arriba
    assert f"({LECCIONES[0].name})" in arriba and f"({LECCIONES[2].name})" in arriba
    assert "Siguiente lección" in abajo and f"({LECCIONES[2].name})" in abajo
    assert fuente([c for c in celdas_nuevas if c["cell_type"] == "code"][0]) == celda_de_preparacion()
    sin_navegacion = [c for c in celdas_nuevas if ETIQUETA_NAVEGACION not in c["metadata"].get("tags", [])]
    assert len(sin_navegacion) == len(viejo["cells"]) - sum(
        ETIQUETA_NAVEGACION in c["metadata"].get("tags", []) for c in viejo["cells"])
    assert not celdas.actualizar_cuaderno(cuaderno, ruta, LECCIONES), "una segunda vez no cambia nada"


def test_primera_y_ultima_leccion_y_soluciones():
    primera, _ = celdas.celdas_de_navegacion(LECCIONES[0], LECCIONES)
    _, ultima = celdas.celdas_de_navegacion(LECCIONES[-1], LECCIONES)
    assert "←" not in primera and "→" in primera
    assert "final del curso" in ultima
    solucion = RAIZ / "notebooks" / "soluciones" / f"{LECCIONES[0].stem}_soluciones.ipynb"
    arriba, _ = celdas.celdas_de_navegacion(solucion, LECCIONES)
    assert f"(../{LECCIONES[0].name})" in arriba and "Soluciones de" in arriba


def test_readme_apunta_a_la_version():
    texto = ("[x](https://colab.research.google.com/github/atencion-y-transformers/curso/blob/main/notebooks/a.ipynb)"
             " y https://colab.research.google.com/github/otro/repo/blob/main/b.ipynb")
    nuevo = celdas.actualizar_readme(texto, "v1.2.3")
    assert "/curso/blob/v1.2.3/notebooks/a.ipynb" in nuevo and "/otro/repo/blob/main/b.ipynb" in nuevo


def test_readme_tiene_el_tiempo_de_cada_leccion_y_el_total():
    readme = (RAIZ / "README.md").read_text(encoding="utf-8")
    total = 0
    for ruta in LECCIONES:
        enlace = f"]({ruta.relative_to(RAIZ).as_posix()})"
        fila = next((linea for linea in readme.splitlines() if enlace in linea), None)
        if fila is None:
            continue  # que cada lección tenga su fila lo comprueba test_cuadernos.py
        minutos = banco.minutos_de_clase(ruta)
        assert f"| {minutos} min |" in fila, f"el README no da el tiempo de {ruta.name} que dice la lección"
        total += minutos
    assert f"**{total // 60} h {total % 60:02d} min**" in readme, "el total del README no suma los tiempos"


# --- El saneado de nbval ------------------------------------------------------------------------------------


def _reglas():
    configuracion = configparser.ConfigParser()
    configuracion.read(RAIZ / "herramientas" / "sanitizar.cfg", encoding="utf-8")
    return [(re.compile(configuracion[s]["regex"]), configuracion[s]["replace"]) for s in configuracion.sections()]


def _sanear(texto):
    for patron, cambio in _reglas():
        texto = patron.sub(cambio, texto)
    return texto


@pytest.mark.parametrize("original,saneado", [
    ("<Figure at 0x7f3a2b9c10d0>", "<Figure at 0xDIRECCION>"),
    ('File /tmp/ipykernel_4821/3141592653.py:7', "File CELDA_DEL_KERNEL:7"),
    ("el lote tardó 0.42 s (medido)", "el lote tardó N s (medido)"),
    ("12 s (medido) y 3.5 s (medido)", "N s (medido) y N s (medido)"),
])
def test_el_saneado_quita_lo_que_cambia(original, saneado):
    assert _sanear(original) == saneado


@pytest.mark.parametrize("texto", [
    "el peso 0x10 es hexadecimal", "tardó 0.42 s", "pérdida 0.42 s (estimada)", "/tmp/otra/3.py", "3 s medido",
])
def test_el_saneado_no_toca_lo_demas(texto):
    assert _sanear(texto) == texto


# --- ejecutar, banco, colab ---------------------------------------------------------------------------------


def _cuaderno_diminuto(ruta, celdas_de_codigo):
    cuaderno = nbformat.v4.new_notebook()
    cuaderno.metadata = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
                         "widgets": {"estado": "viejo"}}
    cuaderno.cells = [nbformat.v4.new_markdown_cell("# 99 · Prueba\n\n**Tiempo estimado:** 5 minutos.")]
    cuaderno.cells += [nbformat.v4.new_code_cell(c) for c in celdas_de_codigo]
    nbformat.write(cuaderno, ruta)
    return ruta


def test_ejecutar_guarda_salidas_sin_widgets_ni_tiempos(tmp_path):
    ruta = _cuaderno_diminuto(tmp_path / "99_prueba.ipynb", ["import os\nprint(os.getcwd())", "1 + 1"])
    ejecutar.ejecutar(ruta)
    datos = json.loads(ruta.read_text(encoding="utf-8"))
    assert "widgets" not in datos["metadata"]
    codigo = [c for c in datos["cells"] if c["cell_type"] == "code"]
    assert codigo[0]["outputs"][0]["text"] == [f"{tmp_path}\n"], "se ejecuta en la carpeta del cuaderno"
    assert codigo[1]["outputs"][0]["data"]["text/plain"] == ["2"]
    assert all("execution" not in c["metadata"] and "id" not in c for c in datos["cells"])
    assert ruta.read_text(encoding="utf-8").endswith("}\n")


def test_ejecutar_sin_cuaderno_lo_dice(tmp_path):
    with pytest.raises(SystemExit, match="No existe el cuaderno"):
        ejecutar.main([str(tmp_path / "no_esta.ipynb")])


def test_leer_argumentos_separa_opciones_y_cuadernos(tmp_path, capsys):
    cuaderno = tmp_path / "99_prueba.ipynb"
    cuaderno.write_text("{}", encoding="utf-8")
    assert leer_argumentos([str(cuaderno), "--guardar"], ("--guardar",)) == (["--guardar"], [cuaderno])
    assert leer_argumentos([]) == ([], [])
    with pytest.raises(SystemExit) as salida:
        leer_argumentos(["--ayuda"], uso="Uso: así")
    assert salida.value.code == 0 and capsys.readouterr().out.strip() == "Uso: así"
    with pytest.raises(SystemExit, match="No conozco la opción «--tabla»: esta orden las que admite son --guardar"):
        leer_argumentos(["--tabla"], ("--guardar",))
    with pytest.raises(SystemExit, match="no admite ninguna"):
        leer_argumentos(["--guardar"])
    with pytest.raises(SystemExit, match="«notas.txt» no es un cuaderno"):
        leer_argumentos(["notas.txt"])
    with pytest.raises(SystemExit, match="No existe el cuaderno"):
        leer_argumentos([str(tmp_path / "no_esta.ipynb")])
    falta = tmp_path / "no_esta.ipynb"  # sin deben_existir, la orden decide qué hacer con lo que falta
    assert leer_argumentos([str(falta)], deben_existir=False) == ([], [falta])


@pytest.mark.parametrize("orden", [
    lambda args: banco.main(args),
    lambda args: colab.main(args),
    lambda args: celdas.main(args),
    lambda args: diapositivas.main(["html", *args]),
    lambda args: diapositivas.main(["marcar", *args]),
    lambda args: ejecutar.main(args),
], ids=["banco", "colab", "enlaces", "diapositivas html", "diapositivas marcar", "salidas"])
def test_las_ordenes_paran_antes_de_empezar_si_un_argumento_no_vale(orden, tmp_path, monkeypatch):
    def no_debe_llegar(*_):
        raise AssertionError("la orden empezó a trabajar con un argumento que no vale")

    for funcion in ("medir", "informe_de_figuras", "velocidad_de_matrices"):
        monkeypatch.setattr(banco, funcion, no_debe_llegar)
    monkeypatch.setattr(colab, "preparar", no_debe_llegar)  # instalaría .venv-colab
    monkeypatch.setattr(celdas, "actualizar_enlaces", no_debe_llegar)
    monkeypatch.setattr(diapositivas, "marcar_cuadernos", no_debe_llegar)
    monkeypatch.setattr(diapositivas, "escribir_html", no_debe_llegar)
    monkeypatch.setattr(ejecutar, "ejecutar", no_debe_llegar)
    with pytest.raises(SystemExit, match="No existe el cuaderno"):
        orden([str(tmp_path / "no_esta.ipynb")])
    with pytest.raises(SystemExit, match="No conozco la opción «--tabla»"):
        orden(["--tabla"])


def test_corregir_para_ante_una_opcion_que_no_conoce(tmp_path, monkeypatch):
    monkeypatch.setattr(corregir, "corregir", lambda *_: pytest.fail("corrigió con un argumento que no vale"))
    entrega = str(tmp_path / "entrega.ipynb")
    with pytest.raises(SystemExit, match="No conozco la opción «--notas»: esta orden las que admite son --csv"):
        corregir.main(["--notas", "notas.csv", entrega])
    with pytest.raises(SystemExit, match="Falta el valor de --csv: escríbelo justo después, como --csv notas.csv"):
        corregir.main([entrega, "--csv"])
    with pytest.raises(SystemExit) as salida:
        corregir.main(["--ayuda"])
    assert salida.value.code == 0


def test_banco_mide_la_celda_mas_lenta_y_la_memoria(tmp_path):
    ruta = _cuaderno_diminuto(tmp_path / "99_prueba.ipynb", ["x = 1", "import time\ntime.sleep(0.6)", "y = 2"])
    total, (indice, segundos), pico = banco.medir(ruta)
    assert indice == 2 and 0.5 < segundos < total
    assert pico > 10, "el kernel ocupa más de 10 MiB"
    assert json.loads(ruta.read_text())["metadata"]["widgets"] == {"estado": "viejo"}, "banco no guarda nada"


def test_banco_mide_la_velocidad_de_la_maquina():
    gflops, hilos = banco.velocidad_de_matrices(lado=256)
    assert gflops > 0.1 and hilos >= 1


def test_banco_escribe_la_tabla_de_la_guia(tmp_path):
    ruta = _cuaderno_diminuto(tmp_path / "99_prueba.ipynb", ["x = 1"])
    assert banco.minutos_de_clase(ruta) == 5
    filas = [(tmp_path / "98_a.ipynb", 45, 12.3, (7, 4.2), 512.0),
             (tmp_path / "99_b.ipynb", 60, 50.0, (3, 30.0), 700.0)]
    tabla = banco.tabla_markdown(filas, "2026-01-01", "una CPU")
    assert "| 98 · `98_a` | 45 min | 12 s | [7]: 4 s | 512 MiB |" in tabla
    assert "**1 h 45 min**" in tabla and "**1.0 min**" in tabla
    assert "| 1 | 98 y 99 | 1 h 45 min | 1.0 min |" in tabla, "las lecciones fuera de SESIONES van en una sesión más"
    guia = f"antes\n{banco.MARCA_INICIO}\nvieja\n{banco.MARCA_FIN}\ndespués\n"
    nueva = banco.insertar_tabla(guia, tabla)
    assert "vieja" not in nueva and tabla in nueva and nueva.startswith("antes\n") and nueva.endswith("después\n")
    assert banco.insertar_tabla(nueva, tabla) == nueva
    with pytest.raises(ValueError, match="No encuentro las marcas"):
        banco.insertar_tabla("sin marcas", tabla)


def test_banco_mide_las_figuras_guardadas(tmp_path):
    ruta = _cuaderno_diminuto(tmp_path / "99_prueba.ipynb", [
        "import matplotlib.pyplot as plt",
        "fig = plt.figure(figsize=(12, 3), dpi=100)\nplt.plot([1, 2])\nplt.show()",
        "fig = plt.figure(figsize=(4, 3), dpi=100)\nplt.plot([1, 2])\nplt.show()",
    ])
    ejecutar.ejecutar(ruta)
    (n1, ancho1, alto1), (n2, ancho2, _) = banco.tamanos_de_figuras(ruta)
    assert (n1, n2) == (2, 3) and 900 < ancho1 <= 1200 and 200 < alto1 <= 300 and ancho2 < 450
    informe = banco.informe_de_figuras([ruta])
    assert "99_prueba [2]:" in informe and "← ancha" in informe
    assert informe.endswith(f"2 figuras; 1 más anchas de 900 px y 0 más altas de 600 px; la más ancha, {ancho1} px.")


def test_la_guia_docente_incluye_la_tabla_generada():
    guia = (RAIZ / "DOCENTES.md").read_text(encoding="utf-8")
    assert banco.MARCA_INICIO in guia and banco.MARCA_FIN in guia
    tabla = guia.split(banco.MARCA_INICIO, 1)[1].split(banco.MARCA_FIN, 1)[0]
    assert "| Lección | En clase | Ejecutar todo |" in tabla and "**Total**" in tabla and "| Sesión |" in tabla


def test_la_guia_docente_tiene_el_mapa_de_ejercicios_al_dia():
    guia = (RAIZ / "DOCENTES.md").read_text(encoding="utf-8")
    mapa = guia.split(banco.MAPA_INICIO, 1)[1].split(banco.MAPA_FIN, 1)[0].strip()
    assert mapa == banco.mapa_de_ejercicios(), "el mapa de DOCENTES.md está viejo: `python3 tareas.py enlaces`"


def test_mapa_lee_enunciados_y_pistas():
    pistas = banco.pistas_de_la_leccion("03")
    assert set(pistas) >= {"03.1", "03.2", "03.3"} and all(pistas[c] for c in ("03.1", "03.2"))
    textos = banco.enunciados(RAIZ / "notebooks" / "03_escala_y_temperatura.ipynb")
    assert 1 in textos and textos[1].endswith((".", "?", "!", "…"))
    largo = "Calcula $" + "x" * 200 + "$ y después otra cosa más larga que el límite"
    assert banco._acortar(largo) == "Calcula …"


def test_colab_versiones_fijadas_y_ensayo(tmp_path, monkeypatch):
    assert all(re.fullmatch(r"[\w\-]+==[\w.]+", v) for v in colab.VERSIONES), "cada versión del ensayo, fijada"
    de_colab = {"torch==2.11.0", "ipython==7.34.0", "ipywidgets==7.7.1", "anywidget==0.9.21"}  # las de Colab
    assert de_colab <= set(colab.VERSIONES), "el ensayo usa las versiones de Colab, no las de referencia"
    monkeypatch.setattr(colab, "NUCLEO", "python3")  # el ensayo con el kernel del entorno de referencia
    bien = _cuaderno_diminuto(tmp_path / "99_bien.ipynb", ["x = 1"])
    mal = _cuaderno_diminuto(tmp_path / "99_mal.ipynb", ["x = 1", "1 / 0"])
    assert colab.ensayar(bien) is None
    assert "ZeroDivisionError" in colab.ensayar(mal)


def test_corregir_ejecuta_la_entrega_y_lee_los_veredictos(tmp_path, capsys, monkeypatch):
    entrega = _cuaderno_diminuto(tmp_path / "entrega.ipynb", [
        "from utilidades.ejercicios import comprobar",
        "comprobar('03.1', 16)",
        "comprobar('03.2', [0.25, 0.25, 0.25, 0.25])",
        "1 / 0",
        "comprobar('03.4', 8)",
    ])
    datos = json.loads(entrega.read_text())
    datos["cells"][3]["outputs"] = [{"output_type": "stream", "name": "stdout",
                                     "text": "✅ Ejercicio 03.2: ¡correcto! (copiado a mano)\n"}]
    entrega.write_text(json.dumps(datos))
    veredictos, sin_veredicto, error = corregir.corregir(entrega)
    assert veredictos["03.1"][0] is True
    assert veredictos["03.2"][0] is False and veredictos["03.2"][1].startswith("todavía no. Pista:"), \
        "las salidas guardadas a mano no cuentan: se vuelve a ejecutar"
    assert "03.4" in veredictos, "un error en una celda no detiene la corrección"
    assert sin_veredicto == [] and error.startswith("ZeroDivisionError")
    # `main` escribe la nota de esos mismos veredictos, sin ejecutar otra vez (tests/test_corregir.py llama a `main`
    # con entregas que se ejecutan).
    monkeypatch.setattr(corregir, "corregir", lambda ruta, limite: (veredictos, sin_veredicto, error))
    assert corregir.main([str(entrega), "--csv", str(tmp_path / "notas.csv")]) == 0
    assert "entrega.ipynb: " in capsys.readouterr().out
    assert "entrega.ipynb,03.1,bien" in (tmp_path / "notas.csv").read_text(encoding="utf-8")


# --- Diapositivas -----------------------------------------------------------------------------------------------


def _md(texto, **metadatos):
    return {"cell_type": "markdown", "metadata": metadatos, "source": texto}


def _py(texto, salidas=()):
    return {"cell_type": "code", "metadata": {}, "source": texto, "outputs": list(salidas), "execution_count": 1}


def test_reglas_de_las_diapositivas():
    figura = {"output_type": "display_data", "data": {"image/png": "iVBOR", "text/plain": "<Figure>"}}
    widget = {"output_type": "display_data", "data": {"application/vnd.jupyter.widget-view+json": {}}}
    cuaderno = {"cells": [
        _md("# 99 · Título"), _md("[Colab](x)", tags=["navegacion"]), _py("dispositivo = preparar()"),
        _md("## Sección"), _md("Texto corto."), _py("x = 1"), _py("plt.plot(x)", [figura]), _py("panel", [widget]),
        _md("### Apartado"), _py("\n".join(f"a{i} = {i}" for i in range(30))), _py("assert x == 1"),
        _py("print(1)", [{"output_type": "stream", "name": "stdout", "text": "1\n" * 40}]), _py("y = 2"),
    ]}
    diapositivas.marcar(cuaderno)
    tipos = [c["metadata"]["slideshow"]["slide_type"] for c in cuaderno["cells"]]
    assert tipos == ["slide", "skip", "skip", "slide", "-", "-", "slide", "slide", "subslide", "subslide", "skip",
                     "subslide", "subslide"]
    assert diapositivas.marcar(cuaderno) == 0, "aplicar las reglas otra vez no cambia nada"
    assert cuaderno["metadata"]["rise"] == diapositivas.AJUSTES_RISE


def test_notas_fragmentos_palabras_y_codigo_plegado():
    figura = {"output_type": "display_data", "data": {"image/png": "iVBOR", "text/plain": "<Figure>"}}
    parrafo = " ".join(["palabra"] * 100)  # 100 palabras: dos párrafos así no caben en una diapositiva
    dibujo_largo, dibujo_corto = _py("a = 1\nb = 2\nc = 3\nplt.plot(a)", [figura]), _py("plt.plot(x)", [figura])
    cuaderno = {"cells": [
        _md("## Sección"), _md("🗣️ **Para presentar.** La idea.", tags=["notas"]), _md(parrafo), _md(parrafo),
        _md("¿Y ahora?"), _md("Ahora esto.", tags=["fragmento"]), dibujo_largo, dibujo_corto,
        _md("### Otro apartado", tags=["fragmento"]), _md("$$\\frac{a}{b}$$ y $x$"),
    ]}
    diapositivas.marcar(cuaderno)
    tipos = [c["metadata"]["slideshow"]["slide_type"] for c in cuaderno["cells"]]
    assert tipos == ["slide", "notes", "-", "subslide", "-", "fragment", "slide", "slide", "subslide", "-"]
    assert dibujo_largo["metadata"]["jupyter"]["source_hidden"] is True  # la diapositiva enseña la figura
    assert "jupyter" not in dibujo_corto["metadata"]  # una línea no estorba: se ve
    assert diapositivas.palabras(cuaderno["cells"][-1]) == 3  # cada fórmula cuenta una palabra
    grupos = diapositivas.diapositivas_de(cuaderno)
    assert [len(g) for g in grupos] == [2, 3, 1, 1, 2]  # sin las notas
    assert diapositivas.informe(cuaderno) == []
    dibujo_largo["outputs"] = []  # sin figura, el código vuelve a verse
    diapositivas.marcar(cuaderno)
    assert "jupyter" not in dibujo_largo["metadata"]
    # Un párrafo de más de 150 palabras no cabe en ninguna diapositiva, y una sección sin notas: el informe lo dice
    sin_notas = {"cells": [_md("## Otra"), _md(" ".join(["x"] * 160)), _md("## Ejercicios"), _md("Sin notas.")]}
    diapositivas.marcar(sin_notas)
    avisos = diapositivas.informe(sin_notas)
    assert len(avisos) == 2 and "160 palabras" in avisos[0] and "«Otra»" in avisos[1], avisos
    # Unas notas tras otra diapositiva (aquí, un apartado «###») irían con ella, no con la de la sección
    tardias = {"cells": [_md("## Tardía"), _md("### Apartado"), _md("🗣️ **Para presentar.** …", tags=["notas"])]}
    diapositivas.marcar(tardias)
    assert diapositivas.informe(tardias) == ["sección sin notas de quien presenta: «Tardía»"]


def test_cada_leccion_con_sus_diapositivas():
    """Las lecciones llevan sus metadatos de presentación (`python3 tareas.py diapositivas --marcar`): cada celda
    tiene su tipo, y lo que las reglas fijan sin depender del largo de las salidas se cumple."""
    for ruta in LECCIONES:
        cuaderno = leer_cuaderno(ruta)
        guardado = [c.get("metadata", {}).get("slideshow", {}).get("slide_type") for c in cuaderno["cells"]]
        assert None not in guardado, f"{ruta.name}: ejecuta `python3 tareas.py diapositivas --marcar`"
        codigo = [c for c in cuaderno["cells"] if c["cell_type"] == "code"]
        for celda, tipo in zip(cuaderno["cells"], guardado):
            esperado = diapositivas.tipo_de_diapositiva(celda, primera_de_codigo=celda is codigo[0])
            if esperado in ("slide", "skip", "notes"):
                assert tipo == esperado, f"{ruta.name}: «{fuente(celda)[:50]}» debe ser {esperado}, es {tipo}"
        assert cuaderno["metadata"].get("rise") == diapositivas.AJUSTES_RISE, f"{ruta.name}: sin ajustes de RISE"
        # Lo que un docente necesita para presentar, en los metadatos guardados (los que usa RISE): los tipos de las
        # reglas en cada celda, ninguna diapositiva con más palabras de las que se leen proyectadas, y notas de quien
        # presenta en cada sección (python -m herramientas.diapositivas informe).
        assert not diapositivas.informe(cuaderno), f"{ruta.name}:\n" + "\n".join(diapositivas.informe(cuaderno))


def test_el_informe_ve_un_tipo_de_diapositiva_cambiado_a_mano():
    """Un enunciado de ejercicio bajo la respuesta del anterior (tipo «-» guardado a mano) es un aviso del informe,
    aunque las reglas, aplicadas de nuevo, lo pondrían bien: RISE presenta lo guardado."""
    cuaderno = leer_cuaderno(LECCIONES[0])
    indice = next(i for i, c in enumerate(cuaderno["cells"]) if fuente(c).startswith("**Ejercicio 2."))
    assert cuaderno["cells"][indice]["metadata"]["slideshow"]["slide_type"] == "subslide"
    assert diapositivas.tipo_de_diapositiva(cuaderno["cells"][indice]) == "subslide"
    cuaderno["cells"][indice]["metadata"]["slideshow"]["slide_type"] = "-"
    avisos = diapositivas.informe(cuaderno)
    assert len(avisos) == 1 and f"celda {indice}" in avisos[0] and "las reglas dicen subslide" in avisos[0], avisos


def test_diapositivas_html_con_las_salidas_guardadas(tmp_path):
    ruta = _cuaderno_diminuto(tmp_path / "99_prueba.ipynb", ["print('hola desde la salida guardada')"])
    ejecutar.ejecutar(ruta)
    # Sin red: unas bibliotecas falsas junto a las diapositivas (las de verdad, en test_diapositivas.py).
    carpeta = tmp_path / "diapositivas"
    falsas = {"reveal.js": carpeta / "bibliotecas" / "reveal", "mathjax": carpeta / "bibliotecas" / "mathjax"}
    for archivo in ("reveal/dist/reveal.js", "reveal/plugin/notes/notes.js", "mathjax/MathJax.js"):
        (carpeta / "bibliotecas" / archivo).parent.mkdir(parents=True, exist_ok=True)
        (carpeta / "bibliotecas" / archivo).write_text("// falsa", encoding="utf-8")
    destino = diapositivas.escribir_html(ruta, carpeta=carpeta, bibliotecas=falsas)
    html = destino.read_text(encoding="utf-8")
    assert destino.name == "99_prueba.slides.html"
    assert "hola desde la salida guardada" in html and html.count("<section") >= 1
    scripts = re.findall(r'<script src="([^"]+)"', html)
    assert scripts == ["bibliotecas/mathjax/MathJax.js?config=TeX-AMS-MML_HTMLorMML-full,Safe",
                       "bibliotecas/reveal/dist/reveal.js", "bibliotecas/reveal/plugin/notes/notes.js"], scripts
    assert "https://" not in " ".join(re.findall(r'(?:src|href)="([^"]+)"', html))


def test_medir_y_guardar_no_pisa_sin_forzar_y_escribe_con_forzar():
    import csv

    from herramientas.cuadernos import RAIZ
    from herramientas.medidas import corpus_dividido, medir_y_guardar

    texto, tokenizador, entrenamiento, validacion, prueba = corpus_dividido()
    assert len(entrenamiento) + len(validacion) + len(prueba) == len(texto) and len(tokenizador) > 50
    archivo = RAIZ / "resultados" / "prueba_medidas.csv"
    archivo.parent.mkdir(exist_ok=True)
    archivo.write_text("lo de antes\n", encoding="utf-8")
    try:
        with pytest.raises(SystemExit, match="usa --forzar"):
            medir_y_guardar([], archivo, ("a", "b"), lambda: [{"a": 1, "b": 2}], "prueba")
        assert archivo.read_text(encoding="utf-8") == "lo de antes\n"  # no se pisó
        medir_y_guardar(["--forzar"], archivo, ("a", "b"), lambda: [{"a": 1, "b": 2}], "prueba")
        with open(archivo, encoding="utf-8") as leido:
            assert list(csv.DictReader(leido)) == [{"a": "1", "b": "2"}]
    finally:
        archivo.unlink(missing_ok=True)


# --- publicar: lo que necesitan las insignias antes de crear la etiqueta ------------------------------------------


def test_publicacion_sin_problemas_con_la_huella_de_los_cuadernos():
    huella = celdas.huella_de_los_cuadernos()
    assert re.fullmatch(r"[0-9a-f]{40}", huella), "las celdas de preparación deben llevar una huella de git"
    assert celdas.problemas_de_publicacion(huella) == []


def test_publicacion_detecta_una_huella_vieja():
    problemas = celdas.problemas_de_publicacion("0" * 40)
    assert len(problemas) == len(cuadernos()) and all("celda de preparación" in p for p in problemas)


def test_publicacion_detecta_otra_version(monkeypatch):
    monkeypatch.setattr(celdas, "VERSION", "9.9.9")
    monkeypatch.setattr(celdas, "REFERENCIA", "v9.9.9")
    problemas = celdas.problemas_de_publicacion(celdas.huella_de_los_cuadernos())
    assert any(p.startswith("CITATION.cff") for p in problemas)
    assert any(p.startswith("README.md: la insignia") and "v9.9.9" in p for p in problemas)
    assert any("01_a_quien_mira_cada_palabra.ipynb: la insignia" in p for p in problemas)


def _git_falso(respuestas):
    """Un `_git` que responde por la orden entera o, si no está, por sus dos primeras palabras."""
    def git(*orden):
        return subprocess.CompletedProcess(orden, 0, respuestas.get(orden, respuestas.get(orden[:2], "")), "")
    return git


def test_publicar_exige_utilidades_guardado(monkeypatch, capsys):
    cambios = {("status", "--porcelain", "--", "utilidades"): " M utilidades/gpt.py"}
    monkeypatch.setattr(celdas, "_git", _git_falso(cambios))
    monkeypatch.setattr(celdas, "poner_al_dia", lambda **_: pytest.fail("no debe reescribir nada"))
    assert celdas.publicar([]) == 1
    assert "utilidades/ tiene cambios sin commit" in capsys.readouterr().out


@pytest.mark.parametrize("etiqueta,codigo,frase", [
    ("", 0, "Crea y sube la etiqueta: git tag v"),
    ("b" * 40, 0, "Todo listo"),
    ("c" * 40, 1, "ya existe y apunta a otro commit"),
])
def test_publicar_mira_la_etiqueta(monkeypatch, capsys, etiqueta, codigo, frase):
    monkeypatch.setattr(celdas, "_git", _git_falso({("rev-parse", "--verify"): etiqueta,
                                                    ("rev-parse", "HEAD"): "b" * 40}))
    monkeypatch.setattr(celdas, "huella_de_utilidades", lambda referencia="HEAD": "a" * 40)
    monkeypatch.setattr(celdas, "poner_al_dia", lambda **_: [])
    monkeypatch.setattr(celdas, "problemas_de_publicacion", lambda huella: [])
    assert celdas.publicar([]) == codigo
    salida = capsys.readouterr().out
    assert frase in salida
    assert ("git tag" in salida) == (not etiqueta)


def test_publicar_con_cambios_pendientes_no_da_las_ordenes(monkeypatch, capsys):
    monkeypatch.setattr(celdas, "_git", _git_falso({("status", "--porcelain", "--", "utilidades"): "",
                                                    ("status", "--porcelain"): " M README.md",
                                                    ("rev-parse", "HEAD"): "b" * 40}))
    monkeypatch.setattr(celdas, "huella_de_utilidades", lambda referencia="HEAD": "a" * 40)
    monkeypatch.setattr(celdas, "poner_al_dia", lambda **_: [])
    monkeypatch.setattr(celdas, "problemas_de_publicacion", lambda huella: [])
    assert celdas.publicar([]) == 1
    salida = capsys.readouterr().out
    assert "Hay cambios sin commit" in salida and "README.md" in salida and "git tag" not in salida


def test_todas_las_ordenes_hablan_castellano_al_equivocarse(capsys):
    """Un solo analizador (argparse, con los mensajes del curso): una opción desconocida, un número mal escrito o un
    valor que falta se explican en castellano en todas las órdenes, también en las que piden números."""
    from herramientas import banco_gpt

    with pytest.raises(SystemExit, match=r"--rondas espera un número entero, no «cinco»\. Añade --ayuda"):
        banco_gpt.main(["--rondas", "cinco"])
    with pytest.raises(SystemExit, match=r"Falta el valor de --pasos: escríbelo justo después, como --pasos"):
        banco_gpt.main(["--pasos"])
    with pytest.raises(SystemExit, match=r"No conozco la opción «--rapido»: esta orden las que admite son --rondas"):
        banco_gpt.main(["--rapido"])
    with pytest.raises(SystemExit) as salida:
        banco_gpt.main(["--ayuda"])
    assert salida.value.code == 0 and "Banco del mini-GPT" in capsys.readouterr().out
    with pytest.raises(SystemExit, match="No conozco la opción «--rondas»"):
        ejecutar.main(["--rondas", "3"])


# --- CITATION.cff: la fecha de la versión, desde su generador ---------------------------------------------------


def test_citation_dice_la_version_y_su_fecha():
    texto = (RAIZ / "CITATION.cff").read_text(encoding="utf-8")
    assert f'version: "{celdas.VERSION}"' in texto
    fecha = re.search(r'^date-released: "(\d{4})-(\d{2})-(\d{2})"$', texto, re.M)
    assert fecha, "CITATION.cff debe decir date-released: \"AAAA-MM-DD\" (python3 tareas.py enlaces lo escribe)"
    assert 2026 <= int(fecha.group(1)) and 1 <= int(fecha.group(2)) <= 12 and 1 <= int(fecha.group(3)) <= 31


def test_la_fecha_de_la_cita_sale_de_la_etiqueta_o_de_hoy(monkeypatch):
    import datetime

    monkeypatch.setattr(celdas, "_git", _git_falso({("log", "-1"): "2027-03-14\n"}))
    assert celdas.fecha_de_la_version("1.2.3") == "2027-03-14", "con etiqueta, la fecha de su commit"
    monkeypatch.setattr(celdas, "_git", lambda *orden: subprocess.CompletedProcess(orden, 128, "", "no existe"))
    hoy = datetime.date(2027, 5, 1)
    assert celdas.fecha_de_la_version("1.2.3", hoy=hoy) == "2027-05-01", "sin etiqueta, la de hoy"


def test_la_cita_se_pone_al_dia_sin_duplicar_la_fecha():
    sin_fecha = 'title: "x"\nversion: "0.1.0"\nlicense: MIT\n'
    con_fecha = celdas.cita_al_dia(sin_fecha, "0.2.0", "2027-01-02")
    assert con_fecha == 'title: "x"\nversion: "0.2.0"\ndate-released: "2027-01-02"\nlicense: MIT\n'
    otra = celdas.cita_al_dia(con_fecha, "0.2.0", "2027-02-03")
    assert otra.count("date-released") == 1 and 'date-released: "2027-02-03"' in otra


def test_publicar_pide_la_fecha_de_la_cita(tmp_path, monkeypatch):
    cita = tmp_path / "CITATION.cff"
    cita.write_text(f'cff-version: 1.2.0\nversion: "{celdas.VERSION}"\n', encoding="utf-8")
    monkeypatch.setattr(celdas, "CITA", cita)
    problemas = celdas.problemas_de_publicacion(celdas.huella_de_los_cuadernos())
    assert any(p.startswith("CITATION.cff no dice date-released") for p in problemas), problemas
    assert celdas.poner_al_dia_la_cita(cita) is True
    assert re.search(r'^date-released: "\d{4}-\d{2}-\d{2}"$', cita.read_text(encoding="utf-8"), re.M)
    problemas = celdas.problemas_de_publicacion(celdas.huella_de_los_cuadernos())
    assert not any(p.startswith("CITATION.cff") for p in problemas), problemas


# --- Un sitio para preguntar: formularios de avisos, la línea al final de cada lección, CONTRIBUTING.md -------------

CAMPOS_DE_LOS_AVISOS = ["Lección", "Celda o sección", "Qué esperabas", "Qué viste"]


def test_los_formularios_de_avisos_piden_leccion_sitio_esperado_y_visto():
    import yaml

    from herramientas.cuadernos import titulo

    carpeta = RAIZ / ".github" / "ISSUE_TEMPLATE"
    formularios = {ruta.stem: yaml.safe_load(ruta.read_text(encoding="utf-8"))
                   for ruta in carpeta.glob("*.yml") if ruta.name != "config.yml"}
    assert set(formularios) == {"errata", "pregunta", "propuesta"}
    for nombre, formulario in formularios.items():
        assert formulario["name"] and formulario["description"], nombre
        campos = {c["attributes"]["label"]: c for c in formulario["body"] if c["type"] != "markdown"}
        assert list(campos)[:4] == CAMPOS_DE_LOS_AVISOS, f"{nombre}: {list(campos)}"
        opciones = campos["Lección"]["attributes"]["options"]
        faltan = [titulo(r) for r in cuadernos(incluir_soluciones=False) if titulo(r) not in opciones]
        assert not faltan, f"el formulario {nombre} no ofrece estas lecciones (con su título exacto): {faltan}"
    configuracion = yaml.safe_load((carpeta / "config.yml").read_text(encoding="utf-8"))
    assert configuracion["blank_issues_enabled"] is False, "solo los formularios, que piden lo necesario"
    for enlace in configuracion.get("contact_links", []):
        ruta = enlace["url"].split(f"{celdas.REPOSITORIO}/blob/{celdas.RAMA}/", 1)
        assert len(ruta) == 2 and (RAIZ / ruta[1]).exists(), enlace["url"]


def test_cada_cuaderno_termina_con_la_linea_de_avisos():
    linea = celdas.linea_de_avisos()
    assert f"({celdas.REPOSITORIO}/issues/new/choose)" in linea and "¿Dudas o erratas?" in linea
    lecciones = cuadernos(incluir_soluciones=False)
    for ruta in [lecciones[0], lecciones[-1], cuadernos()[-1]]:
        assert celdas.celdas_de_navegacion(ruta, lecciones)[1].endswith(linea), ruta.name
    sin_linea = [r.relative_to(RAIZ).as_posix() for r in cuadernos()
                 if linea not in fuente(leer_cuaderno(r)["cells"][-1])]
    assert not sin_linea, f"sin la línea «¿Dudas o erratas?» al final (python3 tareas.py enlaces): {sin_linea}"
    assert linea in (RAIZ / "README.md").read_text(encoding="utf-8")


def test_contributing_explica_lo_necesario_y_solo_cita_archivos_del_repositorio():
    texto = (RAIZ / "CONTRIBUTING.md").read_text(encoding="utf-8")
    for orden in ("python3 tareas.py salidas", "python3 tareas.py pruebas", "python3 tareas.py enlaces"):
        assert orden in texto, orden
    citados = set(re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", texto))
    citados |= {c for c in re.findall(r"`([\w./-]+\.(?:md|py|ipynb|txt|cff))`", texto) if "NN" not in c
                and "MODULO" not in c}
    assert citados, "la prueba encuentra los archivos citados"
    faltan = sorted(c for c in citados if not (RAIZ / c).exists())
    assert not faltan, f"CONTRIBUTING.md cita archivos que no están en el repositorio: {faltan}"


# --- La guía docente: estimaciones marcadas, sesiones, secciones que presentar, mapa entero ------------------------


def test_el_mapa_de_ejercicios_nombra_cada_ejercicio_registrado():
    for ruta in cuadernos(incluir_soluciones=False):
        numero = ruta.name[:2]
        registrados = set(banco.pistas_de_la_leccion(numero))
        en_el_mapa = {f"{numero}.{n}" for n in banco.enunciados(ruta)}
        assert registrados <= en_el_mapa, f"al mapa le faltan {sorted(registrados - en_el_mapa)}"
    assert "- **02.1** Antes de seguir: predice la fila de «Ana»" in banco.mapa_de_ejercicios()


def test_la_tabla_de_sesiones_marca_estimaciones_deja_tiempo_para_instalar_y_parte_la_10():
    lecciones = cuadernos(incluir_soluciones=False)
    filas = [(r, 60, 100.0 if r.name.startswith("10") else 10.0, (2, 1.0), 300.0) for r in lecciones]
    tabla = banco.tabla_markdown(filas, "2026-01-01", "una CPU")
    assert "La columna «En clase» no se mide: es la estimación" in tabla
    assert "| Sesión | Lecciones | En clase (estimación) |" in tabla
    sesiones = [f for f in tabla.splitlines() if re.match(r"\| \d+ \|", f)]
    assert sesiones[0].startswith("| 1 | 01 y 02 | 2 h 20 min (con 20 min para instalar) |"), sesiones[0]
    quinta, sexta = sesiones[4], sesiones[5]
    assert "| 09 y 10 (hasta «" in quinta and "| 10 (desde «" in sexta and " y 11 |" in sexta
    minutos = [int(re.search(r"\| (?:(\d+) h )?(\d+) min \|", s).group(2)) +
               60 * int(re.search(r"\| (?:(\d+) h )?(\d+) min \|", s).group(1) or 0) for s in (quinta, sexta)]
    assert sum(minutos) == 60 + 60 + 60, "las dos partes de la 10 suman sus minutos, ni uno más ni uno menos"
    assert 0 < minutos[0] - 60 < 60, "cada sesión lleva una parte de la 10"
    assert "| 1.8 min |" in quinta and "| 1.8 min |" in sexta, "antes de cada sesión, la 10 se ejecuta entera"


def test_la_guia_nombra_la_seccion_de_cada_momento_en_directo():
    guia = (RAIZ / "DOCENTES.md").read_text(encoding="utf-8")
    directo = guia.split("## Qué presentar en directo", 1)[1].split("\n## ", 1)[0]
    momentos = re.findall(r"^- \*\*(\d\d) · [^*]+\*\*(.*?)(?=^- \*\*|\Z)", directo, re.M | re.S)
    assert [n for n, _ in momentos] == [r.name[:2] for r in cuadernos(incluir_soluciones=False)]
    for numero, texto in momentos:
        ruta = next(r for r in cuadernos(incluir_soluciones=False) if r.name.startswith(numero))
        titulos = {linea.lstrip("#").strip() for c in leer_cuaderno(ruta)["cells"] if c["cell_type"] == "markdown"
                   for linea in fuente(c).splitlines() if linea.startswith(("## ", "### "))}
        texto = " ".join(texto.split())
        nombradas = [t for t in titulos if f"«{t}»" in texto]
        assert nombradas, f"la guía no nombra ninguna sección de la lección {numero} en «Qué presentar en directo»"


def test_la_guia_avisa_de_que_corregir_ejecuta_el_codigo_de_los_estudiantes():
    guia = " ".join((RAIZ / "DOCENTES.md").read_text(encoding="utf-8").split())
    assert "Corregir ejecuta el código de los estudiantes" in guia and "--limite SEGUNDOS" in guia
    readme = " ".join((RAIZ / "README.md").read_text(encoding="utf-8").split())
    assert "los minutos «En clase» son la estimación" in readme, "el README no dice que todos los tiempos se miden"


def test_el_readme_explica_el_zip_de_la_version_y_se_pone_al_dia():
    readme = (RAIZ / "README.md").read_text(encoding="utf-8")
    assert f"{celdas.REPOSITORIO}/archive/refs/tags/{celdas.REFERENCIA}.zip" in readme
    assert f"`curso-{celdas.VERSION}`" in readme and "python3 tareas.py abrir" in readme
    nuevo = celdas.actualizar_readme(readme, "v9.9.9")
    assert f"{celdas.REPOSITORIO}/archive/refs/tags/v9.9.9.zip" in nuevo, "el ZIP sigue a la versión"
    assert "`curso-9.9.9`" in nuevo and "la de la versión 9.9.9 es" in nuevo
    assert celdas.actualizar_readme(readme) == readme, "con la versión actual, el README ya está al día"
