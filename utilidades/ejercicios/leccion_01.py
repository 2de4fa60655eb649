"""Comprobaciones de los ejercicios de la lección 01 («¿A quién mira cada palabra?»)."""

import numpy as np
import torch

from utilidades.actividades import (
    CLAVES_INICIALES,
    CONSULTAS_INICIALES,
    LIMITE_PLANO,
    PALABRAS,
    pesos_de_la_palabra,
)
from utilidades.ejercicios import a_numpy, bien, comparar_numeros, ejercicio, pista


def _limpiar_palabra(respuesta):
    """Texto en minúsculas, sin espacios ni comillas alrededor."""
    return str(respuesta).strip().strip("«»\"'").strip().lower()


@ejercicio("01.1")
def _palabra_mas_mirada_por_la(respuesta):
    if not isinstance(respuesta, str):
        return pista('escribe la palabra entre comillas, por ejemplo respuesta = "Ana".')
    palabra = _limpiar_palabra(respuesta)
    if palabra not in [p.lower() for p in PALABRAS]:
        return pista(f"esa palabra no está en la frase; elige una de: {', '.join(PALABRAS)}.")
    pesos = pesos_de_la_palabra(CONSULTAS_INICIALES, CLAVES_INICIALES, PALABRAS.index("la"))
    orden = np.argsort(-pesos)
    if palabra == PALABRAS[orden[0]].lower():
        return bien(f"«la» le da el {100 * pesos[orden[0]]:.0f} % a «{PALABRAS[orden[0]]}»: un artículo busca su "
                    f"sustantivo.")
    if palabra == PALABRAS[orden[1]].lower():
        return pista("esa es la segunda más mirada; busca la barra más alta de todas.")
    return pista("elige «la» en la actividad (o llama a pesos_de_la_palabra con elegida=2) y mira la barra más alta.")


def _busqueda_blanda_referencia(consulta, claves, valores):
    pesos = torch.softmax(claves @ consulta, dim=0)  # (n,)
    return pesos @ valores  # (d_v,)


@ejercicio("01.2")
def _busqueda_blanda(funcion):
    if not callable(funcion):
        return pista("la respuesta es la función busqueda_blanda (sin paréntesis), no su resultado.")
    generador = torch.Generator().manual_seed(1)
    casos = [(3, 2, 2), (5, 4, 3), (1, 2, 4), (7, 2, 1)]
    for n, d, d_v in casos:
        consulta = torch.randn(d, generator=generador, dtype=torch.float64)
        claves = torch.randn(n, d, generator=generador, dtype=torch.float64)
        valores = torch.randn(n, d_v, generator=generador, dtype=torch.float64)
        resultado = funcion(consulta, claves, valores)
        if resultado is None:
            return pista("tu función no devuelve nada: ¿falta un return al final?")
        obtenido = a_numpy(resultado)
        esperado = _busqueda_blanda_referencia(consulta, claves, valores).numpy()
        if obtenido is None or obtenido.shape != esperado.shape:
            forma = None if obtenido is None else obtenido.shape
            return pista(f"con {n} claves y valores de {d_v} números, el resultado debe tener forma ({d_v},) "
                         f"pero tiene {forma}. ¿Multiplicaste los pesos por los valores?")
        if not np.allclose(obtenido, esperado, atol=1e-6):
            if np.allclose(obtenido, valores.mean(dim=0).numpy(), atol=1e-6):
                return pista("te salió la media simple de los valores: los pesos deben depender de la consulta.")
            return pista("los números no coinciden: puntajes = claves @ consulta, pesos = softmax de los puntajes "
                         "(que sumen 1) y después la media ponderada de los valores.")
    return bien("Es exactamente lo que hace una capa de atención con una sola consulta.")


@ejercicio("01.3")
def _causal_guardo(respuesta):
    pesos = pesos_de_la_palabra(CONSULTAS_INICIALES, CLAVES_INICIALES, PALABRAS.index("guardó"), causal=True)
    veredicto = comparar_numeros(respuesta, pesos[0], tolerancia=0.01,
                                 pista_forma="la respuesta es un solo número entre 0 y 1.",
                                 pista_valor="con la máscara causal «guardó» solo ve dos palabras; calcula de "
                                             "nuevo los pesos con causal=True y toma el de «Ana» (un número "
                                             "entre 0 y 1, no un porcentaje).")
    if veredicto.correcto:
        return bien("Sin la máscara el peso era menor: al ocultar el futuro, el peso se reparte entre menos palabras.")
    return veredicto


@ejercicio("01.4")
def _clave_de_plata(respuesta):
    clave = a_numpy(respuesta)
    if clave is None or clave.shape != (2,):
        return pista("la respuesta es una clave de dos números, por ejemplo [1.0, 2.0].")
    if not np.all(np.isfinite(clave)):
        return pista("la clave contiene NaN o infinitos.")
    if np.any(np.abs(clave) > LIMITE_PLANO):
        return pista(f"la clave debe caber en el plano de la actividad: cada número entre -{LIMITE_PLANO:g} y "
                     f"{LIMITE_PLANO:g}.")
    claves = [list(k) for k in CLAVES_INICIALES]
    claves[PALABRAS.index("plata")] = [float(clave[0]), float(clave[1])]
    pesos = pesos_de_la_palabra(CONSULTAS_INICIALES, claves, PALABRAS.index("banco"))
    peso = pesos[PALABRAS.index("plata")]
    if peso >= 0.9:
        return bien(f"«banco» le da ahora el {100 * peso:.0f} % a «plata». Una clave larga en la dirección de la "
                    f"consulta gana la competición del softmax.")
    return pista(f"con esa clave «banco» le da el {100 * peso:.0f} % a «plata» (hace falta al menos 90 %). "
                 f"El producto escalar crece si la clave apunta hacia donde apunta la consulta y si es más larga.")
