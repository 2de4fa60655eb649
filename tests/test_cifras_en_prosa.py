"""Cada cifra que la prosa da como resultado la imprime una celda del curso, o viene de una fuente citada.

Qué es una cifra de resultado. En el texto de las celdas de Markdown (también dentro de las fórmulas) se buscan
los números que un estudiante lee como algo medido o calculado: los decimales (0.93, 1.885), los porcentajes
(61 %) y los enteros de cuatro o más cifras (1300, 49 984, con el espacio fino de miles del glosario). Los enteros
pequeños no se revisan: casi siempre cuentan cosas que la lección fija (7 palabras, 8 dígitos, 2 cabezas).
No son cifras: lo que va entre acentos graves (código), las direcciones de los enlaces, la numeración de los
títulos, lo que sigue a «sección», «ejercicio», «tabla», «figura», «apartado» o «capítulo» (referencias), los
números de versión (2.13.0) y los años de las citas («(2017)», «Vaswani et al., 2017»).

Cuándo está respaldada. Una cifra de resultado vale si se cumple una de estas cosas:

1. La imprime una celda de código del mismo cuaderno (sus salidas guardadas: texto, text/plain, text/html). Un
   cuaderno de soluciones cuenta también con las salidas de su lección, y un párrafo que nombra «la lección NN»,
   con las de esa lección. La prosa puede redondear: 1.885 vale si se imprimió 1.8853, no si se imprimió 1.89;
   0.93 y 0.930, 49 984 y 49984, 61 % y 0.61 son la misma cifra. Tras «unos», «casi», «en torno a» o «≈» basta
   con las cifras significativas que da la prosa (unos 50 000 por 49 984).
2. Es una **cota** («menos del 1 %», «más del 95 %», «al menos», «≥») y alguna cifra impresa del cuaderno, del
   mismo tipo, la cumple. En una pregunta o en el enunciado de un ejercicio, una cota es una meta que se pide, no
   un resultado.
3. Es un **ajuste**: la escribe como literal el código de la lección o de sus soluciones (d_modelo = 64, una
   semilla, p = 0.5, el 20 % → 0.2, una tasa de aprendizaje). Los literales de un `assert` no cuentan: un assert
   comprueba un resultado, no lo fija.
4. Está en el registro de cifras citadas (notebooks/CIFRAS_CITADAS.md), que dice de dónde viene, para esa
   lección, y el mismo párrafo nombra la fuente con el texto que pide el registro.

El registro tampoco puede tener filas de más: cada fila la usa, con su cita al lado, cada lección que nombra.

Límites, a sabiendas: una cifra se busca en todas las salidas del cuaderno, no solo en la celda de al lado; una
cifra que coincide con un literal del código pasa por ajuste aunque hable de otra cosa; y una cota la cumple
cualquier cifra impresa del mismo tipo. Lo que se escapa así son coincidencias; lo que no se escapa es una cifra
que no sale de ninguna parte, que es el error que esta prueba busca.
"""

import ast
import copy
import dataclasses
import functools
import re

import pytest

from herramientas.cuadernos import ETIQUETA_NAVEGACION, RAIZ, cuadernos, fuente, leer_cuaderno

REGISTRO = RAIZ / "notebooks" / "CIFRAS_CITADAS.md"
FINO = "[\u202f\u2009\u00a0]"  # los espacios finos con que se separan los miles
# Un número de la prosa: 49 984 · 1300 · 0.93 · 61 % · 3 · 10^{23} (sin letras, puntos, barras ni exponentes pegados
# delante o detrás). Los miles se leen también separados con un espacio normal («175 000»), como los lee un lector.
NUMERO = re.compile(rf"(?<![\w.,/^_{{\\])(\d{{1,3}}(?:(?:{FINO}| )\d{{3}})+(?![\d.])|\d+)(\.\d+)?(?![\w]|\.\d|\^)"
                    r"(?:\s*(?:·|×)\s*10\^\{?(\d+)\}?)?(\s*%)?")
