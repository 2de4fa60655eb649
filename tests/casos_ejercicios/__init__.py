"""Casos de la prueba por tabla de los ejercicios (tests/test_ejercicios_tabla.py).

Cada lección tiene su módulo `leccion_NN.py` con un diccionario `CASOS = {"NN.k": Caso(...)}` que da, para
cada ejercicio registrado, la respuesta correcta y los errores frecuentes con un fragmento de la pista que
cada uno debe recibir.
"""

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Error:
    """Un error frecuente: la respuesta equivocada y un fragmento que su pista debe contener."""

    respuesta: Any
    fragmento: str


@dataclass
class Caso:
    """Lo que la tabla necesita de un ejercicio.

    - `solucion`: la respuesta correcta (número, lista o tabla, función, u otro valor).
    - `errores`: errores frecuentes, cada uno con su pista propia (fragmentos distintos).
    - `acepta` / `rechaza`: más respuestas correctas o incorrectas que comprobar.
    - `desviadas`: respuestas «un 30 % desviadas» si las automáticas (×1.3 y ×0.7) no tienen sentido.
    - `tipos`: False si la respuesta no es numérica (un texto, una elección) y no se prueban int/NumPy/tensor.
    - `adivinanzas`: respuestas que un estudiante podría dar SIN hacer el ejercicio (la línea base repetida,
      valores dentro del ruido de una ejecución a otra, la respuesta de la pregunta vecina, la función
      prohibida por el enunciado, la respuesta de cada error frecuente…), cada una con el motivo por el que
      sería una adivinanza. Todas deben rechazarse.
    - `booleana`: True si la respuesta es un sí/no; entonces se prueba también con np.bool_ y tensores bool.
    """

    solucion: Any
    errores: list = field(default_factory=list)
    acepta: list = field(default_factory=list)
    rechaza: list = field(default_factory=list)
    desviadas: list | None = None
    tipos: bool = True
    adivinanzas: list = field(default_factory=list)
    booleana: bool = False


@dataclass
class Adivinanza:
    """Una respuesta que se obtiene sin hacer el ejercicio, y por qué (el motivo sale en el fallo de la prueba)."""

    respuesta: Any
    motivo: str
