"""Comprobaciones de los ejercicios de la lección 01 («¿A quién mira cada palabra?»)."""

import math
import unicodedata
import warnings

import numpy as np
import torch

from utilidades.actividades import (
    CLAVES_INICIALES,
    CONSULTAS_INICIALES,
    LIMITE_PLANO,
    PALABRAS,
    pesos_de_la_palabra,
    porcentajes_redondeados,
)
from utilidades.ejercicios import (
    Fallo,
    a_numpy,
    bien,
    ejercicio,
    es_cercano,
    exigir_funcion,
    exigir_numero,
    pista,
)

EN, GUARDO, BANCO, PLATA = (PALABRAS.index(p) for p in ("en", "guardó", "banco", "plata"))


def _limpiar_palabra(respuesta):
    """Texto en minúsculas, sin espacios ni comillas alrededor y sin tildes («guardo» es «guardó»)."""
    texto = str(respuesta).strip().strip("«»\"'").strip().lower()
    return "".join(c for c in unicodedata.normalize("NFD", texto) if not unicodedata.combining(c))


@ejercicio("01.1")
def _en_con_mascara_causal(respuesta):
    if not isinstance(respuesta, str):
        return pista('escribe la palabra entre comillas, por ejemplo respuesta = "Ana".')
    palabra = _limpiar_palabra(respuesta)
    minusculas = [_limpiar_palabra(p) for p in PALABRAS]
    if palabra not in minusculas:
        return pista(f"esa palabra no está en la frase; elige una de: {', '.join(PALABRAS)}.")
    j = minusculas.index(palabra)
    con = pesos_de_la_palabra(CONSULTAS_INICIALES, CLAVES_INICIALES, EN, causal=True)
    sin = pesos_de_la_palabra(CONSULTAS_INICIALES, CLAVES_INICIALES, EN)
    orden = np.argsort(-con)
    if j == orden[0]:
        return bien(f"Con la máscara, «en» le da el {porcentajes_redondeados(con)[j]} % a «{PALABRAS[j]}»: su "
                    f"favorita sin máscara, «banco», va después y queda oculta.")
    if j == int(np.argmax(sin)):
        return pista("esa es su favorita sin máscara; con la máscara causal activada, ¿puede «en» verla?")
    if j > EN:
        return pista("con la máscara causal «en» no puede mirar a las palabras que van después de ella.")
    if j == EN:
        return pista("«en» también se mira a sí misma, pero no es lo que más mira; busca la barra más alta.")
    if j == orden[1]:
        return pista("esa es la segunda más mirada; busca la barra más alta de todas.")
    return pista("elige «en», activa la máscara causal (o llama a pesos_de_la_palabra con elegida=4 y "
                 "causal=True) y mira la barra más alta.")


def _media_con_puntajes(claves, consulta, valores, divisor):
    """La media de `valores` ponderada por softmax(claves · consulta / divisor)."""
    return torch.softmax(claves @ consulta / divisor, dim=0) @ valores  # (d_v,)


# Los casos de 01.2: (n claves, d, d_v, T). El primero separa cada error frecuente de los demás (con d = 9 y
# T = 0.5, dividir por √d·T, por T, por √d, por √2·T, por d·T o multiplicar por T dan números distintos); los
# demás cambian n, d, d_v y T, y uno tiene una sola clave.
_CASOS_01_2 = [(5, 9, 3, 0.5), (3, 2, 2, 1.0), (1, 2, 4, 2.0), (7, 3, 1, 3.0), (4, 4, 2, 0.25)]


def _da_lo_mismo(obtenido, claves, consulta, valores, divisor):
    """True si `obtenido` es la media de los valores con pesos softmax(claves · consulta / divisor)."""
    return np.allclose(obtenido, _media_con_puntajes(claves, consulta, valores, divisor).numpy(), atol=1e-6)


