"""Escala √d y temperatura (lección 03): por qué se divide por √d y cómo la temperatura concentra la atención."""

import math

import matplotlib.pyplot as plt
import numpy as np
import torch

from utilidades.graficos import ACENTO, GRIS, TINTA, barras_de_pesos


def softmax_con_temperatura(puntajes, T=1.0):
    """Devuelve exp(s_j / T) / Σ exp(s_m / T) sobre la última dimensión (misma forma que `puntajes`)."""
    if T <= 0:
        raise ValueError(
            f"La temperatura debe ser positiva, pero vale {T}. Con T cerca de 0 la atención se concentra en "
            f"el puntaje mayor; con T grande se reparte por igual. Prueba con T = 0.25, 1 o 4."
        )
    return torch.softmax(puntajes / T, dim=-1)


def experimento_de_escala(dimensiones, consultas=1000, claves=8, semilla=0):
    """Compara puntajes crudos q·k y escalados q·k/√d; devuelve {d: {"desviacion_cruda": ..., ...}}."""
    resultados = {}
    for d in dimensiones:
        generador = torch.Generator().manual_seed(semilla)  # misma semilla en cada d: cifras del deslizador
        Q = torch.randn(consultas, d, generator=generador)  # (consultas, d)
        K = torch.randn(claves, d, generator=generador)  # (claves, d)
        crudos = Q @ K.T  # (consultas, claves)
        escalados = crudos / math.sqrt(d)
        resultados[d] = {
            "desviacion_cruda": crudos.std().item(),
            "desviacion_escalada": escalados.std().item(),
            "peso_mayor_crudo": torch.softmax(crudos, dim=-1).max(dim=-1).values.mean().item(),
            "peso_mayor_escalado": torch.softmax(escalados, dim=-1).max(dim=-1).values.mean().item(),
        }
    return resultados


# --- Lo que dibujan y escriben las figuras y los deslizadores de la lección (no se enseña en una celda) ---

PUNTAJES_EJEMPLO = [2.0, 1.0, 0.5, -1.0]
PALABRAS_EJEMPLO = ["plata", "sacó", "Ana", "del"]


def texto_de_porcentajes(pesos, etiquetas):
    """Devuelve una línea «plata 61 % · sacó 22 % · …» con los pesos en porcentaje entero."""
    pesos = torch.as_tensor(pesos, dtype=torch.float64).ravel()
    if len(etiquetas) != len(pesos):
        raise ValueError(f"Hay {len(pesos)} pesos y {len(etiquetas)} etiquetas: deben coincidir.")
    return " · ".join(f"{e} {100 * p:.0f} %" for e, p in zip(etiquetas, pesos.tolist()))


def vista_de_temperatura(T, puntajes=None, etiquetas=None):
    """Lo que muestra el deslizador de T: devuelve (texto con los porcentajes, figura de barras)."""
    puntajes = torch.tensor(PUNTAJES_EJEMPLO if puntajes is None else puntajes, dtype=torch.float64)
    etiquetas = PALABRAS_EJEMPLO if etiquetas is None else etiquetas
    pesos = softmax_con_temperatura(puntajes, T)
    texto = f"T = {T:.2f}: " + texto_de_porcentajes(pesos, etiquetas)
    fig, ax = barras_de_pesos(pesos, etiquetas, titulo=f"Pesos con temperatura T = {T:.2f}")
    # El rótulo de la línea va en una leyenda arriba a la derecha: escrito junto a la línea, con T grande chocaba con
    # el porcentaje de la última barra, que queda a la misma altura (≈ 25 %).
    ax.axhline(1 / len(etiquetas), color=GRIS, lw=1.2, ls="--", label="reparto igual")
    ax.legend(loc="upper right")
    return texto, fig


def _puntajes_crudos(d, consultas, claves, semilla):
    """Los puntajes q·k del experimento (mismas consultas y claves que experimento_de_escala), aplanados."""
    generador = torch.Generator().manual_seed(semilla)
    Q = torch.randn(consultas, d, generator=generador)
    K = torch.randn(claves, d, generator=generador)
    return (Q @ K.T).ravel().numpy()


