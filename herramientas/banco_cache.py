"""Banco de la caché en los widgets: lo que tarda una respuesta del escritor de la lección 10 sin la caché de claves
y valores y con ella, y de qué está hecha una respuesta del visualizador de la lección 11.

Uso: python -m herramientas.banco_cache [--rondas 5] [--hilos N]

Mide con el mini-GPT entrenado de datos/ (el de la lección 10, en float32, y en float64 como lo usa la lección 11).
Sin caché y con ella se miden intercalados, ronda a ronda, en la misma ejecución: si la máquina está cargada, la
carga les afecta a los dos. Cada cifra es la mejor de las rondas (la menos molestada por otros programas). Antes de
medir comprueba que los dos caminos escriben el mismo texto. Sin --hilos mide con un hilo y con los de PyTorch.
"""

import os
import time

import matplotlib

matplotlib.use("Agg")  # sin ventanas: solo se miden las figuras

import torch  # noqa: E402

from herramientas.cuadernos import Orden  # noqa: E402
from utilidades.cache import ModeloConCache  # noqa: E402
from utilidades.escritor import EscritorInteractivo, dibujo_del_escritor  # noqa: E402
from utilidades.gpt import generar_texto  # noqa: E402
from utilidades.paneles import figura_a_png  # noqa: E402
from utilidades.texto import TokenizadorCaracteres, leer_corpus  # noqa: E402
from utilidades.visualizador import cargar_mini_gpt, recorrer  # noqa: E402
from utilidades.visualizador_widget import VisualizadorTransformer, dibujar_etapa  # noqa: E402

COMIENZO = "El modelo "  # el del escritor y el visualizador en las lecciones 10 y 11
MANDOS = {"temperatura": 0.8, "top_k": 20}  # los del escritor de la lección 10


def mejores_intercalados(funciones, rondas):
    """{nombre: segundos de la llamada más rápida}: en cada ronda llama una vez a cada función, una tras otra."""
    for funcion in funciones.values():
        funcion()  # calentamiento
    mejores = dict.fromkeys(funciones, float("inf"))
    for _ in range(rondas):
        for nombre, funcion in funciones.items():
            inicio = time.perf_counter()
            funcion()
            mejores[nombre] = min(mejores[nombre], time.perf_counter() - inicio)
    return mejores


def respuesta_sin_cache(modelo, tokenizador, longitud):
    """Lo que hacía el escritor en cada respuesta antes de usar la caché: escribir, dibujar y pasar a PNG."""
    _, fig = dibujo_del_escritor(modelo, tokenizador, COMIENZO, longitud=longitud, **MANDOS)
    return figura_a_png(fig)


@torch.no_grad()
def medir_un_paso(modelo, tokenizador, rondas):
    """Filas (qué, sin caché, con caché) en segundos: el forward de un paso de `generar` con 10 caracteres ya leídos
    y con la ventana llena, que se desliza: ahí cada carácter cambia de posición y la caché no sirve."""
    c = modelo.contexto
    codigos = torch.tensor([tokenizador.codificar((COMIENZO * 7)[:c + 1])])  # (1, contexto + 1)
    casos = {"un carácter más tras 10 leídos": (codigos[:, :10], codigos[:, :11]),
             f"un carácter más con la ventana llena ({c})": (codigos[:, :c], codigos[:, 1:])}
    filas = []
    for que, (antes, ahora) in casos.items():
        con_cache = ModeloConCache(modelo)
        tiempos = {"sin": float("inf"), "con": float("inf")}
        for _ in range(20 * rondas):  # pasos de menos de un milisegundo: muchas veces, y la mejor
            con_cache.olvidar()
            con_cache(antes)  # lo que ya leyó en el paso anterior, fuera de la medida
            for nombre, funcion in (("sin", modelo), ("con", con_cache)):
                inicio = time.perf_counter()
                funcion(ahora)
                tiempos[nombre] = min(tiempos[nombre], time.perf_counter() - inicio)
        filas.append((que, tiempos["sin"], tiempos["con"]))
    return filas


