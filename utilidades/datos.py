"""Datos del curso: secuencias de dígitos para invertir (lección 08)."""

import torch


def secuencias_invertidas(n, largo=8, digitos=10, generador=None):
    """Devuelve (entradas, objetivos): n secuencias (n, largo) de dígitos al azar y las mismas al revés."""
    if n < 1 or largo < 1 or digitos < 2:
        raise ValueError(
            f"Necesito n ≥ 1, largo ≥ 1 y al menos 2 dígitos distintos, pero recibí n = {n}, largo = {largo}, "
            f"digitos = {digitos}."
        )
    entradas = torch.randint(0, digitos, (n, largo), generator=generador)  # (n, largo)
    objetivos = entradas.flip(1)  # la misma secuencia leída de derecha a izquierda
    return entradas, objetivos


def datos_invertir_digitos(n_entrenamiento=20_000, n_validacion=2_000, largo=8, digitos=10, semilla=0):
    """Devuelve (x_ent, y_ent, x_val, y_val) con un generador sembrado: siempre los mismos datos."""
    generador = torch.Generator().manual_seed(semilla)
    x_ent, y_ent = secuencias_invertidas(n_entrenamiento, largo, digitos, generador)
    x_val, y_val = secuencias_invertidas(n_validacion, largo, digitos, generador)
    return x_ent, y_ent, x_val, y_val
