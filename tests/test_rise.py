"""Cada lección en JupyterLab y presentada con RISE, como la prepara y la presenta un docente: JupyterLab en 127.0.0.1
y Chromium sin cabeza (playwright) a 1280 × 720, con las ayudas de tests/navegador_jupyter.py. Las copias de las
lecciones viven en una carpeta temporal: nunca se tocan las del repositorio.

1. JupyterLab, cada lección con paneles (las seis que los guardan): se abre SIN ejecutar, en un espacio de trabajo
   nuevo (`?reset`: sin pestañas ni kernels de otras lecciones), como la abre un estudiante: las salidas guardadas se
   ven, ninguna es un error y ningún widget muestra su representación cruda (`Panel(children=…`) sino una línea en
   castellano. Las otras seis no tienen nada que ejecutar antes de presentarlas: las pinta la presentación (RISE usa
   los componentes de JupyterLab) y tests/test_cuadernos.py comprueba sin navegador que no guardan errores.
2. Se ejecuta lo que necesitan sus paneles (sus celdas hasta el último panel; de la lección 10, sin sus
   entrenamientos: ver SIN_ENTRENAR en tests/navegador_jupyter.py) y la prueba falla si alguna salida es un error o
   texto de error (stderr), o si un widget no se muestra. Lo que viene después del último panel lo ejecuta nbval con
   la lección entera. En la lección 01 un estudiante usa la actividad; en la 10, el generador; en la 11, el
   visualizador. Después se marca de confianza y se guarda (como Alt+R).
3. RISE, cada lección (con el kernel de JupyterLab, si tiene paneles): se espera a que termine de dibujarse y se
   recorren con Espacio todas sus diapositivas y fragmentos, midiendo cada paso: nada se sale a lo ancho, nada queda
   cortado donde no hay desplazamiento y cada panel se dibuja como widget. En la lección EN_DIRECTO, además, se
   ejecuta una celda en la presentación.
4. Al terminar se cierran los kernels de la lección.

Notebook 7 está en tests/test_navegador.py (otro archivo, para que pytest-xdist lo lleve a otro proceso). Un solo
Chromium y un solo contexto para todas las lecciones (su caché evita bajar y compilar otra vez el código de
JupyterLab y RISE), cada lección en una pestaña nueva. Ninguna espera es ilimitada: cada `evaluate` compite en la
página contra un plazo, playwright tiene plazos propios y un vigilante cierra Chromium si algo se queda colgado;
toda espera agotada falla con una captura y lo que mostraba la página. Las capturas quedan en resultados/navegador/.
"""

import contextlib
import json
import re
import time

import navegador_jupyter
import pytest
from navegador_jupyter import (
    CAPTURAS,
    LECCIONES,
    PRESENTAR,
    TIEMPO_ABRIR,
    _celdas_de_paneles,
    _cerrar_kernels,
    _evaluar,
    _pasos_para_los_paneles,
    _plazo_de_ejecucion,
    _texto_visible,
    _vigilante,
    probar_leccion,
)

# Los accesorios de pytest de navegador_jupyter (de alcance «module»: un JupyterLab para este archivo).
jupyterlab = navegador_jupyter.jupyterlab
playwright_sync = navegador_jupyter.playwright_sync
chromium = navegador_jupyter.chromium



# --- Cada lección presentada con RISE: ninguna diapositiva se sale y los paneles se ven ---------------------
#
# Así presenta un docente: ejecuta en JupyterLab lo que necesitan los paneles, pulsa Alt+R (RISE guarda el cuaderno
# y lo abre como presentación, con el mismo kernel) y avanza con Espacio por cada diapositiva y fragmento. Los
# cuadernos se guardan sin el estado de los widgets (metadata.widgets): sin kernel, RISE, como JupyterLab, muestra
# el resumen en texto de cada panel; por eso se ejecuta antes lo necesario, y solo eso (de la lección 10, sin sus
# entrenamientos: ver SIN_ENTRENAR en tests/navegador_jupyter.py).
# RISE lee el cuaderno del disco y solo dibuja los widgets de un cuaderno de confianza: lo es si se ejecutó entero
# antes de guardarlo (lo que pide DOCENTES.md) o si se marca «Trust Notebook»; aquí, que se ejecuta solo una parte,
# se marca.

