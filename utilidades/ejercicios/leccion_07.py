"""Comprobaciones de los ejercicios de la lección 07 · El bloque transformer."""

import torch
import torch.nn.functional as F

from utilidades.ejercicios import a_numpy, bien, comparar_numeros, ejercicio, pista


@ejercicio("07.1")
def _parametros_a_mano(respuesta):
    """Los 49,984 parámetros de BloqueTransformer(64, 4, 256), contados a mano."""
    valor = a_numpy(respuesta)
    if valor is None or valor.shape != ():
        return pista("da un solo número entero: el total de parámetros del bloque.")
    valor = round(float(valor))
    errores = {
        16_640 + 33_088: "te faltan las dos LayerNorm: cada una aprende una escala y un desplazamiento por número.",
        16_640 + 33_088 + 128: "cada LayerNorm aprende dos vectores de 64: la escala y el desplazamiento.",
        4 * 64 * 64 + 2 * 64 * 256 + 256: "cada capa lineal tiene también un sesgo por cada salida.",
        4 * 64 * 64 + 2 * 64 * 256: "cada capa lineal tiene un sesgo por salida, y las LayerNorm también cuentan.",
        16_640: "eso es solo la atención; suma el MLP y las dos LayerNorm.",
        33_088: "eso es solo el MLP; suma la atención y las dos LayerNorm.",
    }
    if valor == 49_984:
        return bien("Atención 16,640 + MLP 33,088 + LayerNorm 256. Fíjate: la longitud de la frase no aparece.")
    if valor in errores:
        return pista(errores[valor])
    return pista("cuenta por piezas: la capa qkv (64 → 192), la de salida (64 → 64), el MLP (64 → 256 → 64) y dos "
                 "LayerNorm; cada capa lineal tiene pesos (entradas × salidas) y un sesgo por salida.")


@ejercicio("07.2")
def _norma_de_capa(funcion):
    """Una LayerNorm sin escala ni desplazamiento: media 0 y desviación 1 en la última dimensión."""
    if not callable(funcion):
        return pista("la respuesta debe ser la función `norma_de_capa`, sin llamarla (sin paréntesis).")
    generador = torch.Generator().manual_seed(7)
    entradas = [torch.tensor([[1.0, 2.0, 3.0, 4.0]]), 3 * torch.randn(2, 5, 8, generator=generador) + 1,
                torch.randn(4, 6, generator=generador)]
    for x in entradas:
        resultado = funcion(x.clone())
        if resultado is None:
            return pista("tu función no devuelve nada; termina con `return ...`.")
        if not isinstance(resultado, torch.Tensor) or resultado.shape != x.shape:
            return pista("tu función debe devolver un tensor con la misma forma que la entrada.")
        esperado = F.layer_norm(x, x.shape[-1:])
        if torch.allclose(resultado, esperado, atol=1e-4):
            continue
        media = x.mean(dim=-1, keepdim=True)
        insesgada = (x - media) / torch.sqrt(x.var(dim=-1, keepdim=True, unbiased=True) + 1e-5)
        if torch.allclose(resultado, insesgada, atol=1e-4):
            return pista("la varianza de LayerNorm divide entre n, no entre n − 1: usa unbiased=False.")
        if x.dim() > 1 and torch.allclose(resultado, (x - x.mean(dim=0)) / x.std(dim=0, unbiased=False), atol=1e-3):
            return pista("normaliza cada palabra por separado: la media y la varianza van sobre la ÚLTIMA dimensión.")
        return pista("resta la media y divide por la raíz de (varianza + eps), todo sobre la última dimensión "
                     "(dim=-1, keepdim=True).")
    return bien("Es F.layer_norm sin escala ni desplazamiento; nn.LayerNorm añade esos dos vectores aprendidos.")


@ejercicio("07.3")
def _memoria_de_la_tabla(respuesta):
    """MB de las tablas de pesos de atención de un bloque con L = 4096 y 12 cabezas, en float32."""
    esperado = 4096**2 * 12 * 4 / 1e6
    valor = a_numpy(respuesta)
    if valor is not None and valor.shape == ():
        valor = float(valor)
        if abs(valor - esperado / 12) < 1:
            return pista("eso es una sola cabeza; cada cabeza tiene su propia tabla.")
        if abs(valor - 2 * esperado) < 1:
            return pista("float32 ocupa 4 bytes por número, no 8.")
        if abs(valor - esperado / 4) < 1:
            return pista("cada número float32 ocupa 4 bytes.")
        if abs(valor - 4096**2 * 12 * 4 / 2**20) < 1:
            return pista("usa 1 MB = 1,000,000 bytes, como en la tabla de la lección.")
    veredicto = comparar_numeros(
        respuesta, esperado, tolerancia=1.0,
        pista_forma="da un solo número, en MB.",
        pista_valor="celdas por cabeza = L², por cabezas, por 4 bytes, y divide entre 1,000,000.",
    )
    if veredicto.correcto:
        return bien("Unos 805 MB solo en pesos de atención de un bloque: por eso la memoria crece tan rápido con L.")
    return veredicto


@ejercicio("07.4")
def _contar_parametros(funcion):
    """Una función que cuenta los parámetros de BloqueTransformer(d_modelo, cabezas, d_mlp)."""
    if not callable(funcion):
        return pista("la respuesta debe ser la función `contar_parametros`, sin llamarla (sin paréntesis).")
    from utilidades.bloques import BloqueTransformer

    casos = [(64, 4, 256), (16, 2, 32), (96, 4, 384), (8, 1, 8), (32, 8, 100)]
    for d_modelo, cabezas, d_mlp in casos:
        esperado = sum(p.numel() for p in BloqueTransformer(d_modelo, cabezas, d_mlp).parameters())
        obtenido = funcion(d_modelo, d_mlp)
        if obtenido is None:
            return pista("tu función no devuelve nada; termina con `return ...`.")
        if obtenido != esperado:
            if (d_modelo, d_mlp) == (64, 256):
                return pista("con (64, 256) no sale 49,984; repasa el ejercicio 1.")
            return pista(f"con d_modelo = {d_modelo} y d_mlp = {d_mlp} tu función da {obtenido}; revisa que cada "
                         f"término use d_modelo y d_mlp en lugar de números fijos.")
    return bien("4·d² + 4·d (atención) + 2·d·d_mlp + d_mlp + d (MLP) + 4·d (normas): las cabezas no cambian nada.")
