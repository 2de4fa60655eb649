"""Pruebas de la lección 07: el bloque transformer, la copia de pesos a PyTorch, el coste y los ejercicios."""

import pytest
import torch
import torch.nn.functional as F
from torch import nn

from utilidades.atencion import atencion
from utilidades.bloques import BloqueTransformer, copiar_bloque_a_pytorch
from utilidades.coste import mejor_tiempo, memoria_pico, pendiente_loglog
from utilidades.ejercicios import evaluar


def _contar(modulo):
    return sum(p.numel() for p in modulo.parameters())


def _referencia(d_modelo, cabezas, d_mlp, activacion="relu"):
    return nn.TransformerEncoderLayer(d_modelo, cabezas, dim_feedforward=d_mlp, dropout=0.0, batch_first=True,
                                      norm_first=True, activation=activacion)


def test_recuento_del_temario():
    bloque = BloqueTransformer(64, 4, 256)
    assert _contar(bloque) == 49_984
    assert _contar(bloque.atencion) == 16_640
    assert _contar(bloque.mlp) == 33_088
    assert _contar(bloque.norma_1) + _contar(bloque.norma_2) == 256
    assert _contar(_referencia(64, 4, 256)) == 49_984


@pytest.mark.parametrize("d_modelo,cabezas,d_mlp", [(64, 4, 256), (16, 2, 32), (32, 8, 100), (8, 1, 8)])
def test_mismo_recuento_que_pytorch(d_modelo, cabezas, d_mlp):
    assert _contar(BloqueTransformer(d_modelo, cabezas, d_mlp)) == _contar(_referencia(d_modelo, cabezas, d_mlp))


def test_forma_y_recuento_no_dependen_de_L():
    torch.manual_seed(0)
    bloque = BloqueTransformer(64, 4, 256)
    for largo in (1, 10, 300):
        with torch.no_grad():
            assert bloque(torch.randn(2, largo, 64)).shape == (2, largo, 64)
    assert _contar(bloque) == 49_984


@pytest.mark.parametrize("activacion", ["relu", "gelu"])
@pytest.mark.parametrize("modo", ["eval", "train"])
def test_mismas_salidas_que_transformer_encoder_layer(activacion, modo):
    torch.manual_seed(1)
    bloque = BloqueTransformer(64, 4, 256, activacion=activacion)
    capa = copiar_bloque_a_pytorch(bloque, _referencia(64, 4, 256, activacion))
    getattr(bloque, modo)()
    getattr(capa, modo)()
    x = torch.randn(3, 12, 64)
    causal = torch.triu(torch.ones(12, 12, dtype=torch.bool), diagonal=1)
    with torch.no_grad():
        assert torch.allclose(bloque(x), capa(x), atol=1e-5)
        assert torch.allclose(bloque(x, causal), capa(x, src_mask=causal), atol=1e-5)


def test_la_copia_no_es_trivial():
    """Sin copiar los pesos las salidas difieren: la prueba de equivalencia puede fallar."""
    torch.manual_seed(2)
    bloque, capa = BloqueTransformer(16, 2, 32), _referencia(16, 2, 32)
    x = torch.randn(1, 5, 16)
    with torch.no_grad():
        assert not torch.allclose(bloque(x), capa(x), atol=1e-3)
        copiar_bloque_a_pytorch(bloque, capa)
        assert torch.allclose(bloque(x), capa(x), atol=1e-5)


def test_gelu_no_equivale_a_relu():
    torch.manual_seed(3)
    con_gelu = BloqueTransformer(16, 2, 32, activacion="gelu")
    capa = copiar_bloque_a_pytorch(con_gelu, _referencia(16, 2, 32, "gelu"))
    capa.activation = F.relu  # cambiamos la activación a escondidas
    capa.activation_relu_or_gelu = 1
    x = torch.randn(2, 6, 16)
    capa.eval()
    with torch.no_grad():
        assert not torch.allclose(con_gelu(x), capa(x), atol=1e-4)


# --- Entradas malas -------------------------------------------------------------------------------------


