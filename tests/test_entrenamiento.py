"""Pruebas de los datos de dígitos, las métricas, la evaluación y el bucle de entrenamiento (lección 08)."""

import pytest
import torch
import torch.nn.functional as F

from utilidades.ejercicios import evaluar
from utilidades.entrenamiento import (
    entrenar,
    exactitud,
    exactitud_secuencias,
    perdida_por_posicion,
    perdida_y_exactitud,
)
from utilidades.invertir import TransformerJuguete, datos_invertir_digitos, secuencias_invertidas

# --- Datos -----------------------------------------------------------------------------------------------

def test_recuentos_y_primer_ejemplo():
    x_ent, y_ent, x_val, y_val = datos_invertir_digitos()
    assert x_ent.shape == y_ent.shape == (20_000, 8)
    assert x_val.shape == y_val.shape == (2_000, 8)
    assert x_ent[0].tolist() == [4, 9, 3, 0, 3, 9, 7, 3]
    assert y_ent[0].tolist() == [3, 7, 9, 3, 0, 3, 9, 4]
    assert torch.equal(y_ent, x_ent.flip(1)) and torch.equal(y_val, x_val.flip(1))
    assert x_ent.min() == 0 and x_ent.max() == 9 and x_ent.dtype == torch.long


def test_los_datos_son_reproducibles_y_no_tocan_el_azar_global():
    torch.manual_seed(123)
    antes = torch.rand(1)
    torch.manual_seed(123)
    a = datos_invertir_digitos()
    b = datos_invertir_digitos()
    assert all(torch.equal(p, q) for p, q in zip(a, b))
    assert torch.equal(torch.rand(1), antes)  # el generador propio no consume el azar global
    assert not torch.equal(datos_invertir_digitos(semilla=1)[0], a[0])


def test_validacion_distinta_del_entrenamiento():
    x_ent, _, x_val, _ = datos_invertir_digitos()
    assert not torch.equal(x_ent[:2_000], x_val)


def test_datos_malos():
    with pytest.raises(ValueError, match="n ≥ 1"):
        secuencias_invertidas(0)
    with pytest.raises(ValueError, match="2 dígitos"):
        secuencias_invertidas(5, digitos=1)


# --- Métricas --------------------------------------------------------------------------------------------

def test_perdida_por_posicion_igual_a_aplanar():
    torch.manual_seed(0)
    logits = torch.randn(4, 8, 10)
    objetivos = torch.randint(0, 10, (4, 8))
    aplanada = F.cross_entropy(logits.reshape(-1, 10), objetivos.reshape(-1))
    torch.testing.assert_close(perdida_por_posicion(logits, objetivos), aplanada)


def test_perdida_uniforme_es_ln_10():
    perdida = perdida_por_posicion(torch.zeros(3, 8, 10), torch.randint(0, 10, (3, 8)))
    assert perdida.item() == pytest.approx(torch.log(torch.tensor(10.0)).item(), abs=1e-6)


def test_exactitud_por_digito_y_por_secuencia():
    objetivos = torch.tensor([[3, 7, 9, 3], [1, 1, 2, 2]])
    logits = F.one_hot(objetivos, 10).float()
    logits[1, 3] = F.one_hot(torch.tensor(0), 10).float()  # un fallo en la segunda secuencia
    assert exactitud(logits, objetivos) == pytest.approx(7 / 8)
    assert exactitud_secuencias(logits, objetivos) == pytest.approx(1 / 2)
    # también sirve para clasificación simple: logits (lote, clases)
    assert exactitud(torch.eye(3), torch.tensor([0, 1, 0])) == pytest.approx(2 / 3)


