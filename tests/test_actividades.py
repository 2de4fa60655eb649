"""Pruebas de la actividad de la lección 01: la lógica (pesos, máscara, temperatura, porcentajes, frase) y el widget
manejado desde Python (fijando valores y leyendo resultados, como haría el navegador)."""

import math

import numpy as np
import pytest

from utilidades.actividades import (
    CLAVES_INICIALES,
    CONSULTAS_INICIALES,
    LIMITE_PLANO,
    PALABRAS,
    T_MAXIMA,
    T_MINIMA,
    AQuienMira,
    estado,
    pesos_de_la_palabra,
    porcentajes_redondeados,
    resumen,
)

BANCO, PLATA, EL, ANA = 6, 3, 5, 0


def test_estado_inicial_banco_mira_a_plata_61_y_a_si_misma_28():
    datos = estado(CONSULTAS_INICIALES, CLAVES_INICIALES, BANCO)
    assert datos["porcentajes"][PLATA] == 61
    assert datos["porcentajes"][BANCO] == 28
    assert round(100 * datos["pesos"][PLATA]) == 61 and round(100 * datos["pesos"][BANCO]) == 28
    assert datos["resumen"] == '«banco» mira sobre todo a «plata» (61 %) y después a sí misma (28 %)'


def test_pesos_son_el_softmax_de_q_por_k_entre_raiz_de_2_por_T():
    q = np.array(CONSULTAS_INICIALES[2])
    K = np.array(CLAVES_INICIALES)
    for T in (0.5, 1.0, 3.0):
        puntajes = K @ q / (math.sqrt(2) * T)
        esperado = np.exp(puntajes) / np.exp(puntajes).sum()
        np.testing.assert_allclose(pesos_de_la_palabra(CONSULTAS_INICIALES, CLAVES_INICIALES, 2, T), esperado,
                                   rtol=1e-12)


def test_equivale_a_la_atencion_de_pytorch_con_mascara_causal():
    torch = pytest.importorskip("torch")
    Q = torch.tensor(CONSULTAS_INICIALES, dtype=torch.float64)
    K = torch.tensor(CLAVES_INICIALES, dtype=torch.float64)
    esperado = torch.nn.functional.scaled_dot_product_attention(
        Q[None], K[None], torch.eye(7, dtype=torch.float64)[None], is_causal=True)[0]  # con V = I, salida = pesos
    for i in range(7):
        np.testing.assert_allclose(pesos_de_la_palabra(Q.tolist(), K.tolist(), i, causal=True), esperado[i].numpy(),
                                   atol=1e-12)


def test_mascara_causal_oculta_el_futuro():
    pesos = pesos_de_la_palabra(CONSULTAS_INICIALES, CLAVES_INICIALES, EL, causal=True)
    assert pesos[BANCO] == 0.0
    assert math.isclose(pesos[:EL + 1].sum(), 1.0)
    sin_mascara = pesos_de_la_palabra(CONSULTAS_INICIALES, CLAVES_INICIALES, EL)
    assert np.argmax(sin_mascara) == BANCO and np.argmax(pesos) != BANCO
    assert pesos_de_la_palabra(CONSULTAS_INICIALES, CLAVES_INICIALES, ANA, causal=True).tolist() == [1.0] + [0.0] * 6


def test_temperatura_concentra_o_reparte_sin_cambiar_el_orden():
    fria = pesos_de_la_palabra(CONSULTAS_INICIALES, CLAVES_INICIALES, BANCO, T_MINIMA)
    normal = pesos_de_la_palabra(CONSULTAS_INICIALES, CLAVES_INICIALES, BANCO, 1.0)
    caliente = pesos_de_la_palabra(CONSULTAS_INICIALES, CLAVES_INICIALES, BANCO, T_MAXIMA)
    assert fria[PLATA] > 0.999
    assert caliente.max() - caliente.min() < 0.1
    assert list(np.argsort(fria)) == list(np.argsort(normal)) == list(np.argsort(caliente))


