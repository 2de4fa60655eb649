"""Cada lección en un navegador de verdad: JupyterLab en 127.0.0.1 y Chromium sin cabeza (playwright).

Para cada cuaderno notebooks/NN_*.ipynb (copiado a una carpeta temporal: nunca se tocan los del repositorio; la
copia de la lección 10 no entrena, ver `_leccion_10_sin_entrenar`):
1. Se abre SIN ejecutar, en un espacio de trabajo nuevo (`?reset`: sin pestañas ni kernels de otras
   lecciones), como lo abre un estudiante: las salidas guardadas se ven, ninguna es un error y ningún widget
   muestra su representación cruda (`Panel(children=…`) sino una línea en castellano.
2. Si la lección tiene widgets, se ejecutan todas sus celdas y la prueba falla si alguna salida es un error o
   texto de error (stderr), o si un widget no se muestra. En la lección 01 un estudiante usa la actividad.
3. Al terminar se cierran los kernels de la lección.
Cada lección se abre también en la interfaz de Notebook 7 (prefijo de capturas nb7_); allí solo se ejecuta
entera la 01, la de la actividad.

Ninguna espera es ilimitada: cada `evaluate` compite en la página contra un plazo, playwright tiene plazos
propios y un vigilante cierra Chromium si algo se queda colgado; toda espera agotada falla con una captura y
lo que mostraba la página. Las capturas (1280 × 720, el tamaño de un proyector) quedan en resultados/navegador/.
"""

import contextlib
import json
import os
import pathlib
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

import pytest

from herramientas.cuadernos import RAIZ
from herramientas.navegador import OPCIONES_CHROMIUM, ruta_chromium

CAPTURAS = RAIZ / "resultados" / "navegador"
LECCIONES = sorted((RAIZ / "notebooks").glob("[0-9][0-9]_*.ipynb"))
WIDGET = "application/vnd.jupyter.widget-view+json"
PANTALLA = {"width": 1280, "height": 720}
TIEMPO_ABRIR = 120  # segundos para que el cuaderno se abra (y su kernel arranque)
TIEMPO_POR_CUADERNO = 600  # segundos para ejecutar todas las celdas de una lección
# Plazos propios de alguna lección (la 10 ya no entrena en el navegador: ver _leccion_10_sin_entrenar).
TIEMPO_POR_CUADERNO_PROPIO = {}
TIEMPO_EVALUATE = 30  # segundos que puede durar un evaluate en la página
TIEMPO_PLAYWRIGHT = 30_000  # milisegundos de cada acción de playwright (clic, captura, navegación…)
# Lo que delata un widget mostrado crudo o roto.
CRUDO = re.compile(r"\w+\(children=|Error displaying widget|model not found|Failed to load model", re.I)

INTERFACES = {
    "lab": {"nombre": "JupyterLab", "app": "JupyterLab", "prefijo": ""},
    "nb7": {"nombre": "Notebook 7", "app": "Jupyter Notebook", "prefijo": "nb7_"},
}
# Errores que la propia interfaz de Notebook 7.6 lanza al cargar, sin que el curso intervenga: el primero en
# cualquier página (también /tree con `jupyter notebook` a secas), el segundo si antes se abrió JupyterLab en el
# mismo servidor. Se toleran solo con ese texto y si vienen del código de Notebook (/static/notebook/).
RUIDO_NB7 = ("Cannot read properties of undefined (reading 'schema')",
             "Command 'filebrowser:open-path' not registered.")


def _tiene_widgets(ruta):
    """True si la lección guarda alguna salida de widget: esas se ejecutan enteras en el navegador."""
    cuaderno = json.loads(ruta.read_text(encoding="utf-8"))
    return any(WIDGET in salida.get("data", {}) for celda in cuaderno["cells"] if celda["cell_type"] == "code"
               for salida in celda.get("outputs", []))


# Cada lección en las dos interfaces; en Notebook 7 solo se ejecuta entera la 01 (la de la actividad).
CASOS = [pytest.param(leccion, interfaz, id=f"{interfaz}-{leccion.stem}") for interfaz in INTERFACES
         for leccion in LECCIONES]

CHROMIUM = ruta_chromium()


def _saltar(razon):
    """Sin navegador la prueba se salta, salvo en CI (CI=true), donde verde debe querer decir probado."""
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"En CI no se puede saltar la prueba en el navegador: {razon}")
    pytest.skip(razon)


