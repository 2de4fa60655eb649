"""Pruebas de la caché de claves y valores (lección 12): los mismos logits y los mismos caracteres que sin ella, su
memoria por fórmula y medida, los errores y la medida de velocidad (sin afirmar tiempos)."""

import pytest
import torch

from utilidades.cache import (
    Cache,
    ModeloConCache,
    bytes_por_formula,
    bytes_por_posicion,
    forma_de_la_cache,
    generar_con_cache,
    paso_con_cache,
    velocidad_de_generacion,
)
from utilidades.gpt import MiniGPT, generar, generar_texto, probabilidades_siguiente
from utilidades.modernos import GPTModerno, mini_llama
from utilidades.multicabeza import AtencionMulticabeza
from utilidades.texto import TokenizadorCaracteres, leer_corpus
from utilidades.visualizador import cargar_mini_gpt

pytestmark = pytest.mark.usefixtures("un_hilo")  # modelos diminutos: más hilos solo estorban

VARIANTES = {
    "lección 10": lambda: MiniGPT(30, d_modelo=24, cabezas=4, capas=2, contexto=16),
    "RMSNorm y SwiGLU": lambda: GPTModerno(30, d_modelo=24, cabezas=4, contexto=16, norma="rms", mlp="swiglu"),
    "RoPE": lambda: GPTModerno(30, d_modelo=24, cabezas=4, contexto=16, rope=True),
    "GQA": lambda: GPTModerno(30, d_modelo=24, cabezas=4, contexto=16, cabezas_kv=2),
    "MQA": lambda: GPTModerno(30, d_modelo=24, cabezas=4, contexto=16, cabezas_kv=1),
    "mini-Llama": lambda: mini_llama(30, d_modelo=24, cabezas=4, contexto=16),
}


def _modelo(nombre, semilla=0):
    torch.manual_seed(semilla)
    return VARIANTES[nombre]().eval()


