"""Medir el coste de la atención: tiempo, memoria de los tensores creados y pendiente en ejes log-log (lección 07)."""

import math
import time
import weakref

import torch

# Contar la memoria usa dos módulos internos de PyTorch (empiezan por «_»: pueden cambiar de una versión a otra).
# Si faltan, el resto del módulo sigue funcionando y `memoria_pico` explica qué pasa.
try:
    from torch.utils._python_dispatch import TorchDispatchMode
    from torch.utils._pytree import tree_leaves
except ImportError as error:  # pragma: no cover - depende de la versión de PyTorch
    TorchDispatchMode, tree_leaves = object, None
    _SIN_CONTADOR = error
else:
    _SIN_CONTADOR = None


class _ContadorDeMemoria(TorchDispatchMode):
    """Anota los bytes de cada tensor nuevo que crea una operación y cuándo se libera; guarda el pico en `pico`."""

    def __init__(self):
        super().__init__()
        self.actual = 0
        self.pico = 0
        self._vivos = {}  # dirección del almacén -> [bytes, tensores que lo usan]

    def _soltar(self, clave):
        entrada = self._vivos.get(clave)
        if entrada is None:
            return
        entrada[1] -= 1
        if entrada[1] == 0:  # ya nadie usa ese almacén: se libera
            self.actual -= entrada[0]
            del self._vivos[clave]

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        salida = func(*args, **(kwargs or {}))
        for t in tree_leaves(salida):
            if not isinstance(t, torch.Tensor) or t.device.type != "cpu":
                continue
            clave = t.untyped_storage().data_ptr()
            if clave in self._vivos:  # una vista de un tensor creado aquí: comparte memoria
                self._vivos[clave][1] += 1
            elif any(isinstance(a, torch.Tensor) and a.untyped_storage().data_ptr() == clave
                     for a in tree_leaves((args, kwargs))):
                continue  # una vista de una entrada: no ocupa memoria nueva
            else:
                bytes_nuevos = t.untyped_storage().nbytes()
                self._vivos[clave] = [bytes_nuevos, 1]
                self.actual += bytes_nuevos
                self.pico = max(self.pico, self.actual)
            weakref.finalize(t, self._soltar, clave)
        return salida


def memoria_pico(funcion, *argumentos):
    """Bytes del pico de memoria de los tensores que crea `funcion(*argumentos)` (sin contar las entradas).

    Cuenta los tensores que devuelve cada operación de PyTorch; los búferes internos de un núcleo fusionado
    (unos pocos bloques pequeños por hilo) no se ven.
    """
    if _SIN_CONTADOR is not None:
        raise RuntimeError(
            f"Esta versión de PyTorch ({torch.__version__}) no tiene las piezas internas con las que el curso cuenta "
            f"la memoria ({_SIN_CONTADOR}). Usa la versión que fija el curso en requirements.in "
            f"(`python3 tareas.py abrir` la instala); el resto de la lección funciona igual.")
    with torch.no_grad(), _ContadorDeMemoria() as contador:
        resultado = funcion(*argumentos)
    del resultado
    return contador.pico


def mejor_tiempo(funcion, *argumentos, repeticiones=5, segundos_minimos=0.1, hilos=1):
    """Segundos de la llamada más rápida a `funcion(*argumentos)` con `hilos` hilos, tras una de calentamiento.

    Repite al menos `repeticiones` veces y, si es muy rápida, hasta sumar `segundos_minimos` (como mucho 200 veces).
    El mínimo es la medida menos afectada por otros programas que usan la máquina a la vez; con un solo hilo, la
    medida tampoco depende de cuántos núcleos estén libres.
    """
    if repeticiones < 1:
        raise ValueError(f"repeticiones debe ser al menos 1, pero es {repeticiones}.")
    hilos_antes = torch.get_num_threads()
    torch.set_num_threads(hilos)
    tiempos = []
    try:
        with torch.no_grad():
            funcion(*argumentos)  # calentamiento: la primera llamada prepara memoria y núcleos
            while len(tiempos) < repeticiones or (sum(tiempos) < segundos_minimos and len(tiempos) < 200):
                inicio = time.perf_counter()
                funcion(*argumentos)
                tiempos.append(time.perf_counter() - inicio)
    finally:
        torch.set_num_threads(hilos_antes)
    return min(tiempos)


def pendiente_loglog(xs, ys):
    """Pendiente de la recta que mejor ajusta log(ys) frente a log(xs): si ys ∝ xs^p, devuelve ≈ p."""
    if len(xs) != len(ys) or len(xs) < 2:
        raise ValueError(f"Hacen falta al menos dos puntos y tantos xs como ys (hay {len(xs)} y {len(ys)}).")
    if min(xs) <= 0 or min(ys) <= 0:
        raise ValueError("Los ejes log-log solo admiten números positivos; quita los ceros o negativos.")
    lx = [math.log(x) for x in xs]
    ly = [math.log(y) for y in ys]
    mx, my = sum(lx) / len(lx), sum(ly) / len(ly)
    return sum((a - mx) * (b - my) for a, b in zip(lx, ly)) / sum((a - mx) ** 2 for a in lx)
