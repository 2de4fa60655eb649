"""Pruebas del corpus y del tokenizador de caracteres (lección 10)."""

import math
import re

import pytest
import torch

from herramientas import corpus as herramienta
from utilidades.texto import (
    RUTA_CORPUS,
    TokenizadorCaracteres,
    dividir,
    leer_corpus,
    perdida_bigramas,
    perdida_uniforme,
)


def test_tokenizador_ida_y_vuelta():
    tokenizador = TokenizadorCaracteres("hola, señor ñandú\n")
    assert len(tokenizador) == len(set("hola, señor ñandú\n"))
    assert tokenizador.caracteres == sorted(tokenizador.caracteres)
    codigos = tokenizador.codificar("año hola")
    assert all(isinstance(c, int) for c in codigos)
    assert tokenizador.decodificar(codigos) == "año hola"
    assert tokenizador.decodificar(torch.tensor(codigos)) == "año hola"


def test_tokenizador_caracter_desconocido():
    tokenizador = TokenizadorCaracteres("abc ")
    with pytest.raises(ValueError, match=r"no están en el vocabulario: \['z'\]"):
        tokenizador.codificar("abz")
    with pytest.raises(ValueError, match="el vocabulario va de 0 a 3"):
        tokenizador.decodificar([0, 7])


def test_corpus_que_falta(tmp_path):
    with pytest.raises(FileNotFoundError, match="No encuentro el corpus.*herramientas.corpus"):
        leer_corpus(tmp_path / "no_existe.txt")


def test_corpus_del_curso_y_su_readme():
    texto = leer_corpus()
    assert len(texto) >= 20_000
    assert "```" not in texto and "$" not in texto and "**" not in texto  # limpio de código, LaTeX y marcas
    for basura in ("()", ",,", ",.", "( )"):  # lo que dejaba borrar el código sin poner nada en su sitio
        # «torch.no_grad()» es código en línea que se queda; «la función ()» es código borrado
        assert not re.search(r"(?<![\w.])" + re.escape(basura), texto), f"el corpus tiene «{basura}»"
    leeme = (RUTA_CORPUS.parent / "README.md").read_text(encoding="utf-8")
    assert f"{herramienta._miles(len(texto))} caracteres" in leeme, "datos/README.md no describe el corpus actual"
    assert f"{len(set(texto))} caracteres distintos" in leeme
    assert "herramientas.corpus" in leeme


def test_dividir_en_tres_trozos_seguidos():
    datos = torch.arange(100)
    entrenamiento, validacion, prueba = dividir(datos)
    assert torch.equal(entrenamiento, torch.arange(80))
    assert torch.equal(validacion, torch.arange(80, 90)) and torch.equal(prueba, torch.arange(90, 100))
    entrenamiento, validacion, prueba = dividir(datos, fraccion_validacion=0.2, fraccion_prueba=0.05)
    assert (len(entrenamiento), len(validacion), len(prueba)) == (75, 20, 5)


@pytest.mark.parametrize("fracciones", [(0.0, 0.1), (0.1, -0.1), (0.5, 0.5)])
def test_dividir_rechaza_fracciones_imposibles(fracciones):
    with pytest.raises(ValueError, match="deben ser positivas y sumar menos de 1"):
        dividir(torch.arange(100), *fracciones)


def test_lineas_base():
    assert perdida_uniforme(94) == pytest.approx(4.5433, abs=1e-4)
    # Un texto que alterna a y b: los bigramas lo predicen casi perfecto.
    datos = torch.tensor([0, 1] * 200)
    assert perdida_bigramas(datos[:300], datos[300:], 2, suavizado=0.01) < 0.01
    # Con un suavizado enorme, los conteos no pesan y queda el uniforme.
    assert perdida_bigramas(datos[:300], datos[300:], 5, suavizado=1e9) == pytest.approx(math.log(5), abs=1e-6)


def test_limpiar_markdown():
    md = ("## 1. Título\n\nUna **frase** con `codigo()` y $x^2$ y un [enlace](https://a.b).\n\n"
          "```python\nprint(1)\n```\n$$\nQK^T\n$$\nY $a =\nb$ fin.\n\n"
          "- viñeta uno\n- viñeta _dos_\n| a | b |\n|---|---|\n")
    limpio = herramienta.limpiar_markdown(md)
    assert limpio.splitlines() == ["1. Título", "Una frase con codigo() y x^2 y un enlace.", "Y a = b fin.",
                                   "viñeta uno", "viñeta dos"]


def test_el_codigo_y_las_formulas_en_linea_se_leen_como_texto():
    limpio = herramienta.limpiar_markdown
    assert limpio("Con `3 * d_modelo` y `__init__`, **ya**.") == "Con 3 * d_modelo y __init__, ya."
    assert limpio("Hagámoslo a mano con $x = [1, 2]$: $\\mu = 1.5$.") == "Hagámoslo a mano con x = [1, 2]: mu = 1.5."
    assert herramienta.formula_en_texto("d_{modelo} = 96") == "d_modelo = 96"
    assert herramienta.formula_en_texto("\\sqrt{d} \\approx 1.41") == "√d ≈ 1.41"
    assert herramienta.formula_en_texto("\\frac{1}{8}") == "1/8"
    assert herramienta.formula_en_texto("\\mathrm{softmax}(QK^\\top/\\sqrt{d})") == "softmax(QK^T/√d)"
    assert herramienta.formula_en_texto("\\begin{pmatrix} a \\\\ b \\end{pmatrix}") == "una fórmula"
    assert herramienta.formula_en_texto("a + b + c + d + e + f + g + h + i + j + k + l") == "una fórmula"
    assert herramienta.codigo_en_texto("x" * 50) == "este código"
    assert herramienta._miles(88520) == "88 520"


def test_la_herramienta_no_sobrescribe_sin_forzar(tmp_path, monkeypatch, capsys):
    destino = tmp_path / "corpus.txt"
    destino.write_text("el corpus de antes\n", encoding="utf-8")
    monkeypatch.setattr(herramienta, "CORPUS", destino)
    monkeypatch.setattr(herramienta, "LEEME", tmp_path / "README.md")
    monkeypatch.setattr(herramienta, "RAIZ", tmp_path)
    assert herramienta.main([]) == 1
    assert destino.read_text(encoding="utf-8") == "el corpus de antes\n"
    assert "--forzar" in capsys.readouterr().out
    assert herramienta.main(["--forzar"]) == 0
    assert destino.read_text(encoding="utf-8") != "el corpus de antes\n"
    assert (tmp_path / "README.md").exists()
