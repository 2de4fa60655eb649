"""Un solo idioma en todo el curso: números que se leen bien en castellano y un término por idea.

- Miles: «49,984» se lee en castellano como un decimal. El curso escribe los miles con un espacio fino
  («49 984», `utilidades.formato.miles`) y mantiene el punto decimal de Python (lo dicen el README y el
  glosario). Se revisa la prosa, el código que imprime y las salidas guardadas.
- Términos: cada idea tiene un nombre elegido en notebooks/GLOSARIO.md; las variantes descartadas no aparecen
  en la prosa, las figuras ni los textos impresos.
"""

import re

import pytest

from herramientas.celdas import RAIZ, cuadernos, fuente, leer_cuaderno

# Un número con comas de miles: 1,000 · 49,984 · 1,000,000 (no una forma como (60,768) ni una lista 3,4,5).
MILES_CON_COMA = re.compile(r"(?<![\d(\[,.\w])\d{1,3}(?:,\d{3})+(?![\d,])")
# Una especificación de formato con separador de miles: {n:,} {n:>10,} {x:,.2f} o format(n, ",").
FORMATO_CON_COMA = re.compile(r":(?:.?[<>^=])?[+\- ]?#?0?\d*,(?:\.\d+)?[a-zA-Z%]?\}|format\([^)]*['\"],")
# Variantes descartadas (notebooks/GLOSARIO.md, «Variantes que el curso no usa») -> término elegido. Cada patrón se
# busca sin distinguir mayúsculas; «batch norm» vale solo como nombre inglés entre paréntesis.
DESCARTADAS = {
    r"incrustaci(?:ón|ones)": "embedding",
    r"embeber|embebe|embebido": "embedding («buscar su embedding»)",
    r"puntuaci(?:ón|ones)": "puntajes",
    r"fichas? de relleno": "token de relleno",
    r"(?<![(*])batch norm": "normalización por lotes (*batch norm*)",
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
        for descartada, elegida in DESCARTADAS.items():
            if donde.endswith("GLOSARIO.md"):
                continue  # el glosario nombra las variantes descartadas para decir que no se usan
            for m in re.finditer(rf"(?<!\w)(?:{descartada})(?!\w)", texto, re.I):
                problemas.append(f"{donde}: «{m.group()}» → usa «{elegida}»")
    assert not problemas, "\n".join(problemas)


def test_el_detector_de_variantes_funciona():
    def hallar(texto):
        return [d for d in DESCARTADAS if re.search(rf"(?<!\w)(?:{d})(?!\w)", texto, re.I)]

    assert hallar("la Incrustación de cada palabra") and hallar("Embeber un índice") and hallar("2 cabeza(s)")
    assert hallar("A diferencia de batch norm, no mira")
    assert not hallar("la normalización por lotes (*batch norm*)") and not hallar("el embedding de «banco»")


def test_el_detector_de_miles_funciona():
    for texto in ("son 49,984 parámetros", "1,000 pasos", "1,000,000 bytes", "total: 49,984\n"):
        assert MILES_CON_COMA.search(texto), texto
    for texto in ("forma (60,768)", "[3,100]", "49 984", "0.875", "x,100", "2,5,16", "1.000,5"):
        assert not MILES_CON_COMA.search(texto), texto
    assert FORMATO_CON_COMA.search('print(f"{n:,}")') and FORMATO_CON_COMA.search('f"{n:>10,}"')
    assert FORMATO_CON_COMA.search('f"{x:,.2f}"') and FORMATO_CON_COMA.search("format(n, ',')")
    for codigo in ('print(f"{n:.2f}, {m}")', "{(b, h): x, y}", "{'a': 1, 'b': 2}", "{k: v for k, v in d}"):
        assert not FORMATO_CON_COMA.search(codigo), codigo