def _puerto_libre():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _ajustes(carpeta):
    """Ajustes de JupyterLab para la prueba: sin noticias ni avisos, todas las celdas en el DOM y sin autoguardado."""
    ajustes = {
        "@jupyterlab/apputils-extension/notification.jupyterlab-settings":
            {"fetchNews": "false", "checkForUpdates": False},
        "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
        # Sin autoguardado: una lección ejecutada en el navegador no debe reescribir su copia (quedaría «de
        # confianza» y con otras salidas para la visita siguiente, que la abre sin ejecutar).
        "@jupyterlab/docmanager-extension/plugin.jupyterlab-settings": {"autosave": False},
    }
    for nombre, contenido in ajustes.items():
        ruta = carpeta / nombre
        ruta.parent.mkdir(parents=True, exist_ok=True)
        ruta.write_text(json.dumps(contenido), encoding="utf-8")


def _pedir(url, metodo="GET", tiempo=10):
    """Petición HTTP a la API del servidor de Jupyter; devuelve el JSON (o None si no hay cuerpo)."""
    with urllib.request.urlopen(urllib.request.Request(url, method=metodo), timeout=tiempo) as respuesta:
        cuerpo = respuesta.read()
    return json.loads(cuerpo) if cuerpo else None


def _cerrar_kernels(url):
    """Cierra todas las sesiones y kernels del servidor (los de la lección que acaba de probarse)."""
    with contextlib.suppress(OSError, ValueError):
        for sesion in _pedir(url + "api/sessions") or []:
            with contextlib.suppress(OSError):
                _pedir(url + f"api/sessions/{sesion['id']}", "DELETE")
        for kernel in _pedir(url + "api/kernels") or []:
            with contextlib.suppress(OSError):
                _pedir(url + f"api/kernels/{kernel['id']}", "DELETE")


def _leccion_10_sin_entrenar(origen, destino):
    """Copia de la lección 10 para el navegador, sin sus entrenamientos (minutos de CPU).

    Que el mini-GPT entrena y da lo que dice la lección lo comprueba nbval con la lección entera; aquí se prueba la
    interfaz. La copia llega hasta el primer entrenamiento, crea el modelo sin entrenar y ejecuta la celda del
    generador tal cual: el widget se dibuja y responde igual (escribe texto sin sentido, pero lo escribe).
    """
    cuaderno = json.loads(origen.read_text(encoding="utf-8"))
    celdas = cuaderno["cells"]

    def codigo(celda):
        return "".join(celda["source"]) if celda["cell_type"] == "code" else ""

    primera = next(i for i, c in enumerate(celdas) if re.search(r"(?<!def )entrenar_gpt\(", codigo(c)))
    generador = [c for c in celdas if "EscritorInteractivo(" in codigo(c)]
    assert len(generador) == 1, "la lección 10 debe tener una sola celda con el generador"
    modelo = {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
              "source": ["modelo = MiniGPT(V).to(dispositivo).eval()  # sin entrenar: aquí se prueba la interfaz"]}
    cuaderno["cells"] = celdas[:primera] + [modelo, *generador]
    destino.write_text(json.dumps(cuaderno, ensure_ascii=False, indent=1), encoding="utf-8")


