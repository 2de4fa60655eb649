#!/usr/bin/env python3
"""Tareas del curso con un solo comando, en cualquier sistema con Python ≥ 3.11.

Para estudiar:
    python3 tareas.py abrir [OPCIONES DE JUPYTERLAB]   instala lo necesario (la primera vez) y abre el curso en
                                    JupyterLab (p. ej. --port 8899); como root, lo abre con --allow-root

Para enseñar:
    python3 tareas.py corregir [--csv NOTAS.csv] ENTREGA.ipynb ...   ejecuta cada entrega y resume sus ejercicios

Para contribuir:
    python3 tareas.py pruebas       instala además las herramientas de prueba y Chromium, y ejecuta todas las pruebas
    python3 tareas.py perturbadas   las pruebas normales, y los cuadernos con 1 hilo y con otra CPU (avx2)
    python3 tareas.py salidas [--forzar] [CUADERNO ...]   vuelve a ejecutar los cuadernos y guarda sus salidas
    python3 tareas.py banco [--guardar] [CUADERNO ...]    mide tiempo, celda más lenta y memoria de cada cuaderno
    python3 tareas.py colab [CUADERNO ...]     los ejecuta con las versiones de Colab (.venv-colab)
    python3 tareas.py enlaces [--forzar]       versión, Colab y navegación en los cuadernos y el README
    python3 tareas.py publicar      antes de etiquetar una versión: huella, insignias, CITATION.cff y la etiqueta
    python3 tareas.py diapositivas [--marcar] [CUADERNO ...]   diapositivas reveal.js (en resultados/diapositivas/)
    python3 tareas.py sitio         la web del curso con las salidas guardadas (en resultados/sitio/)
    python3 tareas.py plan          muestra qué instalaría en esta máquina, sin instalar nada

El entorno es una carpeta .venv junto a este archivo. `abrir` instala requirements.txt (lo del estudiante);
las demás tareas, también requirements-desarrollo.txt. Solo se reinstala cuando cambian esos archivos.

PyTorch: en Linux se instala la compilación solo CPU (mucho más ligera que la de CUDA) desde el índice de
PyTorch para CPU; si ese índice no responde en unos segundos, se usa el índice por defecto. Con una GPU NVIDIA,
pide la compilación con CUDA: CURSO_TORCH=cuda python3 tareas.py abrir   (o CURSO_TORCH=cu128 para esa variante).
"""

import hashlib
import json
import os
import pathlib
import platform
import re
import shutil
import signal
import socket
import subprocess
import sys
import time

RAIZ = pathlib.Path(__file__).resolve().parent
ENTORNO = RAIZ / ".venv"
CARPETA_JUPYTER = RAIZ / "herramientas" / "jupyter"  # datos de Jupyter propios del curso (JUPYTER_PATH)
REQUISITOS = "requirements.txt"  # lo que necesita quien estudia
REQUISITOS_DESARROLLO = "requirements-desarrollo.txt"  # y lo de quien contribuye (pytest, nbval, ruff, playwright)

# De dónde sale torch: el índice de PyTorch para CPU (o para una variante de CUDA) y la variable que lo elige.
VARIABLE_TORCH = "CURSO_TORCH"
INDICE_PYTORCH = "https://download.pytorch.org/whl/{variante}"
CUDA_WINDOWS = "cu128"  # en Windows, PyPI solo tiene la compilación CPU: la de CUDA sale del índice de PyTorch
ESPERA_INDICE = 10  # segundos que se espera al índice de PyTorch antes de pasar al índice por defecto
# Espacio libre que pide la primera instalación: lo que ocupa .venv (1.4 GB medidos en Linux) con margen.
ESPACIO_NECESARIO = 3 * 2**30

# Las condiciones en las que deben reproducirse las salidas guardadas: otro número de hilos y otra CPU. Cada una: el
# entorno y las rutas y opciones de pytest; fuera de la normal, solo lo que depende de la condición (los cuadernos).
# En la normal, pytest-xdist reparte los núcleos entre sus procesos (conftest.py: en 2 núcleos, un hilo cada uno);
# «todos los hilos» ejecuta los cuadernos uno tras otro (-n 0), cada kernel con todos los núcleos, como en casa.
PERTURBACIONES = {
    "normal": ({}, []),
    "un hilo": ({"OMP_NUM_THREADS": "1"}, ["notebooks"]),
    "todos los hilos": ({}, ["-n", "0", "notebooks"]),
    "cpu avx2": ({"ATEN_CPU_CAPABILITY": "avx2"}, ["notebooks"]),
}