def test_cabezas_que_no_dividen_d_modelo():
    with pytest.raises(ValueError, match="divisible"):
        BloqueTransformer(64, 5, 256)


def test_activacion_desconocida():
    with pytest.raises(ValueError, match="No conozco la activación «tanh»"):
        BloqueTransformer(16, 2, 32, activacion="tanh")


def test_entrada_de_forma_equivocada():
    bloque = BloqueTransformer(16, 2, 32)
    with pytest.raises(ValueError, match=r"\(lote, L, d_modelo\)"):
        bloque(torch.randn(2, 5, 8))
    with pytest.raises(ValueError, match="unsqueeze"):
        bloque(torch.randn(5, 16))


def test_mascara_que_no_encaja():
    bloque = BloqueTransformer(16, 2, 32)
    with pytest.raises(ValueError, match="no encaja"):
        bloque(torch.randn(1, 5, 16), torch.zeros(4, 4, dtype=torch.bool))


def test_relleno_en_su_propio_argumento_igual_que_pytorch():
    torch.manual_seed(4)
    bloque = BloqueTransformer(16, 2, 32)
    capa = copiar_bloque_a_pytorch(bloque, _referencia(16, 2, 32))
    x = torch.randn(3, 5, 16)
    relleno = torch.tensor([[False] * 5, [False] * 3 + [True] * 2, [False] * 4 + [True]])
    with torch.no_grad():
        nuestra, suya = bloque(x, mascara_relleno=relleno), capa(x, src_key_padding_mask=relleno)
        assert torch.allclose(nuestra[~relleno], suya[~relleno], atol=1e-5)
        assert not torch.allclose(nuestra[~relleno], bloque(x)[~relleno], atol=1e-3)  # el relleno sí cuenta


def test_relleno_pasado_como_mascara_da_un_error_que_lleva_al_arreglo():
    bloque = BloqueTransformer(16, 2, 32)
    relleno = torch.tensor([[False] * 5, [False] * 3 + [True] * 2, [False] * 4 + [True]])  # (lote 3, L 5)
    with pytest.raises(ValueError, match=r"relleno \(lote, L\).*mascara_relleno=.*combinar_mascaras"):
        bloque(torch.randn(3, 5, 16), relleno)


def test_sin_atajos_una_pila_profunda_olvida_su_entrada():
    """Lo que muestra la lección 07: con atajos la salida depende de la entrada; sin ellos, ya no."""

    class SinAtajos(BloqueTransformer):
        def forward(self, x, mascara=None, mascara_relleno=None):
            return self.mlp(self.norma_2(self.atencion(self.norma_1(x), mascara, mascara_relleno)))

    x = torch.randn(2, 6, 16, dtype=torch.float64, generator=torch.Generator().manual_seed(0))
    otra = x.clone()
    otra[:, 0] += 1.0
    cambios = {}
    for clase in (BloqueTransformer, SinAtajos):
        torch.manual_seed(0)
        pila = nn.Sequential(*[clase(16, 2, 32) for _ in range(24)]).double()
        with torch.no_grad():
            cambios[clase] = (pila(otra) - pila(x)).norm().item()
    assert cambios[BloqueTransformer] > 1 and cambios[SinAtajos] < 1e-6


@pytest.mark.parametrize(
    "capa,trozo",
    [
        (nn.TransformerEncoderLayer(16, 2, 32, batch_first=True), "norm_first=True"),
        (_referencia(16, 4, 32), "cabezas"),
        (_referencia(16, 2, 32, "gelu"), "activation=\"relu\""),
        (_referencia(16, 2, 64), "dim_feedforward"),
        (nn.Linear(16, 16), "TransformerEncoderLayer"),
    ],
    ids=["post-norma", "cabezas", "activacion", "d_mlp", "otra-capa"],
)
def test_copiar_pesos_a_una_capa_que_no_encaja(capa, trozo):
    with pytest.raises((ValueError, TypeError), match=trozo):
        copiar_bloque_a_pytorch(BloqueTransformer(16, 2, 32), capa)


