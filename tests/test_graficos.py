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


def test_mapa_de_calor_gira_los_rotulos_solo_si_se_pide_o_son_largos():
    palabras = ["Ana", "sacó", "plata"]
    fig, ax = graficos.mapa_de_calor(torch.eye(3) * 0.5, palabras, palabras)
    assert all(t.get_rotation() == 45 for t in ax.get_xticklabels()), "por defecto, palabras de más de dos letras"
    plt.close(fig)
    fig, ax = graficos.mapa_de_calor(torch.eye(3) * 0.5, palabras, palabras, girar=False)
    fig.canvas.draw()  # al dibujarse se vuelven a poner las marcas: deben seguir rectas
    assert all(t.get_rotation() == 0 for t in ax.get_xticklabels())
    assert all(t.get_ha() == "center" for t in ax.get_xticklabels())
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


def _guardar_y_revisar(fig):
    """Guarda la figura como el backend inline (recorte «tight») y devuelve los problemas que ve la revisión."""
    import io

    from herramientas.revision_figuras import problemas_de_figura

    fig.savefig(io.BytesIO(), format="png", bbox_inches="tight")
    return problemas_de_figura(fig)


def test_una_fila_de_paneles_encogida_se_reparte_en_filas():
    """Una fila de 4 (o de 11) paneles pedida más ancha que el proyector se dibuja en varias filas, sin pisarse."""
    from utilidades.graficos import ANCHO_MAXIMO, aplicar_estilo

    with plt.rc_context():
        aplicar_estilo()
        for n, tamano in ((4, (16, 4)), (11, (17.6, 2.4))):
            fig, ejes = plt.subplots(1, n, figsize=tamano, sharey=True)
            for k, eje in enumerate(ejes):
                if n == 4:  # barras con su porcentaje (como la lección 03)
                    eje.bar(["plata", "sacó", "Ana"], [0.6, 0.3, 0.1])
                    eje.set_title(f"T = {k + 1} · panel")
                else:  # imágenes con un título de dos líneas (como los fallos del ViT en la lección 09)
                    eje.imshow(np.eye(8), cmap="gray_r")
                    eje.set_title(f"dice {k % 10} (9{k % 10} %)\nes {(k + 3) % 10}", fontsize=11)
            fig.suptitle("Una fila larga de paneles")
            fig.tight_layout()
            assert _guardar_y_revisar(fig) == []
            filas = {round(eje.get_position().y0, 3) for eje in ejes}
            assert len(filas) >= 2, f"{n} paneles siguen en una fila"
            assert fig.get_size_inches()[0] <= ANCHO_MAXIMO
            # Con ejes compartidos, cada fila nueva rotula sus marcas en su primer panel.
            primero_de_fila = [eje for eje in ejes if eje.get_subplotspec().colspan.start == 0]
            assert all(eje.yaxis.get_tick_params()["labelleft"] for eje in primero_de_fila)
            plt.close(fig)


def test_una_figura_encogida_que_no_se_reparte_encoge_su_letra_sin_bajar_de_11_px():
    from utilidades.graficos import LETRA_MINIMA, aplicar_estilo

    with plt.rc_context():
        aplicar_estilo()
        fig, (izquierda, derecha) = plt.subplots(1, 2, figsize=(13, 5))
        izquierda.set_title("La similitud solo depende de la distancia")
        derecha.set_title("Otra figura con un título largo")
        fig.tight_layout()
        assert _guardar_y_revisar(fig) == []
        tamanos = [t.get_fontsize() for t in fig.findobj(matplotlib.text.Text) if t.get_text()]
        assert izquierda.title.get_fontsize() < plt.rcParams["axes.titlesize"]  # encogió con la figura
        assert min(tamanos) >= LETRA_MINIMA and LETRA_MINIMA * 100 / 72 >= 11
        plt.close(fig)


def test_los_numeros_de_un_mapa_solo_se_escriben_si_caben_en_su_celda():
    from utilidades.graficos import aplicar_estilo

    datos = np.random.default_rng(0).random((24, 24))
    with plt.rc_context():
        aplicar_estilo()
        fig, ax = graficos.mapa_de_calor(datos, valores=True)
        assert _guardar_y_revisar(fig) == []
        assert ax._numeros_de_celdas and not any(t.get_visible() for t in ax._numeros_de_celdas)
        plt.close(fig)
        fig, ax = graficos.mapa_de_calor(datos[:4, :4], valores=True)
        assert _guardar_y_revisar(fig) == []
        assert all(t.get_visible() for t in ax._numeros_de_celdas)
        plt.close(fig)


def test_las_marcas_de_un_mapa_se_aclaran_si_se_pisan():
    """40 caracteres por eje en un mapa pequeño: quedan una de cada k marcas, con el mismo salto, sin pisarse."""
    letras = list("Ana sacó plata del banco y la guardó ayer")
    fig, ax = plt.subplots(figsize=(5, 5))
    graficos.mapa_de_calor(np.eye(len(letras)), letras, letras, ax=ax, barra=False)
    assert _guardar_y_revisar(fig) == []
    posiciones = [int(p) for p in ax.get_xticks()]
    assert 1 < len(posiciones) < len(letras)
    saltos = {b - a for a, b in zip(posiciones, posiciones[1:])}
    assert len(saltos) == 1 and posiciones[0] == 0
    assert [t.get_text() for t in ax.get_xticklabels()] == [letras[p] for p in posiciones]
    plt.close(fig)


