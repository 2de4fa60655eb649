"""El transformer entero, etapa por etapa (lección 11): una pasada del mini-GPT pieza a pieza, sin dibujos.

`recorrer(modelo, tokenizador, comienzo)` repite, con los mismos pesos, lo que hace `MiniGPT` por dentro y guarda el
tensor de cada etapa: caracteres → índices → embeddings → + posiciones → en cada bloque LayerNorm, Q/K/V, QKᵀ/√d,
el mismo con la máscara causal, pesos de atención, pesos · V de cada cabeza, cabezas pegadas, proyección,
atajo residual, LayerNorm, MLP con GELU y atajo → LayerNorm final → logits → temperatura → top-k → softmax → el
carácter sorteado. Cada etapa lleva también su número en la lista de 13 etapas de la fuente del curso
(`ETAPAS_DE_LA_FUENTE`). Los dibujos y el widget viven en `utilidades.visualizador_widget`.
"""

import math
import pathlib
from dataclasses import dataclass, field

import torch
import torch.nn.functional as F

from utilidades.gpt import MiniGPT, filtrar_top_k
from utilidades.mascaras import mascara_causal

# La pasada contada en 13 etapas, como la cuenta el material del que parte el curso (la «fuente»). El curso la
# parte más fino (cada bloque por dentro, y el sorteo en cuatro pasos): cada etapa del curso dice a cuál de estas
# 13 pertenece, y varias del curso pueden caer en la misma.
ETAPAS_DE_LA_FUENTE = (
    "tokenización: texto → índices",
    "embeddings de los tokens",
    "posiciones",
    "Q, K y V",
    "puntajes QKᵀ/√d",
    "máscara causal",
    "softmax: pesos de atención",
    "pesos · V en cada cabeza",
    "cabezas pegadas y proyección",
    "atajo residual y LayerNorm",
    "MLP",
    "logits",
    "muestreo: temperatura, top-k, softmax y sorteo",
)

RUTA_MODELO = pathlib.Path(__file__).resolve().parent.parent / "datos" / "mini_gpt_leccion_11.pt"
_REHACER = "python -m herramientas.modelo_leccion_11 --forzar"


def cargar_mini_gpt(tokenizador, ruta=RUTA_MODELO):
    """Devuelve (modelo, datos): el mini-GPT guardado por herramientas.modelo_leccion_11, en float64 y modo evaluación.

    `datos` dice cómo se entrenó (pasos, mejor paso y pérdida). Los pesos pasan de float32 a float64 sin cambiar.
    """
    ruta = pathlib.Path(ruta)
    if not ruta.exists():
        raise FileNotFoundError(f"No encuentro los pesos en {ruta}. Vienen con el repositorio del curso, en datos/; "
                                f"para producirlos de nuevo, ejecuta en la raíz: {_REHACER}")
    guardado = torch.load(ruta, weights_only=True)
    if guardado["caracteres"] != "".join(tokenizador.caracteres):
        raise ValueError(f"Los pesos de {ruta.name} se entrenaron con otro vocabulario ({len(guardado['caracteres'])} "
                         f"caracteres; el corpus de ahora tiene {len(tokenizador)}): el corpus cambió. Vuelve a "
                         f"entrenarlos con: {_REHACER}")
    modelo = MiniGPT(len(tokenizador), **guardado["configuracion"])
    modelo.load_state_dict(guardado["estado"])
    datos = {clave: valor for clave, valor in guardado.items() if clave != "estado"}
    return modelo.double().eval(), datos


