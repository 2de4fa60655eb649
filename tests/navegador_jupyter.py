"""JupyterLab y Chromium para las pruebas en un navegador de verdad (tests/test_rise.py y tests/test_navegador.py).

El accesorio `jupyterlab` arranca un servidor (uno por archivo de pruebas: pytest-xdist puede llevar cada archivo a
otro proceso) sobre copias de las lecciones; `Visita` abre una lección en una página, con plazos, capturas y fallos
que dicen lo que se veía. Ninguna espera es ilimitada: `_evaluar` hace competir cada `evaluate` con un plazo en la
página y `_vigilante` cierra Chromium si algo se queda colgado.
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

import tareas
from herramientas.cuadernos import RAIZ
from herramientas.navegador import OPCIONES_CHROMIUM, ruta_chromium

CAPTURAS = RAIZ / "resultados" / "navegador"
LECCIONES = sorted((RAIZ / "notebooks").glob("[0-9][0-9]_*.ipynb"))
WIDGET = "application/vnd.jupyter.widget-view+json"
PANTALLA = {"width": 1280, "height": 720}
TIEMPO_ABRIR = 120  # segundos para que el cuaderno se abra (y su kernel arranque)
TIEMPO_POR_CUADERNO = 600  # segundos para ejecutar todas las celdas de una lección
# Plazos propios de alguna lección (la 10 no entrena en el navegador: ver SIN_ENTRENAR).
TIEMPO_POR_CUADERNO_PROPIO = {}
TIEMPO_EVALUATE = 30  # segundos que puede durar un evaluate en la página
TIEMPO_PLAYWRIGHT = 30_000  # milisegundos de cada acción de playwright (clic, captura, navegación…)
PRESENTAR = "presentar"  # carpeta (en la del servidor) de las copias que se presentan con RISE

INTERFACES = {
    "lab": {"nombre": "JupyterLab", "app": "JupyterLab", "prefijo": ""},
    "nb7": {"nombre": "Notebook 7", "app": "Jupyter Notebook", "prefijo": "nb7_"},
}

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
        shutil.copy2(leccion, trabajo / "notebooks" / leccion.name)
    # Otra copia de cada lección, para abrirla en JupyterLab y presentarla con RISE (tests/test_rise.py la ejecuta y
    # la guarda, como Alt+R); las de notebooks/ quedan como las abre quien estudia (tests/test_navegador.py).
    # Junto a las dos, el estilo de las presentaciones (RISE carga el rise.css de la carpeta del cuaderno).
    (trabajo / PRESENTAR).mkdir()
    for leccion in LECCIONES:
        shutil.copy2(leccion, trabajo / PRESENTAR / leccion.name)
    for carpeta in ("notebooks", PRESENTAR):
        shutil.copy2(RAIZ / "notebooks" / "rise.css", trabajo / carpeta / "rise.css")
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
        # Como `tareas.py abrir`: con la extensión de herramientas/jupyter, los paneles funcionan también en RISE.
        "JUPYTER_PATH": tareas._entorno_del_curso()["JUPYTER_PATH"],
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

EJECUTAR_TODO = """() => { window.jupyterapp.commands.execute("notebook:run-all-cells"); return true; }"""


class Visita:
    """Una lección abierta en una página: sus plazos, sus capturas y sus fallos con lo que se veía."""

    def __init__(self, pagina, leccion, interfaz, carpeta="notebooks"):
        self.pagina = pagina
        self.leccion = leccion
        self.carpeta = carpeta  # la carpeta de la copia, dentro de la del servidor
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

    def esperar(self, funcion, condicion, descripcion, tiempo, sufijo, cada=0.5, argumento=None):
        """Sondea `funcion` en la página hasta que `condicion(resultado)`; si se agota el plazo, falla."""
        limite = time.monotonic() + tiempo
        while True:
            resultado = _evaluar(self.pagina, funcion, argumento)
            if condicion(resultado):
                return resultado
            if time.monotonic() > limite:
                self.fallar(f"{descripcion}: no ocurrió en {tiempo} s (último estado: {resultado}).", sufijo)
            self.pagina.wait_for_timeout(cada * 1000)

    def abrir(self, url):
        """Abre la lección en un espacio de trabajo nuevo y espera a que todas sus celdas estén dibujadas."""
        if self.prefijo:
            direccion = f"{url}notebooks/{self.carpeta}/{self.leccion.name}"
        else:
            direccion = f"{url}lab/workspaces/prueba-{self.leccion.stem}/tree/{self.carpeta}/{self.leccion.name}?reset"
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
            self.pagina.wait_for_timeout(300)


def _plazo_de_ejecucion(leccion):
    """Segundos que puede tardar «ejecutar todo» en una lección."""
    return TIEMPO_POR_CUADERNO_PROPIO.get(leccion.stem, TIEMPO_POR_CUADERNO)


# En el navegador se ejecuta solo lo que necesitan los paneles de una lección (que cada celda da lo guardado lo
# comprueba nbval con la lección entera). Lo que sustituye a sus entrenamientos (minutos de CPU): desde la primera
# celda que entrena (un paso del optimizador a mano, como el bucle de 50 pasos de la sección 7, o `entrenar_gpt`)
# hasta el primer panel se ejecuta este código en su lugar (en el kernel, sin tocar el cuaderno). El generador de la
# lección 10 se dibuja y responde igual con un modelo sin entrenar (escribe texto sin sentido, pero lo escribe).
SIN_ENTRENAR = {"10_mini_gpt": (r"(?<!def )entrenar_gpt\(|\.step\(\)", "modelo = MiniGPT(V).to(dispositivo).eval()")}

# Vacía el número de ejecución de las celdas de código [desde, hasta] y las ejecuta (sin esperar: se sondea).
EJECUTAR_CELDAS = """([desde, hasta]) => {
  const app = window.jupyterapp;
  const cuaderno = app.shell.currentWidget.content;
  for (let i = desde; i <= hasta; i++) {
    const celda = cuaderno.widgets[i];
    if (celda.model.type === "code") celda.model.executionCount = null;
  }
  cuaderno.deselectAll();
  cuaderno.activeCellIndex = desde;
  cuaderno.extendContiguousSelectionTo(hasta);
  app.commands.execute("notebook:run-cell");
  return true;
}"""

ESTADO_CELDAS_RANGO = """([desde, hasta]) => {
  const panel = window.jupyterapp.shell.currentWidget;
  const kernel = panel.sessionContext.session ? panel.sessionContext.session.kernel : null;
  let pendientes = 0;
  const errores = [];
  for (let i = desde; i <= hasta; i++) {
    const celda = panel.content.widgets[i];
    if (celda.model.type !== "code") continue;
    if (celda.model.executionCount === null) pendientes += 1;
    for (let k = 0; k < celda.model.outputs.length; k++) {
      const salida = celda.model.outputs.get(k).toJSON();
      if (salida.output_type === "error") errores.push(`celda ${i}: ${salida.ename}: ${salida.evalue}`);
    }
  }
  const ocupadas = Array.from(panel.node.querySelectorAll(".jp-InputPrompt")).filter(
    (p) => p.textContent.includes("*")).length;
  return {estado: kernel ? kernel.status : "sin kernel", pendientes, ocupadas, errores};
}"""

EJECUTAR_CODIGO = """async (codigo) => {
  const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  const respuesta = await kernel.requestExecute({code: codigo, store_history: false}).done;
  return respuesta.content.status === "ok" ? null : `${respuesta.content.ename}: ${respuesta.content.evalue}`;
}"""


def _celdas_de_paneles(leccion):
    """Índices (entre todas las celdas) de las celdas de código que guardan un widget."""
    cuaderno = json.loads(leccion.read_text(encoding="utf-8"))
    return [i for i, celda in enumerate(cuaderno["cells"]) if celda["cell_type"] == "code"
            and any(WIDGET in salida.get("data", {}) for salida in celda.get("outputs", []))]


def _pasos_para_los_paneles(leccion, paneles):
    """Lo que se ejecuta antes de presentar: rangos de celdas [desde, hasta] y código suelto, en orden."""
    if not paneles:
        return []
    if leccion.stem not in SIN_ENTRENAR:
        return [("celdas", [0, paneles[-1]])]
    patron, sustituto = SIN_ENTRENAR[leccion.stem]
    celdas = json.loads(leccion.read_text(encoding="utf-8"))["cells"]
    primera = next(i for i, c in enumerate(celdas)
                   if c["cell_type"] == "code" and re.search(patron, "".join(c["source"])))
    assert primera < paneles[0], f"{leccion.name}: el primer panel debe venir después del entrenamiento"
    pasos = [("celdas", [0, primera - 1]), ("codigo", sustituto)]
    return pasos + [("celdas", [i, i]) for i in paneles]


def _ejecutar_para_los_paneles(visita, pasos):
    """Ejecuta en el cuaderno abierto los pasos de `_pasos_para_los_paneles`, cada uno hasta que termina."""
    visita.esperar(ESTADO_PAGINA, lambda e: e.get("kernel") == "idle", "el kernel listo", TIEMPO_ABRIR, "_sin_kernel")
    for tipo, argumento in pasos:
        if tipo == "codigo":
            error = _evaluar(visita.pagina, EJECUTAR_CODIGO, argumento, tiempo=TIEMPO_ABRIR)
            assert error is None, f"{visita.nombre}: «{argumento}» dio {error}"
            continue
        _evaluar(visita.pagina, EJECUTAR_CELDAS, argumento)
        estado = visita.esperar(
            ESTADO_CELDAS_RANGO, lambda e: e["errores"] or (e["pendientes"] == 0 and e["ocupadas"] == 0
                                                             and e["estado"] == "idle"),
            f"ejecutar las celdas {argumento[0]}–{argumento[1]}", _plazo_de_ejecucion(visita.leccion), "_sin_terminar",
            cada=0.25, argumento=argumento)
        assert not estado["errores"], f"{visita.nombre}: error al ejecutar:\n" + "\n".join(estado["errores"])



class _Chromium:
    """Un Chromium y un contexto para todas las lecciones (cada una en una pestaña nueva); si el vigilante lo cerró,
    otro."""

    def __init__(self, playwright):
        self.playwright = playwright
        self.navegador = None
        self.contexto = None

    def pestana(self):
        if self.navegador is None or not self.navegador.is_connected():
            self.navegador = self.playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                                             args=OPCIONES_CHROMIUM, timeout=60_000)
            self.contexto = self.navegador.new_context(viewport=PANTALLA)
            self.contexto.set_default_timeout(TIEMPO_PLAYWRIGHT)
            self.contexto.set_default_navigation_timeout(TIEMPO_PLAYWRIGHT * 2)
        return self.contexto.new_page()

    def cerrar(self):
        if self.navegador is not None:
            with contextlib.suppress(Exception):
                self.navegador.close()


@pytest.fixture(scope="module")
def chromium(playwright_sync):
    lanzador = _Chromium(playwright_sync)
    yield lanzador
    lanzador.cerrar()


# --- Una lección abierta en JupyterLab o en Notebook 7 ----------------------------------------------------

# Lo que delata un widget mostrado crudo o roto.
CRUDO = re.compile(r"\w+\(children=|Error displaying widget|model not found|Failed to load model", re.I)

# Errores que la propia interfaz de Notebook 7.6 lanza al cargar, sin que el curso intervenga: el primero en
# cualquier página (también /tree con `jupyter notebook` a secas), el segundo si antes se abrió JupyterLab en el
# mismo servidor. Se toleran solo con ese texto y si vienen del código de Notebook (/static/notebook/).
RUIDO_NB7 = ("Cannot read properties of undefined (reading 'schema')",
             "Command 'filebrowser:open-path' not registered.")

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



def probar_leccion(pagina, url, leccion, interfaz, ejecutar, carpeta="notebooks"):
    """Abre la lección (la copia de `carpeta`) en `interfaz` y revisa lo guardado; con `ejecutar`, ejecuta lo que
    necesitan sus paneles (en Notebook 7, todo), revisa cada widget y hace con ellos lo que haría un estudiante
    (lecciones 01, 10 y 11). Devuelve la Visita, con la lección aún abierta en `pagina`."""
    visita = Visita(pagina, leccion, interfaz, carpeta=carpeta)
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
        return visita

    # 2. Ejecutado lo que necesitan sus paneles (en Notebook 7, todo): sin errores y cada widget a la vista.
    if interfaz == "lab":
        _ejecutar_para_los_paneles(visita, _pasos_para_los_paneles(leccion, _celdas_de_paneles(leccion)))
    else:
        visita.ejecutar_todo()
    estado = _evaluar(pagina, ESTADO_CELDAS)
    assert not estado["problemas"], f"{visita.nombre} tiene salidas de error:\n" + "\n".join(estado["problemas"])
    # Que los widgets terminen de dibujarse: tantos como salidas de widget, ninguno cargando y todos con alto (si a
    # los 10 s no, se mira lo que hay y las comprobaciones de abajo dicen qué falta).
    limite = time.monotonic() + 10
    while True:
        en_pantalla = _evaluar(pagina, WIDGETS_EN_PANTALLA)
        dibujados = len(en_pantalla) == estado["widgets"] and all(
            not w["cargando"] and w["alto"] > 10 for w in en_pantalla)
        if dibujados or time.monotonic() > limite:
            break
        pagina.wait_for_timeout(200)
    pagina.wait_for_timeout(300)  # el último repintado antes de las capturas
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
    return visita


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
        visita.pagina.wait_for_timeout(250)


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
