"""Comprobaciones de entrada con mensajes claros en castellano (qué pasó y qué cambiar)."""

import operator

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


def comprobar_entrada_modelo(x, d_modelo, tipo=None):
    """Comprueba que `x` tiene forma (lote, L, d_modelo) y decimales del `tipo` de los pesos; si no, explica qué
    cambiar."""
    comprobar_tensor("x", x, dims_minimas=3)
    if x.dim() != 3 or x.shape[-1] != d_modelo:
        raise ValueError(
            f"La entrada debe tener forma (lote, L, d_modelo) = (lote, L, {d_modelo}), pero tiene "
            f"{tuple(x.shape)}. Si es una sola frase, usa x.unsqueeze(0); si la última dimensión no es "
            f"{d_modelo}, revisa el d_modelo con que creaste la capa."
        )
    comprobar_decimales("x", x, tipo, consejo=" Si son índices de palabras, pásalos antes por un nn.Embedding, "
                                             "que da un vector por índice.")


def _conversion(nombre, tipo):
    """Cómo se escribe la conversión de `nombre` al tipo `tipo`: x.float(), x.double() o x.to(torch.float16)."""
    return {torch.float32: f"{nombre}.float()", torch.float64: f"{nombre}.double()"}.get(tipo, f"{nombre}.to({tipo})")


def comprobar_decimales(nombre, x, tipo=None, consejo=""):
    """Lanza TypeError si el tensor `x` no es de decimales o si no es del `tipo` de los pesos que lo multiplican."""
    if tipo is None:
        tipo = torch.get_default_dtype()
        if not x.is_floating_point():
            raise TypeError(
                f"{nombre} es un tensor de enteros ({x.dtype}), pero la capa necesita decimales. "
                f"Conviértelo con {_conversion(nombre, tipo)}.{consejo}"
            )
        return
    if x.dtype == tipo or (x.is_floating_point() and torch.is_autocast_enabled(x.device.type)):
        return  # con autocast, PyTorch convierte él mismo los tipos de cada multiplicación
    if not x.is_floating_point():
        raise TypeError(
            f"{nombre} es un tensor de enteros ({x.dtype}), pero los pesos del modelo son decimales ({tipo}). "
            f"Conviértelo con {_conversion(nombre, tipo)}.{consejo}"
        )
    raise TypeError(
        f"{nombre} es de tipo {x.dtype} y los pesos del modelo son {tipo}: deben ser del mismo tipo para "
        f"multiplicarse. "
        f"Convierte la entrada con {_conversion(nombre, tipo)}, o el modelo entero con "
        f"{_conversion('modelo', x.dtype)} si quieres trabajar en {x.dtype}."
    )


def comprobar_mascara_bool(nombre, mascara):
    """Lanza TypeError, con la conversión que hace falta, si `mascara` no es un tensor bool."""
    if not isinstance(mascara, torch.Tensor):
        raise TypeError(
            f"`{nombre}` debe ser un tensor bool (True = no se puede mirar), pero es {type(mascara).__name__}. "
            f"Conviértela con torch.tensor(..., dtype=torch.bool)."
        )
    if mascara.dtype != torch.bool:
        raise TypeError(
            f"`{nombre}` debe ser un tensor bool (True = no se puede mirar), pero es {mascara.dtype}. "
            f"Si tienes unos y ceros donde 1 = prohibido, usa {nombre}.bool(); si 1 = permitido, usa {nombre} == 0."
        )


def comprobar_relleno(relleno):
    """Comprueba que `relleno` es una máscara de relleno: bool de forma (lote, L); si no, explica qué cambiar."""
    comprobar_mascara_bool("relleno", relleno)
    if relleno.dim() != 2:
        raise ValueError(
            f"La máscara de relleno debe tener forma (lote, L), una fila por frase, pero tiene forma "
            f"{tuple(relleno.shape)}. Si es una sola frase, usa relleno.unsqueeze(0); para crearla, "
            f"usa mascara_de_relleno(longitudes, L)."
        )


def comprobar_entero(nombre, valor, significado, minimo=0):
    """Lanza un error claro si `valor` no es un número entero ≥ `minimo`; `significado` dice qué cuenta."""
    try:
        entero = operator.index(valor)  # int, entero de NumPy o tensor entero de un solo número
    except TypeError:
        entero = None
    if entero is None or isinstance(valor, bool):
        raise TypeError(
            f"{nombre} es {significado}: debe ser un número entero, pero es {valor!r} "
            f"({type(valor).__name__}). Usa, por ejemplo, int({nombre})."
        ) from None
    if entero < minimo:
        raise ValueError(f"{nombre} es {significado}: debe ser un entero mayor o igual que {minimo}, pero es {entero}.")


def comprobar_enteros(nombre, valores):
    """Lanza TypeError si el tensor `valores` tiene decimales (o es bool) en lugar de números enteros."""
    if valores.numel() and (valores.dtype == torch.bool or valores.is_floating_point() or valores.is_complex()):
        raise TypeError(
            f"{nombre} deben ser números enteros, pero son {valores.tolist()} ({valores.dtype}). "
            f"Escríbelos sin decimales, por ejemplo [3, 2]; si ya son un tensor de números redondos, "
            f"conviértelo con .long()."
        )


def comprobar_objetivos(objetivos):
    """Lanza un error claro si `objetivos` no son índices de clase enteros (torch.long), como pide cross_entropy."""
    if not isinstance(objetivos, torch.Tensor):
        raise TypeError(
            f"Los objetivos deben ser un tensor de PyTorch, pero son {type(objetivos).__name__}. "
            f"Conviértelos con torch.tensor(..., dtype=torch.long)."
        )
    if objetivos.dtype != torch.long:
        aclaracion = ", no una probabilidad ni un decimal" if objetivos.is_floating_point() else ""
        raise TypeError(
            f"Los objetivos deben ser índices de clase enteros (torch.long): el número de la respuesta "
            f"correcta{aclaracion}. Pero son {objetivos.dtype}: conviértelos con objetivos.long()."
        )


def comprobar_indices(indices, vocabulario):
    """Lanza ValueError si algún índice se sale de 0 … vocabulario - 1 (un tensor de enteros cualquiera)."""
    minimo, maximo = torch.aminmax(indices)
    if minimo < 0 or maximo >= vocabulario:
        fuera = int(minimo) if minimo < 0 else int(maximo)
        raise ValueError(
            f"Los índices deben ir de 0 a {vocabulario - 1} (el vocabulario tiene {vocabulario} símbolos), pero "
            f"hay un {fuera}. Codifica el texto con el mismo tokenizador con que creaste el modelo, y crea el "
            f"modelo con ese vocabulario: MiniGPT(len(tokenizador))."
        ) from None
