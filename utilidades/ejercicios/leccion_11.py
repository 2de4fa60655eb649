"""Comprobaciones de los ejercicios de la lección 11 (el transformer entero): una autoevaluación de todo el curso."""

import math

import torch

from utilidades.ejercicios import (
    Fallo,
    a_numpy,
    bien,
    ejercicio,
    entero,
    exigir_entero,
    exigir_funcion,
    exigir_numero,
    llamar,
    pista,
)
from utilidades.mascaras import mascara_causal

COMIENZO_11_2 = "la atención mira atrás"


def _lista_de_enteros(respuesta, cuantos, que):
    """La respuesta como lista de `cuantos` enteros (de cualquier tipo numérico); si no, termina con una pista."""
    valores = a_numpy(respuesta) if not isinstance(respuesta, dict) else None
    if valores is None or valores.shape != (cuantos,):
        raise Fallo(pista(f"responde con una lista de {cuantos} números enteros: {que}."))
    lista = [entero(v) for v in valores]
    if None in lista:
        raise Fallo(pista(f"cada elemento es un número entero de filas: {que}."))
    return lista


# Ejercicio 11.1: si se cambia solo el primer carácter, ¿cuántas filas cambian a la salida de cada etapa? Cada
# respuesta es una lista de cuatro enteros: no se puede acertar descartando letras.
ETAPAS_11_1 = "[embeddings, + posiciones, atención del bloque 0, MLP del bloque 0]"


@ejercicio("11.1")
def _donde_se_mezclan(respuesta):
    L = len(COMIENZO_11_2)
    filas = _lista_de_enteros(respuesta, 4, ETAPAS_11_1)
    if filas == [1, 1, L, L]:
        return bien("Los embeddings y las posiciones trabajan fila a fila: solo cambia la fila del carácter cambiado. "
                    "La atención es la primera etapa que mezcla filas: con la máscara causal todas las filas ven el "
                    "primer carácter. Desde ahí el cambio ya está en todas, y el MLP lo conserva.")
    if filas[:2] != [1, 1]:
        return pista("los embeddings se buscan carácter a carácter y las posiciones se suman fila a fila: en esas "
                     "dos etapas solo puede cambiar la fila del carácter que has cambiado (lecciones 06 y 10).")
    if filas[2] == 1:
        return pista("la atención mezcla filas: cada carácter hace una media ponderada de los valores de los que "
                     "puede ver. Con la máscara causal, ¿qué filas pueden ver el primer carácter? (lección 05)")
    if filas[2] == L - 1:
        return pista("cuenta también la fila del propio primer carácter: su valor ha cambiado y se mira a sí mismo.")
    if filas[2] == L and filas[3] == 1:
        return pista("el MLP trabaja fila a fila, cierto, pero recibe las filas que salen de la atención, y esas ya "
                     "cambiaron (lección 07).")
    return pista("sigue el cambio etapa a etapa: dónde está después de los embeddings, qué filas pueden mirar esa "
                 "fila en la atención causal, y qué hace el MLP con cada fila.")


def _pesos_del_bloque(cabezas, L):
    return cabezas * L * L


@ejercicio("11.2")
def _numeros_de_los_pesos(respuesta):
    valor = exigir_numero(respuesta, "un solo número entero")
    L = len(COMIENZO_11_2)
    if valor == _pesos_del_bloque(4, L):
        return bien("Una tabla L × L por cabeza, con los ceros del futuro incluidos: crece con el cuadrado de L.")
    if valor == L * L:
        return pista("esa es la tabla de una sola cabeza; el tensor tiene una por cabeza (forma cabezas, L, L).")
    if valor == 2 * _pesos_del_bloque(4, L):
        return pista("cuenta solo el bloque 0: cada bloque tiene su propio tensor de pesos.")
    if valor == 4 * L * (L + 1) // 2:
        return pista("el tensor guarda también los ceros del futuro (por encima de la diagonal), no solo las celdas "
                     "visibles (lección 05).")
    if valor in (L * 96, 4 * L * 24):
        return pista("esa es la forma de Q o de la salida de una capa; los pesos tienen una fila y una columna por "
                     "carácter (lección 02).")
    if valor in (4 * 21 * 21, 4 * 23 * 23):
        return pista("cuenta bien los caracteres del comienzo: len(\"la atención mira atrás\"), espacios incluidos.")
    return pista("mira la forma de la etapa «pesos de atención» en el resumen de la sección 2: (cabezas, L, L).")


def _gigas(contexto, cabezas=12, bloques=12, bytes_por_numero=4, tablas=2):
    """GB de las tablas L × L de la atención: `tablas` por cabeza y bloque (2: puntajes y pesos, como en la 07)."""
    return tablas * cabezas * bloques * contexto**2 * bytes_por_numero / 1e9


