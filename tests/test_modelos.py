"""Pruebas de los modelos del curso: recuentos de parámetros, formas, entradas malas."""

import pytest
import torch

from utilidades.bloques import BloqueTransformer
from utilidades.invertir import TransformerJuguete


def contar(modelo):
    return sum(p.numel() for p in modelo.parameters())


def test_transformer_juguete_tiene_13674_parametros():
    modelo = TransformerJuguete(vocabulario=10, contexto=8, d_modelo=32, cabezas=2, d_mlp=128)
    assert contar(modelo) == 13_674
    assert contar(modelo.bloque) == 12_704
    assert contar(modelo.posiciones) == 8 * 32


def test_sin_posiciones_son_256_parametros_menos():
    assert contar(TransformerJuguete(posiciones=False)) == 13_674 - 256


@pytest.mark.parametrize("cabezas", [1, 2, 4, 8])
def test_las_cabezas_no_cambian_el_recuento(cabezas):
    assert contar(TransformerJuguete(cabezas=cabezas)) == 13_674


def test_forma_de_los_logits_y_secuencias_mas_cortas():
    modelo = TransformerJuguete()
    assert modelo(torch.randint(0, 10, (5, 8))).shape == (5, 8, 10)
    assert modelo(torch.randint(0, 10, (3, 5))).shape == (3, 5, 10)  # más corta que el contexto


def test_el_juguete_es_embeddings_mas_bloque_mas_salida():
    """El forward es exactamente: embedding + posición -> bloque -> LayerNorm -> lineal."""
    torch.manual_seed(0)
    modelo = TransformerJuguete().eval()
    x = torch.randint(0, 10, (4, 8))
    h = modelo.tokens(x) + modelo.posiciones.weight  # (4, 8, 32)
    esperado = modelo.salida(modelo.norma(modelo.bloque(h)))
    torch.testing.assert_close(modelo(x), esperado)
    assert isinstance(modelo.bloque, BloqueTransformer)


def test_sin_posiciones_es_equivariante_a_permutaciones():
    """Sin posiciones, permutar la entrada solo permuta la salida (la bolsa de palabras de la lección 06)."""
    torch.manual_seed(0)
    modelo = TransformerJuguete(posiciones=False).eval()
    x = torch.randint(0, 10, (3, 8))
    permutacion = torch.tensor([3, 0, 7, 1, 6, 2, 5, 4])
    with torch.no_grad():
        torch.testing.assert_close(modelo(x[:, permutacion]), modelo(x)[:, permutacion], atol=1e-5, rtol=0)
    con_posiciones = TransformerJuguete().eval()
    with torch.no_grad():
        assert not torch.allclose(con_posiciones(x[:, permutacion]), con_posiciones(x)[:, permutacion], atol=1e-3)


def test_entradas_malas_dan_mensajes_claros():
    modelo = TransformerJuguete()
    with pytest.raises(ValueError, match="torch.long"):
        modelo(torch.rand(2, 8))
    with pytest.raises(ValueError, match=r"forma \(lote, L\).*forma \(3,\).*unsqueeze"):
        modelo(torch.tensor([1, 2, 3]))  # falta la dimensión de lote
    with pytest.raises(ValueError, match=r"torch\.long.*torch\.int32.*x\.long\(\)"):
        modelo(torch.tensor([[1, 2, 3]], dtype=torch.int32))  # el tipo, no la forma
    with pytest.raises(ValueError, match="de 0 a 9, pero hay un -1"):
        modelo(torch.tensor([[1, -1, 3]]))  # el valor malo, no el máximo
    with pytest.raises(ValueError, match="de 0 a 9, pero hay un 12"):
        modelo(torch.tensor([[12, 2, 3]]))
    with pytest.raises(ValueError, match="sabe hasta 8"):
        modelo(torch.zeros(1, 9, dtype=torch.long))
    with pytest.raises(ValueError, match="de 0 a 9"):
        modelo(torch.tensor([[1, 2, 10]]))
    with pytest.raises(ValueError, match="forma"):
        modelo([[1, 2, 3]])  # una lista, no un tensor
    with pytest.raises(ValueError, match="divisible"):
        TransformerJuguete(cabezas=3)