# ---------------------------------------------------------------------------------------------------------------
# El plan de instalación: una lista de órdenes de pip que depende solo de la plataforma (se prueba sin instalar).


def version_de_torch(requisitos=RAIZ / "requirements.in"):
    """La versión de torch fijada en requirements.in (p. ej. '2.13.0'); requirements.txt fija lo demás, con hashes."""
    texto = pathlib.Path(requisitos).read_text(encoding="utf-8")
    return re.search(r"^torch==([^\s#]+)", texto, re.M).group(1)


def plan_de_instalacion(sistema=None, maquina=None, torch_pedido=None, desarrollo=False, version_torch=None):
    """Lista de pasos (descripción, argumentos de `pip install`, si puede fallar sin detener la instalación).

    `sistema` y `maquina` son los de `platform.system()` y `platform.machine()`; `torch_pedido` es el valor de
    CURSO_TORCH: vacío o 'cpu' (por defecto), 'cuda' o una variante del índice de PyTorch como 'cu128'.
    """
    sistema = sistema or platform.system()
    maquina = (maquina or platform.machine()).lower()
    pedido = (torch_pedido if torch_pedido is not None else os.environ.get(VARIABLE_TORCH, "")).strip().lower()
    pedido = pedido or "cpu"
    if pedido not in ("cpu", "cuda") and not re.fullmatch(r"cu\d{3}", pedido):
        raise ValueError(f"{VARIABLE_TORCH}={pedido!r} no es válido: usa cpu (por defecto), cuda o una variante "
                         "como cu128.")
    version = version_torch or version_de_torch()
    pasos = []
    variante = None  # índice de PyTorch del que tomar torch antes que el resto
    if sistema == "Linux" and pedido == "cpu":
        variante = "cpu"  # la rueda de PyPI para Linux es la de CUDA (varios GB); la de CPU pesa una fracción
    elif sistema in ("Linux", "Windows") and pedido.startswith("cu") and pedido != "cuda":
        variante = pedido
    elif sistema == "Windows" and pedido == "cuda":
        variante = CUDA_WINDOWS  # PyPI solo tiene la de CPU para Windows
    # macOS: la rueda de PyPI ya es la buena (CPU y la GPU de Apple); Linux con 'cuda': la de PyPI lleva CUDA.
    if variante:
        pasos.append((
            f"torch {version} ({'solo CPU' if variante == 'cpu' else variante}) desde el índice de PyTorch",
            ["--no-deps", "--index-url", INDICE_PYTORCH.format(variante=variante), "--timeout", str(ESPERA_INDICE),
             "--retries", "0", f"torch=={version}"],
            True,  # si no responde, torch llega en el paso siguiente desde el índice por defecto
        ))
    archivo = REQUISITOS_DESARROLLO if desarrollo else REQUISITOS
    pasos.append((f"las versiones fijadas de {archivo}, con sus hashes", ["-r", archivo], False))
    # torch va aparte (su hash cambia de un índice a otro): si el paso del índice de PyTorch lo instaló, pip no
    # descarga nada; si no, lo toma del índice por defecto.
    pasos.append((f"torch {version}" + (" (si el índice de PyTorch no respondió)" if variante else ""),
                   [f"torch=={version}"], False))
    pasos.append(("el paquete del curso, utilidades (editable)", ["--no-deps", "-e", "."], False))
    return pasos


def _huella(desarrollo):
    """Huella de lo que define el entorno: si cambia, hay que reinstalar."""
    h = hashlib.sha256()
    nombres = [REQUISITOS, "requirements.in", "pyproject.toml"] + ([REQUISITOS_DESARROLLO] if desarrollo else [])
    for nombre in nombres:
        h.update((RAIZ / nombre).read_bytes())
    h.update(os.environ.get(VARIABLE_TORCH, "").encode())
    return h.hexdigest()


