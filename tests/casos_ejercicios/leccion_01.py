"""Casos de la lección 01 para la prueba por tabla de los ejercicios."""

import math

import numpy as np
import torch

from casos_ejercicios import Adivinanza, Caso, Error


def _busqueda_blanda(consulta, claves, valores, temperatura):
    return torch.softmax(claves @ consulta / (math.sqrt(len(consulta)) * temperatura), dim=0) @ valores


def _busqueda_blanda_numpy(consulta, claves, valores, temperatura):
    """La misma, escrita en NumPy: devuelve un array."""
    puntajes = claves.numpy() @ consulta.numpy() / (np.sqrt(len(consulta)) * temperatura)
    pesos = np.exp(puntajes - puntajes.max())
    return (pesos / pesos.sum()) @ valores.numpy()


def _busqueda_blanda_numpy_directa(consulta, claves, valores, temperatura):
    """La de un libro de NumPy, sin convertir nada: con tensores falla (np.max(s) pide `dim`), con arrays funciona."""
    s = claves.dot(consulta) / (np.sqrt(consulta.size) * temperatura)
    e = np.exp(s - np.max(s))  # restar el máximo, como en la actividad
    w = e / e.sum(keepdims=True)
    return w @ valores


def _busqueda_blanda_numpy_sobre_tensores(consulta, claves, valores, temperatura):
    """NumPy aplicado a los tensores tal cual llegan (np.exp y np.matmul los aceptan, con un aviso que no se ve)."""
    pesos = np.exp(np.matmul(claves, consulta) / (np.sqrt(len(consulta)) * temperatura))
    return np.matmul(pesos / pesos.sum(), valores)


def _rota(consulta, claves, valores, temperatura):
    """Falla con tensores y con arrays: la pista debe decir que la comprobación probó los dos."""
    return consulta.no_existe


def _con_divisor(divisor):
    """Una búsqueda blanda equivocada: divide los puntajes por divisor(d, T)."""
    def busqueda(consulta, claves, valores, temperatura):
        return torch.softmax(claves @ consulta / divisor(len(consulta), temperatura), dim=0) @ valores
    return busqueda


_seccion_3 = _con_divisor(lambda d, T: 1.0)  # la celda de la sección 3, copiada
_solo_T = _con_divisor(lambda d, T: T)
_solo_raiz = _con_divisor(lambda d, T: math.sqrt(d))
_multiplica_T = _con_divisor(lambda d, T: math.sqrt(d) / T)
_raiz_de_2 = _con_divisor(lambda d, T: math.sqrt(2) * T)
_d_por_T = _con_divisor(lambda d, T: d * T)


def _sin_return(consulta, claves, valores, temperatura):
    _busqueda_blanda(consulta, claves, valores, temperatura)


def _media_simple(consulta, claves, valores, temperatura):
    return valores.mean(dim=0)


def _solo_pesos(consulta, claves, valores, temperatura):
    return torch.softmax(claves @ consulta / (math.sqrt(len(consulta)) * temperatura), dim=0)


def _con_los_pesos(consulta, claves, valores, temperatura):
    """Devuelve la media y, además, los pesos (la sección 3 calcula las dos cosas)."""
    pesos = torch.softmax(claves @ consulta / (math.sqrt(len(consulta)) * temperatura), dim=0)
    return pesos @ valores, pesos


def _raiz_de_n(consulta, claves, valores, temperatura):
    return torch.softmax(claves @ consulta / (math.sqrt(claves.shape[0]) * temperatura), dim=0) @ valores


def _raiz_de_d_v(consulta, claves, valores, temperatura):
    return torch.softmax(claves @ consulta / (math.sqrt(valores.shape[-1]) * temperatura), dim=0) @ valores


def _sin_softmax(consulta, claves, valores, temperatura):
    return (claves @ consulta / (math.sqrt(len(consulta)) * temperatura)) @ valores


