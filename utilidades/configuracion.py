"""Preparación común de cada lección: dispositivo, semillas, estilo y versiones."""

import random

import numpy as np
import torch

from utilidades.graficos import aplicar_estilo

# La dirección del repositorio vive solo aquí; `python3 tareas.py enlaces` la copia en las lecciones y el README.
REPOSITORIO = "https://github.com/atencion-y-transformers/curso"
RAMA = "main"


# La versión más antigua de PyTorch con la que funciona el curso: el optimizador del mini-GPT (lección 10) usa AdamW
# fusionado en la CPU, que llegó en torch 2.4. Colab trae su propia versión, más nueva.
TORCH_MINIMO = (2, 4)


def comprobar_torch(version=None):
    """Lanza un error claro si la versión de PyTorch (`torch.__version__` si no se da) es anterior a TORCH_MINIMO."""
    version = version or torch.__version__
    numeros = []
    for parte in version.split("+")[0].split(".")[:2]:
        digitos = "".join(c for c in parte if c.isdigit())
        numeros.append(int(digitos or 0))
    if tuple(numeros) < TORCH_MINIMO:
        minimo = ".".join(map(str, TORCH_MINIMO))
        raise RuntimeError(
            f"Este curso necesita PyTorch {minimo} o más nuevo, y aquí hay la {version}. En tu ordenador, abre el "
            f"curso con `python3 tareas.py abrir`, que instala la versión fijada en requirements.in; en Colab, "
            f"actualízalo con `!pip install -U torch` y reinicia la sesión.")


def elegir_dispositivo():
    """Devuelve torch.device: 'cuda' si hay GPU NVIDIA, 'mps' en un Mac con Apple Silicon, si no 'cpu'."""
    if torch.cuda.is_available():
        return torch.device("cuda")
    mps = getattr(torch.backends, "mps", None)
    if mps is not None and mps.is_available():
        return torch.device("mps")
    return torch.device("cpu")


def fijar_semillas(semilla=0):
    """Fija las semillas de random, NumPy y PyTorch para que cada ejecución dé lo mismo."""
    random.seed(semilla)
    np.random.seed(semilla)
    torch.manual_seed(semilla)


def versiones():
    """Devuelve un texto corto con las versiones que importan para reproducir los resultados."""
    import matplotlib

    torch_version = torch.__version__.split("+")[0]
    return f"torch {torch_version} · numpy {np.__version__} · matplotlib {matplotlib.__version__}"


def preparar(semilla=0, mostrar=True):
    """Fija semillas, aplica el estilo de las figuras y devuelve el dispositivo (imprime versiones si `mostrar`)."""
    comprobar_torch()  # una versión demasiado antigua de PyTorch, dicho en castellano
    fijar_semillas(semilla)
    aplicar_estilo()
    dispositivo = elegir_dispositivo()
    if mostrar:
        print(f"{versiones()} · dispositivo: {dispositivo.type}")
    return dispositivo
