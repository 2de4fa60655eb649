"""Comprobación automática de los ejercicios: `comprobar("02.1", respuesta)` da una respuesta en castellano.

Cada lección registra sus comprobaciones en su propio módulo (`leccion_02.py`, ...). Una comprobación recibe
la respuesta del estudiante y devuelve un `Veredicto`: si falla, el mensaje da una pista, nunca la solución.
"""

import importlib
import inspect
import math
from dataclasses import dataclass

import numpy as np
import torch


@dataclass
class Veredicto:
    """El resultado de una comprobación: si es correcta y qué decirle al estudiante."""

    correcto: bool
    mensaje: str


_REGISTRO = {}


def ejercicio(clave):
    """Decorador que registra la comprobación del ejercicio `clave` (por ejemplo "02.1")."""

    def registrar(funcion):
        if clave in _REGISTRO:
            raise ValueError(f"El ejercicio {clave} ya tiene una comprobación registrada.")
        _REGISTRO[clave] = funcion
        return funcion

    return registrar


def _cargar_leccion(clave):
    """Importa el módulo de comprobaciones de la lección de `clave` ("02.1" -> leccion_02)."""
    leccion = clave.split(".")[0]
    modulo = f"{__name__}.leccion_{leccion}"
    try:
        importlib.import_module(modulo)
    except ModuleNotFoundError as error:
        if error.name == modulo:
            return  # esa lección no tiene comprobaciones: evaluar() dirá que no conoce el ejercicio
        # Falta un paquete que usan las comprobaciones: decirlo, en vez de «no conozco el ejercicio».
        raiz = (error.name or "").split(".")[0]
        paquete = _PAQUETES_PIP.get(raiz, raiz)
        if not paquete or raiz == "utilidades":  # sin nombre, o un módulo del propio curso: el error tal cual
            raise
        raise ModuleNotFoundError(
            f"Para comprobar el ejercicio {clave} hace falta el paquete «{paquete}», que no está instalado en "
            f"este entorno. Instálalo escribiendo %pip install {paquete} en una celda del cuaderno y reinicia "
            f"el kernel (en Colab: «Entorno de ejecución → Reiniciar sesión»); o, en una terminal dentro de la "
            f"carpeta del curso, instala todo lo que necesita el curso con python -m pip install -r requirements.txt.",
            name=raiz,
        ) from error


# Paquetes cuyo nombre para instalar no es el que se importa (import sklearn -> pip install scikit-learn).
_PAQUETES_PIP = {"sklearn": "scikit-learn", "PIL": "pillow", "yaml": "PyYAML", "cv2": "opencv-python"}


def ejercicios_registrados(leccion=None):
    """Devuelve las claves registradas (de una lección, si se indica), ordenadas."""
    if leccion is not None:
        _cargar_leccion(f"{leccion}.0")
    claves = sorted(_REGISTRO)
    if leccion is not None:
        claves = [c for c in claves if c.split(".")[0] == leccion]
    return claves


def evaluar(clave, respuesta, **datos):
    """Evalúa `respuesta` para el ejercicio `clave` y devuelve un `Veredicto` (no imprime nada).

    Algunos ejercicios reciben, además, datos de la propia ejecución del estudiante (p. ej. `registro=` en el 10.5),
    para juzgar con sus números y no con los de otra máquina."""
    if not isinstance(clave, str):
        raise TypeError(f'La clave del ejercicio es un texto como "02.1", no {type(clave).__name__}.')
    _cargar_leccion(clave)
    if clave not in _REGISTRO:
        raise ValueError(
            f'No conozco el ejercicio "{clave}". Usa la clave que aparece en el enunciado, por ejemplo "02.1".'
        )
    if respuesta is ...:
        return Veredicto(False, "Aún no has respondido: sustituye los tres puntos (...) por tu respuesta.")
    funcion = _REGISTRO[clave]
    admitidos = set(inspect.signature(funcion).parameters) - {"respuesta"}
    if sobran := sorted(set(datos) - admitidos):
        nombres = ", ".join(f"{n}=" for n in sobran)
        raise TypeError(f"El ejercicio {clave} no recibe {nombres}: escribe comprobar({clave!r}, respuesta)"
                        + (f" con {', '.join(f'{n}=…' for n in sorted(admitidos))}" if admitidos else "") + ".")
    try:
        return funcion(respuesta, **datos)
    except Fallo as fallo:
        return fallo.veredicto
    except Exception as error:  # una función del estudiante que falla no debe romper la comprobación
        return Veredicto(
            False,
            f"Al usar tu respuesta saltó un error ({type(error).__name__}: {error}). "
            f"Revisa las formas y los tipos y vuelve a intentarlo.",
        )


def comprobar(clave, respuesta, **datos):
    """Comprueba la respuesta del ejercicio `clave` e imprime el veredicto en castellano."""
    veredicto = evaluar(clave, respuesta, **datos)
    if veredicto.correcto:
        print(f"✅ Ejercicio {clave}: ¡correcto! {veredicto.mensaje}".rstrip())
    else:
        print(f"❌ Ejercicio {clave}: todavía no. {veredicto.mensaje}")


# --- Ayudas para escribir comprobaciones ---------------------------------------------------------------


def bien(mensaje=""):
    """Veredicto correcto, con un comentario opcional que amplía lo aprendido."""
    return Veredicto(True, mensaje)


def pista(mensaje):
    """Veredicto incorrecto con una pista (nunca la solución)."""
    return Veredicto(False, f"Pista: {mensaje}")


def a_numpy(respuesta):
    """Convierte un número, lista, array o tensor en un array de NumPy float64 (o None si no se puede)."""
    if respuesta is None or isinstance(respuesta, (str, bytes)):
        return None
    try:
        if isinstance(respuesta, torch.Tensor):
            return respuesta.detach().cpu().double().numpy()
        return np.asarray(respuesta, dtype=float)
    except (TypeError, ValueError):
        return None


