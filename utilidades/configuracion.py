"""Preparación común de cada lección: dispositivo, semillas, estilo y versiones."""

import random

import numpy as np
import torch

from utilidades.graficos import aplicar_estilo

# La dirección del repositorio vive solo aquí; `python3 tareas.py enlaces` la copia en las lecciones y el README.
REPOSITORIO = "https://github.com/atencion-y-transformers/curso"
RAMA = "main"


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
    fijar_semillas(semilla)
    aplicar_estilo()
    dispositivo = elegir_dispositivo()
    if mostrar:
        print(f"{versiones()} · dispositivo: {dispositivo.type}")
    return dispositivo