@dataclass
class Etapa:
    """Una etapa de la pasada: su tensor, qué significa cada eje y la lección en que lo construiste."""

    titulo: str
    valor: torch.Tensor
    ejes: tuple  # nombre de cada dimensión, p. ej. ("L", "d_modelo")
    lecciones: tuple  # p. ej. ("04",)
    que_es: str  # una frase para el estudiante
    tipo: str  # cómo se dibuja: "caracteres", "indices", "matriz", "qkv", "puntajes", "atencion", "cabezas",
    #            "vector", "sorteo"
    fuente: int  # su número (1 a 13) en ETAPAS_DE_LA_FUENTE
    bloque: int | None = None
    extra: dict = field(default_factory=dict)

    @property
    def forma(self):
        """La forma del tensor, como tupla de enteros."""
        return tuple(self.valor.shape)

    def forma_con_nombres(self):
        """«(L, d_modelo) = (10, 96)»."""
        return f"({', '.join(self.ejes)}) = {self.forma}"

    def en_la_fuente(self):
        """«6 de la fuente (máscara causal)»: a qué etapa de la lista de 13 de la fuente pertenece."""
        return f"{self.fuente} de la fuente ({ETAPAS_DE_LA_FUENTE[self.fuente - 1]})"

    def donde(self):
        """«lo construiste en la lección 07» (o «en las lecciones 02, 04 y 05»)."""
        if len(self.lecciones) == 1:
            return f"lo construiste en la lección {self.lecciones[0]}"
        return f"lo construiste en las lecciones {', '.join(self.lecciones[:-1])} y {self.lecciones[-1]}"


@dataclass
class Recorrido:
    """Todas las etapas de una pasada para un comienzo, y el carácter sorteado al final."""

    comienzo: str  # lo que escribió el estudiante
    caracteres: list  # los que entran en el modelo (los últimos `contexto`)
    etapas: list
    logits: torch.Tensor  # (L, vocabulario): los de todas las posiciones, como los del modelo
    probabilidades: torch.Tensor  # (vocabulario,): las del sorteo del siguiente carácter
    siguiente: str
    temperatura: float
    top_k: int | None
    recortado: bool = False  # True si el comienzo era más largo que el contexto

    def __len__(self):
        return len(self.etapas)

    def resumen(self):
        """Una línea por etapa: número del curso, número de la fuente, título, forma y lección."""
        # Cada columna, tan ancha como su texto más largo: así las «·» y las lecciones quedan alineadas.
        ancho = max(len(e.titulo) for e in self.etapas)
        ancho_forma = max(len(e.forma_con_nombres()) for e in self.etapas)
        lineas = [f"{i:2d} · fuente {e.fuente:2d}  {e.titulo:<{ancho}}  {e.forma_con_nombres():<{ancho_forma}} · "
                  f"{'lección' if len(e.lecciones) == 1 else 'lecciones'} {', '.join(e.lecciones)}"
                  for i, e in enumerate(self.etapas)]
        return "\n".join(lineas)

    def correspondencia(self):
        """Una línea por cada una de las 13 etapas de la fuente, con las etapas del curso que le corresponden."""
        lineas = []
        for numero, nombre in enumerate(ETAPAS_DE_LA_FUENTE, start=1):
            del_curso = [i for i, e in enumerate(self.etapas) if e.fuente == numero]
            lineas.append(f"{numero:2d}. {nombre:<47} → {_lista_de_etapas(del_curso)}")
        return "\n".join(lineas)

    def cabecera(self, indice):
        """«Etapa 7 del curso (de 0 a 33) · 6 de la fuente (máscara causal) · bloque 0 · puntajes con máscara»."""
        etapa = self.etapas[indice]
        return (f"Etapa {indice} del curso (de 0 a {len(self.etapas) - 1}) · {etapa.en_la_fuente()} · "
                f"{etapa.titulo}")

    def describir(self, indice):
        """Texto de la etapa `indice`: título, números en el curso y en la fuente, forma, lección, qué es y valores."""
        if not 0 <= indice < len(self.etapas):
            raise IndexError(f"Hay {len(self.etapas)} etapas (0 a {len(self.etapas) - 1}); pediste la {indice}.")
        etapa = self.etapas[indice]
        lineas = [self.cabecera(indice),
                  f"forma {etapa.forma_con_nombres()} · {etapa.donde()}",
                  etapa.que_es,
                  _valores_en_texto(etapa, self)]
        return "\n".join(linea for linea in lineas if linea)


