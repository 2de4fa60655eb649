"""Comprobaciones de los ejercicios de la lección 07 · El bloque transformer."""

import torch
import torch.nn.functional as F

from utilidades.ejercicios import bien, ejercicio, entero, exigir_entero, exigir_funcion, exigir_numero, llamar, pista


@ejercicio("07.1")
def _parametros_a_mano(respuesta):
    """Los parámetros de BloqueTransformer(48, 4, 192), contados a mano."""
    valor = exigir_entero(respuesta, "un solo número entero: el total de parámetros del bloque")
    d, d_mlp = 48, 192
    atencion = (d * 3 * d + 3 * d) + (d * d + d)
    mlp = (d * d_mlp + d_mlp) + (d_mlp * d + d)
    normas = 2 * 2 * d
    if valor == atencion + mlp + normas:
        return bien("Atención, MLP y dos LayerNorm, como en la tabla de la lección con otros tamaños.")
    errores = {
        atencion + mlp: "te faltan las dos LayerNorm: cada una aprende una escala y un desplazamiento por número.",
        atencion + mlp + 2 * d: "a tus LayerNorm les falta la mitad: el bloque tiene dos (una antes de cada "
                                "subcapa) y cada una aprende dos vectores de d_modelo números, la escala y el "
                                "desplazamiento.",
        4 * d * d + 2 * d * d_mlp + normas: "cada capa lineal tiene también un sesgo por cada salida.",
        4 * d * d + 2 * d * d_mlp: "cada capa lineal tiene un sesgo por salida, y las LayerNorm también cuentan.",
        atencion: "eso es solo la atención; suma el MLP y las dos LayerNorm.",
        mlp: "eso es solo el MLP; suma la atención y las dos LayerNorm.",
        2 * d * d + 2 * d + mlp + normas: "la capa qkv calcula tres cosas (Q, K y V): tiene 3 · d_modelo salidas, no "
                                          "d_modelo.",
    }
    if valor in errores:
        return pista(errores[valor])
    return pista("cuenta por piezas: la capa qkv (48 → 3 · 48), la de salida (48 → 48), el MLP (48 → 192 → 48) y dos "
                 "LayerNorm; cada capa lineal tiene pesos (entradas × salidas) y un sesgo por salida.")


