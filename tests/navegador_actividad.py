"""Lección 01 en el navegador: un estudiante usa la actividad «¿A quién mira cada palabra?».

`tests/test_navegador.py` llama a `estudiante_en_la_actividad` con la lección ya ejecutada. Todas las esperas
tienen plazo: se sondea lo visible cada poco tiempo (ningún `evaluate` espera promesas) y cada acción de
playwright lleva su propio plazo. Una espera agotada falla con una captura en `capturas` y lo que se veía.
"""

import time

import pytest

PLAZO_ACCION = 15_000  # milisegundos de cada clic, movimiento o tecla de playwright
PLAZO_ESPERA = 30.0  # segundos para que se vea un gesto (o, al reiniciar, la respuesta del kernel)

LEER = """(raiz) => {
  const fijada = raiz.querySelector('.aqm-palabra.aqm-fijada');
  const punta = raiz.querySelector('.aqm-punta-consulta');
  const coordenadas = raiz.querySelector('.aqm-coordenadas');
  return {
    porcentajes: Array.from(raiz.querySelectorAll('.aqm-barra .aqm-porcentaje')).map((s) =>
      s.textContent.includes('%') ? parseInt(s.textContent) : null),
    frase: raiz.querySelector('.aqm-resumen').textContent,
    elegida: Number(raiz.querySelector('.aqm-palabra.aqm-elegida').dataset.indice),
    fijada: fijada ? Number(fijada.dataset.indice) : null,
    arcos: Array.from(raiz.querySelectorAll('.aqm-arco')).map((a) =>
      [Number(a.dataset.indice), Number(a.getAttribute('stroke-width'))]),
    causal: raiz.querySelector('.aqm-causal').checked,
    consulta: punta ? [Number(punta.getAttribute('cx')), Number(punta.getAttribute('cy'))] : null,
    coordenadas: coordenadas ? coordenadas.textContent : '',
    foco: document.activeElement && raiz.contains(document.activeElement)
      ? (document.activeElement === raiz ? 'actividad' : (document.activeElement.getAttribute('data-asa')
         || document.activeElement.getAttribute('data-indice')))
      : null,
    vivo: raiz.querySelector('.aqm-resumen').getAttribute('aria-live'),
    titulo: raiz.querySelector('.aqm-titulo-barras').textContent,
  };
}"""

# El ratón entra en la palabra j y, en la misma tarea (sin dar tiempo a ninguna respuesta del kernel), se lee.
ENTRAR_Y_LEER = """(raiz, j) => {
  const palabra = raiz.querySelector(`.aqm-palabra[data-indice="${j}"]`);
  palabra.dispatchEvent(new PointerEvent('pointerenter', { pointerType: 'mouse' }));
  return (""" + LEER + """)(raiz);
}"""


