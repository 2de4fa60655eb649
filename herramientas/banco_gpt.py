"""Banco del mini-GPT: tiempo de un paso de entrenamiento de `MiniGPT` frente a un GPT al estilo de nanoGPT.

Uso: python -m herramientas.banco_gpt [--rondas 5] [--pasos 10] [--hilos N] [--validacion PASOS] [--desglose] [--cotas]

Los modelos se miden intercalados (unos pasos de cada uno, varias rondas) en la misma ejecución: si la máquina
está cargada, la carga les afecta a todos por igual y el cociente sigue valiendo. Imprime la mediana de cada uno
y el cociente; no descarga nada. `--validacion PASOS` entrena además cada modelo con su receta y da la mejor
pérdida de validación en el corpus del curso. `--desglose` reparte el tiempo de un paso de cada modelo entre
las operaciones (multiplicaciones de matrices, *dropout*, atención, GELU, el resto), con el perfilador de PyTorch:
así se ve cuánto del paso es cálculo que cualquier implementación del mismo modelo tiene que hacer. Siempre
imprime además el suelo: lo que tardan en esta máquina solo los productos de matrices de las capas lineales.
`--cotas` mide además, intercalados con los demás, el mismo `MiniGPT` sin una de sus piezas (sin la atención,
sin GELU, sin *dropout*, sin las tres): no son modelos que sirvan, son cotas. Dicen cuánto cuesta de verdad cada
pieza dentro del paso (sin el coste del perfilador) y cuánto podría bajar el paso aunque esa pieza fuera gratis.

La referencia `GPTNano` está escrita aquí a partir de la arquitectura publicada de nanoGPT (A. Karpathy,
`model.py`): pre-norma, atención causal con `F.scaled_dot_product_attention` y *dropout* en la atención, MLP GELU
4×, pesos atados, inicialización normal 0.02 con las proyecciones residuales escaladas por 1/√(2·capas), AdamW con
betas (0.9, 0.95) y *weight decay* en las matrices, recorte del gradiente a 1.
"""

import math
import os
import statistics
import time

import torch
import torch.nn.functional as F
from torch import nn

from herramientas.cuadernos import Orden
from herramientas.medidas import corpus_dividido
from utilidades.coste import mejor_tiempo
from utilidades.gpt import MiniGPT, lote_aleatorio, optimizador_adamw, perdida_en


class AtencionNano(nn.Module):
    """Atención causal como la de nanoGPT: c_attn, c_proj y dropout en los pesos y a la salida."""

    def __init__(self, d, cabezas, dropout):
        super().__init__()
        self.cabezas, self.dropout = cabezas, dropout
        self.c_attn = nn.Linear(d, 3 * d)
        self.c_proj = nn.Linear(d, d)
        self.resid_dropout = nn.Dropout(dropout)

    def forward(self, x):
        lote, L, d = x.shape
        q, k, v = self.c_attn(x).view(lote, L, 3, self.cabezas, d // self.cabezas).permute(2, 0, 3, 1, 4)
        y = F.scaled_dot_product_attention(q, k, v, dropout_p=self.dropout if self.training else 0.0, is_causal=True)
        return self.resid_dropout(self.c_proj(y.transpose(1, 2).reshape(lote, L, d)))


class BloqueNano(nn.Module):
    def __init__(self, d, cabezas, dropout):
        super().__init__()
        self.ln_1, self.ln_2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.attn = AtencionNano(d, cabezas, dropout)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d), nn.Dropout(dropout))

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class GPTNano(nn.Module):
    """GPT con la arquitectura y la inicialización publicadas de nanoGPT: índices (lote, L) -> logits."""

    def __init__(self, vocabulario, d_modelo=96, cabezas=4, capas=2, contexto=64, dropout=0.2):
        super().__init__()
        self.contexto = contexto
        self.wte, self.wpe = nn.Embedding(vocabulario, d_modelo), nn.Embedding(contexto, d_modelo)
        self.drop = nn.Dropout(dropout)
        self.h = nn.ModuleList(BloqueNano(d_modelo, cabezas, dropout) for _ in range(capas))
        self.ln_f = nn.LayerNorm(d_modelo)
        self.lm_head = nn.Linear(d_modelo, vocabulario, bias=False)
        self.wte.weight = self.lm_head.weight  # pesos atados
        for modulo in self.modules():
            if isinstance(modulo, (nn.Linear, nn.Embedding)):
                nn.init.normal_(modulo.weight, 0.0, 0.02)
            if isinstance(modulo, nn.Linear) and modulo.bias is not None:
                nn.init.zeros_(modulo.bias)
        for bloque in self.h:  # las proyecciones que escriben en el atajo residual
            for capa in (bloque.attn.c_proj, bloque.mlp[2]):
                nn.init.normal_(capa.weight, 0.0, 0.02 / math.sqrt(2 * capas))

    def forward(self, indices):
        L = indices.shape[1]
        x = self.drop(self.wte(indices) + self.wpe(torch.arange(L, device=indices.device)))
        for bloque in self.h:
            x = bloque(x)
        return self.lm_head(self.ln_f(x))


