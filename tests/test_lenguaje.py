"""Un solo idioma en todo el curso: números que se leen bien en castellano y un término por idea.

- Miles: «49,984» se lee en castellano como un decimal. El curso escribe los miles con un espacio fino
  («49 984», `utilidades.formato.miles`) y mantiene el punto decimal de Python (lo dicen el README y el
  glosario). Se revisa la prosa, el código que imprime y las salidas guardadas.
- Términos: cada idea tiene un nombre elegido en notebooks/GLOSARIO.md; las variantes descartadas no aparecen
  en la prosa, las figuras ni los textos impresos.
- Inglés: el glosario promete que la lección que presenta un término da también su nombre en inglés entre
  paréntesis. Se comprueba en la primera celda de texto de esa lección en la que aparece el término.
"""

import re

import pytest

from herramientas.cuadernos import ETIQUETA_NAVEGACION, RAIZ, cuadernos, fin_de_la_apertura, fuente, leer_cuaderno

# Un número con comas de miles: 1,000 · 49,984 · 1,000,000 (no una forma como (60,768) ni una lista 3,4,5).
MILES_CON_COMA = re.compile(r"(?<![\d(\[,.\w])\d{1,3}(?:,\d{3})+(?![\d,])")
# Una especificación de formato con separador de miles: {n:,} {n:>10,} {x:,.2f} o format(n, ",").
FORMATO_CON_COMA = re.compile(r":(?:.?[<>^=])?[+\- ]?#?0?\d*,(?:\.\d+)?[a-zA-Z%]?\}|format\([^)]*['\"],")
# Variantes descartadas (notebooks/GLOSARIO.md, «Variantes que el curso no usa») -> término elegido. Cada patrón se
# busca sin distinguir mayúsculas; «batch norm» vale solo como nombre inglés entre paréntesis.
# Las palabras descartadas las vigila tests/test_vocabulario.py, que las lee de notebooks/GLOSARIO.md (la única
# lista). Aquí quedan las formas que el glosario encarga a esta prueba (su tabla «Formas»).
DESCARTADAS = {
    r"cabeza\(s\)": "1 cabeza, 2 cabezas",
}


def _textos(ruta):
    """(dónde, texto) de la prosa, el código y las salidas de texto de un cuaderno."""
    for i, celda in enumerate(leer_cuaderno(ruta)["cells"]):
        donde = f"{ruta.relative_to(RAIZ)} celda {i}"
        if celda["cell_type"] == "markdown":
            yield donde + " (texto)", fuente(celda), "texto"
        elif celda["cell_type"] == "code":
            yield donde + " (código)", fuente(celda), "codigo"
            for salida in celda.get("outputs", []):
                texto = salida.get("text") or salida.get("data", {}).get("text/plain", "")
                yield donde + " (salida)", "".join(texto), "salida"


CUADERNOS = cuadernos()


@pytest.mark.parametrize("ruta", CUADERNOS, ids=[r.stem for r in CUADERNOS])
def test_miles_sin_coma(ruta):
    problemas = []
    for donde, texto, tipo in _textos(ruta):
        if tipo == "codigo":
            codigo = "\n".join(linea for linea in texto.splitlines() if not linea.lstrip().startswith("#"))
            problemas += [f"{donde}: formato con comas de miles «{m.group()}»"
                          for m in FORMATO_CON_COMA.finditer(codigo)]
            continue
        texto = re.sub(r"`[^`]*`", "", texto) if tipo == "texto" else texto  # el código citado no es prosa
        problemas += [f"{donde}: «{m.group()}»" for m in MILES_CON_COMA.finditer(texto)]
    assert not problemas, "Escribe los miles con un espacio (49 984), no con coma:\n" + "\n".join(problemas)


def _prosa_y_salidas():
    for ruta in CUADERNOS:
        for donde, texto, tipo in _textos(ruta):
            if tipo != "codigo":
                yield donde, texto
    for ruta in [RAIZ / "README.md", RAIZ / "notebooks" / "GLOSARIO.md"]:
        if ruta.exists():
            yield str(ruta.relative_to(RAIZ)), ruta.read_text(encoding="utf-8")


def test_un_termino_por_idea():
    problemas = []
    for donde, texto in _prosa_y_salidas():
        texto = texto.replace("**", "")  # «ficha de **relleno**» también es «ficha de relleno»
        for descartada, elegida in DESCARTADAS.items():
            if donde.endswith("GLOSARIO.md"):
                continue  # el glosario nombra las variantes descartadas para decir que no se usan
            for m in re.finditer(rf"(?<!\w)(?:{descartada})(?!\w)", texto, re.I):
                problemas.append(f"{donde}: «{m.group()}» → usa «{elegida}»")
    assert not problemas, "\n".join(problemas)


