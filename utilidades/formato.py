"""Números para leer en castellano: miles separados con un espacio fino, nunca con coma (lección 11 y todo el curso).

En castellano «49,984» se lee como un número con decimales. El curso escribe los miles con un espacio fino que no
parte la línea (U+202F, el que recomiendan la RAE y el Sistema Internacional) y deja el punto decimal de Python:
`miles(49984)` da «49 984» y `miles(0.5, 2)` da «0.50».
"""

import numbers

ESPACIO_FINO = "\u202f"  # espacio fino que no parte la línea: 49 984


def miles(numero, decimales=0, *, cuatro_cifras=False, espacio=ESPACIO_FINO):
    """Devuelve `numero` como texto con los miles separados por un espacio fino y `decimales` decimales (con punto).

    Como pide la RAE, un número de cuatro cifras no se separa (1000) salvo con `cuatro_cifras=True`, útil en una
    columna junto a números más largos. Acepta int, float y escalares de NumPy o PyTorch. `espacio=" "` separa con
    un espacio normal, para un texto que se lee sin formato (como el README de datos/).
    """
    if hasattr(numero, "item") and getattr(numero, "ndim", 0) == 0:
        numero = numero.item()  # un escalar de NumPy o un tensor de un elemento
    if isinstance(numero, bool) or not isinstance(numero, numbers.Real):
        raise TypeError(f"miles() necesita un número, pero recibió {type(numero).__name__}: {numero!r}.")
    if not isinstance(decimales, int) or decimales < 0:
        raise ValueError(f"`decimales` debe ser un entero mayor o igual que 0, pero es {decimales!r}.")
    texto = f"{numero:,.{decimales}f}"
    entera = texto.lstrip("-").split(".")[0]
    if not cuatro_cifras and len(entera) <= 5:  # «1,000» tiene 5 caracteres: cuatro cifras y una coma
        texto = texto.replace(",", "")
    return texto.replace(",", espacio)
