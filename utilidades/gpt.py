"""Un mini-GPT: modelo, entrenamiento con parada temprana y generación de texto (lección 10).

Aquí no hay nada de dibujo: el escritor interactivo vive en `utilidades.escritor`.
"""

import copy
import pathlib
import time

import torch
import torch.nn.functional as F
from torch import nn

from utilidades.bloques import BloqueTransformer
from utilidades.dropout import ApagarAlAzar
from utilidades.mascaras import mascara_causal
from utilidades.validacion import comprobar_indices


class MiniGPT(nn.Module):
    """Modelo de lenguaje de caracteres como GPT-2 en pequeño: índices (lote, L) -> logits (lote, L, vocabulario)."""

    def __init__(self, vocabulario, d_modelo=96, cabezas=4, capas=2, contexto=64, dropout=0.2,
                 posiciones=True, atar_pesos=False):
        super().__init__()
        self.contexto = contexto
        self.tokens = nn.Embedding(vocabulario, d_modelo)
        self.posiciones = nn.Embedding(contexto, d_modelo) if posiciones else None  # aprendidas
        self.dropout = ApagarAlAzar(dropout)
        self.bloques = nn.ModuleList(
            BloqueTransformer(d_modelo, cabezas, 4 * d_modelo, activacion="gelu", dropout=dropout)
            for _ in range(capas)
        )
        for bloque in self.bloques:  # el bloque de la lección 07, con dos piezas cambiadas que hacen lo mismo:
            bloque.dropout = ApagarAlAzar(dropout)  # el sorteo barato
            bloque.atencion.guardar_pesos = False  # la atención fusionada (la tabla de pesos no se guarda)
        self.norma_final = nn.LayerNorm(d_modelo)
        self.salida = nn.Linear(d_modelo, vocabulario, bias=False)
        if atar_pesos:  # GPT-2 usa la misma tabla para leer y para escribir caracteres
            self.salida.weight = self.tokens.weight

    def forward(self, indices):
        if not isinstance(indices, torch.Tensor) or indices.dim() != 2:
            forma = tuple(indices.shape) if isinstance(indices, torch.Tensor) else type(indices).__name__
            raise ValueError(
                f"El modelo espera índices de forma (lote, L), pero recibe {forma}. Para una sola frase, "
                f"añade la dimensión del lote: indices.unsqueeze(0) (o torch.tensor([codigos]))."
            )
        if indices.is_floating_point():
            raise TypeError(
                f"Los índices deben ser enteros (torch.long), pero son {indices.dtype}: usa indices.long()."
            )
        lote, L = indices.shape
        if L > self.contexto:
            raise ValueError(
                f"La secuencia tiene {L} caracteres y el modelo solo admite {self.contexto} (su contexto). "
                f"Pásale solo los últimos: indices[:, -{self.contexto}:]."
            )
        try:
            x = self.tokens(indices)  # (lote, L, d_modelo)
        except IndexError:  # algún índice se sale del vocabulario (mirarlo solo entonces no cuesta nada)
            comprobar_indices(indices, self.tokens.num_embeddings)  # dice cuál, en castellano
            raise
        if self.posiciones is not None:
            x = x + self.posiciones(torch.arange(L, device=indices.device))  # (L, d_modelo) se suma a cada texto
        x = self.dropout(x)
        mascara = mascara_causal(L).to(indices.device)  # True = el futuro, que no se mira
        for bloque in self.bloques:
            x = bloque(x, mascara)
        return self.salida(self.norma_final(x))  # (lote, L, vocabulario)

    @torch.no_grad()
    def pesos_de_atencion(self, indices):
        """Pesos de atención de cada bloque, lista de (lote, cabezas, L, L): pasa guardando la tabla de pesos."""
        antes = [bloque.atencion.guardar_pesos for bloque in self.bloques]
        try:
            for bloque in self.bloques:
                bloque.atencion.guardar_pesos = True
            self(indices)
        finally:
            for bloque, guardar in zip(self.bloques, antes):
                bloque.atencion.guardar_pesos = guardar
        return [bloque.atencion.pesos for bloque in self.bloques]


def contar_parametros(modelo):
    """Número de parámetros entrenables (los compartidos cuentan una vez)."""
    return sum(p.numel() for p in modelo.parameters() if p.requires_grad)