@ejercicio("11.3")
def _memoria_de_gpt2(respuesta):
    valor = exigir_numero(respuesta, "un solo número (GB)")
    exacta = _gigas(2048)  # 4.8318… GB
    # Vale la cuenta (a un 0.1 %: de 4.827 a 4.837) y la cuenta redondeada a una o dos cifras decimales (4.8 y
    # 4.83). Un número inventado cerca (4.79, 4.825, 4.84, 4.845) no vale: los márgenes de antes (±1 %, ±0.3 %,
    # ±0.2 %) lo dejaban pasar.
    if math.isclose(valor, exacta, rel_tol=1e-3) or any(math.isclose(valor, round(exacta, cifras), abs_tol=1e-6)
                                                          for cifras in (1, 2)):
        return bien("Doblar el contexto cuadruplica la memoria de la atención: por eso los modelos grandes usan "
                    "la atención fusionada, que no guarda las tablas enteras.")
    candidatos = [
        # La mitad de la respuesta sale de dos errores distintos que dan el mismo número (una tabla por cabeza con
        # el contexto doblado, o dos tablas con la memoria solo doblada): la pista nombra los dos. Una tabla con 8
        # bytes por número daría justo la respuesta, y no se puede distinguir: el enunciado pide float32.
        (_gigas(2048, tablas=1), "te sale la mitad. O cuentas una sola tabla por cabeza (nuestra `atencion` guarda a "
                                 "la vez dos, los puntajes y los pesos), o has doblado la memoria al doblar el "
                                 "contexto: el coste no es lineal, cada tabla L × L crece el doble en filas y el doble "
                                 "en columnas (lección 07)."),
        (_gigas(1024), "esa es la memoria con el contexto de la tabla; el ejercicio pide el doble de contexto."),
        (_gigas(1024, tablas=1), "eso es una sola tabla por cabeza y con el contexto de 1024: cuenta puntajes y "
                                 "pesos, con el contexto doblado."),
        (_gigas(2048, 1, 1), "eso es una sola cabeza de un solo bloque; suma todas las cabezas de todos los bloques."),
        (_gigas(2048, 12, 1), "eso es un solo bloque; GPT-2 small tiene 12."),
        (_gigas(2048, bytes_por_numero=8), "float32 ocupa 4 bytes por número, no 8."),
        (_gigas(2048, bytes_por_numero=32), "float32 son 32 bits, que son 4 bytes: cuenta bytes, no bits."),
        (_gigas(2048) * 1e9 / 2**30, "aquí 1 GB son mil millones de bytes (10⁹), no 2³⁰."),
        (_gigas(2048) * 1e3, "el resultado va en GB, no en MB: divide por mil millones de bytes."),
        (_gigas(2048) * 1e9, "eso son bytes: para pasarlos a GB, divide entre 10⁹ (mil millones de bytes)."),
    ]
    for esperado, texto in candidatos:
        if math.isclose(valor, esperado, rel_tol=0.02):
            return pista(texto)
    return pista("2 tablas (puntajes y pesos) × cabezas × bloques × L² números, 4 bytes cada uno, y divide entre "
                 "10⁹ (lección 07 y sección 6).")


def _referencia(q, k, v):
    L, d = q.shape
    puntajes = q @ k.T / math.sqrt(d)
    futuro = mascara_causal(L)
    return torch.softmax(puntajes.masked_fill(futuro, -math.inf), dim=-1) @ v


def _variantes(q, k, v):
    """Salidas de los errores frecuentes, para reconocerlos."""
    L, d = q.shape
    futuro = mascara_causal(L)
    puntajes = q @ k.T / math.sqrt(d)
    return {
        "escala": torch.softmax((q @ k.T).masked_fill(futuro, -math.inf), dim=-1) @ v,
        "mascara": torch.softmax(puntajes, dim=-1) @ v,
        "dimension": torch.nan_to_num(torch.softmax(puntajes.masked_fill(futuro, -math.inf), dim=0)) @ v,
        "cero": torch.softmax(puntajes.masked_fill(futuro, 0.0), dim=-1) @ v,
        # triu(diagonal=0): también la diagonal a −∞, y la fila 0 se queda sin nada que mirar (NaN).
        "diagonal": torch.softmax(puntajes.masked_fill(torch.triu(torch.ones(L, L, dtype=torch.bool)), -math.inf),
                                  dim=-1) @ v,
        "traspuesta": torch.softmax((k @ q.T / math.sqrt(d)).masked_fill(futuro, -math.inf), dim=-1) @ v,
        "escala_d": torch.softmax((q @ k.T / d).masked_fill(futuro, -math.inf), dim=-1) @ v,
    }