def _lista_de_etapas(indices):
    """«etapa 4», «etapas 0 y 1» o «etapas 4, 12, 15 y 23» (las del curso que caen en una etapa de la fuente)."""
    if len(indices) == 1:
        return f"etapa {indices[0]}"
    return f"etapas {', '.join(map(str, indices[:-1]))} y {indices[-1]}"


def visible(caracter):
    """Un carácter que se pueda leer en una etiqueta: el espacio es «␣» y el salto de línea «↵»."""
    return {" ": "␣", "\n": "↵"}.get(caracter, caracter)


def _un_numero(x):
    """«0.12», «-0.53» o «−∞» (lo que la máscara pone en el futuro)."""
    x = float(x)
    if math.isinf(x):
        return "−∞" if x < 0 else "+∞"
    return f"{round(x, 2) + 0.0:.2f}"


def _numeros(fila, cuantos=4):
    """«[0.12, -0.53, 0.88, 0.01, …]» con los primeros `cuantos` números de un tensor 1-D."""
    texto = ", ".join(_un_numero(x) for x in fila[:cuantos])
    return f"[{texto}{', …' if len(fila) > cuantos else ''}]"


def _valores_en_texto(etapa, recorrido):
    """Unos pocos valores de la etapa, redondeados, para leerlos sin la figura."""
    ultimo = visible(recorrido.caracteres[-1])
    v = etapa.valor
    if etapa.tipo == "caracteres":
        return "caracteres: " + " ".join(f"«{visible(c)}»" for c in recorrido.caracteres)
    if etapa.tipo == "indices":
        return "índices: " + str(v.tolist())
    if etapa.tipo in ("matriz", "qkv"):
        texto = f"fila del último carácter, «{ultimo}»: {_numeros(v[-1])}"
        if etapa.tipo == "qkv":
            d = v.shape[-1] // 3
            texto = (f"q de «{ultimo}»: {_numeros(v[-1, :d], 3)} · k: {_numeros(v[-1, d:2 * d], 3)} · "
                     f"v: {_numeros(v[-1, 2 * d:], 3)}")
        if "media_por_fila" in etapa.extra:
            media, desviacion = etapa.extra["media_por_fila"], etapa.extra["desviacion_por_fila"]
            texto += f"\nantes de escalar, cada fila tiene media {media:.2f} y desviación {desviacion:.2f}"
        return texto
    if etapa.tipo == "puntajes":
        primero = visible(recorrido.caracteres[0])
        texto = f"fila de «{primero}» (el primero), cabeza 0: {_numeros(v[0, 0])}"
        if etapa.extra.get("enmascarados"):
            tapadas = int(torch.isneginf(v[0]).sum())
            texto += f"\n−∞ en las {tapadas} celdas de cada cabeza que están por encima de la diagonal"
        return texto
    if etapa.tipo == "cabezas":
        return " · ".join(f"cabeza {h}: {_numeros(v[h, -1], 2)}" for h in range(v.shape[0])) + \
            f" (fila de «{ultimo}»)"
    if etapa.tipo == "atencion":
        partes = []
        for h in range(v.shape[0]):
            j = int(v[h, -1].argmax())
            partes.append(f"cabeza {h} → «{visible(recorrido.caracteres[j])}» {v[h, -1, j]:.2f}")
        return f"«{ultimo}» (el último) mira sobre todo a: " + " · ".join(partes)
    if etapa.tipo == "vector":
        vivos = (v > 0) if etapa.extra.get("probabilidades") else torch.isfinite(v)
        mejores = torch.topk(torch.where(vivos, v, torch.full_like(v, -math.inf)), 3)
        caracteres = etapa.extra["vocabulario"]
        lista = ", ".join(f"«{visible(caracteres[i])}» {x:.2f}" for x, i in zip(mejores.values.tolist(),
                                                                               mejores.indices.tolist()))
        return f"los tres mayores: {lista} · {int(vivos.sum())} de {len(v)} caracteres siguen en juego"
    if etapa.tipo == "sorteo":
        p = recorrido.probabilidades[etapa.extra["indice"]]
        return (f"sale «{visible(recorrido.siguiente)}» (probabilidad {p:.2f}) y se añade: "
                f"«{recorrido.comienzo}{recorrido.siguiente}»")
    return ""


