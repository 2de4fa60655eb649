"""El corpus del curso y el tokenizador de caracteres (lección 10)."""

import math
import pathlib

import torch

RUTA_CORPUS = pathlib.Path(__file__).resolve().parent.parent / "datos" / "corpus.txt"


def leer_corpus(ruta=RUTA_CORPUS):
    """Devuelve el texto del corpus (un str); si falta el archivo, explica cómo conseguirlo."""
    ruta = pathlib.Path(ruta)
    if not ruta.exists():
        raise FileNotFoundError(
            f"No encuentro el corpus en {ruta}. Viene con el repositorio del curso, en datos/corpus.txt: "
            f"abre el cuaderno desde la carpeta del repositorio (o vuelve a clonarlo). Para reconstruirlo "
            f"desde las lecciones, ejecuta en la raíz: python -m herramientas.corpus --forzar"
        )
    return ruta.read_text(encoding="utf-8")


class TokenizadorCaracteres:
    """Convierte texto en una lista de números (uno por carácter) y al revés."""

    def __init__(self, texto):
        self.caracteres = sorted(set(texto))  # el vocabulario, en orden fijo
        self.indice = {c: i for i, c in enumerate(self.caracteres)}

    def __len__(self):
        return len(self.caracteres)

    def codificar(self, texto):
        """Devuelve la lista de índices de los caracteres de `texto`."""
        desconocidos = sorted(set(texto) - set(self.indice))
        if desconocidos:
            raise ValueError(
                f"El texto tiene caracteres que no están en el vocabulario: {desconocidos}. El modelo solo "
                f"conoce los {len(self)} caracteres del corpus; quítalos o cámbialos por otros parecidos."
            )
        return [self.indice[c] for c in texto]

    def decodificar(self, indices):
        """Devuelve el texto de una lista (o tensor 1-D) de índices."""
        indices = [int(i) for i in indices]
        fuera = [i for i in indices if not 0 <= i < len(self)]
        if fuera:
            raise ValueError(f"Los índices {fuera[:5]} no existen: el vocabulario va de 0 a {len(self) - 1}.")
        return "".join(self.caracteres[i] for i in indices)


def dividir(datos, fraccion_validacion=0.1, fraccion_prueba=0.1):
    """Parte un tensor 1-D en (entrenamiento, validacion, prueba), trozos seguidos y en este orden, sin mezclar."""
    if not (0 < fraccion_validacion and 0 < fraccion_prueba and fraccion_validacion + fraccion_prueba < 1):
        raise ValueError(f"Las fracciones de validación ({fraccion_validacion}) y de prueba ({fraccion_prueba}) "
                         f"deben ser positivas y sumar menos de 1: el resto es el entrenamiento.")
    corte_validacion = int(len(datos) * (1 - fraccion_validacion - fraccion_prueba))
    corte_prueba = int(len(datos) * (1 - fraccion_prueba))
    return datos[:corte_validacion], datos[corte_validacion:corte_prueba], datos[corte_prueba:]


def perdida_bigramas(entrenamiento, validacion, vocabulario, suavizado=0.1):
    """Entropía cruzada media (nats) de predecir cada carácter de validación con el anterior, por conteo."""
    conteos = torch.full((vocabulario, vocabulario), suavizado, dtype=torch.float64)
    # index_put_ suma un 1 en la casilla (anterior, siguiente) de cada par de caracteres seguidos del entrenamiento;
    # con accumulate=True, un par que aparece n veces suma n (sin él, cada casilla se quedaría con un solo 1).
    conteos.index_put_((entrenamiento[:-1], entrenamiento[1:]), torch.ones(len(entrenamiento) - 1,
                       dtype=torch.float64), accumulate=True)
    probabilidades = conteos / conteos.sum(dim=1, keepdim=True)  # fila = carácter anterior
    return -torch.log(probabilidades[validacion[:-1], validacion[1:]]).mean().item()


def perdida_uniforme(vocabulario):
    """La pérdida de quien no sabe nada y reparte la probabilidad a partes iguales: ln V."""
    return math.log(vocabulario)
