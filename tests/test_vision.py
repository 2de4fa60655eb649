"""Pruebas de los parches, el ViT diminuto y los ejercicios de la lección 09."""

import pytest
import torch
import torch.nn.functional as F
from sklearn.datasets import load_digits, load_sample_image

from utilidades.ejercicios import evaluar as evaluar_ejercicio
from utilidades.entrenamiento import entrenar
from utilidades.vision import ViTDiminuto, parches


@pytest.fixture(scope="module")
def foto():
    return torch.tensor(load_sample_image("china.jpg")[::4, ::4][:96, :160]).permute(2, 0, 1).float() / 255


def test_formas_de_la_foto_y_sus_parches(foto):
    assert foto.shape == (3, 96, 160)
    assert foto.unfold(1, 16, 16).unfold(2, 16, 16).shape == (3, 6, 10, 16, 16)
    assert parches(foto, 16).shape == (60, 768)


def test_parche_11_es_fila_1_columna_1(foto):
    assert torch.equal(parches(foto, 16)[11], foto[:, 16:32, 16:32].reshape(-1))
    assert torch.equal(parches(foto, 16)[59], foto[:, 80:96, 144:160].reshape(-1))


def test_parches_de_un_lote_igual_que_uno_a_uno(foto):
    lote = torch.stack([foto, foto.flip(-1)])
    assert parches(lote, 16).shape == (2, 60, 768)
    assert torch.equal(parches(lote, 16)[1], parches(foto.flip(-1), 16))


def test_parches_igual_que_unfold_de_pytorch(foto):
    """F.unfold (im2col) da los mismos parches, ordenados como columnas."""
    referencia = F.unfold(foto.unsqueeze(0), kernel_size=16, stride=16)[0].T  # (60, 768)
    assert torch.equal(parches(foto, 16), referencia)


def test_parches_y_capa_lineal_igual_que_conv2d(foto):
    """Los ViT de torchvision y timm cortan y proyectan con nn.Conv2d(kernel_size=tam, stride=tam): con los mismos
    pesos, `parches` + nn.Linear da los mismos vectores, en el mismo orden (lo que enseña la lección 09)."""
    torch.manual_seed(0)
    lote = torch.stack([foto, foto.flip(-1)]).double()  # (2, 3, 96, 160)
    lineal = torch.nn.Linear(3 * 16 * 16, 8).double()
    conv = torch.nn.Conv2d(3, 8, kernel_size=16, stride=16).double()
    with torch.no_grad():
        conv.weight.copy_(lineal.weight.reshape(8, 3, 16, 16))
        conv.bias.copy_(lineal.bias)
        por_convolucion = conv(lote).flatten(2).transpose(1, 2)  # (2, 60, 8), en orden de lectura
        assert (por_convolucion - lineal(parches(lote, 16))).abs().max() < 1e-6


def test_parches_entradas_malas(foto):
    with pytest.raises(ValueError, match="encajar exactos"):
        parches(foto, 7)
    with pytest.raises(ValueError, match="unsqueeze"):
        parches(foto[0], 16)
    with pytest.raises(TypeError, match="tensor de PyTorch"):
        parches(foto.numpy(), 16)


def test_vit_formas_y_parametros():
    torch.manual_seed(0)
    vit = ViTDiminuto(tam_imagen=8, tam_parche=4, d_modelo=32, cabezas=2, d_mlp=128, bloques=2)
    x = torch.rand(5, 1, 8, 8)
    assert vit(x).shape == (5, 10)
    assert vit.representar(x).shape == (5, 5, 32)
    # proyección 16·32+32, [CLS] 32, posiciones 5·32, 2 bloques, LayerNorm 64, clasificador 32·10+10
    bloque = 2 * 32 + (32 * 96 + 96) + (32 * 32 + 32) + 2 * 32 + (32 * 128 + 128) + (128 * 32 + 32)
    esperado = (16 * 32 + 32) + 32 + 5 * 32 + 2 * bloque + 64 + 330
    assert sum(p.numel() for p in vit.parameters()) == esperado == 26_538
    assert vit.bloques[0].atencion.pesos.shape == (5, 2, 5, 5)
    assert vit.clasificador.out_features == 10 and not hasattr(vit, "cabeza")  # «cabeza» es de la atención


def test_vit_sobre_la_foto():
    vit = ViTDiminuto(tam_imagen=96, tam_parche=16, canales=3, d_modelo=64, cabezas=4, d_mlp=256, bloques=1)
    with pytest.raises(ValueError, match="lote de imágenes"):
        vit(torch.rand(3, 96, 96))
    assert vit.representar(torch.rand(1, 3, 96, 96)).shape == (1, 37, 64)


