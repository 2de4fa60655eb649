"""Lo que muestran el selector de cabezas (lección 04) y los conmutadores de máscaras (lección 05).

No se enseña en ninguna celda: son las figuras y los textos de los paneles, apartados de la capa
(`multicabeza.py`) y de las máscaras (`mascaras.py`).
"""

import torch

from utilidades.atencion import atencion
from utilidades.graficos import FONDO_OCULTO, mapa_de_calor
from utilidades.mascaras import combinar_mascaras, mascara_de_relleno

# --- Lección 04: el selector de cabezas -----------------------------------------------------------------


def favoritas(pesos, palabras):
    """Devuelve «Ana→plata 0.41 · sacó→…»: a qué palabra mira más cada palabra según una tabla (L, L)."""
    pesos = torch.as_tensor(pesos).detach().double()
    if pesos.shape != (len(palabras), len(palabras)):
        raise ValueError(
            f"La tabla de pesos tiene forma {tuple(pesos.shape)}, pero hay {len(palabras)} palabras: "
            f"elige una frase y una cabeza, por ejemplo pesos[0, 0]."
        )
    partes = []
    for palabra, fila in zip(palabras, pesos):
        mayor = fila.max()
        empatadas = [palabras[j] for j in torch.nonzero(mayor - fila < 1e-12).flatten().tolist()]
        # Un empate se dice: «el→todas» si la fila reparte por igual, «perro→del/vecino» si empatan varias.
        destino = "todas" if len(empatadas) == len(palabras) > 1 else "/".join(empatadas)
        partes.append(f"{palabra}→{destino} {mayor:.2f}")
    return " · ".join(partes)


def vista_de_cabeza(pesos, frases, frase, cabeza, nombres=None):
    """Lo que muestra el selector: (texto con la favorita de cada palabra, mapa de calor de una cabeza)."""
    # `pesos`: un tensor (lote, cabezas, L, L) o, si las frases tienen longitudes distintas, una lista con un
    # tensor (cabezas, L, L) por frase.
    n = len(pesos[frase])
    if not 0 <= cabeza < n:
        raise ValueError(f"La capa tiene {n} cabezas (0 a {n - 1}); pediste la {cabeza}.")
    palabras = frases[frase]
    tabla = pesos[frase][cabeza]  # (L, L)
    nombre = f"cabeza {cabeza}" + (f" ({nombres[cabeza]})" if nombres else "")
    texto = f"{nombre}, «{' '.join(palabras)}»: " + favoritas(tabla, palabras)
    fig, _ = mapa_de_calor(tabla, palabras, palabras, valores=True, titulo=nombre,
                           etiqueta_filas="palabra que mira (consulta)", etiqueta_columnas="palabra mirada (clave)",
                           etiqueta_barra="peso")
    return texto, fig


# --- Lección 05: los conmutadores de máscaras -----------------------------------------------------------

RELLENO = "‹relleno›"  # el token de relleno, tal como se ve en las figuras


def rellenar(frases, L=None, izquierda=False):
    """Devuelve (frases completadas con «‹relleno›» hasta L palabras, longitudes reales)."""
    longitudes = [len(f) for f in frases]
    L = max(longitudes) if L is None else L
    if izquierda:
        return [[RELLENO] * (L - len(f)) + list(f) for f in frases], longitudes
    return [list(f) + [RELLENO] * (L - len(f)) for f in frases], longitudes


def mascara_elegida(longitudes, L, causal, relleno):
    """La máscara (lote, L, L) que piden los conmutadores: relleno, causal, las dos o ninguna."""
    columnas = mascara_de_relleno(longitudes, L) if relleno else torch.zeros(len(longitudes), L, dtype=torch.bool)
    return combinar_mascaras(columnas, causal=causal)


def vista_de_mascaras(Q, K, frases, frase, causal, relleno):
    """Lo que muestran los conmutadores: (texto con las celdas visibles, mapa de calor con lo oculto tachado).

    `Q` y `K` son (lote, L, d): cada frase con sus propias consultas y claves.
    """
    rellenas, longitudes = rellenar(frases, Q.shape[-2])
    L = len(rellenas[0])
    mascara = mascara_elegida(longitudes, L, causal, relleno)[frase]  # (L, L)
    _, pesos = atencion(Q[frase], K[frase], K[frase], mascara)
    palabras = rellenas[frase]
    visibles = int((~mascara).sum())
    texto = (f"«{' '.join(palabras)}» · causal: {'sí' if causal else 'no'} · relleno: {'sí' if relleno else 'no'}"
             f" · {visibles} de {L * L} celdas visibles · cada fila suma "
             + " ".join(f"{s:.2f}" for s in pesos.sum(dim=-1).tolist()))
    # El título dice qué frase y qué máscaras; lo oculto, tachado y en color arena (un peso casi 0 sale casi blanco).
    titulo = (f"«{' '.join(p for p in palabras if p != RELLENO)}» · causal: {'sí' if causal else 'no'}"
              f" · relleno: {'sí' if relleno else 'no'}")
    fig, _ = mapa_de_calor(pesos, palabras, palabras, valores=True, oculto=mascara, relleno_oculto=FONDO_OCULTO,
                           titulo=titulo,
                           etiqueta_filas="palabra que mira (consulta)", etiqueta_columnas="palabra mirada (clave)")
    return texto, fig