def test_el_detector_de_variantes_funciona():
    def hallar(texto):
        return [d for d in DESCARTADAS if re.search(rf"(?<!\w)(?:{d})(?!\w)", texto, re.I)]

    assert hallar("2 cabeza(s)") and hallar("con 1 Cabeza(s)")
    assert not hallar("1 cabeza, 2 cabezas") and not hallar("las cabezas (heads)")


def test_el_detector_de_miles_funciona():
    for texto in ("son 49,984 parámetros", "1,000 pasos", "1,000,000 bytes", "total: 49,984\n"):
        assert MILES_CON_COMA.search(texto), texto
    for texto in ("forma (60,768)", "[3,100]", "49 984", "0.875", "x,100", "2,5,16", "1.000,5"):
        assert not MILES_CON_COMA.search(texto), texto
    assert FORMATO_CON_COMA.search('print(f"{n:,}")') and FORMATO_CON_COMA.search('f"{n:>10,}"')
    assert FORMATO_CON_COMA.search('f"{x:,.2f}"') and FORMATO_CON_COMA.search("format(n, ',')")
    for codigo in ('print(f"{n:.2f}, {m}")', "{(b, h): x, y}", "{'a': 1, 'b': 2}", "{k: v for k, v in d}"):
        assert not FORMATO_CON_COMA.search(codigo), codigo


# --- El nombre en inglés, la primera vez ------------------------------------------------------------------------

GLOSARIO = RAIZ / "notebooks" / "GLOSARIO.md"


def terminos_del_glosario(texto=None):
    """Filas (término, en inglés, lección) de la tabla «## Términos» del glosario."""
    texto = GLOSARIO.read_text(encoding="utf-8") if texto is None else texto
    tabla = texto.split("## Términos", 1)[1].split("\n## ", 1)[0]
    filas = []
    for linea in tabla.splitlines():
        celdas = [c.strip() for c in linea.strip().strip("|").split("|")]
        if linea.startswith("|") and len(celdas) == 4 and re.fullmatch(r"\d\d", celdas[3]):
            filas.append((celdas[0], celdas[1], celdas[3]))
    return filas


def primer_nombre(celda):
    """El nombre que se busca en una celda del glosario: sin marcas, sin lo que va entre paréntesis y solo la
    primera alternativa. «query (Q)» -> «query»; «positional embedding / encoding» -> «positional embedding»;
    «MLP, feed-forward network» -> «MLP»; «peso (de atención)» -> «peso»."""
    texto = re.sub(r"\s*\([^)]*\)", "", re.sub(r"[`*]", "", celda))
    return re.split(r"\s*[/,]\s*", texto)[0].strip()


def _patron_castellano(termino):
    """Regex del término, también en plural: «máscara causal» encuentra «máscaras causales»; «posición»,
    «posiciones»."""
    palabras = []
    for palabra in termino.split():
        if len(palabra) < 3 or not palabra[-1].isalpha():
            palabras.append(re.escape(palabra))
        elif palabra.endswith("ión"):
            palabras.append(re.escape(palabra[:-2]) + "(?:ón|ones)")
        else:
            palabras.append(re.escape(palabra) + "(?:s|es)?")
    return re.compile(r"(?<!\w)" + r"\s+".join(palabras) + r"(?!\w)", re.I)


def _patron_ingles(nombre):
    """Regex del nombre inglés, también en plural: «key» encuentra «keys»; «query», «queries»."""
    *resto, ultima = nombre.split()
    if re.search(r"[^aeiou]y$", ultima):
        ultima = re.escape(ultima[:-1]) + "(?:y|ies)"
    else:
        ultima = re.escape(ultima) + "(?:s|es)?"
    return re.compile(r"(?<!\w)" + r"\s+".join([*map(re.escape, resto), ultima]) + r"(?!\w)", re.I)


def _mismo_nombre(termino, ingles):
    """True si el término ya es la palabra inglesa («softmax», «MLP», «top-k» de «top-k sampling»)."""
    return bool(re.search(rf"(?<!\w){re.escape(termino)}(?!\w)", ingles, re.I))


