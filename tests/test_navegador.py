"""Cada lección en un navegador de verdad: JupyterLab en 127.0.0.1 y Chromium sin cabeza (playwright).

Para cada cuaderno notebooks/NN_*.ipynb (copiado a una carpeta temporal: nunca se tocan los del repositorio)
se ejecutan todas las celdas desde JupyterLab y la prueba falla si alguna salida es un error o texto de error
(stderr), o si un widget no se muestra. En la lección 01 actúa como un estudiante con la actividad.
La lección 01 se prueba además en la interfaz de Notebook 7, que sirve el mismo servidor en /notebooks/<ruta>
(paquete `notebook`); sus capturas llevan el prefijo nb7_.
Las capturas quedan en resultados/navegador/ (ignorada por git).
"""

import json
import os
import pathlib
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import pytest

from herramientas.celdas import RAIZ
from herramientas.navegador import OPCIONES_CHROMIUM, ruta_chromium

CAPTURAS = RAIZ / "resultados" / "navegador"
LECCIONES = sorted((RAIZ / "notebooks").glob("[0-9][0-9]_*.ipynb"))
TIEMPO_POR_CUADERNO = 900  # segundos para ejecutar todas las celdas de una lección
WIDGET = "application/vnd.jupyter.widget-view+json"

# Interfaces que sirve el mismo servidor: dirección de un cuaderno y prefijo de sus capturas.
INTERFACES = {
    "lab": {"nombre": "JupyterLab", "app": "JupyterLab", "ruta": "lab/tree/notebooks/", "prefijo": ""},
    "nb7": {"nombre": "Notebook 7", "app": "Jupyter Notebook", "ruta": "notebooks/notebooks/", "prefijo": "nb7_"},
}
# Errores que la propia interfaz de Notebook 7.6 lanza al cargar, sin que el curso intervenga: el primero en
# cualquier página (también /tree con `jupyter notebook` a secas), el segundo si antes se abrió JupyterLab en el
# mismo servidor. Se toleran solo con ese texto y si vienen del código de Notebook (/static/notebook/).
RUIDO_NB7 = ("Cannot read properties of undefined (reading 'schema')",
             "Command 'filebrowser:open-path' not registered.")
# Todas las lecciones en JupyterLab; la 01 (la de la actividad) también en Notebook 7.
CASOS = [pytest.param(leccion, "lab", id=f"lab-{leccion.stem}") for leccion in LECCIONES] + [
    pytest.param(leccion, "nb7", id=f"nb7-{leccion.stem}") for leccion in LECCIONES if leccion.name.startswith("01_")]

CHROMIUM = ruta_chromium()
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="No hay Chromium (`python3 tareas.py pruebas` lo instala en Debian/Ubuntu como root).")


def _puerto_libre():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _ajustes(carpeta):
    """Ajustes de JupyterLab para la prueba: sin noticias ni avisos, y todas las celdas en el DOM."""
    ajustes = {
        "@jupyterlab/apputils-extension/notification.jupyterlab-settings":
            {"fetchNews": "false", "checkForUpdates": False},
        "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
    }
    for nombre, contenido in ajustes.items():
        ruta = carpeta / nombre
        ruta.parent.mkdir(parents=True, exist_ok=True)
        ruta.write_text(json.dumps(contenido), encoding="utf-8")


