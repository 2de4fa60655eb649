"""Comprobaciones de los ejercicios de la lección 03 (escala √d y temperatura)."""

import contextlib
import math

import numpy as np
import torch

from utilidades.ejercicios import (
    a_numpy,
    bien,
    comparar_numeros,
    ejercicio,
    es_cercano,
    exigir_funcion,
    exigir_numero,
    pista,
)

PUNTAJES = np.array([2.0, 1.0, 0.5, -1.0])


def _softmax(puntajes, T):
    """Referencia en NumPy, estable: resta el máximo de cada fila antes de exponenciar."""
    z = np.asarray(puntajes, dtype=float) / T
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


@ejercicio("03.1")
def desviacion_para_d_256(respuesta):
    valor = exigir_numero(respuesta)
    if es_cercano(valor, 256, 0.5):
        return pista("256 es la varianza de q·k (suma de 256 productos de varianza 1); "
                     "la desviación típica es otra cosa.")
    if es_cercano(valor, 1, 0.2):
        return pista("≈ 1 es la desviación después de dividir por √d; aquí se pregunta por los puntajes crudos.")
    if es_cercano(valor, 16, 0.05):  # √256 es exacto: un 15.6 o un 16.4 «a ojo» no valen
        return bien("La desviación crece como √d: por eso dividir por √d la devuelve a 1.")
    if es_cercano(valor, 8, 0.05):
        return pista("8 es la √d de la tabla para d = 64; con d = 256, q·k suma más productos.")
    if es_cercano(valor, math.sqrt(512), 0.05):
        return pista("esa es la √d de la tabla para d = 512; aquí d = 256.")
    if es_cercano(valor, 128, 0.5):
        return pista("128 es la mitad de d; la desviación típica no sale de dividir la varianza entre 2.")
    if es_cercano(valor, 4, 0.05):
        return pista("parece que has sacado la raíz dos veces: la desviación típica es la raíz de la varianza, "
                     "una sola vez.")
    if 14 <= valor <= 18:
        return pista("te acercas, pero la respuesta sale exacta de la fórmula, sin simular ni leer a ojo: "
                     "¿qué varianza tiene q·k con d = 256, y qué desviación le corresponde?")
    return pista("cada producto q_i·k_i tiene varianza 1 y q·k suma d de ellos; "
                 "¿cuál es la varianza de la suma y cuál su desviación?")


@ejercicio("03.2")
def pesos_con_t_2(respuesta):
    valor = a_numpy(respuesta)
    if valor is not None and valor.size == 4:
        valor = valor.reshape(4)  # una fila (1, 4), como la que da softmax de un tensor [[...]], vale igual
        respuesta = valor
    esperado = _softmax(PUNTAJES, 2.0)
    cuatro = valor is not None and valor.shape == (4,) and bool(np.all(np.isfinite(valor)))
    # Tolerancia 0.0006: vale redondear a tres decimales (error ≤ 0.0005), pero no los pesos de T = 1.99 o 2.01, ni
    # los porcentajes enteros que muestra el deslizador (el enunciado pide calcularlos, no leerlos).
    tolerancia = 0.0006
    if cuatro and np.allclose(valor, _softmax(PUNTAJES, 0.5), atol=0.01):
        return pista("esos son los pesos con T = 0.5: ¿multiplicaste los puntajes por T en vez de dividirlos?")
    if cuatro and np.allclose(valor, 100 * esperado, atol=1.0):
        return pista("los has dado en porcentaje; escribe pesos entre 0 y 1.")
    for T_de_la_tabla in (1, 4):  # dos filas de la tabla de la sección 4
        if cuatro and np.allclose(valor, _softmax(PUNTAJES, T_de_la_tabla), atol=0.01):
            return pista(f"esos son los pesos con T = {T_de_la_tabla}, los de la tabla; aquí la temperatura es otra.")
    if (cuatro and not np.allclose(valor, esperado, atol=tolerancia)
            and any(np.allclose(valor, np.floor(esperado * 10 ** n) / 10 ** n) for n in (2, 3))):
        return pista("el método va bien, pero has cortado los decimales en vez de redondear: redondea cada peso al "
                     "más cercano (si la cifra siguiente es 5 o más, la última sube) o da más decimales.")
    for decimales, como in ((1, "un solo decimal"), (2, "dos decimales")):
        if (cuatro and np.allclose(valor, np.round(esperado, decimales))
                and not np.allclose(valor, esperado, atol=tolerancia)):
            return pista(f"vas bien, pero con {como} no se distingue de otras temperaturas cercanas (ni de lo que "
                         "se lee en el deslizador): da cada peso con tres decimales al menos.")
    if cuatro and abs(valor.sum() - 1) > 0.0025:  # redondear cuatro pesos a tres decimales desvía la suma ≤ 0.002
        return pista(f"tus cuatro pesos suman {valor.sum():.3f}, y los pesos de un softmax suman 1: divide cada "
                     "exponencial entre la suma de las cuatro.")
    veredicto = comparar_numeros(
        respuesta, esperado, tolerancia=tolerancia,
        pista_forma="da un peso por palabra («plata», «sacó», «Ana», «del»).",
        pista_valor="divide cada puntaje entre T = 2 y luego aplica softmax; da cada peso con tres decimales.",
    )
    if veredicto.correcto:
        return bien("Con T = 2 «plata» sigue siendo la favorita, pero ya no se lo lleva casi todo.")
    return veredicto


