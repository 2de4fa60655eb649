"""Un mini-GPT: modelo, entrenamiento con parada temprana y generación de texto (lección 10)."""

import copy
import pathlib
import time

import matplotlib.pyplot as plt
import torch
import torch.nn.functional as F
from torch import nn

from utilidades.bloques import BloqueTransformer
from utilidades.graficos import barras_de_pesos


class MiniGPT(nn.Module):
    """Modelo de lenguaje de caracteres como GPT-2 en pequeño: índices (lote, L) -> logits (lote, L, vocabulario)."""

    def __init__(self, vocabulario, d_modelo=96, cabezas=4, capas=2, contexto=64, dropout=0.2,
                 posiciones=True, atar_pesos=False):
        super().__init__()
        self.contexto = contexto
        self.tokens = nn.Embedding(vocabulario, d_modelo)
        self.posiciones = nn.Embedding(contexto, d_modelo) if posiciones else None  # aprendidas
        self.dropout = nn.Dropout(dropout)
        self.bloques = nn.ModuleList(
            BloqueTransformer(d_modelo, cabezas, 4 * d_modelo, activacion="gelu", dropout=dropout)
            for _ in range(capas)
        )
        self.norma_final = nn.LayerNorm(d_modelo)
        self.salida = nn.Linear(d_modelo, vocabulario, bias=False)
        if atar_pesos:  # GPT-2 usa la misma tabla para leer y para escribir caracteres
            self.salida.weight = self.tokens.weight

    def forward(self, indices):
        lote, L = indices.shape
        if L > self.contexto:
            raise ValueError(
                f"La secuencia tiene {L} caracteres y el modelo solo admite {self.contexto} (su contexto). "
                f"Pásale solo los últimos: indices[:, -{self.contexto}:]."
            )
        x = self.tokens(indices)  # (lote, L, d_modelo)
        if self.posiciones is not None:
            x = x + self.posiciones(torch.arange(L, device=indices.device))  # (L, d_modelo) se suma a cada frase
        x = self.dropout(x)
        mascara = torch.triu(torch.ones(L, L, dtype=torch.bool, device=indices.device), diagonal=1)  # el futuro
        for bloque in self.bloques:
            x = bloque(x, mascara)
        return self.salida(self.norma_final(x))  # (lote, L, vocabulario)


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
    inicios = torch.randint(len(datos) - contexto, (tamano_lote,), generator=generador)
    x = torch.stack([datos[i:i + contexto] for i in inicios])
    y = torch.stack([datos[i + 1:i + contexto + 1] for i in inicios])
    return x, y


@torch.no_grad()
def perdida_en(modelo, datos):
    """Entropía cruzada media (nats) prediciendo cada carácter de `datos` desde el anterior, en trozos de contexto."""
    estaba_entrenando = modelo.training
    modelo.eval()
    datos = datos.to(next(modelo.parameters()).device)
    total, cuantos = 0.0, 0
    for inicio in range(0, len(datos) - 1, modelo.contexto):
        x = datos[inicio:inicio + modelo.contexto]
        y = datos[inicio + 1:inicio + modelo.contexto + 1]
        x = x[:len(y)].unsqueeze(0)  # (1, L): el último trozo puede ser más corto
        logits = modelo(x)  # (1, L, vocabulario)
        total += F.cross_entropy(logits[0], y, reduction="sum").item()
        cuantos += len(y)
    modelo.train(estaba_entrenando)
    return total / cuantos


