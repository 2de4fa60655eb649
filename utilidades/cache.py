"""La caché de claves y valores (*KV cache*, lección 12): generar sin recalcular las claves y los valores de los
caracteres que el modelo ya leyó.

Al generar, cada paso añade un carácter, y sin caché el modelo vuelve a pasar la ventana entera. Pero las claves y
los valores de un carácter no cambian cuando llegan otros detrás (la máscara causal se lo impide): basta calcularlos
una vez y guardarlos. Con la caché, cada paso pasa por el modelo solo el carácter nuevo.

La caché no cambia el modelo: se engancha a cada capa de atención (y a los vectores de posición, que empiezan donde
se quedó) mientras pasa el `forward` de siempre, el de `MiniGPT` o el de `GPTModerno`, y se suelta después.
"""

import contextlib
import time

import torch
from torch import nn

from utilidades.atencion import atencion
from utilidades.gpt import generar
from utilidades.multicabeza import atencion_fusionada


class Cache:
    """Las claves y los valores ya calculados de cada capa: tensores (lote, cabezas_kv, posiciones, d_cabeza)."""

    def __init__(self, capas):
        self.claves = [None] * capas
        self.valores = [None] * capas

    @property
    def posiciones(self):
        """Cuántas posiciones guarda (0 si está vacía)."""
        return 0 if self.claves[0] is None else self.claves[0].shape[-2]

    def anadir(self, capa, k, v):
        """Pega k y v (lote, cabezas_kv, n, d_cabeza) detrás de los guardados en `capa`; devuelve los de todas las
        posiciones, (lote, cabezas_kv, guardadas + n, d_cabeza) cada uno."""
        if self.claves[capa] is not None:
            k = torch.cat([self.claves[capa], k], dim=-2)
            v = torch.cat([self.valores[capa], v], dim=-2)
        self.claves[capa], self.valores[capa] = k, v
        return k, v

    def recortar(self, posiciones):
        """Olvida lo guardado a partir de la posición `posiciones` (se queda con las primeras)."""
        self.claves = [None if t is None else t[..., :posiciones, :] for t in self.claves]
        self.valores = [None if t is None else t[..., :posiciones, :] for t in self.valores]
        if posiciones == 0:
            self.claves, self.valores = [None] * len(self.claves), [None] * len(self.valores)

    def bytes(self):
        """Memoria medida: los bytes de todos los tensores guardados."""
        return sum(t.nbytes for t in self.claves + self.valores if t is not None)


def bytes_por_formula(capas, cabezas_kv, d_cabeza, posiciones, bytes_por_numero=4, lote=1):
    """Memoria de la caché: 2 (claves y valores) · capas · cabezas_kv · d_cabeza · posiciones · bytes por número
    (4 en float32) · lote."""
    return 2 * capas * cabezas_kv * d_cabeza * posiciones * bytes_por_numero * lote


def forma_de_la_cache(modelo):
    """Lo que guarda la caché de un MiniGPT o un GPTModerno: {capas, cabezas_kv, d_cabeza, bytes_por_numero}."""
    capa = modelo.bloques[0].atencion
    return {"capas": len(modelo.bloques), "cabezas_kv": getattr(capa, "cabezas_kv", capa.cabezas),
            "d_cabeza": capa.d_cabeza, "bytes_por_numero": capa.qkv.weight.element_size()}


def bytes_por_posicion(modelo):
    """Bytes que la caché del modelo guarda por cada posición (por carácter leído), por la fórmula."""
    return bytes_por_formula(posiciones=1, **forma_de_la_cache(modelo))


# --- Engancharse al modelo -----------------------------------------------------------------------------------------


def _proyectar(capa, x, inicio):
    """q (lote, cabezas, n, d_cabeza), k y v (lote, cabezas_kv, n, d_cabeza) de la capa de atención."""
    if hasattr(capa, "proyectar"):  # AtencionAgrupada: sus cabezas_kv y, con RoPE, el giro desde `inicio`
        return capa.proyectar(x, inicio)
    lote, n, _ = x.shape
    q, k, v = capa.qkv(x).chunk(3, dim=-1)  # lo mismo que AtencionMulticabeza.forward
    return tuple(t.view(lote, n, capa.cabezas, capa.d_cabeza).transpose(1, 2) for t in (q, k, v))


def _mezclar(capa, q, k, v, mascara):
    """Atiende con q a todas las claves (las guardadas y las nuevas) y pasa por la proyección de salida."""
    if hasattr(capa, "mezclar"):
        return capa.mezclar(q, k, v, mascara)
    lote, _, n, _ = q.shape
    if capa.guardar_pesos:  # como AtencionMulticabeza.forward: con la tabla de pesos o con la cuenta fusionada
        mezcla, pesos = atencion(q, k, v, mascara)
        capa.pesos = pesos.detach()
    else:
        mezcla = atencion_fusionada(q, k, v, mascara)  # (lote, cabezas, n, d_cabeza)
        capa.pesos = None
    return capa.salida(mezcla.transpose(1, 2).reshape(lote, n, capa.d_modelo))


