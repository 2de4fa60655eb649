"""Pruebas de la lección 06: posiciones sinusoidales y comprobaciones de sus ejercicios."""

import math

import pytest
import torch

from utilidades.ejercicios import evaluar
from utilidades.posicion import posicion_sinusoidal


def _formula_escalar(pos, columna, d_modelo):
    """PE(pos, columna) con la fórmula del artículo, número a número."""
    i2 = columna - columna % 2  # 2i
    angulo = pos / 10000 ** (i2 / d_modelo)
    return math.sin(angulo) if columna % 2 == 0 else math.cos(angulo)


@pytest.mark.parametrize("largo,d_modelo", [(1, 2), (7, 4), (50, 32), (20, 6)])
def test_igual_a_la_formula_escalar(largo, d_modelo):
    tabla = posicion_sinusoidal(largo, d_modelo)
    assert tabla.shape == (largo, d_modelo)
    assert tabla.dtype == torch.float32
    esperado = torch.tensor(
        [[_formula_escalar(p, c, d_modelo) for c in range(d_modelo)] for p in range(largo)], dtype=torch.float64
    )
    assert torch.allclose(tabla.double(), esperado, atol=1e-5)


def test_valores_del_temario():
    tabla = posicion_sinusoidal(50, 32)
    esperado = torch.tensor([[0.00, 1.00, 0.00, 1.00], [0.84, 0.54, 0.53, 0.85], [0.91, -0.42, 0.90, 0.43]])
    assert torch.allclose(tabla[:3, :4], esperado, atol=0.005)


def test_la_similitud_solo_depende_de_la_distancia():
    P = posicion_sinusoidal(60, 16).double()
    similitud = P @ P.T
    omega = 1 / 10000 ** (torch.arange(0, 16, 2, dtype=torch.float64) / 16)
    for k in range(60):
        diagonal = torch.diagonal(similitud, k)
        assert torch.allclose(diagonal, torch.full_like(diagonal, torch.cos(omega * k).sum().item()), atol=1e-4)


def test_ninguna_posicion_se_repite():
    P = posicion_sinusoidal(200, 32).double()
    distancias = torch.cdist(P, P)
    distancias.fill_diagonal_(float("inf"))
    assert distancias.min() > 0.5


def test_d_impar_da_un_error_claro():
    with pytest.raises(ValueError, match="d_modelo debe ser par.*7"):
        posicion_sinusoidal(10, 7)


def test_la_atencion_sin_posicion_es_equivariante_y_con_posicion_no():
    from utilidades.multicabeza import AtencionMulticabeza

    torch.manual_seed(0)
    capa = AtencionMulticabeza(16, 4)
    x = torch.randn(1, 6, 16)
    permutacion = torch.tensor([3, 0, 5, 1, 4, 2])
    with torch.no_grad():
        assert torch.allclose(capa(x[:, permutacion]), capa(x)[:, permutacion], atol=1e-6)
        pe = posicion_sinusoidal(6, 16)
        assert not torch.allclose(capa(x[:, permutacion] + pe), capa(x + pe)[:, permutacion], atol=1e-3)


# --- Ejercicios -----------------------------------------------------------------------------------------


def _sumar_bien(x):
    return x + posicion_sinusoidal(x.shape[1], x.shape[2])


def _sumar_en_su_sitio(x):
    x += posicion_sinusoidal(x.shape[1], x.shape[2])
    return x


def _solo_posiciones(x):
    return posicion_sinusoidal(x.shape[1], x.shape[2]).expand_as(x)


def _sin_return(x):
    x + posicion_sinusoidal(x.shape[1], x.shape[2])


def _seno_y_coseno_cambiados(x):
    tabla = posicion_sinusoidal(x.shape[1], x.shape[2])
    return x + tabla[:, [c + 1 if c % 2 == 0 else c - 1 for c in range(x.shape[2])]]  # cosenos en las pares


def _largo_equivocado(x):
    return x + posicion_sinusoidal(x.shape[0], x.shape[2])  # usa el tamaño del lote en vez de L


SOLUCIONES = {
    "06.1": [math.sin(3), math.cos(3)],
    "06.2": 2 * math.pi * 10000 ** (2 / 80),  # d = 80 en el enunciado
    "06.3": _sumar_bien,
    "06.4": -7,  # giro_misterioso() es R₋₇
}

ERRONEAS = [
    ("06.1", [math.cos(3), math.sin(3)], "orden"),
    ("06.1", [math.sin(math.radians(3)), math.cos(math.radians(3))], "radianes"),
    ("06.1", [0.5, 0.5], "10000"),
    ("06.1", 0.14, "dos números"),
    ("06.2", 10000 ** (2 / 80), "2π"),
    ("06.2", 2 * math.pi * 10000 ** (2 / 64), "d = 64"),
    ("06.2", 2 * math.pi * 10000 ** (3 / 80), "columna del coseno"),
    ("06.2", 2 * math.pi * 10000 ** (4 / 80), "2i = 2"),
    ("06.2", 2 * math.pi * 10000 ** (2 / 32), "d = 32"),
    ("06.2", 6.28, "2i = 2"),
    ("06.3", _sumar_en_su_sitio, "en su sitio"),
    ("06.3", _solo_posiciones, "solo las posiciones"),
    ("06.3", _sin_return, "return"),
    ("06.3", _largo_equivocado, "L filas"),
    ("06.3", 3, "debe ser una función"),
    ("06.3", _seno_y_coseno_cambiados, "cambiados de sitio"),
    ("06.4", 7, "no el signo"),
    ("06.4", 3, "ejemplo de la lección"),
    ("06.4", 0, "identidad"),
    ("06.4", 12, "distancia q − p"),
]


