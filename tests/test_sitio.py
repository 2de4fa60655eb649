"""La web del curso (herramientas/sitio.py, `python3 tareas.py sitio`), construida una vez en una carpeta temporal
y abierta en Chromium sin cabeza: servida desde 127.0.0.1 (como en GitHub Pages), página a página, y desde el disco
(file://, como la abre quien la construye), una página de cada clase. SIN red: cada petición que salga del sitio se
corta y la prueba falla si alguna página la necesitó.

En cada página: ninguna imagen rota, ningún enlace a una página (o a un ancla) del sitio que no exista, ningún
widget mostrado como caja vacía o crudo, las fórmulas dibujadas por MathJax y sin errores de TeX; una copia con
esos defectos hechos a propósito demuestra que la revisión los ve. En cada lección y cada solución, los botones de
Colab (la dirección de su insignia), Binder y descarga del .ipynb (el del repositorio, idéntico), y «anterior» y
«siguiente» en el orden del curso. Además, la búsqueda encuentra páginas sin conexión.

Las pruebas con el sitio construido llevan la marca `lento`; las de los enlaces y Binder, no.
Ninguna espera es ilimitada: playwright tiene plazos propios y cada espera en la página, el suyo.
"""

import contextlib
import functools
import http.server
import json
import os
import pathlib
import re
import shutil
import sys
import threading
import urllib.parse

import pytest

from herramientas import sitio
from herramientas.celdas import REFERENCIA, REPOSITORIO, enlace_colab
from herramientas.cuadernos import RAIZ
from herramientas.navegador import OPCIONES_CHROMIUM, ruta_chromium

WIDGET = "application/vnd.jupyter.widget-view+json"
TIEMPO_PLAYWRIGHT = 20_000  # milisegundos de cada acción de playwright (navegación, evaluate…)
TIEMPO_MATEMATICAS = 30_000  # milisegundos para que MathJax termine de dibujar una página
# Lo que delata un widget mostrado crudo o roto, o un fallo de MathJax.
CRUDO = re.compile(r"\w+\(children=|Error displaying widget|model not found|Failed to load model|Loading widget")
RUTAS_CUADERNOS = [str(p.relative_to(RAIZ)) for p in sitio.LECCIONES + sitio.SOLUCIONES]
CAPTURAS = RAIZ / "resultados" / "navegador"  # la captura de una página que no terminó de dibujarse


# ---------------------------------------------------------------------------------------------------------------
# Sin navegador: cómo se adaptan los enlaces y los archivos de Binder.


def test_los_enlaces_que_no_son_del_sitio_van_a_github():
    en_el_sitio = set(sitio.paginas())
    texto = ("[Licencia](../LICENSE) · [Glosario](GLOSARIO.md#atencion) · [Sigue](02_atencion_a_mano.ipynb) · "
             "[código](../utilidades/atencion.py) · [web](https://example.org/x) · [aquí](#arriba) · "
             "[![Abrir en Colab](https://colab.research.google.com/assets/colab-badge.svg)](https://colab.x/y)")
    adaptado = sitio.adaptar_markdown(texto, "notebooks/01_a_quien_mira_cada_palabra.ipynb", en_el_sitio)
    assert f"[Licencia]({REPOSITORIO}/blob/{REFERENCIA}/LICENSE)" in adaptado
    assert f"[código]({REPOSITORIO}/blob/{REFERENCIA}/utilidades/atencion.py)" in adaptado
    assert "[Glosario](GLOSARIO.md#atencion)" in adaptado and "[Sigue](02_atencion_a_mano.ipynb)" in adaptado
    assert "[web](https://example.org/x)" in adaptado and "[aquí](#arriba)" in adaptado
    assert "[Abrir en Colab](https://colab.x/y)" in adaptado and "colab-badge.svg" not in adaptado
    carpeta = sitio.adaptar_markdown("[soluciones](notebooks/soluciones/)", "README.md", en_el_sitio)
    assert carpeta == f"[soluciones]({REPOSITORIO}/tree/{REFERENCIA}/notebooks/soluciones)"