_PISTAS_11_4 = {
    "escala": "falta dividir los puntajes por √d antes del softmax (lección 03).",
    "mascara": "falta la máscara causal: pon −∞ por encima de la diagonal antes del softmax (lección 05).",
    "dimension": "el softmax va por filas (dim=-1): cada consulta reparte su atención entre las claves (lección 02).",
    "cero": "las celdas del futuro deben valer −∞, no 0, antes del softmax: un 0 todavía recibe peso (lección 05).",
    "diagonal": "tu máscara tapa también la diagonal: el primer carácter se queda sin nada que mirar y su fila sale "
                "NaN. Cada carácter sí puede mirarse a sí mismo: la máscara empieza justo encima de la diagonal, "
                "con diagonal=1 en torch.triu (lección 05).",
    "traspuesta": "los puntajes van al revés: calcula q @ k.T (cada fila, una consulta contra todas las claves), no "
                  "k @ q.T (lección 02).",
    "escala_d": "divide los puntajes por √d, la raíz cuadrada de d, no por d: con √d su desviación queda cerca de 1; "
                "con d quedan demasiado pequeños y el softmax reparte casi por igual (lección 03).",
}


@ejercicio("11.4")
def _atencion_causal(funcion):
    exigir_funcion(funcion, "comprobar('11.4', atencion_causal)")
    generador = torch.Generator().manual_seed(11)
    for L, d in ((5, 8), (7, 4)):
        q, k, v = (torch.randn(L, d, generator=generador, dtype=torch.float64) for _ in range(3))
        salida = llamar(funcion, q.clone(), k.clone(), v.clone(), forma=(L, d),
                        pista_forma="Devuelve la salida (L, d), no la tabla de pesos (L, L).")
        salida = salida.detach().double()
        if torch.allclose(salida, _referencia(q, k, v), atol=1e-6):
            continue
        for nombre, variante in _variantes(q, k, v).items():
            if torch.allclose(salida, variante, atol=1e-6, equal_nan=True):
                return pista(_PISTAS_11_4[nombre])
        if torch.isnan(salida).any():
            return pista("tu salida tiene NaN: alguna fila de puntajes quedó entera a −∞ antes del softmax. Revisa "
                         "la máscara: cada carácter debe poder mirarse al menos a sí mismo (lección 05).")
        return pista("la forma es correcta pero los números no: softmax(QKᵀ/√d con máscara) por V, paso a paso.")
    return bien("Es la atención de una cabeza del mini-GPT: las etapas «puntajes QKᵀ/√d», «puntajes con máscara», "
                "«pesos de atención» y «pesos · V por cabeza» del visualizador, en cuatro líneas.")


# Ejercicio 11.5: un ViT de parches 8 × 8 sobre imágenes de 32 × 32, con [CLS]. Se pregunta cuántas celdas de la
# tabla de pesos de una cabeza pueden recibir peso: hay que saber que no lleva máscara y contar sus «palabras».
LADO_11_5, PARCHE_11_5 = 32, 8


@ejercicio("11.5")
def _familia_del_vit(respuesta):
    valor = exigir_entero(respuesta, "un número entero de celdas")
    parches = (LADO_11_5 // PARCHE_11_5) ** 2
    n = parches + 1  # con [CLS]
    if valor == n * n:
        return bien("Un ViT es un codificador: sin máscara, cada parche (y [CLS]) ve a todos los demás, como BERT con "
                    "las palabras. La tabla entera recibe peso.")
    errores = {
        n * (n + 1) // 2: "esas son las celdas de una máscara causal; un ViT mira la imagen entera a la vez: ¿tiene "
                          "algún «futuro» que ocultar? (lecciones 07 y 09)",
        parches * parches: "falta el token [CLS]: también es una fila y una columna de la tabla (lección 09).",
        parches * (parches + 1) // 2: "con máscara causal y sin [CLS]: un ViT no oculta nada, y [CLS] también cuenta.",
        n: "eso es una fila de la tabla; la tabla tiene una fila y una columna por cada parche y por [CLS].",
        parches: "ese es el número de parches; se piden las celdas de la tabla de pesos, que compara parches con "
                 "parches.",
        LADO_11_5 * LADO_11_5: "la frase del ViT no son los píxeles sino los parches: cuenta cuántos parches de 8 × 8 "
                               "caben.",
    }
    if valor in errores:
        return pista(errores[valor])
    return pista("cuenta las «palabras» del ViT (los parches y [CLS]) y decide si su atención lleva máscara; la tabla "
                 "de pesos tiene una fila y una columna por palabra.")