@pytest.fixture(scope="module")
def jupyterlab():
    """Arranca JupyterLab (sin token, configuración temporal) sobre copias de las lecciones; devuelve su URL.

    El mismo servidor sirve también la interfaz de Notebook 7 (/notebooks/<ruta>) si el paquete notebook está.
    """
    temporal = pathlib.Path(tempfile.mkdtemp(prefix="navegador-"))
    trabajo = temporal / "curso"
    (trabajo / "notebooks").mkdir(parents=True)
    for leccion in LECCIONES:
        shutil.copy2(leccion, trabajo / "notebooks" / leccion.name)
    if (RAIZ / "datos").exists():
        shutil.copytree(RAIZ / "datos", trabajo / "datos")
    _ajustes(temporal / "ajustes")
    entorno = dict(os.environ)
    entorno.update({
        "JUPYTER_CONFIG_DIR": str(temporal / "config"),
        "JUPYTER_RUNTIME_DIR": str(temporal / "runtime"),
        "JUPYTERLAB_SETTINGS_DIR": str(temporal / "ajustes"),
        "JUPYTERLAB_WORKSPACES_DIR": str(temporal / "espacios"),
        "PYTHONPATH": str(RAIZ) + os.pathsep + entorno.get("PYTHONPATH", ""),
    })
    puerto = _puerto_libre()
    orden = [
        sys.executable, "-m", "jupyter", "lab", "--no-browser", f"--ServerApp.port={puerto}",
        "--ServerApp.ip=127.0.0.1", "--IdentityProvider.token=", "--ServerApp.password=",
        f"--ServerApp.root_dir={trabajo}", "--LabApp.expose_app_in_browser=True",
        "--JupyterNotebookApp.expose_app_in_browser=True",
        "--ServerApp.port_retries=0", "--LabApp.news_url=",
    ]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        orden.append("--allow-root")  # en contenedores de CI se suele ser root
    registro = open(temporal / "jupyterlab.log", "w")
    proceso = subprocess.Popen(orden, env=entorno, stdout=registro, stderr=subprocess.STDOUT, cwd=trabajo)
    url = f"http://127.0.0.1:{puerto}/"
    limite = time.monotonic() + 90
    while True:
        try:
            urllib.request.urlopen(url + "api/status", timeout=2).read()
            break
        except OSError:
            if proceso.poll() is not None or time.monotonic() > limite:
                proceso.kill()
                registro.close()
                pytest.fail("JupyterLab no arrancó:\n" + (temporal / "jupyterlab.log").read_text()[-3000:])
            time.sleep(0.5)
    yield url
    proceso.terminate()
    try:
        proceso.wait(20)
    except subprocess.TimeoutExpired:
        proceso.kill()
    registro.close()
    shutil.rmtree(temporal, ignore_errors=True)


@pytest.fixture(scope="module")
def navegador():
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=OPCIONES_CHROMIUM)
        print(f"Chromium {chromium.version} ({CHROMIUM})")
        yield chromium
        chromium.close()


ESPERAR_CUADERNO = """async () => {
  const app = window.jupyterapp;
  if (!app) return false;
  const panel = app.shell.currentWidget;
  if (!panel || !panel.context || !panel.sessionContext) return false;
  await panel.context.ready;
  await panel.sessionContext.ready;
  const kernel = panel.sessionContext.session && panel.sessionContext.session.kernel;
  return !!kernel && kernel.status === "idle";
}"""

ESTADO_CELDAS = """() => {
  const panel = window.jupyterapp.shell.currentWidget;
  const sesion = panel.sessionContext.session;
  const kernel = sesion ? sesion.kernel : null;
  const celdas = panel.content.widgets.filter((c) => c.model.type === "code");
  const pendientes = celdas.filter((c) => c.model.executionCount === null).length;
  const ocupadas = Array.from(document.querySelectorAll(".jp-InputPrompt")).filter(
    (p) => p.textContent.includes("*")).length;
  const problemas = [];
  let widgets = 0;
  celdas.forEach((c, i) => {
    for (let k = 0; k < c.model.outputs.length; k++) {
      const salida = c.model.outputs.get(k).toJSON();
      if (salida.output_type === "error") {
        problemas.push(`celda de código ${i + 1}: ${salida.ename}: ${salida.evalue}`);
      } else if (salida.output_type === "stream" && salida.name === "stderr") {
        const texto = Array.isArray(salida.text) ? salida.text.join("") : salida.text;
        problemas.push(`celda de código ${i + 1} escribió en stderr: ${texto.slice(0, 300)}`);
      } else if (salida.data && salida.data["%WIDGET%"]) {
        widgets += 1;
      }
    }
  });
  return {estado: kernel ? kernel.status : "sin kernel", pendientes, ocupadas, total: celdas.length, problemas,
          widgets};
}""".replace("%WIDGET%", WIDGET)

WIDGETS_EN_PANTALLA = """() => {
  // Los renderizadores de widgets de cada celda (el mimeType lo guarda cada renderizador de JupyterLab).
  const panel = window.jupyterapp.shell.currentWidget;
  const vistos = [];
  const buscar = (w) => {
    if (w.mimeType === "%WIDGET%") { vistos.push(w); return; }
    for (const hijo of (w.widgets || [])) buscar(hijo);
  };
  panel.content.widgets.filter((c) => c.model.type === "code").forEach((c) => buscar(c.outputArea));
  return vistos.map((w) => {
    const caja = w.node.getBoundingClientRect();
    const texto = w.node.innerText || "";
    return {alto: caja.height, ancho: caja.width,
            error: /Error displaying widget|Error rendering|model not found|Failed to/i.test(texto),
            cargando: /Loading widget/i.test(texto), texto: texto.slice(0, 200)};
  });
}""".replace("%WIDGET%", WIDGET)