@ejercicio("07.2")
def _norma_de_capa(funcion):
    """Una LayerNorm sin escala ni desplazamiento, escrita a mano: media 0 y desviación 1 en la última dimensión."""
    exigir_funcion(funcion, "comprobar('07.2', norma_de_capa)")
    generador = torch.Generator().manual_seed(7)
    entradas = [3 * torch.randn(2, 5, 8, generator=generador) + 1, torch.randn(4, 6, generator=generador),
                torch.tensor([[1.0, 2.0, 3.0, 4.0]]),
                torch.full((1, 4), 3.0),  # una palabra constante: varianza 0, solo eps evita dividir entre 0
                torch.tensor([[1e-3, -2e-3, 1.5e-3, -5e-4]])]  # varianza ≈ 2e-6, menor que eps: aquí eps se nota
    usadas = []
    original = F.layer_norm

    def vigilada(*argumentos, **opciones):  # anota si la respuesta llama a la LayerNorm de PyTorch
        usadas.append(True)
        return original(*argumentos, **opciones)

    for x in entradas:
        esperado = F.layer_norm(x, x.shape[-1:])
        F.layer_norm = vigilada  # nn.LayerNorm también pasa por aquí
        try:
            resultado = llamar(funcion, x.clone(), forma=x.shape,
                               pista_forma="Debe tener la misma forma que la entrada.")
        except RuntimeError as error:
            if "must match the size" in str(error):  # la media (o la varianza) perdió la última dimensión
                return pista(f"con una entrada de forma {tuple(x.shape)} tu función no puede restar la media: al "
                             "calcularla con dim=-1 desaparece la última dimensión y ya no encaja con x. Añade "
                             "keepdim=True a la media y a la varianza para que la conserven (con tamaño 1).")
            raise
        finally:
            F.layer_norm = original
        if usadas:
            return pista("el ejercicio pide escribir la cuenta a mano, con la media y la varianza; no uses "
                         "nn.LayerNorm ni F.layer_norm, que ya la hacen por dentro.")
        resultado = resultado.detach().float()  # una respuesta en float64 (o hecha con NumPy y convertida) también vale
        if torch.allclose(resultado, esperado, atol=1e-4):
            continue
        media = x.mean(dim=-1, keepdim=True)
        varianza = x.var(dim=-1, keepdim=True, unbiased=False)
        if torch.isnan(resultado).any() or torch.allclose(resultado, (x - media) / torch.sqrt(varianza), atol=1e-4):
            return pista(f"con la entrada {x.tolist()} tu función no suma eps a la varianza (con una palabra "
                         "constante divide 0 entre 0 y da NaN): divide por torch.sqrt(varianza + eps).")
        if torch.allclose(resultado, (x - media) / (torch.sqrt(varianza) + 1e-5), atol=1e-4):
            return pista("eps va dentro de la raíz, sumado a la varianza: torch.sqrt(varianza + eps), no "
                         "torch.sqrt(varianza) + eps. Se nota cuando la varianza es muy pequeña.")
        insesgada = (x - media) / torch.sqrt(x.var(dim=-1, keepdim=True, unbiased=True) + 1e-5)
        if torch.allclose(resultado, insesgada, atol=1e-4):
            return pista("la varianza de LayerNorm divide entre n, no entre n − 1: usa unbiased=False.")
        if x.dim() > 1 and torch.allclose(resultado, (x - x.mean(dim=0)) / x.std(dim=0, unbiased=False), atol=1e-3):
            return pista("normaliza cada palabra por separado: la media y la varianza van sobre la ÚLTIMA dimensión.")
        return pista("resta la media y divide por la raíz de (varianza + eps), todo sobre la última dimensión "
                     "(dim=-1, keepdim=True).")
    # Tres cosas que las entradas de arriba no ven: que la entrada quede intacta, que se use el `eps` que llega y
    # que una entrada float64 salga en float64.
    x = torch.tensor([[1.0, 2.0, 3.0, 4.0], [2.0, -1.0, 0.5, 4.0]])
    copia = x.clone()
    llamar(funcion, copia, forma=x.shape, pista_forma="Debe tener la misma forma que la entrada.")
    if not torch.equal(copia, x):
        return pista("tu función cambia el tensor que recibe (por ejemplo con x -= media o x.sub_(...)): quien la "
                     "llama pierde sus datos. Calcula el resultado en un tensor nuevo, como x - media.")
    try:
        resultado = llamar(funcion, x.clone(), 0.1, forma=x.shape,
                           pista_forma="Debe tener la misma forma que la entrada.")
    except TypeError:
        return pista("tu función debe recibir eps como segundo argumento: def norma_de_capa(x, eps=1e-5).")
    if not torch.allclose(resultado.detach().float(), F.layer_norm(x, x.shape[-1:], eps=0.1), atol=1e-4):
        return pista("con norma_de_capa(x, eps=0.1) tu función no usa ese eps: escribe eps en la cuenta, no un "
                     "número fijo como 1e-5.")
    x64 = torch.tensor([[1.0, 2.0, 3.0, 4.0], [1e-3, -2e-3, 1.5e-3, -5e-4]], dtype=torch.float64)
    resultado = llamar(funcion, x64.clone(), forma=x64.shape, pista_forma="Debe tener la misma forma que la entrada.")
    if resultado.dtype != torch.float64:
        return pista(f"con una entrada float64 tu función devuelve {str(resultado.dtype).removeprefix('torch.')}: "
                     "no conviertas a float32 (.float()); haz la cuenta en el tipo que llega y devuélvelo así.")
    if not torch.allclose(resultado.detach(), F.layer_norm(x64, (4,)), rtol=0, atol=1e-9):
        return pista("con una entrada float64 tu función pierde cifras (¿pasa por float32 en algún momento?): "
                     "haz toda la cuenta en el tipo que llega.")
    return bien("Es F.layer_norm sin escala ni desplazamiento; nn.LayerNorm añade esos dos vectores aprendidos.")