# ---------------------------------------------------------------------------------------------------------------
# Crear el entorno e instalar, con un mensaje en castellano para cada fallo.


def _rutas(entorno):
    binarios = entorno / ("Scripts" if os.name == "nt" else "bin")
    return binarios, binarios / ("python.exe" if os.name == "nt" else "python")


def _paquete_venv():
    """El paquete de Debian o Ubuntu que trae el módulo venv para este Python."""
    return f"python3.{sys.version_info.minor}-venv"


# Los Python con los que se puede instalar el curso: desde 3.11 hasta el más nuevo para el que la versión fijada de
# torch publica ruedas (torch 2.13.0: hasta 3.14). La integración continua prueba los dos extremos.
PYTHON_MINIMO = (3, 11)
PYTHON_MAXIMO = (3, 14)


def comprobar_python(version=None):
    """Sale con un mensaje si este Python es anterior a 3.11 o más nuevo que el último que admite torch."""
    version = version or sys.version_info
    este = f"{version[0]}.{version[1]}"
    if tuple(version[:2]) < PYTHON_MINIMO:
        sys.exit(f"El curso necesita Python 3.11 o posterior; este es {este}. Instala uno más "
                 "reciente (python.org, o el gestor de paquetes de tu sistema) y vuelve a ejecutar este comando.")
    if tuple(version[:2]) > PYTHON_MAXIMO:
        maximo = ".".join(map(str, PYTHON_MAXIMO))
        sys.exit(f"Este Python es el {este}, y la versión de PyTorch que fija el curso ({version_de_torch()}) solo "
                 f"se publica hasta Python {maximo}: pip no encontraría qué instalar. Instala Python {maximo} (o "
                 f"cualquiera desde el 3.11) y ejecuta este comando con él, por ejemplo python{maximo} tareas.py "
                 "abrir.")


def comprobar_espacio(carpeta, necesario=ESPACIO_NECESARIO):
    """Sale con un mensaje si no queda espacio para la primera instalación."""
    libre = shutil.disk_usage(carpeta).free
    if libre < necesario:
        sys.exit(f"No hay espacio suficiente: la instalación necesita unos {necesario / 2**30:.0f} GB libres y en "
                 f"{carpeta} quedan {libre / 2**30:.1f} GB. Libera espacio y vuelve a ejecutar este comando.")


def hay_red(servidor="pypi.org", puerto=443, espera=5):
    """True si se puede abrir una conexión con el índice de paquetes."""
    try:
        socket.create_connection((servidor, puerto), timeout=espera).close()
    except OSError:
        return False
    return True


def crear_entorno(entorno):
    """Crea el entorno virtual; si falta el módulo venv (Debian, Ubuntu), dice qué instalar."""
    import venv

    try:
        import ensurepip  # noqa: F401  (Debian y Ubuntu lo quitan si falta python3-venv)
    except ImportError:
        sys.exit("A este Python le falta el módulo para crear entornos virtuales. En Debian o Ubuntu instálalo con\n"
                 f"    sudo apt install {_paquete_venv()}\ny vuelve a ejecutar este comando.")
    print(f"Creando el entorno virtual en {entorno} …", flush=True)
    try:
        venv.EnvBuilder(with_pip=True).create(entorno)
    except (OSError, subprocess.CalledProcessError) as error:
        shutil.rmtree(entorno, ignore_errors=True)
        sys.exit(f"No pude crear el entorno virtual en {entorno} ({error}). En Debian o Ubuntu instala "
                 f"`{_paquete_venv()}` con apt; comprueba también que queda espacio en el disco.")


def _diagnostico():
    """Por qué pudo fallar pip, en castellano."""
    if not hay_red():
        return ("No hay conexión con el índice de paquetes (pypi.org). Conéctate a internet (o revisa el proxy) y "
                "vuelve a ejecutar el mismo comando: continuará donde lo dejó.")
    libre = shutil.disk_usage(RAIZ).free
    if libre < ESPACIO_NECESARIO / 2:
        return f"Casi no queda espacio en el disco ({libre / 2**30:.1f} GB libres). Libera espacio y vuelve a probar."
    return ("La instalación falló; el mensaje de pip de arriba dice por qué. Si no se entiende, borra la carpeta "
            ".venv y vuelve a ejecutar el mismo comando.")


