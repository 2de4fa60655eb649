"""El vocabulario del glosario, en todo el curso.

notebooks/GLOSARIO.md es la única fuente: esta prueba lee sus tablas de «Variantes que el curso no usa» y no guarda
ninguna lista propia. Busca en la prosa, los comentarios, los textos, los nombres del código y las salidas guardadas
de cada lección y cada solución, en todos los textos de `utilidades` (pistas, errores, widgets, comentarios y
nombres), de `herramientas` y de `tareas.py`, en el README, en DOCENTES.md y en la tabla de términos del glosario:

- «Palabras»: una variante descartada no aparece nunca (con o sin tilde, singular o plural, en un nombre del código).
- «Una palabra, un sentido»: una palabra con un sentido fijo no aparece en la misma frase (o línea de código) que
  las palabras que delatan el otro sentido. La prueba no entiende el sentido: solo ve esa coincidencia. Un uso
  equivocado en una frase que no nombra ninguna de esas palabras se le escapa («la salida da 10 puntajes»), y un
  uso correcto junto a una de ellas se marca («consultas y claves de distinta longitud», que es L): en ese caso,
  reescribe la frase («distinto número de consultas que de claves») en vez de tocar el glosario.
- «Palabras que se glosan»: la primera vez que la lección nombra la palabra, la glosa va en la misma frase.
"""

import functools
import io
import re
import tokenize
import unicodedata

import pytest

from herramientas.cuadernos import RAIZ, cuadernos, fuente, leer_cuaderno

GLOSARIO = RAIZ / "notebooks" / "GLOSARIO.md"
DOCUMENTOS = [RAIZ / "README.md", RAIZ / "DOCENTES.md"]
MODULOS = sorted((RAIZ / "utilidades").rglob("*.py")) + sorted((RAIZ / "herramientas").glob("*.py")) + [
    RAIZ / "tareas.py"]  # sus mensajes también los lee un estudiante o un docente
GUIONES = sorted((RAIZ / "utilidades").rglob("*.js"))  # el JavaScript de las actividades: lo que muestra la página
EN_LA_PROSA = "(en la prosa)"
# Fichas de texto del código: comentarios, cadenas y, desde Python 3.12, el texto de una f-cadena (y de una
# t-cadena en 3.14), que ya no llega como una sola cadena.
FICHAS_DE_TEXTO = {tokenize.COMMENT, tokenize.STRING} | {
    getattr(tokenize, nombre) for nombre in ("FSTRING_MIDDLE", "TSTRING_MIDDLE") if hasattr(tokenize, nombre)}

# --- Leer el glosario ---------------------------------------------------------------------------------------------


def _seccion(texto, titulo):
    """Texto de la sección que empieza con la línea `titulo` («## …» o «### …») hasta la siguiente del mismo nivel
    o de uno superior."""
    nivel = titulo.split()[0]
    partes = texto.split("\n" + titulo + "\n", 1)
    assert len(partes) == 2, f"el glosario no tiene la sección «{titulo}»"
    siguiente = re.search(rf"^#{{1,{len(nivel)}}} ", partes[1], re.M)
    return partes[1][:siguiente.start()] if siguiente else partes[1]


def _tabla(seccion, columnas):
    """Filas (listas de celdas) de la tabla markdown de una sección, sin cabecera ni separador."""
    filas = [[c.strip() for c in linea.strip().strip("|").split("|")]
             for linea in seccion.splitlines() if linea.startswith("|")]
    assert len(filas) >= 3, "la sección no tiene una tabla con filas"
    assert all(len(f) == columnas for f in filas), f"cada fila de la tabla debe tener {columnas} columnas: {filas}"
    return filas[2:]


def _lista(celda):
    return [p.strip() for p in celda.split(",") if p.strip()]


def leer_glosario(texto=None):
    """Lo que fija el glosario: (variantes, sentidos, glosas).

    variantes: lista de (variante, escribe, solo_en_la_prosa)
    sentidos: lista de (palabra, no la uses para, palabras que delatan el otro sentido)
    glosas: lista de (palabra, glosa, lección)
    """
    texto = GLOSARIO.read_text(encoding="utf-8") if texto is None else texto
    variantes_seccion = _seccion(texto, "## Variantes que el curso no usa")
    variantes = []
    for no_escribas, escribe in _tabla(_seccion(variantes_seccion, "### Palabras"), 2):
        for variante in _lista(no_escribas):
            prosa = variante.endswith(EN_LA_PROSA)
            variante = variante.removesuffix(EN_LA_PROSA).strip()
            assert re.fullmatch(r"[\wáéíóúüñ ]+", variante, re.I), (
                f"en la tabla «Palabras» del glosario, «{variante}» no es una palabra: escribe solo palabras "
                "separadas por comas (y, si acaso, «(en la prosa)» detrás)")
            variantes.append((variante, escribe, prosa))
    sentidos = [(palabra, no_para, _lista(junto_a)) for palabra, _, no_para, junto_a
                in _tabla(_seccion(variantes_seccion, "### Una palabra, un sentido"), 4)]
    glosas = [tuple(f) for f in _tabla(_seccion(variantes_seccion, "### Palabras que se glosan"), 3)]
    return variantes, sentidos, glosas