@contextlib.contextmanager
def _vigilar_softmax_hecho():
    """Cambia por un momento los softmax ya hechos (PyTorch, SciPy) y las puertas de entrada y salida de PyTorch
    (crear un tensor, exponenciar con torch, volver a NumPy con .numpy()) por versiones que anotan si se usaron."""
    usados = []
    sitios = [(torch, "softmax"), (torch.nn.functional, "softmax"), (torch.special, "softmax"),
              (torch.Tensor, "softmax"), (torch, "exp"), (torch.Tensor, "exp"), (torch, "tensor"),
              (torch, "as_tensor"), (torch, "from_numpy"), (torch.Tensor, "numpy")]
    try:
        import scipy.special
        sitios.append((scipy.special, "softmax"))
    except ImportError:
        pass
    originales = [(modulo, nombre, getattr(modulo, nombre)) for modulo, nombre in sitios]

    def vigilado(original, nombre):
        def funcion(*argumentos, **opciones):
            usados.append(nombre)
            return original(*argumentos, **opciones)
        return funcion

    try:
        for modulo, nombre, original in originales:
            setattr(modulo, nombre, vigilado(original, f"{getattr(modulo, '__name__', 'Tensor')}.{nombre}"))
        yield usados
    finally:
        for modulo, nombre, original in originales:
            setattr(modulo, nombre, original)