def tamano(carpeta):
    """Bytes que ocupan los archivos de una carpeta (sin seguir enlaces)."""
    total = 0
    for raiz, _, archivos in os.walk(carpeta):
        for nombre in archivos:
            ruta = os.path.join(raiz, nombre)
            if not os.path.islink(ruta):
                total += os.path.getsize(ruta)
    return total


def preparar_entorno(desarrollo=False, entorno=ENTORNO):
    """Crea el entorno e instala lo que falte (lo del estudiante y, con `desarrollo`, lo de quien contribuye)."""
    comprobar_python()
    _, python = _rutas(entorno)
    sello = entorno / "instalado.json"
    huellas = json.loads(sello.read_text()) if sello.exists() else {}
    nivel = "desarrollo" if desarrollo else "estudiante"
    huella = _huella(desarrollo)
    if python.exists() and huellas.get(nivel) == huella:
        return
    inicio = time.perf_counter()
    primera = not python.exists()
    if primera:
        entorno.parent.mkdir(parents=True, exist_ok=True)
        comprobar_espacio(entorno.parent)
        crear_entorno(entorno)
    try:
        plan = plan_de_instalacion(desarrollo=desarrollo)
    except ValueError as error:
        sys.exit(str(error))
    pedido = os.environ.get(VARIABLE_TORCH, "").strip().lower() or "cpu"
    if not primera and huellas.get("torch", "cpu") != pedido:
        # pip no cambia una compilación de torch por otra de la misma versión: se quita la que hay.
        print(f"Cambiando la compilación de torch ({huellas.get('torch', 'cpu')} → {pedido}) …", flush=True)
        _ejecutar([python, "-m", "pip", "uninstall", "--yes", "--quiet", "torch"])
    que = "lo del estudiante y las herramientas de quien contribuye" if desarrollo else "lo que necesita el curso"
    print(f"Instalando {que}; la primera vez tarda unos minutos …", flush=True)
    for descripcion, argumentos, opcional in plan:
        print(f"· {descripcion}", flush=True)
        if _ejecutar([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *argumentos]) != 0:
            if opcional:
                print("  El índice de PyTorch no responde; sigo con el índice por defecto.", flush=True)
                continue
            sys.exit(_diagnostico())
    huellas[nivel] = huella
    huellas["torch"] = pedido
    if desarrollo:
        huellas["estudiante"] = _huella(False)  # el de desarrollo incluye el del estudiante
    sello.write_text(json.dumps(huellas, indent=1))
    segundos = time.perf_counter() - inicio
    print(f"Entorno listo en {segundos / 60:.1f} min; {entorno.name} ocupa {tamano(entorno) / 2**30:.2f} GB.",
          flush=True)


# ---------------------------------------------------------------------------------------------------------------
# Las tareas.


def _ejecutar(orden, **opciones):
    """Ejecuta una orden mostrando qué se ejecuta; devuelve su código de salida."""
    print("→", " ".join(str(p) for p in orden), flush=True)
    try:
        return subprocess.call([str(p) for p in orden], cwd=RAIZ, **opciones)
    except KeyboardInterrupt:
        return 130


def _entorno_del_curso(entorno_extra=None):
    """Las variables de entorno con las que se ejecuta algo dentro de .venv."""
    binarios, _ = _rutas(ENTORNO)
    entorno = dict(os.environ)
    entorno.update(entorno_extra or {})
    entorno["PATH"] = str(binarios) + os.pathsep + entorno.get("PATH", "")
    entorno.setdefault("PYTHONHASHSEED", "0")
    # La extensión de herramientas/jupyter/labextensions hace que los paneles funcionen también en RISE.
    entorno["JUPYTER_PATH"] = os.pathsep.join(filter(None, [str(CARPETA_JUPYTER), entorno.get("JUPYTER_PATH")]))
    return entorno