# Lo que convierte el número que sigue en una referencia: «sección 3.5», «ejercicio 10.2», «tabla 2».
REFERENCIA = re.compile(r"(?:secci[oó]n(?:es)?|ejercicios?|tablas?|figuras?|apartados?|cap[ií]tulos?|§)\s*$", re.I)
# Un año en una cita: «(2017)», «(Vaswani et al., 2017)», «(2017, sección 3.5)», «Radford y otros, 2019;».
ANO_DE_CITA = re.compile(r"[(,]\s*$")
APROXIMADO = re.compile(r"(?:unos|unas|casi|en torno a|alrededor de|cerca de|del orden de|aproximadamente|≈|~)"
                        r"(?:\s+(?:el|la|los|las|un|una|de|del|a|al))*\s*$", re.I)
MENOS = re.compile(r"(?:menos|por debajo|no llega(?:n)? ni|ni)\s+(?:de|del|a|al)(?:\s+(?:el|la|un|una))?\s*$"
                   r"|(?:baja(?:n)?|bajar)\s+del?\s*$|(?:≤|<)\s*$", re.I)
MAS = re.compile(r"(?:más|por encima)\s+(?:de|del)(?:\s+(?:el|la|un|una))?\s*$|al menos(?:\s+(?:el|la|un|una))?\s*$"
                 r"|supera(?:n|r)?(?:\s+(?:el|la|un|una))?\s*$|(?:≥|>)\s*$", re.I)
LECCION_CITADA = re.compile(r"lecci[oó]n(?:es)?\s+((?:\d\d(?:\s*(?:,|y)\s*)?)+)", re.I)


@dataclasses.dataclass
class Cifra:
    """Una cifra de la prosa: su valor, cuántos decimales da, si es porcentaje, y cómo la presenta el texto."""

    texto: str
    valor: float
    decimales: int
    porcentaje: bool
    aproximada: bool = False
    cota: str = ""  # "", "menos" o "mas"
    pregunta: bool = False  # en una pregunta o en el enunciado de un ejercicio
    parrafo: str = ""
    celda: int = -1


def _limpiar(texto):
    """Quita de la prosa lo que no es prosa (código, enlaces, numeración de títulos) y unifica la notación."""
    texto = re.sub(r"<!--.*?-->", " ", texto, flags=re.S)
    texto = re.sub(r"```.*?```", " ", texto, flags=re.S)
    texto = re.sub(r"`[^`\n]*`", " ", texto)
    texto = re.sub(r"\]\([^)]*\)", "]", texto)
    texto = re.sub(r"https?://\S+", " ", texto)
    texto = re.sub(r"<[^>]+>", " ", texto)
    texto = re.sub(r"^(#+\s*)\d+(?:\.\d+)*\.?", r"\1", texto, flags=re.M)
    texto = re.sub(r"\d+\.\d+\.\d+", " ", texto)  # números de versión
    texto = texto.replace("\\,", "\u202f").replace("\\%", "%").replace("\\ ", " ").replace("−", "-")
    texto = re.sub(r"\s*\\(?:cdot|times)\s*", " · ", texto).replace("*", "")  # «*» y «**»: solo énfasis
    return texto.replace("\\approx", "≈").replace("\\geq", "≥").replace("\\leq", "≤").replace("\\ge ", "≥ ")


def _es_pregunta(texto, fin):
    """¿La frase en la que está la cifra acaba en signo de interrogación?"""
    final = re.search(r"[?!]|\.(?!\d)|\n\s*\n", texto[fin:])
    return bool(final) and final.group() == "?"


