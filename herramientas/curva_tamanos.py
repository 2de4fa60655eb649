"""Mide la curva tamaño–pérdida de la lección 11: mini-GPT de varios tamaños entrenados igual con el corpus del curso.

Uso: python -m herramientas.curva_tamanos [--forzar]

Entrena, con el código de la lección 10 (`MiniGPT`, `entrenar_gpt`), su receta (`RECETA` de herramientas.medidas,
la misma que el modelo de la lección 11) y la misma semilla, un modelo por cada d_modelo de TAMANOS (2 bloques,
4 cabezas, el resto como en la lección 10) durante PASOS pasos, y escribe en
datos/curva_tamanos.csv su número de parámetros y su mejor pérdida de validación. Tarda unos minutos (más de lo
que puede esperar una clase), por eso la lección 11 lee el archivo en vez de entrenar. Usa un solo hilo: así la
misma máquina da siempre el mismo archivo; otra CPU puede cambiar la cuarta cifra decimal de las pérdidas.
Si el archivo ya existe, avisa y no lo toca salvo con --forzar.
"""

import sys
import time

import torch

from herramientas.cuadernos import RAIZ
from herramientas.medidas import RECETA, corpus_dividido, medir_y_guardar
from utilidades.gpt import MiniGPT, contar_parametros, entrenar_gpt

ARCHIVO = RAIZ / "datos" / "curva_tamanos.csv"
TAMANOS = (16, 32, 64, 96, 128)  # d_modelo de cada modelo
CAPAS, CABEZAS, PASOS, SEMILLA = 2, 4, RECETA["pasos"], 0  # los pasos del modelo de la lección 11
COLUMNAS = ("d_modelo", "capas", "cabezas", "parametros", "pasos", "mejor_paso", "perdida_validacion",
            "caracteres_corpus", "vocabulario")


def medir(tamanos=TAMANOS, pasos=PASOS, mostrar=True):
    """Entrena un modelo por tamaño y devuelve una lista de filas (diccionarios con COLUMNAS)."""
    texto, tokenizador, entrenamiento, validacion, prueba = corpus_dividido()
    filas = []
    for d in tamanos:
        inicio = time.perf_counter()
        torch.manual_seed(SEMILLA)
        modelo = MiniGPT(len(tokenizador), d_modelo=d, cabezas=CABEZAS, capas=CAPAS)
        receta = {**RECETA, "pasos": pasos}
        historial = entrenar_gpt(modelo, entrenamiento, validacion, **receta, semilla=SEMILLA, mostrar=False)
        fila = {"d_modelo": d, "capas": CAPAS, "cabezas": CABEZAS, "parametros": contar_parametros(modelo),
                "pasos": pasos, "mejor_paso": historial["mejor_paso"],
                "perdida_validacion": f"{historial['mejor_perdida']:.4f}",
                "caracteres_corpus": len(texto), "vocabulario": len(tokenizador)}
        filas.append(fila)
        if mostrar:
            print(f"d_modelo {d:4d} · {fila['parametros']:8d} parámetros · validación {fila['perdida_validacion']} "
                  f"(paso {fila['mejor_paso']}) · {time.perf_counter() - inicio:.0f} s", flush=True)
    return filas


def main(argumentos):
    medir_y_guardar(argumentos, ARCHIVO, COLUMNAS, medir, __doc__.splitlines()[0])


if __name__ == "__main__":
    main(sys.argv[1:])