def test_perdida_y_exactitud_no_entrena_y_da_las_claves():
    torch.manual_seed(0)
    modelo = TransformerJuguete()
    antes = [p.clone() for p in modelo.parameters()]
    x, y, _, _ = datos_invertir_digitos(n_entrenamiento=300, n_validacion=10)
    medida = perdida_y_exactitud(modelo, x, y, perdida_por_posicion, tamano_lote=128)
    assert set(medida) == {"perdida", "exactitud", "secuencias"}
    assert 0.0 <= medida["exactitud"] <= 1.0
    assert all(torch.equal(a, p) for a, p in zip(antes, modelo.parameters()))
    # el resultado no depende del tamaño de lote con que se evalúe
    otra = perdida_y_exactitud(modelo, x, y, perdida_por_posicion, tamano_lote=7)
    assert otra["exactitud"] == medida["exactitud"]
    assert otra["perdida"] == pytest.approx(medida["perdida"], abs=1e-5)


# --- Entrenamiento ---------------------------------------------------------------------------------------

def test_un_entrenamiento_corto_aprende_a_invertir(un_hilo, capsys):
    x, y, x_val, y_val = datos_invertir_digitos(n_entrenamiento=6_400, n_validacion=500)
    torch.manual_seed(0)
    modelo = TransformerJuguete()
    inicial = perdida_y_exactitud(modelo, x_val, y_val, perdida_por_posicion)
    historial = entrenar(modelo, x, y, perdida_por_posicion, validacion=(x_val, y_val), epocas=2,
                         informe_cada=40)
    assert inicial["exactitud"] < 0.2
    assert historial["val_exactitud"][-1] > 0.95
    assert historial["val_secuencias"][-1] > 0.7
    assert historial["perdida"][-1] < historial["perdida"][0] / 5
    assert len(historial["epoca"]) == 2 and len(historial["val_perdida"]) == 2
    assert historial["paso"][-1] == 200  # 100 lotes de 64 por época
    impreso = capsys.readouterr().out
    assert "época 1 · paso    40" in impreso and "(medido)" in impreso and "validación tras la época 2" in impreso
    assert "época 1 terminada" in impreso
    assert len(historial["perdida_paso"]) == 200 and historial["perdida_paso"][0] > 2.0


def test_el_bucle_corto_es_la_primera_epoca_de_entrenar(un_hilo):
    """Las cuatro líneas de la lección 08 (predecir, borrar, gradientes, paso) dan las mismas pérdidas que entrenar."""
    x, y, _, _ = datos_invertir_digitos(n_entrenamiento=640, n_validacion=10)
    torch.manual_seed(0)
    modelo = TransformerJuguete()
    optimizador = torch.optim.Adam(modelo.parameters(), lr=1e-3)
    orden = torch.randperm(len(x), generator=torch.Generator().manual_seed(0))
    perdidas = []
    for i in range(0, len(x), 64):
        perdida = perdida_por_posicion(modelo(x[orden[i:i + 64]]), y[orden[i:i + 64]])
        optimizador.zero_grad()
        perdida.backward()
        optimizador.step()
        perdidas.append(perdida.item())
    torch.manual_seed(0)
    historial = entrenar(TransformerJuguete(), x, y, perdida_por_posicion, epocas=2, mostrar=False)
    assert historial["perdida_paso"][:10] == perdidas
    assert historial["perdida_paso"][10:] != perdidas  # la segunda época baraja de otra forma


def test_informe_por_epocas(capsys):
    x, y, x_val, y_val = datos_invertir_digitos(n_entrenamiento=128, n_validacion=10)
    entrenar(TransformerJuguete(), x, y, perdida_por_posicion, validacion=(x_val, y_val), epocas=5,
             informe_cada=None, informe_epocas=2)
    impreso = capsys.readouterr().out
    for epoca in (2, 4, 5):  # cada 2 épocas y la última
        assert f"época {epoca} terminada" in impreso and f"validación tras la época {epoca}" in impreso
    for epoca in (1, 3):
        assert f"época {epoca} terminada" not in impreso and f"validación tras la época {epoca}:" not in impreso
    assert "paso" not in impreso