def _norma(x, capa):
    """La LayerNorm `capa` del modelo aplicada a x; devuelve (salida, normalizada antes de aplicar γ y β)."""
    return capa(x), F.layer_norm(x, capa.normalized_shape, eps=capa.eps)


def _atencion_a_la_vista(atencion, h, mascara):
    """Pasa h (L, d_modelo) por la `AtencionMulticabeza` del bloque, guardando sus pesos, y devuelve
    (pesos (cabezas, L, L), cabezas pegadas (L, d_modelo), proyectada (L, d_modelo)): lo que entra en su capa
    `salida` se lee con un gancho (*hook*), sin repetir su cuenta."""
    entradas = []
    gancho = atencion.salida.register_forward_hook(lambda capa, entrada, salida: entradas.append(entrada[0]))
    guardar, atencion.guardar_pesos = atencion.guardar_pesos, True
    try:
        proyectada = atencion(h[None], mascara)[0]  # (1, L, d_modelo) -> (L, d_modelo)
    finally:
        gancho.remove()
        atencion.guardar_pesos = guardar
    return atencion.pesos[0], entradas[0][0], proyectada


def _puntajes(atencion, qkv, futuro):
    """Los puntajes de cada cabeza antes del softmax, (cabezas, L, L): escalados (QKᵀ/√d_cabeza) y con la máscara
    (−∞ en el futuro). Son las cuentas que `atencion` de la lección 02 hace antes del softmax."""
    L = qkv.shape[0]
    q, k, _ = qkv.view(L, 3, atencion.cabezas, atencion.d_cabeza).permute(1, 2, 0, 3)  # 3 × (cabezas, L, d_cabeza)
    escalados = q @ k.transpose(-2, -1) / math.sqrt(atencion.d_cabeza)  # (cabezas, L, L)
    return escalados, escalados.masked_fill(futuro, -math.inf)


