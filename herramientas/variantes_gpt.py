"""Mide en el corpus del curso qué cambia si el mini-GPT de la lección 10 se parece más (o menos) a GPT-2.

Uso: python -m herramientas.variantes_gpt [--forzar]

Entrena, con el código de la lección 10 (`MiniGPT`, `entrenar_gpt`) y la receta de su sección 7 (`RECETA` de
herramientas.medidas: 800 pasos, lotes de 32, AdamW con lr 4e-3 y weight decay 0.1), cada variante de VARIANTES con
las semillas de SEMILLAS (la semilla fija los pesos iniciales, el *dropout* y los lotes):

- la receta de la lección, tal cual, y la receta anterior del curso (lr 2e-3 y 1000 pasos), para comparar;
- sin vectores de posición (`posiciones=False`): ¿cuánto aportan en un decodificador causal?;
- con la inicialización de GPT-2 (normal de desviación 0.02, sesgos a cero y las capas que escriben en el atajo
  residual con 0.02 / √(2·capas));
- con esa inicialización y además la salida atada a la tabla de embeddings (`atar_pesos=True`), como GPT-2;
- sin *dropout* (`dropout=0.0`), con los pasos de la receta y con el triple, frente a la receta con el triple:
  ¿regulariza el *dropout* en este corpus, o solo frena?

Escribe en datos/variantes_gpt.csv, por variante y semilla, la mejor pérdida de validación, el paso en que la tuvo,
la última (y su paso), la de entrenamiento en ese mejor paso (medida igual que la de validación) y la de **prueba**
del modelo que se queda (el del mejor paso): la validación elige, la prueba se mide una vez al final. Las de más
pasos pueden parar antes, por la parada temprana de `entrenar_gpt` (paciencia 3). Tarda bastante más de lo que
puede esperar una clase (veinticuatro entrenamientos: una media hora en un hilo), por eso la lección 10 lee el
archivo en vez de entrenar. Usa un solo hilo, como `curva_tamanos`: la misma máquina da siempre el mismo archivo;
otra CPU puede cambiar la cuarta cifra decimal. Si el archivo existe, no lo toca salvo con --forzar.
"""

import math
import sys
import time

import torch
from torch import nn

from herramientas.cuadernos import RAIZ
from herramientas.medidas import RECETA, corpus_dividido, medir_y_guardar
from utilidades.gpt import MiniGPT, entrenar_gpt, perdida_en

ARCHIVO = RAIZ / "datos" / "variantes_gpt.csv"
PASOS, LR = RECETA["pasos"], RECETA["lr"]
SEMILLAS = (0, 1, 2)
COLUMNAS = ("variante", "semilla", "descripcion", "pasos", "lr", "mejor_paso", "ultimo_paso", "mejor_validacion",
            "ultima_validacion", "entrenamiento_en_mejor", "prueba", "caracteres_corpus", "vocabulario")


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


# nombre -> (descripción, cómo construir el modelo a partir del vocabulario V, pasos como mucho, tasa de aprendizaje)
VARIANTES = {
    "leccion": ("la receta de la lección 10", lambda V: MiniGPT(V), PASOS, LR),
    "receta_anterior": ("la receta anterior: lr 2e-3", lambda V: MiniGPT(V), 1000, 2e-3),
    "sin_posiciones": ("sin vectores de posición", lambda V: MiniGPT(V, posiciones=False), PASOS, LR),
    "init_gpt2": ("inicialización de GPT-2", lambda V: inicializar_como_gpt2(MiniGPT(V)), PASOS, LR),
    "init_gpt2_atados": ("inicialización de GPT-2 y pesos atados",
                         lambda V: inicializar_como_gpt2(MiniGPT(V, atar_pesos=True)), PASOS, LR),
    "sin_dropout": ("sin dropout", lambda V: MiniGPT(V, dropout=0.0), PASOS, LR),
    "leccion_larga": ("la receta de la lección 10", lambda V: MiniGPT(V), 3 * PASOS, LR),
    "sin_dropout_larga": ("sin dropout", lambda V: MiniGPT(V, dropout=0.0), 3 * PASOS, LR),
}


def medir(variantes=tuple(VARIANTES), semillas=SEMILLAS, pasos=None, mostrar=True):
    """Entrena cada variante con cada semilla y devuelve una lista de filas (diccionarios con COLUMNAS).

    `pasos` (si se da) sustituye a los de todas las variantes: sirve para probar la orden deprisa.
    """
    texto, tokenizador, entrenamiento, validacion, prueba = corpus_dividido()
    V = len(tokenizador)
    filas = []
    for nombre in variantes:
        descripcion, construir, pasos_variante, lr = VARIANTES[nombre]
        pasos_variante = pasos or pasos_variante
        for semilla in semillas:
            inicio = time.perf_counter()
            torch.manual_seed(semilla)
            modelo = construir(V)
            historial = entrenar_gpt(modelo, entrenamiento, validacion, pasos=pasos_variante,
                                     tamano_lote=RECETA["tamano_lote"], lr=lr, weight_decay=RECETA["weight_decay"],
                                     cada=RECETA["cada"], paciencia=RECETA["paciencia"], semilla=semilla,
                                     mostrar=False)
            mejor = historial["pasos"].index(historial["mejor_paso"])
            fila = {"variante": nombre, "semilla": semilla, "descripcion": descripcion, "pasos": pasos_variante,
                    "lr": lr, "mejor_paso": historial["mejor_paso"], "ultimo_paso": historial["pasos"][-1],
                    "mejor_validacion": f"{historial['mejor_perdida']:.4f}",
                    "ultima_validacion": f"{historial['validacion'][-1]:.4f}",
                    "entrenamiento_en_mejor": f"{historial['entrenamiento'][mejor]:.4f}",
                    "prueba": f"{perdida_en(modelo, prueba):.4f}",  # el modelo ya volvió a su mejor paso
                    "caracteres_corpus": len(texto), "vocabulario": V}
            filas.append(fila)
            if mostrar:
                print(f"{descripcion:40s} semilla {semilla} · mejor {fila['mejor_validacion']} (paso "
                      f"{fila['mejor_paso']}) · última {fila['ultima_validacion']} · prueba {fila['prueba']} · "
                      f"{time.perf_counter() - inicio:.0f} s", flush=True)
    return filas


def main(argumentos):
    medir_y_guardar(argumentos, ARCHIVO, COLUMNAS, medir, __doc__.splitlines()[0])


if __name__ == "__main__":
    main(sys.argv[1:])
