"""Lo que comparten las órdenes que entrenan con el corpus del curso y guardan lo medido en datos/.

`corpus_dividido` prepara los datos como la lección 10; `medir_y_guardar` es el `main` de las medidas que se
guardan en un CSV (curva_tamanos, variantes_gpt): no pisa el archivo sin --forzar y entrena con un hilo.
"""

import csv
import sys

import torch

from herramientas.cuadernos import RAIZ, Orden
from utilidades.texto import TokenizadorCaracteres, dividir, leer_corpus

# La receta de entrenamiento de la lección 10 (sección 7): la usan las órdenes que entrenan su modelo.
RECETA = {"pasos": 800, "tamano_lote": 32, "lr": 4e-3, "weight_decay": 0.1, "cada": 100, "paciencia": 3}


def corpus_dividido():
    """(texto, tokenizador, entrenamiento, validacion, prueba): el corpus del curso partido como en la lección 10."""
    texto = leer_corpus()
    tokenizador = TokenizadorCaracteres(texto)
    entrenamiento, validacion, prueba = dividir(torch.tensor(tokenizador.codificar(texto)))
    return texto, tokenizador, entrenamiento, validacion, prueba


def medir_y_guardar(argumentos, archivo, columnas, medir, descripcion):
    """Ejecuta `medir()` (una lista de filas) y la escribe en `archivo` como CSV con `columnas`."""
    opciones = Orden(descripcion)
    opciones.add_argument("--forzar", action="store_true", help=f"sobrescribe {archivo.relative_to(RAIZ)}")
    opciones = opciones.parse_args(argumentos)
    if archivo.exists() and not opciones.forzar:
        sys.exit(f"Ya existe {archivo.relative_to(RAIZ)}; usa --forzar para medirlo de nuevo.")
    torch.set_num_threads(1)  # el mismo archivo en cada ejecución en esta máquina
    filas = medir()
    with open(archivo, "w", newline="", encoding="utf-8") as salida:
        escritor = csv.DictWriter(salida, fieldnames=columnas)
        escritor.writeheader()
        escritor.writerows(filas)
    print(f"Escrito {archivo.relative_to(RAIZ)}")