def parametros_por_formula(vocabulario, d_modelo, capas, contexto, atar_pesos=False):
    """Parámetros de un MiniGPT con MLP 4×: embeddings + capas · (12 d² + 13 d) + LayerNorm final + salida."""
    por_capa = 12 * d_modelo**2 + 13 * d_modelo  # atención 4d² + 4d, MLP 8d² + 5d, dos LayerNorm 4d
    salida = 0 if atar_pesos else vocabulario * d_modelo
    return vocabulario * d_modelo + contexto * d_modelo + capas * por_capa + 2 * d_modelo + salida


def lote_aleatorio(datos, contexto, tamano_lote, generador):
    """Elige `tamano_lote` ventanas al azar: entradas x y objetivos y (el carácter siguiente), (lote, contexto)."""
    inicios = torch.randint(len(datos) - contexto, (tamano_lote, 1), generator=generador)
    ventanas = datos[inicios + torch.arange(contexto + 1)]  # (lote, contexto + 1)
    return ventanas[:, :-1], ventanas[:, 1:]


def ventanas_repartidas(datos, cuantas, contexto):
    """`cuantas` ventanas (cuantas, contexto + 1) repartidas a lo largo de `datos`, siempre las mismas."""
    inicios = torch.linspace(0, len(datos) - contexto - 1, cuantas).long()[:, None]
    return datos[inicios + torch.arange(contexto + 1)]


@torch.no_grad()
def perdida_en(modelo, datos, tamano_lote=256):
    """Entropía cruzada media (nats) por carácter, en modo evaluación.

    `datos` es texto seguido (N,), que se corta en trozos de contexto, o ventanas (n, contexto + 1).
    """
    estaba_entrenando = modelo.training
    modelo.eval()
    datos = datos.to(next(modelo.parameters()).device)
    if datos.dim() == 2:
        partes = [(datos[:, :-1], datos[:, 1:])]
    else:
        c = modelo.contexto
        n = (len(datos) - 1) // c  # trozos completos: en cada uno se predice cada carácter desde el anterior
        partes = [(datos[:n * c].view(n, c), datos[1:n * c + 1].view(n, c))]
        if len(datos) - 1 > n * c:  # el último trozo, más corto
            partes.append((datos[n * c:-1].unsqueeze(0), datos[n * c + 1:].unsqueeze(0)))
    total, cuantos = 0.0, 0
    for x, y in partes:
        for i in range(0, len(x), tamano_lote):
            logits = modelo(x[i:i + tamano_lote])  # (lote, L, vocabulario)
            total += F.cross_entropy(logits.flatten(0, 1), y[i:i + tamano_lote].flatten(), reduction="sum").item()
            cuantos += y[i:i + tamano_lote].numel()
    modelo.train(estaba_entrenando)
    return total / cuantos


def optimizador_adamw(modelo, lr=4e-3, weight_decay=0.1):
    """AdamW con dos grupos, como en nanoGPT: decaen las matrices y los embeddings; los sesgos y las LayerNorm, no."""
    decaen = [p for p in modelo.parameters() if p.dim() >= 2]
    no_decaen = [p for p in modelo.parameters() if p.dim() < 2]
    grupos = [{"params": decaen, "weight_decay": weight_decay}, {"params": no_decaen, "weight_decay": 0.0}]
    de_una_vez = next(modelo.parameters()).device.type in ("cpu", "cuda")  # fused: todo en una sola operación
    return torch.optim.AdamW(grupos, lr=lr, fused=de_una_vez)