@pytest.mark.parametrize("caso", ["T mínima", "T máxima", "origen", "causal en la primera", "lejos y frío"])
def test_casos_extremos_sin_nan_y_suman_100(caso):
    origen = [[0.0, 0.0]] * 7
    borde = [[LIMITE_PLANO, LIMITE_PLANO]] * 7
    argumentos = {
        "T mínima": (CONSULTAS_INICIALES, CLAVES_INICIALES, BANCO, T_MINIMA, False),
        "T máxima": (CONSULTAS_INICIALES, CLAVES_INICIALES, BANCO, T_MAXIMA, True),
        "origen": (origen, origen, BANCO, 1.0, False),
        "causal en la primera": (CONSULTAS_INICIALES, CLAVES_INICIALES, ANA, 1.0, True),
        "lejos y frío": (borde, borde, 3, T_MINIMA, True),
    }[caso]
    datos = estado(*argumentos)
    assert not np.isnan(datos["pesos"]).any()
    assert math.isclose(sum(datos["pesos"]), 1.0)
    assert sum(datos["porcentajes"]) == 100
    assert all(p >= 0 for p in datos["porcentajes"])
    if caso == "origen":
        assert datos["resumen"] == '«banco» reparte su atención casi por igual entre las 7 palabras que ve'
    if caso == "causal en la primera":
        assert datos["porcentajes"] == [100, 0, 0, 0, 0, 0, 0]
        assert datos["resumen"] == '«Ana» solo puede mirar a sí misma (100 %)'


def test_porcentajes_suman_100_aunque_redondear_uno_a_uno_no():
    pesos = [1 / 3, 1 / 3, 1 / 3]
    assert sum(round(100 * p) for p in pesos) == 99
    assert porcentajes_redondeados(pesos) == [34, 33, 33]
    generador = np.random.default_rng(0)
    for _ in range(200):
        p = generador.dirichlet(np.ones(7) * 0.3)
        enteros = porcentajes_redondeados(p)
        assert sum(enteros) == 100
        assert all(abs(e - 100 * x) < 1 for e, x in zip(enteros, p))


def test_resumen_casos():
    assert resumen(PALABRAS, [0.1, 0.7, 0.2, 0, 0, 0, 0], 2) == \
        '«la» mira sobre todo a «guardó» (70 %) y después a sí misma (20 %)'
    assert resumen(PALABRAS, [0.999, 0.001, 0, 0, 0, 0, 0], 1) == '«guardó» mira casi solo a «Ana» (100 %)'


@pytest.mark.parametrize("argumentos,mensaje", [
    (([[0, 0]] * 7, [[0, 0]] * 6, 0), "7 consultas y 6 claves"),
    (([[0, 0, 0]] * 7, [[0, 0]] * 7, 0), "2 números"),
    ((CONSULTAS_INICIALES, CLAVES_INICIALES, 7), "entre 0 y 6"),
    ((CONSULTAS_INICIALES, CLAVES_INICIALES, 0, 0.0), "temperatura debe ser un número positivo"),
    (([[float("nan"), 0]] * 7, CLAVES_INICIALES, 0), "NaN"),
])
def test_entradas_malas_dan_mensajes_claros(argumentos, mensaje):
    with pytest.raises(ValueError, match=mensaje):
        pesos_de_la_palabra(*argumentos)


def test_porcentajes_de_pesos_malos():
    with pytest.raises(ValueError, match="suman 0"):
        porcentajes_redondeados([0, 0])
    with pytest.raises(ValueError, match="no negativos"):
        porcentajes_redondeados([0.5, -0.5])


# --- El widget, manejado desde Python -----------------------------------------------------------------


def test_widget_estado_inicial_y_cambios_en_vivo():
    w = AQuienMira()
    assert w.palabras == list(PALABRAS) and w.elegida == BANCO and w.temperatura == 1.0 and not w.causal
    assert w.porcentajes[PLATA] == 61 and w.porcentajes[BANCO] == 28
    assert "banco" in w.frase and sum(w.porcentajes) == 100
    w.elegida = EL
    assert w.porcentajes == estado(CONSULTAS_INICIALES, CLAVES_INICIALES, EL)["porcentajes"]
    w.causal = True
    assert w.visibles == [True] * 6 + [False] and w.porcentajes[BANCO] == 0 and sum(w.porcentajes) == 100
    # Arrastrar la clave de «plata» (como hace el navegador: una lista nueva).
    claves = [list(k) for k in w.claves]
    claves[PLATA] = [3.0, 3.0]
    antes = w.porcentajes[PLATA]
    w.claves = claves
    assert w.porcentajes[PLATA] != antes


def test_widget_recorta_lo_que_llega_del_navegador_y_reinicia():
    w = AQuienMira()
    w.temperatura = 0.0  # fuera del deslizador: se recorta a T mínima
    assert sum(w.porcentajes) == 100 and w.porcentajes[PLATA] == 100
    w.consultas = [[99.0, -99.0]] * 7  # fuera del plano: se recorta
    assert sum(w.porcentajes) == 100
    w.consultas = [[0.0, 0.0]] * 7
    w.claves = [[0.0, 0.0]] * 7
    assert "por igual" in w.frase
    w._mensaje(w, {"accion": "reiniciar"}, [])
    assert w.porcentajes[PLATA] == 61 and w.elegida == BANCO and w.temperatura == 1.0
    assert w.consultas == [list(v) for v in CONSULTAS_INICIALES]


