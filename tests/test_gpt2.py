"""Pruebas de GPT-2 en el código del curso (lección 12): los nombres y la forma de los pesos de Hugging Face, los
mismos logits que una pasada de GPT-2 escrita aparte, el archivo .safetensors leído a mano y la descarga sin red
(simulada: ninguna prueba usa la red)."""

import io
import json
import math
import urllib.error
import urllib.request

import pytest
import torch
import torch.nn.functional as F
from torch import nn

from utilidades import gpt2
from utilidades.gpt import contar_parametros
from utilidades.gpt2 import (
    GPT2_PEQUENO,
    cargar_estado_gpt2,
    descargar_pesos_gpt2,
    estado_para_el_curso,
    gpt2_con_pesos_reales,
    gpt2_del_curso,
    gpt2_desde_estado,
    leer_safetensors,
    medidas_del_estado,
)

pytestmark = pytest.mark.usefixtures("un_hilo")  # modelos diminutos: más hilos solo estorban

MEDIDAS = {"vocabulario": 40, "d_modelo": 24, "capas": 2, "contexto": 16}


def estado_como_hugging_face(vocabulario, d_modelo, capas, contexto, prefijo="transformer.", cabeza=True,
                             mascaras=True, tipo=torch.float64, semilla=0):
    """Un estado al azar con los nombres y las formas del state_dict de GPT2LMHeadModel: las capas Conv1D guardan
    su matriz como (entrada, salida); con `mascaras`, los búferes attn.bias y attn.masked_bias de las versiones
    antiguas; con `cabeza`, lm_head.weight (la misma tabla que wte)."""
    generador = torch.Generator().manual_seed(semilla)
    d = d_modelo

    def azar(*forma, escala=0.3):
        return (escala * torch.randn(*forma, generator=generador)).to(tipo)

    estado = {f"{prefijo}wte.weight": azar(vocabulario, d), f"{prefijo}wpe.weight": azar(contexto, d)}
    for i in range(capas):
        h = f"{prefijo}h.{i}."
        estado |= {
            h + "ln_1.weight": 1 + azar(d, escala=0.1), h + "ln_1.bias": azar(d, escala=0.1),
            h + "attn.c_attn.weight": azar(d, 3 * d), h + "attn.c_attn.bias": azar(3 * d, escala=0.1),
            h + "attn.c_proj.weight": azar(d, d), h + "attn.c_proj.bias": azar(d, escala=0.1),
            h + "ln_2.weight": 1 + azar(d, escala=0.1), h + "ln_2.bias": azar(d, escala=0.1),
            h + "mlp.c_fc.weight": azar(d, 4 * d), h + "mlp.c_fc.bias": azar(4 * d, escala=0.1),
            h + "mlp.c_proj.weight": azar(4 * d, d), h + "mlp.c_proj.bias": azar(d, escala=0.1),
        }
        if mascaras:
            estado[h + "attn.bias"] = torch.tril(torch.ones(contexto, contexto, dtype=tipo))[None, None]
            estado[h + "attn.masked_bias"] = torch.tensor(-1e4, dtype=tipo)
    estado |= {f"{prefijo}ln_f.weight": 1 + azar(d, escala=0.1), f"{prefijo}ln_f.bias": azar(d, escala=0.1)}
    if cabeza:
        estado["lm_head.weight"] = estado[f"{prefijo}wte.weight"]
    return estado