def un_numero(respuesta):
    """Devuelve la respuesta como float si es un solo número (int, float, array o tensor de 1 elemento); si no, None."""
    if isinstance(respuesta, bool):
        return None
    valor = a_numpy(respuesta)
    if valor is None or valor.size != 1:
        return None
    return float(valor.ravel()[0])


def entero(respuesta):
    """Devuelve la respuesta como int si es un solo número entero de cualquier tipo (int, float 3.0, NumPy o
    tensor); si no, None."""
    valor = un_numero(respuesta)
    if valor is None or not math.isfinite(valor) or valor != round(valor):
        return None
    return int(round(valor))


class Fallo(Exception):
    """Se lanza dentro de una comprobación para terminarla con un veredicto: `raise Fallo(pista("…"))`."""

    def __init__(self, veredicto):
        super().__init__(veredicto.mensaje)
        self.veredicto = veredicto


def exigir_numero(respuesta, que="un solo número"):
    """Devuelve la respuesta como float; si no es un solo número, termina la comprobación con una pista."""
    valor = un_numero(respuesta)
    if valor is None:
        raise Fallo(pista(f"responde con {que} (vale un int, un float, un número de NumPy o un tensor de un "
                          f"elemento); tu respuesta es {_describir(respuesta)}."))
    if not math.isfinite(valor):
        raise Fallo(pista("tu respuesta es NaN o infinito; revisa las divisiones y los exponentes."))
    return valor


def exigir_entero(respuesta, que="un número entero"):
    """Devuelve la respuesta como int; si no es un solo número entero, termina la comprobación con una pista."""
    valor = exigir_numero(respuesta, que)
    if valor != round(valor):
        raise Fallo(pista(f"se pide {que}, sin decimales; tu respuesta vale {valor!r}."))
    return int(round(valor))


def exigir_funcion(respuesta, ejemplo):
    """Termina la comprobación con una pista si la respuesta no es una función (`ejemplo` muestra la llamada)."""
    if not callable(respuesta):
        if respuesta is None:
            raise Fallo(pista(f"la respuesta es None: pasa tu función sin paréntesis, como en {ejemplo}."))
        raise Fallo(pista(f"la respuesta debe ser una función: pásala sin paréntesis, como en {ejemplo} "
                          f"(ahora es {_describir(respuesta)})."))
    return respuesta


_NOMBRES_DE_TIPO = {torch.Tensor: "un tensor de PyTorch", np.ndarray: "un array de NumPy", float: "un número",
                    tuple: "una tupla", list: "una lista", dict: "un diccionario", str: "un texto"}


def llamar(funcion, *argumentos, tipo=torch.Tensor, forma=None, pista_forma=""):
    """Llama a la función del estudiante y revisa lo que devuelve; si algo falla, termina con una pista.

    Comprueba que devuelva algo (no None), de tipo `tipo` (None: cualquiera) y, si se da `forma`, con esa
    forma. Devuelve el resultado.
    """
    resultado = funcion(*argumentos)
    if resultado is None:
        raise Fallo(pista("tu función no devuelve nada: falta un `return` con el resultado al final."))
    if tipo is not None and not isinstance(resultado, tipo):
        esperado = _NOMBRES_DE_TIPO.get(tipo, tipo.__name__)
        raise Fallo(pista(f"tu función debe devolver {esperado} y devuelve {_describir(resultado)}."))
    if forma is not None and tuple(resultado.shape) != tuple(forma):
        texto = f" {pista_forma}" if pista_forma else ""
        raise Fallo(pista(f"tu función devuelve forma {tuple(resultado.shape)} y se esperaba "
                          f"{tuple(forma)}.{texto}"))
    return resultado


def _describir(valor):
    """Describe brevemente qué es un valor, para las pistas («un texto», «una lista de 3 elementos»…)."""
    if valor is None:
        return "None"
    if isinstance(valor, torch.Tensor):
        return f"un tensor de forma {tuple(valor.shape)}"
    if isinstance(valor, np.ndarray):
        return f"un array de forma {valor.shape}"
    if isinstance(valor, (list, tuple)):
        clase = "una lista" if isinstance(valor, list) else "una tupla"
        return f"{clase} de {len(valor)} elementos"
    if isinstance(valor, str):
        return "un texto"
    if isinstance(valor, bool):
        return f"el booleano {valor}"
    return f"de tipo {type(valor).__name__}"


def comparar_numeros(respuesta, esperado, *, tolerancia=0.01, pista_forma=None, pista_valor=None):
    """Compara números o tablas con una tolerancia; devuelve un Veredicto con pistas sobre forma o valor."""
    valor = a_numpy(respuesta)
    esperado = np.asarray(esperado, dtype=float)
    if valor is None:
        return pista("la respuesta debe ser un número, una lista de números o un tensor.")
    if valor.shape != esperado.shape:
        texto = pista_forma or "revisa cuántos números tiene tu respuesta."
        return pista(f"tu respuesta tiene forma {valor.shape} y se esperaba {esperado.shape}; {texto}")
    if not np.all(np.isfinite(valor)):
        return pista("tu respuesta contiene NaN o infinitos; revisa las divisiones y los exponentes.")
    if np.allclose(valor, esperado, atol=tolerancia, rtol=0):
        return bien()
    return pista(pista_valor or "la forma es correcta, pero los números no; repasa el cálculo paso a paso.")


def es_cercano(a, b, tolerancia=1e-6):
    """True si dos números están a menos de `tolerancia`."""
    return math.isclose(float(a), float(b), abs_tol=tolerancia)