def _abrir_y_ejecutar(pagina, url, leccion, interfaz="lab"):
    """Abre la lección en la interfaz, ejecuta todas sus celdas y espera a que terminen; devuelve el estado."""
    datos = INTERFACES[interfaz]
    prefijo = datos["prefijo"]
    pagina.goto(f"{url}{datos['ruta']}{leccion.name}")
    limite = time.monotonic() + 120
    while not pagina.evaluate(ESPERAR_CUADERNO):
        if time.monotonic() > limite:
            pagina.screenshot(path=str(CAPTURAS / f"{prefijo}{leccion.stem}_no_abre.png"))
            pytest.fail(f"{leccion.name}: {datos['nombre']} no abrió el cuaderno con su kernel listo en 120 s.")
        pagina.wait_for_timeout(500)
    aplicacion = pagina.evaluate("() => [window.jupyterapp.name, window.jupyterapp.version]")
    assert aplicacion[0] == datos["app"], f"Se esperaba {datos['app']} y la página es {aplicacion}."
    print(f"{leccion.name}: {aplicacion[0]} {aplicacion[1]}")
    pagina.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    limite = time.monotonic() + TIEMPO_POR_CUADERNO
    estado = {}
    while time.monotonic() < limite:
        estado = pagina.evaluate(ESTADO_CELDAS)
        if estado["pendientes"] == 0 and estado["ocupadas"] == 0 and estado["estado"] == "idle":
            break
        pagina.wait_for_timeout(1000)
    else:
        pagina.screenshot(path=str(CAPTURAS / f"{prefijo}{leccion.stem}_sin_terminar.png"))
        pytest.fail(f"{leccion.name} ({datos['nombre']}): no terminó en {TIEMPO_POR_CUADERNO} s (estado {estado}).")
    pagina.wait_for_timeout(1500)  # que los widgets terminen de dibujarse
    return pagina.evaluate(ESTADO_CELDAS)


@pytest.mark.parametrize(("leccion", "interfaz"), CASOS)
def test_leccion_se_ejecuta_en_el_navegador(jupyterlab, navegador, leccion, interfaz):
    CAPTURAS.mkdir(parents=True, exist_ok=True)
    prefijo = INTERFACES[interfaz]["prefijo"]
    nombre = f"{leccion.name} ({INTERFACES[interfaz]['nombre']})"
    pagina = navegador.new_page(viewport={"width": 1400, "height": 1000})
    fallos_js = []

    def al_fallar(error):
        if interfaz == "nb7" and error.message in RUIDO_NB7 and "/static/notebook/" in (error.stack or ""):
            print(f"{nombre}: error conocido de Notebook 7, tolerado: {error.message}")
        else:
            fallos_js.append(str(error))

    pagina.on("pageerror", al_fallar)
    try:
        estado = _abrir_y_ejecutar(pagina, jupyterlab, leccion, interfaz)
        assert not estado["problemas"], f"{nombre} tiene salidas de error:\n" + "\n".join(estado["problemas"])
        # Cada widget se ve: tiene tamaño y no muestra un error ni «Loading widget…».
        en_pantalla = pagina.evaluate(WIDGETS_EN_PANTALLA)
        assert len(en_pantalla) == estado["widgets"], (
            f"{nombre}: {estado['widgets']} salidas de widget pero {len(en_pantalla)} en pantalla.")
        for k, widget in enumerate(en_pantalla):
            assert not widget["error"] and not widget["cargando"] and widget["alto"] > 10, (
                f"{nombre}: el widget {k + 1} no se muestra bien: {widget}")
        salidas = pagina.locator(".jp-OutputArea-output").filter(has=pagina.locator(".jupyter-widgets, .lm-Widget"))
        for k in range(min(salidas.count(), 6)):
            salidas.nth(k).scroll_into_view_if_needed()
            salidas.nth(k).screenshot(path=str(CAPTURAS / f"{prefijo}{leccion.stem}_widget_{k + 1}.png"))
        pagina.screenshot(path=str(CAPTURAS / f"{prefijo}{leccion.stem}.png"))
        assert not fallos_js, f"{nombre}: errores de JavaScript en la página:\n" + "\n".join(fallos_js)
        if leccion.name.startswith("01_"):
            _estudiante_en_la_actividad(pagina, prefijo)
            assert not fallos_js, f"{nombre}: errores de JavaScript al usar la actividad:\n" + "\n".join(fallos_js)
    finally:
        pagina.close()