def gpt2_de_referencia(estado, indices, cabezas):
    """La pasada de GPT-2 escrita aparte, sobre el estado con los nombres de Hugging Face: Conv1D es x · W + b."""
    p = {n.removeprefix("transformer."): t for n, t in estado.items()}
    L = indices.shape[-1]
    x = p["wte.weight"][indices] + p["wpe.weight"][:L]  # (lote, L, d)
    d = x.shape[-1]

    def norma(x, nombre):
        return F.layer_norm(x, (d,), p[nombre + ".weight"], p[nombre + ".bias"], eps=1e-5)

    def gelu_tanh(x):
        return 0.5 * x * (1 + torch.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)))

    futuro = torch.triu(torch.ones(L, L, dtype=torch.bool), diagonal=1)
    capas = len({n.split(".")[1] for n in p if n.startswith("h.")})
    for i in range(capas):
        h = f"h.{i}."
        qkv = norma(x, h + "ln_1") @ p[h + "attn.c_attn.weight"] + p[h + "attn.c_attn.bias"]
        q, k, v = (t.unflatten(-1, (cabezas, d // cabezas)).transpose(1, 2) for t in qkv.split(d, dim=-1))
        puntajes = (q @ k.transpose(-2, -1) / math.sqrt(d // cabezas)).masked_fill(futuro, float("-inf"))
        mezcla = (torch.softmax(puntajes, dim=-1) @ v).transpose(1, 2).flatten(-2)  # (lote, L, d)
        x = x + mezcla @ p[h + "attn.c_proj.weight"] + p[h + "attn.c_proj.bias"]
        oculta = gelu_tanh(norma(x, h + "ln_2") @ p[h + "mlp.c_fc.weight"] + p[h + "mlp.c_fc.bias"])
        x = x + oculta @ p[h + "mlp.c_proj.weight"] + p[h + "mlp.c_proj.bias"]
    return norma(x, "ln_f") @ p["wte.weight"].T  # atados: la capa de salida es la tabla de embeddings


def escribir_safetensors(ruta, tensores):
    """Escribe `tensores` en el formato .safetensors (para probar la lectura sin la biblioteca)."""
    nombres = {torch.float64: "F64", torch.float32: "F32", torch.float16: "F16", torch.int64: "I64"}
    cabecera, datos = {"__metadata__": {"format": "pt"}}, b""
    for nombre, tensor in tensores.items():
        crudo = tensor.contiguous().view(-1).view(torch.uint8).numpy().tobytes() if tensor.numel() else b""
        cabecera[nombre] = {"dtype": nombres[tensor.dtype], "shape": list(tensor.shape),
                            "data_offsets": [len(datos), len(datos) + len(crudo)]}
        datos += crudo
    texto = json.dumps(cabecera).encode()
    ruta.write_bytes(len(texto).to_bytes(8, "little") + texto + datos)


# --- La configuración de GPT-2 -------------------------------------------------------------------------------------


def test_gpt2_del_curso_tiene_la_configuracion_de_gpt2():
    with torch.device("meta"):
        modelo = gpt2_del_curso()
    assert contar_parametros(modelo) == 124_439_808  # GPT-2 small, como en la lección 10
    assert modelo.salida.weight is modelo.tokens.weight and modelo.salida.bias is None
    assert all(b.mlp[1].approximate == "tanh" for b in modelo.bloques)
    assert all(m.eps == 1e-5 for m in modelo.modules() if isinstance(m, nn.LayerNorm))
    assert all(m.p == 0 for m in modelo.modules() if isinstance(m, nn.Dropout)) and not modelo.training
    assert (modelo.contexto, modelo.bloques[0].atencion.cabezas) == (1024, 12)
    assert GPT2_PEQUENO == {"vocabulario": 50_257, "d_modelo": 768, "cabezas": 12, "capas": 12, "contexto": 1024}


# --- Los pesos de Hugging Face -------------------------------------------------------------------------------------


@pytest.mark.parametrize("prefijo, cabeza, mascaras", [("transformer.", True, True), ("transformer.", True, False),
                                                       ("", False, True)])
def test_los_pesos_de_hugging_face_dan_los_mismos_logits(prefijo, cabeza, mascaras):
    """GPT2LMHeadModel (transformer.…, lm_head) y el archivo del hub (sin prefijo ni lm_head), con o sin búferes."""
    estado = estado_como_hugging_face(**MEDIDAS, prefijo=prefijo, cabeza=cabeza, mascaras=mascaras)
    assert medidas_del_estado(estado) == MEDIDAS
    modelo = cargar_estado_gpt2(gpt2_del_curso(**MEDIDAS, cabezas=4).double(), estado)  # en float64, como el estado
    indices = torch.randint(40, (2, 16), generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        nuestros = modelo(indices)
    assert torch.allclose(nuestros, gpt2_de_referencia(estado, indices, cabezas=4), atol=1e-10)


def test_las_matrices_conv1d_se_trasponen():
    estado = estado_como_hugging_face(**MEDIDAS)
    nuestro = estado_para_el_curso(estado)
    assert torch.equal(nuestro["bloques.1.atencion.qkv.weight"], estado["transformer.h.1.attn.c_attn.weight"].T)
    assert torch.equal(nuestro["bloques.0.atencion.salida.weight"], estado["transformer.h.0.attn.c_proj.weight"].T)
    assert torch.equal(nuestro["bloques.0.mlp.0.weight"], estado["transformer.h.0.mlp.c_fc.weight"].T)
    assert torch.equal(nuestro["bloques.0.mlp.2.weight"], estado["transformer.h.0.mlp.c_proj.weight"].T)
    assert torch.equal(nuestro["bloques.0.atencion.qkv.bias"], estado["transformer.h.0.attn.c_attn.bias"])
    assert nuestro["salida.weight"] is nuestro["tokens.weight"]
    # Sin trasponer, c_proj (cuadrada) cabría pero daría otros logits: la prueba de los logits lo vería.
    modelo = cargar_estado_gpt2(gpt2_del_curso(**MEDIDAS, cabezas=4).double(), estado)
    with torch.no_grad():
        modelo.bloques[0].atencion.salida.weight.copy_(estado["transformer.h.0.attn.c_proj.weight"])
        indices = torch.arange(16)[None]
        assert not torch.allclose(modelo(indices), gpt2_de_referencia(estado, indices, cabezas=4), atol=1e-3)


def test_estados_que_no_encajan_dan_errores_en_castellano():
    estado = estado_como_hugging_face(**MEDIDAS)
    with pytest.raises(ValueError, match="no encaja en el modelo.*medidas_del_estado"):
        cargar_estado_gpt2(gpt2_del_curso(40, 24, 4, 2, contexto=8), estado)  # otro contexto
    with pytest.raises(ValueError, match="no están atados"):
        cargar_estado_gpt2(gpt2_del_curso(40, 24, 4, 2, 16), estado | {"lm_head.weight": torch.zeros(40, 24)})
    with pytest.raises(ValueError, match="No sé dónde va «h.0.attn.q_proj.weight»"):
        estado_para_el_curso(estado | {"transformer.h.0.attn.q_proj.weight": torch.zeros(24, 24)})
    with pytest.raises(ValueError, match="le faltan \\['wte.weight'\\]"):
        medidas_del_estado({n: t for n, t in estado.items() if "wte" not in n and n != "lm_head.weight"})
    from utilidades.gpt import MiniGPT

    with pytest.raises(ValueError, match="atadas"):
        cargar_estado_gpt2(MiniGPT(40, 24, 4, 2, 16), estado)


def test_con_transformers_los_mismos_logits_que_gpt2lmheadmodel():
    transformers = pytest.importorskip("transformers")
    configuracion = transformers.GPT2Config(vocab_size=40, n_positions=16, n_embd=24, n_layer=2, n_head=4,
                                               bos_token_id=39, eos_token_id=39)
    torch.manual_seed(0)
    suyo = transformers.GPT2LMHeadModel(configuracion).eval()
    with torch.no_grad():
        for parametro in suyo.parameters():  # sesgos y normas no triviales, no los de fábrica
            parametro.add_(0.1 * torch.randn_like(parametro))
    nuestro = gpt2_desde_estado(suyo.state_dict(), cabezas=4)
    indices = torch.randint(40, (2, 16), generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        assert torch.allclose(nuestro(indices), suyo(indices).logits, atol=1e-5)


# --- El archivo y la descarga --------------------------------------------------------------------------------------


def test_leer_safetensors_a_mano(tmp_path):
    tensores = {"a": torch.randn(3, 4), "b": torch.arange(5), "c": torch.randn(2, dtype=torch.float64),
                "d": torch.randn(2, 2).half(), "escalar": torch.tensor(2.5), "vacio": torch.zeros(0, 3)}
    escribir_safetensors(tmp_path / "pesos.safetensors", tensores)
    leidos = leer_safetensors(tmp_path / "pesos.safetensors")
    assert set(leidos) == set(tensores)
    for nombre, tensor in tensores.items():
        assert leidos[nombre].dtype == tensor.dtype and torch.equal(leidos[nombre], tensor), nombre


def _falla_la_red(url, timeout=None):
    raise urllib.error.URLError("[Errno -3] Temporary failure in name resolution")


def test_sin_red_avisa_en_castellano_y_no_rompe_nada(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(urllib.request, "urlopen", _falla_la_red)
    destino = tmp_path / "gpt2" / "model.safetensors"
    assert descargar_pesos_gpt2(destino) is None
    aviso = capsys.readouterr().out
    assert "No he podido descargar los pesos de GPT-2" in aviso and "conexión a internet" in aviso
    assert not destino.exists() and not list(destino.parent.glob("*.parcial"))  # nada a medias
    assert gpt2_con_pesos_reales(destino) is None


def test_con_red_descarga_una_vez_y_escribe_con_esos_pesos(tmp_path, monkeypatch, capsys):
    """La red simulada sirve un GPT-2 diminuto con los nombres del archivo del hub (sin prefijo ni lm_head)."""
    estado = estado_como_hugging_face(**MEDIDAS, prefijo="", cabeza=False, tipo=torch.float32)
    servido = tmp_path / "servido.safetensors"
    escribir_safetensors(servido, estado)
    pedidas = []

    def urlopen(url, timeout=None):
        pedidas.append(url)
        return io.BytesIO(servido.read_bytes())

    monkeypatch.setattr(urllib.request, "urlopen", urlopen)
    monkeypatch.setitem(gpt2.GPT2_PEQUENO, "cabezas", 4)
    destino = tmp_path / "cache" / "model.safetensors"
    modelo = gpt2_con_pesos_reales(destino)
    assert pedidas == [gpt2.URL_GPT2] and destino.read_bytes() == servido.read_bytes()
    assert "Descargando los pesos de GPT-2" in capsys.readouterr().out
    indices = torch.randint(40, (1, 16), generator=torch.Generator().manual_seed(2))
    with torch.no_grad():
        assert torch.allclose(modelo(indices), gpt2_de_referencia(estado, indices, cabezas=4), atol=1e-4)
    assert descargar_pesos_gpt2(destino) == destino and len(pedidas) == 1  # la segunda vez no descarga
