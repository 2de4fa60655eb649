"""Diapositivas estáticas que se abren sin red (herramientas/diapositivas.py, escribir_html, y
herramientas/bibliotecas_diapositivas.py).

Sin red: las ruedas de reveal.js y MathJax se sustituyen por ruedas diminutas hechas aquí con zipfile (misma
estructura, otra huella). La prueba en el navegador usa una lección de verdad con las bibliotecas de verdad ya
extraídas por `python3 tareas.py diapositivas` en resultados/diapositivas/bibliotecas/ (las copia a una carpeta
temporal); si no están, se salta y lo dice (en CI, donde hay red, las baja). Todo plazo está acotado."""

import concurrent.futures
import dataclasses
import html.parser
import os
import pathlib
import re
import struct
import subprocess
import time
import zipfile
import zlib

import nbformat
import pytest

from herramientas import bibliotecas_diapositivas as bibliotecas
from herramientas import diapositivas
from herramientas.cuadernos import RAIZ, cuadernos, fuente, leer_cuaderno
from herramientas.navegador import OPCIONES_CHROMIUM, ruta_chromium

LECCION = RAIZ / "notebooks" / "02_atencion_a_mano.ipynb"  # con fórmulas, figuras y notas de quien presenta
PLAZO_MS = 20_000  # cada espera de playwright
PLAZO_ESCRIBIR = 600  # segundos para tener escritas las diapositivas de una lección (se escriben en otro hilo)
EN_CI = os.environ.get("CI", "").lower() == "true"

# Lo que llevan las ruedas falsas, bajo el prefijo de cada una (lo que no está en `incluir` no debe extraerse).
ARCHIVOS_FALSOS = {
    "reveal.js": {"LICENSE": "MIT", "dist/reveal.js": "window.Reveal = {};", "dist/reveal.css": ".reveal {}",
                  "dist/reset.css": "", "dist/reveal.esm.js": "export default {};",
                  "dist/theme/simple.css": "@import url(https://fonts.googleapis.com/css?family=Lato);\n"
                                           "@import url(./fonts/propia.css);\n.reveal { color: #222; }",
                  "plugin/notes/notes.js": "window.RevealNotes = {};", "plugin/math/math.js": ""},
    "mathjax": {"MathJax.js": "window.MathJax = {};", "config/TeX-AMS-MML_HTMLorMML-full.js": ""},
}


def _png_diminuto():
    """Un PNG válido de 1 × 1 píxel (la salida de una figura guardada)."""
    def trozo(tipo, datos):
        return struct.pack(">I", len(datos)) + tipo + datos + struct.pack(">I", zlib.crc32(tipo + datos))
    cabecera = struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + trozo(b"IHDR", cabecera) + trozo(b"IDAT", zlib.compress(b"\x00\x80"))
            + trozo(b"IEND", b""))


@pytest.fixture
def ruedas_falsas(tmp_path):
    """(ruedas, bajar, llamadas): las de RUEDAS con ruedas diminutas hechas aquí y su huella; `bajar` las copia como
    lo haría pip y apunta cada llamada en `llamadas`."""
    almacen = tmp_path / "ruedas"
    almacen.mkdir()
    ruedas = {}
    for nombre, rueda in bibliotecas.RUEDAS.items():
        ruta = almacen / rueda.archivo()
        with zipfile.ZipFile(ruta, "w") as rueda_zip:
            for relativo, texto in ARCHIVOS_FALSOS[nombre].items():
                rueda_zip.writestr(rueda.prefijo + relativo, texto)
            rueda_zip.writestr(f"{rueda.paquete.replace('-', '_')}/__init__.py", "")
        ruedas[nombre] = dataclasses.replace(rueda, sha256=bibliotecas.huella(ruta))
    llamadas = []

    def bajar(rueda, carpeta):
        llamadas.append(rueda.paquete)
        destino = pathlib.Path(carpeta) / rueda.archivo()
        destino.write_bytes((almacen / rueda.archivo()).read_bytes())
        return destino

    return ruedas, bajar, llamadas


