"""Diapositivas de cada lección: metadatos de presentación por reglas y diapositivas reveal.js estáticas.

Uso:
    python3 tareas.py diapositivas [CUADERNO ...]            escribe resultados/diapositivas/NN_nombre.slides.html
    python3 tareas.py diapositivas --marcar [CUADERNO ...]   escribe los metadatos `slideshow` en las lecciones
    python -m herramientas.diapositivas informe [CUADERNO ...]   lo que aún no cumple las reglas (no escribe nada)
(por dentro, python -m herramientas.diapositivas html|marcar [CUADERNO ...]). Sin cuadernos: todas las lecciones.

Las reglas (una sola fuente para todo el curso, así las lecciones se presentan igual):
- el título de la lección y cada sección «## …» abren una diapositiva; cada «### …», una subdiapositiva, y también
  cada enunciado de ejercicio («**Ejercicio N.** …»): no se presenta bajo la respuesta del anterior;
- una celda con figura (imagen) o con un panel interactivo (widget) abre una diapositiva: es lo que se presenta
  en directo;
- el código largo (más de 15 líneas, como el de las celdas «# guardar: …») va en su propia subdiapositiva, y lo
  que no cabe en una pantalla (más de 22 líneas seguidas de texto, código y salida; una figura cuenta 14) pasa a
  otra;
- la celda de preparación, las de navegación y las comprobaciones que solo afirman (`assert`) se saltan;
- una diapositiva lleva como mucho 150 palabras de texto (lo que se lee proyectado): si no caben, la celda
  siguiente abre otra;
- una celda de texto con la etiqueta `notas` son las notas de quien presenta (no salen en la diapositiva; en RISE, la
  tecla t abre la ventana de notas); una celda con la etiqueta `fragmento` aparece al pulsar, sobre lo anterior;
- en una celda que dibuja una figura, el código de más de 3 líneas queda plegado
  (`jupyter.source_hidden`): en la diapositiva se ve la figura; en JupyterLab, un clic en «…» lo despliega.
Además, cada lección lleva su configuración de RISE (diapositivas de 1280 × 720, sin transiciones, desplazamiento).
Los metadatos guardados son los que dicen las reglas (`informe` avisa de cada celda cambiada a mano): RISE presenta
los guardados y las diapositivas estáticas los de las reglas, y así las dos muestran lo mismo.

Con JupyterLab y `jupyterlab-rise` (en requirements.txt), Alt+R presenta la lección con celdas ejecutables.
"""

import ast
import copy
import json
import math
import os
import pathlib
import re
import sys

from herramientas.cuadernos import (
    ETIQUETA_NAVEGACION,
    RAIZ,
    cuadernos,
    escribir_cuaderno,
    fuente,
    leer_argumentos,
    leer_cuaderno,
)

CARPETA = RAIZ / "resultados" / "diapositivas"  # resultados/ no se guarda en git
LINEAS_LARGO = 15  # código con más líneas que esto: subdiapositiva propia
LINEAS_PANTALLA = 22  # líneas (texto, código y salida) que caben en una diapositiva a 1280 × 720
LINEAS_FIGURA = 14  # lo que ocupa una figura, en líneas
PALABRAS_PANTALLA = 150  # palabras de texto que se leen en una diapositiva proyectada
LINEAS_CODIGO_FIGURA = 3  # en una celda con figura, el código más largo que esto se pliega
CARACTERES_POR_LINEA = 100  # un párrafo largo ocupa varias líneas en la diapositiva
ETIQUETA_NOTAS, ETIQUETA_FRAGMENTO = "notas", "fragmento"
SECCIONES_SIN_NOTAS = ("ejercicios", "para saber más")  # secciones que no se presentan: se hacen o se leen
# La configuración de RISE de cada lección (metadata.rise): diapositivas de 1280 × 720 (16:9, la de los proyectores),
# sin transiciones, con el número de diapositiva y desplazamiento si algo no cabe; RISE la lee al presentar.
AJUSTES_RISE = {"width": 1280, "height": 720, "theme": "simple", "transition": "none", "scroll": True,
                "center": False, "slideNumber": True, "controls": True, "progress": True}


def _solo_afirma(codigo):
    """True si la celda solo contiene `assert` (una comprobación del curso, no algo que presentar)."""
    try:
        cuerpo = ast.parse(codigo).body
    except SyntaxError:
        return False
    return bool(cuerpo) and all(isinstance(n, ast.Assert) for n in cuerpo)


def _tipos_de_salida(celda):
    return {clave for salida in celda.get("outputs", []) for clave in salida.get("data", {})}