def test_las_marcas_que_cambia_el_codigo_se_respetan():
    fig, ax = graficos.mapa_de_calor(np.eye(4), list("abcd"), list("abcd"))
    ax.set_yticklabels([])
    fig.savefig(__import__("io").BytesIO(), format="png")
    assert [t.get_text() for t in ax.get_yticklabels()] == [""] * 4
    plt.close(fig)


def test_varias_tablas_caben_sin_pisarse():
    """Cuatro tablas de 5 × 5 con sus números (lección 04) ya no van en una fila encogida."""
    from utilidades.graficos import aplicar_estilo

    palabras = ["Ana", "sacó", "plata", "del", "banco"]
    tablas = [np.full((5, 5), 0.02) + 0.9 * np.eye(5, k=-k) for k in range(4)]
    with plt.rc_context():
        aplicar_estilo()
        fig, ejes = graficos.mapas_de_calor(tablas, [f"{h}: cabeza" for h in range(4)], palabras, palabras,
                                            valores=True, barra_comun=True, etiqueta_filas="consulta",
                                            etiqueta_columnas="clave")
        fig.suptitle("Una tabla de pesos por cabeza", y=1.04)
        assert _guardar_y_revisar(fig) == []
        assert ejes.shape == (2, 2)
        plt.close(fig)


def test_una_fila_de_mapas_con_su_barra_se_reparte_en_filas():
    """Cada mapa con su propia barra de color (una sub-rejilla dentro de su casilla) también cambia de fila."""
    from utilidades.graficos import aplicar_estilo

    palabras = ["Ana", "sacó", "plata", "del", "banco"]
    with plt.rc_context():
        aplicar_estilo()
        fig, ejes = plt.subplots(1, 4, figsize=(20, 4.5))
        for k, eje in enumerate(ejes):
            graficos.mapa_de_calor(np.random.default_rng(k).random((5, 5)), palabras, palabras, ax=eje,
                                   valores=True, titulo=f"cabeza {k}")
        fig.suptitle("Cuatro cabezas con su barra", y=1.02)
        fig.tight_layout()
        assert _guardar_y_revisar(fig) == []
        assert len({round(eje.get_position().y0, 3) for eje in ejes}) == 2
        assert all(t.get_visible() for eje in ejes for t in eje._numeros_de_celdas)
        plt.close(fig)


def test_al_repartir_una_fila_cada_fila_nueva_lleva_los_rotulos_del_primer_panel():
    """El código que nombra el eje y (o escribe las filas de un mapa) solo en el primer panel de la fila no deja
    sin ellos al primer panel de la segunda fila tras el reparto (lección 03: «peso»; lección 11: los caracteres)."""
    from utilidades.graficos import aplicar_estilo

    palabras = ["Ana", "sacó", "plata", "del", "banco"]
    with plt.rc_context():
        aplicar_estilo()
        # Como la lección 03: barras con el eje y compartido y «peso» borrado en los paneles 1 a 3.
        fig, ejes = plt.subplots(1, 4, figsize=(16, 4), sharey=True)
        for eje in ejes:
            graficos.barras_de_pesos([0.6, 0.3, 0.1], palabras[:3], ax=eje)
        for eje in ejes[1:]:
            eje.set_ylabel("")
        fig.tight_layout()
        assert _guardar_y_revisar(fig) == []
        izquierda = [eje for eje in ejes if eje.get_subplotspec().colspan.start == 0]
        assert len(izquierda) == 2, "la fila de 4 debía repartirse en 2 × 2"
        assert [eje.get_ylabel() for eje in izquierda] == ["peso", "peso"]
        plt.close(fig)
        # Como la rejilla de cabezas de la lección 11: las filas del mapa, escritas solo en el primer panel.
        fig, ejes = plt.subplots(1, 4, figsize=(15.8, 4.2))
        for k, eje in enumerate(ejes):
            graficos.mapa_de_calor(np.eye(5), palabras if k == 0 else [""] * 5, palabras, ax=eje, barra=False,
                                   titulo=f"cabeza {k}", etiqueta_filas="que mira" if k == 0 else None)
        fig.tight_layout()
        assert _guardar_y_revisar(fig) == []
        izquierda = [eje for eje in ejes if eje.get_subplotspec().colspan.start == 0]
        assert len(izquierda) == 2
        for eje in izquierda:
            assert [t.get_text() for t in eje.get_yticklabels()] == palabras, eje.get_title()
            assert eje.get_ylabel() == "que mira", eje.get_title()
        plt.close(fig)