def _cuaderno_de_prueba(ruta):
    """Título con fórmula, una nota de quien presenta, una figura con código largo y un fragmento."""
    celdas = [
        nbformat.v4.new_markdown_cell("# 99 · Prueba\n\nUna fórmula: $\\sqrt{d}$."),
        nbformat.v4.new_markdown_cell("## Una sección"),
        nbformat.v4.new_markdown_cell("Recordad decir esto en voz alta.", metadata={"tags": ["notas"]}),
        nbformat.v4.new_code_cell(
            "import matplotlib\nlinea_oculta_del_dibujo = 1\nx = 2\ny = 3\nplt.show()",
            outputs=[nbformat.v4.new_output("display_data", data={
                "image/png": __import__("base64").b64encode(_png_diminuto()).decode(), "text/plain": "<Figure>"})]),
        nbformat.v4.new_markdown_cell("Esto aparece al pulsar.", metadata={"tags": ["fragmento"]}),
        nbformat.v4.new_code_cell("print('salida corta')", outputs=[
            nbformat.v4.new_output("stream", name="stdout", text="salida corta\n")]),
    ]
    cuaderno = nbformat.v4.new_notebook(cells=celdas, metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}})
    nbformat.write(cuaderno, ruta)
    return ruta


class _Recursos(html.parser.HTMLParser):
    """Las direcciones que el HTML carga (src de <script>, <img>…, href de <link>) y el texto que queda dentro de
    cada <div class="fragment"> y de cada <aside class="notes">."""

    def __init__(self):
        super().__init__()
        self.direcciones, self.fragmentos, self.notas = [], [], []
        self._abiertas = []  # pila de (etiqueta, lista donde va su texto o None)

    def handle_starttag(self, etiqueta, atributos):
        atributos = dict(atributos)
        if etiqueta in ("script", "img", "iframe") and atributos.get("src"):
            self.direcciones.append((etiqueta, atributos["src"]))
        if etiqueta == "link" and atributos.get("href"):
            self.direcciones.append((etiqueta, atributos["href"]))
        if etiqueta in ("img", "link", "meta", "br", "hr", "input"):
            return  # sin cierre
        clases = (atributos.get("class") or "").split()
        destino = None
        if etiqueta == "div" and "fragment" in clases:
            self.fragmentos.append("")
            destino = self.fragmentos
        elif etiqueta == "aside" and "notes" in clases:
            self.notas.append("")
            destino = self.notas
        self._abiertas.append((etiqueta, destino))

    def handle_endtag(self, etiqueta):
        while self._abiertas:
            if self._abiertas.pop()[0] == etiqueta:
                break

    def handle_data(self, datos):
        for _, destino in self._abiertas:
            if destino is not None:
                destino[-1] += datos