def palabras(celda):
    """Palabras de texto que una celda de markdown pone en la diapositiva (una fórmula cuenta una)."""
    if celda["cell_type"] != "markdown":
        return 0
    texto = re.sub(r"\$\$.*?\$\$|\$[^$]*\$", " x ", fuente(celda), flags=re.S)
    return len(re.findall(r"\w+", texto))


def _lineas_de_texto(celda):
    """Líneas que ocupa la fuente: en markdown, un párrafo largo se parte en varias de CARACTERES_POR_LINEA."""
    lineas = fuente(celda).splitlines()
    if celda["cell_type"] != "markdown":
        return len(lineas)
    return sum(max(1, math.ceil(len(linea) / CARACTERES_POR_LINEA)) for linea in lineas)


def _etiquetas(celda):
    return celda.get("metadata", {}).get("tags", [])


def es_figura(celda):
    return celda["cell_type"] == "code" and "image/png" in _tipos_de_salida(celda)


def _lineas_de_salida(celda):
    """Líneas de texto que muestra la celda al ejecutarse (las figuras cuentan LINEAS_FIGURA)."""
    total = 0
    for salida in celda.get("outputs", []):
        datos = salida.get("data", {})
        if "image/png" in datos:
            total += LINEAS_FIGURA
        texto = salida.get("text", datos.get("text/plain", ""))
        total += len("".join(texto).splitlines())
    return total


def tipo_de_diapositiva(celda, primera_de_codigo=False):
    """El `slide_type` que toca a una celda según las reglas (sin tener en cuenta lo que lleva delante)."""
    texto = fuente(celda)
    if ETIQUETA_NAVEGACION in _etiquetas(celda):
        return "skip"
    if ETIQUETA_NOTAS in _etiquetas(celda) and celda["cell_type"] == "markdown":
        return "notes"
    if primera_de_codigo and "preparar(" in texto:  # la celda de preparación
        return "skip"
    if celda["cell_type"] == "markdown":
        primera = texto.lstrip().split("\n", 1)[0]
        if primera.startswith(("# ", "## ")):
            return "slide"
        if primera.startswith("### ") or re.match(r"\*\*Ejercicio \d+\.", primera):
            return "subslide"
        return "fragment" if ETIQUETA_FRAGMENTO in _etiquetas(celda) else "-"
    if celda["cell_type"] != "code":
        return "skip"
    if not texto.strip() or (_solo_afirma(texto) and not celda.get("outputs")):
        return "skip"
    tipos = _tipos_de_salida(celda)
    if "image/png" in tipos or any("widget" in t for t in tipos):
        return "slide"
    if len(texto.splitlines()) > LINEAS_LARGO:
        return "subslide"
    return "fragment" if ETIQUETA_FRAGMENTO in _etiquetas(celda) else "-"


def diapositivas_de(cuaderno):
    """Las diapositivas tal como las marcan los metadatos: lista de listas de celdas (sin las que se saltan ni las
    notas), en orden. Una subdiapositiva cuenta como una diapositiva: es lo que se ve de una vez."""
    grupos = []
    for celda in cuaderno["cells"]:
        tipo = celda.get("metadata", {}).get("slideshow", {}).get("slide_type", "-")
        if tipo in ("skip", "notes"):
            continue
        if tipo in ("slide", "subslide") or not grupos:
            grupos.append([])
        grupos[-1].append(celda)
    return grupos


def _plegar_codigo_de_figura(celda):
    """Pliega (o despliega) el código de una celda con figura según LINEAS_CODIGO_FIGURA; True si cambió."""
    if celda["cell_type"] != "code":
        return False
    jupyter = celda.setdefault("metadata", {}).get("jupyter", {})
    plegar = es_figura(celda) and len(fuente(celda).splitlines()) > LINEAS_CODIGO_FIGURA
    if bool(jupyter.get("source_hidden")) == plegar:
        return False
    if plegar:
        celda["metadata"]["jupyter"] = {**jupyter, "source_hidden": True}
    else:
        jupyter.pop("source_hidden", None)
        if not jupyter:
            celda["metadata"].pop("jupyter", None)
    return True


