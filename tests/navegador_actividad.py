"""Lección 01 en el navegador: un estudiante usa la actividad «¿A quién mira cada palabra?».

`tests/test_navegador.py` llama a `estudiante_en_la_actividad` con la lección ya ejecutada. Todas las esperas
tienen plazo: se sondea lo visible cada poco tiempo (sin `evaluate` que espere promesas).
"""

import re
import time

import pytest


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


def estudiante_en_la_actividad(pagina, actividad, capturas, prefijo=""):
    from utilidades.actividades import CLAVES_INICIALES, CONSULTAS_INICIALES, estado

    actividad.scroll_into_view_if_needed()
    inicial = estado(CONSULTAS_INICIALES, CLAVES_INICIALES, 6)
    visto = _esperar(pagina, actividad, lambda v: v["porcentajes"] == inicial["porcentajes"], "el estado inicial")
    assert visto["frase"] == '"banco" mira sobre todo a "plata" (61 %) y después a sí misma (28 %)'
    assert visto["porcentajes"][3] == 61 and visto["porcentajes"][6] == 28 and _suma(visto) == 100
    actividad.screenshot(path=str(capturas / f"{prefijo}01_actividad_1_inicio.png"))

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
    actividad.screenshot(path=str(capturas / f"{prefijo}01_actividad_2_el_causal.png"))

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
    actividad.screenshot(path=str(capturas / f"{prefijo}01_actividad_3_arrastre.png"))

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
    actividad.screenshot(path=str(capturas / f"{prefijo}01_actividad_4_reinicio.png"))
