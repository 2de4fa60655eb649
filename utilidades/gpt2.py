"""Los pesos de GPT-2 en el código del curso (lección 12).

El `MiniGPT` de la lección 10 ya es un GPT-2 pequeño: con las medidas de GPT-2, su GELU (la aproximación con
tangente hiperbólica), el epsilon 1e-5 de sus LayerNorm, sesgos en todas las capas lineales salvo la de salida y la
tabla de embeddings atada a la capa de salida, carga los pesos de GPT-2 de Hugging Face (`GPT2LMHeadModel`) y da
los mismos logits. Solo hay que traducir los nombres y trasponer las matrices: GPT-2 guarda sus capas lineales
como `Conv1D`, con la matriz (entrada, salida), la traspuesta de la de `nn.Linear`.

Sin `transformers` ni `safetensors`: el archivo de pesos se lee a mano (`leer_safetensors`).
"""

import json
import pathlib
import shutil
import urllib.request

import torch
from torch import nn

from utilidades.gpt import MiniGPT

GPT2_PEQUENO = {"vocabulario": 50_257, "d_modelo": 768, "cabezas": 12, "capas": 12, "contexto": 1024}
URL_GPT2 = "https://huggingface.co/openai-community/gpt2/resolve/main/model.safetensors"
RUTA_GPT2 = pathlib.Path.home() / ".cache" / "atencion_y_transformers" / "gpt2" / "model.safetensors"

# Nombre en GPT-2 (dentro de cada bloque h.{i}.) -> nombre en BloqueTransformer, y si hay que trasponer (Conv1D).
NOMBRES_BLOQUE = {
    "ln_1.weight": ("norma_1.weight", False), "ln_1.bias": ("norma_1.bias", False),
    "attn.c_attn.weight": ("atencion.qkv.weight", True), "attn.c_attn.bias": ("atencion.qkv.bias", False),
    "attn.c_proj.weight": ("atencion.salida.weight", True), "attn.c_proj.bias": ("atencion.salida.bias", False),
    "ln_2.weight": ("norma_2.weight", False), "ln_2.bias": ("norma_2.bias", False),
    "mlp.c_fc.weight": ("mlp.0.weight", True), "mlp.c_fc.bias": ("mlp.0.bias", False),
    "mlp.c_proj.weight": ("mlp.2.weight", True), "mlp.c_proj.bias": ("mlp.2.bias", False),
}
NOMBRES_FUERA = {"wte.weight": "tokens.weight", "wpe.weight": "posiciones.weight",
                 "ln_f.weight": "norma_final.weight", "ln_f.bias": "norma_final.bias"}


def gpt2_del_curso(vocabulario=50_257, d_modelo=768, cabezas=12, capas=12, contexto=1024):
    """Un MiniGPT en la configuración de GPT-2 (por defecto, GPT-2 small: 124 439 808 parámetros), en modo evaluación.

    Lo que cambia respecto al de la lección 10: sin *dropout*, la tabla de embeddings atada a la capa de salida y la
    GELU con tangente hiperbólica; las LayerNorm ya usan eps = 1e-5, como GPT-2.
    """
    modelo = MiniGPT(vocabulario, d_modelo, cabezas, capas, contexto, dropout=0.0, atar_pesos=True)
    for bloque in modelo.bloques:
        bloque.mlp[1] = nn.GELU(approximate="tanh")  # la «gelu_new» de GPT-2
    for norma in modelo.modules():
        if isinstance(norma, nn.LayerNorm):
            norma.eps = 1e-5  # el layer_norm_epsilon de GPT-2 (el mismo valor que por defecto en PyTorch)
    return modelo.eval()


def _sin_prefijo(estado):
    """El estado con los nombres de GPT2Model: sin «transformer.», sin lm_head (comprobado atado) ni las máscaras."""
    limpio = {}
    for nombre, tensor in estado.items():
        if nombre == "lm_head.weight":
            continue  # se comprueba aparte: es la tabla de embeddings
        nombre = nombre.removeprefix("transformer.")
        if nombre.endswith((".attn.bias", ".attn.masked_bias")):
            continue  # no son pesos: la máscara causal que GPT-2 guardaba con ellos (el curso usa mascara_causal)
        limpio[nombre] = tensor
    if "lm_head.weight" in estado and "wte.weight" in limpio \
            and not torch.equal(estado["lm_head.weight"], limpio["wte.weight"]):
        raise ValueError("En este estado lm_head.weight no es igual a wte.weight: sus pesos no están atados, y el "
                         "GPT-2 del curso lee y escribe con la misma tabla. No es el estado de un GPT-2 como el "
                         "de OpenAI.")
    return limpio


def medidas_del_estado(estado):
    """{vocabulario, d_modelo, capas, contexto} de un estado de GPT-2 (el número de cabezas no se ve en los pesos)."""
    limpio = _sin_prefijo(estado)
    faltan = [n for n in ("wte.weight", "wpe.weight") if n not in limpio]
    if faltan:
        raise ValueError(f"A este estado le faltan {faltan}: no parece el de un GPT2LMHeadModel (ni un GPT2Model) "
                         f"de Hugging Face. Pásale modelo_hf.state_dict().")
    vocabulario, d_modelo = limpio["wte.weight"].shape
    capas = len({n.split(".")[1] for n in limpio if n.startswith("h.")})
    return {"vocabulario": vocabulario, "d_modelo": d_modelo, "capas": capas, "contexto": len(limpio["wpe.weight"])}


