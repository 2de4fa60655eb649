"""Todos los ejercicios del curso por tabla: la solución se acepta en cualquier tipo numérico, una respuesta
un 30 % desviada se rechaza, cada error frecuente recibe su propia pista y ninguna pista delata una respuesta.

Los casos viven en tests/casos_ejercicios/leccion_NN.py (uno por ejercicio registrado).
"""

import importlib
import pathlib
import re

import numpy as np
import pytest
import torch

from utilidades.ejercicios import ejercicios_registrados, evaluar

CARPETA = pathlib.Path(__file__).resolve().parent.parent / "utilidades" / "ejercicios"
LECCIONES = sorted(p.stem.removeprefix("leccion_") for p in CARPETA.glob("leccion_*.py"))
# Respuestas equivocadas de forma: cualquier ejercicio debe rechazarlas con una pista, sin romperse.
SIN_SENTIDO = ["hola", None, [], True]


def _cargar_casos():
    casos = {}
    for leccion in LECCIONES:
        ejercicios_registrados(leccion)  # importa las comprobaciones de la lección
        try:
            modulo = importlib.import_module(f"casos_ejercicios.leccion_{leccion}")
        except ModuleNotFoundError:
            continue
        casos.update(modulo.CASOS)
    return casos


CASOS = _cargar_casos()
CLAVES = ejercicios_registrados()


def test_cada_ejercicio_tiene_su_caso():
    sin_caso = [c for c in CLAVES if c not in CASOS]
    sin_ejercicio = [c for c in CASOS if c not in CLAVES]
    assert not sin_caso, f"Ejercicios sin caso en tests/casos_ejercicios/: {sin_caso}"
    assert not sin_ejercicio, f"Casos de ejercicios que no existen: {sin_ejercicio}"


def _es_numero(valor):
    return isinstance(valor, (int, float, np.integer, np.floating)) and not isinstance(valor, bool)


def _es_tabla(valor):
    if isinstance(valor, (list, tuple, np.ndarray, torch.Tensor)):
        try:
            arr = np.asarray(valor.detach() if isinstance(valor, torch.Tensor) else valor, dtype=float)
        except (TypeError, ValueError):
            return False
        return arr.size > 0
    return False


def _variantes(solucion):
    """La misma respuesta correcta en cada tipo que un estudiante podría usar."""
    if _es_numero(solucion):
        x = float(solucion)
        variantes = [x, np.float64(x), np.float32(x), torch.tensor(x), torch.tensor([x]), np.array(x)]
        if x == round(x):
            n = int(round(x))
            variantes += [n, np.int64(n), np.int32(n), torch.tensor(n), torch.tensor([n])]
        return variantes
    if _es_tabla(solucion):
        arr = np.asarray(solucion.detach() if isinstance(solucion, torch.Tensor) else solucion, dtype=float)
        return [arr.tolist(), arr, arr.astype(np.float32), torch.tensor(arr), torch.tensor(arr, dtype=torch.float32)]
    return [solucion]


def _desviar(valor, factor):
    """Una respuesta `factor` veces la correcta: números, tablas o el tensor que devuelve una función."""
    if _es_numero(valor):
        return float(valor) * factor
    if _es_tabla(valor):
        arr = np.asarray(valor.detach() if isinstance(valor, torch.Tensor) else valor, dtype=float)
        return None if not np.any(arr) else arr * factor
    if callable(valor):
        def desviada(*argumentos, **opciones):
            salida = valor(*argumentos, **opciones)
            if isinstance(salida, torch.Tensor):
                return salida * factor
            if isinstance(salida, tuple) and salida and isinstance(salida[0], torch.Tensor):
                return (salida[0] * factor, *salida[1:])
            return salida
        return desviada
    return None


def _desviadas(caso):
    if caso.desviadas is not None:
        return list(caso.desviadas)
    return [d for d in (_desviar(caso.solucion, 1.3), _desviar(caso.solucion, 0.7)) if d is not None]


def _describir(respuesta):
    if callable(respuesta):
        return f"función {getattr(respuesta, '__name__', '?')}"
    return repr(respuesta)[:80]


@pytest.mark.parametrize("clave", CLAVES)
def test_la_solucion_se_acepta_en_cualquier_tipo(clave):
    caso = CASOS.get(clave)
    if caso is None:
        pytest.fail(f"{clave} no tiene caso en tests/casos_ejercicios/")
    respuestas = (_variantes(caso.solucion) if caso.tipos else [caso.solucion]) + list(caso.acepta)
    for respuesta in respuestas:
        veredicto = evaluar(clave, respuesta)
        assert veredicto.correcto, f"{clave} rechaza la respuesta correcta {_describir(respuesta)} " \
                                   f"({type(respuesta).__name__}): {veredicto.mensaje}"