def marcar(cuaderno):
    """Escribe metadata.slideshow en cada celda del cuaderno (un diccionario), pliega el código de las figuras y pone
    la configuración de RISE; devuelve cuántas celdas cambiaron (más una si cambió la configuración)."""
    cambiadas, ocupadas, escritas = 0, 0, 0
    primera_de_codigo = True
    for celda in cuaderno["cells"]:
        es_codigo = celda["cell_type"] == "code"
        tipo = tipo_de_diapositiva(celda, primera_de_codigo and es_codigo)
        primera_de_codigo = primera_de_codigo and not es_codigo
        lineas = _lineas_de_texto(celda) + _lineas_de_salida(celda)
        no_cabe = ocupadas + lineas > LINEAS_PANTALLA or escritas + palabras(celda) > PALABRAS_PANTALLA
        if tipo in ("-", "fragment") and no_cabe and (ocupadas or escritas):
            tipo = "subslide"  # no cabe en la pantalla: sigue debajo
        if tipo in ("slide", "subslide"):
            ocupadas = escritas = 0
        if tipo not in ("skip", "notes"):
            ocupadas += lineas
            escritas += palabras(celda)
        metadatos = celda.setdefault("metadata", {})
        cambio = _plegar_codigo_de_figura(celda)
        if metadatos.get("slideshow") != {"slide_type": tipo}:
            metadatos["slideshow"] = {"slide_type": tipo}
            cambio = True
        cambiadas += cambio
    if cuaderno.setdefault("metadata", {}).get("rise") != AJUSTES_RISE:
        cuaderno["metadata"]["rise"] = dict(AJUSTES_RISE)
        cambiadas += 1
    return cambiadas


def secciones_sin_notas(cuaderno):
    """Títulos de las secciones («## …», salvo «Ejercicios» y «Para saber más») cuya diapositiva no lleva notas de
    quien presenta: una celda con la etiqueta `notas` antes de la siguiente celda que abre otra diapositiva (unas
    notas más abajo irían a parar a esa otra, no a la de la sección)."""
    faltan, seccion = [], None
    for celda in cuaderno["cells"]:
        tipo = tipo_de_diapositiva(celda)
        guardado = celda.get("metadata", {}).get("slideshow", {}).get("slide_type", tipo)  # el reparto por palabras
        primera = fuente(celda).lstrip().split("\n", 1)[0]
        if celda["cell_type"] == "markdown" and primera.startswith("## "):
            if seccion:
                faltan.append(seccion)
            omitir = primera[3:].strip().rstrip(".").lower() in SECCIONES_SIN_NOTAS
            seccion = None if omitir else primera[3:].strip()
        elif tipo == "notes":
            seccion = None
        elif seccion and guardado in ("slide", "subslide"):
            faltan.append(seccion)
            seccion = None
    return faltan + ([seccion] if seccion else [])


def informe(cuaderno):
    """Líneas de texto con lo que aún no cumple las reglas, en los metadatos guardados (los que presenta RISE):
    celdas cuyo tipo de diapositiva no es el de las reglas (cambiadas a mano, o escritas después de marcar),
    diapositivas con más de PALABRAS_PANTALLA palabras (una sola celda demasiado larga: hay que partirla en párrafos)
    y secciones sin notas."""
    lineas = []
    segun_las_reglas = copy.deepcopy(cuaderno)
    marcar(segun_las_reglas)
    for indice, (celda, esperada) in enumerate(zip(cuaderno["cells"], segun_las_reglas["cells"])):
        guardado = celda.get("metadata", {}).get("slideshow", {}).get("slide_type")
        tipo = esperada["metadata"]["slideshow"]["slide_type"]
        if guardado != tipo:
            lineas.append(f"celda {indice} («{fuente(celda).strip()[:40]}»): guardada como {guardado}, las reglas "
                          f"dicen {tipo} (python3 tareas.py diapositivas --marcar)")
    for numero, grupo in enumerate(diapositivas_de(cuaderno), 1):
        total = sum(palabras(c) for c in grupo)
        if total > PALABRAS_PANTALLA:
            inicio = next((fuente(c).strip()[:60] for c in grupo if fuente(c).strip()), "")
            lineas.append(f"diapositiva {numero}: {total} palabras (máximo {PALABRAS_PANTALLA}): «{inicio}»")
    lineas += [f"sección sin notas de quien presenta: «{titulo}»" for titulo in secciones_sin_notas(cuaderno)]
    return lineas


def marcar_cuadernos(rutas=None):
    """Aplica las reglas a las lecciones (o a `rutas`) y guarda las que cambian; devuelve sus rutas."""
    cambiados = []
    for ruta in rutas or cuadernos(incluir_soluciones=False):
        cuaderno = leer_cuaderno(ruta)
        if marcar(cuaderno):
            escribir_cuaderno(ruta, cuaderno)
            cambiados.append(pathlib.Path(ruta))
    return cambiados