class _AtencionConCache(nn.Module):
    """Ocupa el sitio de la capa de atención de un bloque mientras pasa el modelo: calcula las claves y los valores
    solo de los caracteres nuevos, los guarda en la caché y atiende a todos los guardados."""

    def __init__(self, capa, cache, numero, inicio):
        super().__init__()
        self.capa, self.cache, self.numero, self.inicio = capa, cache, numero, inicio
        self.d_modelo = capa.d_modelo  # el bloque lo mira para comprobar su entrada

    def forward(self, x, mascara=None, mascara_relleno=None):
        if mascara_relleno is not None:
            raise ValueError("La caché de claves y valores genera un texto sin relleno: no pases mascara_relleno.")
        q, k, v = _proyectar(self.capa, x, self.inicio)
        k, v = self.cache.anadir(self.numero, k, v)  # (lote, cabezas_kv, inicio + n, d_cabeza)
        n = x.shape[1]
        if n == 1:
            mascara = None  # el carácter nuevo mira a todo lo guardado
        elif mascara is not None:  # la causal (n, n) de los nuevos; a lo guardado, que es pasado, miran todos
            pasado = torch.zeros(n, self.inicio, dtype=torch.bool, device=mascara.device)
            mascara = torch.cat([pasado, mascara], dim=-1)  # (n, inicio + n)
        return _mezclar(self.capa, q, k, v, mascara)


class _PosicionesDesde(nn.Module):
    """Los vectores de posición de `tabla`, empezando en la posición `inicio` en vez de en 0."""

    def __init__(self, tabla, inicio):
        super().__init__()
        self.tabla, self.inicio = tabla, inicio

    def forward(self, posiciones):
        return self.tabla(posiciones + self.inicio)


@contextlib.contextmanager
def _enganchada(modelo, cache):
    """Mientras dura el `with`, el modelo lee y escribe en `cache`; después vuelve a ser el de siempre."""
    inicio = cache.posiciones
    capas = [bloque.atencion for bloque in modelo.bloques]
    tabla = modelo.posiciones
    try:
        for numero, (bloque, capa) in enumerate(zip(modelo.bloques, capas)):
            bloque.atencion = _AtencionConCache(capa, cache, numero, inicio)
        if tabla is not None:
            modelo.posiciones = _PosicionesDesde(tabla, inicio)
        yield modelo
    finally:
        for bloque, capa in zip(modelo.bloques, capas):
            bloque.atencion = capa
        modelo.posiciones = tabla


@torch.no_grad()
def paso_con_cache(modelo, indices, cache):
    """Pasa por el modelo los caracteres nuevos `indices` (lote, n), que siguen a los que ya guarda `cache`;
    guarda sus claves y valores y devuelve los logits de los nuevos, (lote, n, vocabulario)."""
    total = cache.posiciones + indices.shape[-1]
    if total > modelo.contexto:
        raise ValueError(f"Con estos caracteres la caché llegaría a {total} posiciones y el modelo solo admite "
                         f"{modelo.contexto} (su contexto). Genera menos caracteres, o usa "
                         f"generar_con_cache(..., deslizar=True), que pasado el contexto desliza la ventana "
                         f"como generar (y entonces recalcula todo en cada paso).")
    with _enganchada(modelo, cache):
        return modelo(indices)  # el forward de siempre: solo cambian la atención y dónde empiezan las posiciones


class ModeloConCache(nn.Module):
    """El modelo con memoria de lo que ya leyó: si el texto de una llamada sigue al de la anterior, solo pasan por el
    modelo los caracteres nuevos, y las claves y los valores de los demás salen de la caché.

    Devuelve lo mismo que el modelo, los logits (lote, L, vocabulario), así que `generar`, `generar_texto` y
    `probabilidades_siguiente` de la lección 10 escriben con la caché sin cambiar una línea: basta pasarles
    `ModeloConCache(modelo)` en vez de `modelo`. Si el texto no sigue al anterior (otro comienzo, o la ventana que se
    desliza pasado el contexto), la caché empieza de nuevo; con la ventana llena pasa el modelo entero y no guarda
    nada, porque ningún texto que quepa puede seguirla. Al entrenar (o con gradientes) es el modelo de siempre.
    """

    def __init__(self, modelo):
        super().__init__()
        self.modelo = modelo
        self.train(modelo.training)  # en el modo del modelo (MiniGPT nace entrenando; generar pasa a evaluación)
        self.olvidar()

    @property
    def contexto(self):
        """El contexto del modelo (el de ahora, aunque cambie: `GPTModerno.ampliar_contexto`)."""
        return self.modelo.contexto

    def olvidar(self):
        """Vacía la caché: la próxima llamada lee su texto entero (hazlo si cambias los pesos del modelo)."""
        self.cache = Cache(len(self.modelo.bloques))
        self.leidos = None  # (lote, n): los índices cuyas claves y valores guarda la caché
        self.logits = None  # (lote, n, vocabulario): los de esos índices

    def _sigue_a_lo_leido(self, indices):
        """True si `indices` (lote, L) empieza por los índices ya leídos (y es igual de largo o más)."""
        if self.leidos is None or indices.shape[0] != self.leidos.shape[0]:
            return False
        n = self.leidos.shape[1]
        return indices.shape[1] >= n and torch.equal(indices[:, :n], self.leidos)

    def forward(self, indices):
        valido = (isinstance(indices, torch.Tensor) and indices.dim() == 2 and not indices.is_floating_point()
                  and indices.shape[1] <= self.contexto)
        if self.modelo.training or torch.is_grad_enabled() or not valido:
            self.olvidar()  # el modelo de siempre (y, si la entrada no vale, su error en castellano)
            return self.modelo(indices)
        if not self._sigue_a_lo_leido(indices):
            self.olvidar()
            if indices.shape[1] == self.contexto:  # la ventana llena: ningún texto que quepa la puede seguir
                return self.modelo(indices)
        nuevos = indices[:, 0 if self.leidos is None else self.leidos.shape[1]:]  # (lote, n nuevos)
        if nuevos.shape[1]:
            try:
                logits = paso_con_cache(self.modelo, nuevos, self.cache)  # (lote, n nuevos, vocabulario)
            except Exception:
                self.olvidar()  # un error a medio camino deja la caché a medias: mejor vacía
                raise
            self.logits = logits if self.logits is None else torch.cat([self.logits, logits], dim=1)
            self.leidos = indices
        return self.logits