# --- Buscar palabras: sin tildes, sin mayúsculas, con plurales ----------------------------------------------------

_SIN_TILDES = str.maketrans("áéíóúüÁÉÍÓÚÜ", "aeiouuAEIOUU")


def plano(texto):
    """El texto sin tildes (misma longitud: las posiciones no cambian)."""
    return unicodedata.normalize("NFC", texto).translate(_SIN_TILDES)


def _formas(palabra):
    """Regex de una palabra y sus formas: «incrustación» -> incrustacion|incrustaciones; «embebido» -> embebido,
    embebida, embebidos, embebidas; «afina» -> afina, afinas, afinan; «vector» -> vector, vectores; «logit» -> logit,
    logits."""
    palabra = plano(palabra.lower())
    if len(palabra) <= 2:  # «d», «de»: sin plural
        return re.escape(palabra)
    if palabra.endswith("ion"):
        return re.escape(palabra) + "(?:es)?"
    if palabra.endswith("o"):
        return re.escape(palabra[:-1]) + "[oa]s?"
    if palabra[-1] in "aeiou":  # «afina» -> afinas, afinan (el verbo en plural, que también se lee)
        return re.escape(palabra) + "[sn]?"
    return re.escape(palabra) + "(?:es|s)?"


@functools.cache
def patron(expresion):
    """Regex de una palabra o una expresión de varias («capa de salida»), palabra por palabra, con sus formas."""
    return re.compile(r"(?<!\w)" + r"\s+".join(_formas(p) for p in expresion.split()) + r"(?!\w)", re.I)


def _entre_parentesis(texto, inicio):
    """True si la posición `inicio` está dentro de un paréntesis abierto: «el decodificador (*decoder*)»."""
    antes = texto[:inicio]
    return antes.rfind("(") > antes.rfind(")")


# --- Qué se lee: frases de la prosa y piezas del código ------------------------------------------------------------


def frases(texto):
    """Frases de un texto en markdown: se cortan en «. », «? », «! », en líneas en blanco, viñetas, títulos y
    celdas de tabla; las líneas partidas de un mismo párrafo se unen."""
    piezas = []
    for bloque in re.split(r"\n\s*\n|\n(?=\s*(?:[-*+] |\d+\. |#|\|))|\|", texto):
        bloque = " ".join(bloque.split())
        piezas += [f for f in re.split(r"(?<=[.!?])\s+(?=[^a-z0-9])", bloque) if f.strip()]
    return piezas


def _nombre_en_palabras(nombre):
    """«incrustacion_de_tokens» -> «incrustacion de tokens»; «IncrustacionPosicional» -> «Incrustacion Posicional»."""
    return re.sub(r"(?<=[a-záéíóúñ])(?=[A-Z])", " ", nombre.replace("_", " ")).strip()


