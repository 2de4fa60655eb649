"""La tabla de la lección 12 (herramientas/variantes_modernas.py, datos/variantes_modernas.csv): el archivo es el que
escribe la orden, con el código y el corpus de ahora."""

import csv
import json

import pytest
import torch

from herramientas.cuadernos import RAIZ
from herramientas.medidas import RECETA
from herramientas.variantes_modernas import (
    ARCHIVO,
    COLUMNAS,
    SEMILLAS,
    VARIANTES,
    medir,
    orden_de_medida,
)
from utilidades.cache import bytes_por_posicion
from utilidades.gpt import MiniGPT, contar_parametros
from utilidades.texto import RUTA_CORPUS, TokenizadorCaracteres, leer_corpus

pytestmark = pytest.mark.usefixtures("un_hilo")


def _filas(archivo):
    with open(archivo, encoding="utf-8") as entrada:
        return list(csv.DictReader(entrada))


def test_el_archivo_tiene_cada_variante_con_sus_semillas():
    assert ARCHIVO == RUTA_CORPUS.parent / "variantes_modernas.csv"
    assert ARCHIVO.exists(), "falta datos/variantes_modernas.csv: ejecuta python -m herramientas.variantes_modernas"
    filas = _filas(ARCHIVO)
    assert tuple(filas[0]) == COLUMNAS
    pares = [(f["variante"], int(f["semilla"])) for f in filas]
    assert pares == orden_de_medida()[:len(pares)], "las filas van en el orden en que la orden las entrena"
    # Como mínimo: todas las variantes con la primera semilla y las tres semillas de los dos extremos, que la
    # lección usa para dar el ruido.
    assert set(orden_de_medida()[:len(VARIANTES) + 4]) <= set(pares)
    for fila in filas:
        assert fila["descripcion"] == VARIANTES[fila["variante"]][0]
        assert int(fila["pasos"]) == RECETA["pasos"]


def test_el_archivo_es_del_corpus_y_del_codigo_de_ahora():
    texto = leer_corpus()
    V = len(TokenizadorCaracteres(texto))
    aviso = "el corpus cambió: vuelve a medir con python -m herramientas.variantes_modernas --forzar"
    for fila in _filas(ARCHIVO):
        assert int(fila["caracteres_corpus"]) == len(texto) and int(fila["vocabulario"]) == V, aviso
        modelo = VARIANTES[fila["variante"]][1](V)
        assert int(fila["parametros"]) == contar_parametros(modelo)
        assert int(fila["bytes_cache_por_caracter"]) == bytes_por_posicion(modelo)
        con_rope = modelo.posiciones is None
        assert (fila["validacion_contexto_doble"] != "") == con_rope  # solo RoPE pasa del contexto
        assert float(fila["mejor_validacion"]) <= float(fila["validacion_100"])  # el mejor paso no es peor que el 100


def test_la_fila_de_la_leccion_10_es_la_de_variantes_gpt():
    # Un GPTModerno con todo apagado es el MiniGPT de la lección 10: con la misma semilla y un hilo, el mismo
    # entrenamiento que la primera fila de datos/variantes_gpt.csv (lo escribieron dos órdenes distintas).
    nuestra = next(f for f in _filas(ARCHIVO) if f["variante"] == "leccion" and f["semilla"] == "0")
    suya = next(f for f in _filas(RUTA_CORPUS.parent / "variantes_gpt.csv")
                if f["variante"] == "leccion" and f["semilla"] == "0")
    for columna in ("mejor_validacion", "prueba"):
        assert abs(float(nuestra[columna]) - float(suya[columna])) < 2e-3, columna
    torch.manual_seed(0)
    a = VARIANTES["leccion"][1](10)
    torch.manual_seed(0)
    b = MiniGPT(10)
    assert all(torch.equal(x, y) for x, y in zip(a.state_dict().values(), b.state_dict().values()))


def test_la_orden_mide_deprisa_con_pocos_pasos():
    filas = medir(variantes=("mqa",), semillas=(0,), pasos=3, mostrar=False)
    assert len(filas) == 1 and tuple(filas[0]) == COLUMNAS
    fila = filas[0]
    assert fila["validacion_100"] == "" and fila["validacion_contexto_doble"] == ""  # 3 pasos; sin RoPE
    V = len(TokenizadorCaracteres(leer_corpus()))
    assert fila["bytes_cache_por_caracter"] == 384 and fila["parametros"] == contar_parametros(VARIANTES["mqa"][1](V))


def test_el_orden_empieza_por_la_primera_semilla_de_todas():
    orden = orden_de_medida()
    assert orden[:len(VARIANTES)] == [(v, SEMILLAS[0]) for v in VARIANTES]
    assert orden[len(VARIANTES):len(VARIANTES) + 4] == [("leccion", 1), ("leccion", 2), ("llama", 1), ("llama", 2)]
    assert sorted(orden) == sorted((v, s) for v in VARIANTES for s in SEMILLAS)


def test_la_leccion_vuelve_a_entrenar_con_la_receta_de_la_leccion_10():
    # La lección no puede importar herramientas/ (en Colab no está en el camino): escribe la receta a mano.
    cuaderno = json.loads((RAIZ / "notebooks" / "12_de_gpt2_a_los_modelos_de_hoy.ipynb").read_text(encoding="utf-8"))
    codigo = "\n".join("".join(c["source"]) for c in cuaderno["cells"] if c["cell_type"] == "code")
    escrita = (f"tamano_lote={RECETA['tamano_lote']}, lr={RECETA['lr']:.0e}".replace("e-0", "e-") +
               f", weight_decay={RECETA['weight_decay']}")
    assert escrita in codigo
    assert f"cada={RECETA['cada']}, paciencia={RECETA['paciencia']}" in codigo