# --- Coste ----------------------------------------------------------------------------------------------


def test_memoria_de_atencion_crece_como_L_cuadrado_y_la_fusionada_como_L():
    largos = [256, 512, 1024]
    nuestra, fusionada = [], []
    for largo in largos:
        q, k, v = (torch.randn(1, 1, largo, 64) for _ in range(3))
        nuestra.append(memoria_pico(atencion, q, k, v))
        fusionada.append(memoria_pico(F.scaled_dot_product_attention, q, k, v))
    assert 1.9 < pendiente_loglog(largos, nuestra) < 2.1
    assert 0.9 < pendiente_loglog(largos, fusionada) < 1.1
    # Dos tablas L × L vivas a la vez (puntajes y pesos) y poco más.
    assert 2 * 1024**2 * 4 <= nuestra[-1] < 2.2 * 1024**2 * 4


def test_memoria_pico_cuenta_vistas_y_liberaciones():
    def funcion(x):
        a = x * 2  # 400 bytes nuevos
        b = a.view(10, 10)  # vista: nada nuevo
        del a
        c = b + 1  # otros 400 mientras b sigue vivo -> pico 800
        del b
        return c.sum()

    assert memoria_pico(funcion, torch.zeros(100)) == 800


def test_pendiente_loglog():
    assert pendiente_loglog([1, 2, 4, 8], [3, 12, 48, 192]) == pytest.approx(2.0)
    with pytest.raises(ValueError, match="positivos"):
        pendiente_loglog([0, 1], [1, 2])
    with pytest.raises(ValueError, match="dos puntos"):
        pendiente_loglog([1], [1])


def test_mejor_tiempo_devuelve_segundos_y_restaura_los_hilos():
    hilos = torch.get_num_threads()
    t = mejor_tiempo(torch.mm, torch.randn(50, 50), torch.randn(50, 50), segundos_minimos=0.01)
    assert 0 < t < 1
    assert torch.get_num_threads() == hilos
    with pytest.raises(ValueError, match="repeticiones"):
        mejor_tiempo(torch.mm, torch.randn(2, 2), torch.randn(2, 2), repeticiones=0)


def test_diagrama_tiene_dos_atajos():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from utilidades.diagramas import dibujar_bloque

    for pre_norma in (True, False):
        fig, ax = dibujar_bloque(pre_norma=pre_norma)
        textos = [t.get_text() for t in ax.texts]
        assert sum("atajo" in t for t in textos) == 2
        assert textos.count("+") == 2
        assert sum(t == "LayerNorm" for t in textos) == 2
        plt.close(fig)


# --- Ejercicios -----------------------------------------------------------------------------------------


def _norma_bien(x, eps=1e-5):
    return (x - x.mean(-1, keepdim=True)) / torch.sqrt(x.var(-1, keepdim=True, unbiased=False) + eps)


def _norma_insesgada(x, eps=1e-5):
    return (x - x.mean(-1, keepdim=True)) / torch.sqrt(x.var(-1, keepdim=True, unbiased=True) + eps)


def _norma_sin_centrar(x, eps=1e-5):
    return x / torch.sqrt(x.var(-1, keepdim=True, unbiased=False) + eps)


def _contar_bien(d, d_mlp):
    return 4 * d * d + 4 * d + 2 * d * d_mlp + d_mlp + d + 4 * d


def _contar_fijo(d, d_mlp):
    return _contar_bien(64, 256)


def _contar_sin_normas(d, d_mlp):
    return 4 * d * d + 4 * d + 2 * d * d_mlp + d_mlp + d


_D, _D_MLP = 48, 192
_BLOQUE_48 = _contar(BloqueTransformer(_D, 4, _D_MLP))  # la respuesta de 07.1 sale del propio bloque
_CELDAS = 4096**2 * 12

SOLUCIONES = {"07.1": _BLOQUE_48, "07.2": _norma_bien, "07.3": 2 * _CELDAS * 4 / 1e6, "07.4": _contar_bien}