PLANTILLA = pathlib.Path(__file__).resolve().parent / "plantilla_diapositivas"  # la plantilla sin red (nuestra)


def _ocultar_codigo_plegado(cuaderno):
    """Las celdas con el código plegado (`jupyter.source_hidden`) muestran solo su salida en la diapositiva
    estática: nbconvert no escribe la fuente de las que llevan `transient.remove_source`."""
    for celda in cuaderno["cells"]:
        if celda.get("metadata", {}).get("jupyter", {}).get("source_hidden"):
            celda["metadata"].setdefault("transient", {})["remove_source"] = True


def _relativa(destino, carpeta):
    return pathlib.Path(os.path.relpath(destino, carpeta)).as_posix()


def escribir_html(ruta, carpeta=CARPETA, bibliotecas=None):
    """Diapositivas reveal.js de un cuaderno con sus salidas guardadas (sin ejecutarlo) que se abren sin red;
    devuelve la ruta. `bibliotecas`: {"reveal.js": carpeta, "mathjax": carpeta}; si no se dan, las de
    carpeta/bibliotecas (herramientas.bibliotecas_diapositivas las baja la primera vez)."""
    import nbformat
    from nbconvert import SlidesExporter

    from herramientas import bibliotecas_diapositivas

    if bibliotecas is None:
        bibliotecas = bibliotecas_diapositivas.asegurar(carpeta / "bibliotecas")
    cuaderno = leer_cuaderno(ruta)
    marcar(cuaderno)  # las reglas, también si el cuaderno aún no lleva los metadatos
    _ocultar_codigo_plegado(cuaderno)
    ajustes = {**AJUSTES_RISE, **cuaderno["metadata"].get("rise", {})}  # como las presenta RISE
    nodo = nbformat.reads(json.dumps(cuaderno), as_version=4)
    exportador = SlidesExporter(extra_template_paths=[str(PLANTILLA)], template_file="sin_red.html.j2")
    exportador.reveal_url_prefix = _relativa(bibliotecas["reveal.js"], carpeta)
    exportador.reveal_theme = ajustes["theme"]
    recursos = {"metadata": {"name": pathlib.Path(ruta).stem},
                "sin_red": {"reveal": exportador.reveal_url_prefix, "ajustes": ajustes,
                            "mathjax": _relativa(bibliotecas["mathjax"], carpeta)}}
    html, _ = exportador.from_notebook_node(nodo, resources=recursos)
    carpeta.mkdir(parents=True, exist_ok=True)
    destino = carpeta / f"{pathlib.Path(ruta).stem}.slides.html"
    destino.write_text(html, encoding="utf-8")
    return destino


def main(argumentos):
    if argumentos[:1] == ["informe"]:
        problemas = 0
        for ruta in leer_argumentos(argumentos[1:], uso=__doc__)[1] or cuadernos(incluir_soluciones=False):
            cuaderno = leer_cuaderno(ruta)
            lineas = informe(cuaderno)
            print(f"{pathlib.Path(ruta).name}: {len(diapositivas_de(cuaderno))} diapositivas, {len(lineas)} avisos")
            print("".join(f"  {linea}\n" for linea in lineas), end="")
            problemas += len(lineas)
        return 1 if problemas else 0
    if not argumentos or argumentos[0] not in ("marcar", "html"):
        print(__doc__)
        return 0 if argumentos[:1] in (["-h"], ["--help"], ["--ayuda"]) else 2
    orden, rutas = argumentos[0], leer_argumentos(argumentos[1:], uso=__doc__)[1]
    if orden == "marcar":
        cambiados = marcar_cuadernos(rutas or None)
        for ruta in cambiados:
            print(f"marcado: {ruta.relative_to(RAIZ)}")
        print(f"{len(cambiados)} cuadernos con metadatos de diapositivas nuevos.")
        return 0
    from herramientas import bibliotecas_diapositivas

    try:
        bibliotecas = bibliotecas_diapositivas.asegurar(CARPETA / "bibliotecas")
    except bibliotecas_diapositivas.SinBibliotecas as error:
        print(f"No se escribieron las diapositivas: {error}", file=sys.stderr)
        return 1
    for ruta in rutas or cuadernos(incluir_soluciones=False):
        destino = escribir_html(ruta, bibliotecas=bibliotecas)
        print(f"{destino.relative_to(RAIZ)}")
    print(f"Ábrelas en el navegador, también sin conexión (reveal.js y MathJax están en {CARPETA / 'bibliotecas'}); "
          f"la tecla s abre las notas de quien presenta. Carpeta: {CARPETA}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