CASOS = {
    "01.1": Caso(
        adivinanzas=[Adivinanza("banco", "la favorita de «en» sin máscara, la que enseña la actividad al abrirla"),
                     Adivinanza("en", "la propia palabra"),
                     Adivinanza("Ana", "la primera palabra, la única que ve cualquiera")],
        solucion="plata",
        errores=[Error("banco", "sin máscara"), Error("el", "van después"), Error("en", "sí misma"),
                 Error("guardo", "segunda"), Error("perro", "no está en la frase"), Error(4, "entre comillas")],
        # «guardo», sin tilde, es «guardó» (la segunda más mirada): su pista, no «esa palabra no está en la frase».
        acepta=["«plata»", " Plata "],
        desviadas=["guardó", "Ana", "la"],
        tipos=False,
    ),
    "01.2": Caso(
        adivinanzas=[Adivinanza(_media_simple, "la media de los valores, sin consulta"),
                     Adivinanza(_seccion_3, "la búsqueda de la sección 3 copiada, sin escala ni temperatura"),
                     Adivinanza(_raiz_de_2, "la fórmula de la actividad copiada, con √2 fijo")],
        solucion=_busqueda_blanda,
        acepta=[_busqueda_blanda_numpy, _busqueda_blanda_numpy_directa, _busqueda_blanda_numpy_sobre_tensores],
        errores=[Error(_sin_return, "no devuelve nada"), Error(_seccion_3, "sección 3 tal cual"),
                 Error(_solo_T, "falta la raíz"), Error(_solo_raiz, "no usa la temperatura"),
                 Error(_multiplica_T, "multiplicado por la temperatura"), Error(_raiz_de_2, "aquí d = 9"),
                 Error(_d_por_T, "con su raíz"), Error(_media_simple, "media simple"),
                 Error(_solo_pesos, "son los pesos"), Error(_sin_softmax, "puntajes en crudo"),
                 Error(_con_los_pesos, "devuelve 2 cosas a la vez"), Error(_raiz_de_n, "número de claves"),
                 Error(_rota, "con arrays de NumPy también"),
                 Error(_raiz_de_d_v, "componentes de los valores"),
                 Error(_busqueda_blanda(torch.zeros(2), torch.zeros(3, 2), torch.zeros(3, 2), 1.0), "sin paréntesis")],
    ),
    "01.3": Caso(
        adivinanzas=[Adivinanza(0.5, "un reparto a medias entre las dos palabras visibles"),
                     Adivinanza(1.0, "«solo ve a Ana»"),
                     Adivinanza(0.746, "el peso sin máscara"),
                     Adivinanza(0.97, "«casi todo», a ojo"), Adivinanza(0.95, "«casi todo», a ojo"),
                     Adivinanza(0.959, "inventado cerca"), Adivinanza(0.966, "inventado cerca"),
                     Adivinanza(0.96, "con dos decimales, como las barras")],
        solucion=0.963,
        acepta=[0.9628, 0.96277],
        rechaza=[0.962, 0.964, 0.959, 0.966],  # inventados cerca del peso, con tres decimales
        errores=[Error(96.3, "porcentaje"), Error(0.746, "sin la máscara"), Error(0.037, "a sí misma"),
                 Error([0.963, 0.037], "un solo número"), Error(0.96, "tres decimales"),
                 Error(0.959, "redondear el peso exacto"), Error(0.962, "Redondea, no trunques"),
                 Error(0.97, "ni siquiera con dos decimales")],  # 0.97 no redondea 0.963: no es «vas bien»
    ),
    "01.4": Caso(
        # La clave inicial alargada 1.72 veces, sin girarla: mide 3.29 y «banco» le da el 91 %.
        solucion=[2.24, 2.41],
        acepta=[[1.7, 2.8], [2.0, 2.6], [1.9, 2.7], [2.21, 2.38], [1.3 * 1.7, 1.4 * 1.7]],
        desviadas=[[2.24 * 0.7, 2.41 * 0.7], [2.24 * 1.3, 2.41 * 1.3]],
        errores=[Error([5.0, 5.0], "caber en el plano"), Error([1.3, 1.4], "clave inicial"),
                 Error([-1.0, 1.0], "hace falta al menos 90"), Error(3.0, "dos números"),
                 Error([2.6, 2.8], "le da el 96 % a «plata», pero tu clave mide 3.82"),  # 95.48: la barra dice 96
                 Error([-3.0, -3.0], "no puede medir más de"), Error([0.0, 0.0], "en el origen"),
                 Error([2.9, 2.0], "acércala también a la dirección"),
                 Error([1.3 * 1.6, 1.4 * 1.6], "alárgala"),
                 # En la rejilla de 0.1 de la actividad: la barra dice 90 %, pero el peso es 0.897.
                 Error([2.2, 2.3], "la barra de «plata» dice 90 %, pero es un porcentaje redondeado")],
        adivinanzas=[
            Adivinanza([2.6, 2.8], "la clave el doble de larga: la pregunta 5 enseña que «banco» le da el 96 %"),
            Adivinanza([3.0, 3.0], "la esquina del plano hacia la consulta: alargar sin medir"),
            Adivinanza([-3.0, 3.0], "otra esquina del plano"), Adivinanza([3.0, -3.0], "otra esquina del plano"),
            Adivinanza([-3.0, -3.0], "otra esquina del plano"),
            Adivinanza([1.8, 3.0], "la solución de antes del límite de longitud"),
            Adivinanza([2.0, 3.4], "el doble de la consulta de «banco»"),
            Adivinanza([1.0, 1.7], "la consulta de «banco» copiada como clave"),
            Adivinanza([1.3, 1.4], "la clave inicial, sin tocar"),
            Adivinanza([1.3 * 1.5, 1.4 * 1.5], "alargarla «un poco», a ojo, sin medir cuánto"),
        ],
    ),
    "01.5": Caso(
        # El factor mínimo es 1.6718: con tres decimales, redondeado hacia arriba, 1.672 (como pide el enunciado).
        solucion=1.672,
        acepta=[1.6718, 1.673, np.float32(1.672)],
        rechaza=[1.671, 1.6715, 1.675, 1.68, 1.69],  # 1.671 y 1.6715 no llegan al 0.90; los demás se pasan del mínimo
        errores=[Error(1.67, "la barra de «plata» dice 90 %, pero el peso"),  # redondeado al más cercano: 0.8996
                 Error(1.5, "alárgala más"), Error(2.0, "el doble de larga"),
                 Error(1.7, "no es lo mínimo"),  # 90.6 %: llega, pero sobra
                 Error(3.194, "lo que mide la clave alargada"), Error(0.672, "cuánto crece la clave"),
                 Error(167.2, "en porcentaje"), Error(-1.672, "tiene que ser positivo"),
                 Error([1.672, 1.68], "un solo número")],
        adivinanzas=[
            Adivinanza(2.0, "la clave el doble de larga de la pregunta 5"),
            Adivinanza(1.5, "«un poco más larga», a ojo"),
            Adivinanza(1.7, "un factor redondo que llega, sin buscar el mínimo"),
            Adivinanza(1.67, "el factor que deja la barra en 90 %, sin mirar el peso"),
            Adivinanza(3.4 / 1.9105, "el factor que lleva la clave al límite de 3.4 del ejercicio 4"),
            Adivinanza(2.24 / 1.3, "el factor de la clave que acepta el ejercicio 4 en la tabla"),
            Adivinanza(3.12 / 1.9105, "la norma mínima girada hacia la consulta, dividida por lo que mide la inicial"),
        ],
    ),
}