def _celdas_de_texto(ruta):
    """(índice, texto sin marcas) de las celdas de texto de una lección, sin las de navegación entre lecciones. La
    apertura (título, objetivos, requisitos…, aunque ocupe varias celdas) cuenta como una sola, la 0."""
    celdas = leer_cuaderno(ruta)["cells"]
    fin = fin_de_la_apertura(celdas)
    yield 0, re.sub(r"[`*]", "", "\n\n".join(fuente(c) for c in celdas[:fin]))
    for i, celda in enumerate(celdas[fin:], start=fin):
        if celda["cell_type"] == "markdown" and ETIQUETA_NAVEGACION not in celda.get("metadata", {}).get("tags", []):
            yield i, re.sub(r"[`*]", "", fuente(celda))


def primera_aparicion(termino, ruta):
    """(índice, texto) de la primera celda de texto de la lección en la que aparece el término, o None."""
    patron = _patron_castellano(termino)
    return next(((i, texto) for i, texto in _celdas_de_texto(ruta) if patron.search(texto)), None)


def casos_de_ingles(lecciones_fuera=()):
    """(término, nombre en inglés, lección) de cada término cuyo nombre en inglés es otro."""
    casos = []
    for termino, ingles, leccion in terminos_del_glosario():
        termino, ingles = primer_nombre(termino), primer_nombre(ingles)
        if leccion not in lecciones_fuera and not _mismo_nombre(termino, ingles):
            casos.append((termino, ingles, leccion))
    return casos


def test_nombre_en_ingles_la_primera_vez():
    lecciones = {ruta.name[:2]: ruta for ruta in cuadernos(incluir_soluciones=False)}
    casos = casos_de_ingles()
    assert len(casos) >= 40, f"el glosario debería dar más de 40 términos con nombre en inglés: leo {len(casos)}"
    problemas = []
    for termino, ingles, leccion in casos:
        if leccion not in lecciones:
            problemas.append(f"«{termino}»: el glosario lo pone en la lección {leccion}, que no existe")
            continue
        ruta = lecciones[leccion]
        encontrada = primera_aparicion(termino, ruta)
        if encontrada is None:
            problemas.append(f"«{termino}» no aparece en {ruta.name}, la lección que le da el glosario: corrige "
                             "la fila del glosario (término o lección) o preséntalo en la lección")
        elif not _patron_ingles(ingles).search(encontrada[1]):
            problemas.append(f"«{termino}» aparece por primera vez en {ruta.name}, celda {encontrada[0]}, sin su "
                             f"nombre en inglés: añade «(*{ingles}*)» tras el término")
    assert not problemas, ("El glosario promete el nombre en inglés, entre paréntesis, la primera vez que una lección "
                           "presenta un término:\n" + "\n".join(problemas))


def test_el_detector_de_nombres_en_ingles_funciona():
    tabla = """## Términos

| término en el curso | en inglés | qué es | lección |
|---|---|---|---|
| consulta | query (Q) | vector | 01 |
| máscara de relleno | padding mask (`key_padding_mask`) | oculta | 05 |
| top-k | top-k sampling | sortear | 10 |

## Variantes que el curso no usa
"""
    assert terminos_del_glosario(tabla) == [("consulta", "query (Q)", "01"),
                                            ("máscara de relleno", "padding mask (`key_padding_mask`)", "05"),
                                            ("top-k", "top-k sampling", "10")]
    assert primer_nombre("positional embedding / encoding") == "positional embedding"
    assert primer_nombre("MLP, feed-forward network") == "MLP" and primer_nombre("*dropout*") == "dropout"
    assert primer_nombre("peso (de atención)") == "peso" and primer_nombre("pre-norma / post-norma") == "pre-norma"
    assert _mismo_nombre("top-k", "top-k sampling") and _mismo_nombre("MLP", "MLP")
    assert not _mismo_nombre("pre-norma", "pre-norm") and not _mismo_nombre("contexto", "context")
    castellano = _patron_castellano("máscara causal")
    assert castellano.search("las Máscaras causales") and not castellano.search("máscara")
    assert _patron_castellano("posición sinusoidal").search("posiciones sinusoidales")
    assert _patron_castellano("ley de escala").search("las leyes de escala")
    assert _patron_castellano("[CLS]").search("un token [CLS] aprendido")
    assert not _patron_castellano("codificador").search("el decodificador")
    assert _patron_ingles("query").search("(*queries*)") and _patron_ingles("key").search("claves (*keys*)")
    assert _patron_ingles("attention weight").search("(*attention weights*)")
    assert not _patron_ingles("pre-norm").search("un bloque pre-norma")