class Estudiante:
    """Lo que hace y ve un estudiante en la actividad; cada espera con plazo y captura si se agota."""

    def __init__(self, pagina, actividad, capturas, prefijo):
        self.pagina = pagina
        self.actividad = actividad
        self.capturas = capturas
        self.prefijo = prefijo

    def leer(self):
        """Lo visible: porcentajes de las barras (None si oculta), frase, elegida, fijada, arcos, coordenadas…"""
        return self.actividad.evaluate(LEER)

    def captura(self, nombre):
        self.actividad.screenshot(path=str(self.capturas / f"{self.prefijo}01_actividad_{nombre}.png"),
                                  timeout=PLAZO_ACCION)

    def fallar(self, mensaje):
        try:
            self.pagina.screenshot(path=str(self.capturas / f"{self.prefijo}01_actividad_fallo.png"),
                                   timeout=PLAZO_ACCION)
        finally:
            pytest.fail(mensaje)

    def esperar(self, condicion, descripcion, tiempo=PLAZO_ESPERA):
        """Espera a que lo visible cumpla `condicion` (con plazo); devuelve lo visible."""
        limite = time.monotonic() + tiempo
        while True:
            visto = self.leer()
            if condicion(visto):
                return visto
            if time.monotonic() > limite:
                self.fallar(f"La actividad no llegó a: {descripcion} (en {tiempo:.0f} s). Se ve: {visto}")
            self.pagina.wait_for_timeout(100)

    def esperar_texto(self, elemento, fragmento, descripcion, tiempo=PLAZO_ESPERA):
        """Espera a que el texto de `elemento` contenga `fragmento` (llega del kernel); si no, falla con captura."""
        limite = time.monotonic() + tiempo
        while True:
            try:
                texto = elemento.inner_text(timeout=2000)
            except Exception:
                texto = ""
            if fragmento in texto:
                return texto
            if time.monotonic() > limite:
                self.fallar(f"La actividad no llegó a: {descripcion} (en {tiempo:.0f} s). Se ve: «{texto}»")
            self.pagina.wait_for_timeout(100)

    def sigue(self, condicion, descripcion, tiempo=1.5):
        """Comprueba que lo visible cumple `condicion` durante `tiempo` segundos (que nada cambia de más)."""
        limite = time.monotonic() + tiempo
        while time.monotonic() < limite:
            visto = self.leer()
            if not condicion(visto):
                self.fallar(f"Dejó de cumplirse: {descripcion}. Se ve: {visto}")
            self.pagina.wait_for_timeout(150)
        return self.leer()

    def quieto(self, tiempo=10.0):
        """Espera a que lo visible deje de cambiar (con plazo)."""
        limite = time.monotonic() + tiempo
        antes = self.leer()
        while True:
            self.pagina.wait_for_timeout(400)
            ahora = self.leer()
            if ahora == antes or time.monotonic() > limite:
                return ahora
            antes = ahora

    def caja(self, elemento, tiempo=10.0):
        """Caja en pantalla de un elemento del plano, que se redibuja con cada respuesta: reintenta si se soltó."""
        limite = time.monotonic() + tiempo
        while True:
            caja = elemento.bounding_box(timeout=PLAZO_ACCION)
            if caja is not None:
                return caja
            if time.monotonic() > limite:
                self.fallar(f"No se encuentra en pantalla: {elemento}")
            time.sleep(0.1)

    def centro(self, elemento):
        elemento.scroll_into_view_if_needed(timeout=PLAZO_ACCION)  # un clic fuera de la ventana no llega
        caja = self.caja(elemento)
        return caja["x"] + caja["width"] / 2, caja["y"] + caja["height"] / 2

    def punto_del_plano(self, fraccion_x, fraccion_y):
        plano = self.caja(self.actividad.locator(".aqm-fondo"))
        return plano["x"] + plano["width"] * fraccion_x, plano["y"] + plano["height"] * fraccion_y

    def arrastrar_desde(self, x, y, fraccion_x, fraccion_y, antes, descripcion):
        """Arrastra desde el punto (x, y) de la pantalla hasta un punto del plano y espera barras nuevas."""
        self.pagina.mouse.move(x, y)
        self.pagina.mouse.down()
        self.pagina.mouse.move(*self.punto_del_plano(fraccion_x, fraccion_y), steps=12)
        self.pagina.mouse.up()
        self.esperar(lambda v: v["porcentajes"] != antes and _suma(v) == 100, descripcion)
        visto = self.quieto()
        assert _suma(visto) == 100
        return visto

    def palabra(self, j):
        return self.actividad.locator(f'.aqm-palabra[data-indice="{j}"]')

    def reiniciar(self, inicial):
        self.actividad.locator(".aqm-reiniciar").click(timeout=PLAZO_ACCION)
        return self.esperar(lambda v: v["porcentajes"] == inicial["porcentajes"] and v["elegida"] == 6
                            and v["fijada"] is None and not v["causal"] and v["frase"] == inicial["resumen"],
                            "el estado inicial tras «Volver al inicio»")


def _porcentajes_visibles(datos):
    return [p if v else None for p, v in zip(datos["porcentajes"], datos["visibles"])]


def _suma(visto):
    return sum(p for p in visto["porcentajes"] if p is not None)