def test_los_errores_de_06_2_no_se_juntan():
    """Con la d del enunciado, la respuesta y cada error frecuente de 06.2 quedan a más de la tolerancia (0.05) unos de
    otros: si dos se juntaran, el estudiante recibiría la pista de otro error (con d = 96, 2i = 3 daba el periodo de
    d = 64)."""
    from itertools import combinations

    from utilidades.ejercicios.leccion_06 import D_06_2, errores_06_2

    valores = [("respuesta", 2 * math.pi * 10000 ** (2 / D_06_2))] + [(t, v) for v, t in errores_06_2(D_06_2)]
    juntos = [(a, b) for (a, x), (b, y) in combinations(valores, 2) if abs(x - y) < 0.1]
    assert not juntos, juntos


@pytest.mark.parametrize("clave", sorted(SOLUCIONES))
def test_la_solucion_pasa(clave):
    veredicto = evaluar(clave, SOLUCIONES[clave])
    assert veredicto.correcto, veredicto.mensaje


@pytest.mark.parametrize("clave,respuesta,trozo", ERRONEAS, ids=[f"{c}-{t}" for c, _, t in ERRONEAS])
def test_una_respuesta_erronea_recibe_pista(clave, respuesta, trozo):
    veredicto = evaluar(clave, respuesta)
    assert not veredicto.correcto
    assert veredicto.mensaje.startswith("Pista:")
    assert trozo in veredicto.mensaje


@pytest.mark.parametrize("clave", sorted(SOLUCIONES))
def test_los_tres_puntos_no_pasan(clave):
    assert not evaluar(clave, ...).correcto


def _rotacion(k, d_modelo):
    """La matriz de giro de la lección 06: lleva PE(p) a PE(p + k)."""
    omega = 1 / 10000 ** (torch.arange(0, d_modelo, 2, dtype=torch.float64) / d_modelo)
    cos, sen = torch.diag(torch.cos(omega * k)), torch.diag(torch.sin(omega * k))
    R = torch.zeros(d_modelo, d_modelo, dtype=torch.float64)
    R[0::2, 0::2], R[0::2, 1::2], R[1::2, 0::2], R[1::2, 1::2] = cos, sen, -sen, cos
    return R


@pytest.mark.parametrize("k", [1, 3, -5])
def test_avanzar_k_posiciones_es_un_giro_que_no_depende_de_p(k):
    P = posicion_sinusoidal(80, 32).double()
    R = _rotacion(k, 32)
    desde, hasta = (slice(0, 80 - k), slice(k, 80)) if k > 0 else (slice(-k, 80), slice(0, 80 + k))
    assert torch.allclose(P[desde] @ R.T, P[hasta], atol=1e-5)
    assert torch.allclose(R @ R.T, torch.eye(32, dtype=torch.float64), atol=1e-12)  # un giro: no estira nada
    # con la consulta girada, cada posición mira sobre todo a la que está k pasos más allá
    puntajes = (P @ R.T) @ P.T
    validas = range(max(0, -k), min(80, 80 - k))
    assert all(puntajes[p].argmax() == p + k for p in validas)


def test_el_giro_misterioso_de_06_4_mira_k_atras_desde_cualquier_posicion():
    """giro_misterioso() es R_k con el k que acepta 06.4: con esa W_Q (W_K la identidad, entradas solo posiciones),
    cada posición de 100 da su puntaje mayor a la que está k pasos más allá, y la traspuesta mira al otro lado."""
    from utilidades.ejercicios.leccion_06 import K_06_4, giro_misterioso

    W = giro_misterioso()
    assert W.shape == (64, 64)
    assert torch.allclose(W, _rotacion(K_06_4, 64), atol=1e-12)
    assert evaluar("06.4", K_06_4).correcto and K_06_4 < 0 and abs(K_06_4) != 3
    P = posicion_sinusoidal(100, 64).double()
    puntajes = (P @ W.T) @ P.T
    validas = range(max(0, -K_06_4), min(100, 100 - K_06_4))
    assert all(puntajes[p].argmax() == p + K_06_4 for p in validas)
    assert all(((P @ W) @ P.T)[p].argmax() == p - K_06_4 for p in range(-K_06_4, 100 + K_06_4))


def test_el_producto_escalar_solo_no_distingue_antes_de_despues():
    P = posicion_sinusoidal(50, 32).double()
    similitud = P @ P.T
    assert torch.allclose(similitud[20, 20 + 3], similitud[20, 20 - 3], atol=1e-5)


def test_hay_al_menos_tres_ejercicios():
    from utilidades.ejercicios import ejercicios_registrados

    assert len(ejercicios_registrados("06")) >= 3


def test_posicion_con_un_largo_negativo():
    with pytest.raises(ValueError, match=r"largo es el número de posiciones: debe ser un entero mayor o igual que 0, "
                                         r"pero es -1"):
        posicion_sinusoidal(-1, 4)
    with pytest.raises(TypeError, match=r"largo es el número de posiciones: debe ser un número entero"):
        posicion_sinusoidal(3.5, 4)
    assert posicion_sinusoidal(0, 4).shape == (0, 4)