# --- Lección 01: un estudiante usa la actividad ---------------------------------------------------------


def _leer(actividad):
    """Lo que ve el estudiante: porcentajes de las barras (None si oculta), frase y palabra elegida."""
    return actividad.evaluate("""(raiz) => ({
      porcentajes: Array.from(raiz.querySelectorAll('.aqm-barra .aqm-porcentaje')).map((s) =>
        s.textContent.includes('%') ? parseInt(s.textContent) : null),
      frase: raiz.querySelector('.aqm-resumen').textContent,
      elegida: Number(raiz.querySelector('.aqm-palabra.aqm-elegida').dataset.indice),
      arcos: Array.from(raiz.querySelectorAll('.aqm-arco')).map((a) =>
        [Number(a.dataset.indice), Number(a.getAttribute('stroke-width'))]),
      causal: raiz.querySelector('.aqm-causal').checked,
    })""")


def _esperar(pagina, actividad, condicion, descripcion, tiempo=30.0):
    """Espera a que lo visible cumpla `condicion` (las respuestas vienen del kernel); devuelve lo visible."""
    limite = time.monotonic() + tiempo
    while True:
        visto = _leer(actividad)
        if condicion(visto):
            return visto
        if time.monotonic() > limite:
            pytest.fail(f"La actividad no llegó a: {descripcion}. Se ve: {visto}")
        pagina.wait_for_timeout(100)


def _quieto(pagina, actividad, tiempo=10.0):
    """Espera a que lo visible deje de cambiar (tras un arrastre llegan varias respuestas del kernel)."""
    limite = time.monotonic() + tiempo
    antes = _leer(actividad)
    while True:
        pagina.wait_for_timeout(400)
        ahora = _leer(actividad)
        if ahora == antes or time.monotonic() > limite:
            return ahora
        antes = ahora


def _caja(elemento, tiempo=10.0):
    """Caja en pantalla de un elemento del plano, que se redibuja con cada respuesta: reintenta si se soltó."""
    limite = time.monotonic() + tiempo
    while True:
        caja = elemento.bounding_box()
        if caja is not None or time.monotonic() > limite:
            assert caja is not None, f"No se encuentra en pantalla: {elemento}"
            return caja
        time.sleep(0.1)


def _porcentajes_visibles(datos):
    return [p if v else None for p, v in zip(datos["porcentajes"], datos["visibles"])]


def _arrastrar(pagina, actividad, elemento, fraccion_x, fraccion_y, antes, descripcion):
    """Arrastra `elemento` hasta un punto del plano (en fracciones de su ancho y alto) y espera barras nuevas."""
    caja = _caja(elemento)
    plano = _caja(actividad.locator(".aqm-fondo"))
    pagina.mouse.move(caja["x"] + caja["width"] / 2, caja["y"] + caja["height"] / 2)
    pagina.mouse.down()
    pagina.mouse.move(plano["x"] + plano["width"] * fraccion_x, plano["y"] + plano["height"] * fraccion_y, steps=12)
    pagina.mouse.up()
    _esperar(pagina, actividad, lambda v: v["porcentajes"] != antes and _suma(v) == 100, descripcion)
    visto = _quieto(pagina, actividad)
    assert _suma(visto) == 100
    return visto


def _suma(visto):
    return sum(p for p in visto["porcentajes"] if p is not None)