def estudiante_en_la_actividad(pagina, actividad, capturas, prefijo=""):
    from utilidades.actividades import CLAVES_INICIALES, CONSULTAS_INICIALES, estado

    yo = Estudiante(pagina, actividad, capturas, prefijo)
    actividad.scroll_into_view_if_needed(timeout=PLAZO_ACCION)
    inicial = estado(CONSULTAS_INICIALES, CLAVES_INICIALES, 6)
    visto = yo.esperar(lambda v: v["porcentajes"] == inicial["porcentajes"], "el estado inicial")
    assert visto["frase"] == "La palabra «banco» mira sobre todo a «plata» (61 %) y después a sí misma (28 %)"
    assert visto["porcentajes"][3] == 61 and visto["porcentajes"][6] == 28 and _suma(visto) == 100
    assert visto["vivo"] == "polite", "El resumen debe anunciarse (aria-live) al cambiar."
    assert visto["coordenadas"] == "consulta de «banco»: (1.0, 1.7)"
    yo.captura("1_inicio")

    # Sin confundir asas: la punta de la consulta de «banco» está a ~20 px de la clave de «plata». Agarrar el
    # centro de la clave mueve la clave, nunca la consulta.
    consulta_antes = visto["consulta"]
    x, y = yo.centro(actividad.locator('.aqm-clave[data-indice="3"] .aqm-punto'))
    visto = yo.arrastrar_desde(x, y, 0.97, 0.03, visto["porcentajes"],
                               "barras nuevas tras arrastrar la clave de «plata»")
    assert visto["coordenadas"].startswith("clave de «plata»"), visto["coordenadas"]
    assert visto["consulta"] == consulta_antes, "Agarrar la clave de «plata» no debe mover la consulta de «banco»."
    assert visto["porcentajes"][3] > 61, "Alejar la clave de «plata» hacia la consulta debe darle más peso."
    yo.reiniciar(inicial)

    # Pasar el ratón previsualiza mientras nada está fijado, al momento: la página calcula los pesos sin esperar
    # al kernel. Lo que se lee en la misma tarea de JavaScript que la entrada del ratón (el kernel no ha podido
    # contestar aún) ya son los números de Python para «la», con su título.
    visto = actividad.evaluate(ENTRAR_Y_LEER, 2)
    de_la = estado(CONSULTAS_INICIALES, CLAVES_INICIALES, 2)
    assert visto["elegida"] == 2 and visto["fijada"] is None, visto
    assert visto["titulo"] == "Pesos de «la» (suman 100 %)", visto
    assert visto["porcentajes"] == de_la["porcentajes"] and visto["frase"] == de_la["resumen"], (visto, de_la)
    yo.palabra(2).hover(timeout=PLAZO_ACCION)
    # Al salir de la frase vuelve la de antes.
    pagina.mouse.move(*yo.punto_del_plano(0.5, 0.5), steps=8)
    yo.esperar(lambda v: v["elegida"] == 6 and v["frase"] == inicial["resumen"], "«banco» otra vez al salir")

    # Un clic fija «la»: pasar después por otras palabras, camino del plano, ya no cambia nada.
    yo.palabra(2).click(timeout=PLAZO_ACCION)
    yo.esperar(lambda v: v["elegida"] == 2 and v["fijada"] == 2, "«la» fijada con un clic")
    yo.palabra(4).hover(timeout=PLAZO_ACCION)
    yo.sigue(lambda v: v["elegida"] == 2, "«la» sigue elegida con el ratón sobre «en»")
    pagina.mouse.move(*yo.punto_del_plano(0.5, 0.5), steps=8)
    yo.sigue(lambda v: v["elegida"] == 2 and v["fijada"] == 2, "«la» sigue fijada al llegar al plano")
    yo.captura("2_fijada")

    # Otro clic en «la» la suelta; uno más la vuelve a fijar (y le da el foco).
    yo.palabra(2).click(timeout=PLAZO_ACCION)
    yo.esperar(lambda v: v["elegida"] == 2 and v["fijada"] is None, "«la» suelta con un segundo clic")
    yo.palabra(2).click(timeout=PLAZO_ACCION)
    yo.esperar(lambda v: v["fijada"] == 2, "«la» fijada otra vez")

    # Teclado: tras el clic, la flecha → elige y fija la palabra siguiente, «plata».
    pagina.wait_for_timeout(200)
    pagina.keyboard.press("ArrowRight")
    yo.esperar(lambda v: v["elegida"] == 3 and v["fijada"] == 3 and v["frase"].startswith("La palabra «plata»"),
               "«plata» con → (elegida y fijada)")

    # Solo con el teclado: Tab lleva a las palabras, que reciben el foco y se mueven con las flechas.
    yo.palabra(4).focus(timeout=PLAZO_ACCION)
    enfocada = yo.leer()["foco"] == "4"
    assert enfocada or prefijo, "En JupyterLab una palabra debe poder recibir el foco con el teclado."
    if enfocada:  # (Notebook 7 puede quitarle el foco a un elemento SVG enseguida: allí vale con el clic)
        pagina.keyboard.press("ArrowLeft")
        yo.esperar(lambda v: v["elegida"] == 3 and v["fijada"] == 3, "← desde «en» lleva a «plata»")

    antes = yo.leer()["porcentajes"]
    x, y = yo.centro(actividad.locator('.aqm-clave[data-indice="6"] .aqm-punto'))
    pagina.mouse.click(x, y)  # agarrar sin mover: la clave no cambia, y las flechas pasan a moverla
    yo.esperar(lambda v: v["coordenadas"].startswith("clave de «banco»") and v["porcentajes"] == antes,
               "la clave de «banco» agarrada sin moverla")
    pagina.wait_for_timeout(200)
    for _ in range(5):
        pagina.keyboard.press("ArrowDown")
    claves = [list(k) for k in CLAVES_INICIALES]
    claves[6] = [1.9, -0.1]
    movida = estado(CONSULTAS_INICIALES, claves, 3)
    assert movida["porcentajes"] != antes
    visto = yo.esperar(lambda v: v["coordenadas"] == "clave de «banco»: (1.9, -0.1)"
                       and v["porcentajes"] == movida["porcentajes"], "la clave de «banco» movida con el teclado")
    assert visto["foco"] in ("actividad", "clave-6"), "El foco debe seguir en la actividad."
    yo.captura("3_teclado")
    yo.reiniciar(inicial)

    # «el», con y sin máscara causal.
    yo.palabra(5).click(timeout=PLAZO_ACCION)
    sin_mascara = estado(CONSULTAS_INICIALES, CLAVES_INICIALES, 5)
    visto = yo.esperar(lambda v: v["porcentajes"] == sin_mascara["porcentajes"], "«el» elegida")
    grueso = max(visto["arcos"], key=lambda a: a[1])[0]
    assert grueso == 6, f"Sin máscara, el arco más grueso de «el» debería ir a «banco», no a {grueso}."
    actividad.locator(".aqm-causal").check(timeout=PLAZO_ACCION)
    con_mascara = estado(CONSULTAS_INICIALES, CLAVES_INICIALES, 5, causal=True)
    visto = yo.esperar(lambda v: v["porcentajes"] == _porcentajes_visibles(con_mascara), "«el» con máscara causal")
    assert visto["causal"] and visto["porcentajes"][6] is None and _suma(visto) == 100
    assert all(i <= 5 for i, _ in visto["arcos"]), "Con la máscara no debe haber arcos hacia «banco»."
    grueso = max(visto["arcos"], key=lambda a: a[1])[0]
    assert grueso == max(range(6), key=lambda i: con_mascara["pesos"][i]) and grueso != 6
    assert visto["frase"] == con_mascara["resumen"]
    yo.captura("4_el_causal")

    # Arrastrar la flecha de la consulta de «el» hacia la clave de «Ana» (arriba a la izquierda).
    x, y = yo.centro(actividad.locator(".aqm-punta-consulta"))
    visto = yo.arrastrar_desde(x, y, 0.08, 0.2, visto["porcentajes"], "barras nuevas tras arrastrar la consulta")
    assert visto["coordenadas"].startswith("consulta de «el»"), visto["coordenadas"]
    assert max(range(7), key=lambda i: visto["porcentajes"][i] or 0) == 0, "La consulta hacia «Ana» debe mirarla."
    yo.captura("5_arrastre")

    # Temperatura al mínimo: todo el peso en una palabra.
    actividad.locator(".aqm-temperatura").fill("0", timeout=PLAZO_ACCION)
    visto = yo.esperar(lambda v: max(p or 0 for p in v["porcentajes"]) >= 99 and _suma(v) == 100, "T mínima")
    yo.esperar_texto(actividad.locator(".aqm-valor-t"), "0.10", "la temperatura 0.10 escrita")

    # Volver al inicio.
    visto = yo.reiniciar(inicial)
    assert not visto["causal"] and visto["frase"] == inicial["resumen"]
    yo.esperar_texto(actividad.locator(".aqm-valor-t"), "1.00", "la temperatura 1.00 tras reiniciar")
    yo.captura("6_reinicio")