class AtencionSinCalculo(nn.Module):
    """La `AtencionMulticabeza` de un bloque sin el cálculo de la atención: cada cabeza devuelve su V tal cual.

    Hace las mismas capas lineales y los mismos cambios de forma; solo se salta Q·Kᵀ, el softmax y pesos·V.
    """

    def __init__(self, atencion):
        super().__init__()
        self.atencion = atencion
        self.d_modelo = atencion.d_modelo  # el bloque lo usa para comprobar la entrada

    def forward(self, x, mascara=None, mascara_relleno=None):
        v = self.atencion.qkv(x).chunk(3, dim=-1)[2]  # (lote, L, d): V, donde iría la mezcla de las cabezas
        return self.atencion.salida(v)


class MiniGPTSinPiezas(MiniGPT):
    """`MiniGPT` al que le faltan piezas ('atención', 'GELU', 'dropout'): una cota de tiempo, no un modelo útil."""

    PIEZAS = ("atención", "GELU", "dropout")

    def __init__(self, vocabulario, quitar, dropout=0.2, **tamano):
        desconocidas = set(quitar) - set(self.PIEZAS)
        if desconocidas:
            raise ValueError(f"No sé quitar {sorted(desconocidas)}: las piezas son {list(self.PIEZAS)}.")
        super().__init__(vocabulario, dropout=0.0 if "dropout" in quitar else dropout, **tamano)
        self.quitar = frozenset(quitar)
        for bloque in self.bloques:
            if "GELU" in self.quitar:
                bloque.mlp[1] = nn.Identity()
            if "atención" in self.quitar:
                bloque.atencion = AtencionSinCalculo(bloque.atencion)


def optimizador_nano(modelo, lr=2e-3, weight_decay=0.1):
    """La receta de nanoGPT: AdamW con betas (0.9, 0.95), decaen los parámetros de 2 o más dimensiones."""
    parametros = list(modelo.parameters())
    grupos = [{"params": [p for p in parametros if p.dim() >= 2], "weight_decay": weight_decay},
              {"params": [p for p in parametros if p.dim() < 2], "weight_decay": 0.0}]
    return torch.optim.AdamW(grupos, lr=lr, betas=(0.9, 0.95))  # nanoGPT solo usa fused en CUDA


def _paso(modelo, optimizador, x, y, recortar):
    logits = modelo(x)
    perdida = F.cross_entropy(logits.flatten(0, 1), y.flatten())
    optimizador.zero_grad(set_to_none=True)
    perdida.backward()
    if recortar:
        nn.utils.clip_grad_norm_(modelo.parameters(), 1.0)
    optimizador.step()
    return perdida


def _candidatos(V, dropout=0.2, cotas=False):
    torch.manual_seed(0)
    nuestro = MiniGPT(V, dropout=dropout)
    torch.manual_seed(0)
    del_curso = MiniGPT(V, dropout=dropout)
    for bloque in del_curso.bloques:  # los bloques tal como los enseña la lección 07: su atención guarda los
        bloque.atencion.guardar_pesos = True  # pesos y su dropout es nn.Dropout (solo los embeddings pasan por
        bloque.dropout = nn.Dropout(dropout)  # apagar_al_azar), así que esta fila mide las dos cosas
    torch.manual_seed(0)
    nano = GPTNano(V, dropout=dropout)
    candidatos = {
        "MiniGPT (atención fusionada, AdamW fused)": (nuestro, optimizador_adamw(nuestro), False),
        "MiniGPT (bloques del curso, nn.Dropout)": (del_curso, optimizador_adamw(del_curso), False),
        "GPT al estilo de nanoGPT": (nano, optimizador_nano(nano), True),
    }
    if cotas:
        for quitar in [(pieza,) for pieza in MiniGPTSinPiezas.PIEZAS] + [MiniGPTSinPiezas.PIEZAS]:
            torch.manual_seed(0)
            cota = MiniGPTSinPiezas(V, quitar, dropout=dropout)
            nombre = "cota: MiniGPT sin " + (" ni ".join(quitar) if len(quitar) < 3 else "las tres")
            candidatos[nombre] = (cota, optimizador_adamw(cota), False)
    return candidatos


