"""Mide en el corpus del curso, pieza a pieza, lo que cambiaron los modelos de hoy frente al mini-GPT de la lección 10.

Uso: python -m herramientas.variantes_modernas [--forzar]

Entrena, con la receta de la lección 10 (`RECETA` de herramientas.medidas: 800 pasos, lotes de 32, AdamW con lr
4e-3 y weight decay 0.1, parada temprana con paciencia 3) y el corpus del curso partido como en ella, cada variante
de VARIANTES con las semillas de SEMILLAS: el mini-GPT de la lección 10 tal cual (un `GPTModerno` con todo apagado
es ese modelo), una pieza de hoy cada vez (RMSNorm, SwiGLU, RoPE, GQA, MQA) y todas a la vez (el mini-Llama).

Escribe en datos/variantes_modernas.csv, por variante y semilla: la pérdida de validación en el paso 100 (la que la
lección 12 vuelve a medir en directo), la mejor y su paso, la de **prueba** del modelo de ese paso (medida una sola
vez, al final), con RoPE la de validación en ventanas del doble de largas que las de entrenar, los parámetros y los
bytes que guarda la caché por carácter leído. El tiempo de un paso no se guarda: depende de la máquina y de lo que
esté haciendo, y la lección lo mide en directo, todas las variantes por turnos. Son veintiún entrenamientos, más de
media hora con un hilo: por eso la lección lee el archivo.
Escribe cada fila en cuanto la tiene. Si el archivo existe, no lo toca salvo con --forzar.
"""

import sys
import time

import torch

from herramientas.cuadernos import RAIZ
from herramientas.medidas import RECETA, corpus_dividido, medir_y_guardar
from utilidades.cache import bytes_por_posicion
from utilidades.gpt import contar_parametros, entrenar_gpt, perdida_en
from utilidades.modernos import GPTModerno, mini_llama

ARCHIVO = RAIZ / "datos" / "variantes_modernas.csv"
PASOS = RECETA["pasos"]
SEMILLAS = (0, 1, 2)
COLUMNAS = ("variante", "semilla", "descripcion", "pasos", "validacion_100", "mejor_paso", "ultimo_paso",
            "mejor_validacion", "prueba", "validacion_contexto_doble", "parametros", "bytes_cache_por_caracter",
            "caracteres_corpus", "vocabulario")

# nombre -> (descripción, cómo construir el modelo a partir del vocabulario V)
VARIANTES = {
    "leccion": ("el mini-GPT de la lección 10", lambda V: GPTModerno(V)),
    "rms": ("RMSNorm en vez de LayerNorm", lambda V: GPTModerno(V, norma="rms")),
    "swiglu": ("MLP SwiGLU en vez de GELU", lambda V: GPTModerno(V, mlp="swiglu")),
    "rope": ("RoPE en vez de vectores de posición", lambda V: GPTModerno(V, rope=True)),
    "gqa": ("GQA: 2 cabezas de claves para 4", lambda V: GPTModerno(V, cabezas_kv=2)),
    "mqa": ("MQA: 1 cabeza de claves para 4", lambda V: GPTModerno(V, cabezas_kv=1)),
    "llama": ("todo a la vez: un mini-Llama", lambda V: mini_llama(V)),
}


def _con_contexto_doble(modelo, validacion):
    """Con RoPE, la pérdida de validación en ventanas del doble del contexto de entrenamiento ("" sin RoPE)."""
    if modelo.posiciones is not None:
        return ""  # sin vector aprendido para las posiciones que no entrenó: no se puede
    contexto = modelo.contexto
    perdida = perdida_en(modelo.ampliar_contexto(2 * contexto), validacion)
    modelo.ampliar_contexto(contexto)
    return f"{perdida:.4f}"


def orden_de_medida(variantes=tuple(VARIANTES), semillas=SEMILLAS):
    """Pares (variante, semilla) en el orden en que se entrenan: todas con la primera semilla; después las demás
    semillas, primero las de los dos extremos (la lección 10 y el mini-Llama) y luego las de cada pieza."""
    primero = [(v, semillas[0]) for v in variantes]
    extremos = [(v, s) for v in variantes if v in ("leccion", "llama") for s in semillas[1:]]
    resto = [(v, s) for s in semillas[1:] for v in variantes if v not in ("leccion", "llama")]
    return primero + extremos + resto


def medir(variantes=tuple(VARIANTES), semillas=SEMILLAS, pasos=PASOS, mostrar=True):
    """Entrena cada variante con cada semilla, en el orden de `orden_de_medida`, y devuelve la lista de filas
    (diccionarios con COLUMNAS)."""
    texto, tokenizador, entrenamiento, validacion, prueba = corpus_dividido()
    V = len(tokenizador)
    filas = []
    for nombre, semilla in orden_de_medida(variantes, semillas):
        descripcion, construir = VARIANTES[nombre]
        inicio = time.perf_counter()
        torch.manual_seed(semilla)
        modelo = construir(V)
        historial = entrenar_gpt(modelo, entrenamiento, validacion, pasos=pasos,
                                 tamano_lote=RECETA["tamano_lote"], lr=RECETA["lr"],
                                 weight_decay=RECETA["weight_decay"], cada=RECETA["cada"],
                                 paciencia=RECETA["paciencia"], semilla=semilla, mostrar=False)
        en_100 = historial["validacion"][historial["pasos"].index(100)] if 100 in historial["pasos"] else ""
        fila = {"variante": nombre, "semilla": semilla, "descripcion": descripcion, "pasos": pasos,
                "validacion_100": f"{en_100:.4f}" if en_100 != "" else "",
                "mejor_paso": historial["mejor_paso"], "ultimo_paso": historial["pasos"][-1],
                "mejor_validacion": f"{historial['mejor_perdida']:.4f}",
                "prueba": f"{perdida_en(modelo, prueba):.4f}",  # el modelo ya volvió a su mejor paso
                "validacion_contexto_doble": _con_contexto_doble(modelo, validacion),
                "parametros": contar_parametros(modelo),
                "bytes_cache_por_caracter": bytes_por_posicion(modelo),
                "caracteres_corpus": len(texto), "vocabulario": V}
        filas.append(fila)
        if mostrar:
            print(f"{descripcion:38s} semilla {semilla} · validación {fila['mejor_validacion']} (paso "
                  f"{fila['mejor_paso']}) · prueba {fila['prueba']} · "
                  f"{time.perf_counter() - inicio:.0f} s", flush=True)
    return filas


def main(argumentos):
    medir_y_guardar(argumentos, ARCHIVO, COLUMNAS, medir, __doc__.splitlines()[0])


if __name__ == "__main__":
    main(sys.argv[1:])
