"""Casos de la lección 05 para la prueba por tabla de los ejercicios."""

import torch

from casos_ejercicios import Adivinanza, Caso, Error


def _ventana(L, ventana):
    i = torch.arange(L)[:, None]
    j = torch.arange(L)[None, :]
    return (j > i) | (i - j > ventana)


def _al_reves(L, ventana):
    return ~_ventana(L, ventana)


def _con_diagonal(L, ventana):
    return _ventana(L, ventana) | torch.eye(L, dtype=torch.bool)


def _sin_futuro(L, ventana):
    i = torch.arange(L)[:, None]
    j = torch.arange(L)[None, :]
    return (i - j).abs() > ventana


def _enteros(L, ventana):
    return _ventana(L, ventana).int()


def _ventana_corrida(L, ventana):
    i = torch.arange(L)[:, None]
    j = torch.arange(L)[None, :]
    return (j > i) | (i - j >= ventana)


def _ventana_ancha(L, ventana):
    """Deja ver una palabra anterior de más (p. ej., con tril(-ventana - 2) para lo de atrás)."""
    return _ventana(L, ventana + 1)


def _dos_de_mas(L, ventana):
    i = torch.arange(L)[:, None]
    j = torch.arange(L)[None, :]
    return (j > i) | (i - j > ventana + 2)


def _al_principio(L, ventana):
    """La ventana contada desde el principio de la frase: cada palabra ve las primeras, no las más cercanas."""
    i = torch.arange(L)[:, None]
    j = torch.arange(L)[None, :]
    return (j > i) | ((j >= ventana) & (j < i))


def _lista(L, ventana):
    return _ventana(L, ventana).tolist()


def _en_numpy(L, ventana):
    return _ventana(L, ventana).numpy()


def _solo_causal(L, ventana):
    return torch.ones(L, L, dtype=torch.bool).triu(1)


def _longitudes(relleno):
    return (~relleno).sum(dim=-1)


def _donde_empieza_el_relleno(relleno):
    """Busca la primera posición de relleno: vale con el relleno detrás, no con el relleno delante."""
    L = relleno.shape[-1]
    return torch.where(relleno.any(dim=-1), relleno.int().argmax(dim=-1), torch.tensor(L))


def _cuenta_relleno(relleno):
    return relleno.sum(dim=-1)


def _suma_todo(relleno):
    return (~relleno).sum()


def _suma_por_columnas(relleno):
    return (~relleno).sum(dim=0)


def _sin_return(relleno):
    (~relleno).sum(dim=-1)


def _ambas(relleno):
    L = relleno.shape[-1]
    return relleno[:, None, :] | torch.ones(L, L, dtype=torch.bool).triu(1)


def _aditiva_de(mascara, oculto=float("-inf")):
    return torch.zeros(mascara.shape).masked_fill(mascara, oculto)


def _para_sdpa(relleno):
    return _aditiva_de(_ambas(relleno))


def _para_sdpa_float64(relleno):
    return _aditiva_de(_ambas(relleno)).double()


def _para_sdpa_numpy(relleno):
    return _aditiva_de(_ambas(relleno)).numpy()


def _para_sdpa_menos_mil_millones(relleno):
    """−1e9 en vez de −∞, como hacen muchos modelos: también da peso 0."""
    return _aditiva_de(_ambas(relleno), -1e9)


def _sdpa_booleana(relleno):
    return ~_ambas(relleno)


def _la_del_curso(relleno):
    return _ambas(relleno)


def _aditiva_al_reves(relleno):
    return _aditiva_de(~_ambas(relleno))


def _unos(relleno):
    return _ambas(relleno).float()


def _sin_causal(relleno):
    L = relleno.shape[-1]
    return _aditiva_de(relleno[:, None, :].expand(-1, L, L))


def _sin_relleno(relleno):
    L = relleno.shape[-1]
    return _aditiva_de(torch.ones(L, L, dtype=torch.bool).triu(1).expand(relleno.shape[0], L, L))


def _filas_del_relleno(relleno):
    L = relleno.shape[-1]
    return _aditiva_de(relleno[:, :, None] | torch.ones(L, L, dtype=torch.bool).triu(1))


def _solo_columnas(relleno):
    return _aditiva_de(relleno)


def _menos_uno(relleno):
    """−1 en vez de −∞: resta un poco de puntaje, pero la celda sigue recibiendo peso."""
    return _aditiva_de(_ambas(relleno), -1.0)