TIEMPO_DIAPOSITIVA = 5  # segundos para que la presentación cambie de diapositiva tras pulsar Espacio
TIEMPO_ULTIMA = 0.5  # los mismos, en la diapositiva que la página da por última (ni diapositiva ni fragmento detrás)
TIEMPO_RECORRER = 240  # segundos para recorrer (y medir) una presentación entera
TIEMPO_DIBUJO = 60  # segundos para que la presentación abierta termine de dibujar figuras y paneles
HOLGURA = 2  # píxeles: lo que se sale menos que esto es redondeo del navegador, no se ve

# Lo que muestra la diapositiva actual: qué se sale de ella, si hay que desplazarse y cómo se ven sus paneles.
# Salirse a lo ancho es (a) un elemento que pasa del borde izquierdo o derecho de la diapositiva sin que nada lo
# recorte, o (b) una caja con contenido más ancho que ella (lo que no cabe queda tapado o tras una barra de
# desplazamiento). Salirse a lo alto, con desplazamiento («scroll»: RISE lo pone a la diapositiva más alta que la
# pantalla), se informa; sin él, lo que pasa del borde inferior queda cortado y es un fallo.
MEDIR_DIAPOSITIVA = """(paneles) => {
  const seccion = document.querySelector(".reveal .slides section.present:not(.stack)");
  if (!seccion) return null;
  const marco = document.querySelector(".reveal .slides").getBoundingClientRect();
  const holgura = %HOLGURA%;
  const indice = (el) => { const c = el.closest(".jp-Cell"); return c ? Number(c.dataset.windowedListIndex) : null; };
  const clase = (el) => (el.getAttribute("class") || el.tagName).slice(0, 80);
  const anchas = [];
  let fondo = marco.top;
  for (const el of seccion.querySelectorAll("*")) {
    if (el.closest("aside.notes, .reveal-skip, .fragment:not(.visible)")) continue;  // no está a la vista
    const caja = el.getBoundingClientRect();
    if (caja.width === 0 || caja.height === 0) continue;
    fondo = Math.max(fondo, caja.bottom);
    const estilo = getComputedStyle(el);
    // La línea del código plegado se corta con «…» a propósito (notebooks/rise.css).
    if (["auto", "scroll", "hidden"].includes(estilo.overflowX) && el.scrollWidth > el.clientWidth + holgura &&
        !el.matches(".jp-PlaceholderText")) {
      anchas.push({celda: indice(el), que: "contenido más ancho que su caja", elemento: clase(el),
                   px: el.scrollWidth - el.clientWidth});
    }
    if (caja.right > marco.right + holgura || caja.left < marco.left - holgura) {
      let recortado = false;
      for (let a = el.parentElement; a && a !== seccion; a = a.parentElement) {
        if (getComputedStyle(a).overflowX !== "visible") { recortado = true; break; }
      }
      if (!recortado) anchas.push({celda: indice(el), que: "fuera de la diapositiva", elemento: clase(el),
                                   px: Math.round(Math.max(caja.right - marco.right, marco.left - caja.left))});
    }
  }
  const desplaza = ["scroll", "auto"].includes(getComputedStyle(seccion).overflowY);
  const vistos = [];
  for (const celda of seccion.querySelectorAll(".jp-Cell")) {
    const i = Number(celda.dataset.windowedListIndex);
    if (!paneles.includes(i)) continue;
    const salida = celda.querySelector(".jp-OutputArea-output");
    const texto = salida ? (salida.textContent || "").trim() : "";
    const vista = salida ? salida.querySelector(".jupyter-widgets, .widget-box, .lm-Widget > [class]") : null;
    const resumen = salida ? salida.querySelector("[data-mime-type='text/plain'], .jp-RenderedText") : null;
    vistos.push({celda: i, alto: salida ? Math.round(salida.getBoundingClientRect().height) : 0,
                 vista: Boolean(vista) && !resumen, resumen: Boolean(resumen),
                 error: /Error displaying widget|Loading widget|model not found/i.test(texto),
                 texto: texto.slice(0, 160)});
  }
  // Última: nada detrás de ella, ni fragmento oculto, ni diapositiva debajo (en su pila) ni a la derecha.
  const pila = seccion.parentElement.matches("section.stack") ? seccion.parentElement : seccion;
  const otra = (el) => { for (let s = el.nextElementSibling; s; s = s.nextElementSibling) if (s.matches("section"))
    return true; return false; };
  const ultima = !seccion.querySelector(".fragment:not(.visible)") && !(pila !== seccion && otra(seccion)) &&
    !otra(pila);
  return {id: seccion.id, fragmentos: seccion.querySelectorAll(".fragment.visible").length, anchas: anchas.slice(0, 5),
          ultima,
          desplaza, alto: seccion.scrollHeight, visible: seccion.clientHeight,
          cortada: desplaza ? 0 : Math.round(fondo - marco.bottom), paneles: vistos};
}""".replace("%HOLGURA%", str(HOLGURA))