@pytest.mark.parametrize("clave", CLAVES)
def test_una_respuesta_desviada_se_rechaza(clave):
    caso = CASOS.get(clave)
    if caso is None:
        pytest.fail(f"{clave} no tiene caso en tests/casos_ejercicios/")
    malas = _desviadas(caso) + list(caso.rechaza) + SIN_SENTIDO
    assert _desviadas(caso) or caso.rechaza, f"{clave}: ninguna respuesta equivocada que comprobar"
    for respuesta in malas:
        veredicto = evaluar(clave, respuesta)
        assert not veredicto.correcto, f"{clave} acepta la respuesta equivocada {_describir(respuesta)}"
        assert veredicto.mensaje.strip(), f"{clave}: rechaza {_describir(respuesta)} sin decir por qué"


@pytest.mark.parametrize("clave", CLAVES)
def test_cada_error_frecuente_tiene_su_pista(clave):
    caso = CASOS.get(clave)
    if caso is None:
        pytest.fail(f"{clave} no tiene caso en tests/casos_ejercicios/")
    mensajes = {}
    for error in caso.errores:
        veredicto = evaluar(clave, error.respuesta)
        assert not veredicto.correcto, f"{clave} acepta el error {_describir(error.respuesta)}"
        assert error.fragmento in veredicto.mensaje, (
            f"{clave}: para {_describir(error.respuesta)} se esperaba una pista con «{error.fragmento}» "
            f"y dice: {veredicto.mensaje}")
        mensajes.setdefault(veredicto.mensaje, []).append(_describir(error.respuesta))
    repetidas = {m: r for m, r in mensajes.items() if len(r) > 1}
    assert not repetidas, f"{clave}: errores distintos con la misma pista: {repetidas}"


# --- Ninguna pista delata una respuesta ----------------------------------------------------------------

_SEPARADORES_DE_MILES = [",", ".", " ", "\u2009", "\u202f", "\u00a0", ""]


def _formas_de_escribir(valor, minimo_entero):
    """Las formas en que un número puede aparecer en un texto (miles con separadores, decimales con , o .)."""
    x = float(valor)
    formas = set()
    if x == round(x):
        n = abs(int(round(x)))
        if n < minimo_entero:
            return formas
        for sep in _SEPARADORES_DE_MILES:
            formas.add(f"{n:,}".replace(",", sep))
        return formas
    for decimales in (1, 2, 3):
        texto = f"{abs(x):.{decimales}f}"
        cifras = texto.replace(".", "").lstrip("0")
        if len(cifras) < 2 or abs(float(texto) - abs(x)) > 0.02 * abs(x):
            continue
        formas.update({texto, texto.replace(".", ",")})
    return formas


def _patron(formas):
    if not formas:
        return None
    alternativas = "|".join(re.escape(f) for f in sorted(formas, key=len, reverse=True))
    return re.compile(rf"(?<![\d.,])(?:{alternativas})(?![\d]|[.,]\d)")


def _respuestas_numericas():
    """Para cada ejercicio, el patrón de su respuesta si es un número (solo los números poco comunes)."""
    propios, ajenos = {}, {}
    for clave, caso in CASOS.items():
        if _es_numero(caso.solucion):
            propios[clave] = _patron(_formas_de_escribir(caso.solucion, 10))
            ajenos[clave] = _patron(_formas_de_escribir(caso.solucion, 100))
    return propios, ajenos


def _mensajes(clave, caso):
    """(correcto, mensaje) de todas las respuestas que la tabla da a un ejercicio."""
    respuestas = ([e.respuesta for e in caso.errores] + _desviadas(caso) + list(caso.rechaza) + SIN_SENTIDO
                  + [caso.solucion] + list(caso.acepta))
    vistos = []
    for respuesta in respuestas:
        veredicto = evaluar(clave, respuesta)
        vistos.append((veredicto.correcto, veredicto.mensaje))
    return vistos


def test_ninguna_pista_contiene_una_respuesta():
    propios, ajenos = _respuestas_numericas()
    delatoras = []
    for clave, caso in CASOS.items():
        if clave not in CLAVES:
            continue
        for correcto, mensaje in _mensajes(clave, caso):
            for otra, patron in ajenos.items():
                if otra == clave:
                    patron = propios[otra]
                    if correcto:  # el mensaje de acierto puede repetir su propia respuesta
                        continue
                if patron is not None and patron.search(mensaje):
                    tipo = "el acierto" if correcto else "una pista"
                    delatoras.append(f"{clave}: {tipo} contiene la respuesta de {otra}: {mensaje}")
    assert not delatoras, "\n".join(delatoras)


def test_el_detector_de_respuestas_funciona():
    """La prueba anterior podría no detectar nada: comprobamos que reconoce cada forma de escribir."""
    patron = _patron(_formas_de_escribir(49984, 100))
    for texto in ("son 49984 parámetros", "son 49,984", "son 49 984.", "(49.984)", "49\u2009984"):
        assert patron.search(texto), texto
    for texto in ("son 149984", "49984.5", "1,49984"):
        assert not patron.search(texto), texto
    patron = _patron(_formas_de_escribir(0.8734, 100))
    for texto in ("vale 0.87", "vale 0,87 más o menos", "0.873"):
        assert patron.search(texto), texto
    assert not patron.search("vale 0.875") and not patron.search("10.87")
    assert _patron(_formas_de_escribir(15, 100)) is None and _patron(_formas_de_escribir(15, 10)) is not None