def cifras_de_la_prosa(markdown, enunciado=False, celda=-1):
    """Las cifras de resultado de un texto Markdown (ver la docstring del módulo), en orden."""
    texto = _limpiar(markdown)
    parrafos = [(m.start(), m.end(), m.group()) for m in re.finditer(r"(?:[^\n]|\n(?!\s*\n))+", texto)]
    for m in NUMERO.finditer(texto):
        entera, decimal, exponente, porcentaje = m.group(1), m.group(2) or "", m.group(3), bool(m.group(4))
        agrupada = re.search(f"{FINO}| ", entera) is not None or bool(exponente)
        digitos = re.sub(f"{FINO}| ", "", entera)
        antes = texto[max(0, m.start() - 40):m.start()].replace("$", "")  # «unos $3 · 10^{23}$»
        if not (decimal or porcentaje or agrupada or len(digitos) >= 4):
            continue
        if REFERENCIA.search(antes):
            continue
        if not (decimal or porcentaje or agrupada) and re.fullmatch(r"(19|20)\d\d", digitos) and (
                ANO_DE_CITA.search(antes) and re.match(r"\s*[),;:]", texto[m.end():])):
            continue
        parrafo = next((p for a, b, p in parrafos if a <= m.start() < b), "")
        cota = "menos" if MENOS.search(antes) else "mas" if MAS.search(antes) else ""
        valor = float(digitos + decimal) * 10 ** int(exponente or 0)
        yield Cifra(texto=m.group().strip(), valor=valor, decimales=max(len(decimal) - 1, 0) - int(exponente or 0),
                    porcentaje=porcentaje, aproximada=bool(APROXIMADO.search(antes)), cota=cota,
                    pregunta=enunciado or _es_pregunta(texto, m.end()), parrafo=parrafo, celda=celda)


# Un número impreso: 0.930 · 49 984 · 61 % · -1.80 (el signo no importa: la prosa dice «baja 0.3»).
IMPRESO = re.compile(rf"(?<![\w.])(\d{{1,3}}(?:{FINO}\d{{3}})+|\d+)(\.\d+)?(?:[eE]([+-]?\d+))?(?!\.\d)(\s*%)?")


def numeros_impresos(textos):
    """[(valor, decimales, es_porcentaje)] de todos los números que aparecen en unos textos de salida."""
    numeros = []
    for texto in textos:
        for m in IMPRESO.finditer(texto):
            decimal, exponente = m.group(2) or "", int(m.group(3) or 0)
            numeros.append((float(re.sub(FINO, "", m.group(1)) + decimal) * 10 ** exponente,
                            max(len(decimal) - 1, 0) - exponente, bool(m.group(4))))
    return numeros


def textos_de_salida(cuaderno):
    """Los textos que imprimen las celdas de código de un cuaderno (stdout, text/plain, text/html)."""
    for celda in cuaderno["cells"]:
        if celda["cell_type"] != "code":
            continue
        for salida in celda.get("outputs", []):
            if "text" in salida:
                yield "".join(salida["text"])
            datos = salida.get("data", {})
            for tipo in ("text/plain", "text/html", "text/markdown"):
                if tipo in datos:
                    yield re.sub(r"<[^>]+>", " ", "".join(datos[tipo]))


def _decimales_significativos(cifra):
    if cifra.decimales <= 0:
        return cifra.decimales
    return len(f"{cifra.valor:.{cifra.decimales}f}".partition(".")[2].rstrip("0"))


def _tolerancia(cifra):
    """Media unidad de la última cifra que da la prosa (de la última significativa, si es aproximada)."""
    if cifra.aproximada and cifra.decimales == 0 and cifra.valor:
        ceros = len(str(int(cifra.valor))) - len(str(int(cifra.valor)).rstrip("0"))
        return 0.5 * 10 ** ceros + 1e-9
    return 0.5 * 10 ** -cifra.decimales + 1e-9


def impresa(cifra, numeros):
    """¿Alguno de los números impresos es esta cifra (redondeada como la da la prosa) o cumple su cota?"""
    for valor, decimales, porcentaje in numeros:
        if cifra.porcentaje:
            if porcentaje:
                candidato, precision = valor, decimales
            elif decimales >= 2 and valor <= 1:
                candidato, precision = 100 * valor, decimales - 2
            else:
                continue
        else:
            if porcentaje:
                candidato, precision = valor / 100, decimales + 2
            else:
                candidato, precision = valor, decimales
        if cifra.cota == "menos" and candidato < cifra.valor:
            return True
        if cifra.cota == "mas" and candidato > cifra.valor:
            return True
        if cifra.cota:
            continue
        if abs(abs(candidato) - cifra.valor) <= _tolerancia(cifra) and (
                cifra.aproximada or precision >= _decimales_significativos(cifra)):
            return True
    return False