def _en_entorno(argumentos, entorno_extra=None):
    """Ejecuta `python ARGUMENTOS` dentro de .venv; devuelve su código de salida."""
    _, python = _rutas(ENTORNO)
    return _ejecutar([python, *argumentos], env=_entorno_del_curso(entorno_extra))


def cambios_sin_guardar(rutas=("notebooks",)):
    """Cuadernos con cambios que git no tiene guardados (el trabajo de un estudiante), o None si git no sabe."""
    if shutil.which("git") is None:
        return None
    resultado = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", *map(str, rutas)],
                               cwd=RAIZ, capture_output=True, text=True)
    if resultado.returncode != 0:
        return None
    return [linea[3:] for linea in resultado.stdout.splitlines() if linea.strip()]


def _proteger_cuadernos(argumentos, que_hace):
    """Quita --forzar de los argumentos; sin él, se niega a sobrescribir cuadernos con cambios sin guardar."""
    forzar = "--forzar" in argumentos
    resto = [a for a in argumentos if a != "--forzar"]
    if forzar:
        return resto
    cuadernos = [RAIZ / a for a in resto if a.endswith(".ipynb")] or [RAIZ / "notebooks"]
    cambiados = cambios_sin_guardar(cuadernos)
    if cambiados is None:
        sys.exit(f"Esta tarea {que_hace} y no puedo comprobar con git si tienen cambios tuyos (¿falta git, o no es "
                 "un clon?). Si no te importa perderlos, repite el comando con --forzar.")
    if cambiados:
        lista = "\n".join(f"    {c}" for c in cambiados)
        sys.exit(f"No sigo: esta tarea {que_hace}, y estos cuadernos tienen cambios sin guardar en git (por ejemplo "
                 f"tus respuestas a los ejercicios):\n{lista}\nGuárdalos antes (git commit, o copia los cuadernos) "
                 "o, si quieres perderlos, repite el comando con --forzar.")
    return resto


def es_root():
    """True si este proceso es del superusuario (root), como en un contenedor Docker o una máquina alquilada."""
    return hasattr(os, "geteuid") and os.geteuid() == 0


AVISO_ROOT = (
    "Estás como root (el superusuario), algo habitual en un contenedor Docker, en WSL o en una máquina en la nube.\n"
    "JupyterLab se niega a arrancar como root si no se le pide expresamente, porque un cuaderno ejecuta código con\n"
    "todos los permisos de la máquina. Lo abro con --allow-root: los cuadernos del curso solo leen y escriben en\n"
    "esta carpeta. En un ordenador propio es mejor usar una cuenta normal: crea una (adduser estudiante), entra\n"
    "con ella (su - estudiante), clona allí el curso y ejecuta este mismo comando."
)


def orden_de_jupyter(argumentos=(), root=False):
    """Los argumentos de `python` que abren JupyterLab en las lecciones (con los que el estudiante añada)."""
    orden = ["-m", "jupyter", "lab", "notebooks", *argumentos]
    if root and "--allow-root" not in orden:
        orden.append("--allow-root")
    return orden


# Lo que JupyterLab escribe cuando no arranca (alguna de esas frases, en sus últimas líneas) y qué hacer.
CAUSAS_DE_JUPYTER = [
    (("Address already in use", "is not available"),
     "El puerto que quería usar JupyterLab está ocupado, quizá por otro Jupyter abierto. Ciérralo, o elige otro "
     "puerto: python3 tareas.py abrir --port 8899"),
    (("Running as root is not recommended",),
     "JupyterLab no arranca como root sin --allow-root. Este comando lo añade solo; si lo ves, es que lo abriste "
     "de otra forma: usa python3 tareas.py abrir."),
    (("No module named",),
     "Falta un paquete en el entorno del curso, o está a medias. Borra la carpeta .venv y vuelve a ejecutar "
     "python3 tareas.py abrir: lo instala todo de nuevo."),
    (("Permission denied",),
     "JupyterLab no puede escribir en alguna carpeta (su configuración, en tu carpeta personal, o esta). Comprueba "
     "que son tuyas, o abre el curso desde una carpeta en la que puedas escribir."),
]