def test_el_html_solo_carga_archivos_locales(tmp_path, ruedas_falsas):
    ruedas, bajar, llamadas = ruedas_falsas
    carpeta = tmp_path / "diapositivas"
    rutas = bibliotecas.asegurar(carpeta / "bibliotecas", ruedas=ruedas, bajar=bajar)
    assert sorted(llamadas) == ["jupyter-server-mathjax", "sphinx-revealjs"]
    # Solo lo necesario: ni el módulo ESM de reveal ni el complemento de fórmulas (usamos MathJax aparte).
    assert (rutas["reveal.js"] / "plugin" / "notes" / "notes.js").is_file()
    assert not (rutas["reveal.js"] / "dist" / "reveal.esm.js").exists()
    assert not (rutas["reveal.js"] / "plugin" / "math").exists()
    tema = (rutas["reveal.js"] / "dist" / "theme" / "simple.css").read_text(encoding="utf-8")
    assert "googleapis" not in tema and "./fonts/propia.css" in tema  # las letras de internet, fuera
    # Lo ya extraído de la misma rueda se reutiliza: no se baja otra vez.
    assert bibliotecas.asegurar(carpeta / "bibliotecas", ruedas=ruedas, bajar=bajar) == rutas
    assert len(llamadas) == 2

    destino = diapositivas.escribir_html(_cuaderno_de_prueba(tmp_path / "99_prueba.ipynb"), carpeta=carpeta,
                                         bibliotecas=rutas)
    texto = destino.read_text(encoding="utf-8")
    lector = _Recursos()
    lector.feed(texto)
    cargas = [d for e, d in lector.direcciones if not d.startswith("data:")]
    assert {"bibliotecas/reveal.js-5.2.0/dist/reveal.js", "bibliotecas/reveal.js-5.2.0/plugin/notes/notes.js",
            "bibliotecas/reveal.js-5.2.0/dist/theme/simple.css"} <= set(cargas), cargas
    for direccion in cargas:
        assert not re.match(r"(https?:)?//", direccion), f"se carga de internet: {direccion}"
        assert (destino.parent / direccion.split("?")[0]).is_file(), f"falta el archivo local {direccion}"
    assert not re.search(r"require\.js|jquery", " ".join(cargas), re.I)
    # La configuración de reveal es la de RISE (1280 × 720, sin transiciones).
    assert re.search(r'"width": 1280, "height": 720, "theme": "simple", "transition": "none"', texto)
    # La figura con código largo: en la diapositiva, la figura sin su código.
    assert "linea_oculta_del_dibujo" not in texto
    assert len(re.findall(r'<img[^>]*src="data:image/png;base64,', texto)) == 1
    # El código corto sí se ve, coloreado (pygments, dentro del HTML: sin biblioteca de fuera).
    assert '<span class="nb">print</span><span class="p">(</span>' in texto and ".highlight .k {" in texto
    assert len(lector.notas) == 1 and "Recordad decir esto en voz alta." in lector.notas[0], lector.notas
    assert texto.count("Recordad decir") == 1, "la nota sale también fuera de las notas"
    assert len(lector.fragmentos) == 1 and "Esto aparece al pulsar." in lector.fragmentos[0], lector.fragmentos


def test_una_rueda_con_otra_huella_se_rechaza_y_no_borra_nada(tmp_path, ruedas_falsas):
    ruedas, bajar, _ = ruedas_falsas
    carpeta = tmp_path / "bibliotecas"
    anterior = carpeta / ruedas["reveal.js"].carpeta / "dist" / "reveal.js"  # lo de una versión anterior
    anterior.parent.mkdir(parents=True)
    anterior.write_text("lo de antes", encoding="utf-8")
    otra = {"reveal.js": dataclasses.replace(ruedas["reveal.js"], sha256="0" * 64)}
    with pytest.raises(bibliotecas.SinBibliotecas, match=r"no es la esperada: su huella sha256 es [0-9a-f]{64} y "
                                                         r"debía ser 0{64} \(sphinx-revealjs==3\.2\.1\)\. No se usa"):
        bibliotecas.asegurar(carpeta, ruedas=otra, bajar=bajar)
    assert anterior.read_text(encoding="utf-8") == "lo de antes"
    assert sorted(p.name for p in carpeta.iterdir()) == [ruedas["reveal.js"].carpeta]  # ni restos a medias


def test_sin_conexion_lo_explica_en_castellano_y_no_borra_nada(tmp_path, monkeypatch, capsys):
    """pip no puede bajar la rueda (sin red): la orden dice qué hacer, sale con 1 y deja lo que había."""
    carpeta = tmp_path / "diapositivas"
    vieja = carpeta / "02_atencion_a_mano.slides.html"
    vieja.parent.mkdir()
    vieja.write_text("las de ayer", encoding="utf-8")
    monkeypatch.setattr(diapositivas, "CARPETA", carpeta)
    ordenes = []

    def pip_sin_red(orden, **_):
        ordenes.append(orden)
        return subprocess.CompletedProcess(orden, 1, "", "ERROR: Could not find a version that satisfies …")

    monkeypatch.setattr(bibliotecas.subprocess, "run", pip_sin_red)
    cuaderno = _cuaderno_de_prueba(tmp_path / "99_prueba.ipynb")
    assert diapositivas.main(["html", str(cuaderno)]) == 1
    error = capsys.readouterr().err
    assert "No se escribieron las diapositivas: No se pudo bajar sphinx-revealjs==3.2.1 con pip" in error
    assert "Conéctate a internet y vuelve a ejecutar `python3 tareas.py diapositivas`" in error
    assert "--no-deps" in ordenes[0] and "sphinx-revealjs==3.2.1" in ordenes[0]
    assert vieja.read_text(encoding="utf-8") == "las de ayer"
    assert not (carpeta / "99_prueba.slides.html").exists()
    assert not any((carpeta / "bibliotecas").glob("*")), "sin restos a medias"