def test_un_mapa_con_los_mismos_rotulos_en_los_dos_ejes_los_aclara_con_el_mismo_salto():
    """Una frase contra sí misma (lección 11): si hay que dejar una de cada k marcas, k es el mismo en los dos
    ejes, para que la frase se lea igual a lo largo de filas y columnas."""
    from utilidades.graficos import aplicar_estilo

    letras = [c if c != " " else "␣" for c in "Ana sacó plata del banco"]
    with plt.rc_context():
        aplicar_estilo()
        fig, ax = plt.subplots(figsize=(2.25, 2.25))  # como un panel de la rejilla de 8 cabezas
        graficos.mapa_de_calor(np.eye(len(letras)), letras, letras, ax=ax, barra=False)
        assert _guardar_y_revisar(fig) == []
        x = [t.get_text() for t in ax.get_xticklabels()]
        y = [t.get_text() for t in ax.get_yticklabels()]
        assert len(x) < len(letras), "el mapa es tan pequeño que sus marcas debían aclararse"
        assert x == y
        assert list(ax.get_xticks()) == list(ax.get_yticks())
        plt.close(fig)


def test_el_espacio_se_rotula_grande_y_centrado_si_hay_sitio():
    """«␣» con la letra de las demás marcas es un trazo diminuto bajo su marca (lección 11, celdas 13 y 17)."""
    from utilidades.graficos import aplicar_estilo

    with plt.rc_context():
        aplicar_estilo()
        fig, ax = plt.subplots(figsize=(7, 4))
        ax.imshow(np.zeros((4, 40)), aspect="auto")
        ax.set_yticks(range(4), ["E", "l", "␣", "m"])
        assert _guardar_y_revisar(fig) == []
        marcas = {t.get_text(): t for t in ax.get_yticklabels()}
        assert marcas["␣"].get_fontsize() > 1.4 * marcas["E"].get_fontsize()
        assert marcas["␣"].get_verticalalignment() == "baseline"
        plt.close(fig)


def test_la_barra_comun_de_una_fila_de_mapas_cabe_en_900_px():
    """Dos mapas de 8 × 8 con barra común (lección 08): la barra y su nombre no sacan la figura de 900 píxeles."""
    from utilidades.graficos import aplicar_estilo

    etiquetas = [f"{i} · {d}" for i, d in enumerate([8, 3, 3, 9, 6, 9, 4, 0])]
    with plt.rc_context():
        aplicar_estilo()
        fig, ejes = graficos.mapas_de_calor([np.eye(8)[::-1]] * 2, ["cabeza 0", "cabeza 1"], etiquetas, etiquetas,
                                            barra_comun=True, etiqueta_filas="dígito que mira (consulta)",
                                            etiqueta_columnas="dígito mirado (clave)")
        assert _guardar_y_revisar(fig) == []
        assert fig.axes[-1].get_ylabel() == "peso"
        plt.close(fig)


def test_el_espacio_queda_a_la_altura_de_su_marca_con_las_marcas_apretadas():
    """Con 24 filas en 18 píxeles cada una (lección 11, celdas 24 y 37) no hay sitio para agrandar «␣», pero su trazo,
    que va bajo la línea de base, no debe quedar media letra por debajo de su marca, junto al rótulo siguiente."""
    import io

    from utilidades.graficos import ESPACIO_VISIBLE, aplicar_estilo, mapa_de_calor

    letras = [c if c != " " else "␣" for c in "Ana sacó plata del banco"]
    with plt.rc_context():
        aplicar_estilo()
        fig, ax = plt.subplots(figsize=(6, 6), dpi=100)
        mapa_de_calor(np.zeros((24, 24)), letras, letras, ax=ax, barra=False)
        fig.savefig(io.BytesIO(), format="png")  # al dibujar se ajustan las marcas
        ax.tick_params(length=0)
        marcas = ax.get_yticklabels()
        assert [t.get_text() for t in marcas] == letras  # las 24, sin aclarar
        espacios = [t for t in marcas if t.get_text() == ESPACIO_VISIBLE]
        assert espacios and all(t.get_fontsize() == marcas[0].get_fontsize() for t in espacios), "no hay sitio"
        for t in marcas + ax.get_xticklabels():
            t.set_visible(t in espacios)  # solo la tinta de los «␣» del eje y
        fig.canvas.draw()
        imagen = np.asarray(fig.canvas.buffer_rgba())[..., :3].astype(float).mean(axis=-1)
        izquierda = int(ax.get_window_extent().x0) - 2
        filas_con_tinta = np.nonzero((imagen[:, :izquierda] < 128).any(axis=1))[0]
        alto = imagen.shape[0]
        letra = marcas[0].get_fontsize() * fig.dpi / 72
        for t in espacios:
            marca = alto - ax.transData.transform((0, t.get_position()[1]))[1]  # fila de píxeles de su marca
            tinta = filas_con_tinta[np.abs(filas_con_tinta - marca) < letra]
            assert tinta.size, f"no veo el «␣» de la fila {t.get_position()[1]}"
            centro = tinta.mean()
            assert abs(centro - marca) < 0.2 * letra, f"el «␣» queda {centro - marca:.1f} px bajo su marca"
        plt.close(fig)