# --- Generar -------------------------------------------------------------------------------------------------------


def generar_con_cache(modelo, indices, nuevos, temperatura=1.0, top_k=None, generador=None, deslizar=False):
    """Lo mismo que `generar` (los mismos índices con la misma semilla), con la caché: añade `nuevos` índices a
    `indices` (lista o tensor 1-D) y devuelve un tensor 1-D. Es `generar` con `ModeloConCache(modelo)`.

    Con `deslizar=True`, pasado el contexto la ventana se desliza como en `generar`: cada carácter cambia de posición
    y con él sus claves y valores, así que cada paso recalcula la ventana entera (sin caché). Sin él, pedir más
    caracteres de los que caben en el contexto es un error.
    """
    largo = len(torch.as_tensor(indices).flatten())
    if not deslizar and largo + nuevos - 1 > modelo.contexto:
        raise ValueError(f"El comienzo tiene {largo} caracteres y pides {nuevos} más: el último se "
                         f"predeciría mirando {largo + nuevos - 1} y el contexto del modelo es de "
                         f"{modelo.contexto}. Pide como mucho {max(modelo.contexto - largo + 1, 0)}, "
                         f"o usa deslizar=True para seguir como generar (sin caché pasado el contexto).")
    return generar(ModeloConCache(modelo), indices, nuevos, temperatura, top_k, generador)


# --- Medir ---------------------------------------------------------------------------------------------------------


def _mejor_tiempo(funcion, repeticiones):
    """El menor de `repeticiones` tiempos (segundos) de `funcion()`: el que menos molestó el resto de la máquina."""
    mejor = float("inf")
    for _ in range(repeticiones):
        inicio = time.perf_counter()
        funcion()
        mejor = min(mejor, time.perf_counter() - inicio)
    return mejor


@torch.no_grad()
def velocidad_de_generacion(modelo, longitudes, repeticiones=5, semilla=0):
    """Caracteres por segundo de un paso de generación cuando el texto ya tiene L caracteres, para cada L de
    `longitudes` (≤ contexto): sin caché el modelo pasa los L; con ella, solo el último, y lee la caché de L - 1.

    Devuelve una lista de {"longitud": L, "sin_cache": caracteres/s, "con_cache": caracteres/s}. Son medidas de esta
    máquina en este momento: sirven para comparar entre sí, no como cifra fija.
    """
    modelo.eval()
    dispositivo = next(modelo.parameters()).device
    vocabulario = modelo.tokens.num_embeddings
    generador = torch.Generator().manual_seed(semilla)
    filas = []
    for L in longitudes:
        if not 1 <= L <= modelo.contexto:
            raise ValueError(f"Cada longitud debe ir de 1 a {modelo.contexto} (el contexto del modelo), pero hay "
                             f"{L}. Pasado el contexto la caché ya no sirve: la ventana se desliza.")
        texto = torch.randint(vocabulario, (1, L), generator=generador).to(dispositivo)
        cache = Cache(len(modelo.bloques))
        if L > 1:
            paso_con_cache(modelo, texto[:, :-1], cache)  # lo ya leído, en la caché

        def con_cache(cache=cache, texto=texto, L=L):
            paso_con_cache(modelo, texto[:, -1:], cache)
            cache.recortar(L - 1)  # para que la próxima repetición mida lo mismo

        def sin_cache(texto=texto):
            modelo(texto)

        for medida in (sin_cache, con_cache):  # una vez antes de medir: la primera llamada siempre tarda más
            medida()
        filas.append({"longitud": L, "sin_cache": 1 / _mejor_tiempo(sin_cache, repeticiones),
                      "con_cache": 1 / _mejor_tiempo(con_cache, repeticiones)})
    return filas