@pytest.mark.parametrize("nombre", VARIANTES)
def test_por_trozos_con_la_cache_dan_los_logits_del_forward(nombre):
    modelo = _modelo(nombre)
    x = torch.randint(30, (2, 16), generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        entero = modelo(x)  # (2, 16, 30)
    cache = Cache(len(modelo.bloques))
    trozos = [paso_con_cache(modelo, x[:, a:b], cache) for a, b in ((0, 5), (5, 6), (6, 7), (7, 16))]
    assert cache.posiciones == 16
    assert torch.allclose(torch.cat(trozos, dim=1), entero, atol=1e-5)


@pytest.mark.parametrize("nombre", VARIANTES)
def test_el_modelo_vuelve_a_ser_el_de_siempre(nombre):
    modelo = _modelo(nombre)
    antes = [type(b.atencion) for b in modelo.bloques], modelo.posiciones
    cache = Cache(len(modelo.bloques))
    paso_con_cache(modelo, torch.tensor([[1, 2, 3]]), cache)
    with pytest.raises(TypeError, match="enteros"):  # un error dentro del forward tampoco la deja enganchada
        paso_con_cache(modelo, torch.tensor([[1.5]]), cache)
    assert ([type(b.atencion) for b in modelo.bloques], modelo.posiciones) == antes
    assert all(not n.startswith("_") and "cache" not in n for n, _ in modelo.named_modules())


@pytest.mark.parametrize("nombre", VARIANTES)
def test_genera_los_mismos_caracteres_que_sin_cache(nombre):
    modelo = _modelo(nombre)
    for opciones in ({"top_k": 1}, {"temperatura": 0.8, "top_k": 10}, {"temperatura": 1.3}):
        sin = generar(modelo, [3, 1, 4], 14, generador=torch.Generator().manual_seed(7), **opciones)
        con = generar_con_cache(modelo, [3, 1, 4], 14, generador=torch.Generator().manual_seed(7), **opciones)
        assert con.tolist() == sin.tolist() and len(con) == 17
    # Pasado el contexto, con deslizar=True la ventana se desliza como en generar.
    sin = generar(modelo, [3], 40, temperatura=0.8, generador=torch.Generator().manual_seed(2))
    con = generar_con_cache(modelo, [3], 40, temperatura=0.8, generador=torch.Generator().manual_seed(2),
                            deslizar=True)
    assert con.tolist() == sin.tolist()


def test_el_mini_gpt_entrenado_de_la_leccion_11_escribe_lo_mismo_con_cache():
    tokenizador = TokenizadorCaracteres(leer_corpus())
    guardado, _ = cargar_mini_gpt(tokenizador)  # en float64, como lo usa la lección 11
    assert type(guardado) is MiniGPT and guardado.contexto == 64
    comienzo = tokenizador.codificar("El modelo ")
    for modelo in (guardado, guardado.float()):  # y en float32, como lo entrena la lección 10
        for semilla in (0, 1):
            sin = generar(modelo, comienzo, 54, temperatura=0.8, top_k=20,
                          generador=torch.Generator().manual_seed(semilla))
            con = generar_con_cache(modelo, comienzo, 54, temperatura=0.8, top_k=20,
                                    generador=torch.Generator().manual_seed(semilla))
            assert tokenizador.decodificar(con) == tokenizador.decodificar(sin)
        voraz = generar(modelo, comienzo, 54, top_k=1)
        assert generar_con_cache(modelo, comienzo, 54, top_k=1).tolist() == voraz.tolist()


@pytest.mark.parametrize("nombre, cabezas_kv", [("lección 10", 4), ("GQA", 2), ("MQA", 1), ("mini-Llama", 2)])
def test_la_memoria_de_la_cache_por_formula_y_medida(nombre, cabezas_kv):
    modelo = _modelo(nombre)
    forma = forma_de_la_cache(modelo)
    assert forma == {"capas": 2, "cabezas_kv": cabezas_kv, "d_cabeza": 6, "bytes_por_numero": 4}
    cache = Cache(2)
    paso_con_cache(modelo, torch.randint(30, (3, 11)), cache)  # lote 3, 11 posiciones
    medido = cache.bytes()
    assert medido == sum(t.numel() * t.element_size() for t in cache.claves + cache.valores)
    formula = bytes_por_formula(2, cabezas_kv, 6, 11, bytes_por_numero=4, lote=3)
    assert medido == formula == 2 * 2 * cabezas_kv * 6 * 11 * 4 * 3
    assert bytes_por_posicion(modelo) == 2 * 2 * cabezas_kv * 6 * 4
    # En float64 cada número ocupa 8 bytes.
    doble, cache = modelo.double(), Cache(2)
    paso_con_cache(doble, torch.randint(30, (1, 5)), cache)
    formula = bytes_por_formula(**{**forma_de_la_cache(doble), "posiciones": 5})
    assert cache.bytes() == formula == 2 * 2 * cabezas_kv * 6 * 5 * 8


def test_memoria_de_gpt2_small_por_formula():
    # GPT-2 small: 12 capas, 12 cabezas de 64 números: 73 728 bytes por posición en float32, 72 MiB con 1024.
    assert bytes_por_formula(12, 12, 64, 1) == 73_728
    assert bytes_por_formula(12, 12, 64, 1024) == 72 * 2**20
    assert bytes_por_formula(12, 12, 64, 1024, bytes_por_numero=2) == 36 * 2**20


def test_recortar_la_cache():
    modelo = _modelo("lección 10")
    cache = Cache(2)
    paso_con_cache(modelo, torch.tensor([[1, 2, 3, 4, 5]]), cache)
    cache.recortar(3)
    assert cache.posiciones == 3 and all(t.shape[-2] == 3 for t in cache.claves + cache.valores)
    # Tras recortar, seguir da lo mismo que si nunca se hubieran leído los dos últimos.
    otra = Cache(2)
    paso_con_cache(modelo, torch.tensor([[1, 2, 3]]), otra)
    assert torch.allclose(paso_con_cache(modelo, torch.tensor([[9]]), cache),
                          paso_con_cache(modelo, torch.tensor([[9]]), otra))
    cache.recortar(0)
    assert cache.posiciones == 0 and cache.bytes() == 0


def test_errores_en_castellano():
    modelo = _modelo("lección 10")
    cache = Cache(2)
    paso_con_cache(modelo, torch.randint(30, (1, 10)), cache)
    with pytest.raises(ValueError, match="llegaría a 17 posiciones y el modelo solo admite 16"):
        paso_con_cache(modelo, torch.randint(30, (1, 7)), cache)
    assert cache.posiciones == 10  # el error llega antes de tocar la caché
    with pytest.raises(ValueError, match="Pide como mucho 14"):
        generar_con_cache(modelo, [1, 2, 3], 15)
    assert len(generar_con_cache(modelo, [1, 2, 3], 14)) == 17  # el último se predice mirando 16: cabe
    with pytest.raises(ValueError, match="temperatura debe ser mayor que 0"):
        generar_con_cache(modelo, [1], 3, temperatura=0)
    with pytest.raises(ValueError, match="de 1 a 16"):
        velocidad_de_generacion(modelo, [8, 17])


def test_la_cache_con_la_tabla_de_pesos_del_curso():
    modelo = _modelo("lección 10")
    for bloque in modelo.bloques:
        bloque.atencion.guardar_pesos = True  # como cuando se dibujan los pesos (lección 11)
    x = torch.randint(30, (1, 8))
    with torch.no_grad():
        entero = modelo(x)
    cache = Cache(2)
    paso_con_cache(modelo, x[:, :7], cache)
    assert torch.allclose(paso_con_cache(modelo, x[:, 7:], cache)[0, -1], entero[0, -1], atol=1e-5)
    assert isinstance(modelo.bloques[0].atencion, AtencionMulticabeza)
    assert modelo.bloques[0].atencion.pesos.shape == (1, 4, 1, 8)  # la fila del carácter nuevo, sobre las 8


def test_velocidad_de_generacion_da_cifras_de_cada_longitud():
    filas = velocidad_de_generacion(_modelo("mini-Llama"), [1, 8, 16], repeticiones=2)
    assert [f["longitud"] for f in filas] == [1, 8, 16]
    assert all(set(f) == {"longitud", "sin_cache", "con_cache"} for f in filas)
    assert all(f["sin_cache"] > 0 and f["con_cache"] > 0 for f in filas)  # cifras de esta máquina: no se comparan


# --- ModeloConCache: la caché detrás del forward de siempre (el escritor de la lección 10) ----------------------


def _contar_posiciones(modelo):
    """Lista que crece con cuántas posiciones pasan por la tabla de embeddings en cada forward del modelo."""
    pasadas = []
    modelo.tokens.register_forward_hook(lambda capa, entrada, salida: pasadas.append(entrada[0].shape[-1]))
    return pasadas


@pytest.mark.parametrize("nombre", VARIANTES)
def test_modelo_con_cache_da_los_logits_del_modelo(nombre):
    modelo = _modelo(nombre)
    con_cache = ModeloConCache(modelo)
    x = torch.randint(30, (2, 16), generator=torch.Generator().manual_seed(3))
    pasadas = _contar_posiciones(modelo)
    with torch.no_grad():
        for L in (3, 4, 9, 16):  # el mismo texto, cada vez más largo: solo pasan los caracteres nuevos
            assert torch.allclose(con_cache(x[:, :L]), modelo(x[:, :L]), atol=1e-5)
        assert pasadas == [3, 3, 1, 4, 5, 9, 7, 16]  # con la caché: 3, 1, 5, 7; sin ella: 3, 4, 9, 16
        assert torch.allclose(con_cache(x[:, :16]), modelo(x), atol=1e-5)  # el mismo texto otra vez: nada pasa
        assert pasadas == [3, 3, 1, 4, 5, 9, 7, 16, 16]
        otro = x.flip(-1)[:, :5]  # otro texto: empieza de nuevo
        assert torch.allclose(con_cache(otro), modelo(otro), atol=1e-5) and con_cache.cache.posiciones == 5
        assert torch.allclose(con_cache(x[:1, :6]), modelo(x[:1, :6]), atol=1e-5)  # otro lote, también
        lleno = torch.cat([x[:1, 1:], x[:1, :1]], dim=1)  # la ventana llena que no sigue a nada: sin caché
        assert torch.equal(con_cache(lleno), modelo(lleno)) and con_cache.leidos is None


def test_modelo_con_cache_al_entrenar_y_ante_errores():
    modelo = _modelo("lección 10")
    con_cache = ModeloConCache(modelo)
    x = torch.randint(30, (1, 8))
    with torch.no_grad():
        con_cache(x)
    salida = con_cache(x)  # con gradientes: el modelo de siempre, que sí los lleva
    assert salida.requires_grad and con_cache.leidos is None
    con_cache.train()  # entrenando (con dropout): también el de siempre
    with torch.no_grad():
        con_cache(x[:, :4])
    assert modelo.training and con_cache.leidos is None
    con_cache.eval()
    with pytest.raises(ValueError, match="solo admite 16"):  # los errores del modelo, en castellano
        with torch.no_grad():
            con_cache(torch.randint(30, (1, 17)))
    with pytest.raises(TypeError, match="enteros"), torch.no_grad():
        con_cache(torch.rand(1, 4))
    with torch.no_grad():
        con_cache(x[:, :4])
        with pytest.raises(ValueError, match="de 0 a 29"):  # fuera del vocabulario: la caché no queda a medias
            con_cache(torch.cat([x[:, :4], torch.tensor([[99]])], dim=1))
        assert con_cache.leidos is None and con_cache.cache.posiciones == 0
        assert torch.allclose(con_cache(x), modelo(x), atol=1e-5)


@pytest.mark.parametrize("nombre", VARIANTES)
def test_generar_con_el_modelo_con_cache_escribe_lo_mismo(nombre):
    modelo = _modelo(nombre)
    for opciones in ({"top_k": 1}, {"temperatura": 0.8, "top_k": 10}, {"temperatura": 1.3}):
        for nuevos in (10, 40):  # 40 pasa del contexto (16): la ventana se desliza
            sin = generar(modelo, [3, 1, 4], nuevos, generador=torch.Generator().manual_seed(7), **opciones)
            con = generar(ModeloConCache(modelo), [3, 1, 4], nuevos, generador=torch.Generator().manual_seed(7),
                          **opciones)
            assert con.tolist() == sin.tolist()
    # Con la caché, cada carácter pasa una sola vez mientras cabe; pasado el contexto, la ventana entera.
    pasadas = _contar_posiciones(modelo)
    generar(ModeloConCache(modelo), [3, 1, 4], 20)
    assert pasadas == [3] + [1] * 13 + [16] * 6


def test_el_escritor_de_la_leccion_10_escribe_lo_mismo_con_cache():
    tokenizador = TokenizadorCaracteres(leer_corpus())
    guardado, _ = cargar_mini_gpt(tokenizador)
    for modelo in (guardado.float(), guardado.double()):  # float32 como en la lección 10; float64 como en la 11
        # (temperatura, top_k, longitud): el escritor tal como sale, los extremos de sus mandos y el texto más
        # largo que su mando pide (600, casi diez veces el contexto de 64).
        for temperatura, top_k, longitud in ((0.8, 20, 200), (1.5, None, 120), (0.3, 5, 600), (2.0, 1, 100)):
            for semilla in (0, 1):
                sin = generar_texto(modelo, tokenizador, "El modelo ", longitud, temperatura, top_k, semilla)
                con = generar_texto(ModeloConCache(modelo), tokenizador, "El modelo ", longitud, temperatura, top_k,
                                    semilla)
                assert con == sin, (temperatura, top_k, longitud, semilla)
        inicio = "La atención " * 8  # un comienzo más largo que el contexto
        assert generar_texto(ModeloConCache(modelo), tokenizador, inicio, 30) == generar_texto(modelo, tokenizador,
                                                                                                 inicio, 30)
        assert torch.allclose(probabilidades_siguiente(ModeloConCache(modelo), tokenizador, "El modelo ", 0.8, 20),
                              probabilidades_siguiente(modelo, tokenizador, "El modelo ", 0.8, 20), atol=1e-6)