def medir_pasos(entrenamiento, V, rondas=5, pasos=10, tamano_lote=32, contexto=64, cotas=False):
    """Milisegundos por paso de cada modelo (lista por ronda), medidos intercalados; `cotas`: también las cotas."""
    candidatos = _candidatos(V, cotas=cotas)
    generador = torch.Generator().manual_seed(0)
    lotes = [lote_aleatorio(entrenamiento, contexto, tamano_lote, generador) for _ in range(pasos)]
    tiempos = {nombre: [] for nombre in candidatos}
    for ronda in range(rondas + 1):  # la ronda 0 calienta y no cuenta
        for nombre, (modelo, optimizador, recortar) in candidatos.items():
            modelo.train()
            inicio = time.perf_counter()
            for x, y in lotes:
                _paso(modelo, optimizador, x, y, recortar)
            if ronda:
                tiempos[nombre].append(1000 * (time.perf_counter() - inicio) / pasos)
    return tiempos


def mejor_validacion(entrenamiento, validacion, V, pasos, cada=100, tamano_lote=32):
    """Mejor pérdida de validación de cada modelo tras `pasos` pasos con su receta (la misma semilla de lotes)."""
    resultados = {}
    for nombre, (modelo, optimizador, recortar) in _candidatos(V).items():
        if "del curso" in nombre:
            continue  # da lo mismo que la fusionada, más despacio
        generador = torch.Generator().manual_seed(0)
        mejor = math.inf
        for paso in range(1, pasos + 1):
            modelo.train()
            x, y = lote_aleatorio(entrenamiento, modelo.contexto, tamano_lote, generador)
            if recortar:  # nanoGPT: calentamiento lineal y coseno hasta lr/10
                calentar = max(1, pasos // 10)
                fraccion = paso / calentar if paso < calentar else 0.1 + 0.9 * 0.5 * (
                    1 + math.cos(math.pi * (paso - calentar) / max(1, pasos - calentar)))
                for grupo in optimizador.param_groups:
                    grupo["lr"] = 2e-3 * fraccion
            _paso(modelo, optimizador, x, y, recortar)
            if paso % cada == 0:
                mejor = min(mejor, perdida_en(modelo, validacion))
        resultados[nombre] = mejor
    return resultados


def flop_de_las_capas_lineales(V, d_modelo=96, capas=2, contexto=64, tamano_lote=32):
    """Operaciones (FLOP) de los productos de matrices de las capas lineales en un paso de entrenamiento.

    Por bloque, Q/K/V (d → 3d), la proyección de salida (d → d) y el MLP (d → 4d → d): 2·N·d²·(3 + 1 + 4 + 4)
    hacia delante con N = lote · contexto posiciones; más la última capa lineal (la de los logits), 2·N·d·V. Hacia
    atrás cuesta el doble (el gradiente de la entrada y el de los pesos), así que el paso entero es 3 veces lo de
    delante. No cuenta los productos dentro de la atención (Q·Kᵀ y pesos·V), que hace su propio núcleo.
    """
    N = tamano_lote * contexto
    return 3 * (capas * 24 * N * d_modelo**2 + 2 * N * d_modelo * V)


def suelo_de_matrices(V, d_modelo=96, capas=2, contexto=64, tamano_lote=32, repeticiones=20):
    """(FLOP, milisegundos): lo que tardan en esta máquina solo los productos de `flop_de_las_capas_lineales`.

    Mide cada producto (hacia delante y sus dos gradientes) con las formas exactas del paso y se queda con la
    ejecución más rápida de cada uno (`mejor_tiempo`, con los hilos de PyTorch). Es un suelo: cualquier
    implementación de este modelo los tiene que hacer, con cualquier código alrededor.
    """
    N = tamano_lote * contexto
    formas = [(d_modelo, 3 * d_modelo), (d_modelo, d_modelo), (d_modelo, 4 * d_modelo), (4 * d_modelo, d_modelo)]
    veces = [capas] * len(formas) + [1]
    formas.append((d_modelo, V))
    generador = torch.Generator().manual_seed(0)
    segundos = 0.0
    for (entra, sale), cuantas in zip(formas, veces):
        x, w = torch.randn(N, entra, generator=generador), torch.randn(sale, entra, generator=generador)
        g = torch.randn(N, sale, generator=generador)
        for a, b in ((x, w.t()), (g, w), (g.t(), x)):  # hacia delante, gradiente de x, gradiente de w
            segundos += cuantas * mejor_tiempo(torch.mm, a, b, repeticiones=repeticiones,
                                               hilos=torch.get_num_threads())
    return flop_de_las_capas_lineales(V, d_modelo, capas, contexto, tamano_lote), 1000 * segundos


# Categorías del desglose: nombre -> trozos del nombre de las operaciones de ATen cuyo tiempo propio suma (el resto
# va a «lo demás»). «aten::mm» no está dentro de «aten::addmm» ni de «aten::bmm»: cada una se nombra.
CATEGORIAS = {
    "matrices": ("aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm", "aten::matmul"),
    "dropout": ("aten::bernoulli_", "aten::native_dropout", "aten::random_"),  # random_: el de apagar_al_azar
    "atención": ("scaled_dot_product", "aten::_softmax"),
    "GELU": ("aten::gelu",),
}


def desglose(entrenamiento, V, pasos=10, tamano_lote=32, contexto=64):
    """Milisegundos por paso de cada modelo en cada categoría de CATEGORIAS (más «lo demás» y «total»)."""
    from torch.profiler import profile

    generador = torch.Generator().manual_seed(0)
    lotes = [lote_aleatorio(entrenamiento, contexto, tamano_lote, generador) for _ in range(pasos)]
    resultado = {}
    for nombre, (modelo, optimizador, recortar) in _candidatos(V).items():
        modelo.train()
        for x, y in lotes[:3]:  # calentar
            _paso(modelo, optimizador, x, y, recortar)
        with profile() as perfil:
            for x, y in lotes:
                _paso(modelo, optimizador, x, y, recortar)
        tiempos = {categoria: 0.0 for categoria in CATEGORIAS}
        total = 0.0
        for evento in perfil.key_averages():
            ms = evento.self_cpu_time_total / 1000 / pasos
            total += ms
            for categoria, operaciones in CATEGORIAS.items():
                if any(op in evento.key for op in operaciones):
                    tiempos[categoria] += ms
                    break
        tiempos["lo demás"] = total - sum(tiempos.values())
        tiempos["total"] = total
        resultado[nombre] = tiempos
    return resultado


def main(argumentos=None):
    analizador = Orden(__doc__)
    analizador.add_argument("--rondas", type=int, default=5)
    analizador.add_argument("--pasos", type=int, default=10, help="pasos de cada modelo por ronda")
    analizador.add_argument("--hilos", type=int, default=None, help="hilos de PyTorch (por defecto, los suyos)")
    analizador.add_argument("--validacion", type=int, default=0, help="pasos de entrenamiento para comparar la pérdida")
    analizador.add_argument("--desglose", action="store_true", help="reparte el tiempo de un paso por operaciones")
    analizador.add_argument("--cotas", action="store_true", help="mide también MiniGPT sin atención, GELU o dropout")
    opciones = analizador.parse_args(argumentos)
    if opciones.hilos:
        torch.set_num_threads(opciones.hilos)
    _, tokenizador, entrenamiento, validacion, _ = corpus_dividido()
    V = len(tokenizador)
    carga = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"torch {torch.__version__} · {torch.get_num_threads()} hilos · {os.cpu_count()} núcleos · carga media "
          f"al empezar {carga:.1f}")
    print(f"Tamaño: V {V}, 2 bloques, d 96, 4 cabezas, contexto 64, lote 32, dropout 0.2 · {opciones.rondas} rondas "
          f"de {opciones.pasos} pasos por modelo, intercaladas")
    tiempos = medir_pasos(entrenamiento, V, opciones.rondas, opciones.pasos, cotas=opciones.cotas)
    medianas = {nombre: statistics.median(t) for nombre, t in tiempos.items()}
    referencia = medianas["GPT al estilo de nanoGPT"]
    for nombre, mediana in medianas.items():
        print(f"  {nombre:47s} {mediana:8.1f} ms/paso (de {min(tiempos[nombre]):.1f} a {max(tiempos[nombre]):.1f})"
              f" · {mediana / referencia:.2f} del de nanoGPT")
    if opciones.cotas:
        print(f"Las cotas no son modelos útiles: dicen cuánto cuesta cada pieza dentro del paso. Un paso de 0.60 del "
              f"de nanoGPT son {0.6 * referencia:.1f} ms aquí.")
    flop, ms = suelo_de_matrices(V)
    print(f"Suelo: los productos de matrices de las capas lineales de un paso ({flop / 1e9:.2f} GFLOP) tardan "
          f"{ms:.1f} ms aquí ({flop / ms / 1e6:.0f} GFLOP/s), {ms / referencia:.2f} del paso de nanoGPT; ninguna "
          f"implementación de este tamaño baja de ahí")
    if opciones.validacion:
        print(f"Mejor validación en {opciones.validacion} pasos, cada uno con su receta:")
        for nombre, perdida in mejor_validacion(entrenamiento, validacion, V, opciones.validacion).items():
            print(f"  {nombre:42s} {perdida:.3f}")
    if opciones.desglose:
        partes = desglose(entrenamiento, V)
        columnas = list(next(iter(partes.values())))
        print("Desglose de un paso (ms, tiempo propio de cada operación según el perfilador; el perfilador añade "
              "algo de coste):")
        print(f"  {'':42s}" + "".join(f"{c:>10s}" for c in columnas))
        for nombre, tiempos in partes.items():
            print(f"  {nombre:42s}" + "".join(f"{tiempos[c]:10.1f}" for c in columnas))
    return medianas


if __name__ == "__main__":
    main()
