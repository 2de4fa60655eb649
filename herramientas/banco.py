"""Banco de pruebas: ejecuta cada cuaderno y mide su tiempo, su celda más lenta y el pico de memoria del kernel.

Uso: python3 tareas.py banco [--guardar] [CUADERNO ...]   (sin cuadernos: todos). No toca los cuadernos.
     python3 tareas.py banco --figuras [CUADERNO ...]   tamaño en píxeles de cada figura guardada (sin ejecutar)
Con --guardar escribe la tabla de las lecciones en DOCENTES.md, entre sus comentarios «banco: inicio» y «banco:
fin»: la guía docente incluye así los tiempos de ejecución medidos, nunca tecleados (los minutos «En clase» son la
estimación que anuncia cada lección en su primera celda).
"""

import ast
import os
import pathlib
import platform
import re
import sys
import threading
import time
from datetime import datetime

import nbformat
import psutil
from nbclient import NotebookClient

from herramientas.cuadernos import RAIZ, apertura, cuadernos, fuente, leer_argumentos, leer_cuaderno, titulo

GUIA = RAIZ / "DOCENTES.md"
MARCA_INICIO = "<!-- banco: inicio (tabla generada por `python3 tareas.py banco --guardar`; no la edites a mano) -->"
MARCA_FIN = "<!-- banco: fin -->"
# Las sesiones de clase que propone la guía docente: dos lecciones por sesión, en orden. La 10 (la más larga, con
# dos entrenamientos) se reparte entre dos sesiones: «10.1» es su primera parte y «10.2», la segunda, que empieza en
# la sección de CORTES. La primera sesión deja además un rato para instalar el curso en el aula.
SESIONES = [("01", "02"), ("03", "04"), ("05", "06"), ("07", "08"), ("09", "10.1"), ("10.2", "11")]
CORTES = {"10": "## 8. Generar texto"}
MINUTOS_PARA_INSTALAR = 20  # estimación, no medida: abrir el curso, y la instalación de quien no la hizo en casa
MAPA_INICIO = "<!-- mapa de ejercicios: inicio (generado por `python3 tareas.py enlaces`; no lo edites a mano) -->"
MAPA_FIN = "<!-- mapa de ejercicios: fin -->"


def _pico_de_memoria(cliente, parar, resultado):
    """Mide cada 50 ms la memoria residente del kernel (y sus hijos) y guarda el máximo en MiB."""
    proceso = None
    while not parar.is_set():
        if proceso is None:
            try:
                proceso = psutil.Process(cliente.km.provisioner.process.pid)
            except (AttributeError, psutil.Error):
                time.sleep(0.05)
                continue
        try:
            total = proceso.memory_info().rss + sum(h.memory_info().rss for h in proceso.children(recursive=True))
            resultado[0] = max(resultado[0], total / 2**20)
        except psutil.Error:
            pass
        time.sleep(0.05)


def _segundos(celda):
    """Duración de una celda según las marcas que guarda nbclient."""
    marcas = celda.get("metadata", {}).get("execution", {})
    try:
        inicio = datetime.fromisoformat(marcas["iopub.execute_input"].replace("Z", "+00:00"))
        fin = datetime.fromisoformat(marcas["shell.execute_reply"].replace("Z", "+00:00"))
    except KeyError:
        return 0.0
    return (fin - inicio).total_seconds()


def medir(ruta):
    """Ejecuta el cuaderno sin guardarlo; devuelve (segundos, (índice, segundos) de la más lenta, MiB pico)."""
    ruta = pathlib.Path(ruta).resolve()
    cuaderno = nbformat.read(ruta, as_version=4)
    cliente = NotebookClient(cuaderno, timeout=900, kernel_name="python3", record_timing=True,
                             resources={"metadata": {"path": str(ruta.parent)}})
    parar, pico = threading.Event(), [0.0]
    vigia = threading.Thread(target=_pico_de_memoria, args=(cliente, parar, pico), daemon=True)
    inicio = time.perf_counter()
    vigia.start()
    try:
        cliente.execute()
    finally:
        parar.set()
        vigia.join()
    total = time.perf_counter() - inicio
    # La más lenta sin contar la primera (la de preparación, que importa torch): numerada como el [n] que muestra
    # Jupyter junto a cada celda tras «Ejecutar todas las celdas» (1, 2, 3… entre las de código).
    tiempos = [(n, _segundos(c)) for n, c in enumerate((c for c in cuaderno.cells if c.cell_type == "code"), 1)]
    lenta = max(tiempos[1:], key=lambda t: t[1]) if len(tiempos) > 1 else (None, 0.0)
    return total, lenta, pico[0]