# --- en un navegador de verdad ---------------------------------------------------------------------------------


def _bibliotecas_reales(carpeta):
    """Las bibliotecas de verdad en `carpeta`, copiadas de resultados/diapositivas/bibliotecas; si aún no están allí,
    se bajan antes allí, una sola vez, como lo hace `python3 tareas.py diapositivas`. Sin conexión, la prueba se salta
    (y en la integración continua falla)."""
    hechas = diapositivas.CARPETA / "bibliotecas"
    try:
        bibliotecas.asegurar(hechas)
    except bibliotecas.SinBibliotecas as error:
        if EN_CI:
            raise
        pytest.skip(f"no se pudieron bajar reveal.js y MathJax: {error}")
    return bibliotecas.asegurar(carpeta, copiar_de=hechas)


def _espacio_y_notas(contexto, pagina, carpeta, total):
    """Con la lección ya abierta en `pagina`: desde la portada, Espacio recorre todas sus diapositivas (fragmentos
    incluidos) hasta el final, y la tecla s abre la ventana de notas de quien presenta con su texto y sus fórmulas en
    TeX. Devuelve (fórmulas compuestas en la página, mal compuestas)."""
    pagina.evaluate("Reveal.slide(0, 0)")
    pagina.wait_for_function("window.MathJax && MathJax.Hub && MathJax.Hub.queue.pending === 0 "
                             "&& document.querySelectorAll('.MathJax').length > 0")
    formulas = pagina.evaluate("document.querySelectorAll('.MathJax').length")
    mal_compuestas = pagina.evaluate("document.querySelectorAll('.MathJax merror, .MathJax_Error').length"
                                     " + document.body.textContent.split('Math Processing Error').length - 1")
    vistas = {pagina.evaluate("JSON.stringify([Reveal.getIndices().h, Reveal.getIndices().v])")}
    for _ in range(3 * total):
        pagina.keyboard.press("Space")
        vistas.add(pagina.evaluate("JSON.stringify([Reveal.getIndices().h, Reveal.getIndices().v])"))
        if pagina.evaluate("Reveal.isLastSlide() && !Reveal.availableFragments().next"):
            break
    assert len(vistas) == total, f"con Espacio se recorrieron {len(vistas)} de {total} diapositivas"
    # Las notas de quien presenta: a la primera diapositiva que tiene, y la tecla s.
    nota = pagina.evaluate("""() => {
        const todas = Array.from(document.querySelectorAll('aside.notes'));  // mejor una con fórmulas
        const aparte = todas.find(a => a.querySelector('.MathJax') || a.textContent.includes('$')) || todas[0];
        if (!aparte) {
            return null;
        }
        const indices = Reveal.getIndices(aparte.closest('section'));
        Reveal.slide(indices.h, indices.v);
        const formula = aparte.textContent.match(/\\$[^$]+\\$/);
        return [aparte.textContent.trim().split('\\n')[0].slice(0, 40), formula && formula[0]];
    }""") or [None, None]
    nota, formula = nota
    assert nota, f"{LECCION.name} no tiene notas de quien presenta (celdas con la etiqueta notas)"
    with contexto.expect_page() as ventana:
        pagina.keyboard.press("s")
    notas = ventana.value
    notas.wait_for_function("texto => { const n = document.querySelector('.speaker-controls-notes');"
                            " return n && n.innerText.includes(texto); }", arg=nota)
    # Las fórmulas de las notas salen en TeX (la ventana de notas no tiene MathJax), ni descompuestas ni como un error.
    texto_de_notas = notas.inner_text(".speaker-controls-notes")
    assert "Math Processing Error" not in texto_de_notas
    assert formula and formula in texto_de_notas, f"sin la fórmula {formula} en TeX: {texto_de_notas[:300]}"
    pagina.screenshot(path=str(carpeta / "diapositiva.png"))
    notas.close()
    return formulas, mal_compuestas