def piezas_de_codigo(codigo):
    """(tipo, texto, línea) del código: «nombre» por cada nombre, «texto» por cada frase de un comentario o una
    cadena, y «linea» por cada línea lógica con sus nombres en palabras (para ver dos palabras en la misma línea).
    línea es «línea N: …», el código tal cual, para decir dónde está."""
    lineas = [linea if not linea.lstrip().startswith(("%", "!")) else "" for linea in codigo.splitlines()]  # magias
    try:
        fichas = list(tokenize.generate_tokens(io.StringIO("\n".join(lineas) + "\n").readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):  # no es Python: se lee como texto
        yield from (("texto", f, f) for f in frases(codigo))
        return

    def donde(ficha):
        return f"línea {ficha.start[0]}: {lineas[ficha.start[0] - 1].strip()}"

    linea, primera = [], None
    for ficha in fichas:
        if ficha.type == tokenize.NAME:
            yield "nombre", ficha.string, donde(ficha)
        if ficha.type == tokenize.NAME or ficha.type in FICHAS_DE_TEXTO:
            cuerpo = ficha.string.lstrip("#")
            if ficha.type != tokenize.NAME:
                yield from (("texto", f, donde(ficha)) for f in frases(cuerpo))
            linea.append(_nombre_en_palabras(cuerpo) if ficha.type == tokenize.NAME else cuerpo)
            primera = primera or ficha
        elif ficha.type in (tokenize.NEWLINE, tokenize.NL, tokenize.ENDMARKER) and linea:
            yield "linea", " ".join(linea), donde(primera)
            linea, primera = [], None


def textos_de_javascript(codigo):
    """(texto, línea) de los comentarios y las cadenas de un archivo JavaScript: lo que se lee en la página (y en
    el código) de una actividad. Basta una lectura con expresiones regulares: se mira el texto, no la sintaxis."""
    lineas = codigo.splitlines()
    patron_js = re.compile(r"//[^\n]*|/\*.*?\*/|'(?:\\.|[^'\\\n])*'|\"(?:\\.|[^\"\\\n])*\"|`(?:\\.|[^`\\])*`",
                           re.S)
    for m in patron_js.finditer(codigo):
        numero = codigo.count("\n", 0, m.start()) + 1
        cuerpo = m.group().lstrip("/").strip("*'\"`")
        yield cuerpo, f"línea {numero}: {lineas[numero - 1].strip()}"


def _sin_enfasis(texto):
    """La prosa sin las marcas de énfasis de Markdown (`**`, `*`, `_` al borde de una palabra), que parten una
    expresión: «las **posiciones** aprendidas» se lee «las posiciones aprendidas». Los `_` dentro de una palabra
    (d_modelo) se quedan."""
    return re.sub(r"\*+|(?<![^\W_])_+|_+(?![^\W_])", "", texto)


def _sin_codigo_ni_enlaces(texto):
    """La prosa sin el código citado (`…`) ni las direcciones de los enlaces: ahí van nombres de PyTorch."""
    return re.sub(r"\]\([^)]*\)", "]", re.sub(r"`[^`]*`", "", texto))


def textos_del_curso():
    """(dónde, tipo, texto, contexto) de todo lo que lee un estudiante o un docente. tipo: «prosa», «nombre»,
    «texto» (comentario o cadena del código, o salida impresa) o «linea» (línea de código entera); contexto: la
    frase o la línea de código que se muestra en el mensaje."""
    for ruta in cuadernos():
        for i, celda in enumerate(leer_cuaderno(ruta)["cells"]):
            donde = f"{ruta.relative_to(RAIZ)}, celda {i}"
            if celda["cell_type"] == "markdown":
                yield from ((donde, "prosa", f, f) for f in frases(fuente(celda)))
            elif celda["cell_type"] == "code":
                yield from ((donde, tipo, t, c) for tipo, t, c in piezas_de_codigo(fuente(celda)))
                for salida in celda.get("outputs", []):
                    texto = salida.get("text") or salida.get("data", {}).get("text/plain", "")
                    # Cada línea impresa es una unidad (una fila de una tabla no habla de la de al lado).
                    yield from ((donde + " (salida)", "texto", f, f)
                                for linea in "".join(texto).splitlines() for f in frases(linea))
    for ruta in MODULOS:
        donde = str(ruta.relative_to(RAIZ))
        yield from ((donde, tipo, t, c) for tipo, t, c in piezas_de_codigo(ruta.read_text(encoding="utf-8")))
    for ruta in GUIONES:
        for texto, donde in textos_de_javascript(ruta.read_text(encoding="utf-8")):
            yield from ((f"{ruta.relative_to(RAIZ)}, {donde}", "texto", f, f) for f in frases(texto))
    for ruta in DOCUMENTOS:
        yield from ((str(ruta.relative_to(RAIZ)), "prosa", f, f) for f in frases(ruta.read_text(encoding="utf-8")))
    # Del glosario, la tabla de términos sin la columna «en inglés»; las otras secciones nombran las variantes.
    for termino, _, que_es, _ in _tabla(_seccion(GLOSARIO.read_text(encoding="utf-8"), "## Términos"), 4):
        yield from (("notebooks/GLOSARIO.md, «Términos»", "prosa", f, f) for f in frases(termino + " | " + que_es))


# --- Las comprobaciones --------------------------------------------------------------------------------------------


def variantes_en(tipo, texto, variantes):
    """Lista de (variante encontrada, escribe) en un texto de un tipo dado."""
    encontradas = []
    if tipo == "linea":
        return []  # sus nombres, comentarios y cadenas ya se miran uno a uno
    preparados = {}  # solo_en_la_prosa -> el texto donde buscar (se prepara una vez, no una por variante)

    def preparar(solo_en_la_prosa):
        donde_buscar = _sin_codigo_ni_enlaces(texto) if solo_en_la_prosa and tipo == "prosa" else texto
        if tipo == "prosa":
            donde_buscar = _sin_enfasis(donde_buscar)  # «las **posiciones** aprendidas»: el énfasis no la esconde
        if tipo == "nombre":
            donde_buscar = _nombre_en_palabras(texto)
        return plano(donde_buscar)

    for variante, escribe, solo_en_la_prosa in variantes:
        if solo_en_la_prosa and tipo == "nombre":
            continue  # `nn.TransformerEncoderLayer`, `encoder_layer`: nombres de PyTorch
        if solo_en_la_prosa not in preparados:
            preparados[solo_en_la_prosa] = preparar(solo_en_la_prosa)
        donde_buscar = preparados[solo_en_la_prosa]
        for m in patron(variante).finditer(donde_buscar):
            if solo_en_la_prosa and _entre_parentesis(donde_buscar, m.start()):
                continue  # el nombre inglés entre paréntesis, tras el castellano
            encontradas.append((m.group(), escribe))
    return encontradas


def sentidos_en(tipo, texto, sentidos):
    """Lista de (palabra, palabra que delata el otro sentido, no la uses para) que coinciden en un texto."""
    if tipo == "nombre":
        return []
    texto = plano(texto.replace("_", " ") if tipo == "linea" else texto)
    encontrados = []
    for palabra, no_para, junto_a in sentidos:
        if patron(palabra).search(texto):
            encontrados += [(palabra, otra, no_para) for otra in junto_a if patron(otra).search(texto)]
    return encontrados


VARIANTES, SENTIDOS, GLOSAS = leer_glosario()
TEXTOS = list(textos_del_curso())


def test_el_glosario_se_lee():
    assert len(VARIANTES) >= 8 and SENTIDOS and GLOSAS, "el glosario debería dar variantes, sentidos y glosas"
    assert GUIONES and any(d.endswith(".js") or ".js," in d for d, _, _, _ in TEXTOS), "no se lee el JavaScript"
    assert len({d.split(",")[0] for d, _, _, _ in TEXTOS}) > 20, "se leen muy pocos textos"


def test_ninguna_variante_descartada():
    problemas = [f"{donde}: «{hallada}» → escribe «{escribe}». En: {contexto.strip()[:200]}"
                 for donde, tipo, texto, contexto in TEXTOS
                 for hallada, escribe in variantes_en(tipo, texto, VARIANTES)]
    assert not problemas, ("Variantes que notebooks/GLOSARIO.md descarta («Variantes que el curso no usa»):\n"
                           + "\n".join(problemas))


def test_una_palabra_un_sentido():
    juntas = {}  # (dónde, frase o línea, palabra, no_para) -> palabras que delatan el otro sentido
    for donde, tipo, texto, contexto in TEXTOS:
        for palabra, otra, no_para in sentidos_en(tipo, texto, SENTIDOS):
            otras = juntas.setdefault((donde, contexto.strip()[:200], palabra, no_para), [])
            otras += [f"«{otra}»"] if f"«{otra}»" not in otras else []
    problemas = [f"{donde}: «{palabra}» junto a {', '.join(otras)}: no uses «{palabra}» para {no_para}. En: {frase}"
                 for (donde, frase, palabra, no_para), otras in juntas.items()]
    assert not problemas, ("Palabras con un solo sentido (notebooks/GLOSARIO.md, «Una palabra, un sentido»):\n"
                           + "\n".join(problemas))


@pytest.mark.parametrize("palabra, glosa, leccion", GLOSAS)
def test_la_glosa_va_la_primera_vez(palabra, glosa, leccion):
    rutas = [r for r in cuadernos(incluir_soluciones=False) if r.name.startswith(leccion + "_")]
    assert len(rutas) == 1, f"el glosario glosa «{palabra}» en la lección {leccion}, que no encuentro"
    buscada = patron(palabra)
    for i, celda in enumerate(leer_cuaderno(rutas[0])["cells"]):
        if celda["cell_type"] != "markdown":
            continue
        for frase in frases(fuente(celda)):
            sin_marcas = plano(frase.replace("*", ""))
            if buscada.search(sin_marcas):
                assert patron(glosa).search(sin_marcas), (
                    f"{rutas[0].name}, celda {i}: la primera vez que aparece «{palabra}» falta su glosa «{glosa}» "
                    f"en la misma frase (notebooks/GLOSARIO.md, «Palabras que se glosan»). En: {frase.strip()}")
                return
    pytest.fail(f"«{palabra}» no aparece en la prosa de {rutas[0].name}: quita su fila de «Palabras que se glosan»")


# --- Las comprobaciones se equivocan donde deben ---------------------------------------------------------------------


def test_el_detector_encuentra_las_formas():
    variantes, sentidos, glosas = leer_glosario()
    assert ("incrustación", "embedding", False) in variantes
    assert [v for v in variantes if v[0] == "encoder"][0][2], "«encoder (en la prosa)» se admite en el código"
    assert sentidos[0][0] == "puntaje" and "logit" in sentidos[0][2] and ("plata", "dinero", "01") in glosas
    assert variantes_en("prosa", "la Incrustación de cada palabra", variantes)
    assert variantes_en("texto", "con sus incrustaciones", variantes)
    assert variantes_en("nombre", "incrustacion", variantes) and variantes_en("nombre", "IncrustacionFija", variantes)
    assert variantes_en("prosa", "10 puntuaciones (logits)", variantes)
    assert variantes_en("prosa", "Embeber un índice", variantes)
    assert variantes_en("prosa", "fichas de relleno", variantes) and variantes_en("prosa", "la computadora", variantes)
    assert variantes_en("prosa", "un *decoder* causal", variantes)
    # Las marcas de énfasis de Markdown no parten una expresión ni esconden una palabra.
    assert variantes_en("prosa", "las **posiciones** aprendidas dicen de dónde viene", variantes)
    assert variantes_en("prosa", "una *posición* aprendida", variantes)
    assert variantes_en("prosa", "la _incrustación_ de cada palabra", variantes)
    assert variantes_en("prosa", "__incrustaciones__", variantes)
    assert _sin_enfasis("los **vectores** de d_modelo y el _énfasis_ (*decoder*)") == (
        "los vectores de d_modelo y el énfasis (decoder)")
    assert variantes_en("texto", "frases de distinto largo", variantes)
    assert variantes_en("prosa", "dos frases de distintos largos", variantes)
    assert variantes_en("texto", "las flechas afinan el vector", variantes)  # el plural del verbo
    assert [t for t, _ in textos_de_javascript("const a = 'un texto'; // un comentario\n")] == [
        "un texto", " un comentario"], "del JavaScript se leen las cadenas y los comentarios"
    assert not variantes_en("prosa", "el decodificador (*decoder*)", variantes)
    assert not variantes_en("prosa", "(*encoder-decoder*)", variantes)
    assert not variantes_en("nombre", "TransformerEncoderLayer", variantes)
    assert not variantes_en("prosa", "usa `nn.TransformerEncoderLayer`", variantes)
    assert not variantes_en("prosa", "el embedding de «banco»", variantes)
    assert sentidos_en("prosa", "una capa lineal que da 10 puntajes (*logits*) por posición", sentidos)
    assert sentidos_en("texto", " una puntuación por clase", [("puntuación", "", ["por clase"])])
    assert sentidos_en("prosa", "para tres longitudes, $d = 2, 64, 512$", sentidos)
    assert sentidos_en("linea", "self salida = nn Linear(d modelo, vocabulario) # 10 puntajes (logits)", sentidos)
    assert not sentidos_en("prosa", "dividir los puntajes por √d antes del softmax", sentidos)
    assert not sentidos_en("prosa", "frases de distinta longitud en un lote", sentidos)
    assert not sentidos_en("nombre", "longitud", sentidos)


def test_frases_y_codigo():
    assert frases("Con 0.87 dentro. Dos\nsigue.\n\n- tres") == ["Con 0.87 dentro.", "Dos sigue.", "- tres"]
    assert frases("| a | b. Otra |") == ["a", "b.", "Otra"] and frases("pone 0.5. y sigue") == ["pone 0.5. y sigue"]
    piezas = list(piezas_de_codigo('x_de_incrustacion = f(1)  # comentario\nprint("Hola. Adiós")\n%time x\n'))
    assert ("nombre", "x_de_incrustacion", "línea 1: x_de_incrustacion = f(1)  # comentario") in piezas
    assert ("texto", "comentario", "línea 1: x_de_incrustacion = f(1)  # comentario") in piezas
    assert ("texto", '"Hola.', 'línea 2: print("Hola. Adiós")') in piezas
    assert ("linea", "x de incrustacion f  comentario", "línea 1: x_de_incrustacion = f(1)  # comentario") in piezas
    assert not any("time" in texto for _, texto, _ in piezas)  # la línea mágica de Jupyter no es Python