def entrenar_gpt(modelo, entrenamiento, validacion, pasos, *, tamano_lote=32, lr=2e-3, weight_decay=0.1,
                 cada=100, paciencia=3, semilla=0, mostrar=True):
    """Entrena con AdamW, mide la validación cada `cada` pasos y se queda con el mejor estado; devuelve el historial."""
    dispositivo = next(modelo.parameters()).device
    decaen = [p for p in modelo.parameters() if p.dim() >= 2]  # matrices y embeddings
    no_decaen = [p for p in modelo.parameters() if p.dim() < 2]  # sesgos y LayerNorm, como en GPT-2
    optimizador = torch.optim.AdamW(
        [{"params": decaen, "weight_decay": weight_decay}, {"params": no_decaen, "weight_decay": 0.0}], lr=lr)
    generador = torch.Generator().manual_seed(semilla)
    historial = {"pasos": [0], "entrenamiento": [perdida_en(modelo, entrenamiento[:len(validacion)])],
                 "validacion": [perdida_en(modelo, validacion)]}
    mejor = {"paso": 0, "perdida": historial["validacion"][0], "estado": copy.deepcopy(modelo.state_dict())}
    if mostrar:
        print(f"paso     0 · validación {mejor['perdida']:.3f}")
    inicio, suma, sin_mejora = time.perf_counter(), 0.0, 0
    modelo.train()
    for paso in range(1, pasos + 1):
        x, y = lote_aleatorio(entrenamiento, modelo.contexto, tamano_lote, generador)
        x, y = x.to(dispositivo), y.to(dispositivo)
        logits = modelo(x)  # (lote, contexto, vocabulario)
        perdida = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1))
        optimizador.zero_grad()
        perdida.backward()
        optimizador.step()
        suma += perdida.item()
        if paso % cada == 0:
            historial["pasos"].append(paso)
            historial["entrenamiento"].append(suma / cada)  # media de los últimos `cada` lotes
            historial["validacion"].append(perdida_en(modelo, validacion))
            suma = 0.0
            mejora = historial["validacion"][-1] < mejor["perdida"]
            if mejora:
                mejor = {"paso": paso, "perdida": historial["validacion"][-1],
                         "estado": copy.deepcopy(modelo.state_dict())}
            sin_mejora = 0 if mejora else sin_mejora + 1
            if mostrar:
                print(f"paso {paso:5d} · entrenamiento {historial['entrenamiento'][-1]:.3f} · validación "
                      f"{historial['validacion'][-1]:.3f}{' *' if mejora else ''} · "
                      f"{time.perf_counter() - inicio:.1f} s (medido)", flush=True)
            if sin_mejora >= paciencia:
                if mostrar:
                    print(f"Parada temprana: {paciencia} validaciones seguidas sin mejorar.")
                break
    modelo.load_state_dict(mejor["estado"])  # nos quedamos con el mejor momento
    modelo.eval()
    historial.update(mejor_paso=mejor["paso"], mejor_perdida=mejor["perdida"],
                     segundos=time.perf_counter() - inicio)
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


def texto_para_widget(modelo, tokenizador, inicio, temperatura, top_k, longitud, semilla=0):
    """Lo que muestra el generador interactivo: el texto generado, o el motivo por el que no se puede."""
    if not inicio:
        return "Escribe al menos un carácter para empezar."
    try:
        return generar_texto(modelo, tokenizador, inicio, longitud, temperatura, top_k or None, semilla)
    except ValueError as error:
        return str(error)


@torch.no_grad()
def probabilidades_siguiente(modelo, tokenizador, inicio, temperatura=1.0, top_k=None):
    """Probabilidades (vocabulario,) del carácter que seguiría a `inicio`, con temperatura y top-k."""
    modelo.eval()
    indices = torch.tensor([tokenizador.codificar(inicio)[-modelo.contexto:]], device=next(modelo.parameters()).device)
    logits = modelo(indices)[0, -1] / temperatura  # (vocabulario,)
    return torch.softmax(filtrar_top_k(logits, top_k), dim=-1).cpu()


def dibujo_del_generador(modelo, tokenizador, inicio, temperatura, top_k, longitud, semilla=0):
    """(texto, figura) del generador interactivo: lo generado y las 10 opciones más probables tras `inicio`."""
    texto = texto_para_widget(modelo, tokenizador, inicio, temperatura, top_k, longitud, semilla)
    fig, ax = plt.subplots(figsize=(8, 3.4))
    if not inicio or set(inicio) - set(tokenizador.indice):
        ax.axis("off")  # sin un comienzo válido no hay nada que dibujar
        return texto, fig
    probabilidades = probabilidades_siguiente(modelo, tokenizador, inicio, temperatura, top_k or None)
    mejores = probabilidades.topk(10)
    etiquetas = [{" ": "␣", "\n": "↵"}.get(c, c) for c in tokenizador.decodificar(mejores.indices)]
    barras_de_pesos(mejores.values, etiquetas, ax=ax, titulo=f"¿Qué carácter sigue a «{inicio[-15:]}»?")
    ax.set_ylabel("probabilidad")
    return texto, fig


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
    modelo.load_state_dict(torch.load(ruta, weights_only=True))
    return modelo
