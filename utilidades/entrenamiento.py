"""Entrenar y medir: pérdida por posición, exactitud, evaluación y un bucle por épocas con progreso (lección 08)."""

import time

import torch
import torch.nn.functional as F

from utilidades.validacion import comprobar_objetivos


def perdida_por_posicion(logits, objetivos):
    """Entropía cruzada media de logits (lote, L, clases) frente a objetivos (lote, L)."""
    comprobar_objetivos(objetivos)  # enteros (torch.long), o un error claro
    return F.cross_entropy(logits.transpose(1, 2), objetivos)  # cross_entropy quiere (lote, clases, L)


def exactitud(logits, objetivos):
    """Fracción de aciertos de argmax(logits) en la última dimensión frente a `objetivos` (cualquier forma)."""
    return (logits.argmax(dim=-1) == objetivos).float().mean().item()


def exactitud_secuencias(logits, objetivos):
    """Fracción de secuencias (lote, L) acertadas enteras, sin un solo fallo."""
    return (logits.argmax(dim=-1) == objetivos).all(dim=-1).float().mean().item()


@torch.no_grad()
def perdida_y_exactitud(modelo, entradas, objetivos, funcion_perdida, tamano_lote=1000):
    """Devuelve {'perdida', 'exactitud'} (y 'secuencias' si cada objetivo es una secuencia) sin entrenar."""
    modelo.eval()
    dispositivo = next(modelo.parameters()).device
    logits = torch.cat([modelo(entradas[i:i + tamano_lote].to(dispositivo)).cpu()
                        for i in range(0, len(entradas), tamano_lote)])
    resultado = {"perdida": funcion_perdida(logits, objetivos).item(), "exactitud": exactitud(logits, objetivos)}
    if objetivos.dim() == 2:
        resultado["secuencias"] = exactitud_secuencias(logits, objetivos)
    return resultado


def entrenar(modelo, entradas, objetivos, funcion_perdida, *, validacion=None, epocas=2, tamano_lote=64, lr=1e-3,
             semilla=0, informe_cada=100, informe_epocas=1, mostrar=True, coseno=False):
    """Entrena con Adam y lotes barajados; imprime el progreso y devuelve el historial (dict de listas).

    Guarda la pérdida de cada paso (`perdida_paso`) y su media por tramos de `informe_cada` pasos (`perdida`),
    que imprime; al final de cada época mide `validacion` y lo imprime cada `informe_epocas` épocas (y en la
    última). Con `coseno=True` la tasa de aprendizaje baja suavemente (medio coseno) desde `lr` hasta 0.
    """
    if len(entradas) != len(objetivos):
        raise ValueError(
            f"Hay {len(entradas)} entradas y {len(objetivos)} objetivos: cada entrada necesita su objetivo."
        )
    comprobar_objetivos(objetivos)  # índices de clase enteros (torch.long)
    if epocas < 1 or tamano_lote < 1 or informe_epocas < 1:
        raise ValueError(f"epocas, tamano_lote e informe_epocas deben ser ≥ 1, pero son {epocas}, {tamano_lote} "
                         f"e {informe_epocas}.")
    dispositivo = next(modelo.parameters()).device
    # foreach: Adam trata todos los tensores a la vez (más rápido, los mismos números que el bucle corto)
    optimizador = torch.optim.Adam(modelo.parameters(), lr=lr, foreach=True)
    generador = torch.Generator().manual_seed(semilla)  # el mismo orden de lotes en cada ejecución
    pasos_por_epoca = (len(entradas) + tamano_lote - 1) // tamano_lote
    if coseno:
        programa = torch.optim.lr_scheduler.CosineAnnealingLR(optimizador, T_max=epocas * pasos_por_epoca)
    historial = {"perdida_paso": [], "paso": [], "perdida": [], "epoca": [], "perdida_epoca": [],
                 "val_perdida": [], "val_exactitud": [], "val_secuencias": []}
    inicio = time.perf_counter()
    paso = 0
    for epoca in range(1, epocas + 1):
        modelo.train()
        orden = torch.randperm(len(entradas), generator=generador)
        tramo, suma_epoca = [], 0.0
        for i in range(0, len(entradas), tamano_lote):
            # Lo esencial del bucle: un lote, la pérdida, los gradientes y un paso de Adam.
            indices = orden[i:i + tamano_lote]
            x, y = entradas[indices].to(dispositivo), objetivos[indices].to(dispositivo)
            perdida = funcion_perdida(modelo(x), y)
            optimizador.zero_grad()
            perdida.backward()
            optimizador.step()
            if coseno:
                programa.step()
            # Lo demás es contabilidad: anotar y avisar del progreso.
            paso += 1
            historial["perdida_paso"].append(perdida.item())
            tramo.append(perdida.item())
            suma_epoca += perdida.item()
            if (informe_cada and paso % informe_cada == 0) or i + tamano_lote >= len(entradas):
                historial["paso"].append(paso)
                historial["perdida"].append(sum(tramo) / len(tramo))
                tramo = []
                if mostrar and informe_cada and paso % informe_cada == 0:
                    print(f"época {epoca} · paso {paso:5d} ({paso - (epoca - 1) * pasos_por_epoca}/{pasos_por_epoca})"
                          f" · pérdida {historial['perdida'][-1]:.3f} · {time.perf_counter() - inicio:.1f} s (medido)")
        historial["epoca"].append(epoca)
        historial["perdida_epoca"].append(suma_epoca / pasos_por_epoca)
        avisar = mostrar and (epoca % informe_epocas == 0 or epoca == epocas)
        if avisar:
            print(f"época {epoca} terminada · pérdida media {historial['perdida_epoca'][-1]:.3f} · "
                  f"{time.perf_counter() - inicio:.1f} s (medido)")
        if validacion is not None:
            medida = perdida_y_exactitud(modelo, *validacion, funcion_perdida)
            historial["val_perdida"].append(medida["perdida"])
            historial["val_exactitud"].append(medida["exactitud"])
            historial["val_secuencias"].append(medida.get("secuencias"))
            if avisar:
                texto = f"  validación tras la época {epoca}: pérdida {medida['perdida']:.3f} · " \
                        f"exactitud {100 * medida['exactitud']:.1f} %"
                if "secuencias" in medida:
                    texto += f" · secuencias enteras {100 * medida['secuencias']:.1f} %"
                print(texto)
    historial["segundos"] = time.perf_counter() - inicio
    return historial