# --- cada lección, diapositiva a diapositiva ----------------------------------------------------------------------

# Recorre todas las diapositivas (Reveal.slide) y mide cada una cuando la plantilla la ha ajustado (data-ajustada,
# con MathJax ya terminado y sus figuras encajadas). Devuelve una fila por diapositiva.
RECORRER = """async plazo => {
    const espera = ms => new Promise(listo => setTimeout(listo, ms));
    const alto = Reveal.getConfig().height;
    const limpio = nodo => {  // el texto que se ve de un bloque de markdown, sin fórmulas compuestas ni código
        const copia = nodo.cloneNode(true);
        copia.querySelectorAll('script, code, pre, .MathJax, .MathJax_Display, .MathJax_Preview, .MathJax_SVG,'
                               + ' aside.notes').forEach(n => n.remove());
        return copia.textContent;
    };
    const recorrido = async () => {
        const filas = [];
        for (const seccion of Reveal.getSlides()) {
            const i = Reveal.getIndices(seccion);
            Reveal.slide(i.h, i.v || 0);
            for (let t = 0; seccion.dataset.ajustada !== 'si'; t += 20) {
                if (t > 10000) throw new Error(`la diapositiva ${i.h}.${i.v || 0} no se ajustó en 10 s`);
                await espera(20);
            }
            await new Promise(listo => MathJax.Hub.Queue(listo));  // lo que MathJax tuviera pendiente
            const visibles = [...seccion.querySelectorAll('.MathJax, .MathJax_Display')]
                .filter(f => !f.closest('aside.notes'));
            const markdown = [...seccion.querySelectorAll('.jp-MarkdownOutput')].filter(m => !m.closest('aside'));
            const crudo = markdown.map(limpio).join(' ').match(/\\$[^$]+\\$|\\\\\\(|\\\\\\[/);
            const titulo = seccion.querySelector('.jp-MarkdownOutput h2');
            const notas = [...seccion.querySelectorAll('aside.notes')].map(n => n.textContent.trim()).join(' ');
            const figuras = [...seccion.querySelectorAll('.jp-OutputArea-output img')];
            const codigo = seccion.querySelector('.jp-InputArea pre');
            // Con desplazamiento: se baja hasta el final y se mira que lo último que hay se vea en el marco.
            let alcanza = true;
            if (seccion.scrollHeight > alto) {
                seccion.scrollTop = seccion.scrollHeight;
                const marco = seccion.getBoundingClientRect();
                const celdas = seccion.querySelectorAll(':scope > .jp-Cell, :scope > .fragment');
                const ultima = celdas[celdas.length - 1];
                alcanza = seccion.clientHeight <= alto && getComputedStyle(seccion).overflowY === 'auto'
                    && (!ultima || ultima.getBoundingClientRect().bottom <= marco.bottom + 2);
                seccion.scrollTop = 0;
            }
            filas.push({
                indice: `${i.h}.${i.v || 0}`,
                alto: seccion.scrollHeight,
                alcanza,
                codigo: codigo ? codigo.textContent.split('\\n').length : 0,
                figuras: figuras.length,
                figuras_rotas: figuras.filter(f => !f.complete || f.naturalWidth === 0).length,
                figuras_sin_reducir: figuras.filter(f => !f.style.maxHeight).length,
                formulas: visibles.length,
                formulas_vacias: visibles.filter(f => f.getBoundingClientRect().width === 0).length,
                errores_tex: seccion.querySelectorAll('.MathJax_Error, merror').length,
                tex_crudo: crudo && crudo[0],
                seccion: titulo && titulo.textContent.replace('¶', '').trim(),
                notas: notas.length,
                inicio: (seccion.textContent.trim().split('\\n')[0] || '').slice(0, 50),
            });
        }
        return filas;
    };
    return Promise.race([recorrido(), espera(plazo).then(() => { throw new Error(`sin terminar en ${plazo} ms`); })]);
}"""