ERRONEAS = [
    ("07.1", _BLOQUE_48 - 4 * _D, "LayerNorm"),
    ("07.1", _BLOQUE_48 - 2 * _D, "escala y el desplazamiento"),
    ("07.1", _BLOQUE_48 - 4 * _D - 2 * _D - 3 * _D - _D_MLP, "sesgo"),
    ("07.1", _contar(BloqueTransformer(_D, 4, _D_MLP).atencion), "solo la atención"),
    ("07.1", _BLOQUE_48 + 100, "cuenta por piezas"),
    ("07.1", [1, 2], "un solo número"),
    ("07.2", _norma_insesgada, "n − 1"),
    ("07.2", _norma_sin_centrar, "resta la media"),
    ("07.2", lambda x, eps=1e-5: None, "return"),
    ("07.2", "layer_norm", "función"),
    ("07.3", _CELDAS * 4 / 1e6, "dos"),
    ("07.3", 2 * 4096**2 * 4 / 1e6, "una sola cabeza"),
    ("07.3", 2 * _CELDAS * 8 / 1e6, "4 bytes"),
    ("07.3", 2 * _CELDAS * 4 / 2**20, "1 000 000"),
    ("07.3", 3.0, "L²"),
    ("07.4", _contar_fijo, "d_modelo"),
    ("07.4", _contar_sin_normas, "te faltan las dos LayerNorm"),
]


@pytest.mark.parametrize("clave", sorted(SOLUCIONES))
def test_la_solucion_pasa(clave):
    veredicto = evaluar(clave, SOLUCIONES[clave])
    assert veredicto.correcto, veredicto.mensaje


@pytest.mark.parametrize("clave,respuesta,trozo", ERRONEAS, ids=[f"{c}-{i}" for i, (c, _, _) in enumerate(ERRONEAS)])
def test_una_respuesta_erronea_recibe_pista(clave, respuesta, trozo):
    veredicto = evaluar(clave, respuesta)
    assert not veredicto.correcto
    assert veredicto.mensaje.startswith("Pista:"), veredicto.mensaje
    assert trozo in veredicto.mensaje, veredicto.mensaje


@pytest.mark.parametrize("clave", sorted(SOLUCIONES))
def test_los_tres_puntos_no_pasan(clave):
    assert not evaluar(clave, ...).correcto


def test_ninguna_pista_revela_la_solucion():
    for clave, respuesta, _ in ERRONEAS:
        mensaje = evaluar(clave, respuesta).mensaje  # (una pista puede repetir lo que devolvió la función)
        assert str(_BLOQUE_48) not in mensaje.replace(",", "").replace(" ", ""), mensaje
        assert "1610" not in mensaje and "805" not in mensaje, mensaje


def test_07_3_pregunta_lo_que_midio_la_leccion():
    """Las «dos tablas» de 07.3 son las que mide memoria_pico para nuestra atencion: unas 2 · L² · 4 bytes."""
    q = k = v = torch.randn(1, 1, 512, 64)
    assert memoria_pico(atencion, q, k, v) == pytest.approx(2 * 512**2 * 4, rel=0.1)


@pytest.mark.parametrize("tipo,mensaje", [
    (torch.float64, r"x es de tipo torch\.float64 y los pesos del modelo son torch\.float32: .*x\.float\(\)"),
    (torch.long, r"x es un tensor de enteros \(torch\.int64\).*x\.float\(\)"),
])
def test_bloque_con_entrada_de_otro_tipo_explica_que_convertir(tipo, mensaje):
    bloque = BloqueTransformer(8, 2, 16)
    with pytest.raises(TypeError, match=mensaje):
        bloque(torch.ones(2, 3, 8, dtype=tipo))


def test_bloque_sigue_aceptando_float32_y_float64_con_pesos_iguales():
    torch.manual_seed(0)
    bloque = BloqueTransformer(8, 2, 16)
    x = torch.randn(2, 3, 8)
    y = bloque(x)
    assert y.dtype == torch.float32
    assert torch.allclose(bloque.double()(x.double()).float(), y, atol=1e-5)