def literales_de_ajuste(codigo):
    """Los números que el código escribe como literales, salvo los de un assert (que comprueban, no fijan)."""
    lineas = [linea for linea in codigo.splitlines() if not linea.lstrip().startswith(("%", "!"))]
    try:
        arbol = ast.parse("\n".join(lineas))
    except SyntaxError:
        return set()
    en_assert = {id(n) for a in ast.walk(arbol) if isinstance(a, ast.Assert) for n in ast.walk(a)}
    return {float(n.value) for n in ast.walk(arbol) if isinstance(n, ast.Constant) and id(n) not in en_assert
            and isinstance(n.value, int | float) and not isinstance(n.value, bool)}


def es_ajuste(cifra, literales):
    if cifra.porcentaje:
        return any(abs(cifra.valor / 100 - v) < 1e-12 for v in literales)
    return cifra.valor in literales


@dataclasses.dataclass
class FilaDelRegistro:
    cifra: str
    que_es: str
    fuente: str
    cita: str
    lecciones: tuple


def leer_registro(texto):
    """Las filas de la tabla del registro: | cifra | qué es | fuente | cita en la prosa | lecciones |."""
    filas = []
    for linea in texto.splitlines():
        columnas = [c.strip() for c in linea.strip().strip("|").split("|")]
        if len(columnas) != 5 or not linea.lstrip().startswith("|") or set(columnas[0]) <= set("-: "):
            continue
        if columnas[0].lower() == "cifra":
            continue
        lecciones = tuple(re.findall(r"\d\d", columnas[4]))
        filas.append(FilaDelRegistro(columnas[0], columnas[1], columnas[2], columnas[3].strip("«»"), lecciones))
    return filas


def _valor_del_registro(fila):
    cifra = next(cifras_de_la_prosa(fila.cifra), None)
    return cifra.valor if cifra else float("nan")


def citada(cifra, registro, leccion):
    """La fila del registro que respalda esta cifra en esta lección, si el párrafo nombra su fuente; o None."""
    for fila in registro:
        if leccion in fila.lecciones and abs(_valor_del_registro(fila) - cifra.valor) < 1e-9 and (
                fila.cita.lower() in re.sub(r"\s+", " ", cifra.parrafo).lower()):
            return fila
    return None


def _numero(ruta):
    return ruta.name[:2]


@functools.cache
def _cuaderno(ruta):
    return leer_cuaderno(ruta)


def _ruta_de_leccion(numero):
    return next((r for r in cuadernos(incluir_soluciones=False) if r.name.startswith(numero)), None)


def _solucion(ruta):
    return RAIZ / "notebooks" / "soluciones" / f"{ruta.stem}_soluciones.ipynb"


def cifras_del_cuaderno(cuaderno, es_leccion=True):
    """Todas las cifras de resultado de la prosa de un cuaderno."""
    for i, celda in enumerate(cuaderno["cells"]):
        if celda["cell_type"] != "markdown" or ETIQUETA_NAVEGACION in celda.get("metadata", {}).get("tags", []):
            continue
        texto = fuente(celda)
        enunciado = es_leccion and texto.lstrip().startswith("**Ejercicio")
        yield from cifras_de_la_prosa(texto, enunciado=enunciado, celda=i)


def sin_respaldo(cuaderno, impresos, literales, registro, leccion, impresos_de_leccion=lambda n: [],
                 es_leccion=True):
    """[(cifra, motivo)] de las cifras de la prosa que nada respalda (ver la docstring del módulo)."""
    problemas = []
    for cifra in cifras_del_cuaderno(cuaderno, es_leccion=es_leccion):
        otros = [n for m in LECCION_CITADA.finditer(cifra.parrafo) for n in re.findall(r"\d\d", m.group(1))]
        numeros = impresos + [x for n in otros for x in impresos_de_leccion(n)]
        if impresa(cifra, numeros) or (cifra.cota and cifra.pregunta) or es_ajuste(cifra, literales):
            continue
        if citada(cifra, registro, leccion):
            continue
        en_registro = [f for f in registro if abs(_valor_del_registro(f) - cifra.valor) < 1e-9]
        if en_registro and leccion in en_registro[0].lecciones:
            motivo = f"está en el registro, pero su párrafo no nombra la fuente («{en_registro[0].cita}»)"
        elif en_registro:
            motivo = f"está en el registro, pero la fila no incluye la lección {leccion}"
        else:
            motivo = "ninguna celda la imprime, el código no la fija y no está en el registro de cifras citadas"
        problemas.append((cifra, motivo))
    return problemas