@ejercicio("07.3")
def _memoria_de_las_tablas(respuesta):
    """MB que guarda a la vez nuestra `atencion` (puntajes y pesos) en un bloque con L = 4096 y 12 cabezas."""
    valor = exigir_numero(respuesta, "un solo número, en MB")
    celdas = 4096**2 * 12  # una tabla L × L por cabeza
    esperado = 2 * celdas * 4 / 1e6  # dos tablas (puntajes y pesos), 4 bytes por número
    if abs(valor - esperado) <= 2:  # 2 MB por cada lado de 1610.6: valen de 1609 a 1612, no 1608 ni 1613
        return bien("Unos 1.6 GB solo en tablas de atención de un bloque: por eso las versiones fusionadas "
                    "no guardan la tabla entera.")
    errores = [
        (celdas * 4 / 1e6, "eso es una sola tabla por cabeza; nuestra `atencion` guarda a la vez dos: los puntajes y "
                           "los pesos que el softmax calcula a partir de ellos."),
        (4096**2 * 4 / 1e6, "eso es una sola tabla de una sola cabeza: cuenta cuántas tablas guarda cada cabeza y "
                            "cuántas cabezas tiene el bloque."),
        (2 * 4096 * 12 * 4 / 1e6, "una tabla L × L tiene L · L celdas, no L."),
        (esperado * 1e6, "ese número está en bytes; el ejercicio lo pide en MB."),
        (esperado / 1e3, "ese número está en GB; el ejercicio lo pide en MB."),
        (2 * celdas * 8 / 1e6, "float32 ocupa 4 bytes por número, no 8."),
        (2 * celdas * 4 / 1e6 / 12, "eso es una sola cabeza; cada cabeza tiene sus propias tablas."),
        (12 * (2 * 4096**2 + 4096 * 64) * 4 / 1e6,
         "eso es 12 veces la memoria pico medida en la sección 6, que cuenta también la salida de la atención "
         "(L × d números); el ejercicio pregunta solo por las dos tablas L × L de cada cabeza."),
        (2 * celdas * 4 / 2**20, "usa 1 MB = 1 000 000 bytes, como en la tabla de la lección (dividiste entre 2²⁰)."),
        (2 * celdas / 1e6, "cada número float32 ocupa 4 bytes; multiplica las celdas por 4."),
    ]
    for valor_erroneo, texto in errores:
        if abs(valor - valor_erroneo) <= 0.005 * valor_erroneo:  # a medio por ciento: cifras muy distintas
            return pista(texto)
    return pista("parte de lo que ocupa una tabla L × L en float32 (la columna «L² · 4 bytes» de la sección 6 para "
                 "L = 4096) y cuenta cuántas tablas así hay a la vez en el bloque entero.")


@ejercicio("07.4")
def _contar_parametros(funcion):
    """Una función que cuenta los parámetros de BloqueTransformer(d_modelo, cabezas, d_mlp)."""
    exigir_funcion(funcion, "comprobar('07.4', contar_parametros)")
    from utilidades.bloques import BloqueTransformer

    casos = [(64, 4, 256), (48, 4, 192), (16, 2, 32), (96, 4, 384), (8, 1, 8), (32, 8, 100)]
    esperados = [sum(p.numel() for p in BloqueTransformer(*caso).parameters()) for caso in casos]
    creados = []
    init_original = BloqueTransformer.__init__

    def init_vigilado(self, *argumentos, **opciones):  # anota si la respuesta crea un bloque para contarlo
        creados.append(True)
        init_original(self, *argumentos, **opciones)

    for (d_modelo, _, d_mlp), esperado in zip(casos, esperados):
        BloqueTransformer.__init__ = init_vigilado
        try:
            obtenido = entero(llamar(funcion, d_modelo, d_mlp, tipo=None))
        finally:
            BloqueTransformer.__init__ = init_original
        if creados:
            return pista("el ejercicio pide contar sin crear el bloque: escribe la cuenta con d_modelo y d_mlp, "
                         "pieza a pieza, como hiciste a mano en el ejercicio 1.")
        if obtenido is None:
            return pista(f"tu función debe devolver un número entero; con ({d_modelo}, {d_mlp}) no lo hace.")
        if obtenido != esperado:
            d = d_modelo
            errores = {
                esperado - 4 * d: "te faltan las dos LayerNorm: cada una aprende 2 · d_modelo números.",
                esperado - 2 * d: "el bloque tiene dos LayerNorm (una antes de cada subcapa), cada una con 2 · "
                                  "d_modelo números.",
                esperado - (3 * d + d + d_mlp + d): "cada capa lineal tiene también un sesgo por cada salida.",
                esperado - (2 * d * d + 2 * d): "la capa qkv tiene 3 · d_modelo salidas (Q, K y V), no d_modelo.",
            }
            if d_mlp != 4 * d:
                errores.setdefault(esperado + 2 * d * (4 * d - d_mlp) + (4 * d - d_mlp),
                                   "usa el argumento d_mlp: no siempre vale 4 · d_modelo.")
            if obtenido in errores:
                return pista(f"con d_modelo = {d_modelo} y d_mlp = {d_mlp} tu función da {obtenido}: "
                             f"{errores[obtenido]}")
            if (d_modelo, d_mlp) == (64, 256):
                return pista("con (64, 256) tu función no da el total que la lección contó para "
                             "BloqueTransformer(64, 4, 256); compara término a término con su tabla.")
            return pista(f"con d_modelo = {d_modelo} y d_mlp = {d_mlp} tu función da {obtenido}; revisa que cada "
                         f"término use d_modelo y d_mlp en lugar de números fijos.")
    return bien("4·d² + 4·d (atención) + 2·d·d_mlp + d_mlp + d (MLP) + 4·d (normas): las cabezas no cambian nada.")