def minutos_de_clase(ruta):
    """Los minutos de clase que anuncia la lección al abrir («**Tiempo…:** unos N minutos»), o None."""
    primera = apertura(leer_cuaderno(ruta))
    encontrado = re.search(r"\*\*Tiempo[^*]*:\*\*\s*(?:unos\s+)?(\d+)\s*min", primera)
    return int(encontrado.group(1)) if encontrado else None


def maquina():
    """Descripción corta de la máquina que mide (procesador, núcleos, Python)."""
    procesador = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as archivo:
            nombres = re.findall(r"^model name\s*:\s*(.+)$", archivo.read(), re.M)
        procesador = nombres[0].strip() if nombres else procesador
    except OSError:
        pass
    return f"{procesador}, {os.cpu_count()} núcleos, {platform.system()}, Python {platform.python_version()}"


def velocidad_de_matrices(lado=1024):
    """GFLOP/s de un producto de matrices (lado × lado, float32) con los hilos de PyTorch: la velocidad de la máquina.

    Los tiempos del banco solo se comparan entre máquinas (o entre dos momentos de una máquina virtual, cuya
    velocidad cambia) junto a esta cifra: el entrenamiento de las lecciones es sobre todo productos de matrices.
    """
    import torch

    from utilidades.coste import mejor_tiempo

    generador = torch.Generator().manual_seed(0)
    a, b = torch.randn(lado, lado, generator=generador), torch.randn(lado, lado, generator=generador)
    segundos = mejor_tiempo(torch.mm, a, b, repeticiones=10, hilos=torch.get_num_threads())
    return 2 * lado**3 / segundos / 1e9, torch.get_num_threads()


def parte_de_la_leccion(ruta, corte):
    """(fracción del texto de la lección que va antes de la sección `corte`, título de la última sección de esa
    primera parte, título de `corte`). El texto cuenta los caracteres de todas las celdas, prosa y código."""
    celdas = [fuente(c) for c in leer_cuaderno(ruta)["cells"]]
    indice = next((i for i, texto in enumerate(celdas) if texto.lstrip().startswith(corte)), None)
    if indice is None:
        raise ValueError(f"{pathlib.Path(ruta).name} no tiene la sección «{corte}» donde la guía docente parte la "
                         "lección en dos sesiones: pon otra de sus secciones en CORTES, en herramientas/banco.py.")
    anteriores = [t.lstrip() for t in celdas[:indice] if t.lstrip().startswith("## ")]
    ultima = anteriores[-1].split("\n", 1)[0].removeprefix("## ").strip() if anteriores else ""
    total = sum(len(t) for t in celdas)
    return sum(len(t) for t in celdas[:indice]) / total, ultima, corte.removeprefix("## ").strip()