def _impresos_de(ruta):
    return numeros_impresos(textos_de_salida(_cuaderno(ruta)))


def _impresos_de_leccion(numero):
    ruta = _ruta_de_leccion(numero)
    return _impresos_de(ruta) if ruta else []


def _literales_de(ruta):
    literales = set()
    for celda in _cuaderno(ruta)["cells"]:
        if celda["cell_type"] == "code":
            literales |= literales_de_ajuste(fuente(celda))
    return literales


def revisar(ruta, registro, cuaderno=None):
    """Problemas de un cuaderno del curso (o de `cuaderno`, una versión cambiada de él): lista de textos legibles."""
    es_solucion = ruta.parent.name == "soluciones"
    leccion = _ruta_de_leccion(_numero(ruta))
    impresos = _impresos_de(ruta) + (_impresos_de(leccion) if es_solucion else [])
    literales = _literales_de(ruta) | _literales_de(leccion)
    if not es_solucion and _solucion(ruta).exists():
        literales |= _literales_de(_solucion(ruta))
    problemas = sin_respaldo(cuaderno or _cuaderno(ruta), impresos, literales, registro, _numero(ruta),
                             _impresos_de_leccion, es_leccion=not es_solucion)
    return [f"{ruta.relative_to(RAIZ)} celda {c.celda}: «{c.texto}» ({motivo}). Párrafo: «{c.parrafo[:160]}…»"
            for c, motivo in problemas]


def _registro():
    return leer_registro(REGISTRO.read_text(encoding="utf-8")) if REGISTRO.exists() else []


CUADERNOS = cuadernos()


@pytest.mark.parametrize("ruta", CUADERNOS, ids=[r.stem for r in CUADERNOS])
def test_cada_cifra_de_la_prosa_tiene_respaldo(ruta):
    problemas = revisar(ruta, _registro())
    assert not problemas, (
        "Cifras de la prosa que ninguna celda imprime. Haz que una celda las calcule e imprima con los datos del "
        "curso, corrige el texto a lo que imprime la celda o, si vienen de un artículo o una ficha de modelo, "
        "añádelas a notebooks/CIFRAS_CITADAS.md y nombra la fuente en el mismo párrafo:\n" + "\n".join(problemas))


def miles_mal_escritos(markdown):
    """Números de la prosa cuyos miles no siguen el glosario: separados con un espacio normal, o un número de
    cuatro cifras partido fuera de una tabla (1 149 en vez de 1149)."""
    malos = []
    for linea in _limpiar(markdown).splitlines():
        for cifra in cifras_de_la_prosa(linea):
            grupos = re.split(f"{FINO}| ", re.match(r"[\d\s\u202f\u2009\u00a0]+", cifra.texto).group().strip())
            if len(grupos) < 2:
                continue
            if " " in cifra.texto.rstrip("% "):
                malos.append(f"«{cifra.texto}»: los miles van con un espacio fino (U+202F), no con un espacio normal")
            elif len("".join(grupos)) == 4 and not linea.lstrip().startswith("|"):
                malos.append(f"«{cifra.texto}»: un número de cuatro cifras va junto ({''.join(grupos)})")
    return malos


@pytest.mark.parametrize("ruta", CUADERNOS, ids=[r.stem for r in CUADERNOS])
def test_los_miles_de_la_prosa_siguen_el_glosario(ruta):
    malos = [f"{ruta.relative_to(RAIZ)} celda {i}: {m}" for i, celda in enumerate(_cuaderno(ruta)["cells"])
             if celda["cell_type"] == "markdown" for m in miles_mal_escritos(fuente(celda))]
    assert not malos, "Números escritos de otra forma que la que fija notebooks/GLOSARIO.md:\n" + "\n".join(malos)


