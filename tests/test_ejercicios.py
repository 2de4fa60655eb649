"""Pruebas del mecanismo de ejercicios y de las comprobaciones de la lección 02."""

import math

import pytest
import torch

from utilidades.ejercicios import comprobar, ejercicios_registrados, evaluar


def test_sin_responder_no_es_correcto():
    veredicto = evaluar("02.1", ...)
    assert not veredicto.correcto and "tres puntos" in veredicto.mensaje


def test_clave_desconocida_da_mensaje_claro():
    with pytest.raises(ValueError, match="No conozco el ejercicio"):
        evaluar("99.9", 1)
    with pytest.raises(TypeError, match="texto"):
        evaluar(2.1, 1)


def test_comprobar_imprime_en_castellano(capsys):
    comprobar("02.4", 15)
    assert capsys.readouterr().out.startswith("✅ Ejercicio 02.4: ¡correcto!")
    comprobar("02.4", 14)
    salida = capsys.readouterr().out
    assert salida.startswith("❌ Ejercicio 02.4: todavía no. Pista:")


def test_una_funcion_que_falla_no_rompe_la_comprobacion():
    def rota(Q, K):
        raise RuntimeError("ups")

    veredicto = evaluar("02.3", rota)
    assert not veredicto.correcto and "RuntimeError" in veredicto.mensaje


def test_registro_de_la_leccion_02():
    assert ejercicios_registrados("02") == ["02.1", "02.2", "02.3", "02.4"]


def test_02_1_puntajes():
    assert evaluar("02.1", [1.41, 0.71, 2.12]).correcto
    assert evaluar("02.1", torch.tensor([2, 1, 3]) / math.sqrt(2)).correcto
    olvido = evaluar("02.1", [2, 1, 3])
    assert not olvido.correcto and "falta un paso" in olvido.mensaje
    assert not evaluar("02.1", [1.41, 0.71]).correcto
    assert not evaluar("02.1", "hola").correcto


def test_02_2_claves_identicas():
    assert evaluar("02.2", [1 / 3] * 3).correcto
    assert not evaluar("02.2", [0.58, 0.14, 0.28]).correcto


def test_02_3_funcion_de_pesos():
    def buena(Q, K):
        return torch.softmax(Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1]), dim=-1)

    def sin_escala(Q, K):
        return torch.softmax(Q @ K.transpose(-2, -1), dim=-1)

    def dimension_mala(Q, K):
        return torch.softmax(Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1]), dim=-2)

    def solo_2d(Q, K):
        return torch.softmax(Q @ K.t() / math.sqrt(Q.shape[-1]), dim=-1)

    assert evaluar("02.3", buena).correcto
    assert "√d" in evaluar("02.3", sin_escala).mensaje
    assert "no suman 1" in evaluar("02.3", dimension_mala).mensaje
    assert not evaluar("02.3", solo_2d).correcto
    assert not evaluar("02.3", 42).correcto
    pista = evaluar("02.3", lambda Q, K: None).mensaje
    assert "return" in pista


def test_02_4_celdas_ocultas():
    assert evaluar("02.4", 15).correcto
    for mal in (21, 36, 6, "15", True):
        assert not evaluar("02.4", mal).correcto


def test_ninguna_pista_revela_la_solucion():
    mensajes = [evaluar("02.1", [9, 9, 9]).mensaje, evaluar("02.2", [1, 0, 0]).mensaje, evaluar("02.4", 3).mensaje]
    for mensaje in mensajes:
        assert "1.41" not in mensaje and "0.33" not in mensaje and "15" not in mensaje


def test_un_numero_acepta_escalares_y_rechaza_lo_demas():
    from utilidades.ejercicios import un_numero

    assert un_numero(3) == 3.0 and un_numero(torch.tensor([2.5])) == 2.5 and un_numero([[7]]) == 7.0
    for mala in ([1, 2], "tres", None, True, torch.zeros(2, 2)):
        assert un_numero(mala) is None
