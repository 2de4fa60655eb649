"""Todos los ejercicios del curso por tabla: la solución se acepta en cualquier tipo numérico, una respuesta
un 30 % desviada se rechaza, cada error frecuente recibe su propia pista y ninguna pista delata una respuesta.

Los casos viven en tests/casos_ejercicios/leccion_NN.py (uno por ejercicio registrado).
"""

import importlib
import json
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


def _variantes_booleanas(solucion):
    """Un sí/no (o una lista de ellos) en cada tipo de booleano: Python, NumPy y tensores bool de 0 dimensiones."""
    if isinstance(solucion, bool):
        return [solucion, np.bool_(solucion), torch.tensor(solucion), np.array(solucion)]
    lista = [bool(v) for v in solucion]
    return [lista, tuple(lista), [np.bool_(v) for v in lista], [torch.tensor(v) for v in lista],
            np.array(lista, dtype=bool), torch.tensor(lista, dtype=torch.bool)]


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
    if caso.booleana:
        respuestas = _variantes_booleanas(caso.solucion) + list(caso.acepta)
    else:
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


def test_las_variantes_booleanas_cubren_numpy_y_tensores():
    """Una respuesta sí/no se prueba también con np.bool_ y con tensores bool de 0 dimensiones."""
    tipos = {type(v) for v in _variantes_booleanas(False)}
    assert {bool, np.bool_, torch.Tensor} <= tipos
    elementos = {type(e) for v in _variantes_booleanas([False, True]) if isinstance(v, list) for e in v}
    assert {bool, np.bool_, torch.Tensor} <= elementos
    assert any(c.booleana for c in CASOS.values()), "ningún caso declara una respuesta booleana"


# --- Ejercicios que no se pueden adivinar ------------------------------------------------------------------
def test_cada_caso_lista_sus_adivinanzas():
    sin = [c for c in CLAVES if c in CASOS and not CASOS[c].adivinanzas]
    assert not sin, f"Casos sin adivinanzas (respuestas que se dan sin hacer el ejercicio): {sin}"


@pytest.mark.parametrize("clave", CLAVES)
def test_ninguna_adivinanza_se_acepta(clave):
    """Lo que un estudiante respondería sin hacer el ejercicio (la línea base repetida, valores dentro del ruido,
    la respuesta de la pregunta vecina, la función que el enunciado prohíbe…) se rechaza, con una pista."""
    caso = CASOS.get(clave)
    if caso is None:
        pytest.fail(f"{clave} no tiene caso en tests/casos_ejercicios/")
    aceptadas = []
    for adivinanza in caso.adivinanzas:
        veredicto = evaluar(clave, adivinanza.respuesta)
        if veredicto.correcto:
            aceptadas.append(f"{_describir(adivinanza.respuesta)} ({adivinanza.motivo})")
        else:
            assert veredicto.mensaje.strip(), f"{clave}: rechaza {_describir(adivinanza.respuesta)} sin decir por qué"
    assert not aceptadas, f"{clave} acepta respuestas que no exigen hacer el ejercicio:\n" + "\n".join(aceptadas)


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


# --- Ninguna respuesta está en pantalla antes de su ejercicio ---------------------------------------------------
# Regla para no confundir una respuesta con un número cualquiera: un número suelto solo se busca escrito con al menos
# 3 cifras significativas («0.963», «96.3 %», «16 640»); los más cortos (0, 1, 2, 30, «28 %»…) salen en cualquier
# texto por casualidad (con 2 cifras y %, «28 %» de la lección 01 «delataba» los pesos 0.2828 de la 02). Una
# respuesta de varios números se busca además entera, en su orden (con comas, espacios o corchetes entre ellos), con
# cualquier redondeo de 0 a 4 decimales: la secuencia junta ya es específica. Las respuestas que no son números
# (textos, funciones, booleanos) no se buscan aquí.
# Se mira lo que el estudiante lee antes del enunciado: la prosa (markdown) y las salidas guardadas de las lecciones
# anteriores y de su lección hasta la celda anterior al enunciado. El código no cuenta: calcular no es enseñar.