def test_el_widget_lleva_su_javascript_sin_dependencias_de_red():
    assert "export default" in AQuienMira._esm and "render" in AQuienMira._esm
    assert "http" not in AQuienMira._esm.replace("http://www.w3.org/", "")
    assert "import " not in AQuienMira._esm
    assert ".aqm-raiz" in AQuienMira._css


def _contraste(color, fondo="#ffffff"):
    """Razón de contraste WCAG entre dos colores #rrggbb."""
    def luminancia(hexadecimal):
        canales = [int(hexadecimal[i:i + 2], 16) / 255 for i in (1, 3, 5)]
        lineales = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in canales]
        return 0.2126 * lineales[0] + 0.7152 * lineales[1] + 0.0722 * lineales[2]

    claro, oscuro = sorted((luminancia(color), luminancia(fondo)), reverse=True)
    return (claro + 0.05) / (oscuro + 0.05)


def test_el_texto_de_la_actividad_se_lee_en_un_proyector():
    """Todo color de texto de la hoja cumple WCAG AA (4.5:1 sobre blanco) y ninguna letra baja de 14 px."""
    import re

    css = AQuienMira._css
    assert _contraste("#b0b7c5") < 4.5  # el gris de antes no bastaba: la prueba lo detectaría
    revisados = 0
    for selector, cuerpo in re.findall(r"([^{}]+)\{([^}]*)\}", css):
        es_texto = any(p in selector for p in ("text", "etiqueta", "marca", "leyenda"))
        for propiedad, color in re.findall(r"(?<![-\w])(color|fill):\s*(#[0-9a-fA-F]{6})", cuerpo):
            if propiedad == "fill" and not es_texto:
                continue  # relleno de una figura, no de un texto
            if color.lower() == "#ffffff":  # texto blanco, sobre el rojo de la palabra elegida (negrita, 20 px)
                assert _contraste(color, "#d1495b") >= 3.0  # AA para texto grande
                continue
            assert _contraste(color) >= 4.5, (selector.strip(), color, _contraste(color))
            revisados += 1
    assert revisados >= 8
    tamanos = [int(t) for t in re.findall(r"font-size:\s*(\d+)px", css)]
    assert tamanos and min(tamanos) >= 14, tamanos


def test_la_actividad_se_usa_con_teclado_y_anuncia_el_resumen():
    js = AQuienMira._esm
    assert '"aria-live": "polite"' in js  # el resumen se anuncia al cambiar
    assert 'tabindex: "0"' in js  # palabras y vectores reciben el foco
    for parte in ("construirVista", "dibujarFrase", "dibujarPlano", "dibujarBarras", "conectarPalabras",
                  "conectarArrastre", "conectarTeclado", "conectarControles", "asaMasCercana"):
        assert f"function {parte}(" in js, parte
    # render solo une las partes: ninguna función del módulo pasa de 60 líneas.
    import re

    inicios = [m.start() for m in re.finditer(r"^function ", js, re.M)] + [len(js)]
    largos = [js[a:b].count("\n") for a, b in zip(inicios, inicios[1:])]
    assert max(largos) <= 60, largos


# --- Ejercicios --------------------------------------------------------------------------------------
# Soluciones en cualquier tipo, respuestas desviadas, una pista por error frecuente y ninguna pista con la
# respuesta: tests/test_ejercicios_tabla.py con los casos de tests/casos_ejercicios/.


def test_sin_anywidget_la_actividad_lo_dice_y_se_muestra_quieta(monkeypatch, capsys):
    """En un Jupyter sin anywidget, la celda de la actividad no falla: avisa en castellano y dibuja la actividad."""
    import importlib
    import sys

    import utilidades.actividades as modulo

    monkeypatch.setitem(sys.modules, "anywidget", None)  # `import anywidget` da ImportError
    try:
        sin = importlib.reload(modulo)
        actividad = sin.AQuienMira()
        assert "necesita el paquete anywidget" in capsys.readouterr().out
        assert actividad.claves[3] == list(sin.CLAVES_INICIALES[3])
        assert "«banco»" in repr(actividad) or "banco" in repr(actividad)
        assert actividad._repr_png_().startswith(b"\x89PNG")
    finally:
        monkeypatch.delitem(sys.modules, "anywidget")
        importlib.reload(modulo)
