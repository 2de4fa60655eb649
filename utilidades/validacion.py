"""Comprobaciones de entrada con mensajes claros en castellano (qué pasó y qué cambiar)."""

import torch


def comprobar_tensor(nombre, x, dims_minimas=2):
    """Lanza TypeError/ValueError si `x` no es un tensor con al menos `dims_minimas` dimensiones."""
    if not isinstance(x, torch.Tensor):
        raise TypeError(
            f"{nombre} debe ser un tensor de PyTorch, pero es {type(x).__name__}. "
            f"Conviértelo con torch.tensor(...) o torch.as_tensor(...)."
        )
    if x.dim() < dims_minimas:
        raise ValueError(
            f"{nombre} debe tener al menos {dims_minimas} dimensiones (..., palabras, números), "
            f"pero tiene forma {tuple(x.shape)}. Si es una sola palabra, usa {nombre}.unsqueeze(0)."
        )


def comprobar_atencion(Q, K, V, mascara=None):
    """Comprueba que Q, K, V y la máscara encajan para la atención; si no, explica qué cambiar."""
    for nombre, x in (("Q", Q), ("K", K), ("V", V)):
        comprobar_tensor(nombre, x)
    if Q.shape[-1] != K.shape[-1]:
        raise ValueError(
            f"Q y K deben tener la misma dimensión d en su último eje para poder multiplicarse, "
            f"pero Q tiene forma {tuple(Q.shape)} (d = {Q.shape[-1]}) y K tiene forma {tuple(K.shape)} "
            f"(d = {K.shape[-1]}). Revisa las capas que producen consultas y claves."
        )
    if K.shape[-2] != V.shape[-2]:
        raise ValueError(
            f"K y V deben tener el mismo número de palabras (cada clave va con su valor), pero K tiene "
            f"{K.shape[-2]} y V tiene {V.shape[-2]} (formas {tuple(K.shape)} y {tuple(V.shape)})."
        )
    try:
        lotes = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
    except RuntimeError:
        raise ValueError(
            f"Las dimensiones de lote de Q {tuple(Q.shape)}, K {tuple(K.shape)} y V {tuple(V.shape)} "
            f"no son compatibles: todas salvo las dos últimas deben coincidir o valer 1."
        ) from None
    if mascara is None:
        return
    if not isinstance(mascara, torch.Tensor):
        raise TypeError(
            f"La máscara debe ser un tensor de PyTorch de tipo bool, pero es {type(mascara).__name__}."
        )
    if mascara.dtype != torch.bool:
        raise TypeError(
            f"La máscara debe ser de tipo bool (True = no se puede mirar), pero es {mascara.dtype}. "
            f"Si tienes unos y ceros donde 1 = prohibido, usa mascara.bool(); "
            f"si 1 = permitido, usa mascara == 0."
        )
    forma_puntajes = (*lotes, Q.shape[-2], K.shape[-2])
    try:
        forma = torch.broadcast_shapes(mascara.shape, forma_puntajes)
    except RuntimeError:
        forma = None
    if forma != forma_puntajes:
        raise ValueError(
            f"La máscara tiene forma {tuple(mascara.shape)}, que no encaja con la tabla de puntajes "
            f"{forma_puntajes} (consultas × claves). Debe tener {Q.shape[-2]} filas (una por consulta) y "
            f"{K.shape[-2]} columnas (una por clave), o 1 donde quieras repetirla."
        )


def comprobar_entrada_modelo(x, d_modelo):
    """Comprueba que `x` tiene forma (lote, L, d_modelo); si no, explica qué cambiar."""
    comprobar_tensor("x", x, dims_minimas=3)
    if x.dim() != 3 or x.shape[-1] != d_modelo:
        raise ValueError(
            f"La entrada debe tener forma (lote, L, d_modelo) = (lote, L, {d_modelo}), pero tiene "
            f"{tuple(x.shape)}. Si es una sola frase, usa x.unsqueeze(0); si la última dimensión no es "
            f"{d_modelo}, revisa el d_modelo con que creaste la capa."
        )