def _llamar_sin_avisos(funcion, *argumentos):
    """Llama a la función del estudiante; devuelve (resultado, None) o (None, el error que saltó).

    Una función de NumPy (np.exp, np.einsum…) que recibe tensores avisa con un DeprecationWarning de __array_wrap__:
    ese aviso lo provoca la comprobación al pasarle tensores, no el código del estudiante, así que no se muestra."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*__array_wrap__.*", category=DeprecationWarning)
        try:
            return funcion(*argumentos), None
        except Exception as error:  # el error del estudiante se le cuenta en la pista
            return None, error


@ejercicio("01.2")
def _busqueda_blanda(funcion):
    exigir_funcion(funcion, "comprobar('01.2', busqueda_blanda)")
    generador = torch.Generator().manual_seed(1)
    for n, d, d_v, T in _CASOS_01_2:
        consulta = torch.randn(d, generator=generador, dtype=torch.float64)
        claves = torch.randn(n, d, generator=generador, dtype=torch.float64)
        valores = torch.randn(n, d_v, generator=generador, dtype=torch.float64)
        esperado = _media_con_puntajes(claves, consulta, valores, math.sqrt(d) * T).numpy()
        # Primero con tensores de PyTorch (float64); si así falla o no da lo esperado, con arrays de NumPy: el
        # enunciado admite las dos bibliotecas, y código de NumPy como np.max(s) o s.max(axis=0) no acepta tensores.
        resultado, error = _llamar_sin_avisos(funcion, consulta, claves, valores, T)
        obtenido = a_numpy(resultado)
        if obtenido is None or obtenido.shape != esperado.shape or not np.allclose(obtenido, esperado, atol=1e-6):
            en_numpy, error_numpy = _llamar_sin_avisos(funcion, consulta.numpy(), claves.numpy(), valores.numpy(), T)
            if error_numpy is None and (resultado is None or error is not None):
                resultado, error = en_numpy, None  # con tensores falló o no devolvió nada: se juzga lo de NumPy
            elif (error_numpy is None and a_numpy(en_numpy) is not None and a_numpy(en_numpy).shape == esperado.shape
                  and np.allclose(a_numpy(en_numpy), esperado, atol=1e-6)):
                continue  # con arrays de NumPy da lo esperado
            if error is not None:
                return pista(f"al llamar a tu función con tensores de PyTorch saltó un error ({type(error).__name__}: "
                             f"{error}), y con arrays de NumPy también ({type(error_numpy).__name__}: "
                             f"{error_numpy}). Recibe una consulta ({d},), unas claves ({n}, {d}) y unos valores "
                             f"({n}, {d_v}); revisa qué operación no admite esos argumentos.")
            obtenido = a_numpy(resultado)
        if resultado is None:
            return pista("tu función no devuelve nada: falta un `return` con el resultado al final.")
        if isinstance(resultado, (tuple, list)) and len(resultado) > 1 and obtenido is None:
            # Varias cosas de formas distintas (una lista de números sí se convierte y sigue adelante).
            return pista(f"tu función devuelve {len(resultado)} cosas a la vez (¿la media y los pesos?); devuelve "
                         "solo la media ponderada de los valores, un único vector.")
        if obtenido is not None and obtenido.shape == (n,) and n != d_v:
            return pista(f"con {n} claves tu función devuelve {n} números: son los pesos. Falta el último paso, "
                         f"la media ponderada de los valores ({d_v} números).")
        if obtenido is None or obtenido.shape != esperado.shape:
            forma = None if obtenido is None else obtenido.shape
            return pista(f"con valores de {d_v} números el resultado debe tener forma ({d_v},), pero tiene {forma}.")
        if np.allclose(obtenido, esperado, atol=1e-6):
            continue

        if np.allclose(obtenido, valores.mean(dim=0).numpy(), atol=1e-6):
            return pista("te salió la media simple de los valores: los pesos deben depender de la consulta.")
        if _da_lo_mismo(obtenido, claves, consulta, valores, 1.0):
            return pista("es la búsqueda de la sección 3 tal cual: aquí los puntajes se dividen antes del softmax, "
                         "como en la actividad (allí entre √2·T, porque d = 2).")
        if _da_lo_mismo(obtenido, claves, consulta, valores, T):
            return pista("divides entre la temperatura, pero falta la raíz de la dimensión: d es el número de "
                         "componentes de la consulta.")
        if _da_lo_mismo(obtenido, claves, consulta, valores, math.sqrt(d)):
            return pista(f"con T = {T:g} tu función da lo mismo que con T = 1: no usa la temperatura.")
        if _da_lo_mismo(obtenido, claves, consulta, valores, math.sqrt(d) / T):
            return pista("has multiplicado por la temperatura; la temperatura divide los puntajes (con T grande, "
                         "los pesos se reparten).")
        if _da_lo_mismo(obtenido, claves, consulta, valores, math.sqrt(2) * T):
            return pista(f"divides siempre entre √2·T, como la actividad, pero aquí d = {d}: usa la raíz del número "
                         f"de componentes de la consulta.")
        if _da_lo_mismo(obtenido, claves, consulta, valores, d * T):
            return pista("divides entre d·T; la dimensión entra con su raíz, √d.")
        if _da_lo_mismo(obtenido, claves, consulta, valores, math.sqrt(n) * T):
            return pista("divides entre la raíz del número de claves (n, las filas de `claves`); d es el número de "
                         "componentes de cada vector, el de la consulta.")
        if _da_lo_mismo(obtenido, claves, consulta, valores, math.sqrt(d_v) * T):
            return pista("divides entre la raíz del número de componentes de los valores (d_v); la escala usa los de "
                         "la consulta, que son los que se multiplican con las claves.")
        crudos = (claves @ consulta / (math.sqrt(d) * T)) @ valores
        if np.allclose(obtenido, crudos.numpy(), atol=1e-6):
            return pista("has ponderado con los puntajes en crudo: antes conviértelos en pesos positivos que "
                         "sumen 1 con un softmax.")
        return pista("los números no coinciden: puntajes = claves · consulta / (√d·T), pesos = softmax de los "
                     "puntajes, y después la media de los valores ponderada con esos pesos.")
    return bien("Es exactamente lo que hace una capa de atención con una sola consulta: la lección 02 lo hace "
                "para todas las palabras a la vez, con matrices.")


@ejercicio("01.3")
def _causal_guardo(respuesta):
    valor = exigir_numero(respuesta, "un solo número entre 0 y 1")
    con = pesos_de_la_palabra(CONSULTAS_INICIALES, CLAVES_INICIALES, GUARDO, causal=True)
    sin = pesos_de_la_palabra(CONSULTAS_INICIALES, CLAVES_INICIALES, GUARDO)
    # Se pide con tres decimales: vale lo que está a menos de media milésima del peso exacto (más un margen de
    # 0.0001 por si se redondea dos veces); 0.962 (truncado) o 0.964, no.
    if es_cercano(valor, con[0], 0.0006):
        return bien("Sin la máscara el peso era menor: al ocultar el futuro, el peso se reparte entre menos palabras.")
    if es_cercano(valor, round(float(con[0]), 2), 1e-9):
        return pista("vas bien, pero el enunciado pide el peso con tres decimales (por ejemplo 0.123), no con dos.")
    if es_cercano(valor, math.floor(1000 * float(con[0])) / 1000, 1e-9):
        return pista("casi: has cortado el peso en la tercera cifra decimal. Redondea, no trunques: mira la cuarta "
                     "cifra para decidir la tercera.")
    if es_cercano(valor, con[0], 0.01) and round(valor, 2) == valor:
        return pista("cerca, pero ni siquiera con dos decimales es el peso: calcúlalo con pesos_de_la_palabra y "
                     "dalo con tres decimales, en vez de leerlo a ojo de las barras.")
    if es_cercano(valor, con[0], 0.01):  # tres decimales o más, cerca: no sale de las barras (dicen 96 %)
        return pista("cerca, pero ese número no sale de redondear el peso exacto: calcúlalo con pesos_de_la_palabra "
                     "(elegida=1, causal=True), toma el de «Ana» y dale tres decimales redondeando.")
    if es_cercano(valor, 100 * con[0], 1.0):
        return pista("lo has dado en porcentaje; escribe el peso como un número entre 0 y 1.")
    if es_cercano(valor, sin[0], 0.01):
        return pista("ese es el peso sin la máscara; activa causal=True.")
    if es_cercano(valor, con[GUARDO], 0.01):
        return pista("ese es el peso que «guardó» se da a sí misma; se pregunta el de «Ana».")
    return pista("con la máscara causal «guardó» solo ve dos palabras; calcula los pesos con causal=True y toma el "
                 "de «Ana» (un número entre 0 y 1).")


# Ejercicio 01.4: la clave no puede medir más de esto. Sin el límite valía la clave el doble de larga que enseña la
# pregunta 5 (96 % en las barras, pero mide 3.82) o cualquier esquina del plano. Con él hay que alargarla con medida:
# en su dirección inicial, al menos ×1.672 (medir 3.194), y medir 3.120 si se orienta justo hacia la consulta de
# «banco». Girarla ayuda poco, porque la clave inicial (1.3, 1.4) ya está a 12° de esa consulta (1.0, 1.7): con la
# misma norma, orientarla del todo solo gana alrededor de un punto (el acierto lo dice). Cuánto alargarla, como poco,
# lo pregunta y lo comprueba el ejercicio 01.5; por eso el acierto de 01.4 no da ese factor.
NORMA_MAXIMA_01_4 = 3.4


def _peso_banco_plata(clave):
    """El peso que «banco» le da a «plata» si la clave de «plata» es `clave` (las demás, las iniciales)."""
    claves = [list(k) for k in CLAVES_INICIALES]
    claves[PLATA] = [float(clave[0]), float(clave[1])]
    return float(pesos_de_la_palabra(CONSULTAS_INICIALES, claves, BANCO)[PLATA])


def _barra_banco_plata(clave):
    """El porcentaje de la barra de «plata» (el mismo redondeo que las barras de la actividad: suman 100) cuando
    «banco» mira con la clave de «plata» en `clave`; hipotética o no, la pista y la actividad dicen lo mismo."""
    claves = [list(k) for k in CLAVES_INICIALES]
    claves[PLATA] = [float(clave[0]), float(clave[1])]
    return porcentajes_redondeados(pesos_de_la_palabra(CONSULTAS_INICIALES, claves, BANCO))[PLATA]


def _minimo_para_el_90(direccion):
    """La norma más pequeña con la que una clave de «plata» en esa dirección recibe el 90 % de «banco» (bisección)."""
    unidad = np.asarray(direccion, dtype=float) / np.linalg.norm(direccion)
    corta, larga = 0.0, 2 * LIMITE_PLANO
    for _ in range(60):
        medio = (corta + larga) / 2
        corta, larga = (corta, medio) if _peso_banco_plata(unidad * medio) >= 0.9 else (medio, larga)
    return larga


def _por_debajo(peso):
    """El peso en porcentaje con un decimal, redondeado hacia abajo: 0.8998 se lee 89.9 %, no 90.0 %, en una pista
    que dice que no llega al 90 %."""
    return f"{math.floor(1000 * peso) / 10:.1f}"


def _angulo(a, b):
    """Ángulo en grados entre dos vectores del plano."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    coseno = float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))
    return math.degrees(math.acos(max(-1.0, min(1.0, coseno))))