def tabla_markdown(filas, fecha, descripcion_maquina):
    """Tabla Markdown de la guía: una fila por lección (ruta, minutos de clase, total, (índice, s), MiB)."""
    lineas = [
        f"Medido el {fecha} en {descripcion_maquina}, ejecutando cada lección de principio a fin. La columna «En "
        "clase» no se mide: es la estimación que anuncia cada lección en su primera celda; las demás son medidas.",
        "",
        "| Lección | En clase | Ejecutar todo | Celda más lenta (tras la de preparación) | Memoria pico |",
        "|---|---:|---:|---:|---:|",
    ]
    clase, ejecucion = 0, 0.0
    for ruta, minutos, total, (indice, segundos), pico in filas:
        nombre = pathlib.Path(ruta).stem
        clase += minutos or 0
        ejecucion += total
        lineas.append(f"| {nombre[:2]} · `{nombre}` | {f'{minutos} min' if minutos else '—'} | {total:.0f} s "
                      f"| [{indice}]: {segundos:.0f} s | {pico:.0f} MiB |")
    lineas.append(f"| **Total** | **{_horas(clase)}** | **{ejecucion / 60:.1f} min** | | |")
    lineas += ["", "| Sesión | Lecciones | En clase (estimación) | Ejecutar todo antes de clase |",
               "|---|---|---:|---:|"]
    por_numero = {pathlib.Path(f[0]).name[:2]: f for f in filas}
    sueltas = [n for n in por_numero if not any(n in (e[:2] for e in s) for s in SESIONES)]
    numero, notas = 0, []
    for sesion in [*SESIONES, *([tuple(sueltas)] if sueltas else [])]:
        presentes = [e for e in sesion if e[:2] in por_numero]
        if not presentes:
            continue
        numero += 1
        minutos, segundos, nombres = 0, 0.0, []
        for entrada in presentes:
            ruta, clase, total = por_numero[entrada[:2]][:3]
            segundos += total  # una lección partida se ejecuta entera antes de cada una de sus sesiones
            if len(entrada) == 2:
                minutos += clase or 0
                nombres.append(entrada)
                continue
            fraccion, ultima, corte = parte_de_la_leccion(ruta, CORTES[entrada[:2]])
            primera = 5 * round((clase or 0) * fraccion / 5)
            minutos += primera if entrada.endswith(".1") else (clase or 0) - primera
            nombres.append(f"{entrada[:2]} (hasta «{ultima}»)" if entrada.endswith(".1") else
                           f"{entrada[:2]} (desde «{corte}»)")
            if entrada.endswith(".1"):
                notas.append(f"La lección {entrada[:2]} se reparte entre dos sesiones: sus minutos se dividen en "
                             "proporción a lo largo de cada parte (prosa y código), y antes de cada sesión se ejecuta "
                             "entera.")
        instalar = numero == 1 and SESIONES and sesion == SESIONES[0]
        clase_texto = _horas(minutos + MINUTOS_PARA_INSTALAR) if instalar else _horas(minutos)
        if instalar:
            clase_texto += f" (con {MINUTOS_PARA_INSTALAR} min para instalar)"
        lineas.append(f"| {numero} | {' y '.join(nombres)} | {clase_texto} | {segundos / 60:.1f} min |")
    return "\n".join(lineas + ([""] + notas if notas else []))


def _horas(minutos):
    return f"{minutos // 60} h {minutos % 60:02d} min" if minutos >= 60 else f"{minutos} min"


def insertar_tabla(texto, tabla, inicio=MARCA_INICIO, fin=MARCA_FIN):
    """Sustituye lo que haya entre las marcas `inicio` y `fin` por `tabla`."""
    if inicio not in texto or fin not in texto:
        raise ValueError(f"No encuentro las marcas de la tabla en la guía: añade «{inicio}» y «{fin}».")
    antes, resto = texto.split(inicio, 1)
    _, despues = resto.split(fin, 1)
    return f"{antes}{inicio}\n{tabla}\n{fin}{despues}"


def _texto(nodo):
    """El texto de una constante o f-string del código de una comprobación ({…} donde va un valor calculado)."""
    if isinstance(nodo, ast.Constant) and isinstance(nodo.value, str):
        return nodo.value
    if isinstance(nodo, ast.JoinedStr):
        return "".join(p.value if isinstance(p, ast.Constant) else "…" for p in nodo.values)
    return None


def pistas_de_la_leccion(numero):
    """{clave del ejercicio: [pistas]} leídas del código de utilidades/ejercicios/leccion_NN.py (sin ejecutarlo)."""
    archivo = RAIZ / "utilidades" / "ejercicios" / f"leccion_{numero}.py"
    if not archivo.exists():
        return {}
    pistas = {}
    for nodo in ast.parse(archivo.read_text(encoding="utf-8")).body:
        if not isinstance(nodo, ast.FunctionDef):
            continue
        claves = [d.args[0].value for d in nodo.decorator_list if isinstance(d, ast.Call)
                  and getattr(d.func, "id", "") == "ejercicio" and d.args and isinstance(d.args[0], ast.Constant)]
        if not claves:
            continue
        textos = []
        for llamada in ast.walk(nodo):
            if not isinstance(llamada, ast.Call):
                continue
            if getattr(llamada.func, "id", "") == "pista" and llamada.args:
                textos.append(_texto(llamada.args[0]))
            textos += [_texto(k.value) for k in llamada.keywords if k.arg in ("pista_valor", "pista_forma")]
        pistas[claves[0]] = list(dict.fromkeys(t.strip() for t in textos if t and t.strip()))
    return pistas