@ejercicio("03.3")
def softmax_en_numpy(funcion):
    exigir_funcion(funcion, "comprobar('03.3', softmax_con_temperatura_np)")
    casos = [
        (PUNTAJES, 1.0),
        (PUNTAJES, 0.25),
        (np.array([[0.0, 0.0, 0.0], [3.0, -1.0, 2.0]]), 4.0),
        (np.array([[1.0, 2.0], [5.0, 5.0]]), 0.5),
        (np.array([1000.0, 999.0, 998.0]), 1.0),
        (np.array([1000.0, 0.0]), 1.0),  # restar el mínimo no basta: exp(1000) se desborda
        (np.array([[1000.0, 999.0], [0.0, -1.0]]), 1.0),  # restar el máximo de toda la tabla no basta
        (np.array([1000.0, 0.0, 0.0, 0.0]), 1.0),  # restar la media (250) no basta: exp(750) se desborda
        (np.array([-1000.0, -1001.0]), 1.0),  # restar otra cosa que el máximo (p. ej. max|z|) deja exp(-2001) = 0
    ]
    for numero, (puntajes, T) in enumerate(casos):
        with np.errstate(all="ignore"), _vigilar_softmax_hecho() as usados:  # un desbordamiento, sin avisos
            try:
                resultado = funcion(puntajes.copy(), T)
            except ValueError as error:
                if "broadcast" not in str(error):
                    raise
                return pista(f"con puntajes de forma {puntajes.shape} tu función da un error al restar o dividir: "
                             f"z.max(axis=-1) tiene forma {puntajes.shape[:-1]}, que no encaja con "
                             f"{puntajes.shape}. Con keepdims=True conserva el último eje con tamaño 1 y encaja.")
        if usados and not any(nombre.endswith(".softmax") for nombre in usados):
            return pista("has escrito el softmax con PyTorch (tensores, torch.exp o .numpy()), y el ejercicio lo "
                         "pide en NumPy, sin PyTorch: trabaja con el array que recibes con np.exp, np.max y np.sum.")
        if usados or isinstance(resultado, torch.Tensor):
            return pista("el ejercicio pide escribir el softmax en NumPy, sin PyTorch ni un softmax ya hecho: "
                         "usa np.exp, np.max y np.sum.")
        if resultado is None:
            return pista("tu función no devuelve nada: falta un `return` con el resultado al final.")
        with np.errstate(all="ignore"):
            valor = a_numpy(resultado)
        esperado = _softmax(puntajes, T)
        if valor is None or valor.shape != esperado.shape:
            return pista(f"con puntajes de forma {puntajes.shape} tu función devuelve forma "
                         f"{None if valor is None else valor.shape}; debe devolver la misma forma, "
                         f"con el softmax sobre el último eje (axis=-1, keepdims=True).")
        if not np.all(np.isfinite(valor)):
            if numero == 5:
                return pista("con [1000, 0] sale NaN: restar el mínimo no evita el desbordamiento, porque el mayor "
                             "queda en 1000. Lo que hay que restar es el mayor de cada fila, que pasa a ser 0.")
            if numero == 6:
                return pista("con [[1000, 999], [0, -1]] la segunda fila sale NaN: si restas el máximo de toda la "
                             "tabla, una fila de puntajes pequeños se queda en exp(−1000) = 0 y divide 0 entre 0. "
                             "Resta el máximo de cada fila (axis=-1, keepdims=True).")
            if numero == 7:
                return pista("con [1000, 0, 0, 0] sale NaN: si restas la media de la fila (250), el mayor queda en "
                             "750 y np.exp(750) se desborda. Lo que no se desborda nunca es restar el mayor de cada "
                             "fila: el mayor pasa a ser 0 y todos los demás, negativos.")
            if numero == 8:
                return pista("con [-1000, -1001] sale NaN: lo que restas deja los dos puntajes muy por debajo de 0, "
                             "np.exp da 0 en ambos y la división es 0 entre 0. Resta el mayor de cada fila, con su "
                             "signo: el mayor pasa a ser 0.")
            return pista("con puntajes grandes como 1000, np.exp se desborda y sale NaN. Resta el máximo de "
                         "cada fila antes de exponenciar: el resultado no cambia, porque se cancela arriba y abajo.")
        if not np.allclose(valor, esperado, atol=1e-6):
            return pista(f"con T = {T} tus pesos no coinciden con los esperados. Divide entre T antes de "
                         f"exponenciar y normaliza cada fila (último eje) para que sume 1.")
    return bien("Es lo que hace torch.softmax por dentro, incluido el truco de restar el máximo.")


@ejercicio("03.4")
def temperatura_equivalente(respuesta):
    valor = exigir_numero(respuesta)
    total_a = math.sqrt(128) * 3  # A divide entre √128 y luego entre T = 3: en total, entre √128 · 3
    esperado = total_a / math.sqrt(50)  # B ya divide entre √50: su T añadida pone lo que falta (exactamente 4.8)
    if es_cercano(valor, esperado, 0.005):
        return bien("A divide sus puntajes entre √128 · 3 ≈ 33.94; B, entre √50 · T. Para dar los mismos pesos, los "
                    "dos números tienen que ser iguales: T = 3 · √(128/50).")
    if es_cercano(valor, round(total_a) / math.sqrt(50), 0.005) or es_cercano(valor, 34 / 7.07, 0.005):
        return pista("el método va bien, pero redondeaste un paso intermedio y el error ha llegado al segundo "
                     "decimal: haz la cuenta entera sin redondear y redondea solo al final.")
    if es_cercano(valor, total_a, 0.05):
        return pista("esa es la temperatura total de A (sus dos divisiones juntas); falta ver qué T hay que añadir "
                     "a B, que ya divide entre su propia √d.")
    if es_cercano(valor, 3, 0.005):
        return pista("con la misma T, B dividiría entre √50 · 3, que no es lo que divide A: las dos √d son distintas.")
    if es_cercano(valor, 3 * math.sqrt(50 / 128), 0.005):
        return pista("has puesto la razón de las raíces al revés: B divide entre una √d más pequeña que la de A, así "
                     "que su T tiene que ser mayor que 3, no menor.")
    if es_cercano(valor, 3 * 128 / 50, 0.005) or es_cercano(valor, 3 * 50 / 128, 0.005):
        return pista("la atención no divide por d sino por su raíz, √d.")
    if es_cercano(valor, total_a - math.sqrt(50), 0.05):
        return pista("has restado; B divide entre √50 y después entre T, así que la T tiene que multiplicar a √50.")
    if es_cercano(valor, math.sqrt(128 * 3 / 50), 0.005):
        return pista("has metido la T = 3 dentro de la raíz; la T divide los puntajes aparte, fuera de la raíz.")
    if valor > 0 and es_cercano(1 / valor, esperado, 0.005):
        return pista("dividir entre la temperatura es dividir entre ese número; no lo inviertas.")
    return pista("escribe entre qué número quedan divididos los puntajes en A (√d y luego T = 3) y entre qué número "
                 "en B (su √d y luego la T que buscas), e iguala los dos.")