@pytest.fixture(scope="module")
def navegador_sin_red(tmp_path_factory):
    """(contexto de Chromium a 1280 × 720 con toda petición a la red cortada, lista de las cortadas, carpeta con las
    bibliotecas de verdad donde escribir las diapositivas)."""
    chromium = ruta_chromium()
    sync_api = pytest.importorskip("playwright.sync_api", reason="falta playwright (herramientas de pruebas)")
    if not chromium:
        if EN_CI:
            pytest.fail("En CI no se puede saltar: no hay Chromium.")
        pytest.skip("no hay Chromium (`python3 tareas.py pruebas` lo instala en Debian/Ubuntu como root).")
    carpeta = tmp_path_factory.mktemp("diapositivas")
    rutas = _bibliotecas_reales(carpeta / "bibliotecas")
    a_la_red = []

    def filtrar(ruta):
        if ruta.request.url.startswith(("file:", "data:", "about:", "blob:")):
            ruta.continue_()
        else:
            a_la_red.append(ruta.request.url)
            ruta.abort()

    with sync_api.sync_playwright() as playwright:
        navegador = playwright.chromium.launch(executable_path=chromium, args=OPCIONES_CHROMIUM, timeout=PLAZO_MS)
        try:
            contexto = navegador.new_context(viewport={"width": 1280, "height": 720})
            contexto.set_default_timeout(PLAZO_MS)
            contexto.route("**/*", filtrar)
            yield contexto, a_la_red, carpeta, rutas
        finally:
            navegador.close()


@pytest.fixture(scope="module")
def escritas(navegador_sin_red):
    """{lección: futuro de su HTML}: las diapositivas de cada lección se escriben en un hilo aparte, en orden, mientras
    el navegador recorre las anteriores (escribirlas es Python y recorrerlas, Chromium: cada uno en su núcleo)."""
    _, _, carpeta, rutas = navegador_sin_red
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as hilo:
        futuros = {leccion: hilo.submit(diapositivas.escribir_html, leccion, carpeta=carpeta, bibliotecas=rutas)
                   for leccion in cuadernos(incluir_soluciones=False)}  # en el orden de las pruebas
        yield futuros
        for futuro in futuros.values():
            futuro.cancel()


def _tipo_de_desborde(fila):
    if fila["figuras"]:
        return "figura"
    return "código" if fila["codigo"] else "texto"