def _acortar(texto, largo=160):
    """Corta un enunciado largo en un espacio, sin dejar una fórmula ($…$) ni un `código` a medias."""
    if len(texto) <= largo:
        return texto
    corto = texto[:largo].rsplit(" ", 1)[0]
    for marca in ("$", "`"):
        if corto.count(marca) % 2:
            corto = corto[:corto.rindex(marca)].rstrip()
    return corto + " …"


def _primera_frase(texto):
    texto = " ".join(texto.split())
    frase = re.match(r"(.+?[.?!])(\s|$)", texto)
    return _acortar(frase.group(1) if frase else texto)


def enunciados(ruta):
    """{número: primera frase del enunciado} de una lección («**Ejercicio N.**» o «### Ejercicio N · …»).

    Un ejercicio sin esa marca (como 02.1, «### Antes de seguir: …», en mitad de la lección) se reconoce por su
    celda `comprobar("NN.M", …)`: su enunciado es el título, o la primera frase, del texto que la precede."""
    celdas = leer_cuaderno(ruta)["cells"]
    encontrados = {}
    for celda in celdas:
        if celda["cell_type"] != "markdown":
            continue
        for parrafo in fuente(celda).split("\n\n"):
            marca = re.match(r"\s*(?:\*\*Ejercicio (\d+)\.\*\*|#+ Ejercicio (\d+) · )\s*(.*)", parrafo, re.S)
            if marca:
                encontrados[int(marca.group(1) or marca.group(2))] = _primera_frase(marca.group(3))
    numero, texto_anterior = pathlib.Path(ruta).name[:2], None
    for celda in celdas:
        if celda["cell_type"] == "markdown" and fuente(celda).strip():
            texto_anterior = fuente(celda).strip()
            continue
        if celda["cell_type"] != "code" or texto_anterior is None:
            continue
        for leccion, n in re.findall(r"""comprobar\(\s*["'](\d\d)\.(\d+)["']""", fuente(celda)):
            if leccion == numero and int(n) not in encontrados:
                primera = texto_anterior.split("\n", 1)[0]
                titulo_previo = re.match(r"#+\s+(.*)", primera)
                encontrados[int(n)] = _acortar(titulo_previo.group(1).strip()) if titulo_previo else \
                    _primera_frase(texto_anterior.split("\n\n")[0])
    return encontrados


def mapa_de_ejercicios(lecciones=None):
    """Markdown: por lección, cada ejercicio (su enunciado) y las pistas que da ante los errores previstos."""
    lineas = []
    for ruta in lecciones or cuadernos(incluir_soluciones=False):
        numero = ruta.name[:2]
        pistas, textos = pistas_de_la_leccion(numero), enunciados(ruta)
        lineas += [f"#### {titulo(ruta)}", ""]
        for n, enunciado in sorted(textos.items()):
            clave = f"{numero}.{n}"
            lineas.append(f"- **{clave}** {enunciado}")
            for texto in pistas.get(clave, []):
                lineas.append(f"  - «{texto}»")
        lineas.append("")
    return "\n".join(lineas).rstrip()


def guardar_mapa(guia=None):
    """Escribe el mapa de ejercicios en la guía docente; True si cambió."""
    guia = guia or GUIA
    texto = guia.read_text(encoding="utf-8")
    nuevo = insertar_tabla(texto, mapa_de_ejercicios(), MAPA_INICIO, MAPA_FIN)
    if nuevo != texto:
        guia.write_text(nuevo, encoding="utf-8")
    return nuevo != texto


# Tope para proyectar a 1280 × 720: la zona de salida de JupyterLab o Notebook 7 mide unos 900 px de ancho y
# deja unos 600 px de alto a la vista; una figura mayor se reduce y su letra baja de 17 px (12 pt a 100 ppp).
ANCHO_PROYECTOR, ALTO_PROYECTOR = 900, 600