def mensaje_al_terminar(codigo, ultimas_lineas=()):
    """Qué decir cuando JupyterLab termina: se cerró sin más, o no arrancó y por qué (en castellano)."""
    if codigo in (0, 130):  # cerrado con Ctrl+C (o desde el menú File → Shut Down)
        return ("JupyterLab se ha cerrado. Para volver al curso, ejecuta otra vez python3 tareas.py abrir. Los "
                "cuadernos se guardan al pulsar Ctrl+S (y solos cada dos minutos).")
    texto = "\n".join(ultimas_lineas)
    consejos = [consejo for pistas, consejo in CAUSAS_DE_JUPYTER if any(p in texto for p in pistas)]
    if not consejos:
        consejos = [
            "Lee las últimas líneas que escribió JupyterLab, justo encima: suelen decir qué falló.",
            "Si el entorno quedó a medias, borra la carpeta .venv y vuelve a ejecutar python3 tareas.py abrir.",
            "Si otro programa usa el puerto de JupyterLab, elige otro: python3 tareas.py abrir --port 8899",
        ]
    lista = "\n".join(f"  · {c}" for c in consejos)
    return f"JupyterLab se detuvo con un error (código {codigo}) y el curso no llegó a abrirse. Qué probar:\n{lista}"


def _ejecutar_vigilando(orden, entorno, cuantas=60):
    """Ejecuta una orden; lo que escribe en stderr se ve igual, y se guardan sus últimas líneas para explicarlo.

    Un Ctrl+C llega también a la orden (JupyterLab pregunta si cerrarse): aquí se sigue esperando a que termine.
    Devuelve (código de salida, últimas líneas de stderr).
    """
    import collections
    import threading

    print("→", " ".join(str(p) for p in orden), flush=True)
    ultimas = collections.deque(maxlen=cuantas)
    try:
        proceso = subprocess.Popen([str(p) for p in orden], cwd=RAIZ, env=entorno, stderr=subprocess.PIPE,
                                   text=True, encoding="utf-8", errors="replace", bufsize=1)
    except OSError as error:
        return 127, [str(error)]

    def copiar():
        for linea in proceso.stderr:
            sys.stderr.write(linea)
            sys.stderr.flush()
            ultimas.append(linea.rstrip("\n"))

    hilo = threading.Thread(target=copiar, daemon=True)
    hilo.start()
    # Ctrl+C llega a JupyterLab, que pregunta si cerrarse: este proceso no debe morir antes que él. Un manejador
    # de Python (no SIG_IGN, que heredaría JupyterLab) ignora la señal aquí mientras tanto.
    anterior = signal.signal(signal.SIGINT, lambda *_: None) if _hilo_principal() else None
    try:
        codigo = proceso.wait()
        hilo.join(timeout=5)
    finally:
        if anterior is not None:
            signal.signal(signal.SIGINT, anterior)
    return codigo, list(ultimas)


def _hilo_principal():
    import threading

    return threading.current_thread() is threading.main_thread()


def abrir(argumentos):
    """Abre el curso en JupyterLab; como root, con --allow-root y un aviso; si no arranca, dice por qué."""
    root = es_root()
    if root:
        print(AVISO_ROOT, flush=True)
    print("Abriendo JupyterLab en la carpeta de las lecciones. Para cerrarlo, pulsa Ctrl+C dos veces en esta "
          "ventana.", flush=True)
    _, python = _rutas(ENTORNO)
    codigo, ultimas = _ejecutar_vigilando([python, *orden_de_jupyter(argumentos, root)], _entorno_del_curso())
    print(mensaje_al_terminar(codigo, ultimas), flush=True)
    return codigo


def en_paralelo(argumentos, nucleos=None):
    """Argumentos de pytest con los de pytest-xdist delante: un proceso por núcleo (como mucho 4), y cada archivo
    entero en un mismo proceso (las celdas de un cuaderno se ejecutan en orden, en un solo kernel), en el orden de
    conftest.orden_de_ejecucion (los archivos más largos primero; sin reordenar por número de pruebas). Si ya se pide
    otra cosa (-n, --dist, -p no:xdist) o solo hay un núcleo, los deja como están."""
    nucleos = nucleos or os.cpu_count() or 1
    propios = ("-n", "--numprocesses", "--dist", "no:xdist")
    if nucleos < 2 or any(a.startswith(propios) for a in argumentos):
        return list(argumentos)
    return ["-n", str(min(nucleos, 4)), "--dist", "loadfile", "--no-loadscope-reorder", *argumentos]