@torch.no_grad()
def recorrer(modelo, tokenizador, comienzo, temperatura=0.8, top_k=10, semilla=0):
    """Pasa `comienzo` por el mini-GPT paso a paso y devuelve un `Recorrido` con el tensor de cada etapa.

    Llama a las piezas del modelo (sus submódulos) una a una, en vez de a su `forward`: así cada tensor
    intermedio queda a la vista, y la cuenta es la del modelo.
    El sorteo final es el de `generar` con un `torch.Generator` sembrado con `semilla`.
    """
    if not comienzo:
        raise ValueError("Escribe al menos un carácter para empezar.")
    if temperatura <= 0:
        raise ValueError(f"La temperatura debe ser mayor que 0, pero es {temperatura}.")
    if top_k is not None and top_k < 0:
        raise ValueError(f"top_k debe ser 0 (sin filtro), None (sin filtro) o un entero positivo, pero es {top_k}.")
    top_k = top_k or None  # 0, como en el mando del widget, es «sin filtro»
    modelo.eval()  # sin dropout: la pasada de evaluación, la que se usa para escribir
    codigos = tokenizador.codificar(comienzo)  # un carácter desconocido da un error claro
    recortado = len(codigos) > modelo.contexto
    codigos = codigos[-modelo.contexto:]
    caracteres = [tokenizador.caracteres[i] for i in codigos]
    parametro = modelo.tokens.weight
    indices = torch.tensor(codigos, device=parametro.device)  # (L,)
    L = len(codigos)
    etapas = [
        Etapa("caracteres", indices, ("L",), ("10",),
              "El texto, cortado en caracteres: cada uno es un token.", "caracteres", 1),
        Etapa("índices", indices, ("L",), ("10",),
              "El tokenizador cambia cada carácter por su número en el vocabulario.", "indices", 1),
    ]
    x = modelo.tokens(indices)  # (L, d_modelo): una fila de la tabla por carácter
    etapas.append(Etapa("embeddings de los caracteres", x, ("L", "d_modelo"), ("10",),
                        "Cada índice elige una fila de la tabla de embeddings (nn.Embedding).", "matriz", 2))
    if modelo.posiciones is not None:
        x = x + modelo.posiciones(torch.arange(L, device=x.device))  # (L, d_modelo) + (L, d_modelo)
        etapas.append(Etapa("+ posiciones", x, ("L", "d_modelo"), ("06", "10"),
                            "Se suma un vector aprendido por sitio: ahora el orden importa.", "matriz", 3))
    futuro = mascara_causal(L).to(x.device)  # (L, L)
    for b, bloque in enumerate(modelo.bloques):
        atencion = bloque.atencion
        H, dc = atencion.cabezas, atencion.d_cabeza
        h, normalizada = _norma(x, bloque.norma_1)
        etapas.append(Etapa(f"bloque {b} · LayerNorm 1", h, ("L", "d_modelo"), ("07",),
                            "Cada fila se lleva a media 0 y desviación 1, y se escala con γ y β aprendidos.",
                            "matriz", 10, b, _momentos(normalizada)))
        qkv = atencion.qkv(h)  # (L, 3·d_modelo)
        etapas.append(Etapa(f"bloque {b} · Q, K y V", qkv, ("L", "3·d_modelo"), ("04",),
                            "Una sola capa lineal da a la vez consultas (Q), claves (K) y valores (V).", "qkv", 4,
                            b))
        escalados, enmascarados = _puntajes(atencion, qkv, futuro)  # 2 × (cabezas, L, L)
        etapas.append(Etapa(f"bloque {b} · puntajes QKᵀ/√d", escalados, ("cabezas", "L", "L"), ("02", "03", "04"),
                            f"Cada cabeza compara cada consulta con cada clave (producto escalar) y divide por "
                            f"√d_cabeza = √{dc}: una tabla L × L por cabeza, todavía con el futuro.", "puntajes", 5,
                            b))
        etapas.append(Etapa(f"bloque {b} · puntajes con máscara", enmascarados, ("cabezas", "L", "L"), ("05",),
                            "La máscara causal pone −∞ por encima de la diagonal: el futuro no se mira.", "puntajes",
                            6, b, {"enmascarados": True}))
        pesos, cabezas, proyectada = _atencion_a_la_vista(atencion, h, futuro)  # el futuro pesa 0
        etapas.append(Etapa(f"bloque {b} · pesos de atención", pesos, ("cabezas", "L", "L"), ("02", "04", "05"),
                            "El softmax de cada fila de puntajes: e^(−∞) = 0, así que cada carácter reparte su "
                            "atención entre él y los anteriores.", "atencion", 7, b))
        por_cabeza = cabezas.view(L, H, dc).transpose(0, 1)  # (cabezas, L, d_cabeza): antes de pegarlas
        etapas.append(Etapa(f"bloque {b} · pesos · V por cabeza", por_cabeza, ("cabezas", "L", "d_cabeza"),
                            ("02", "04"), f"Cada cabeza mezcla sus valores con sus pesos: {H} tablas de {dc} "
                            f"columnas, una por cabeza, todavía separadas.", "cabezas", 8, b))
        etapas.append(Etapa(f"bloque {b} · cabezas pegadas", cabezas, ("L", "d_modelo"), ("04",),
                            f"Lo que encontró cada cabeza ({H} trozos de {dc} números), uno junto a otro.",
                            "matriz", 9, b, {"trozos": H}))
        etapas.append(Etapa(f"bloque {b} · proyección", proyectada, ("L", "d_modelo"), ("04",),
                            "La proyección de salida mezcla lo que trajeron las cabezas.", "matriz", 9, b))
        x = x + proyectada
        etapas.append(Etapa(f"bloque {b} · atajo residual 1", x, ("L", "d_modelo"), ("07",),
                            "x + atención(LN(x)): lo nuevo se suma a lo que ya había.", "matriz", 10, b))
        h, normalizada = _norma(x, bloque.norma_2)
        etapas.append(Etapa(f"bloque {b} · LayerNorm 2", h, ("L", "d_modelo"), ("07",),
                            "Otra normalización por fila antes del MLP.", "matriz", 10, b, _momentos(normalizada)))
        oculta = bloque.mlp[1](bloque.mlp[0](h))  # (L, 4·d_modelo)
        etapas.append(Etapa(f"bloque {b} · MLP (GELU)", oculta, ("L", "4·d_modelo"), ("07", "10"),
                            "Cada carácter por separado: capa lineal a 4·d_modelo y GELU.", "matriz", 11, b))
        x = x + bloque.mlp[2](oculta)  # (L, d_modelo)
        etapas.append(Etapa(f"bloque {b} · atajo residual 2", x, ("L", "d_modelo"), ("07",),
                            "x + MLP(LN(x)): la salida del bloque, lista para el siguiente.", "matriz", 10, b))
    x, normalizada = _norma(x, modelo.norma_final)
    etapas.append(Etapa("LayerNorm final", x, ("L", "d_modelo"), ("10",),
                        "Una última normalización antes de hablar en caracteres.", "matriz", 10, None,
                        _momentos(normalizada)))
    logits = modelo.salida(x)  # (L, vocabulario)
    vocabulario = {"vocabulario": tokenizador.caracteres}
    etapas.append(Etapa("logits del siguiente carácter", logits[-1], ("vocabulario",), ("10",),
                        "Una capa lineal da un número por carácter posible; solo importa la última fila.",
                        "vector", 12, None, vocabulario))
    escalados = logits[-1] / temperatura
    etapas.append(Etapa("÷ temperatura", escalados, ("vocabulario",), ("03", "10"),
                        f"Los logits se dividen por T = {temperatura:g}: con T < 1 los favoritos se separan más; "
                        f"con T > 1, menos.", "vector", 13, None, vocabulario))
    filtrados = filtrar_top_k(escalados, top_k)
    filtro = (f"Solo los k = {top_k} más altos siguen en juego; el resto pasa a −∞, como en una máscara."
              if top_k else "Sin filtro (k = 0): todos los caracteres siguen en juego.")
    etapas.append(Etapa("top-k", filtrados, ("vocabulario",), ("10",), filtro, "vector", 13, None, vocabulario))
    probabilidades = torch.softmax(filtrados, dim=-1)  # (vocabulario,)
    etapas.append(Etapa("softmax", probabilidades, ("vocabulario",), ("02", "03"),
                        "Las probabilidades del sorteo: ninguna negativa y suman 1.", "vector", 13, None,
                        {**vocabulario, "probabilidades": True}))
    generador = torch.Generator().manual_seed(semilla)
    elegido = int(torch.multinomial(probabilidades.cpu(), 1, generator=generador))  # como `generar`
    siguiente = tokenizador.caracteres[elegido]
    etapas.append(Etapa("carácter sorteado", torch.tensor([elegido]), ("1",), ("10",),
                        "Se sortea un carácter con esas probabilidades y se añade al final del texto.", "sorteo",
                        13, None, {"indice": elegido}))
    return Recorrido(comienzo, caracteres, etapas, logits, probabilidades, siguiente, temperatura, top_k, recortado)


def _momentos(normalizada):
    """Media y desviación típica medias por fila de una tabla normalizada (antes de γ y β)."""
    return {"media_por_fila": float(normalizada.mean(dim=-1).abs().mean()) + 0.0,
            "desviacion_por_fila": float(normalizada.std(dim=-1, unbiased=False).mean())}


def texto_de_la_etapa(modelo, tokenizador, comienzo, etapa, temperatura=0.8, top_k=10, semilla=0):
    """Lo que muestra el visualizador en texto: la etapa `etapa` o el motivo por el que no se puede."""
    try:
        recorrido = recorrer(modelo, tokenizador, comienzo, temperatura, top_k, semilla)
    except ValueError as error:
        return str(error)
    aviso = (f"(Solo caben {modelo.contexto} caracteres: el modelo lee los últimos.)\n"
             if recorrido.recortado else "")
    return aviso + recorrido.describir(etapa)
