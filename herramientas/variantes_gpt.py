"""Mide en el corpus del curso qué cambia si el mini-GPT de la lección 10 se parece más (o menos) a GPT-2.

Uso: python -m herramientas.variantes_gpt [--forzar]

Entrena, con el código de la lección 10 (`MiniGPT`, `entrenar_gpt`), la receta de su sección 7 (1000 pasos, lotes
de 32, AdamW con lr 2e-3 y weight decay 0.1, semilla 0) y una variante por fila de VARIANTES:

- la receta de la lección, tal cual;
- sin vectores de posición (`posiciones=False`): ¿cuánto aportan en un decodificador causal?;
- con la inicialización de GPT-2 (normal de desviación 0.02, sesgos a cero y las capas que escriben en el atajo
  residual con 0.02 / √(2·capas));
- con esa inicialización y además la salida atada a la tabla de embeddings (`atar_pesos=True`), como GPT-2;
- sin *dropout* (`dropout=0.0`), a 1000 pasos y a 3000, frente a la receta de la lección a 3000: ¿regulariza el
  *dropout* en este corpus, o solo frena?

Escribe en datos/variantes_gpt.csv la mejor pérdida de validación de cada una, el paso en que la tuvo, la
última (y su paso) y la de entrenamiento en ese mejor paso (medida igual que la de validación). Las de 3000 pasos
pueden parar antes, por la parada temprana de `entrenar_gpt` (paciencia 3). Tarda bastante más de lo que puede
esperar una clase (siete entrenamientos enteros: unos 25 min en un hilo, medidos), por eso la lección 10 lee el archivo
en vez de entrenar. Usa un solo hilo, como `curva_tamanos`: la misma máquina da siempre el mismo archivo; otra CPU puede
cambiar la cuarta cifra decimal. Si el archivo existe, no lo toca salvo con --forzar.
"""

import math
import sys
import time

import torch
from torch import nn

from herramientas.cuadernos import RAIZ
from herramientas.medidas import corpus_dividido, medir_y_guardar
from utilidades.gpt import MiniGPT, entrenar_gpt

ARCHIVO = RAIZ / "datos" / "variantes_gpt.csv"
PASOS, SEMILLA = 1000, 0
COLUMNAS = ("variante", "descripcion", "pasos", "mejor_paso", "ultimo_paso", "mejor_validacion", "ultima_validacion",
            "entrenamiento_en_mejor", "caracteres_corpus", "vocabulario")


def inicializar_como_gpt2(modelo):
    """Inicialización de GPT-2 (según nanoGPT): N(0, 0.02), sesgos a 0, proyecciones residuales / √(2·capas)."""
    for modulo in modelo.modules():
        if isinstance(modulo, (nn.Linear, nn.Embedding)):
            nn.init.normal_(modulo.weight, 0.0, 0.02)
        if isinstance(modulo, nn.Linear) and modulo.bias is not None:
            nn.init.zeros_(modulo.bias)
    capas = len(modelo.bloques)
    for bloque in modelo.bloques:  # las dos capas de cada bloque que suman al atajo residual
        for capa in (bloque.atencion.salida, bloque.mlp[-1]):
            nn.init.normal_(capa.weight, 0.0, 0.02 / math.sqrt(2 * capas))
    return modelo


# nombre -> (descripción, cómo construir el modelo a partir del vocabulario V, pasos como mucho)
VARIANTES = {
    "leccion": ("la receta de la lección 10", lambda V: MiniGPT(V), PASOS),
    "sin_posiciones": ("sin vectores de posición", lambda V: MiniGPT(V, posiciones=False), PASOS),
    "init_gpt2": ("inicialización de GPT-2", lambda V: inicializar_como_gpt2(MiniGPT(V)), PASOS),
    "init_gpt2_atados": ("inicialización de GPT-2 y pesos atados",
                         lambda V: inicializar_como_gpt2(MiniGPT(V, atar_pesos=True)), PASOS),
    "sin_dropout": ("sin dropout", lambda V: MiniGPT(V, dropout=0.0), PASOS),
    "leccion_3000": ("la receta de la lección 10", lambda V: MiniGPT(V), 3 * PASOS),
    "sin_dropout_3000": ("sin dropout", lambda V: MiniGPT(V, dropout=0.0), 3 * PASOS),
}


def medir(variantes=tuple(VARIANTES), pasos=None, mostrar=True):
    """Entrena una vez cada variante y devuelve una lista de filas (diccionarios con COLUMNAS).

    `pasos` (si se da) sustituye a los de todas las variantes: sirve para probar la orden deprisa.
    """
    texto, tokenizador, entrenamiento, validacion = corpus_dividido()
    V = len(tokenizador)
    filas = []
    for nombre in variantes:
        descripcion, construir, pasos_variante = VARIANTES[nombre]
        pasos_variante = pasos or pasos_variante
        inicio = time.perf_counter()
        torch.manual_seed(SEMILLA)
        modelo = construir(V)
        historial = entrenar_gpt(modelo, entrenamiento, validacion, pasos=pasos_variante, tamano_lote=32, lr=2e-3,
                                 weight_decay=0.1, cada=100, paciencia=3, semilla=SEMILLA, mostrar=False)
        mejor = historial["pasos"].index(historial["mejor_paso"])
        fila = {"variante": nombre, "descripcion": descripcion, "pasos": pasos_variante,
                "mejor_paso": historial["mejor_paso"], "ultimo_paso": historial["pasos"][-1],
                "mejor_validacion": f"{historial['mejor_perdida']:.4f}",
                "ultima_validacion": f"{historial['validacion'][-1]:.4f}",
                "entrenamiento_en_mejor": f"{historial['entrenamiento'][mejor]:.4f}",
                "caracteres_corpus": len(texto), "vocabulario": V}
        filas.append(fila)
        if mostrar:
            print(f"{descripcion:32s} mejor {fila['mejor_validacion']} (paso {fila['mejor_paso']}) · última "
                  f"{fila['ultima_validacion']} · {time.perf_counter() - inicio:.0f} s", flush=True)
    return filas


def main(argumentos):
    medir_y_guardar(argumentos, ARCHIVO, COLUMNAS, medir, __doc__.splitlines()[0])


if __name__ == "__main__":
    main(sys.argv[1:])