def _menos_cien(relleno):
    """−100 en vez de −∞: en float32, e^(−100) aún no es 0, y la celda recibe algo de peso."""
    return _aditiva_de(_ambas(relleno), -100.0)


def _menos_mil(relleno):
    """−1000 en vez de −∞: con los puntajes de la lección ya da peso 0, pero no oculta con cualquier puntaje."""
    return _aditiva_de(_ambas(relleno), -1000.0)


def _diagonal_oculta(relleno):
    L = relleno.shape[-1]
    return _aditiva_de(_ambas(relleno) | torch.eye(L, dtype=torch.bool))


CASOS = {
    "05.1": Caso(
        adivinanzas=[Adivinanza(50, "la mitad de la tabla"),
                     Adivinanza(100, "la tabla entera"),
                     Adivinanza(45, "las ocultas")],
        solucion=55,
        errores=[Error(45, "¿cuentas la propia palabra?"), Error(50, "diagonal"), Error(100, "todas las celdas"),
                 Error(10, "frase corta"), Error(55.5, "sin decimales"),
                 Error(55 + 1e-7, "tu respuesta vale 55.0000001")],
    ),
    "05.2": Caso(
        adivinanzas=[Adivinanza(_solo_causal, "la máscara causal de la lección, sin ventana")],
        solucion=_ventana,
        errores=[Error(_al_reves, "al revés"), Error(_con_diagonal, "diagonal debe ser False"),
                 Error(_sin_futuro, "futuro"), Error(_enteros, "tipo bool"),
                 Error(_ventana_corrida, "una palabra anterior de menos"),
                 Error(_ventana_ancha, "una palabra anterior de más"),
                 Error(_dos_de_mas, "¿cuántas anteriores tiene esa palabra"),
                 Error(_al_principio, "no las más cercanas"),
                 Error(_solo_causal, "esa es la máscara causal"),
                 Error(_lista, "devuelve una lista")],
        acepta=[_en_numpy],
    ),
    "05.3": Caso(
        adivinanzas=[Adivinanza(36, "solo la causal de 8"),
                     Adivinanza(25, "las 5 × 5 palabras reales"),
                     Adivinanza(40, "solo el relleno")],
        solucion=30,
        errores=[Error(36, "solo con la máscara causal"), Error(40, "solo con el relleno"),
                 Error(15, "pusiste el relleno delante"), Error(64, "dibuja la tabla")],
    ),
    "05.4": Caso(
        solucion=_longitudes,
        errores=[Error(_cuenta_relleno, "has contado el relleno"), Error(_suma_todo, "devuelve un solo número"),
                 Error(_suma_por_columnas, "devuelve forma (5,)"),
                 Error(_sin_return, "no devuelve nada"), Error(_donde_empieza_el_relleno, "relleno delante")],
        adivinanzas=[Adivinanza(_donde_empieza_el_relleno, "la posición del primer relleno: solo vale con el relleno "
                                                           "detrás (la lección enseña también el relleno delante)")],
    ),
    "05.5": Caso(
        solucion=_para_sdpa,
        tipos=False,
        acepta=[_para_sdpa_float64, _para_sdpa_numpy, _para_sdpa_menos_mil_millones],
        # Multiplicar 0 y −∞ por 1.3 o 0.7 no cambia nada: las respuestas desviadas son otras máscaras.
        desviadas=[_menos_uno, _diagonal_oculta],
        errores=[Error(_sdpa_booleana, "booleana que entiende"), Error(_la_del_curso, "tal cual"),
                 Error(_aditiva_al_reves, "al revés"), Error(_unos, "sumar 1"),
                 Error(_sin_causal, "falta la máscara causal"), Error(_sin_relleno, "falta el relleno"),
                 Error(_filas_del_relleno, "sus columnas (las claves)"),
                 Error(_solo_columnas, "falta una fila por cada palabra"),
                 Error(_menos_uno, "vale -1 en tu máscara: eso solo resta 1"),
                 Error(_menos_cien, "vale -100 en tu máscara: eso solo resta 100"),
                 Error(_menos_mil, "pero no con cualquiera")],
        adivinanzas=[Adivinanza(_la_del_curso, "la máscara del curso sin convertir"),
                     Adivinanza(_sdpa_booleana, "la máscara booleana de SDPA, que el enunciado no pide"),
                     Adivinanza(_sin_causal, "combinar_mascaras(relleno) sin la causal, en forma aditiva")],
    ),
}