@pytest.fixture(scope="module")
def jupyterlab():
    """Arranca JupyterLab (sin token, configuración temporal) sobre copias de las lecciones; devuelve su URL.

    El mismo servidor sirve también la interfaz de Notebook 7 (/notebooks/<ruta>).
    """
    if CHROMIUM is None:
        _saltar("no hay Chromium (`python3 tareas.py pruebas` lo instala en Debian/Ubuntu como root).")
    temporal = pathlib.Path(tempfile.mkdtemp(prefix="navegador-"))
    trabajo = temporal / "curso"
    (trabajo / "notebooks").mkdir(parents=True)
    for leccion in LECCIONES:
        if leccion.stem == "10_mini_gpt":
            _leccion_10_sin_entrenar(leccion, trabajo / "notebooks" / leccion.name)
        else:
            shutil.copy2(leccion, trabajo / "notebooks" / leccion.name)
    # La carpeta del curso como la descarga un estudiante: la celda de preparación busca utilidades/ junto a notebooks/.
    for carpeta in ("utilidades", "datos"):
        shutil.copytree(RAIZ / carpeta, trabajo / carpeta, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    _ajustes(temporal / "ajustes")
    entorno = dict(os.environ)
    entorno.update({
        "JUPYTER_CONFIG_DIR": str(temporal / "config"),
        "JUPYTER_RUNTIME_DIR": str(temporal / "runtime"),
        "JUPYTERLAB_SETTINGS_DIR": str(temporal / "ajustes"),
        "JUPYTERLAB_WORKSPACES_DIR": str(temporal / "espacios"),
        # Un hilo por kernel: aquí se prueba la interfaz, no la velocidad. Con la CPU compartida (el navegador,
        # el servidor, otros procesos), dos hilos de PyTorch que se esperan el uno al otro rinden mucho menos que
        # uno: el entrenamiento de la lección 10 pasó de 25 min con dos hilos y la máquina ocupada.
        "OMP_NUM_THREADS": "1",
    })
    puerto = _puerto_libre()
    orden = [
        sys.executable, "-m", "jupyter", "lab", "--no-browser", f"--ServerApp.port={puerto}",
        "--ServerApp.ip=127.0.0.1", "--IdentityProvider.token=", "--ServerApp.password=",
        "--ServerApp.disable_check_xsrf=True", f"--ServerApp.root_dir={trabajo}",
        "--LabApp.expose_app_in_browser=True", "--JupyterNotebookApp.expose_app_in_browser=True",
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
                pytest.fail("JupyterLab no arrancó en 90 s:\n" + (temporal / "jupyterlab.log").read_text()[-3000:])
            time.sleep(0.5)
    yield url
    _cerrar_kernels(url)
    proceso.terminate()
    try:
        proceso.wait(20)
    except subprocess.TimeoutExpired:
        proceso.kill()
    registro.close()
    shutil.rmtree(temporal, ignore_errors=True)


@pytest.fixture(scope="module")
def playwright_sync():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _saltar("falta playwright (`python3 tareas.py pruebas` instala las herramientas de pruebas).")
    with sync_playwright() as p:
        yield p


@contextlib.contextmanager
def _vigilante(segundos, descripcion):
    """Si lo de dentro dura más de `segundos`, cierra a la fuerza los Chromium que lanzó esta prueba.

    Es la red de seguridad de los plazos: playwright no tiene plazo en `evaluate`, y una página colgada no
    ejecutaría el plazo de JavaScript. Con Chromium cerrado, la llamada pendiente falla en vez de esperar siempre.
    """
    import psutil

    disparado = threading.Event()

    def disparar():
        disparado.set()
        print(f"\nVIGILANTE: {descripcion} superó {segundos} s; cierro Chromium.", flush=True)
        for hijo in psutil.Process().children(recursive=True):
            with contextlib.suppress(psutil.Error):
                if "chrom" in hijo.name().lower():
                    hijo.kill()

    temporizador = threading.Timer(segundos, disparar)
    temporizador.daemon = True
    temporizador.start()
    try:
        yield disparado
    finally:
        temporizador.cancel()
        if disparado.is_set():
            pytest.fail(f"{descripcion}: superó {segundos} s y el vigilante cerró Chromium.")


def _evaluar(pagina, funcion, argumento=None, tiempo=TIEMPO_EVALUATE):
    """`pagina.evaluate` con plazo: la función compite en la página contra un temporizador de `tiempo` s."""
    envuelta = f"""async (argumento) => {{
      const funcion = {funcion};
      let reloj;
      const plazo = new Promise((_, rechazar) => {{
        reloj = setTimeout(() => rechazar(new Error("plazo de {tiempo} s agotado en la página")), {tiempo * 1000});
      }});
      try {{ return await Promise.race([Promise.resolve().then(() => funcion(argumento)), plazo]); }}
      finally {{ clearTimeout(reloj); }}
    }}"""
    return pagina.evaluate(envuelta, argumento)


ESTADO_PAGINA = """() => {
  const app = window.jupyterapp;
  const dialogo = document.querySelector(".jp-Dialog");
  const base = {dialogo: dialogo ? dialogo.textContent.slice(0, 300) : null, titulo: document.title};
  if (!app || !app.shell) return {...base, listo: false, motivo: "la aplicación no ha cargado"};
  const panel = app.shell.currentWidget;
  if (!panel || !panel.content || !panel.context || !panel.content.model)
    return {...base, listo: false, motivo: "no hay un cuaderno abierto"};
  if (!panel.context.isReady) return {...base, listo: false, motivo: "el cuaderno se está cargando"};
  const celdas = panel.content.model.cells.length;
  const sesion = panel.sessionContext && panel.sessionContext.session;
  const kernel = sesion && sesion.kernel;
  return {...base, listo: celdas > 0 && panel.content.widgets.length === celdas, celdas,
          kernel: kernel ? kernel.status : null, app: [app.name, app.version]};
}"""

ESTADO_CELDAS = """() => {
  const panel = window.jupyterapp.shell.currentWidget;
  const sesion = panel.sessionContext.session;
  const kernel = sesion ? sesion.kernel : null;
  const celdas = panel.content.widgets.filter((c) => c.model.type === "code");
  const pendientes = celdas.filter((c) => c.model.executionCount === null).length;
  const ocupadas = Array.from(panel.node.querySelectorAll(".jp-InputPrompt")).filter(
    (p) => p.textContent.includes("*")).length;
  const problemas = [];
  let widgets = 0;
  let errores = 0;
  celdas.forEach((c, i) => {
    for (let k = 0; k < c.model.outputs.length; k++) {
      const salida = c.model.outputs.get(k).toJSON();
      if (salida.output_type === "error") {
        errores += 1;
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
          widgets, errores};
}""".replace("%WIDGET%", WIDGET)

# Lo que se ve de cada salida de widget guardada (textContent: JupyterLab no oculta ahí las celdas lejanas).
WIDGETS_GUARDADOS = """() => {
  const panel = window.jupyterapp.shell.currentWidget;
  const vistos = [];
  panel.content.widgets.filter((c) => c.model.type === "code").forEach((c, i) => {
    let tiene = false;
    for (let k = 0; k < c.model.outputs.length; k++) {
      const datos = c.model.outputs.get(k).toJSON().data;
      if (datos && datos["%WIDGET%"]) tiene = true;
    }
    if (tiene) vistos.push({celda: i + 1, texto: (c.outputArea.node.textContent || "").trim().slice(0, 400)});
  });
  return vistos;
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
    const texto = w.node.textContent || "";
    return {alto: caja.height, ancho: caja.width,
            error: /Error displaying widget|Error rendering|model not found|Failed to/i.test(texto),
            cargando: /Loading widget/i.test(texto), texto: texto.slice(0, 200)};
  });
}""".replace("%WIDGET%", WIDGET)

EJECUTAR_TODO = """() => { window.jupyterapp.commands.execute("notebook:run-all-cells"); return true; }"""


class Visita:
    """Una lección abierta en una página: sus plazos, sus capturas y sus fallos con lo que se veía."""

    def __init__(self, pagina, leccion, interfaz):
        self.pagina = pagina
        self.leccion = leccion
        self.datos = INTERFACES[interfaz]
        self.nombre = f"{leccion.name} ({self.datos['nombre']})"
        self.prefijo = self.datos["prefijo"]

    def captura(self, sufijo=""):
        ruta = CAPTURAS / f"{self.prefijo}{self.leccion.stem}{sufijo}.png"
        with contextlib.suppress(Exception):
            self.pagina.screenshot(path=str(ruta))
        return ruta

    def fallar(self, mensaje, sufijo):
        """Falla con una captura y lo que la página mostraba."""
        ruta = self.captura(sufijo)
        try:
            visto = _evaluar(self.pagina, ESTADO_PAGINA, tiempo=5)
        except Exception as error:  # la página puede estar rota: se dice, pero no oculta el fallo original
            visto = f"(no se pudo leer la página: {error})"
        pytest.fail(f"{self.nombre}: {mensaje}\nLa página mostraba: {visto}\nCaptura: {ruta}")

    def esperar(self, funcion, condicion, descripcion, tiempo, sufijo, cada=0.5):
        """Sondea `funcion` en la página hasta que `condicion(resultado)`; si se agota el plazo, falla."""
        limite = time.monotonic() + tiempo
        while True:
            resultado = _evaluar(self.pagina, funcion)
            if condicion(resultado):
                return resultado
            if time.monotonic() > limite:
                self.fallar(f"{descripcion}: no ocurrió en {tiempo} s (último estado: {resultado}).", sufijo)
            self.pagina.wait_for_timeout(cada * 1000)

    def abrir(self, url):
        """Abre la lección en un espacio de trabajo nuevo y espera a que todas sus celdas estén dibujadas."""
        if self.prefijo:
            direccion = f"{url}notebooks/notebooks/{self.leccion.name}"
        else:
            direccion = f"{url}lab/workspaces/prueba-{self.leccion.stem}/tree/notebooks/{self.leccion.name}?reset"
        self.pagina.goto(direccion, wait_until="domcontentloaded")
        estado = self.esperar(ESTADO_PAGINA, lambda e: e["listo"], "abrir el cuaderno", TIEMPO_ABRIR, "_no_abre")
        assert estado["app"][0] == self.datos["app"], f"Se esperaba {self.datos['app']} y la página es {estado['app']}."
        print(f"{self.nombre}: {estado['app'][0]} {estado['app'][1]}, {estado['celdas']} celdas")

    def ejecutar_todo(self):
        """Ejecuta todas las celdas (sin esperar la promesa del comando) y sondea hasta que terminen."""
        self.esperar(ESTADO_PAGINA, lambda e: e.get("kernel") == "idle", "el kernel listo", TIEMPO_ABRIR,
                     "_sin_kernel")
        _evaluar(self.pagina, EJECUTAR_TODO)
        inicio, plazo = time.monotonic(), _plazo_de_ejecucion(self.leccion)
        reintentado = False
        while True:
            estado = _evaluar(self.pagina, ESTADO_CELDAS)
            if estado["pendientes"] == 0 and estado["ocupadas"] == 0 and estado["estado"] == "idle":
                return estado
            if estado["errores"] and estado["ocupadas"] == 0 and estado["estado"] == "idle":
                # «Ejecutar todo» se detiene en la primera celda con error: no hay nada más que esperar.
                self.fallar("se detuvo en una celda con error:\n" + "\n".join(estado["problemas"]), "_error")
            transcurrido = time.monotonic() - inicio
            nada = estado["pendientes"] == estado["total"] and estado["ocupadas"] == 0 and estado["estado"] == "idle"
            if nada and transcurrido > 45 and not reintentado:
                # La orden se perdió (el kernel acababa de conectarse): se repite una sola vez.
                print(f"{self.nombre}: ninguna celda empezó en 45 s; repito «ejecutar todo».")
                _evaluar(self.pagina, EJECUTAR_TODO)
                reintentado = True
            if transcurrido > plazo:
                self.fallar(f"no terminó de ejecutarse en {plazo} s (estado {estado}).", "_sin_terminar")
            self.pagina.wait_for_timeout(1000)


def _plazo_de_ejecucion(leccion):
    """Segundos que puede tardar «ejecutar todo» en una lección."""
    return TIEMPO_POR_CUADERNO_PROPIO.get(leccion.stem, TIEMPO_POR_CUADERNO)


@pytest.mark.parametrize(("leccion", "interfaz"), CASOS)
def test_leccion_en_el_navegador(jupyterlab, playwright_sync, leccion, interfaz):
    CAPTURAS.mkdir(parents=True, exist_ok=True)
    ejecutar = _tiene_widgets(leccion) and (interfaz == "lab" or leccion.name.startswith("01_"))
    plazo_total = TIEMPO_ABRIR * 2 + (_plazo_de_ejecucion(leccion) + 240 if ejecutar else 60)
    with _vigilante(plazo_total, f"{leccion.name} ({interfaz})"):
        navegador = playwright_sync.chromium.launch(executable_path=CHROMIUM, headless=True,
                                                    args=OPCIONES_CHROMIUM, timeout=60_000)
        try:
            _probar_leccion(navegador, jupyterlab, leccion, interfaz, ejecutar)
        finally:
            with contextlib.suppress(Exception):
                navegador.close()
            _cerrar_kernels(jupyterlab)


def _probar_leccion(navegador, url, leccion, interfaz, ejecutar):
    contexto = navegador.new_context(viewport=PANTALLA)
    contexto.set_default_timeout(TIEMPO_PLAYWRIGHT)
    contexto.set_default_navigation_timeout(TIEMPO_PLAYWRIGHT * 2)
    pagina = contexto.new_page()
    visita = Visita(pagina, leccion, interfaz)
    fallos_js = []

    def al_fallar(error):
        if interfaz == "nb7" and error.message in RUIDO_NB7 and "/static/notebook/" in (error.stack or ""):
            print(f"{visita.nombre}: error conocido de Notebook 7, tolerado: {error.message}")
        else:
            fallos_js.append(str(error))

    pagina.on("pageerror", al_fallar)
    visita.abrir(url)

    # 1. Abierta sin ejecutar: lo guardado se lee, sin errores ni widgets crudos.
    estado = _evaluar(pagina, ESTADO_CELDAS)
    assert not estado["problemas"], f"{visita.nombre} guarda salidas de error:\n" + "\n".join(estado["problemas"])
    for widget in _evaluar(pagina, WIDGETS_GUARDADOS):
        assert not CRUDO.search(widget["texto"]), (
            f"{visita.nombre}, celda de código {widget['celda']}: antes de ejecutar, el widget se ve crudo: "
            f"{widget['texto'][:200]}")
        assert re.search(r"ejecuta la celda", widget["texto"], re.I), (
            f"{visita.nombre}, celda de código {widget['celda']}: antes de ejecutar, el widget debe decir en "
            f"castellano que hay que ejecutar la celda y qué calculó; se ve: {widget['texto'][:200]}")
    visita.captura("_abierta")
    assert not fallos_js, f"{visita.nombre}: errores de JavaScript al abrir:\n" + "\n".join(fallos_js)
    if not ejecutar:
        return

    # 2. Ejecutada entera: sin errores y cada widget a la vista.
    estado = visita.ejecutar_todo()
    pagina.wait_for_timeout(1500)  # que los widgets terminen de dibujarse
    estado = _evaluar(pagina, ESTADO_CELDAS)
    assert not estado["problemas"], f"{visita.nombre} tiene salidas de error:\n" + "\n".join(estado["problemas"])
    en_pantalla = _evaluar(pagina, WIDGETS_EN_PANTALLA)
    assert len(en_pantalla) == estado["widgets"], (
        f"{visita.nombre}: {estado['widgets']} salidas de widget pero {len(en_pantalla)} en pantalla.")
    for k, widget in enumerate(en_pantalla):
        assert not widget["error"] and not widget["cargando"] and widget["alto"] > 10, (
            f"{visita.nombre}: el widget {k + 1} no se muestra bien: {widget}")
    salidas = pagina.locator(".jp-OutputArea-output").filter(has=pagina.locator(".jupyter-widgets, .lm-Widget"))
    for k in range(min(salidas.count(), 6)):
        salidas.nth(k).scroll_into_view_if_needed()
        salidas.nth(k).screenshot(path=str(CAPTURAS / f"{visita.prefijo}{leccion.stem}_widget_{k + 1}.png"))
    visita.captura()
    assert not fallos_js, f"{visita.nombre}: errores de JavaScript en la página:\n" + "\n".join(fallos_js)

    # 3. Lo que hace un estudiante con los widgets de cada lección.
    if leccion.name.startswith("01_"):
        from navegador_actividad import estudiante_en_la_actividad

        estudiante_en_la_actividad(pagina, pagina.locator(".aqm-raiz").first, CAPTURAS, visita.prefijo)
        assert not fallos_js, f"{visita.nombre}: errores de JavaScript al usar la actividad:\n" + "\n".join(fallos_js)
    if leccion.name.startswith("10_"):
        _estudiante_en_el_escritor(visita)
        assert not fallos_js, f"{visita.nombre}: errores de JavaScript en el generador:\n" + "\n".join(fallos_js)
    if leccion.name.startswith("11_"):
        _estudiante_en_el_visualizador(visita)
        assert not fallos_js, f"{visita.nombre}: errores de JavaScript en el visualizador:\n" + "\n".join(fallos_js)


# --- Lección 10: un estudiante pide otra muestra y cambia el comienzo -------------------------------------


def _estudiante_en_el_escritor(visita):
    """Pulsa «Otra muestra» (otro texto, la muestra siguiente) y escribe otro comienzo (el texto empieza por él)."""
    pagina = visita.pagina
    texto = pagina.locator(".gen-texto").first
    estado = pagina.locator(".gen-estado").first
    texto.scroll_into_view_if_needed()
    antes = _esperar_texto(visita, texto, lambda t: t.startswith("El modelo "), "el texto inicial", tiempo=120)
    muestra = int(re.search(r"muestra (\d+)", _esperar_texto(visita, estado, lambda t: "muestra" in t,
                                                              "el número de muestra")).group(1))
    pagina.locator("button.gen-otra, .gen-otra button").first.click()
    siguiente = f"muestra {muestra + 1}"
    _esperar_texto(visita, estado, lambda t: siguiente in t, f"«{siguiente}» tras «Otra muestra»", tiempo=120)
    otra = _esperar_texto(visita, texto, lambda t: t.startswith("El modelo ") and t != antes, "otra muestra",
                          tiempo=120)
    assert otra != antes
    entrada = pagina.locator(".gen-comienzo input").first
    entrada.fill("La máscara ")
    entrada.press("Enter")
    _esperar_texto(visita, texto, lambda t: t.startswith("La máscara "), "el texto con el comienzo nuevo", tiempo=120)
    pagina.locator(".gen-texto").first.locator("xpath=..").screenshot(path=str(CAPTURAS / "10_generador.png"))


# --- Lección 11: un estudiante recorre la pasada del mini-GPT ------------------------------------------


def _texto_visible(localizador):
    """El texto de un elemento, o "" si aún no está (el widget se redibuja con cada respuesta del kernel)."""
    try:
        return localizador.text_content(timeout=2000) or ""
    except Exception:
        return ""


def _esperar_texto(visita, localizador, condicion, descripcion, tiempo=60, sufijo="_widget"):
    """Sondea el texto de `localizador` hasta que cumpla `condicion`; si se agota el plazo, falla con captura."""
    limite = time.monotonic() + tiempo
    while True:
        texto = _texto_visible(localizador)
        if condicion(texto):
            return texto
        if time.monotonic() > limite:
            visita.fallar(f"el widget no llegó a: {descripcion} en {tiempo} s. Se ve: {texto[:300]}", sufijo)
        visita.pagina.wait_for_timeout(200)


def _imagen_quieta(visita, imagen, tiempo=30):
    """Espera a que la figura deje de cambiar (llega del kernel después del texto); así la captura es la de ahora."""
    limite = time.monotonic() + tiempo
    antes, iguales = None, 0
    while iguales < 3 and time.monotonic() < limite:
        try:
            ahora = imagen.get_attribute("src", timeout=2000)
        except Exception:
            ahora = None
        iguales = iguales + 1 if ahora and ahora == antes else 0
        antes = ahora
        visita.pagina.wait_for_timeout(400)


def _estudiante_en_el_visualizador(visita):
    """Escribe un comienzo, avanza etapas con el botón, salta a la última y añade el carácter sorteado."""
    pagina = visita.pagina
    raiz = pagina.locator(".vis-texto").first.locator("xpath=ancestor::div[contains(@class, 'widget-vbox')][1]")
    raiz.scroll_into_view_if_needed()
    texto = pagina.locator(".vis-texto").first
    entrada = pagina.locator(".vis-prompt input").first
    boton = pagina.locator("button.vis-siguiente, .vis-siguiente button").first
    etapa = pagina.locator(".vis-etapa select").first
    imagen = pagina.locator("img.vis-imagen, .vis-imagen img").first

    comienzo = "La atención"
    entrada.fill(comienzo)
    entrada.press("Enter")
    _esperar_texto(visita, texto, lambda t: "Etapa 0 del curso" in t and "«L» «a» «␣» «a»" in t,
                   "el comienzo escrito")
    _imagen_quieta(visita, imagen)
    raiz.screenshot(path=str(CAPTURAS / "11_visualizador_1_caracteres.png"))
    ultima = int(re.search(r"Etapa 0 del curso \(de 0 a (\d+)\)", _texto_visible(texto)).group(1))
    for paso in (1, 2):
        boton.click()
        _esperar_texto(visita, texto, lambda t, paso=paso: f"Etapa {paso} del curso (de 0 a {ultima})" in t,
                       f"la etapa {paso}")
    _imagen_quieta(visita, imagen)
    raiz.screenshot(path=str(CAPTURAS / "11_visualizador_2_etapa_2.png"))
    etapa.select_option(index=ultima)
    final = _esperar_texto(visita, texto, lambda t: f"Etapa {ultima} del curso (de 0 a {ultima})" in t,
                           "la última etapa")
    _imagen_quieta(visita, imagen)
    raiz.screenshot(path=str(CAPTURAS / "11_visualizador_3_sorteo.png"))
    boton.click()  # desde la última etapa: añade el carácter sorteado y vuelve a la primera
    _esperar_texto(visita, texto, lambda t: "Etapa 0 del curso" in t, "volver a la etapa 0")
    limite = time.monotonic() + 30
    while len(entrada.input_value()) != len(comienzo) + 1:
        if time.monotonic() > limite:
            visita.fallar(f"el comienzo no creció un carácter: «{entrada.input_value()}» (última etapa: {final[:200]})",
                          "_visualizador")
        pagina.wait_for_timeout(200)
    assert entrada.input_value().startswith(comienzo)
    _imagen_quieta(visita, imagen)
    raiz.screenshot(path=str(CAPTURAS / "11_visualizador_4_anadido.png"))


# --- Diapositivas: un docente presenta una lección con RISE y ejecuta una celda en directo -------------------

PRESENTADA = "02_atencion_a_mano.ipynb"


def test_una_leccion_se_presenta_con_celdas_vivas(jupyterlab, playwright_sync):
    """Como un docente: ejecuta la lección antes de clase, la abre como presentación (RISE, mismo kernel), avanza
    de diapositiva y ejecuta en directo una celda de código, sin errores."""
    CAPTURAS.mkdir(parents=True, exist_ok=True)
    with _vigilante(TIEMPO_ABRIR * 5, f"diapositivas de {PRESENTADA}"):
        navegador = playwright_sync.chromium.launch(executable_path=CHROMIUM, headless=True,
                                                    args=OPCIONES_CHROMIUM, timeout=60_000)
        try:
            contexto = navegador.new_context(viewport=PANTALLA)
            contexto.set_default_timeout(TIEMPO_PLAYWRIGHT)
            pagina = contexto.new_page()
            antes_de_clase = Visita(pagina, RAIZ / "notebooks" / PRESENTADA, "lab")
            antes_de_clase.abrir(jupyterlab)
            antes_de_clase.ejecutar_todo()
            fallos_js = []
            pagina.on("pageerror", lambda error: fallos_js.append(str(error)))
            pagina.goto(f"{jupyterlab}rise/notebooks/{PRESENTADA}", wait_until="domcontentloaded",
                        timeout=TIEMPO_PLAYWRIGHT * 2)
            portada = pagina.locator(".reveal section.present").first
            limite = time.monotonic() + TIEMPO_ABRIR
            while "Atención a mano" not in _texto_visible(portada):  # la presentación se monta poco a poco
                if time.monotonic() > limite:
                    pagina.screenshot(path=str(CAPTURAS / "diapositivas_no_abre.png"))
                    pytest.fail(f"RISE no mostró la portada de {PRESENTADA} en {TIEMPO_ABRIR} s.")
                pagina.wait_for_timeout(500)
            pagina.wait_for_timeout(1000)
            pagina.screenshot(path=str(CAPTURAS / "diapositivas_1_portada.png"))
            celda = pagina.locator(".reveal section.present .jp-CodeCell .cm-content").first
            siguiente = pagina.locator(".reveal .controls .navigate-right").first
            for _ in range(12):  # avanzar hasta la primera diapositiva con una celda de código a la vista
                if celda.count() and celda.is_visible():
                    break
                assert siguiente.is_enabled(), "La presentación se acabó sin mostrar una celda de código."
                siguiente.click()
                pagina.wait_for_timeout(800)
            assert celda.count() and celda.is_visible(), "Ninguna de las primeras diapositivas muestra código."
            numero = pagina.locator(".reveal section.present .jp-CodeCell .jp-InputPrompt").first
            guardado = _texto_visible(numero)  # el número de ejecución guardado en el cuaderno
            celda.dispatch_event("mousedown")  # reveal.js escala la diapositiva: un clic «real» cae fuera
            celda.focus()
            pagina.keyboard.press("Control+Enter")  # ejecuta y se queda en la misma celda (y diapositiva)
            limite = time.monotonic() + TIEMPO_ABRIR
            while not ((ahora := _texto_visible(numero)) != guardado and re.search(r"\[\d+\]", ahora)):
                if time.monotonic() > limite:
                    pagina.screenshot(path=str(CAPTURAS / "diapositivas_sin_ejecutar.png"))
                    pytest.fail(f"La celda de la diapositiva no se ejecutó en {TIEMPO_ABRIR} s: "
                                f"«{_texto_visible(numero)}».")
                pagina.wait_for_timeout(500)
            pagina.wait_for_timeout(1000)
            pagina.screenshot(path=str(CAPTURAS / "diapositivas_2_celda_ejecutada.png"))
            errores_celda = pagina.locator(".reveal section.present .jp-CodeCell "
                                           "[data-mime-type='application/vnd.jupyter.stderr']")
            assert errores_celda.count() == 0, f"La celda ejecutada en la diapositiva dio un error: " \
                                               f"{_texto_visible(errores_celda.first)[:300]}"
            errores = [f for f in fallos_js if "@jupyterlab/console" not in f]  # RISE 0.43 con JupyterLab 4.6
            assert not errores, "Errores de JavaScript en la presentación:\n" + "\n".join(errores)
        finally:
            with contextlib.suppress(Exception):
                navegador.close()
            _cerrar_kernels(jupyterlab)