def test_binder_instala_lo_fijado_y_torch_solo_cpu():
    """repo2docker, con una carpeta binder/, lee solo esa carpeta: allí deben estar el Python, los requisitos
    fijados (los del estudiante, con hashes) y torch en la versión de requirements.in, compilación CPU."""
    import tareas

    binder = RAIZ / "binder"
    assert re.fullmatch(r"python-3\.(\d+)\s*", (binder / "runtime.txt").read_text(encoding="utf-8"))
    menor = int(re.search(r"3\.(\d+)", (binder / "runtime.txt").read_text(encoding="utf-8")).group(1))
    assert tareas.PYTHON_MINIMO[1] <= menor <= tareas.PYTHON_MAXIMO[1], "Binder debe usar un Python que admite el curso"
    lineas = [linea.strip() for linea in (binder / "requirements.txt").read_text(encoding="utf-8").splitlines()
              if linea.strip() and not linea.startswith("#")]
    assert lineas == ["-r ../requirements.txt"], "binder/requirements.txt debe instalar requirements.txt tal cual"
    guion = (binder / "postBuild").read_text(encoding="utf-8")
    assert os.access(binder / "postBuild", os.X_OK), "repo2docker ejecuta binder/postBuild: debe ser ejecutable"
    assert guion.startswith("#!/bin/bash") and "set -euo pipefail" in guion
    assert "tareas.version_de_torch()" in guion, "la versión de torch sale de requirements.in, como en tareas.py"
    assert '"$python" -m pip install' in guion and "KERNEL_PYTHON_PREFIX" in guion, "pip del Python de los kernels"
    assert "--index-url https://download.pytorch.org/whl/cpu" in guion and '"torch==${version}"' in guion
    assert "-e ." in guion, "el paquete del curso (utilidades) también se instala"
    assert re.fullmatch(r"\d+\.\d+\.\d+", tareas.version_de_torch())


def test_el_flujo_publica_la_web_con_cada_version():
    """.github/workflows/sitio.yml: con cada etiqueta v*, el mismo comando que en un ordenador y su carpeta, a Pages."""
    import yaml

    flujo = yaml.safe_load((RAIZ / ".github" / "workflows" / "sitio.yml").read_text(encoding="utf-8"))
    disparadores = flujo[True]  # YAML 1.1 lee la clave «on» como verdadero
    assert disparadores["push"] == {"tags": ["v*"]}, "la web se publica al subir la etiqueta de una versión"
    assert flujo["permissions"] == {"contents": "read", "pages": "write", "id-token": "write"}
    construir, publicar = flujo["jobs"]["construir"], flujo["jobs"]["publicar"]
    pasos = construir["steps"]
    assert any(paso.get("run") == "python3 tareas.py sitio" for paso in pasos)
    subir = next(paso for paso in pasos if paso.get("uses", "").startswith("actions/upload-pages-artifact@"))
    assert RAIZ / subir["with"]["path"] == sitio.DESTINO, "se sube la carpeta que escribe `tareas.py sitio`"
    assert publicar["needs"] == "construir" and publicar["environment"]["name"] == "github-pages"
    assert [paso["uses"].split("@")[0] for paso in publicar["steps"]] == ["actions/deploy-pages"]
    assert all("timeout-minutes" in trabajo for trabajo in flujo["jobs"].values()), "ningún trabajo sin plazo"


# ---------------------------------------------------------------------------------------------------------------
# El sitio construido, en el navegador: servido por http (como en GitHub Pages) y abierto desde el disco.


@pytest.fixture(scope="module")
def construido(tmp_path_factory):
    destino = tmp_path_factory.mktemp("sitio") / "sitio"
    segundos = sitio.construir(destino, silencioso=True)
    print(f"\nSitio construido en {segundos:.1f} s")
    return destino


@pytest.fixture(scope="module")
def servidor(construido):
    """El sitio servido en 127.0.0.1 (como lo serviría GitHub Pages), en un puerto libre."""
    manejador = functools.partial(Silencioso, directory=str(construido))
    with ServidorSilencioso(("127.0.0.1", 0), manejador) as servidor:
        hilo = threading.Thread(target=servidor.serve_forever, daemon=True)
        hilo.start()
        yield f"http://127.0.0.1:{servidor.server_address[1]}/"
        servidor.shutdown()