def estado_para_el_curso(estado):
    """Traduce un estado de GPT-2 de Hugging Face a los nombres de MiniGPT, con las matrices de Conv1D traspuestas."""
    limpio = _sin_prefijo(estado)
    nuestro = {}
    for nombre, tensor in limpio.items():
        if nombre in NOMBRES_FUERA:
            nuestro[NOMBRES_FUERA[nombre]] = tensor
            continue
        partes = nombre.split(".", 2)  # «h», «3», «attn.c_attn.weight»
        if len(partes) != 3 or partes[0] != "h" or partes[2] not in NOMBRES_BLOQUE:
            raise ValueError(f"No sé dónde va «{nombre}» en el modelo del curso: no es un nombre de GPT-2. "
                             f"Pasa el estado de un GPT2LMHeadModel de Hugging Face (modelo_hf.state_dict()).")
        propio, trasponer = NOMBRES_BLOQUE[partes[2]]
        nuestro[f"bloques.{partes[1]}.{propio}"] = tensor.t() if trasponer else tensor  # Conv1D: (entrada, salida)
    if "tokens.weight" in nuestro:
        nuestro["salida.weight"] = nuestro["tokens.weight"]  # atados: la misma tabla
    return nuestro


@torch.no_grad()
def cargar_estado_gpt2(modelo, estado):
    """Carga en `modelo` (de `gpt2_del_curso`) el estado de un GPT2LMHeadModel de Hugging Face; devuelve el modelo."""
    nuestro = estado_para_el_curso(estado)
    propios = modelo.state_dict()
    faltan = [n for n in propios if n not in nuestro]
    distintos = [f"{n}: {tuple(nuestro[n].shape)} en el estado y {tuple(p.shape)} en el modelo"
                 for n, p in propios.items() if n in nuestro and nuestro[n].shape != p.shape]
    if faltan or distintos:
        detalle = "; ".join(distintos[:3] + [f"faltan {faltan[:3]}"] * bool(faltan))
        raise ValueError(f"El estado no encaja en el modelo ({detalle}). Crea el modelo con las medidas del "
                         f"estado: gpt2_del_curso(**medidas_del_estado(estado), cabezas=...), o usa "
                         f"gpt2_desde_estado(estado, cabezas).")
    if modelo.salida.weight is not modelo.tokens.weight:
        raise ValueError("El modelo no tiene atadas la tabla de embeddings y la capa de salida, como GPT-2: "
                         "créalo con gpt2_del_curso(...).")
    modelo.load_state_dict(nuestro)
    return modelo


def gpt2_desde_estado(estado, cabezas=12):
    """El GPT-2 del curso con las medidas y los pesos de `estado` (GPT-2 small tiene 12 cabezas)."""
    return cargar_estado_gpt2(gpt2_del_curso(cabezas=cabezas, **medidas_del_estado(estado)), estado)


# --- El archivo de pesos -------------------------------------------------------------------------------------------

TIPOS_SAFETENSORS = {"F64": torch.float64, "F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16,
                     "I64": torch.int64, "I32": torch.int32, "I16": torch.int16, "I8": torch.int8,
                     "U8": torch.uint8, "BOOL": torch.bool}


def leer_safetensors(ruta):
    """Los tensores de un archivo .safetensors, {nombre: tensor}, leídos a mano.

    El formato: 8 bytes con el tamaño N de la cabecera (entero sin signo, el byte menos significativo primero), N
    bytes de JSON con el tipo, la forma y dónde empieza y acaba cada tensor, y los números, uno detrás de otro.
    """
    ruta = pathlib.Path(ruta)
    with open(ruta, "rb") as archivo:
        tamano = int.from_bytes(archivo.read(8), "little")
        cabecera = json.loads(archivo.read(tamano))
        datos = bytearray(ruta.stat().st_size - 8 - tamano)
        archivo.readinto(datos)
    tensores = {}
    for nombre, info in cabecera.items():
        if nombre == "__metadata__":
            continue
        inicio, fin = info["data_offsets"]
        tipo = TIPOS_SAFETENSORS[info["dtype"]]
        plano = torch.frombuffer(datos, dtype=tipo, count=(fin - inicio) // tipo.itemsize, offset=inicio) \
            if fin > inicio else torch.empty(0, dtype=tipo)
        tensores[nombre] = plano.view(info["shape"])
    return tensores


def descargar_pesos_gpt2(destino=RUTA_GPT2, url=URL_GPT2, tiempo_maximo=30):
    """Descarga los pesos de GPT-2 small (unos 548 MB) a `destino`, si no están ya; devuelve la ruta, o None (con un
    aviso en castellano) si no hay conexión."""
    destino = pathlib.Path(destino)
    if destino.exists():
        return destino
    parcial = destino.with_name(destino.name + ".parcial")
    try:
        destino.parent.mkdir(parents=True, exist_ok=True)
        with urllib.request.urlopen(url, timeout=tiempo_maximo) as respuesta, open(parcial, "wb") as archivo:
            print(f"Descargando los pesos de GPT-2 de {url} a {destino} (unos 548 MB)…", flush=True)
            shutil.copyfileobj(respuesta, archivo)
        parcial.replace(destino)
    except OSError as error:  # sin red, un cortafuegos, el servidor caído o el disco lleno
        parcial.unlink(missing_ok=True)
        print(f"No he podido descargar los pesos de GPT-2 ({error}). Sin conexión a internet esta parte no se "
              f"puede hacer; el resto de la lección no la necesita. Con conexión (en Colab o en tu portátil), "
              f"vuelve a ejecutar esta celda.")
        return None
    return destino


def gpt2_con_pesos_reales(destino=RUTA_GPT2, url=URL_GPT2):
    """El GPT-2 small del curso con los pesos de verdad (descargados si hace falta), o None si no hay conexión."""
    ruta = descargar_pesos_gpt2(destino, url)
    if ruta is None:
        return None
    return gpt2_desde_estado(leer_safetensors(ruta), cabezas=GPT2_PEQUENO["cabezas"])