CUADERNOS = pathlib.Path(__file__).resolve().parent.parent / "notebooks"
_MILES = [",", " ", "\u2009", "\u202f", "\u00a0", ""]


def _cifras(texto):
    """Cifras significativas de un número escrito: sin los ceros de delante ni los de detrás de la coma."""
    texto = re.sub(r"[^\d.,]", "", texto)
    entera, decimales = texto, ""
    partes = re.split(r"[.,](?=\d*$)", texto)
    if len(partes) == 2:
        entera, decimales = partes
    cifras = (re.sub(r"\D", "", entera) + decimales.rstrip("0")).lstrip("0")
    return len(cifras)


def _redondeos(x, decimales=range(0, 5)):
    """El número escrito con 0 a 4 decimales (punto o coma, con o sin separador de miles), sin repetir."""
    formas = set()
    for d in decimales:
        for sep in _MILES:
            texto = f"{abs(x):,.{d}f}".replace(",", "\0").replace(".", "·")
            for marca in (".", ","):
                if sep == marca:
                    continue
                formas.add(texto.replace("\0", sep).replace("·", marca))
    return formas


def _formas_sueltas(x):
    """Las formas de un número suelto que bastan para reconocerlo (la regla de las cifras significativas)."""
    x = float(x)
    formas = {f for f in _redondeos(x) if _cifras(f) >= 3}  # todas son redondeos de x: solo filtra las cortas
    porcentajes = set()
    for base in ([x] if 0 < abs(x) < 1 else []) + ([x - 1] if 1 < x < 2 else []):
        for f in _redondeos(100 * base, range(0, 3)):
            if _cifras(f) >= 3:
                porcentajes.add(f + "\u00a0?%")
    return formas, porcentajes


def _patron_numero(formas, porcentajes=()):
    alternativas = [re.escape(f) for f in sorted(formas, key=len, reverse=True)]
    alternativas += [re.escape(f[:-len("\u00a0?%")]) + r"\s?%" for f in sorted(porcentajes, key=len, reverse=True)]
    if not alternativas:
        return None
    return rf"(?<![\d.,])(?:{'|'.join(alternativas)})(?![\d]|[.,]\d)"


def _patron_secuencia(valores):
    piezas = []
    for v in valores:
        formas = {f for f in _redondeos(float(v)) if _cifras(f) >= 1 or float(v) == 0}
        signo = r"[-−]" if float(v) < 0 else ""
        piezas.append(signo + "(?:" + "|".join(re.escape(f) for f in sorted(formas, key=len, reverse=True)) + ")")
    return r"(?<![\d.,])" + r"[\s,;]+".join(piezas) + r"(?![\d]|[.,]\d)"


def _valores_de_la_respuesta(solucion):
    if isinstance(solucion, bool) or callable(solucion) or isinstance(solucion, str):
        return None
    if isinstance(solucion, dict):
        solucion = list(solucion.values())
    try:
        arr = np.asarray(solucion, dtype=float).ravel()
    except (TypeError, ValueError):
        return None
    return arr if arr.size else None


def _patrones_de_la_respuesta(solucion):
    """(descripción, regex) con las que se reconoce la respuesta en un texto."""
    valores = _valores_de_la_respuesta(solucion)
    if valores is None or (np.asarray(solucion).dtype == bool):
        return []
    patrones = []
    for v in valores:
        patron = _patron_numero(*_formas_sueltas(v))
        if patron:
            patrones.append((f"el número {v:g}", re.compile(patron)))
    if len(valores) > 1:
        patrones.append((f"la respuesta entera {valores.tolist()}", re.compile(_patron_secuencia(valores))))
    return patrones