@ejercicio("01.4")
def _clave_de_plata(respuesta):
    clave = a_numpy(respuesta)
    if clave is None or clave.shape != (2,):
        raise Fallo(pista("la respuesta es una clave de dos números, por ejemplo [1.0, 2.0]."))
    if not np.all(np.isfinite(clave)):
        return pista("la clave contiene NaN o infinitos.")
    if np.any(np.abs(clave) > LIMITE_PLANO):
        return pista(f"la clave debe caber en el plano de la actividad: cada número entre -{LIMITE_PLANO:g} y "
                     f"{LIMITE_PLANO:g}.")
    if np.allclose(clave, CLAVES_INICIALES[PLATA]):
        return pista("esa es la clave inicial de «plata»; muévela.")
    peso = _peso_banco_plata(clave)
    norma = float(np.hypot(clave[0], clave[1]))  # lo que mide la clave
    consulta = np.asarray(CONSULTAS_INICIALES[BANCO], dtype=float)
    if norma > NORMA_MAXIMA_01_4:
        if peso >= 0.9:
            acortada = _peso_banco_plata(clave * NORMA_MAXIMA_01_4 / norma)
            if acortada >= 0.9:
                return pista(f"«banco» le da el {_barra_banco_plata(clave)} % a «plata», pero tu clave mide "
                             f"{norma:.2f} y el límite es {NORMA_MAXIMA_01_4:g}: la has alargado más de lo "
                             f"necesario. ¿Cuánto más larga que la inicial tiene que ser, como poco, para llegar al "
                             f"90 %?")
            return pista(f"«banco» le da el {_barra_banco_plata(clave)} % a «plata», pero tu clave mide "
                         f"{norma:.2f} y el límite es {NORMA_MAXIMA_01_4:g}; acortada al límite en esa dirección "
                         f"se quedaría en el {_por_debajo(acortada)} %: acércala también a la dirección de la "
                         f"consulta de «banco».")
        return pista(f"tu clave mide {norma:.2f} y no puede medir más de {NORMA_MAXIMA_01_4:g} "
                     f"(√(x² + y²)); además, con ella «banco» le da solo el {_barra_banco_plata(clave)} % a "
                     f"«plata».")
    if norma == 0:
        return pista(f"con la clave en el origen, el producto escalar con la consulta de «banco» es 0 y «banco» le da "
                     f"solo el {_barra_banco_plata(clave)} % a «plata»: la clave tiene que apuntar a algún sitio.")
    angulo = _angulo(clave, consulta)
    if peso >= 0.9:
        alineada = _barra_banco_plata(consulta * norma / np.linalg.norm(consulta))
        angulo_inicial = _angulo(CLAVES_INICIALES[PLATA], consulta)
        return bien(f"«banco» le da ahora el {_barra_banco_plata(clave)} % a «plata» con una clave de norma "
                    f"{norma:.2f}. Tu clave se separa {angulo:.0f}° de la consulta de «banco»; orientada justo hacia "
                    f"ella, con la misma norma, daría el {alineada} %. La clave inicial ya estaba a "
                    f"{angulo_inicial:.0f}° de la consulta, así que girarla gana poco: lo que hacía falta era "
                    f"alargarla. ¿Cuánto, como poco? Lo mide el ejercicio 5.")
    if _barra_banco_plata(clave) >= 90:
        return pista(f"la barra de «plata» dice {_barra_banco_plata(clave)} %, pero es un porcentaje redondeado: el "
                     f"peso es {_por_debajo(peso)} % y hace falta un peso de al menos 0.90. Alarga un poco más la "
                     f"clave o acércala a la dirección de la consulta de «banco» (sin que su norma pase de "
                     f"{NORMA_MAXIMA_01_4:g}).")
    if angulo < 20:
        return pista(f"tu clave apunta casi hacia la consulta de «banco» ({angulo:.0f}° de diferencia), pero mide "
                     f"{norma:.2f} y con ella «banco» le da el {_por_debajo(peso)} % a «plata»: alárgala "
                     f"(sin que su norma pase de {NORMA_MAXIMA_01_4:g}).")
    return pista(f"con esa clave «banco» le da el {_por_debajo(peso)} % a «plata» (hace falta al menos 90 %). "
                 f"El producto escalar crece si la clave apunta hacia donde apunta la consulta y si es más larga.")