def tamanos_de_figuras(ruta):
    """[(n.º de celda de código, ancho, alto)] de cada PNG guardado en el cuaderno (leído de su cabecera)."""
    import base64
    import struct

    tamanos, numero = [], 0
    for celda in leer_cuaderno(ruta)["cells"]:
        if celda["cell_type"] != "code":
            continue
        numero += 1
        for salida in celda.get("outputs", []):
            png = salida.get("data", {}).get("image/png")
            if png:
                cabecera = base64.b64decode("".join(png)[:64])
                ancho, alto = struct.unpack(">II", cabecera[16:24])
                tamanos.append((numero, ancho, alto))
    return tamanos


def informe_de_figuras(rutas):
    """Texto: cada figura con su tamaño, la letra que queda en una salida de ANCHO_PROYECTOR y las que se pasan."""
    lineas, todas = [], []
    for ruta in rutas:
        for numero, ancho, alto in tamanos_de_figuras(ruta):
            letra = 12 * 100 / 72 * min(1.0, ANCHO_PROYECTOR / ancho)
            avisos = [a for a, mal in (("ancha", ancho > ANCHO_PROYECTOR), ("alta", alto > ALTO_PROYECTOR)) if mal]
            lineas.append(f"{pathlib.Path(ruta).stem} [{numero}]: {ancho} × {alto} px, letra de 12 pt a "
                          f"{letra:.1f} px{'  ← ' + ' y '.join(avisos) if avisos else ''}")
            todas.append((ancho, alto))
    anchas = sum(a > ANCHO_PROYECTOR for a, _ in todas)
    altas = sum(h > ALTO_PROYECTOR for _, h in todas)
    lineas.append(f"{len(todas)} figuras; {anchas} más anchas de {ANCHO_PROYECTOR} px y {altas} más altas de "
                  f"{ALTO_PROYECTOR} px" + (f"; la más ancha, {max(a for a, _ in todas)} px." if todas else "."))
    return "\n".join(lineas)


def main(argumentos):
    opciones, rutas = leer_argumentos(argumentos, ("--guardar", "--figuras"), __doc__)
    if "--figuras" in opciones:
        print(informe_de_figuras(rutas or cuadernos(incluir_soluciones=False)))
        return
    guardar = "--guardar" in opciones
    if guardar and not rutas:
        rutas = cuadernos(incluir_soluciones=False)
    rutas = rutas or cuadernos()
    nombres = [str(r.relative_to(RAIZ)) if r.is_relative_to(RAIZ) else str(r) for r in rutas]
    ancho = max(len(n) for n in nombres) + 1
    gflops, hilos = velocidad_de_matrices()
    print(f"Velocidad de esta máquina: productos de matrices 1024 × 1024 a {gflops:.0f} GFLOP/s con {hilos} hilos")
    print(f"{'cuaderno':{ancho}s} {'total':>8s} {'celda más lenta':>18s} {'memoria pico':>13s}")
    suma, peor, pico_max, filas = 0.0, (None, None, 0.0), 0.0, []
    for ruta, nombre in zip(rutas, nombres):
        total, (indice, segundos), pico = medir(ruta)
        print(f"{nombre:{ancho}s} {total:7.1f}s {f'#{indice}: {segundos:.1f}s':>18s} {pico:10.0f} MiB", flush=True)
        filas.append((ruta, minutos_de_clase(ruta), total, (indice, segundos), pico))
        suma += total
        pico_max = max(pico_max, pico)
        if segundos > (peor[2] or 0):
            peor = (nombre, indice, segundos)
    print(f"{'TOTAL':{ancho}s} {suma:7.1f}s   más lenta: {peor[0]} #{peor[1]} ({peor[2]:.1f}s)"
          f"   pico máx.: {pico_max:.0f} MiB")
    if guardar:
        descripcion = f"{maquina()} (productos de matrices a {gflops:.0f} GFLOP/s con {hilos} hilos)"
        tabla = tabla_markdown(filas, datetime.now().strftime("%Y-%m-%d"), descripcion)
        GUIA.write_text(insertar_tabla(GUIA.read_text(encoding="utf-8"), tabla), encoding="utf-8")
        print(f"Tabla guardada en {GUIA.name}.")


if __name__ == "__main__":
    main(sys.argv[1:])