def test_miles_mal_escritos():
    assert miles_mal_escritos("Tiene 49 984 parámetros y 2 000 secuencias.") == [
        "«49 984»: los miles van con un espacio fino (U+202F), no con un espacio normal",
        "«2 000»: los miles van con un espacio fino (U+202F), no con un espacio normal"]
    assert miles_mal_escritos("Tiene 49\u202f984 parámetros y 1\u202f149 imágenes.") == [
        "«1\u202f149»: un número de cuatro cifras va junto (1149)"]
    assert miles_mal_escritos("| atención | 4\u202f160 |\n\nSon 1149 imágenes, 0.93 y 61 %.") == []


def test_el_registro_existe_y_tiene_filas():
    assert REGISTRO.exists(), "falta notebooks/CIFRAS_CITADAS.md, el registro de cifras citadas"
    filas = _registro()
    assert filas, "el registro de cifras citadas no tiene ninguna fila legible"
    for fila in filas:
        assert fila.que_es and fila.fuente and fila.cita and fila.lecciones, f"fila incompleta: {fila}"
        assert _valor_del_registro(fila) == _valor_del_registro(fila), (
            f"la columna «cifra» de la fila {fila} no es un número que la prueba sepa leer (0.02, 1.3, 175 000, "
            "$3 \\cdot 10^{23}$)")


def test_cada_fila_del_registro_se_usa_con_su_cita():
    sin_usar = []
    for fila in _registro():
        valor = _valor_del_registro(fila)
        for leccion in fila.lecciones:
            ruta = _ruta_de_leccion(leccion)
            usos = [c for c in cifras_del_cuaderno(_cuaderno(ruta)) if abs(c.valor - valor) < 1e-9] if ruta else []
            if not any(fila.cita.lower() in re.sub(r"\s+", " ", c.parrafo).lower() for c in usos):
                sin_usar.append(f"«{fila.cifra}» ({fila.que_es}): la lección {leccion} no la da junto a "
                                f"«{fila.cita}»" if usos else f"«{fila.cifra}»: la lección {leccion} no la usa")
    assert not sin_usar, "Filas del registro que ninguna lección usa como dicen:\n" + "\n".join(sin_usar)


# --- El detector, probado con textos inventados ---------------------------------------------------------------

def _problemas(markdown, salidas=(), codigo="", registro=(), leccion="01"):
    cuaderno = {"cells": [{"cell_type": "markdown", "metadata": {}, "source": markdown}]}
    return [c.texto for c, _ in sin_respaldo(cuaderno, numeros_impresos(salidas), literales_de_ajuste(codigo),
                                             list(registro), leccion)]


def test_detecta_una_cifra_inventada():
    salida = ["pérdida de validación: 1.8853\nexactitud: 93.2 %"]
    assert _problemas("La validación llega a 1.885 y acierta el 93 %.", salida) == []
    assert _problemas("La validación llega a 1.742 y acierta el 93 %.", salida) == ["1.742"]
    assert _problemas("La validación llega a 1.885 y acierta el 97 %.", salida) == ["97 %"]


def test_la_prosa_no_puede_dar_mas_precision_que_la_salida():
    assert _problemas("La pérdida queda en 1.885.", ["pérdida 1.89"]) == ["1.885"]
    assert _problemas("La pérdida queda en 1.89.", ["pérdida 1.885"]) == []


def test_formatos_equivalentes():
    assert _problemas("Tiene 49\u202f984 parámetros.", ["49984 parámetros"]) == []
    assert _problemas("Tiene 49\u202f984 parámetros.", ["49\u202f948 parámetros"]) == ["49\u202f984"]
    assert _problemas("El peso es 0.930.", ["peso 0.93"]) == []
    assert _problemas("Se lleva el 61 % del peso.", ["plata: 0.610"]) == []
    assert _problemas("Se lleva el 61\u202f% del peso.", ["plata (61%)"]) == []
    assert _problemas("Unos 50\u202f000 parámetros.", ["49\u202f984"]) == []
    assert _problemas("Exactamente 50\u202f000 parámetros.", ["49\u202f984"]) == ["50\u202f000"]