class Silencioso(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


class ServidorSilencioso(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        # Chromium corta a veces una descarga al pasar a la página siguiente: no es un fallo del sitio.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


@pytest.fixture(scope="module")
def navegador():
    if os.environ.get("CI", "").lower() != "true":
        pytest.importorskip("playwright", reason="falta playwright (`python3 tareas.py pruebas` lo instala)")
    from playwright.sync_api import sync_playwright

    chromium = ruta_chromium()
    if not chromium:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("En CI no se puede saltar la prueba de la web: falta Chromium")
        pytest.skip("falta Chromium (ver herramientas/navegador.py)")
    with sync_playwright() as p:
        navegador = p.chromium.launch(executable_path=chromium, headless=True, args=OPCIONES_CHROMIUM,
                                      timeout=60_000)
        try:
            yield navegador
        finally:
            with contextlib.suppress(Exception):
                navegador.close()


@contextlib.contextmanager
def _pestana(navegador, base):
    """Una pestaña que solo puede pedir lo que está bajo `base`; `.fuera` guarda lo que se cortó y `.errores`, los
    errores de JavaScript."""
    contexto = navegador.new_context(viewport={"width": 1280, "height": 720})
    contexto.set_default_timeout(TIEMPO_PLAYWRIGHT)
    contexto.set_default_navigation_timeout(TIEMPO_PLAYWRIGHT)
    fuera = []

    def filtrar(ruta):
        url = ruta.request.url
        if url.startswith(base) or url.startswith(("data:", "blob:", "about:")):
            ruta.continue_()
        else:
            fuera.append(url)
            ruta.abort()

    contexto.route("**/*", filtrar)
    pestana = contexto.new_page()
    pestana.fuera = fuera
    pestana.errores = []
    pestana.on("pageerror", lambda error: pestana.errores.append(str(error)))
    try:
        yield pestana
    finally:
        contexto.close()


@pytest.fixture(scope="module")
def pagina(navegador, servidor):
    """Una pestaña que solo puede hablar con el servidor del sitio."""
    with _pestana(navegador, servidor) as pestana:
        yield pestana


def _desde_el_disco(carpeta):
    """La dirección file:// de la carpeta del sitio, con su barra final."""
    return carpeta.resolve().as_uri() + "/"


def _paginas_html(construido):
    return sorted(str(p.relative_to(construido)) for p in construido.rglob("*.html")
                  if not str(p.relative_to(construido)).startswith("_"))


def _ids(archivo, cache={}):  # noqa: B006 (caché a propósito: cada página se lee una vez)
    clave = (archivo, archivo.stat().st_mtime_ns)
    if clave not in cache:
        texto = archivo.read_text(encoding="utf-8")
        cache[clave] = set(re.findall(r'\bid="([^"]+)"', texto))
    return cache[clave]


def _enlace_roto(construido, base, href):
    """Por qué un enlace del sitio está roto (falta la página o su ancla), o None si está bien (o no es del sitio)."""
    if not href.startswith(base):
        return None
    partes = urllib.parse.urlsplit(href)
    ruta = urllib.parse.unquote(partes.path).removeprefix(urllib.parse.unquote(urllib.parse.urlsplit(base).path))
    archivo = construido / ruta
    if ruta == "" or ruta.endswith("/"):
        archivo = archivo / "index.html"
    if not archivo.is_file():
        return f"{href}: no existe {archivo.relative_to(construido)}"
    ancla = urllib.parse.unquote(partes.fragment)
    if ancla and archivo.suffix == ".html" and ancla not in _ids(archivo):
        return f"{href}: {archivo.relative_to(construido)} no tiene el ancla «{ancla}»"
    return None


def _esperar_matematicas(pestana, tiempo):
    """Espera (con plazo) a que MathJax termine; devuelve (fórmulas en la página, dibujadas, con error), o None si
    el plazo se agotó."""
    from playwright.sync_api import TimeoutError as Agotado

    # MathJax.isReady se pone al terminar el arranque, que incluye dibujar la página entera.
    try:
        pestana.wait_for_function(
            """() => !document.querySelector('.math.notranslate') ||
                     (window.MathJax && MathJax.isReady && MathJax.Hub.queue.pending === 0 &&
                      MathJax.Hub.queue.running === 0)""",
            timeout=tiempo)
    except Agotado:
        return None
    return pestana.evaluate(
        """() => {
            const formulas = [...document.querySelectorAll('.math.notranslate')];
            const dibujadas = formulas.filter(m => m.querySelector(
                '.MathJax, .MathJax_Display, .MathJax_CHTML, .MathJax_SVG, .MathJax_MathML, math'));
            const errores = document.querySelectorAll('.MathJax_Error, .merror, merror, .noError').length +
                (document.body.innerText.includes('Math Processing Error') ? 1 : 0);
            return [formulas.length, dibujadas.length, errores];
        }""")


# Lo que las pruebas de botones y widgets leen de cada página servida: lo guarda la revisión del sitio servido al
# pasar por ella (y si no pasó, cada prueba abre la página). Así cada página se abre una vez.
LEER_PAGINA = """() => ({enlaces: [...document.querySelectorAll('a[href]')].map(a => a.href),
                        anterior: document.querySelector('a.left-prev')?.href,
                        siguiente: document.querySelector('a.right-next')?.href})"""
VISTAS = {}  # (base, relativa) -> {"enlaces", "anterior", "siguiente", "texto"}


def _vista(pestana, base, relativa):
    """Lo que se lee de una página ya abierta en `pestana`; queda guardado en VISTAS."""
    vista = pestana.evaluate(LEER_PAGINA)
    vista["texto"] = pestana.inner_text("body")
    VISTAS[(base, relativa)] = vista
    return vista


def _leer(pestana, base, relativa):
    """Lo que se lee de una página servida: lo guardado al revisarla, o lo que muestra al abrirla ahora."""
    if (base, relativa) not in VISTAS:
        pestana.goto(base + relativa, wait_until="load")
        _vista(pestana, base, relativa)
    return VISTAS[(base, relativa)]


def _revisar_pagina(pestana, construido, base, relativa, tiempo_matematicas=TIEMPO_MATEMATICAS, abierta=False,
                    componer=True):
    """Lo que está mal en una página del sitio (una lista de frases) y si tiene fórmulas. Con `abierta`, la página ya
    se está abriendo en `pestana` y se espera a que cargue. Sin `componer`, de MathJax solo se mira que cargó (ver
    _revisar_todo), sin esperar a que componga cada fórmula."""
    if abierta:
        pestana.wait_for_load_state("load")
    else:
        pestana.goto(base + relativa, wait_until="load")
    problemas = []
    if pestana.evaluate("document.documentElement.lang") != "es":
        problemas.append(f"{relativa}: la página no está en «es»")
    rotas = pestana.evaluate(
        "() => [...document.images].filter(i => !i.complete || i.naturalWidth === 0).map(i => i.src)")
    problemas += [f"{relativa}: imagen que no carga: {src}" for src in rotas]
    for href in pestana.evaluate(LEER_PAGINA)["enlaces"]:
        roto = _enlace_roto(construido, base, href)
        if roto:
            problemas.append(f"{relativa}: enlace roto: {roto}")
    if not componer:
        formulas = pestana.evaluate("document.querySelectorAll('.math.notranslate').length")
        cargado = pestana.evaluate("() => Boolean(window.MathJax && MathJax.Hub)")
        if formulas and not cargado:
            problemas.append(f"{relativa}: tiene {formulas} fórmulas y MathJax no cargó")
        matematicas = (0, 0, 0)
    else:
        matematicas = _esperar_matematicas(pestana, tiempo_matematicas)
    if matematicas is None:
        captura = CAPTURAS / f"sitio_{relativa.replace('/', '_')}.png"
        captura.parent.mkdir(parents=True, exist_ok=True)
        pestana.screenshot(path=str(captura))
        problemas.append(f"{relativa}: MathJax no terminó en {tiempo_matematicas / 1000:.0f} s (captura en {captura}; "
                         f"la página mostraba: «{pestana.inner_text('body')[:300]}»)")
        formulas = 1
    elif componer:
        formulas, dibujadas, errores = matematicas
        if formulas and (dibujadas != formulas or errores):
            problemas.append(f"{relativa}: MathJax dibujó {dibujadas} de {formulas} fórmulas ({errores} errores)")
    texto = _vista(pestana, base, relativa)["texto"]
    if CRUDO.search(texto):
        problemas.append(f"{relativa}: un widget se ve roto o crudo: «{CRUDO.search(texto).group(0)}»")
    cajas = pestana.evaluate(
        "() => document.querySelectorAll('.jupyter-widgets, .widget-area, "
        "script[type=\"application/vnd.jupyter.widget-view+json\"]').length")
    if cajas:
        problemas.append(f"{relativa}: {cajas} cajas de widget sin texto alternativo")
    return problemas, formulas > 0


def _con_formulas(construido, relativa):
    return 'class="math notranslate' in (construido / relativa).read_text(encoding="utf-8")


def _una_de_cada_clase(paginas):
    """De cada carpeta, la primera página de un cuaderno y cada página que no lo es (índice, búsqueda, guía, glosario,
    cifras citadas): una página de cada plantilla y de cada profundidad de carpeta."""
    vistas, elegidas = set(), []
    for relativa in paginas:
        ruta = pathlib.PurePosixPath(relativa)
        if re.match(r"\d\d_", ruta.name):
            if ruta.parent in vistas:
                continue
            vistas.add(ruta.parent)
        elegidas.append(relativa)
    return elegidas


def _revisar_todo(pestana, construido, base, componer=None, solo=None):
    """Revisa cada página del sitio desde `base` (o solo las de `solo`). MathJax compone las fórmulas de cada página de
    `componer` (todas si es None); en las demás, solo se mira que cargó."""
    paginas = _paginas_html(construido)
    esperadas = {"index.html", "DOCENTES.html", "notebooks/GLOSARIO.html", "notebooks/CIFRAS_CITADAS.html",
                 *(str(pathlib.PurePosixPath(r).with_suffix(".html")) for r in RUTAS_CUADERNOS)}
    assert not esperadas - set(paginas), f"faltan páginas en el sitio: {sorted(esperadas - set(paginas))}"
    if solo is not None:
        paginas = [p for p in paginas if p in solo]
    problemas, con_formulas = [], 0
    # Dos pestañas del mismo contexto (mismo filtro de la red): mientras se revisa una página, la siguiente ya carga.
    otra = pestana.context.new_page()
    otra.on("pageerror", lambda error: pestana.errores.append(str(error)))
    pestanas = [pestana, otra]
    pestana.goto(base + paginas[0], wait_until="commit")
    for i, relativa in enumerate(paginas):
        if i + 1 < len(paginas):
            pestanas[(i + 1) % 2].goto(base + paginas[i + 1], wait_until="commit")
        de_esta, formulas = _revisar_pagina(pestanas[i % 2], construido, base, relativa, abierta=True,
                                            componer=componer is None or relativa in componer)
        problemas += de_esta
        con_formulas += formulas
    otra.close()
    print(f"\n{len(paginas)} páginas abiertas desde {base}; {con_formulas} con fórmulas")
    esperadas = 5 if componer is None else len(componer)
    assert con_formulas >= esperadas, f"solo {con_formulas} páginas con fórmulas: ¿se perdió dollarmath?"
    assert not problemas, "\n".join(problemas)
    assert not pestana.errores, f"errores de JavaScript en las páginas: {pestana.errores[:5]}"
    assert not pestana.fuera, f"el sitio pidió cosas de fuera (sin red no se verían): {sorted(set(pestana.fuera))[:10]}"


@pytest.mark.lento
def test_cada_pagina_del_sitio_servido(construido, servidor, pagina):
    _revisar_todo(pagina, construido, servidor)


@pytest.mark.lento
def test_el_sitio_desde_el_disco(construido, navegador):
    """Abierto con doble clic, sin servidor: lo que dice `tareas.py sitio` al terminar. Lo que cambia al abrir desde
    el disco es cómo se encuentran los archivos: el HTML y sus rutas relativas son los de las páginas servidas, donde
    cada página se revisa entera, y lo que depende de file:// es de la plantilla y de la carpeta. Por eso aquí se
    revisa una página de cada clase (`_una_de_cada_clase`: las de la raíz, y en cada carpeta la primera lección o
    solución y las que no son cuadernos), entera: imágenes, enlaces, widgets, errores de JavaScript, nada de fuera y
    el MathJax que pide cada una existe; que componga cada fórmula se espera en la primera página con fórmulas de cada
    carpeta."""
    base = _desde_el_disco(construido)
    revisadas = _una_de_cada_clase(_paginas_html(construido))
    primeras = {}
    for relativa in revisadas:
        if _con_formulas(construido, relativa):
            primeras.setdefault(str(pathlib.PurePosixPath(relativa).parent), relativa)
    assert {".", "notebooks", "notebooks/soluciones"} <= set(primeras), primeras
    componer = set(primeras.values())
    raiz, sustituidas = urllib.parse.unquote(urllib.parse.urlsplit(base).path), []

    def mathjax(ruta):
        """En las páginas que no componen, MathJax.js se sirve como un sustituto diminuto si el archivo que pide la
        página existe (así no compone en segundo plano mientras se revisa la página siguiente); si no existe, la
        petición sigue y falla, y la revisión dice que MathJax no cargó."""
        pagina = urllib.parse.urlsplit(ruta.request.frame.url)
        relativa = urllib.parse.unquote(pagina.path).removeprefix(raiz)
        archivo = pathlib.Path(urllib.parse.unquote(urllib.parse.urlsplit(ruta.request.url).path))
        if relativa in componer or not archivo.is_file():
            ruta.fallback()
        else:
            sustituidas.append(relativa)
            ruta.fulfill(status=200, content_type="application/javascript",
                         body="window.MathJax = {Hub: {}};  // sustituto: ver test_sitio.py")

    with _pestana(navegador, base) as pestana:
        pestana.context.route(re.compile(r".*/_static/mathjax/MathJax\.js(\?.*)?$"), mathjax)  # antes que el filtro
        _revisar_todo(pestana, construido, base, componer=componer, solo=set(revisadas))
    con_formulas = [r for r in revisadas if _con_formulas(construido, r)]
    assert sorted(set(sustituidas)) == sorted(set(con_formulas) - componer), "¿qué páginas pidieron MathJax?"


@pytest.mark.lento
def test_la_revision_ve_lo_que_esta_roto(construido, navegador, tmp_path):
    """La revisión de cada página falla con una figura que falta, un ancla que no existe y una fórmula con un error
    de TeX (MathJax no debe esconderlo): si no, las pruebas de arriba no demostrarían nada."""
    copia = tmp_path / "sitio"
    shutil.copytree(construido, copia)
    relativa = "notebooks/02_atencion_a_mano.html"
    html = (copia / relativa).read_text(encoding="utf-8")
    figura = re.search(r'<img [^>]*src="(\.\./_images/[^"]+\.png)"', html).group(1)
    (copia / relativa).parent.joinpath(figura).unlink()
    roto = ('<p><a href="01_a_quien_mira_cada_palabra.html#no-existe">roto</a> '
            '<span class="math notranslate nohighlight">\\(\\frac{1}{\\sinDefinir x}\\)</span></p>')
    (copia / relativa).write_text(html.replace("</main>", roto + "</main>", 1), encoding="utf-8")
    base = _desde_el_disco(copia)
    with _pestana(navegador, base) as pestana:
        problemas, _ = _revisar_pagina(pestana, copia, base, relativa)
    texto = "\n".join(problemas)
    assert "imagen que no carga" in texto and figura.rsplit("/", 1)[1] in texto, texto
    assert "no tiene el ancla «no-existe»" in texto, texto
    assert re.search(r"MathJax dibujó \d+ de \d+ fórmulas \([1-9]\d* errores\)", texto), texto
    assert len(problemas) == 3, texto
    # Sin componer (las páginas desde el disco que no son las primeras de su carpeta): un MathJax que no carga se ve.
    otra = "notebooks/04_atencion_multicabeza.html"
    html = (copia / otra).read_text(encoding="utf-8")
    assert 'src="../_static/mathjax/MathJax.js' in html
    (copia / otra).write_text(html.replace('src="../_static/mathjax/MathJax.js', 'src="../_static/mathjax/Falta.js'),
                              encoding="utf-8")
    with _pestana(navegador, base) as pestana:
        problemas, _ = _revisar_pagina(pestana, copia, base, otra, componer=False)
    assert len(problemas) == 1 and "fórmulas y MathJax no cargó" in problemas[0], problemas


@pytest.mark.lento
def test_los_widgets_muestran_su_texto(construido, servidor, pagina):
    """Cada salida de widget guardada muestra en el sitio su texto alternativo (la línea en castellano)."""
    comprobados = 0
    for ruta in RUTAS_CUADERNOS:
        cuaderno = json.loads((RAIZ / ruta).read_text(encoding="utf-8"))
        textos = ["".join(salida["data"]["text/plain"]) for celda in cuaderno["cells"]
                  if celda["cell_type"] == "code" for salida in celda.get("outputs", [])
                  if WIDGET in salida.get("data", {})]
        if not textos:
            continue
        visible = _leer(pagina, servidor, str(pathlib.PurePosixPath(ruta).with_suffix(".html")))["texto"]
        for texto in textos:
            assert texto.strip() and texto.strip().splitlines()[0] in visible, f"{ruta}: no se ve «{texto[:80]}»"
            comprobados += 1
    assert comprobados, "ninguna lección guarda widgets: la prueba no comprobaría nada"
    assert not pagina.fuera


@pytest.mark.lento
@pytest.mark.parametrize("ruta", RUTAS_CUADERNOS, ids=[pathlib.Path(r).stem for r in RUTAS_CUADERNOS])
def test_botones_y_navegacion_de_cada_cuaderno(construido, servidor, pagina, ruta):
    vista = _leer(pagina, servidor, str(pathlib.PurePosixPath(ruta).with_suffix(".html")))
    enlaces = vista["enlaces"]
    colab = enlace_colab(ruta)
    assert colab in enlaces, f"{ruta}: falta el botón de Colab ({colab}), la dirección de la insignia"
    base = REPOSITORIO.removeprefix("https://github.com/")
    binder = f"https://mybinder.org/v2/gh/{base}/{REFERENCIA}?urlpath=lab/tree/{ruta}"
    assert binder in enlaces, f"{ruta}: falta el botón de Binder ({binder})"
    descarga = servidor + "_sources/" + ruta
    assert descarga in enlaces, f"{ruta}: falta el botón para descargar el .ipynb"
    assert (construido / "_sources" / ruta).read_bytes() == (RAIZ / ruta).read_bytes(), (
        f"{ruta}: el .ipynb que se descarga no es el del repositorio")
    # «Anterior» y «siguiente» siguen el orden del curso: portada, lecciones, soluciones, referencia.
    orden = ["index"] + [str(pathlib.PurePosixPath(r).with_suffix("")) for r in RUTAS_CUADERNOS] + [
        str(pathlib.PurePosixPath(r).with_suffix("")) for r in sitio.TEXTOS]
    posicion = orden.index(str(pathlib.PurePosixPath(ruta).with_suffix("")))
    anterior, siguiente = vista["anterior"], vista["siguiente"]
    assert anterior == servidor + orden[posicion - 1] + ".html", f"{ruta}: «anterior» lleva a {anterior}"
    assert siguiente == servidor + orden[posicion + 1] + ".html", f"{ruta}: «siguiente» lleva a {siguiente}"
    assert not pagina.fuera


@pytest.mark.lento
@pytest.mark.parametrize("como", ["servido", "desde el disco"])
def test_la_busqueda_funciona_sin_red(construido, servidor, navegador, como):
    base = servidor if como == "servido" else _desde_el_disco(construido)
    with _pestana(navegador, base) as pestana:
        pestana.goto(base + "search.html?q=" + urllib.parse.quote("máscara causal"), wait_until="load")
        pestana.wait_for_function("() => document.querySelectorAll('#search-results li').length > 0",
                                  timeout=TIEMPO_PLAYWRIGHT)
        resultados = pestana.evaluate(
            "() => [...document.querySelectorAll('#search-results li a')].map(a => a.getAttribute('href'))")
        assert any("05_mascaras" in r for r in resultados), f"«máscara causal» no encuentra la lección 05: {resultados}"
        assert not pestana.fuera