def test_entrenar_es_reproducible_y_silencioso():
    x, y, _, _ = datos_invertir_digitos(n_entrenamiento=640, n_validacion=10)
    finales = []
    for _ in range(2):
        torch.manual_seed(0)
        modelo = TransformerJuguete()
        finales.append(entrenar(modelo, x, y, perdida_por_posicion, epocas=1, mostrar=False)["perdida"])
    assert finales[0] == finales[1]


def test_entrenar_con_entradas_malas():
    modelo = TransformerJuguete()
    x, y, _, _ = datos_invertir_digitos(n_entrenamiento=100, n_validacion=10)
    with pytest.raises(ValueError, match="cada entrada necesita su objetivo"):
        entrenar(modelo, x, y[:50], perdida_por_posicion)
    with pytest.raises(ValueError, match="≥ 1"):
        entrenar(modelo, x, y, perdida_por_posicion, epocas=0)
    with pytest.raises(ValueError, match="informe_epocas"):
        entrenar(modelo, x, y, perdida_por_posicion, informe_epocas=0)


# --- Ejercicios de la lección 08 -------------------------------------------------------------------------

def test_ejercicio_08_1():
    def bien(logits, objetivos):
        return (logits.argmax(-1) == objetivos).float().mean(0)

    def promedia_mal(logits, objetivos):
        return (logits.argmax(-1) == objetivos).float().mean(1)

    def sin_return(logits, objetivos):
        (logits.argmax(-1) == objetivos).float().mean(0)

    assert evaluar("08.1", bien).correcto
    assert not evaluar("08.1", promedia_mal).correcto
    assert "return" in evaluar("08.1", sin_return).mensaje
    assert not evaluar("08.1", ...).correcto
    assert not evaluar("08.1", 3).correcto


def test_ejercicio_08_3_con_el_codigo_del_curso():
    """La respuesta que acepta 08.3 es la que da el propio modelo; 08.4 rechaza rotar hacia el otro lado."""
    assert evaluar("08.3", sum(p.numel() for p in TransformerJuguete(contexto=12).parameters())).correcto
    rotada = torch.arange(8).roll(-1)  # la salida i mira a la entrada i + 1
    assert evaluar("08.4", rotada).correcto
    assert not evaluar("08.4", torch.arange(8).roll(1)).correcto


def test_ejercicio_08_4_el_ejemplo_no_repite_digitos():
    """La pista de 08.4 pregunta dónde está el 9 del ejemplo: el ejemplo del enunciado debe tener un solo 9."""
    from herramientas.cuadernos import RAIZ, fuente, leer_cuaderno

    celdas = leer_cuaderno(RAIZ / "notebooks" / "08_invertir_digitos.ipynb")["cells"]
    enunciado = next(fuente(c) for c in celdas if "**Ejercicio 4.**" in fuente(c))
    entrada = enunciado.split("por ejemplo, $[")[1].split("]")[0]
    digitos = [int(d) for d in entrada.split(",")]
    assert len(digitos) == 8 and len(set(digitos)) == 8 and digitos[1] == 9


def test_perdida_por_posicion_con_objetivos_decimales():
    logits = torch.randn(2, 3, 10)
    with pytest.raises(TypeError, match=r"objetivos deben ser índices de clase enteros \(torch\.long\).*"
                                        r"son torch\.float32: conviértelos con objetivos\.long\(\)"):
        perdida_por_posicion(logits, torch.zeros(2, 3))
    assert perdida_por_posicion(logits, torch.zeros(2, 3, dtype=torch.long)).dim() == 0


def test_entrenar_con_objetivos_decimales_no_toca_el_modelo():
    x, y, _, _ = datos_invertir_digitos(n_entrenamiento=64, n_validacion=10)
    modelo = TransformerJuguete()
    antes = {n: p.clone() for n, p in modelo.state_dict().items()}
    with pytest.raises(TypeError, match=r"objetivos deben ser índices de clase enteros.*objetivos\.long\(\)"):
        entrenar(modelo, x, y.float(), perdida_por_posicion, epocas=1, mostrar=False)
    assert all(torch.equal(p, antes[n]) for n, p in modelo.state_dict().items())  # nada se ha entrenado