def test_cotas():
    assert _problemas("Queda menos del 1 % de la primera palabra.", ["Ana: 0.8 %"]) == []
    assert _problemas("Queda menos del 1 % de la primera palabra.", ["Ana: 3.1 %"]) == ["1 %"]
    assert _problemas("Acierta más del 95 % en prueba.", ["exactitud 97.1 %"]) == []
    assert _problemas("Acierta más del 95 % en prueba.", ["exactitud 91.3 %"]) == ["95 %"]
    assert _problemas("¿Con qué temperatura supera el 90 %?") == []


def test_los_ajustes_no_son_resultados():
    codigo = "d_modelo = 64\ntasa = 0.003\nvalidacion = 0.2\nassert round(perdida, 3) == 1.885\n"
    assert _problemas("Entrenamos con una tasa de 0.003 y apartamos el 20 % para validar.", codigo=codigo) == []
    # Un assert comprueba un resultado: no lo convierte en ajuste.
    assert _problemas("La pérdida queda en 1.885.", codigo=codigo) == ["1.885"]


def test_lo_que_no_es_cifra():
    texto = ("## 2.1 Puntajes\n\nLo explica Vaswani et al. (2017), sección 3.5; usa `lr = 0.001`, torch 2.13.0 y "
             "[el enlace](https://example.com/3.14). Ve al ejercicio 10.2.")
    assert _problemas(texto) == []


def test_registro_con_su_cita():
    registro = leer_registro("| cifra | qué es | fuente | cita en la prosa | lecciones |\n|---|---|---|---|---|\n"
                             "| 1.3 | millones de imágenes de ImageNet | Dosovitskiy et al. (2021), sección 4.1 "
                             "| Dosovitskiy et al., 2021 | 09 |\n")
    citado = "Los ViT se preentrenan con 1.3 millones de imágenes (Dosovitskiy et al., 2021)."
    assert _problemas(citado, registro=registro, leccion="09") == []
    assert _problemas("Los ViT se preentrenan con 1.3 millones de imágenes.", registro=registro,
                      leccion="09") == ["1.3"]
    assert _problemas(citado, registro=registro, leccion="10") == ["1.3"]


def test_una_cifra_inventada_en_una_leccion_de_verdad_se_detecta():
    """Con dos cifras inventadas en la prosa de la lección 03, la prueba señala esas dos y ninguna más."""
    ruta = _ruta_de_leccion("03")
    antes = revisar(ruta, _registro())
    cuaderno = copy.deepcopy(_cuaderno(ruta))
    celda = next(i for i, c in enumerate(cuaderno["cells"]) if c["cell_type"] == "markdown"
                 and "0.32" in fuente(c))
    cuaderno["cells"][celda]["source"] = fuente(cuaderno["cells"][celda]) + (
        "\n\nCon $d = 64$, el peso mayor escalado acaba en 0.347 y la clave favorita gana en un 71 % de las consultas.")
    problemas = [p for p in revisar(ruta, _registro(), cuaderno) if p not in antes]
    assert len(problemas) == 2 and "«0.347»" in problemas[0] and "«71 %»" in problemas[1], problemas


def test_una_leccion_citada_presta_sus_salidas():
    texto = "En la lección 10 la pérdida bajó a 1.885."
    cuaderno = {"cells": [{"cell_type": "markdown", "metadata": {}, "source": texto}]}
    impresos_de = {"10": numeros_impresos(["validación 1.8853"])}
    assert sin_respaldo(cuaderno, [], set(), [], "11", lambda n: impresos_de.get(n, [])) == []
    cuaderno["cells"][0]["source"] = "La pérdida bajó a 1.885."
    assert len(sin_respaldo(cuaderno, [], set(), [], "11", lambda n: impresos_de.get(n, []))) == 1