def _estudiante_en_la_actividad(pagina, prefijo=""):
    from utilidades.actividades import CLAVES_INICIALES, CONSULTAS_INICIALES, estado

    actividad = pagina.locator(".aqm-raiz").first
    actividad.scroll_into_view_if_needed()
    inicial = estado(CONSULTAS_INICIALES, CLAVES_INICIALES, 6)
    visto = _esperar(pagina, actividad, lambda v: v["porcentajes"] == inicial["porcentajes"], "el estado inicial")
    assert visto["frase"] == '"banco" mira sobre todo a "plata" (61 %) y después a sí misma (28 %)'
    assert visto["porcentajes"][3] == 61 and visto["porcentajes"][6] == 28 and _suma(visto) == 100
    actividad.screenshot(path=str(CAPTURAS / f"{prefijo}01_actividad_1_inicio.png"))

    # Elegir con el ratón encima, con el teclado y con un clic.
    actividad.locator('.aqm-palabra[data-indice="2"]').hover()
    _esperar(pagina, actividad, lambda v: v["elegida"] == 2 and v["frase"].startswith('"la"'), "«la» al pasar el ratón")
    actividad.locator('.aqm-palabra[data-indice="2"]').click()
    pagina.wait_for_timeout(200)
    pagina.keyboard.press("ArrowRight")
    _esperar(pagina, actividad, lambda v: v["elegida"] == 3 and v["frase"].startswith('"plata"'), "«plata» con →")
    actividad.locator('.aqm-palabra[data-indice="5"]').click()
    sin_mascara = estado(CONSULTAS_INICIALES, CLAVES_INICIALES, 5)
    visto = _esperar(pagina, actividad, lambda v: v["porcentajes"] == sin_mascara["porcentajes"], "«el» elegida")
    grueso = max(visto["arcos"], key=lambda a: a[1])[0]
    assert grueso == 6, f"Sin máscara, el arco más grueso de «el» debería ir a «banco», no a {grueso}."

    # Máscara causal: «banco» queda oculta y el arco más grueso se va a otra palabra anterior.
    actividad.locator(".aqm-causal").check()
    con_mascara = estado(CONSULTAS_INICIALES, CLAVES_INICIALES, 5, causal=True)
    visto = _esperar(pagina, actividad, lambda v: v["porcentajes"] == _porcentajes_visibles(con_mascara),
                     "«el» con máscara causal")
    assert visto["causal"] and visto["porcentajes"][6] is None and _suma(visto) == 100
    assert all(i <= 5 for i, _ in visto["arcos"]), "Con la máscara no debe haber arcos hacia «banco»."
    grueso = max(visto["arcos"], key=lambda a: a[1])[0]
    assert grueso == max(range(6), key=lambda i: con_mascara["pesos"][i]) and grueso != 6
    assert visto["frase"] == con_mascara["resumen"]
    actividad.screenshot(path=str(CAPTURAS / f"{prefijo}01_actividad_2_el_causal.png"))

    # Arrastrar la clave de «plata» hacia la esquina de arriba a la derecha: las barras cambian.
    antes = visto["porcentajes"]
    visto = _arrastrar(pagina, actividad, actividad.locator('.aqm-clave[data-indice="3"] circle').first,
                       0.97, 0.03, antes, "barras nuevas tras arrastrar la clave de «plata»")
    assert visto["porcentajes"][3] > antes[3], "Alejar la clave de «plata» hacia la consulta debe darle más peso."

    # Arrastrar la flecha de la consulta de «el» hacia la clave de «Ana» (arriba a la izquierda).
    antes = visto["porcentajes"]
    visto = _arrastrar(pagina, actividad, actividad.locator(".aqm-punta-consulta"), 0.08, 0.2, antes,
                       "barras nuevas tras arrastrar la consulta")
    assert max(range(7), key=lambda i: visto["porcentajes"][i] or 0) == 0, "La consulta hacia «Ana» debe mirarla."
    actividad.screenshot(path=str(CAPTURAS / f"{prefijo}01_actividad_3_arrastre.png"))

    # Temperatura al mínimo: todo el peso en una palabra.
    actividad.locator(".aqm-temperatura").fill("0")
    visto = _esperar(pagina, actividad, lambda v: max(p or 0 for p in v["porcentajes"]) >= 99, "T mínima")
    assert re.search(r"0\.10", actividad.locator(".aqm-valor-t").inner_text())
    assert _suma(visto) == 100

    # Volver al inicio.
    actividad.locator(".aqm-reiniciar").click()
    visto = _esperar(pagina, actividad, lambda v: v["porcentajes"] == inicial["porcentajes"] and v["elegida"] == 6,
                     "el estado inicial tras «Volver al inicio»")
    assert not visto["causal"] and visto["frase"] == inicial["resumen"]
    assert "1.00" in actividad.locator(".aqm-valor-t").inner_text()
    actividad.screenshot(path=str(CAPTURAS / f"{prefijo}01_actividad_4_reinicio.png"))
