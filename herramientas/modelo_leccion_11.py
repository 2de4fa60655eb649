"""Entrena el mini-GPT que abre la lección 11 y guarda sus pesos en datos/mini_gpt_leccion_11.pt.

Uso: python -m herramientas.modelo_leccion_11 [--forzar]

Es el modelo de la lección 10 con su mismo código, su misma semilla y su misma receta (`torch.manual_seed(0)`,
`MiniGPT(V)` con sus valores por defecto, `entrenar_gpt(..., semilla=0)` con la `RECETA` de herramientas.medidas, la
de la sección 7 de la lección). Se entrena con un solo hilo: así esta orden da siempre el mismo archivo en la misma
máquina. La lección 11 carga el archivo en vez de entrenar, para que todas las cifras que imprime sean las mismas en
cualquier ordenador. Si el archivo ya existe, avisa y no lo toca salvo con --forzar.
"""

import sys

import torch

from herramientas.cuadernos import RAIZ, Orden
from herramientas.medidas import RECETA, corpus_dividido
from utilidades.gpt import MiniGPT, entrenar_gpt

ARCHIVO = RAIZ / "datos" / "mini_gpt_leccion_11.pt"
PASOS, SEMILLA = RECETA["pasos"], 0


def entrenar(pasos=PASOS, mostrar=True):
    """Entrena el modelo y devuelve el diccionario que se guarda: pesos, vocabulario y cómo se obtuvo."""
    texto, tokenizador, entrenamiento, validacion, prueba = corpus_dividido()
    torch.manual_seed(SEMILLA)
    modelo = MiniGPT(len(tokenizador))
    receta = {**RECETA, "pasos": pasos}
    historial = entrenar_gpt(modelo, entrenamiento, validacion, **receta, semilla=SEMILLA, mostrar=mostrar)
    configuracion = {"d_modelo": modelo.tokens.embedding_dim, "cabezas": modelo.bloques[0].atencion.cabezas,
                     "capas": len(modelo.bloques), "contexto": modelo.contexto}
    return {"estado": modelo.state_dict(), "configuracion": configuracion,
            "caracteres": "".join(tokenizador.caracteres), "caracteres_corpus": len(texto), "pasos": pasos,
            "mejor_paso": historial["mejor_paso"],
            "mejor_perdida": historial["mejor_perdida"]}


def main(argumentos):
    opciones = Orden(__doc__)
    opciones.add_argument("--forzar", action="store_true", help="sobrescribe el archivo de pesos")
    opciones = opciones.parse_args(argumentos)
    if ARCHIVO.exists() and not opciones.forzar:
        sys.exit(f"Ya existe {ARCHIVO.relative_to(RAIZ)}; usa --forzar para entrenarlo de nuevo.")
    torch.set_num_threads(1)  # el mismo archivo en cada ejecución en esta máquina
    torch.save(entrenar(), ARCHIVO)
    print(f"Escrito {ARCHIVO.relative_to(RAIZ)}")


if __name__ == "__main__":
    main(sys.argv[1:])