@ejercicio("03.5")
def suma_de_derivadas(respuesta):
    valor = exigir_numero(respuesta)
    pesos = np.array([0.97, 0.01, 0.01, 0.01])
    esperado = float((pesos * (1 - pesos)).sum())
    # Tolerancia 0.00025: acepta 0.0588 y 0.059 (tres decimales, lo que se pide), pero no 0.0591 ni 0.0594.
    if es_cercano(valor, esperado, 0.00025):
        return bien("Un 8 % de la de un reparto igual entre cuatro (0.75): una fila casi saturada apenas deja "
                    "pasar gradiente.")
    if es_cercano(valor, 1 - 1 / 4, 0.005):
        return pista("esa es la suma de un reparto igual entre cuatro; calcula la de esta fila.")
    if es_cercano(valor, 1 - 1 / 8, 0.005):
        return pista("0.875 es la suma de un reparto igual entre ocho, la de la lección; esta fila tiene cuatro "
                     "pesos, y no iguales.")
    if es_cercano(valor, 1, 0.005):
        return pista("esa es la suma de los pesos (siempre 1); se pide la de p_j(1 - p_j).")
    if es_cercano(valor, 0, 0.002):
        return pista("una fila casi saturada da una suma pequeña, pero no 0: calcula p_j(1 - p_j) para cada peso.")
    if es_cercano(valor, 1 - 0.97 ** 2, 0.00005):
        return pista("eso es 1 − 0.97², que deja fuera los tres pesos pequeños: la suma de p_j(1 − p_j) es "
                     "1 − Σ p_j², y en Σ p_j² entran los cuatro pesos.")
    if es_cercano(valor, 2 * 0.01 * 0.99 * 3, 0.00005):
        return pista("los tres pesos pequeños están bien, pero revisa el término del peso mayor: es p(1 − p) con "
                     "p = 0.97, no el mismo número que suman los pequeños.")
    if es_cercano(valor, float((pesos ** 2 * (1 - pesos)).sum()), 0.0002):
        return pista("has multiplicado cada p_j(1 − p_j) otra vez por su peso p_j; la suma que se pide es la de "
                     "p_j(1 − p_j) tal cual, sin ese factor de más.")
    if es_cercano(valor, 0.03, 1e-9):  # 0.0291 o 0.0297 redondeados: no se sabe qué mitad falta
        return pista("≈ 0.03 es lo que da una sola parte de la suma: el término del peso mayor, o el de los tres "
                     "pequeños. Suma los cuatro términos p_j(1 − p_j).")
    if es_cercano(valor, 0.97 * 0.03, 0.0003):
        return pista("esa es solo la derivada del peso mayor; suma también las de los otros tres.")
    if es_cercano(valor, 3 * 0.01 * 0.99, 0.0006) or es_cercano(valor, 0.01 * 0.99, 0.0006):
        return pista("te falta la derivada del peso mayor (y suma las de los cuatro pesos).")
    if es_cercano(valor, float((pesos ** 2).sum()), 0.0006):
        return pista("has sumado p_j²; la derivada de cada peso respecto de su puntaje es p_j(1 - p_j).")
    if es_cercano(valor, math.floor(esperado * 1000) / 1000, 1e-9):  # 0.0588 cortado a tres decimales
        return pista("el método va bien, pero has cortado los decimales en vez de redondear: redondea al más "
                     "cercano (si la cifra siguiente es 5 o más, la última sube) o da más decimales.")
    if es_cercano(valor, round(esperado, 2), 1e-9):  # solo el redondeo correcto a dos decimales (0.06)
        return pista("vas bien, pero con dos decimales no basta: da el resultado con tres decimales al menos.")
    return pista("calcula p_j(1 - p_j) para cada uno de los cuatro pesos y súmalos.")