def pruebas(argumentos, entorno_extra=None):
    """Ejecuta todas las pruebas (unitarias, sincronía, estilo, cuadernos con nbval, navegador), en paralelo."""
    from herramientas.navegador import asegurar_chromium

    asegurar_chromium()  # para tests/test_navegador.py; si no puede instalarlo, explica cómo
    return _en_entorno(["-m", "pytest", *en_paralelo(argumentos)], entorno_extra)


def perturbadas(argumentos):
    """Ejecuta las pruebas en cuatro condiciones y resume: todas en la normal; con un hilo (OMP_NUM_THREADS=1), con
    todos los hilos (un cuaderno tras otro) y con otra CPU (ATEN_CPU_CAPABILITY=avx2), solo lo que depende de
    ellas, los cuadernos (nbval), salvo que se pidan otras rutas. Las salidas guardadas deben reproducirse en todas."""
    resultados = {}
    rutas_pedidas = any(not a.startswith("-") for a in argumentos)
    for nombre, (extra, opciones) in PERTURBACIONES.items():
        print(f"\n===== Pruebas: {nombre} {extra or ''} {' '.join(opciones)} =====", flush=True)
        if rutas_pedidas:  # quien nombra rutas las prueba en todas las condiciones
            opciones = [o for o in opciones if o != "notebooks"]
        resultados[nombre] = pruebas([*opciones, *argumentos], extra)
    print("\nResumen:")
    for nombre, codigo in resultados.items():
        print(f"  {nombre:10s} {'bien' if codigo == 0 else f'FALLÓ (código {codigo})'}")
    return max(resultados.values())


def salidas(argumentos):
    """Vuelve a ejecutar los cuadernos en el entorno de referencia y guarda sus salidas."""
    argumentos = _proteger_cuadernos(argumentos, "vuelve a ejecutar los cuadernos y sobrescribe sus salidas")
    return _en_entorno(["-m", "herramientas.ejecutar", *argumentos])


def banco(argumentos):
    """Mide cada cuaderno: tiempo total, celda más lenta y pico de memoria del kernel."""
    return _en_entorno(["-m", "herramientas.banco", *argumentos])


def colab(argumentos):
    """Ejecuta los cuadernos con las versiones de Colab (IPython 7.34, ipywidgets 7.7.1, anywidget 0.9)."""
    return _en_entorno(["-m", "herramientas.colab", *argumentos])


def enlaces(argumentos):
    """Versión, Colab y navegación: reescribe la celda de preparación, los enlaces de cada lección y el README."""
    argumentos = _proteger_cuadernos(argumentos, "reescribe la celda de preparación y los enlaces de los cuadernos")
    return _en_entorno(["-m", "herramientas.celdas", *argumentos])


def publicar(argumentos):
    """Antes de etiquetar una versión: pone la huella de utilidades/ en las lecciones y comprueba lo que necesitan las
    insignias de Colab (la etiqueta es la versión de utilidades/__init__.py y la de CITATION.cff, y cada insignia y
    celda de preparación la nombran)."""
    argumentos = _proteger_cuadernos(argumentos, "reescribe la celda de preparación de los cuadernos")
    return _en_entorno(["-m", "herramientas.celdas", "publicar", *argumentos])


def diapositivas(argumentos):
    """Diapositivas reveal.js de cada lección con las salidas guardadas, en resultados/diapositivas/; se abren sin
    conexión (la primera vez baja con pip reveal.js y MathJax a resultados/diapositivas/bibliotecas/).

    Con --marcar, en cambio, escribe en las lecciones los metadatos de presentación (las reglas de
    herramientas/diapositivas.py) que usa RISE en JupyterLab.
    """
    if "--marcar" in argumentos:
        resto = [a for a in argumentos if a != "--marcar"]
        resto = _proteger_cuadernos(resto, "escribe los metadatos de las diapositivas en los cuadernos")
        return _en_entorno(["-m", "herramientas.diapositivas", "marcar", *resto])
    return _en_entorno(["-m", "herramientas.diapositivas", "html", *argumentos])


