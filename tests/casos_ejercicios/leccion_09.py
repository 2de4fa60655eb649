"""Casos de la prueba por tabla para los ejercicios de la lección 09 · Imágenes como frases."""

from casos_ejercicios import Adivinanza, Caso, Error


def _recomponer(secuencia, canales, alto, ancho, tam):
    rejilla = secuencia.reshape(alto // tam, ancho // tam, canales, tam, tam)
    return rejilla.permute(2, 0, 3, 1, 4).reshape(canales, alto, ancho)


def _recomponer_desordenada(secuencia, canales, alto, ancho, tam):
    return secuencia.reshape(canales, alto, ancho)  # la forma cuadra, el orden no


def _recomponer_sin_return(secuencia, canales, alto, ancho, tam):
    secuencia.reshape(canales, alto, ancho)


def _recomponer_forma_mala(secuencia, canales, alto, ancho, tam):
    return secuencia


def _recomponer_con_redondeo(secuencia, canales, alto, ancho, tam):
    return (_recomponer(secuencia, canales, alto, ancho, tam) + 1) - 1  # bien, salvo un redondeo de 1e-7


def _recomponer_que_cambia_numeros(secuencia, canales, alto, ancho, tam):
    return _recomponer(secuencia, canales, alto, ancho, tam) * 0.9  # el orden bien, los números no


CASOS = {
    "09.1": Caso(
        adivinanzas=[Adivinanza(197, "los 196 parches de 224 × 224 más [CLS], la cifra famosa del ViT"),
                     Adivinanza((384 // 16) ** 2, "sin [CLS]")],
        solucion=(384 // 16) ** 2 + 1,
        errores=[
            Error((384 // 16) ** 2, "¿no falta alguien"),
            Error(384 // 16 + 1, "filas × columnas parches."),
            Error(384 // 16, "una sola fila"),
            Error(384 * 384 // 16 + 1, "divide el número de píxeles entre 256"),
            Error(197, "¿cuántos parches de 16 caben"),
        ],
    ),
    "09.2": Caso(
        adivinanzas=[Adivinanza(768, "3 × 16 × 16, el parche de la lección"), Adivinanza(14 * 14, "en gris")],
        solucion=3 * 14 * 14,
        errores=[
            Error(14 * 14, "en gris"),
            Error(3 * 14, "un cuadrado de 14 × 14"),
            Error(768, "un parche de 16"),
            Error(14 * 14 + 1, "el [CLS] es otra"),
            Error(14 * 14 * 4, "un número por píxel y por canal"),
        ],
    ),
    "09.3": Caso(
        adivinanzas=[Adivinanza(_recomponer_desordenada, "un reshape directo a la forma de la imagen")],
        solucion=_recomponer,
        errores=[
            Error(_recomponer_desordenada, "no están en su sitio"),
            Error(_recomponer_sin_return, "no devuelve nada"),
            Error(_recomponer_forma_mala, "misma forma que la imagen"),
            Error(_recomponer_que_cambia_numeros, "los números han cambiado"),
        ],
        acepta=[_recomponer_con_redondeo],
    ),
    "09.4": Caso(
        adivinanzas=[Adivinanza(7 * 7 * 64, "sin [CLS]"),
                     Adivinanza(50, "las posiciones, sin multiplicar por d_modelo")],
        solucion=(7 * 7 + 1) * 64,
        errores=[
            Error(7 * 7 * 64, "el [CLS] también"),
            Error(7 * 7 + 1, "cuentas las posiciones"),
            Error(7 * 7, "cuentas los parches"),
            Error((28 * 28 + 1) * 64, "no una por píxel"),
            Error(544, "multiplica por d_modelo"),
        ],
    ),
}