# Ejercicio 01.5: el factor mínimo por el que multiplicar la clave inicial de «plata», sin girarla, para que «banco» le
# dé un peso de al menos 0.90. Es 1.6718 (redondeado hacia arriba, ×1.672: la clave mide 3.194). Vale cualquier
# factor que llegue y no se pase de ese mínimo redondeado hacia arriba con tres decimales, como pide el enunciado
# (1.6718, 1.672; también 1.673, por si se redondea dos veces); 1.68 llega pero sobra, y ×1.67 se queda en 0.8996,
# aunque la barra diga 90 %.
HOLGURA_01_5 = 0.0013


def _factor_minimo():
    """El factor más pequeño por el que multiplicar la clave inicial de «plata» para que reciba el 90 % de «banco»."""
    inicial = np.asarray(CLAVES_INICIALES[PLATA], dtype=float)
    return _minimo_para_el_90(inicial) / np.linalg.norm(inicial)


@ejercicio("01.5")
def _factor_de_plata(respuesta):
    factor = exigir_numero(respuesta, "un solo número, el factor por el que multiplicas la clave inicial")
    inicial = np.asarray(CLAVES_INICIALES[PLATA], dtype=float)
    minimo = _factor_minimo()
    if factor <= 0:
        return pista("el factor tiene que ser positivo: con 0 la clave se queda en el origen y con un factor negativo "
                     "apunta al revés, lejos de la consulta de «banco».")
    peso = _peso_banco_plata(factor * inicial)
    if peso >= 0.9 and factor <= minimo + HOLGURA_01_5:
        alineada = _minimo_para_el_90(CONSULTAS_INICIALES[BANCO])
        return bien(f"Como poco, ×{math.ceil(1000 * minimo) / 1000:.3f}: la clave alargada mide "
                    f"{math.ceil(1000 * minimo * np.linalg.norm(inicial)) / 1000:.3f} y «banco» le da un peso de "
                    f"{_por_debajo(peso)} % a «plata». Girada justo hacia la consulta de «banco» bastaría con que "
                    f"midiera {math.ceil(1000 * alineada) / 1000:.3f}: muy poco menos, porque la clave inicial ya "
                    f"apuntaba casi hacia ella.")
    if es_cercano(factor, minimo * np.linalg.norm(inicial), 0.02):
        return pista("ese número es lo que mide la clave alargada (su norma); se pide cuántas veces la inicial: el "
                     "número por el que se multiplican sus dos componentes.")
    if es_cercano(factor, minimo - 1, 0.01):
        return pista("ese es cuánto crece la clave; se pide el factor por el que se multiplica (1 la dejaría igual).")
    if es_cercano(factor, 100 * minimo, 1.0):
        return pista("lo has dado en porcentaje; escribe el factor, un número como 1.5.")
    if factor == 2:
        return pista("es la clave el doble de larga de la pregunta 5: llega de sobra, pero se pide lo mínimo. Prueba "
                     "factores más pequeños con pesos_de_la_palabra.")
    if peso >= 0.9:
        return pista(f"con ese factor «banco» le da a «plata» un peso de {_por_debajo(peso)} %: llega, pero no es lo "
                     f"mínimo. Un factor algo menor también llega: busca el más pequeño, hasta las milésimas.")
    if _barra_banco_plata(factor * inicial) >= 90:
        return pista(f"con ese factor la barra de «plata» dice {_barra_banco_plata(factor * inicial)} %, pero el peso "
                     f"es {_por_debajo(peso)} %: no llega a 0.90. Cuenta el peso sin redondear, y un mínimo se "
                     f"redondea hacia arriba.")
    return pista(f"con ese factor «banco» le da solo el {_por_debajo(peso)} % a «plata» (hace falta un peso de al "
                 f"menos 0.90): alárgala más. Calcula el peso con pesos_de_la_palabra para cada factor que pruebes.")