def vista_de_escala(d, consultas=1000, claves=8, semilla=0, d_maximo=512):
    """Lo que muestra el deslizador de d: devuelve (texto con las cifras, figura con los dos histogramas).

    El eje de los puntajes es el mismo para todo d (hasta `d_maximo`, el tope del deslizador): así, al mover d, se
    ve el histograma rojo ensancharse y el azul quedarse quieto. Con un eje que se ajustara a cada d, el rojo
    llenaría siempre el marco y parecería que es el azul el que encoge.
    """
    r = experimento_de_escala([d], consultas, claves, semilla)[d]
    crudos = _puntajes_crudos(d, consultas, claves, semilla)
    escalados = crudos / math.sqrt(d)
    texto = (
        f"d = {d}: desviación cruda {r['desviacion_cruda']:.2f} (√d = {math.sqrt(d):.1f}), "
        f"escalada {r['desviacion_escalada']:.2f} · peso mayor medio {r['peso_mayor_crudo']:.2f} sin escalar, "
        f"{r['peso_mayor_escalado']:.2f} escalado"
    )
    fig, ejes = plt.subplots(1, 2, figsize=(11, 3.8))
    # Cada histograma con sus propias barras (60 en su rango: los escalados no quedan en tres barras anchas). Con
    # anchos de barra distintos, las cuentas no se comparan; la densidad (proporción por unidad de puntaje) sí: el
    # área de cada histograma es 1. Al ensancharse, el rojo baja (con d = 512, su pico queda muy por debajo del azul):
    # en escala logarítmica los dos se ven, y el ancho de cada uno se lee igual de bien.
    for valores, color, nombre in ((crudos, ACENTO, "q·k (sin escalar)"), (escalados, TINTA, "q·k / √d")):
        limite = max(1.0, float(np.abs(valores).max()))
        ejes[0].hist(valores, bins=np.linspace(-limite, limite, 61), density=True, log=True, color=color, alpha=0.75,
                     label=nombre)
    # Fijo para todo d, como el eje de los puntajes. Los datos no pasan de una densidad ≈ 1 (el pico central con
    # d = 1): hasta 30 queda década y media libre arriba para la leyenda (con un tope de 3, su borde inferior rozaba
    # ese pico; con uno de 1000, medio panel quedaba vacío y la caída del histograma rojo se apretaba abajo).
    ejes[0].set_ylim(1e-4, 30)
    tope = max(float(np.abs(crudos).max()),
               float(np.abs(_puntajes_crudos(max(d, d_maximo), consultas, claves, semilla)).max()))
    ejes[0].set_xlim(-1.05 * tope, 1.05 * tope)
    ejes[0].set_title(f"Puntajes con d = {d}")
    ejes[0].set_xlabel("puntaje")
    ejes[0].set_ylabel("densidad (área 1, escala log.)")
    # La leyenda, en una sola línea en la década libre de arriba: en una esquina, en dos líneas, llegaba hasta el
    # pico de d = 1, que está en el centro.
    ejes[0].legend(loc="upper center", ncol=2)
    ejes[1].bar([0, 1], [r["peso_mayor_crudo"], r["peso_mayor_escalado"]], color=[ACENTO, TINTA])
    ejes[1].axhline(1 / claves, color=GRIS, lw=1.2, ls="--", label=f"reparto igual (1/{claves})")
    ejes[1].set_xticks([0, 1])
    ejes[1].set_xticklabels(["sin escalar", "÷ √d"])
    ejes[1].set_ylim(0, 1.05)
    ejes[1].set_ylabel("peso mayor medio")
    ejes[1].set_title(f"¿Cuánto se lleva la clave favorita? ({claves} claves)")
    ejes[1].legend(loc="upper right")  # la barra de la derecha (÷ √d) no pasa de 0.4: arriba queda libre
    fig.tight_layout()
    return texto, fig
