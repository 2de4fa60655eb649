"""Pruebas del mecanismo de ejercicios y de sus herramientas comunes (cada ejercicio se prueba por tabla en
test_ejercicios_tabla.py)."""

import numpy as np
import pytest
import torch

from utilidades.ejercicios import (
    Fallo,
    comprobar,
    ejercicios_registrados,
    entero,
    evaluar,
    exigir_entero,
    exigir_funcion,
    exigir_numero,
    llamar,
    un_numero,
)


def test_sin_responder_no_es_correcto():
    veredicto = evaluar("02.1", ...)
    assert not veredicto.correcto and "tres puntos" in veredicto.mensaje


def test_clave_desconocida_da_mensaje_claro():
    with pytest.raises(ValueError, match="No conozco el ejercicio"):
        evaluar("99.9", 1)
    with pytest.raises(TypeError, match="texto"):
        evaluar(2.1, 1)


def test_comprobar_imprime_en_castellano(capsys):
    from casos_ejercicios.leccion_02 import CASOS

    comprobar("02.4", CASOS["02.4"].solucion)
    assert capsys.readouterr().out.startswith("✅ Ejercicio 02.4: ¡correcto!")
    comprobar("02.4", 0.01)
    salida = capsys.readouterr().out
    assert salida.startswith("❌ Ejercicio 02.4: todavía no. Pista:")


def test_una_funcion_que_falla_no_rompe_la_comprobacion():
    def rota(pesos, T):
        raise RuntimeError("ups")

    veredicto = evaluar("02.3", rota)
    assert not veredicto.correcto and "RuntimeError" in veredicto.mensaje


def test_registro_de_la_leccion_02():
    assert ejercicios_registrados("02") == ["02.1", "02.2", "02.3", "02.4"]


def test_un_numero_acepta_escalares_y_rechaza_lo_demas():
    assert un_numero(3) == 3.0 and un_numero(torch.tensor([2.5])) == 2.5 and un_numero([[7]]) == 7.0
    assert un_numero(np.int64(4)) == 4.0 and un_numero(np.float32(0.5)) == 0.5
    for mala in ([1, 2], "tres", "3", None, True, torch.zeros(2, 2)):
        assert un_numero(mala) is None


def test_entero_acepta_cualquier_tipo_entero():
    for bueno in (16640, 16640.0, np.int64(16640), np.float64(16640.0), torch.tensor(16640), torch.tensor([16640])):
        assert entero(bueno) == 16640
    for malo in (16640.5, "16640", None, True, float("nan"), [1, 2]):
        assert entero(malo) is None


def test_exigir_numero_y_entero_terminan_con_una_pista():
    assert exigir_numero(torch.tensor(0.25)) == 0.25 and exigir_entero(np.int32(7)) == 7
    with pytest.raises(Fallo, match="un solo número .* un texto"):
        exigir_numero("0.25")
    with pytest.raises(Fallo, match="NaN o infinito"):
        exigir_numero(float("inf"))
    with pytest.raises(Fallo, match="sin decimales; tu respuesta vale 7.5"):
        exigir_entero(7.5)


def test_exigir_funcion_y_llamar_dan_el_mensaje_comun():
    ejemplo = "comprobar('02.3', pesos_de_atencion)"
    with pytest.raises(Fallo, match="pásala sin paréntesis, como en comprobar"):
        exigir_funcion(torch.zeros(3), ejemplo)
    with pytest.raises(Fallo, match="la respuesta es None"):
        exigir_funcion(None, ejemplo)
    with pytest.raises(Fallo, match="no devuelve nada: falta un `return`"):
        llamar(lambda x: None, 1)
    with pytest.raises(Fallo, match="debe devolver un tensor de PyTorch y devuelve una lista de 2 elementos"):
        llamar(lambda x: [x, x], 1)
    with pytest.raises(Fallo, match=r"devuelve forma \(2, 3\) y se esperaba \(3, 2\)\. ¿Transpones\?"):
        llamar(lambda: torch.zeros(2, 3), forma=(3, 2), pista_forma="¿Transpones?")
    assert llamar(lambda: torch.ones(3, 2), forma=(3, 2)).shape == (3, 2)


def test_un_fallo_dentro_de_una_comprobacion_es_su_veredicto():
    veredicto = evaluar("02.3", "no soy una función")
    assert not veredicto.correcto and veredicto.mensaje.startswith("Pista:") and "sin paréntesis" in veredicto.mensaje


def test_una_respuesta_que_no_es_funcion_oye_que_debe_serlo():
    """Si se pide una función y llega un número, la pista dice que la respuesta debe ser una función (no que «es»
    una función, que sonaba a que ya lo era)."""
    for clave in ("01.2", "04.3", "06.3", "08.1"):
        mensaje = evaluar(clave, 3).mensaje
        assert "la respuesta debe ser una función" in mensaje and "de tipo int" in mensaje, mensaje


def test_la_vigilancia_del_softmax_deja_todo_como_estaba():
    """03.3 cambia por un momento torch.softmax y compañía para ver si el estudiante los usa: al terminar, incluso si
    su función falla, deben quedar los originales."""
    import torch.nn.functional as F

    originales = (torch.softmax, F.softmax, torch.special.softmax, torch.Tensor.softmax)

    def rota(puntajes, T):
        torch.softmax(torch.as_tensor(puntajes), dim=-1)
        raise RuntimeError("ups")

    veredicto = evaluar("03.3", rota)
    assert not veredicto.correcto and "RuntimeError" in veredicto.mensaje
    assert (torch.softmax, F.softmax, torch.special.softmax, torch.Tensor.softmax) == originales
    assert not evaluar("03.3", lambda p, T: torch.softmax(torch.as_tensor(p) / T, dim=-1).numpy()).correcto
    assert torch.softmax(torch.zeros(2), dim=0).tolist() == [0.5, 0.5]


def test_una_dependencia_que_falta_no_se_confunde_con_un_ejercicio_desconocido(monkeypatch):
    """Si a las comprobaciones de una lección les falta un paquete, el error lo nombra y dice cómo instalarlo."""
    import sys

    monkeypatch.delitem(sys.modules, "utilidades.ejercicios.leccion_02", raising=False)
    monkeypatch.setitem(sys.modules, "numpy", None)  # import numpy falla como si no estuviera instalado
    with pytest.raises(ModuleNotFoundError, match=r"ejercicio 02\.1 hace falta el paquete «numpy», que no está "
                                                  r"instalado.*%pip install numpy.*requirements\.txt"):
        evaluar("02.1", 1)
    with pytest.raises(ValueError, match="No conozco el ejercicio"):  # una lección sin comprobaciones, como antes
        evaluar("99.9", 1)