def sitio(argumentos):
    """La web del curso, estática, en resultados/sitio/: lecciones, soluciones, glosario, cifras citadas, guía
    docente y una portada, con las salidas guardadas (no ejecuta nada), fórmulas sin conexión, búsqueda y, en cada
    lección, botones para abrirla en Colab o en Binder y para descargar el cuaderno. El flujo
    .github/workflows/sitio.yml la publica en GitHub Pages con cada versión (etiqueta v*)."""
    return _en_entorno(["-m", "herramientas.sitio", *argumentos])


def corregir(argumentos):
    """Corrige entregas: ejecuta cada cuaderno entregado y resume sus ejercicios (ver herramientas/corregir.py)."""
    return _en_entorno(["-m", "herramientas.corregir", *argumentos])


def plan(_argumentos):
    """Muestra el plan de instalación de esta máquina sin instalar nada."""
    for desarrollo in (False, True):
        print("pruebas (quien contribuye):" if desarrollo else "abrir (quien estudia):")
        for descripcion, argumentos, opcional in plan_de_instalacion(desarrollo=desarrollo):
            print(f"  pip install {' '.join(argumentos)}{'   (si falla, sigue)' if opcional else ''}   # {descripcion}")
    return 0


TAREAS = {"abrir": abrir, "pruebas": pruebas, "perturbadas": perturbadas, "salidas": salidas, "banco": banco,
          "colab": colab, "enlaces": enlaces, "publicar": publicar, "diapositivas": diapositivas, "corregir": corregir,
          "sitio": sitio, "plan": plan}
# Las de quien estudia o enseña no instalan las herramientas de quien contribuye (`plan` no instala nada): las de
# quien enseña solo usan nbformat, nbclient, nbconvert, psutil y torch, que ya están en requirements.txt.
SOLO_ESTUDIANTE = {"abrir", "corregir", "diapositivas", "banco", "plan"}
AYUDA = ("-h", "--help", "--ayuda")
# El módulo de herramientas/ cuya explicación completa la de cada tarea en su ayuda (se lee sin importarlo).
MODULO_DE_LA_TAREA = {"salidas": "ejecutar", "banco": "banco", "colab": "colab", "enlaces": "celdas",
                      "diapositivas": "diapositivas", "corregir": "corregir", "sitio": "sitio"}


def ayuda_de_la_tarea(tarea):
    """El texto de ayuda de una tarea: qué hace y, si la hace un módulo de herramientas/, su uso. No importa ni
    instala nada (el docstring del módulo se lee con ast), así que funciona antes de la primera instalación."""
    import ast
    import inspect

    partes = [f"python3 tareas.py {tarea}: {inspect.cleandoc(TAREAS[tarea].__doc__)}"]
    modulo = MODULO_DE_LA_TAREA.get(tarea)
    if modulo:
        fuente = (RAIZ / "herramientas" / f"{modulo}.py").read_text(encoding="utf-8")
        partes.append(ast.get_docstring(ast.parse(fuente)).strip())
    return "\n\n".join(partes)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] and argv[0] in AYUDA:
        print(__doc__)
        sys.exit(0)
    if argv[:1] and argv[0] in TAREAS and any(a in AYUDA for a in argv[1:]):
        print(ayuda_de_la_tarea(argv[0]))  # la ayuda nunca instala ni ejecuta nada, esté donde esté la opción
        sys.exit(0)
    if not argv or argv[0] not in TAREAS:
        print(__doc__)
        conocidas = ", ".join(TAREAS)
        sys.exit(f"Indica una tarea: {conocidas}." if not argv else
                 f"No conozco la tarea «{argv[0]}». Las tareas son: {conocidas}.")
    tarea = argv[0]
    if tarea != "plan":
        preparar_entorno(desarrollo=tarea not in SOLO_ESTUDIANTE)
    sys.exit(TAREAS[tarea](argv[1:]))


if __name__ == "__main__":
    main()
