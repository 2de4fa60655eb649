"""Pruebas del aspecto del curso: importar no cambia nada, los mapas de calor y las tablas de texto."""

import matplotlib

matplotlib.use("Agg")

import importlib  # noqa: E402

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
import torch  # noqa: E402

from utilidades import graficos  # noqa: E402


def test_importar_no_cambia_rcparams():
    antes = dict(plt.rcParams)
    importlib.reload(graficos)
    assert dict(plt.rcParams) == antes


def test_mapa_de_pesos_va_de_blanco_a_tinta():
    assert graficos.MAPA_PESOS(0.0)[:3] == pytest.approx((1.0, 1.0, 1.0))
    assert graficos.MAPA_PESOS(1.0)[:3] == pytest.approx(matplotlib.colors.to_rgb(graficos.TINTA))


def test_mapa_de_calor_rotula_y_escribe_valores():
    palabras = ["Ana", "sacó", "plata"]
    fig, ax = graficos.mapa_de_calor(torch.eye(3) * 0.5, palabras, palabras, valores=True, titulo="t")
    assert [t.get_text() for t in ax.get_xticklabels()] == palabras
    assert [t.get_text() for t in ax.get_yticklabels()] == palabras
    textos = [t.get_text() for t in ax.texts]
    assert textos.count("0.50") == 3 and textos.count("0.00") == 6
    plt.close(fig)


def test_mapa_de_calor_deja_en_blanco_lo_oculto():
    oculto = np.triu(np.ones((3, 3), dtype=bool), k=1)
    fig, ax = graficos.mapa_de_calor(np.full((3, 3), 0.3), valores=True, oculto=oculto)
    assert len(ax.texts) == 6, "las 3 celdas ocultas no llevan número"
    datos = ax.images[0].get_array()
    assert np.ma.is_masked(datos[0, 2]) or np.isnan(datos[0, 2])
    (trazos,) = ax.collections  # un trazo diagonal por celda oculta, todos en un solo dibujo
    centros = sorted(tuple(np.round(s.mean(axis=0)).astype(int)) for s in trazos.get_segments())
    assert centros == [(1, 0), (2, 0), (2, 1)], "(columna, fila) de las 3 celdas por encima de la diagonal"
    plt.close(fig)


def test_mapa_de_calor_solo_marca_las_posiciones_con_texto():
    marcas = [str(p) if p % 10 == 0 else "" for p in range(100)]
    fig, ax = graficos.mapa_de_calor(np.zeros((100, 100)), marcas, marcas)
    for eje in (ax.xaxis, ax.yaxis):
        assert list(eje.get_ticklocs()) == list(range(0, 100, 10))
        assert [t.get_text() for t in eje.get_ticklabels()] == [str(p) for p in range(0, 100, 10)]
    plt.close(fig)


def test_mapa_de_calor_entradas_malas():
    with pytest.raises(ValueError, match="2 dimensiones"):
        graficos.mapa_de_calor(torch.zeros(2, 3, 3))
    with pytest.raises(ValueError, match="etiquetas"):
        graficos.mapa_de_calor(torch.zeros(3, 3), ["a", "b"])


def test_mapas_de_calor_uno_por_cabeza():
    fig, ejes = graficos.mapas_de_calor([np.eye(4)] * 3, ["c1", "c2", "c3"], columnas_figura=2)
    assert ejes.shape == (2, 2)
    assert [e.get_title() for e in ejes.flat[:3]] == ["c1", "c2", "c3"]
    assert not ejes.flat[3].axison
    plt.close(fig)


def test_tabla_de_texto_sin_menos_cero():
    texto = graficos.tabla_de_texto([[-0.001, 1.0]], ["fila"], ["a", "b"])
    assert "-0.00" not in texto
    assert texto.splitlines()[1].split() == ["fila", "0.00", "1.00"]


def test_curvas_y_barras():
    fig, ax = graficos.curvas_de_aprendizaje({"entrenamiento": [3, 2, 1], "validación": ([1, 3], [3.5, 2.5])})
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["entrenamiento", "validación"]
    plt.close(fig)
    fig, ax = graficos.barras_de_pesos([0.61, 0.28, 0.11], ["plata", "banco", "el"])
    assert [t.get_text() for t in ax.texts] == ["61 %", "28 %", "11 %"]
    plt.close(fig)


def test_mapas_de_calor_con_barra_comun_y_rotulos_solo_en_la_primera_columna():
    tablas = [torch.eye(3) * 0.9, torch.ones(3, 3) / 3]
    fig, ejes = graficos.mapas_de_calor(tablas, ["a", "b"], ["x", "y", "z"], ["x", "y", "z"], barra_comun=True,
                                        etiqueta_filas="mira", etiqueta_columnas="mirada")
    assert len(fig.axes) == 3  # dos tablas y una barra de color
    assert ejes[0, 0].get_ylabel() == "mira" and ejes[0, 1].get_ylabel() == ""
    assert ejes[0, 1].get_xlabel() == "mirada"
    plt.close(fig)
    fig, _ = graficos.mapas_de_calor(tablas)
    assert len(fig.axes) == 2  # sin barra si no se pide: las lecciones 08 y 09 no cambian
    plt.close(fig)


def test_una_figura_grande_se_ajusta_al_proyector():
    from utilidades.graficos import ALTO_MAXIMO, ANCHO_MAXIMO, ajustar_a_proyector, tamano_proyectable

    assert tamano_proyectable(7.0, 4.5) == (7.0, 4.5)  # una figura normal no cambia
    ancho, alto = tamano_proyectable(16.0, 8.0)
    assert ancho == ANCHO_MAXIMO and abs(alto - 4.5) < 1e-9  # conserva la proporción
    ancho, alto = tamano_proyectable(5.5, 8.0)
    assert alto == ALTO_MAXIMO and abs(ancho - 5.5 * 6 / 8) < 1e-9
    fig = plt.figure(figsize=(15, 12))
    assert tuple(ajustar_a_proyector(fig).get_size_inches()) == tamano_proyectable(15, 12)
    plt.close(fig)


def test_con_el_estilo_cada_figura_nueva_cabe_en_un_proyector():
    """Con el estilo del curso, una figura pedida de 16 × 5 pulgadas nace de 9 × 2.8 (900 px de ancho)."""
    from utilidades.graficos import ESTILO, aplicar_estilo

    with plt.rc_context():
        aplicar_estilo()
        fig, ax = plt.subplots(figsize=(16, 5))
        assert tuple(fig.get_size_inches()) == (9.0, 5 * 9 / 16)
        plt.close(fig)
        fig = plt.figure(figsize=(4, 3))
        assert tuple(fig.get_size_inches()) == (4.0, 3.0)
        plt.close(fig)
    assert "utilidades.graficos:ajustar_a_proyector" in ESTILO["figure.hooks"]


def test_cada_serie_tiene_su_trazo():
    from utilidades.graficos import ESTILO

    ciclo = list(ESTILO["axes.prop_cycle"])
    assert len({str(e["linestyle"]) for e in ciclo}) == len(ciclo) == len({e["color"] for e in ciclo})