# Lo que aún se dibuja en la presentación: figuras sin cargar, paneles que aún son su resumen en texto (el widget
# llega del kernel) y una firma (texto, figuras, fórmulas, paneles) que deja de cambiar cuando todo está dibujado.
DIBUJO = """(paneles) => {
  const diapositivas = document.querySelector(".reveal .slides");
  const imagenes = Array.from(diapositivas.querySelectorAll("img"));
  let dibujados = 0;
  for (const celda of diapositivas.querySelectorAll(".jp-Cell")) {
    if (!paneles.includes(Number(celda.dataset.windowedListIndex))) continue;
    const salida = celda.querySelector(".jp-OutputArea-output");
    if (salida && salida.querySelector(".jupyter-widgets, .widget-box, .lm-Widget > [class]") &&
        !salida.querySelector("[data-mime-type='text/plain'], .jp-RenderedText")) dibujados += 1;
  }
  const pendientes = imagenes.filter((i) => !i.complete).length;
  const firma = [diapositivas.textContent.length, imagenes.length, pendientes,
                 diapositivas.querySelectorAll("mjx-container").length, dibujados].join(" ");
  return {pendientes, dibujados, firma};
}"""

# Recorre la presentación dentro de la página, paso a paso: mide la diapositiva (MEDIR_DIAPOSITIVA) y pulsa Espacio
# (keydown y keyup en el elemento con el foco, lo que atiende reveal.js). reveal.js cambia de diapositiva, o muestra el
# fragmento siguiente, al atender la tecla: la medida siguiente ya es de la diapositiva nueva. Que Espacio ya no
# avance es lo que hace última a una diapositiva: se espera TIEMPO_DIAPOSITIVA, o TIEMPO_ULTIMA si la página dice que
# no queda nada detrás (ni diapositiva ni fragmento oculto); si aun así avanza, el recorrido sigue.
RECORRER = """async ([paneles, plazo, plazoUltima]) => {
  const medir = %MEDIR%;
  const espera = (ms) => new Promise((listo) => setTimeout(listo, ms));
  const clave = (m) => `${m.id} con ${m.fragmentos} fragmentos a la vista`;
  const medidas = [];
  const vistos = new Set();
  let medida = medir(paneles);
  while (true) {
    if (!medida) throw new Error("La presentación no muestra ninguna diapositiva.");
    if (vistos.has(clave(medida))) throw new Error(`Espacio volvió a una diapositiva ya vista: ${clave(medida)}`);
    vistos.add(clave(medida));
    medidas.push(medida);
    const foco = document.activeElement || document.body;
    for (const tipo of ["keydown", "keyup"]) {
      foco.dispatchEvent(new KeyboardEvent(tipo, {key: " ", code: "Space", keyCode: 32, which: 32, bubbles: true,
                                                  cancelable: true}));
    }
    const limite = performance.now() + (medida.ultima ? plazoUltima : plazo);
    let nueva = medir(paneles);
    while (!nueva || clave(nueva) === clave(medida)) {
      if (performance.now() > limite) return medidas;  // Espacio ya no avanza: era la última diapositiva
      await espera(50);
      nueva = medir(paneles);
    }
    medida = nueva;
  }
}""".replace("%MEDIR%", MEDIR_DIAPOSITIVA)

SECCIONES = """() => Array.from(document.querySelectorAll(".reveal .slides section[id^='slide-']")).map((s) => s.id)"""

# Guarda el cuaderno (como Alt+R antes de presentar). La promesa de «docmanager:save» puede no resolverse tras
# «Trust Notebook» aunque el archivo ya esté guardado: se espera a que el servidor devuelva la fecha nueva.
GUARDAR = """async () => {
  const contexto = window.jupyterapp.shell.currentWidget.context;
  const antes = contexto.contentsModel ? contexto.contentsModel.last_modified : null;
  window.jupyterapp.commands.execute("docmanager:save");
  while (contexto.model.dirty || !contexto.contentsModel || contexto.contentsModel.last_modified === antes) {
    await new Promise((listo) => setTimeout(listo, 200));
  }
  return contexto.contentsModel.last_modified;
}"""
CONFIAR = """() => { window.jupyterapp.commands.execute("notebook:trust"); return true; }"""  # abre un diálogo