def _textos_de_celda(celda):
    """Lo que el estudiante lee de una celda: la prosa de un markdown o las salidas guardadas de un código."""
    if celda["cell_type"] == "markdown":
        return ["".join(celda["source"])]
    textos = []
    for salida in celda.get("outputs", []):
        if "text" in salida:
            textos.append("".join(salida["text"]))
        for tipo in ("text/plain", "text/html", "text/markdown"):
            if tipo in salida.get("data", {}):
                textos.append("".join(salida["data"][tipo]))
    return textos


def _lecciones():
    return {p.name[:2]: json.loads(p.read_text(encoding="utf-8")) for p in sorted(CUADERNOS.glob("[0-9][0-9]_*.ipynb"))}


def _lo_que_se_lee_antes(lecciones, clave):
    """[(dónde, texto)] de las lecciones anteriores y de la suya hasta la celda anterior al enunciado."""
    numero = clave.split(".")[0]
    textos = []
    for leccion, cuaderno in lecciones.items():
        if leccion > numero:
            continue
        celdas = cuaderno["cells"]
        fin = len(celdas)
        if leccion == numero:
            llamada = re.compile(rf"comprobar\(\s*[\"']{re.escape(clave)}[\"']")
            fin = next(i for i, c in enumerate(celdas)
                       if c["cell_type"] == "code" and llamada.search("".join(c["source"])))
            if fin > 0 and celdas[fin - 1]["cell_type"] == "markdown":
                fin -= 1  # el enunciado
        for i, celda in enumerate(celdas[:fin]):
            for texto in _textos_de_celda(celda):
                textos.append((f"lección {leccion}, celda {i} ({celda['cell_type']})", texto))
    return textos


def test_ninguna_respuesta_esta_en_pantalla_antes_de_su_ejercicio():
    lecciones = _lecciones()
    delatoras = []
    for clave in CLAVES:
        caso = CASOS.get(clave)
        if caso is None or clave.split(".")[0] not in lecciones:
            continue
        patrones = _patrones_de_la_respuesta(caso.solucion)
        if not patrones:
            continue
        for donde, texto in _lo_que_se_lee_antes(lecciones, clave):
            for que, patron in patrones:
                encontrado = patron.search(texto)
                if encontrado:
                    contexto = texto[max(0, encontrado.start() - 60):encontrado.end() + 20].replace("\n", " ")
                    delatoras.append(f"{clave}: {que} ya se lee en {donde}: «…{contexto}…»")
    assert not delatoras, "Respuestas en pantalla antes de su ejercicio:\n" + "\n".join(delatoras)


def test_el_buscador_de_respuestas_en_pantalla_funciona():
    """La prueba anterior podría no encontrar nada: reconoce cada forma y no salta con números cortos."""
    def busca(solucion, texto):
        return any(p.search(texto) for _, p in _patrones_de_la_respuesta(solucion))

    for texto in ("vale 0.963", "un 96.3 %", "un 96,3%", "es 0.9630"):
        assert busca(0.963, texto), texto
    assert not busca(0.963, "0,96 3") and not busca(0.963, "el 96 % de su atención")
    for texto in ("16640 parámetros", "16 640", "16\u2009640", "16,640"):
        assert busca(16640, texto), texto
    assert busca(1.0876, "sube un 8.76 %") and busca(1.0876, "cociente 1.088")
    assert not busca(30, "son 30 celdas") and not busca(4, "divide por 4") and not busca(0.963, "0.96")
    assert busca([2.6, 2.8], "clave (2.6, 2.8)") and busca([1, 2, 3, 4, 5, 6, 7, 0], "[1, 2, 3, 4, 5, 6, 7, 0]")
    assert not busca([1, 2, 3, 4, 5, 6, 7, 0], "[1, 2, 3, 4, 5, 6, 7, 8]")
    assert not busca(1, "suma 1.00") and not busca(2.498, "media = 2.50") and busca(2.498, "pérdida 2.498")
    assert not busca(False, "False") and not busca("plata", "plata")