@pytest.mark.lento
@pytest.mark.parametrize("leccion", cuadernos(incluir_soluciones=False), ids=lambda ruta: ruta.stem[:2])
def test_cada_leccion_se_presenta_entera_sin_red(leccion, navegador_sin_red, escritas):
    """Las diapositivas estáticas de la lección desde file:// y sin red, a 1280 × 720: reveal.js arranca, cada
    fórmula está compuesta (ningún $…$ a la vista, ninguna vacía ni con error), cada figura carga, cada sección lleva
    sus notas de quien presenta en su diapositiva, y ninguna diapositiva se corta: lo que no cabe se desplaza (la
    configuración «scroll» del curso) y sus figuras ya se han reducido. Las que no caben se cuentan y se imprimen
    (`-s`): son trabajo de la lección (partir la celda), no de la plantilla. La 02 (LECCION, con fórmulas, figuras y
    notas), además, se recorre con Espacio de la portada al final y la tecla s abre sus notas."""
    contexto, a_la_red, carpeta, rutas = navegador_sin_red
    inicio, errores = time.monotonic(), []
    del a_la_red[:]
    destino = escritas[leccion].result(timeout=PLAZO_ESCRIBIR)
    marcado = leer_cuaderno(leccion)
    diapositivas.marcar(marcado)
    esperadas = len(diapositivas.diapositivas_de(marcado))
    con_formulas = any("$" in fuente(c) for grupo in diapositivas.diapositivas_de(marcado) for c in grupo
                       if c["cell_type"] == "markdown")
    pagina = contexto.new_page()
    pagina.on("pageerror", lambda error: errores.append(str(error)))
    try:
        pagina.goto(destino.as_uri())
        pagina.wait_for_function("window.Reveal && Reveal.isReady()")
        pagina.wait_for_function("window.MathJax && MathJax.isReady && MathJax.Hub.queue.pending === 0")
        filas = pagina.evaluate(RECORRER, 120_000)
        if leccion == LECCION:  # la 02, además, como la recorre quien presenta: Espacio y la ventana de notas
            formulas, mal_compuestas = _espacio_y_notas(contexto, pagina, carpeta, esperadas)
            assert formulas > 20 and mal_compuestas == 0, (formulas, mal_compuestas)
    except Exception:
        pagina.screenshot(path=str(carpeta / f"{leccion.stem}_fallo.png"))
        raise
    finally:
        pagina.close()
    nombre = leccion.stem[:2]
    assert not a_la_red, f"{nombre}: peticiones a la red: {a_la_red[:5]}"
    assert not errores, f"{nombre}: errores de JavaScript: {errores[:5]}"
    assert len(filas) == esperadas, f"{nombre}: reveal muestra {len(filas)} diapositivas; las reglas marcan {esperadas}"

    def donde(clave):
        return [(f["indice"], f[clave], f["inicio"]) for f in filas if f[clave]]

    alto = diapositivas.AJUSTES_RISE["height"]
    desbordan = [f for f in filas if f["alto"] > alto]
    sin_notas = [f["seccion"] for f in filas
                 if f["seccion"] and f["seccion"].rstrip(".").lower() not in diapositivas.SECCIONES_SIN_NOTAS
                 and not f["notas"]]
    problemas = {  # todo lo que falla, de una vez
        "TeX sin componer": donde("tex_crudo"),
        "fórmulas con error": donde("errores_tex"),
        "fórmulas de ancho cero": donde("formulas_vacias"),
        "tiene $…$ y ninguna fórmula compuesta": con_formulas and not sum(f["formulas"] for f in filas),
        "figuras que no cargan": donde("figuras_rotas"),
        "ninguna figura": not sum(f["figuras"] for f in filas),
        "secciones sin notas de quien presenta en su diapositiva": sin_notas,
        "no caben y no se desplazan hasta el final": [(f["indice"], f["alto"], f["inicio"]) for f in desbordan
                                                      if not f["alcanza"]],
        "no caben y sus figuras no se redujeron": [(f["indice"], f["alto"]) for f in desbordan
                                                   if f["figuras_sin_reducir"]],
    }
    tipos = {t: sum(_tipo_de_desborde(f) == t for f in desbordan) for t in ("código", "texto", "figura")}
    print(f"\n{nombre}: {len(filas)} diapositivas, fórmulas: {sum(f['formulas'] for f in filas)}, "
          f"figuras: {sum(f['figuras'] for f in filas)}; no caben en {alto} px (se desplazan): {len(desbordan)} "
          f"({', '.join(f'{t} {n}' for t, n in tipos.items())}) {time.monotonic() - inicio:.1f} s")
    for f in desbordan:
        print(f"  {f['indice']:>6} {f['alto']:>5} px  {_tipo_de_desborde(f):6}  {f['inicio']}")
    fallos = [f"{nombre}: {que}: {cuales}" for que, cuales in problemas.items() if cuales]
    assert not fallos, "\n".join(fallos)