def _recorrer_presentacion(pagina, paneles):
    """Recorre la presentación con Espacio de la primera diapositiva a la última; devuelve lo medido en cada paso."""
    plazos = [TIEMPO_DIAPOSITIVA * 1000, TIEMPO_ULTIMA * 1000]
    return _evaluar(pagina, RECORRER, [paneles, *plazos], tiempo=TIEMPO_RECORRER)


def _esperar_dibujo(pagina, paneles):
    """Espera (con plazo) a que la presentación termine de dibujarse: figuras cargadas, cada panel como widget y nada
    que cambie en tres lecturas seguidas. Devuelve los segundos que tardó, o None si se agotó el plazo (entonces se
    mide igual: lo que no se dibujó lo dicen las medidas)."""
    inicio = time.monotonic()
    firmas = []
    while time.monotonic() - inicio < TIEMPO_DIBUJO:
        estado = _evaluar(pagina, DIBUJO, paneles)
        firmas = [*firmas[-2:], estado["firma"]]
        if not estado["pendientes"] and estado["dibujados"] == len(paneles) and len(firmas) == 3 and \
                len(set(firmas)) == 1:
            return time.monotonic() - inicio
        pagina.wait_for_timeout(150)
    return None



def _abrir_presentacion(pagina, url, leccion):
    """Abre la copia guardada de la lección con RISE y espera a que muestre la primera diapositiva con celdas."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    pagina.goto(f"{url}rise/{PRESENTAR}/{leccion.name}", wait_until="domcontentloaded")
    try:
        pagina.wait_for_function("""() => Boolean(document.querySelector(
            ".reveal .slides section.present .jp-Cell"))""", timeout=TIEMPO_ABRIR * 1000, polling=100)
    except PlaywrightTimeoutError:
        pagina.screenshot(path=str(CAPTURAS / f"rise_{leccion.stem}_no_abre.png"))
        pytest.fail(f"RISE no mostró {leccion.name} en {TIEMPO_ABRIR} s.")


# Un docente ejecuta en directo una celda de la presentación, con el kernel en el que preparó la lección antes de
# clase (una lección con paneles: ese kernel ya tiene lo ejecutado en JupyterLab).
EN_DIRECTO = "04_atencion_multicabeza.ipynb"


def _celda_en_directo(pagina, url, leccion):
    """Vuelve a abrir la presentación (empieza en la portada), avanza hasta la primera diapositiva con una celda de
    código y la ejecuta con Ctrl+Enter: su número de ejecución cambia y no da ningún error."""
    fallos_js = []
    pagina.on("pageerror", lambda error: fallos_js.append(str(error)))
    _abrir_presentacion(pagina, url, leccion)
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
            pytest.fail(f"La celda de la diapositiva no se ejecutó en {TIEMPO_ABRIR} s: «{_texto_visible(numero)}».")
        pagina.wait_for_timeout(300)
    pagina.wait_for_timeout(500)
    pagina.screenshot(path=str(CAPTURAS / "diapositivas_celda_ejecutada.png"))
    errores = pagina.locator(".reveal section.present .jp-CodeCell [data-mime-type='application/vnd.jupyter.stderr']")
    assert errores.count() == 0, (
        f"La celda ejecutada en la diapositiva dio un error: {_texto_visible(errores.first)[:300]}")
    assert not fallos_js, "Errores de JavaScript al ejecutar en la presentación:\n" + "\n".join(fallos_js)




@pytest.mark.parametrize("leccion", LECCIONES, ids=lambda ruta: f"lab-{ruta.stem}")
def test_cada_leccion_en_jupyterlab_y_con_rise(jupyterlab, chromium, leccion):
    """Cada lección con paneles, en JupyterLab (lo guardado se ve; lo que necesitan sus paneles se ejecuta sin errores
    y cada widget se dibuja y responde); y cada lección, con ese mismo kernel si lo hay, como presentación de RISE a
    1280 × 720: se recorren todas sus diapositivas, ninguna se sale a lo ancho (ni a lo alto donde no hay
    desplazamiento) y cada panel se dibuja como widget, no como su resumen."""
    CAPTURAS.mkdir(parents=True, exist_ok=True)
    paneles = _celdas_de_paneles(leccion)
    pasos = _pasos_para_los_paneles(leccion, paneles)
    plazo = TIEMPO_ABRIR * 4 + (_plazo_de_ejecucion(leccion) + 240 if pasos else 60) + 300
    inicio = time.monotonic()
    with _vigilante(plazo, f"{leccion.name} en JupyterLab y con RISE"):
        pagina = chromium.pestana()
        try:
            # Antes de clase, en JupyterLab: lo que necesitan los paneles (y lo que haría un estudiante con ellos).
            # Sin paneles no hay nada que ejecutar antes: la presentación pinta la lección con los mismos componentes
            # de JupyterLab (que lo guardado no tiene errores lo comprueba tests/test_cuadernos.py sin navegador).
            if pasos:
                probar_leccion(pagina, jupyterlab, leccion, "lab", True, carpeta=PRESENTAR)
                # confiar y guardar (como hace Alt+R)
                _evaluar(pagina, CONFIAR)
                pagina.locator(".jp-Dialog .jp-mod-accept").click()  # «Trust»
                pagina.locator(".jp-Dialog").wait_for(state="detached")
                _evaluar(pagina, GUARDAR)
            preparada = time.monotonic()
            fallos_js = []
            pagina.on("pageerror", lambda error: fallos_js.append(str(error)))
            _abrir_presentacion(pagina, jupyterlab, leccion)
            dibujo = _esperar_dibujo(pagina, paneles)
            secciones = _evaluar(pagina, SECCIONES)
            dibujada = time.monotonic()
            medidas = _recorrer_presentacion(pagina, paneles)
            if leccion.name == EN_DIRECTO:
                _celda_en_directo(pagina, jupyterlab, leccion)
        finally:
            with contextlib.suppress(Exception):
                pagina.close()
            _cerrar_kernels(jupyterlab)
    fin = time.monotonic()
    dibujado = f"sin terminar en {TIEMPO_DIBUJO} s" if dibujo is None else f"{dibujo:.1f} s"
    recorridas = {m["id"] for m in medidas}
    anchas = {m["id"]: m["anchas"] for m in medidas if m["anchas"]}
    cortadas = {m["id"]: m["cortada"] for m in medidas if m["cortada"] > HOLGURA}
    desplazan = sorted({m["id"] for m in medidas if m["desplaza"] and m["alto"] > m["visible"] + HOLGURA})
    vistos = {}
    for medida in medidas:
        for panel in medida["paneles"]:
            vistos.setdefault(panel["celda"], []).append(panel)
    print(f"\n{leccion.name} con RISE: {len(recorridas)} de {len(secciones)} diapositivas en {len(medidas)} pasos; "
          f"a lo ancho se salen {len(anchas)}, cortadas {len(cortadas)}, con desplazamiento {len(desplazan)} "
          f"{desplazan}; paneles {len(paneles)}, dibujados "
          f"{sum(any(p['vista'] for p in vistos.get(i, [])) for i in paneles)}; JupyterLab {preparada - inicio:.0f} s, "
          f"presentar {dibujada - preparada:.0f} s (esperar el dibujo: {dibujado}), recorrer {fin - dibujada:.1f} s")
    sin_ajustes = "" if "rise" in json.loads(leccion.read_text(encoding="utf-8"))["metadata"] else (
        " (la lección no tiene metadata.rise: `python3 tareas.py diapositivas --marcar` se los pone)")
    assert recorridas == set(secciones), (
        f"{leccion.name}: Espacio no pasó por las diapositivas {sorted(set(secciones) - recorridas)}")
    assert not anchas, f"{leccion.name}: {len(anchas)} diapositivas se salen a lo ancho{sin_ajustes}:\n" + "\n".join(
        f"  {id_} (celdas {sorted({p['celda'] for p in problemas}, key=str)}): {problemas[0]}"
        for id_, problemas in list(anchas.items())[:12])
    assert not cortadas, f"{leccion.name}: diapositivas cortadas por abajo, sin desplazamiento{sin_ajustes}: {cortadas}"
    for i in paneles:
        vista = vistos.get(i)
        assert vista, f"{leccion.name}: ninguna diapositiva mostró el panel de la celda {i}"
        assert all(p["vista"] and not p["error"] and p["alto"] > 10 for p in vista), (
            f"{leccion.name}: el panel de la celda {i} no se dibuja en la presentación: {vista[-1]}")
    assert not fallos_js, f"{leccion.name}: errores de JavaScript en la presentación:\n" + "\n".join(fallos_js)