def test_vit_entradas_malas():
    with pytest.raises(ValueError, match="dividir exacto"):
        ViTDiminuto(tam_imagen=8, tam_parche=3)
    vit = ViTDiminuto()
    with pytest.raises(ValueError, match=r"\(lote, 1, 8, 8\)"):
        vit(torch.rand(2, 8, 8))


def test_un_entrenamiento_corto_del_vit_aprende(un_hilo, capsys):
    digitos = load_digits()
    x = torch.tensor(digitos.images).unsqueeze(1) / 16
    y = torch.tensor(digitos.target)
    torch.manual_seed(0)
    vit = ViTDiminuto(tam_parche=4, d_mlp=128).double()
    historial = entrenar(vit, x[:1400], y[:1400], F.cross_entropy, validacion=(x[1400:], y[1400:]),
                         epocas=4, tamano_lote=32, lr=3e-3, informe_cada=None, informe_epocas=2, coseno=True)
    assert historial["val_exactitud"][-1] > 0.8  # al azar sería un 10 %
    impreso = capsys.readouterr().out
    assert "época 2 terminada" in impreso and "época 4 terminada" in impreso and "época 3" not in impreso
    assert "paso" not in impreso  # sin informe por pasos
    assert len(historial["perdida_paso"]) == 4 * 44  # 1400 / 32 → 44 lotes por época
    assert historial["perdida_epoca"][-1] < historial["perdida_epoca"][0]
    assert historial["val_secuencias"] == [None] * 4  # una clase por imagen: no hay secuencias


def test_coseno_baja_la_tasa_hasta_cero(monkeypatch):
    vit = ViTDiminuto()
    x, y = torch.rand(64, 1, 8, 8), torch.randint(0, 10, (64,))
    tasas = []
    original = torch.optim.Adam.step

    def espiar(self, *args, **kwargs):
        tasas.append(self.param_groups[0]["lr"])
        return original(self, *args, **kwargs)

    monkeypatch.setattr(torch.optim.Adam, "step", espiar)
    entrenar(vit, x, y, F.cross_entropy, epocas=2, tamano_lote=16, lr=1e-3, mostrar=False, coseno=True)
    assert len(tasas) == 8
    assert tasas[0] == pytest.approx(1e-3) and tasas[-1] < 1e-4
    assert all(a >= b for a, b in zip(tasas, tasas[1:]))


# --- Ejercicios de la lección 09 (el resto, en tests/casos_ejercicios/leccion_09.py) ---------------------

def _recomponer_bien(secuencia, canales, alto, ancho, tam):
    rejilla = secuencia.reshape(alto // tam, ancho // tam, canales, tam, tam)
    return rejilla.permute(2, 0, 3, 1, 4).reshape(canales, alto, ancho)


def test_ejercicio_09_3_y_su_pista_no_da_la_receta():
    assert evaluar_ejercicio("09.3", _recomponer_bien).correcto
    veredicto = evaluar_ejercicio("09.3", lambda s, c, a, w, t: s.reshape(c, a, w))
    assert not veredicto.correcto and "sitio" in veredicto.mensaje
    assert "permute" not in veredicto.mensaje and "(C, filas, tam, columnas, tam)" not in veredicto.mensaje


@pytest.mark.parametrize("clave,modelo_o_cuenta", [
    ("09.1", (384 // 16) ** 2 + 1),
    ("09.2", parches(torch.rand(1, 3, 14, 14), 14).shape[-1]),
    ("09.4", ViTDiminuto(tam_imagen=28, tam_parche=4, d_modelo=64).posiciones.numel()),
])
def test_ejercicios_09_con_el_codigo_del_curso(clave, modelo_o_cuenta):
    """La respuesta que aceptan las comprobaciones es la que da el propio código del curso."""
    assert evaluar_ejercicio(clave, modelo_o_cuenta).correcto


@pytest.mark.parametrize("tipo,mensaje", [
    (torch.float64, r"imagenes es de tipo torch\.float64 y los pesos del modelo son torch\.float32: "
                    r".*imagenes\.float\(\)"),
    (torch.uint8, r"imagenes es un tensor de enteros \(torch\.uint8\).*imagenes\.float\(\)"),
    (torch.long, r"imagenes es un tensor de enteros \(torch\.int64\).*imagenes\.float\(\)"),
])
def test_vit_con_imagenes_de_otro_tipo_explica_que_convertir(tipo, mensaje):
    vit = ViTDiminuto()
    with pytest.raises(TypeError, match=mensaje):
        vit(torch.ones(2, 1, 8, 8, dtype=tipo))


def test_vit_sigue_aceptando_float32_y_float64_con_pesos_iguales():
    torch.manual_seed(0)
    vit = ViTDiminuto()
    imagenes = torch.rand(2, 1, 8, 8)
    logits = vit(imagenes)
    assert logits.shape == (2, 10) and logits.dtype == torch.float32
    assert torch.allclose(vit.double()(imagenes.double()).float(), logits, atol=1e-5)
