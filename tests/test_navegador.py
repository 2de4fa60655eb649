"""Cada lección en un navegador de verdad: JupyterLab en 127.0.0.1 y Chromium sin cabeza (playwright).

Para cada cuaderno notebooks/NN_*.ipynb (copiado a una carpeta temporal: nunca se tocan los del repositorio):
1. Se abre SIN ejecutar, en un espacio de trabajo nuevo (`?reset`: sin pestañas ni kernels de otras
   lecciones), como lo abre un estudiante: las salidas guardadas se ven, ninguna es un error y ningún widget
   muestra su representación cruda (`Panel(children=…`) sino una línea en castellano.
2. Si la lección tiene widgets, se ejecuta lo que necesitan (todas sus celdas hasta el último panel; de la
   lección 10, sin sus entrenamientos: ver SIN_ENTRENAR en tests/navegador_jupyter.py) y la prueba falla si alguna
   salida es un error o texto de error (stderr), o si un widget no se muestra. Lo que viene después del último
   panel lo ejecuta nbval con la lección entera. En la lección 01 un estudiante usa la actividad; en la 10, el
   generador; en la 11, el visualizador.
3. Al terminar se cierran los kernels de la lección.
Cada lección se abre también en la interfaz de Notebook 7 (prefijo de capturas nb7_); allí solo se ejecuta la
01 («ejecutar todo», como lo haría un estudiante), la de la actividad.

Un solo Chromium y un solo contexto para todas las lecciones (su caché evita bajar y compilar otra vez el código
de JupyterLab con cada una), cada lección en una pestaña nueva. Ninguna espera es ilimitada: cada `evaluate`
compite en la página contra un plazo, playwright tiene plazos propios y un vigilante cierra Chromium si algo se
queda colgado (la prueba siguiente abre otro); toda espera agotada falla con una captura y lo que mostraba la
página. Las capturas (1280 × 720, el tamaño de un proyector) quedan en resultados/navegador/.
"""

import contextlib
import json
import os
import re
import time
import urllib.request

import navegador_jupyter
import pytest
from navegador_jupyter import (
    CAPTURAS,
    ESTADO_CELDAS,
    INTERFACES,
    LECCIONES,
    PRESENTAR,
    TIEMPO_ABRIR,
    TIEMPO_PLAYWRIGHT,
    WIDGET,
    Visita,
    _celdas_de_paneles,
    _cerrar_kernels,
    _ejecutar_para_los_paneles,
    _evaluar,
    _pasos_para_los_paneles,
    _plazo_de_ejecucion,
    _vigilante,
)

import tareas
from herramientas.cuadernos import RAIZ

# Los accesorios de pytest de navegador_jupyter (de alcance «module»: un JupyterLab para este archivo).
jupyterlab = navegador_jupyter.jupyterlab
playwright_sync = navegador_jupyter.playwright_sync
chromium = navegador_jupyter.chromium

# Lo que delata un widget mostrado crudo o roto.
CRUDO = re.compile(r"\w+\(children=|Error displaying widget|model not found|Failed to load model", re.I)

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



@pytest.mark.parametrize(("leccion", "interfaz"), CASOS)
def test_leccion_en_el_navegador(jupyterlab, chromium, leccion, interfaz):
    CAPTURAS.mkdir(parents=True, exist_ok=True)
    ejecutar = _tiene_widgets(leccion) and (interfaz == "lab" or leccion.name.startswith("01_"))
    plazo_total = TIEMPO_ABRIR * 2 + (_plazo_de_ejecucion(leccion) + 240 if ejecutar else 60)
    with _vigilante(plazo_total, f"{leccion.name} ({interfaz})"):
        pagina = chromium.pestana()
        try:
            _probar_leccion(pagina, jupyterlab, leccion, interfaz, ejecutar)
        finally:
            with contextlib.suppress(Exception):
                pagina.close()
            _cerrar_kernels(jupyterlab)


def _probar_leccion(pagina, url, leccion, interfaz, ejecutar):
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

    # 2. Ejecutado lo que necesitan sus paneles (en Notebook 7, todo): sin errores y cada widget a la vista.
    if interfaz == "lab":
        _ejecutar_para_los_paneles(visita, _pasos_para_los_paneles(leccion, _celdas_de_paneles(leccion)))
    else:
        visita.ejecutar_todo()
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


def test_una_leccion_se_presenta_con_celdas_vivas(jupyterlab, chromium):
    """Como un docente: ejecuta la lección antes de clase, la abre como presentación (RISE, mismo kernel), avanza
    de diapositiva y ejecuta en directo una celda de código, sin errores."""
    CAPTURAS.mkdir(parents=True, exist_ok=True)
    with _vigilante(TIEMPO_ABRIR * 5, f"diapositivas de {PRESENTADA}"):
        pagina = chromium.pestana()
        try:
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
            # Sin filtro: el error «@jupyterlab/console» de RISE 0.43 con los widgets ya no sale (herramientas/jupyter).
            assert not fallos_js, "Errores de JavaScript en la presentación:\n" + "\n".join(fallos_js)
        finally:
            with contextlib.suppress(Exception):
                pagina.close()
            _cerrar_kernels(jupyterlab)


# --- La extensión que lleva los paneles a RISE, en el Jupyter de quien estudia y en el de las pruebas --------

EXTENSION_RISE = tareas.CARPETA_JUPYTER / "labextensions" / "curso-widgets-en-rise"


def test_abrir_pone_la_extension_de_los_paneles_en_jupyter_path(monkeypatch):
    """`tareas.py abrir` arranca JupyterLab con herramientas/jupyter en JUPYTER_PATH (delante del que hubiera), y ahí
    está la extensión que JupyterLab carga: su package.json apunta a un remoteEntry.js que existe."""
    monkeypatch.setenv("JUPYTER_PATH", "/otra/carpeta")
    arrancado = {}

    def vigilar(orden, entorno):
        arrancado.update(orden=orden, entorno=entorno)
        return 0, []

    monkeypatch.setattr(tareas, "_ejecutar_vigilando", vigilar)
    assert tareas.abrir([]) == 0
    assert arrancado["orden"][1:4] == ["-m", "jupyter", "lab"]
    rutas = arrancado["entorno"]["JUPYTER_PATH"].split(os.pathsep)
    assert rutas == [str(tareas.CARPETA_JUPYTER), "/otra/carpeta"]
    paquete = json.loads((EXTENSION_RISE / "package.json").read_text(encoding="utf-8"))
    entrada = EXTENSION_RISE / paquete["jupyterlab"]["_build"]["load"]
    assert entrada.is_file() and paquete["name"] in entrada.read_text(encoding="utf-8")


def test_el_jupyterlab_de_las_pruebas_ofrece_la_extension(jupyterlab):
    """El servidor de estas pruebas anuncia la extensión a JupyterLab y a RISE (en la configuración de la página)."""
    for pagina in ("lab", f"rise/{PRESENTAR}/{LECCIONES[0].name}"):
        with urllib.request.urlopen(jupyterlab + pagina, timeout=30) as respuesta:
            assert "curso-widgets-en-rise" in respuesta.read().decode("utf-8"), f"/{pagina} no carga la extensión"