def medir_escritor(modelo, tokenizador, rondas):
    """Filas (qué, sin caché, con caché) en segundos: escribir 54, 200 y 600 caracteres, y la respuesta entera."""
    filas = medir_un_paso(modelo, tokenizador, rondas)
    for longitud in (54, 200, 600):  # 54 caben en el contexto tras el comienzo; 200, el escritor; 600, su máximo
        sin = generar_texto(modelo, tokenizador, COMIENZO, longitud, **MANDOS)
        con = generar_texto(ModeloConCache(modelo), tokenizador, COMIENZO, longitud, **MANDOS)
        if sin != con:
            raise SystemExit(f"Con la caché el texto de {longitud} caracteres sale distinto: no se mide.")
        tiempos = mejores_intercalados({
            "sin": lambda n=longitud: generar_texto(modelo, tokenizador, COMIENZO, n, **MANDOS),
            "con": lambda n=longitud: generar_texto(ModeloConCache(modelo), tokenizador, COMIENZO, n, **MANDOS),
        }, rondas)
        filas.append((f"escribir {longitud} caracteres", tiempos["sin"], tiempos["con"]))
    escritor = EscritorInteractivo(modelo, tokenizador, COMIENZO, longitud=200, **MANDOS)
    tiempos = mejores_intercalados({"sin": lambda: respuesta_sin_cache(modelo, tokenizador, 200),
                                    "con": escritor.actualizar}, rondas)
    filas.append(("respuesta del escritor (200, con la figura)", tiempos["sin"], tiempos["con"]))
    return filas


def medir_visualizador(modelo, tokenizador, rondas):
    """Filas (qué, segundos): la pasada etapa a etapa y, para unas etapas, su figura y la respuesta entera."""
    recorrido = recorrer(modelo, tokenizador, COMIENZO)
    visualizador = VisualizadorTransformer(modelo, tokenizador, COMIENZO)
    filas = [("pasada etapa a etapa (recorrer)",
              mejores_intercalados({"": lambda: recorrer(modelo, tokenizador, COMIENZO)}, rondas)[""])]
    for indice in (0, 7, len(recorrido) - 1):  # las fichas, los puntajes con máscara y el sorteo
        def dibujar(indice=indice):
            figura_a_png(dibujar_etapa(recorrido, indice))

        def responder(indice=indice):
            visualizador.etapa.value = indice
            visualizador.actualizar()  # lo que hace al cambiar un mando: la pasada y la figura

        tiempos = mejores_intercalados({"dibujo": dibujar, "respuesta": responder}, rondas)
        etapa = recorrido.etapas[indice].titulo
        filas.append((f"etapa {indice} ({etapa}): figura", tiempos["dibujo"]))
        filas.append((f"etapa {indice} ({etapa}): respuesta entera", tiempos["respuesta"]))
    return filas


def main(argumentos=None):
    analizador = Orden(__doc__)
    analizador.add_argument("--rondas", type=int, default=5, help="veces que se mide cada cosa (cuenta la mejor)")
    analizador.add_argument("--hilos", type=int, default=None, help="hilos de PyTorch (sin él: 1 y los suyos)")
    opciones = analizador.parse_args(argumentos)
    tokenizador = TokenizadorCaracteres(leer_corpus())
    modelo_11, _ = cargar_mini_gpt(tokenizador)  # float64, como en la lección 11
    modelo_10, _ = cargar_mini_gpt(tokenizador)
    modelo_10.float()  # float32, como lo entrena la lección 10
    suyos = torch.get_num_threads()
    carga = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"torch {torch.__version__} · {os.cpu_count()} núcleos · carga media al empezar {carga:.1f} · mejor de "
          f"{opciones.rondas} rondas")
    resultados = {}
    for hilos in [opciones.hilos] if opciones.hilos else sorted({1, suyos}):
        torch.set_num_threads(hilos)
        print(f"\n{hilos} {'hilo' if hilos == 1 else 'hilos'} · escritor de la lección 10 (float32, comienzo "
              f"«{COMIENZO}», temperatura 0.8, top-k 20): mismo texto con y sin caché")
        escritor = medir_escritor(modelo_10, tokenizador, opciones.rondas)
        for que, sin, con in escritor:
            print(f"  {que:44s} sin caché {1000 * sin:8.1f} ms · con caché {1000 * con:8.1f} ms · "
                  f"{sin / con:.2f} veces más rápido")
        print(f"{hilos} {'hilo' if hilos == 1 else 'hilos'} · visualizador de la lección 11 (float64): una pasada por "
              f"respuesta, no escribe más de un carácter")
        visualizador = medir_visualizador(modelo_11, tokenizador, opciones.rondas)
        for que, segundos in visualizador:
            print(f"  {que:60s} {1000 * segundos:8.1f} ms")
        resultados[hilos] = {"escritor": escritor, "visualizador": visualizador}
    torch.set_num_threads(suyos)
    return resultados


if __name__ == "__main__":
    main()
