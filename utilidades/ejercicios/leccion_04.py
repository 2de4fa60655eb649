"""Comprobaciones de los ejercicios de la lección 04 (atención multicabeza)."""

import math

import torch

from utilidades.ejercicios import (
    bien,
    ejercicio,
    entero,
    es_cercano,
    exigir_entero,
    exigir_funcion,
    exigir_numero,
    llamar,
    pista,
)
from utilidades.formato import miles


@ejercicio("04.1")
def parametros_de_la_capa(respuesta):
    valor = exigir_entero(respuesta)
    d = 64
    qkv, salida = d * 3 * d + 3 * d, d * d + d
    if valor == qkv + salida:
        return bien(f"{miles(qkv)} en la proyección de entrada (Q, K y V) y {miles(salida)} en la de salida. Volverás "
                    f"a ver este número en el bloque transformer de la lección 07.")
    if valor == d * 3 * d + d * d:
        return pista("has contado los pesos, pero cada capa lineal también tiene un sesgo por salida.")
    if valor == qkv:
        return pista("esa es solo la proyección de entrada, la capa que calcula Q, K y V; falta la proyección de "
                     "salida.")
    if valor == 16 * 48 + 48 + 16 * 16 + 16:
        return pista("ese es el recuento de AtencionMulticabeza(16, 4), el de la lección; aquí d_modelo es otro.")
    if valor == salida:  # con d = 64 y 4 cabezas coincide también con el total entre 4: la pista no lo dice
        return pista("ese número se queda corto: falta la proyección de entrada, la capa que calcula Q, K y V.")
    por_cabeza = ("has dado a cada cabeza sus propias W_Q, W_K y W_V de 64 × 64. Las de todas las cabezas juntas "
                  "forman una sola W_Q de 64 × 64 (y lo mismo W_K y W_V): cada cabeza usa solo un trozo de sus "
                  "columnas.")
    if valor == 4 * 3 * (d * d + d) + salida:  # cada cabeza con W_Q, W_K y W_V de 64 × 64, con sesgos
        return pista(por_cabeza)
    if valor == 4 * 3 * d * d + d * d:  # lo mismo, y sin sesgos
        return pista(por_cabeza + " Y cada capa lineal tiene también un sesgo por salida.")
    if valor in ((qkv + salida) // 4, (qkv + salida) * 4):
        return pista("el número de cabezas no cambia los parámetros: las mismas capas, leídas en trozos.")
    return pista("suma los parámetros de nn.Linear(64, 3 · 64) (la de Q, K y V juntas) y de nn.Linear(64, 64); "
                 "una capa nn.Linear(a, b) tiene a · b pesos y b sesgos.")


@ejercicio("04.2")
def forma_de_los_pesos(respuesta):
    try:
        forma = tuple(entero(n) for n in respuesta)
    except TypeError:
        return pista("responde con una tupla de números enteros, como (1, 2, 3, 4).")
    if isinstance(respuesta, (str, bytes)) or None in forma:
        return pista("responde con una tupla de números enteros, como (1, 2, 3, 4).")
    if len(forma) != 4:
        return pista("los pesos tienen cuatro dimensiones: lote, cabezas y una tabla de palabras × palabras.")
    if forma == (3, 8, 7, 4):
        return pista("(…, 7, 4) sería la salida de cada cabeza; los pesos comparan palabras con palabras.")
    if sorted(forma) == sorted((3, 8, 7, 7)) and forma != (3, 8, 7, 7):
        return pista("los números son esos, pero revisa el orden: primero el lote, luego las cabezas.")
    if forma == (3, 8, 7, 7):
        return bien("Una tabla de 7 × 7 por frase y por cabeza.")
    return pista("la tabla de pesos lleva una dimensión por frase del lote, otra por cabeza y, al final, una fila y "
                 "una columna por palabra: lee esos tres números en el enunciado.")


def _separar(x, cabezas):
    """El `separar` de AtencionMulticabeza: (lote, L, d_modelo) -> (lote, cabezas, L, d_cabeza)."""
    lote, L, d_modelo = x.shape
    return x.view(lote, L, cabezas, d_modelo // cabezas).transpose(1, 2)


def _separar_qkv(qkv, cabezas):
    """(lote, L, 3 · d_modelo) -> (3, lote, cabezas, L, d_cabeza): Q, K y V, cada una ya separada en cabezas."""
    return torch.stack([_separar(t, cabezas) for t in qkv.chunk(3, dim=-1)])


# Ejercicio 04.3: la lección enseña `separar` (en la celda de AtencionMulticabeza y, en 2-D, en la sección 2) y el
# paso inverso, pegar las cabezas; copiarlos no basta. Se pide separar de una vez la salida de la capa qkv (Q, K y V
# juntas, una detrás de otra en cada vector) en un solo tensor (3, lote, cabezas, L, d_cabeza): hay que partir el
# vector en tres antes de trocearlo en cabezas y juntar los tres resultados.
@ejercicio("04.3")
def separar_qkv(funcion):
    exigir_funcion(funcion, "comprobar('04.3', separar_qkv)")
    generador = torch.Generator().manual_seed(4)
    # Ningún caso tiene tantas cabezas como números por cabeza, ni el primero tantas frases en el lote como cabezas:
    # así una forma con dos tamaños cambiados de sitio no pasa por buena (la lección evita esas coincidencias).
    for (lote, L, d_modelo), cabezas in (((3, 5, 16), 2), ((1, 3, 12), 2), ((3, 7, 8), 2), ((2, 4, 6), 1)):
        qkv = torch.randn(lote, L, 3 * d_modelo, generator=generador)
        d_cabeza = d_modelo // cabezas
        n_cabezas = f"{cabezas} cabeza" if cabezas == 1 else f"{cabezas} cabezas"
        esperado = _separar_qkv(qkv, cabezas).to(torch.float64)  # en float64: vale un resultado float32 o float64
        resultado = llamar(funcion, qkv.clone(), cabezas, tipo=None)
        if isinstance(resultado, (tuple, list)) and len(resultado) == 3:
            return pista("devuelves Q, K y V por separado; se pide un solo tensor que las junte, con Q, K y V en "
                         "la primera dimensión (torch.stack junta tensores de la misma forma en uno nuevo).")
        if not isinstance(resultado, torch.Tensor):
            return pista(f"tu función debe devolver un tensor de PyTorch y devuelve {type(resultado).__name__}.")
        resultado = resultado.detach().to(torch.float64)
        if tuple(resultado.shape) == (lote, cabezas, L, 3 * d_cabeza):
            return pista("has separado en cabezas el vector entero de 3 · d_modelo números, como si fuera uno solo: "
                         "sus primeros d_modelo números son Q, los siguientes K y los últimos V. Pártelo en tres "
                         "antes de trocear cada parte en cabezas.")
        if tuple(resultado.shape) == (3, lote, d_cabeza, L, cabezas):
            return pista(f"has cambiado de sitio las cabezas y d_cabeza: con d_modelo = {d_modelo} y {n_cabezas}, "
                         f"cada vector se parte en {cabezas} trozos de {d_cabeza} números, (lote, L, "
                         f"cabezas, d_cabeza), y las cabezas van delante de las palabras.")
        if tuple(resultado.shape) == (3, cabezas, lote, L, d_cabeza) and cabezas != lote:
            return pista("has puesto las cabezas delante del lote: cada frase del lote se separa en sus cabezas, así "
                         "que tras Q, K o V va primero el lote y después las cabezas, (3, lote, cabezas, L, d_cabeza).")
        if tuple(resultado.shape) != tuple(esperado.shape):
            return pista(f"con qkv de forma {(lote, L, 3 * d_modelo)} y {n_cabezas} tu función devuelve "
                         f"{tuple(resultado.shape)} y se esperaba {tuple(esperado.shape)}: primero Q, K o V; "
                         f"después el lote, las cabezas (delante de las palabras), las palabras y d_cabeza.")
        if torch.allclose(resultado, esperado, atol=1e-6):
            continue
        sin_intercambio = torch.stack([t.reshape(lote, cabezas, L, d_cabeza) for t in qkv.chunk(3, dim=-1)])
        if torch.allclose(resultado, sin_intercambio.to(torch.float64)):
            return pista("la forma es correcta, pero has cambiado la forma de Q, K y V sin cambiar el orden de sus "
                         "números. En cada vector, los trozos de las cabezas van dentro de cada palabra: (lote, L, "
                         "cabezas, d_cabeza). Parte así cada vector y después intercambia las dimensiones de las "
                         "palabras y de las cabezas; cambiar solo la forma no mueve ningún número.")
        if torch.allclose(resultado, qkv.reshape(3, lote, cabezas, L, d_cabeza).to(torch.float64)):
            return pista("la forma es correcta, pero cada trozo mezcla números de palabras distintas: un reshape "
                         "directo a la forma final no respeta qué números son de qué palabra.")
        intercalado = qkv.view(lote, L, cabezas, 3, d_cabeza).permute(3, 0, 2, 1, 4)
        if torch.allclose(resultado, intercalado.to(torch.float64)):
            return pista("has supuesto que cada cabeza lleva juntos sus trozos de Q, K y V; en la salida de la capa "
                         "qkv van Q entera, luego K entera y luego V entera (es lo que separa .chunk(3, dim=-1)).")
        nombres = "QKV"
        for orden in ([1, 0, 2], [0, 2, 1], [2, 1, 0], [1, 2, 0], [2, 0, 1]):
            if torch.allclose(resultado, esperado[orden]):
                puestas = ", ".join(f"resultado[{i}] es {nombres[j]}" for i, j in enumerate(orden) if i != j)
                return pista(f"Q, K y V están, pero no en su orden: {puestas}. En la primera dimensión van Q, K y "
                             f"V, en el orden en que salen de la capa qkv (el de .chunk(3, dim=-1)).")
        return pista("la forma es correcta, pero los números no están donde deben: resultado[0, b, c, i] debe ser "
                     "el trozo c de la consulta de la palabra i en la frase b (sus d_cabeza números consecutivos).")
    return bien("Así separan Q, K y V muchas implementaciones de un transformer: una sola multiplicación y un "
                "cambio de forma.")


# Ejercicio 04.4: tamaños en los que la respuesta (√d_cabeza) no coincide con el número de cabezas ni con otra
# cuenta que se haga sin pensar (√d_modelo, d_cabeza, √cabezas, d_modelo / cabezas²).
D_MODELO_04_4, CABEZAS_04_4 = 144, 4


@ejercicio("04.4")
def divisor_de_cada_cabeza(respuesta):
    valor = exigir_numero(respuesta)
    d, h = D_MODELO_04_4, CABEZAS_04_4
    d_cabeza = d // h
    if es_cercano(valor, math.sqrt(d_cabeza), 0.01):
        return bien(f"Cada cabeza compara vectores de d_cabeza = {d_cabeza} números, así que escala por "
                    f"la raíz de {d_cabeza}.")
    if es_cercano(valor, math.sqrt(d), 0.01):
        return pista("esa es la raíz de d_modelo; pero cada cabeza solo ve su trozo del vector. ¿Cuántos números "
                     "tiene ese trozo?")
    if es_cercano(valor, d_cabeza, 0.01):
        return pista("has encontrado cuántos números ve cada cabeza. Repasa la escala de la lección 03: ¿los "
                     "puntajes se dividen por ese tamaño tal cual?")
    if es_cercano(valor, 1 / math.sqrt(d_cabeza), 0.01):
        return pista("ese es el factor por el que se multiplican los puntajes; la pregunta pide el número por el "
                     "que se dividen.")
    if es_cercano(valor, h, 0.01):
        return pista("ese es el número de cabezas: las cabezas no dividen los puntajes, dividen el vector. La "
                     "escala depende de cuántos números tiene cada consulta de una cabeza.")
    if es_cercano(valor, math.sqrt(h), 0.01):
        return pista("esa es la raíz del número de cabezas; la escala depende de cuántos números tiene cada "
                     "consulta de la cabeza.")
    if es_cercano(valor, math.sqrt(d) / h, 0.01):
        return pista("has repartido la raíz entre las cabezas; reparte primero d_modelo y saca después la raíz "
                     "del trozo de cada cabeza.")
    return pista(f"reparte d_modelo = {d} entre las {h} cabezas y recuerda qué raíz aparece en la fórmula de la "
                 f"atención.")


# Ejercicio 04.5: un peso de la cabeza 1 de la sección 5 («verbo → primer sustantivo») en una frase que la lección no
# muestra, con el verbo delante y el sujeto en la posición 2. Tras dividir por √9, ser sustantivo suma 8 al puntaje
# del verbo con esa palabra y cada posición más adelante en la frase (contando desde el principio) resta 1; la consulta
# del verbo no lee su propia posición. El verbo va primero para que su propio puntaje, 0, pese en el softmax: dejarlo
# fuera (un error real) cambia el tercer decimal (0.866 en vez de 0.864); con el verbo detrás del sujeto solo cambiaba
# el cuarto. Los errores previstos cambian una sola pieza: la escala, la parte de posición, la del papel o la
# palabra que falta.
FRASE_04_5 = ["persigue", "el", "perro", "del", "vecino", "al", "gato"]
SUSTANTIVOS_04_5 = ("perro", "vecino", "gato")


def _peso_04_5(sustantivo=8.0, retraso=1.0, escala=1.0, sin_el_verbo=False):
    """El peso de «persigue» a «perro» con los puntajes ya divididos por √9, multiplicados por `escala`."""
    puntajes = torch.tensor([sustantivo * (p in SUSTANTIVOS_04_5) - retraso * j for j, p in enumerate(FRASE_04_5)],
                            dtype=torch.float64)
    if sin_el_verbo:  # el softmax solo sobre las otras palabras, sin el puntaje del verbo consigo mismo
        puntajes[FRASE_04_5.index("persigue")] = -math.inf
    return torch.softmax(puntajes * escala, dim=-1)[FRASE_04_5.index("perro")].item()


@ejercicio("04.5")
def peso_de_un_verbo(respuesta):
    valor = exigir_numero(respuesta)

    def cerca(esperado):  # con tres decimales: media milésima, y un margen por si se redondea dos veces
        return abs(valor - esperado) <= 0.0006

    correcto = _peso_04_5()
    if cerca(correcto):
        return bien("Los puntajes del verbo con las tres palabras que son sustantivos pesan mucho más que los demás, y "
                    "de ellos el del primero: el softmax deja casi todo el peso en «perro».")
    if es_cercano(valor, round(correcto, 2), 1e-9):
        return pista("vas bien, pero el enunciado pide el peso con tres decimales (por ejemplo 0.123), no con dos.")
    if not 0 <= valor <= 1:
        if es_cercano(valor, 8 - 2, 1e-6):
            return pista("ese es el puntaje de «persigue» con «perro»; el peso sale del softmax de los puntajes de "
                         "«persigue» con todas las palabras de la frase.")
        if es_cercano(valor, 3 * (8 - 2), 1e-6):
            return pista("ese es el puntaje de «persigue» con «perro» antes de dividir por √9; divídelo y pasa los "
                         "puntajes de «persigue» con todas las palabras por el softmax.")
        return pista("un peso está entre 0 y 1: calcula el puntaje de «persigue» con cada palabra y pásalos todos por "
                     "el softmax.")
    if cerca(_peso_04_5(escala=3.0)):
        return pista("no has dividido por √d_cabeza: cada puntaje de la cabeza 1 se divide por √9 = 3 antes del "
                     "softmax.")
    if cerca(_peso_04_5(escala=1 / 3)):
        return pista("has dividido por d_cabeza = 9; la atención divide por su raíz, √9.")
    if cerca(_peso_04_5(escala=3 / math.sqrt(13))):
        return pista("has dividido por √d_modelo = √13; cada cabeza divide por la raíz de su propio tamaño, "
                     "d_cabeza = 9.")
    if cerca(_peso_04_5(retraso=0.0)):
        return pista("te falta la parte de posición: además de buscar sustantivos, la consulta del verbo resta un "
                     "punto por cada posición más adelante en la frase de la palabra mirada.")
    if cerca(_peso_04_5(sustantivo=0.0)):
        return pista("te falta la parte del papel: la consulta del verbo suma puntos a las palabras que son "
                     "sustantivos.")
    if cerca(_peso_04_5(sin_el_verbo=True)):
        return pista("te falta una palabra en el softmax: «persigue» también se mira a sí mismo. Su puntaje consigo "
                     "mismo (no es sustantivo y está en la posición 0) entra en el softmax con los de las demás.")
    if cerca(1 / len(FRASE_04_5)):
        return pista("ese es el reparto igual de las filas que no buscan nada; «persigue» es un verbo y su consulta "
                     "sí busca algo.")
    return pista("escribe el puntaje de «persigue» con cada una de las 7 palabras (lo que suma ser sustantivo menos lo "
                 "que resta su posición, ya dividido por √9), pásalos por torch.softmax y toma el de «perro».")