def entrenar_gpt(modelo, entrenamiento, validacion, pasos, *, tamano_lote=32, lr=4e-3, weight_decay=0.1,
                 cada=100, paciencia=3, semilla=0, mostrar=True, continuar=None):
    """Entrena con AdamW, mide las dos pérdidas cada `cada` pasos y se queda con el mejor estado; devuelve el historial.

    Las dos pérdidas se miden igual (modo evaluación, ventanas de contexto): la de validación en todo su texto,
    la de entrenamiento en otras tantas ventanas repartidas por el entrenamiento. Si la validación no mejora en
    `paciencia` medidas seguidas, para y vuelve al mejor momento.

    Para seguir entrenando el mismo modelo, pasa el historial de la llamada anterior en `continuar` y el nuevo
    total de pasos en `pasos`: sigue desde el último paso con el mismo optimizador y los mismos lotes, como si
    no se hubiera parado: da lo mismo que una sola llamada con ese total si entre medias no usas el azar de
    PyTorch (el *dropout* también lo usa).
    """
    if continuar is None:
        seguir = {"optimizador": optimizador_adamw(modelo, lr, weight_decay),
                  "generador": torch.Generator().manual_seed(semilla), "mejor": None, "sin_mejora": 0, "paso": 0}
        historial = {"pasos": [], "entrenamiento": [], "validacion": [], "segundos": 0.0}
    else:
        historial, seguir = continuar, continuar.get("seguir")
        if seguir is None:
            raise ValueError(f"Ese entrenamiento ya paró (parada temprana en el paso {historial['pasos'][-1]}): "
                             f"no se puede continuar. Empieza uno nuevo sin `continuar`.")
        if pasos <= seguir["paso"]:
            raise ValueError(f"`pasos` es el total al que llegar: el entrenamiento va por el paso {seguir['paso']}, "
                             f"así que pide más (por ejemplo {2 * seguir['paso']}).")
        modelo.load_state_dict(seguir["ultimo_estado"])  # donde se quedó, no el mejor momento
    dispositivo = next(modelo.parameters()).device
    muestra = ventanas_repartidas(entrenamiento, -(-len(validacion) // modelo.contexto), modelo.contexto)
    inicio = time.perf_counter() - historial["segundos"]

    def medir(paso):
        historial["pasos"].append(paso)
        historial["entrenamiento"].append(perdida_en(modelo, muestra))
        historial["validacion"].append(perdida_en(modelo, validacion))
        mejora = seguir["mejor"] is None or historial["validacion"][-1] < seguir["mejor"]["perdida"]
        if mejora:
            seguir["mejor"] = {"paso": paso, "perdida": historial["validacion"][-1],
                               "estado": copy.deepcopy(modelo.state_dict())}
        seguir["sin_mejora"] = 0 if mejora else seguir["sin_mejora"] + 1
        if mostrar:
            print(f"paso {paso:5d} · entrenamiento {historial['entrenamiento'][-1]:.3f} · validación "
                  f"{historial['validacion'][-1]:.3f}{' *' if mejora else '  '} · "
                  f"{time.perf_counter() - inicio:.1f} s (medido)", flush=True)

    if continuar is None:
        medir(0)
    optimizador, generador = seguir["optimizador"], seguir["generador"]
    modelo.train()
    for paso in range(seguir["paso"] + 1, pasos + 1):
        seguir["paso"] = paso
        x, y = lote_aleatorio(entrenamiento, modelo.contexto, tamano_lote, generador)
        logits = modelo(x.to(dispositivo))  # (lote, contexto, vocabulario)
        perdida = F.cross_entropy(logits.flatten(0, 1), y.to(dispositivo).flatten())
        optimizador.zero_grad(set_to_none=True)
        perdida.backward()
        optimizador.step()
        if paso % cada == 0:
            medir(paso)
            if seguir["sin_mejora"] >= paciencia:
                break
    parada = seguir["sin_mejora"] >= paciencia
    mejor = seguir["mejor"]
    seguir["ultimo_estado"] = None if parada else copy.deepcopy(modelo.state_dict())  # para poder continuar
    modelo.load_state_dict(mejor["estado"])  # nos quedamos con el mejor momento
    modelo.eval()
    if mostrar:
        motivo = (f"Parada temprana en el paso {historial['pasos'][-1]}: {paciencia} medidas seguidas sin mejorar."
                  if parada else f"Fin de los {pasos} pasos.")
        print(f"{motivo} El modelo vuelve a su mejor momento, el paso {mejor['paso']} "
              f"(validación {mejor['perdida']:.3f}).")
    historial.update(mejor_paso=mejor["paso"], mejor_perdida=mejor["perdida"], parada_temprana=parada,
                     segundos=time.perf_counter() - inicio, seguir=None if parada else seguir)
    return historial


def filtrar_top_k(logits, k):
    """Deja los `k` logits más altos y pone -inf en el resto (k=None no filtra); logits (..., vocabulario)."""
    if k is None or k >= logits.shape[-1]:
        return logits
    if k < 1:
        raise ValueError(f"top_k debe ser al menos 1 (o None para no filtrar), pero es {k}.")
    umbral = torch.topk(logits, k, dim=-1).values[..., -1:]  # el k-ésimo más alto
    return logits.masked_fill(logits < umbral, float("-inf"))


@torch.no_grad()
def generar(modelo, indices, nuevos, temperatura=1.0, top_k=None, generador=None):
    """Añade `nuevos` índices muestreados uno a uno a `indices` (lista o tensor 1-D); devuelve un tensor 1-D."""
    if temperatura <= 0:
        raise ValueError(
            f"La temperatura debe ser mayor que 0, pero es {temperatura}. Para elegir siempre el carácter más "
            f"probable, usa top_k=1."
        )
    modelo.eval()
    secuencia = torch.as_tensor(indices, dtype=torch.long).flatten().to(next(modelo.parameters()).device)
    for _ in range(nuevos):
        ventana = secuencia[-modelo.contexto:].unsqueeze(0)  # (1, L ≤ contexto)
        logits = modelo(ventana)[0, -1] / temperatura  # solo importa la última posición
        probabilidades = torch.softmax(filtrar_top_k(logits, top_k), dim=-1)
        siguiente = torch.multinomial(probabilidades.cpu(), 1, generator=generador)  # el azar, siempre en la CPU
        secuencia = torch.cat([secuencia, siguiente.to(secuencia.device)])
    return secuencia.cpu()


def generar_texto(modelo, tokenizador, inicio, longitud=200, temperatura=0.8, top_k=None, semilla=0):
    """Devuelve `inicio` seguido de `longitud` caracteres generados (reproducible con `semilla`)."""
    generador = torch.Generator().manual_seed(semilla)
    indices = generar(modelo, tokenizador.codificar(inicio), longitud, temperatura, top_k, generador)
    return tokenizador.decodificar(indices)


@torch.no_grad()
def probabilidades_siguiente(modelo, tokenizador, inicio, temperatura=1.0, top_k=None):
    """Probabilidades (vocabulario,) del carácter que seguiría a `inicio`, con temperatura y top-k."""
    modelo.eval()
    indices = torch.tensor([tokenizador.codificar(inicio)[-modelo.contexto:]], device=next(modelo.parameters()).device)
    logits = modelo(indices)[0, -1] / temperatura  # (vocabulario,)
    return torch.softmax(filtrar_top_k(logits, top_k), dim=-1).cpu()


def guardar_pesos(modelo, ruta, sobrescribir=False):
    """Guarda los pesos del modelo en `ruta`; si ya existe, no la pisa salvo con sobrescribir=True."""
    ruta = pathlib.Path(ruta)
    if ruta.exists() and not sobrescribir:
        raise FileExistsError(
            f"Ya existe {ruta} y no quiero borrar tu trabajo. Elige otro nombre o usa sobrescribir=True."
        )
    torch.save(modelo.state_dict(), ruta)
    return ruta


def cargar_pesos(modelo, ruta):
    """Carga en `modelo` los pesos guardados en `ruta` (solo tensores: weights_only=True); devuelve el modelo."""
    ruta = pathlib.Path(ruta)
    if not ruta.exists():
        raise FileNotFoundError(f"No encuentro {ruta}; guarda antes los pesos con guardar_pesos(modelo, ruta).")
    pesos = torch.load(ruta, weights_only=True)
    propios = modelo.state_dict()
    faltan = [n for n in propios if n not in pesos]
    sobran = [n for n in pesos if n not in propios]
    distintos = [f"{n}: {tuple(pesos[n].shape)} en el archivo y {tuple(p.shape)} en el modelo"
                 for n, p in propios.items() if n in pesos and pesos[n].shape != p.shape]
    if faltan or sobran or distintos:
        detalles = "; ".join(
            distintos[:3] + [f"faltan {faltan[:3]}"] * bool(faltan) + [f"sobran {sobran[:3]}"] * bool(sobran)
        )
        raise ValueError(
            f"Los pesos de {ruta} son de un modelo con otra forma ({detalles}). Crea el modelo con los mismos "
            f"números con que se guardó (vocabulario, d_modelo, cabezas, capas, contexto, posiciones) y "
            f"vuelve a cargar."
        )
    modelo.load_state_dict(pesos)
    return modelo
