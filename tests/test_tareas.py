"""tareas.py: el plan de instalación en cada plataforma, los requisitos fijados y los mensajes de cada fallo.

Nada de aquí instala nada: el plan es una lista de órdenes de pip y las órdenes se sustituyen por un registro.
"""

import ast
import json
import os
import re
import subprocess
import sys

import pytest

import tareas
from herramientas.cuadernos import RAIZ

INDICE_CPU = "https://download.pytorch.org/whl/cpu"
HERRAMIENTAS_DE_DESARROLLO = {"pytest", "nbval", "ruff", "playwright"}


def _plan(sistema, maquina, pedido="", desarrollo=False):
    return tareas.plan_de_instalacion(sistema, maquina, pedido, desarrollo, version_torch="2.13.0")


def _indice(paso):
    argumentos = paso[1]
    return argumentos[argumentos.index("--index-url") + 1] if "--index-url" in argumentos else None


@pytest.mark.parametrize("maquina", ["x86_64", "aarch64"])
def test_linux_instala_torch_solo_cpu_y_cae_rapido_al_indice_por_defecto(maquina):
    torch, requisitos, de_pypi, paquete = _plan("Linux", maquina)
    assert _indice(torch) == INDICE_CPU
    argumentos = torch[1]
    assert "torch==2.13.0" in argumentos and "--no-deps" in argumentos, "solo torch: el resto sale fijado de PyPI"
    assert int(argumentos[argumentos.index("--timeout") + 1]) <= 15, "la espera al índice de PyTorch debe ser corta"
    assert argumentos[argumentos.index("--retries") + 1] == "0", "sin reintentos largos si no responde"
    assert torch[2] is True, "si el índice de CPU no responde, la instalación sigue con el índice por defecto"
    assert requisitos[1] == ["-r", "requirements.txt"] and requisitos[2] is False
    assert de_pypi[1] == ["torch==2.13.0"] and de_pypi[2] is False, "si el índice de CPU no respondió, torch de PyPI"
    assert paquete[1] == ["--no-deps", "-e", "."]


@pytest.mark.parametrize("sistema,maquina", [("Darwin", "arm64"), ("Darwin", "x86_64"), ("Windows", "AMD64")])
def test_macos_y_windows_usan_la_rueda_de_pypi(sistema, maquina):
    plan = _plan(sistema, maquina)
    assert [_indice(p) for p in plan] == [None, None, None], "en macOS y Windows PyPI ya da la compilación sin CUDA"
    assert [p[1] for p in plan] == [["-r", "requirements.txt"], ["torch==2.13.0"], ["--no-deps", "-e", "."]]


def test_cuda_pedido_por_variable_de_entorno(monkeypatch):
    monkeypatch.setenv(tareas.VARIABLE_TORCH, "cuda")
    plan = tareas.plan_de_instalacion("Linux", "x86_64", version_torch="2.13.0")
    assert all(_indice(p) is None for p in plan), "en Linux, la rueda de PyPI es la de CUDA"
    windows = tareas.plan_de_instalacion("Windows", "AMD64", version_torch="2.13.0")
    assert _indice(windows[0]) == f"https://download.pytorch.org/whl/{tareas.CUDA_WINDOWS}"
    monkeypatch.setenv(tareas.VARIABLE_TORCH, "cu126")
    assert _indice(tareas.plan_de_instalacion("Linux", "x86_64", version_torch="2.13.0")[0]).endswith("/cu126")
    monkeypatch.setenv(tareas.VARIABLE_TORCH, "CPU ")
    assert _indice(tareas.plan_de_instalacion("Linux", "x86_64", version_torch="2.13.0")[0]) == INDICE_CPU


def test_variable_de_torch_no_valida_explica_los_valores():
    with pytest.raises(ValueError, match="usa cpu .*cuda"):
        _plan("Linux", "x86_64", "rocm")


def test_contribuir_instala_tambien_las_herramientas_de_desarrollo():
    plan = _plan("Linux", "x86_64", desarrollo=True)
    assert ["-r", "requirements-desarrollo.txt"] in [p[1] for p in plan]


def test_version_de_torch_sale_de_requirements():
    assert re.fullmatch(r"\d+\.\d+\.\d+", tareas.version_de_torch())
    assert f"torch=={tareas.version_de_torch()}\n" in (RAIZ / "requirements.in").read_text(encoding="utf-8")
    assert not re.search(r"^torch==", (RAIZ / "requirements.txt").read_text(encoding="utf-8"), re.M), (
        "torch se instala en su propio paso: su hash cambia de un índice a otro")


def _requisitos(nombre):
    """Las líneas de requisitos de un archivo, cada una entera (las que siguen con «\\» unidas) y sin sus hashes."""
    texto = (RAIZ / nombre).read_text(encoding="utf-8").replace("\\\n", " ")
    lineas = [re.sub(r"\s+--hash=\S+", "", linea.split("#")[0]).strip() for linea in texto.splitlines()]
    return [linea for linea in lineas if linea]


def _nombre(linea):
    return re.split(r"[=<>!~\[ ]", linea, maxsplit=1)[0].lower().replace("_", "-")


def _del_estudiante():
    """Lo que instala `abrir`: requirements.txt más torch, que tareas.py instala en su propio paso."""
    return {_nombre(linea) for linea in _requisitos("requirements.txt")} | {"torch"}


def test_el_estudiante_no_instala_las_herramientas_de_quien_contribuye():
    estudiante = _del_estudiante()
    desarrollo = [linea for linea in _requisitos("requirements-desarrollo.txt")]
    assert not estudiante & HERRAMIENTAS_DE_DESARROLLO
    assert desarrollo[0] == "-r requirements.txt", "el entorno de desarrollo incluye el del estudiante"
    nombres = {_nombre(linea) for linea in desarrollo[1:]}
    assert HERRAMIENTAS_DE_DESARROLLO <= nombres
    assert not nombres & estudiante, "cada paquete se fija en un solo archivo"
    assert {"jupyterlab", "jupyterlab-rise", "torch", "ipywidgets", "anywidget"} <= estudiante


def _importaciones(archivo):
    """Los módulos de primer nivel que importa un archivo, y los de herramientas/ que usa (por su nombre)."""
    arbol = ast.parse(archivo.read_text(encoding="utf-8"))
    externos, propios = set(), set()
    for nodo in ast.walk(arbol):
        if isinstance(nodo, ast.Import):
            nombres = [alias.name for alias in nodo.names]
        elif isinstance(nodo, ast.ImportFrom) and nodo.level == 0:
            nombres = [nodo.module] if nodo.module != "herramientas" else [f"herramientas.{a.name}" for a in nodo.names]
        else:
            continue
        for nombre in nombres:
            externos.add(nombre.split(".")[0])
            if nombre.startswith("herramientas."):
                propios.add(nombre.split(".")[1])
    return externos, propios


def _que_faltan(importados, instalados):
    paquete_de = {"sklearn": "scikit-learn", "PIL": "pillow", "yaml": "pyyaml"}
    propios = {"utilidades", "herramientas", "casos_ejercicios", "tareas"}
    return sorted(modulo for modulo in importados - propios - set(sys.stdlib_module_names)
                  if paquete_de.get(modulo, modulo).lower().replace("_", "-") not in instalados)


def test_lo_que_importa_el_curso_esta_en_los_requisitos_del_estudiante():
    """utilidades/ y lo que ejecutan las tareas de quien estudia o enseña (con lo que eso importa de herramientas/)
    solo importan lo de requirements.txt; el resto de herramientas/, lo de quien contribuye (p. ej. la web del
    curso), además puede usar lo de requirements-desarrollo.txt, y nada más."""
    estudiante = _del_estudiante()
    desarrollo = estudiante | {_nombre(linea) for linea in _requisitos("requirements-desarrollo.txt")[1:]}
    herramientas = {archivo.stem: archivo for archivo in (RAIZ / "herramientas").rglob("*.py")}
    importaciones = {archivo: _importaciones(archivo) for archivo in herramientas.values()}
    importaciones |= {archivo: _importaciones(archivo) for archivo in (RAIZ / "utilidades").rglob("*.py")}
    # Lo que se ejecuta en el entorno del estudiante: utilidades/, los módulos de sus tareas y lo que ellos usan.
    pendientes = [herramientas[tareas.MODULO_DE_LA_TAREA[tarea]] for tarea in tareas.SOLO_ESTUDIANTE
                  if tarea in tareas.MODULO_DE_LA_TAREA]
    assert pendientes, "las tareas de quien estudia o enseña deberían ejecutar algún módulo de herramientas/"
    pendientes += list((RAIZ / "utilidades").rglob("*.py"))
    del_estudiante = set()
    while pendientes:
        archivo = pendientes.pop()
        if archivo not in del_estudiante:
            del_estudiante.add(archivo)
            pendientes += [herramientas[nombre] for nombre in importaciones[archivo][1] if nombre in herramientas]
    assert herramientas["corregir"] in del_estudiante and herramientas["cuadernos"] in del_estudiante
    faltan = _que_faltan(set().union(*(importaciones[a][0] for a in del_estudiante)), estudiante)
    assert not faltan, f"utilidades/ o las tareas de quien estudia importan lo que requirements.txt no fija: {faltan}"
    resto = [a for a in importaciones if a not in del_estudiante]
    faltan = _que_faltan(set().union(*(importaciones[a][0] for a in resto)), desarrollo)
    assert not faltan, f"herramientas/ importa lo que no fijan requirements.txt ni requirements-desarrollo: {faltan}"
    assert herramientas["sitio"] in resto, "la web del curso es una tarea de quien contribuye"


# --- Los fallos de `abrir` dicen qué hacer ---------------------------------------------------------------------


def test_python_antiguo():
    with pytest.raises(SystemExit, match=r"3\.11 o posterior; este es 3\.10"):
        tareas.comprobar_python((3, 10, 4))
    tareas.comprobar_python((3, 11, 0))


def test_python_demasiado_nuevo_para_torch():
    with pytest.raises(SystemExit, match=r"es el 3\.15.*PyTorch.*2\.13\.0.*hasta Python 3\.14"):
        tareas.comprobar_python((3, 15, 0))
    tareas.comprobar_python((3, 14, 2))


def test_la_integracion_continua_prueba_el_python_minimo_y_el_maximo():
    """El flujo de GitHub prueba los dos extremos que admite tareas.py, y el README dice cuáles son."""
    flujo = (RAIZ / ".github" / "workflows" / "pruebas.yml").read_text(encoding="utf-8")
    versiones = set(re.findall(r'python-version: "(3\.\d+)"', flujo))
    extremos = {".".join(map(str, tareas.PYTHON_MINIMO)), ".".join(map(str, tareas.PYTHON_MAXIMO))}
    assert versiones == extremos
    readme = (RAIZ / "README.md").read_text(encoding="utf-8")
    assert all(f"Python {v}" in readme for v in extremos)


def test_sin_espacio(tmp_path):
    with pytest.raises(SystemExit, match="No hay espacio suficiente"):
        tareas.comprobar_espacio(tmp_path, necesario=2**60)


def test_sin_modulo_venv_dice_el_paquete_de_apt(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "ensurepip", None)  # como en Debian sin python3-venv
    with pytest.raises(SystemExit, match=rf"sudo apt install python3\.{sys.version_info.minor}-venv"):
        tareas.crear_entorno(tmp_path / "entorno")


def test_sin_red_lo_dice(monkeypatch):
    monkeypatch.setattr(tareas, "hay_red", lambda *a, **k: False)
    assert "No hay conexión" in tareas._diagnostico()


def test_corregir_no_instala_las_herramientas_de_quien_contribuye(monkeypatch):
    niveles = []
    monkeypatch.setattr(tareas, "preparar_entorno", lambda desarrollo=False: niveles.append(desarrollo))
    monkeypatch.setattr(tareas, "_en_entorno", lambda argumentos, extra=None: 0)
    monkeypatch.setattr(tareas, "_ejecutar_vigilando", lambda orden, entorno: (0, []))
    for tarea in ("abrir", "corregir", "salidas"):
        with pytest.raises(SystemExit):
            tareas.main([tarea, "--forzar"])
    assert niveles == [False, False, True]


def test_tarea_desconocida(capsys):
    with pytest.raises(SystemExit, match="No conozco la tarea «abrr»"):
        tareas.main(["abrr"])


# --- abrir: como root, y cuando JupyterLab no arranca ------------------------------------------------------------


class _JupyterFalso:
    """Sustituye a tareas._ejecutar_vigilando: apunta la orden y responde como JupyterLab al terminar."""

    def __init__(self, codigo=0, lineas=()):
        self.codigo, self.lineas, self.ordenes = codigo, list(lineas), []

    def __call__(self, orden, entorno):
        self.ordenes.append([str(p) for p in orden])
        return self.codigo, self.lineas


@pytest.mark.parametrize("root", [True, False])
def test_abrir_como_root_pasa_allow_root_y_explica_por_que(monkeypatch, capsys, root):
    monkeypatch.setattr(tareas, "es_root", lambda: root)
    jupyter = _JupyterFalso()
    monkeypatch.setattr(tareas, "_ejecutar_vigilando", jupyter)
    assert tareas.abrir([]) == 0
    (orden,) = jupyter.ordenes
    assert orden[1:5] == ["-m", "jupyter", "lab", "notebooks"]
    assert ("--allow-root" in orden) is root
    salida = capsys.readouterr().out
    assert ("Estás como root" in salida) is root
    if root:
        assert "adduser" in salida, "dice qué haría quien no quiere ser root"
    assert "JupyterLab se ha cerrado" in salida


def test_es_root_mira_el_usuario_del_proceso(monkeypatch):
    monkeypatch.setattr(tareas.os, "geteuid", lambda: 0, raising=False)
    assert tareas.es_root()
    monkeypatch.setattr(tareas.os, "geteuid", lambda: 1000, raising=False)
    assert not tareas.es_root()


def test_abrir_pasa_las_opciones_del_estudiante_a_jupyterlab():
    assert tareas.orden_de_jupyter(["--port", "8899"], root=True)[-3:] == ["--port", "8899", "--allow-root"]
    assert tareas.orden_de_jupyter(["--allow-root"], root=True).count("--allow-root") == 1


@pytest.mark.parametrize("linea, consejo", [
    ("OSError: [Errno 98] Address already in use", "--port 8899"),
    # lo que escribió JupyterLab 4.6 de verdad con el puerto ocupado y --ServerApp.port_retries=0:
    ("[C 2026-12-01 02:01:04.287 ServerApp] ERROR: the Jupyter server could not be started because port 8888 is not "
     "available.", "está ocupado"),
    ("[C 12:00:00.000 ServerApp] Running as root is not recommended. Use --allow-root to bypass.",
     "python3 tareas.py abrir"),
    ("ModuleNotFoundError: No module named 'jupyterlab'", "Borra la carpeta .venv"),
    ("PermissionError: [Errno 13] Permission denied: '/home/x/.local/share/jupyter'", "carpeta"),
])
def test_abrir_explica_en_castellano_por_que_no_arranco(monkeypatch, capsys, linea, consejo):
    monkeypatch.setattr(tareas, "es_root", lambda: False)
    monkeypatch.setattr(tareas, "_ejecutar_vigilando", _JupyterFalso(1, ["Traceback (most recent call last):", linea]))
    assert tareas.abrir([]) == 1
    salida = capsys.readouterr().out
    assert "JupyterLab se detuvo con un error (código 1)" in salida
    assert consejo in salida
    assert "se ha cerrado" not in salida


def test_abrir_sin_causa_conocida_da_consejos_generales(monkeypatch, capsys):
    monkeypatch.setattr(tareas, "es_root", lambda: False)
    monkeypatch.setattr(tareas, "_ejecutar_vigilando", _JupyterFalso(2, ["algo raro"]))
    assert tareas.abrir([]) == 2
    salida = capsys.readouterr().out
    assert "código 2" in salida and "borra la carpeta .venv" in salida and "--port" in salida


def test_vigilar_copia_stderr_y_guarda_las_ultimas_lineas(capfd):
    """Con un proceso de verdad: lo que escribe se ve, y sus últimas líneas sirven para explicar el fallo."""
    orden = [sys.executable, "-c",
             "import sys; print('hola'); sys.stderr.write('uno\\nOSError: Address already in use\\n'); sys.exit(3)"]
    codigo, ultimas = tareas._ejecutar_vigilando(orden, dict(os.environ))
    assert codigo == 3
    assert ultimas == ["uno", "OSError: Address already in use"]
    capturado = capfd.readouterr()
    assert "Address already in use" in capturado.err and "hola" in capturado.out
    assert "--port 8899" in tareas.mensaje_al_terminar(codigo, ultimas)


def test_ctrl_c_cierra_jupyterlab_pero_no_corta_a_abrir(tmp_path):
    """Ctrl+C llega a los dos procesos: el hijo decide cerrarse, y abrir espera a que termine para explicarlo."""
    import signal
    import threading
    import time

    archivo_pid = tmp_path / "pid"
    hijo = ("import os, signal, sys, time, pathlib\n"
            "signal.signal(signal.SIGINT, lambda *_: sys.exit(0))\n"
            f"pathlib.Path({str(archivo_pid)!r}).write_text(str(os.getpid()))\n"
            "time.sleep(30)\nsys.exit(5)\n")

    def pulsar_ctrl_c():
        limite = time.monotonic() + 20
        while not archivo_pid.exists() or not archivo_pid.read_text():
            if time.monotonic() > limite:
                return
            time.sleep(0.05)
        os.kill(os.getpid(), signal.SIGINT)  # como la terminal: primero a abrir…
        time.sleep(0.3)
        os.kill(int(archivo_pid.read_text()), signal.SIGINT)  # …y a JupyterLab

    antes = signal.getsignal(signal.SIGINT)
    hilo = threading.Thread(target=pulsar_ctrl_c)
    hilo.start()
    codigo, _ = tareas._ejecutar_vigilando([sys.executable, "-c", hijo], dict(os.environ))
    hilo.join()
    assert codigo == 0, "el hijo recibió Ctrl+C y se cerró él mismo"
    assert signal.getsignal(signal.SIGINT) is antes, "el manejador de Ctrl+C vuelve a ser el de antes"
    assert "se ha cerrado" in tareas.mensaje_al_terminar(codigo)


def test_vigilar_una_orden_que_no_existe_no_rompe():
    codigo, ultimas = tareas._ejecutar_vigilando(["/no/existe/python"], dict(os.environ))
    assert codigo != 0 and ultimas


class _Registro:
    """Sustituye a tareas._ejecutar: apunta cada orden y devuelve el código que se le diga."""

    def __init__(self, codigos=()):
        self.ordenes, self.codigos = [], list(codigos)

    def __call__(self, orden, **opciones):
        self.ordenes.append([str(p) for p in orden])
        return self.codigos.pop(0) if self.codigos else 0


def _entorno_falso(tmp_path):
    entorno = tmp_path / ".venv"
    python = tareas._rutas(entorno)[1]
    python.parent.mkdir(parents=True)
    python.write_text("")
    return entorno


def test_instalacion_sigue_el_plan_y_guarda_el_sello(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv(tareas.VARIABLE_TORCH, "")
    monkeypatch.setattr(tareas.platform, "system", lambda: "Linux")
    monkeypatch.setattr(tareas.platform, "machine", lambda: "x86_64")
    registro = _Registro()
    monkeypatch.setattr(tareas, "_ejecutar", registro)
    entorno = _entorno_falso(tmp_path)
    tareas.preparar_entorno(desarrollo=False, entorno=entorno)
    assert [o[o.index("install") + 1:][-1] for o in registro.ordenes] == ["torch==2.13.0", "requirements.txt",
                                                                          "torch==2.13.0", "."]
    sello = json.loads((entorno / "instalado.json").read_text())
    assert set(sello) == {"estudiante", "torch"} and sello["torch"] == "cpu"
    assert re.search(r"Entorno listo en \d+\.\d min; \.venv ocupa \d+\.\d\d GB", capsys.readouterr().out)
    tareas.preparar_entorno(desarrollo=False, entorno=entorno)
    assert len(registro.ordenes) == 4, "con el sello al día no se reinstala nada"
    tareas.preparar_entorno(desarrollo=True, entorno=entorno)
    assert registro.ordenes[-3][-1] == "requirements-desarrollo.txt", "las pruebas instalan lo que les falta"


def test_indice_de_pytorch_caido_no_detiene_la_instalacion(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(tareas.platform, "system", lambda: "Linux")
    monkeypatch.setenv(tareas.VARIABLE_TORCH, "")
    registro = _Registro(codigos=[1, 0, 0, 0])  # el índice de CPU no responde
    monkeypatch.setattr(tareas, "_ejecutar", registro)
    tareas.preparar_entorno(entorno=_entorno_falso(tmp_path))
    assert len(registro.ordenes) == 4 and registro.ordenes[2][-1] == "torch==2.13.0", "torch llega de PyPI"
    assert "sigo con el índice por defecto" in capsys.readouterr().out


def test_cambiar_a_cuda_quita_antes_el_torch_de_cpu(monkeypatch, tmp_path):
    monkeypatch.setattr(tareas.platform, "system", lambda: "Linux")
    registro = _Registro()
    monkeypatch.setattr(tareas, "_ejecutar", registro)
    entorno = _entorno_falso(tmp_path)
    monkeypatch.setenv(tareas.VARIABLE_TORCH, "")
    tareas.preparar_entorno(entorno=entorno)
    assert not any("uninstall" in o for o in registro.ordenes)
    monkeypatch.setenv(tareas.VARIABLE_TORCH, "cuda")
    tareas.preparar_entorno(entorno=entorno)
    assert registro.ordenes[4][-4:] == ["uninstall", "--yes", "--quiet", "torch"]
    assert json.loads((entorno / "instalado.json").read_text())["torch"] == "cuda"


def test_variable_no_valida_al_instalar_sale_con_el_mensaje(monkeypatch, tmp_path):
    monkeypatch.setenv(tareas.VARIABLE_TORCH, "rocm")
    monkeypatch.setattr(tareas, "_ejecutar", _Registro())
    with pytest.raises(SystemExit, match="CURSO_TORCH='rocm' no es válido"):
        tareas.preparar_entorno(entorno=_entorno_falso(tmp_path))


def test_pip_falla_y_explica(monkeypatch, tmp_path):
    monkeypatch.setattr(tareas.platform, "system", lambda: "Darwin")
    monkeypatch.setattr(tareas, "_ejecutar", _Registro(codigos=[1]))
    monkeypatch.setattr(tareas, "hay_red", lambda *a, **k: False)
    with pytest.raises(SystemExit, match="No hay conexión con el índice de paquetes"):
        tareas.preparar_entorno(entorno=_entorno_falso(tmp_path))


# --- salidas y enlaces no pisan el trabajo de un estudiante ------------------------------------------------------


@pytest.fixture
def repositorio(tmp_path, monkeypatch):
    """Un clon mínimo con un cuaderno guardado en git; tareas.RAIZ apunta a él."""
    (tmp_path / "notebooks").mkdir()
    cuaderno = tmp_path / "notebooks" / "01_x.ipynb"
    cuaderno.write_text("{}\n")
    git = ["git", "-c", "user.name=curso", "-c", "user.email=curso@example.org"]
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    subprocess.run([*git, "add", "."], cwd=tmp_path, check=True)
    subprocess.run([*git, "commit", "-q", "-m", "inicio"], cwd=tmp_path, check=True)
    monkeypatch.setattr(tareas, "RAIZ", tmp_path)
    return cuaderno


def test_sin_cambios_sigue(repositorio):
    assert tareas._proteger_cuadernos(["notebooks/01_x.ipynb"], "prueba") == ["notebooks/01_x.ipynb"]


def test_con_cambios_se_niega_y_dice_por_que(repositorio):
    repositorio.write_text('{"respuesta": 42}\n')
    with pytest.raises(SystemExit) as salida:
        tareas._proteger_cuadernos([], "vuelve a ejecutar los cuadernos")
    mensaje = str(salida.value)
    assert "cambios sin guardar" in mensaje and "notebooks/01_x.ipynb" in mensaje and "--forzar" in mensaje
    assert tareas._proteger_cuadernos(["--forzar"], "prueba") == []


def test_solo_mira_los_cuadernos_pedidos(repositorio):
    repositorio.write_text('{"respuesta": 42}\n')  # la lección 01 tiene trabajo del estudiante
    raiz = repositorio.parent.parent
    (raiz / "notebooks" / "02_y.ipynb").write_text("{}\n")
    git = ["git", "-c", "user.name=curso", "-c", "user.email=curso@example.org"]
    subprocess.run([*git, "add", "notebooks/02_y.ipynb"], cwd=raiz, check=True)
    subprocess.run([*git, "commit", "-q", "-m", "otro", "--", "notebooks/02_y.ipynb"], cwd=raiz, check=True)
    assert tareas._proteger_cuadernos(["notebooks/02_y.ipynb"], "prueba") == ["notebooks/02_y.ipynb"]
    with pytest.raises(SystemExit, match="01_x"):
        tareas._proteger_cuadernos(["notebooks/01_x.ipynb"], "prueba")


def test_sin_git_pide_forzar(monkeypatch):
    monkeypatch.setattr(tareas.shutil, "which", lambda nombre: None)
    with pytest.raises(SystemExit, match="no puedo comprobar con git.*--forzar"):
        tareas._proteger_cuadernos([], "prueba")


# --- Las pruebas en paralelo y las condiciones de PRUEBAS.md ---------------------------------------------------


def test_en_paralelo_un_proceso_por_nucleo_y_cada_archivo_entero():
    assert tareas.en_paralelo(["tests"], nucleos=2) == ["-n", "2", "--dist", "loadfile", "--no-loadscope-reorder",
                                                         "tests"]
    assert tareas.en_paralelo([], nucleos=16)[:2] == ["-n", "4"]  # como mucho 4
    assert tareas.en_paralelo(["-x"], nucleos=1) == ["-x"]  # un núcleo: sin procesos de más
    for propio in (["-n", "3"], ["-n3"], ["--dist", "load"], ["-p", "no:xdist"]):
        assert tareas.en_paralelo(propio, nucleos=8) == propio  # lo que pida quien ejecuta, manda


def test_los_archivos_mas_largos_se_reparten_primero():
    """Sin reordenar por número de pruebas (en_paralelo), pytest-xdist reparte los archivos en el orden de
    conftest.orden_de_ejecucion: los de minutos primero, después los cuadernos y al final las pruebas cortas."""
    import importlib.util

    especificacion = importlib.util.spec_from_file_location("conftest_raiz", RAIZ / "conftest.py")
    raiz = importlib.util.module_from_spec(especificacion)
    especificacion.loader.exec_module(raiz)
    rutas = ["tests/test_atencion.py", "notebooks/01_a_quien_mira_cada_palabra.ipynb", "tests/test_sitio.py",
             "notebooks/10_mini_gpt.ipynb", "tests/test_navegador.py", "tests/test_rise.py", "tests/test_ci.py"]
    assert sorted(rutas, key=raiz.orden_de_ejecucion) == [
        "tests/test_rise.py", "tests/test_sitio.py", "notebooks/10_mini_gpt.ipynb", "tests/test_navegador.py",
        "notebooks/01_a_quien_mira_cada_palabra.ipynb", "tests/test_atencion.py", "tests/test_ci.py"]
    for nombre in raiz.PRIMERO:  # ninguno de la lista se ha quedado sin archivo
        assert list(RAIZ.glob(f"tests/{nombre}")) or list(RAIZ.glob(f"notebooks/{nombre}")), nombre


def test_perturbadas_repite_solo_los_cuadernos(monkeypatch):
    llamadas = []
    monkeypatch.setattr(tareas, "pruebas", lambda argumentos, extra=None: llamadas.append((argumentos, extra)) or 0)
    assert tareas.perturbadas(["-x"]) == 0
    assert llamadas == [(["-x"], {}), (["notebooks", "-x"], {"OMP_NUM_THREADS": "1"}),
                        (["-n", "0", "notebooks", "-x"], {}), (["notebooks", "-x"], {"ATEN_CPU_CAPABILITY": "avx2"})]
    llamadas.clear()
    tareas.perturbadas(["notebooks/05_mascaras.ipynb"])  # con rutas pedidas, esas en las cuatro
    assert [a for a, _ in llamadas] == [["notebooks/05_mascaras.ipynb"], ["notebooks/05_mascaras.ipynb"],
                                        ["-n", "0", "notebooks/05_mascaras.ipynb"], ["notebooks/05_mascaras.ipynb"]]


# --- La ayuda: nunca instala, sale sin error y no habla en nombres internos -------------------------------------


def _sin_instalar_ni_ejecutar(monkeypatch):
    """Cualquier intento de instalar o de ejecutar algo hace fallar la prueba."""
    def no_debe_llegar(*_, **__):
        pytest.fail("la ayuda instaló o ejecutó algo")

    for nombre in ("preparar_entorno", "_ejecutar", "_ejecutar_vigilando", "_en_entorno", "crear_entorno"):
        monkeypatch.setattr(tareas, nombre, no_debe_llegar)


@pytest.mark.parametrize("opcion", ["-h", "--help", "--ayuda"])
def test_la_ayuda_general_sale_sin_error(monkeypatch, capsys, opcion):
    _sin_instalar_ni_ejecutar(monkeypatch)
    with pytest.raises(SystemExit) as salida:
        tareas.main([opcion])
    assert salida.value.code in (0, None), f"`tareas.py {opcion}` sale con el código {salida.value.code}"
    texto = capsys.readouterr()
    assert "Para estudiar:" in texto.out and "No conozco" not in texto.out + texto.err


@pytest.mark.parametrize("opcion", ["-h", "--help", "--ayuda"])
def test_la_ayuda_de_cada_tarea_no_instala_nada(monkeypatch, capsys, opcion):
    _sin_instalar_ni_ejecutar(monkeypatch)
    for tarea in tareas.TAREAS:
        with pytest.raises(SystemExit) as salida:
            tareas.main([tarea, opcion])
        assert salida.value.code in (0, None), f"`tareas.py {tarea} {opcion}` sale con el código {salida.value.code}"
        assert capsys.readouterr().out.startswith(f"python3 tareas.py {tarea}: ")
    with pytest.raises(SystemExit) as salida:
        tareas.main(["diapositivas", "--marcar", opcion])  # también detrás de otras opciones
    assert salida.value.code in (0, None) and capsys.readouterr().out.startswith("python3 tareas.py diapositivas: ")


def test_la_ayuda_no_nombra_constantes_ni_archivos_que_no_estan():
    variables = {"OMP_NUM_THREADS", "ATEN_CPU_CAPABILITY", "CURSO_TORCH"}  # las que escribe quien usa el comando
    textos = {"tareas.py": tareas.__doc__} | {t: tareas.ayuda_de_la_tarea(t) for t in tareas.TAREAS}
    for nombre, texto in textos.items():
        internos = set(re.findall(r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b", texto)) - variables
        assert not internos, f"la ayuda de {nombre} nombra constantes del código: {internos}"
        for citado in re.findall(r"[\w./-]+\.(?:md|py|txt|cff)\b", texto):
            if citado.startswith(("tareas.py", "herramientas.")):
                continue
            assert (RAIZ / citado).exists() or (RAIZ / "herramientas" / citado).exists(), \
                f"la ayuda de {nombre} cita {citado}, que no está en el repositorio"


def test_las_cifras_de_la_ayuda_de_diapositivas_son_las_del_codigo():
    from herramientas import diapositivas

    ayuda = tareas.ayuda_de_la_tarea("diapositivas")
    assert f"más de {diapositivas.LINEAS_LARGO} líneas" in ayuda
    assert f"más de {diapositivas.LINEAS_PANTALLA} líneas seguidas" in ayuda
    assert f"una figura cuenta {diapositivas.LINEAS_FIGURA}" in ayuda
    assert f"como mucho {diapositivas.PALABRAS_PANTALLA} palabras" in ayuda
    assert f"el código de más de {diapositivas.LINEAS_CODIGO_FIGURA} líneas queda plegado" in ayuda
    ancho, alto = diapositivas.AJUSTES_RISE["width"], diapositivas.AJUSTES_RISE["height"]
    assert f"diapositivas de {ancho} × {alto}" in ayuda


def test_las_tareas_de_quien_ensena_usan_el_entorno_del_estudiante(monkeypatch):
    niveles = []
    monkeypatch.setattr(tareas, "preparar_entorno", lambda desarrollo=False: niveles.append(desarrollo))
    monkeypatch.setattr(tareas, "_en_entorno", lambda argumentos, extra=None: 0)
    for tarea in ("diapositivas", "banco", "corregir"):
        with pytest.raises(SystemExit):
            tareas.main([tarea])
    assert niveles == [False, False, False], "diapositivas, banco y corregir no necesitan pytest ni playwright"


def test_lo_que_importan_las_tareas_de_quien_ensena_esta_en_requirements_txt():
    import ast

    nombre_en_pip = {"yaml": "pyyaml", "PIL": "pillow", "sklearn": "scikit-learn"}
    requisitos = {re.split(r"[=<>\[ ]", linea, maxsplit=1)[0].lower().replace("_", "-")
                  for linea in (RAIZ / "requirements.txt").read_text(encoding="utf-8").splitlines()
                  if linea and not linea.startswith((" ", "#", "-"))}
    requisitos |= {"torch"}  # fijado en requirements.in e instalado aparte
    pendientes = ["herramientas.diapositivas", "herramientas.banco", "herramientas.corregir"]
    vistos, terceros = set(), {}
    while pendientes:
        modulo = pendientes.pop()
        if modulo in vistos:
            continue
        vistos.add(modulo)
        archivo = RAIZ / (modulo.replace(".", "/") + ".py")
        if not archivo.exists():
            archivo = RAIZ / modulo.replace(".", "/") / "__init__.py"
        for nodo in ast.walk(ast.parse(archivo.read_text(encoding="utf-8"))):
            nombres = ([a.name for a in nodo.names] if isinstance(nodo, ast.Import)
                       else [nodo.module] if isinstance(nodo, ast.ImportFrom) and nodo.module and not nodo.level
                       else [])
            for nombre in nombres:
                raiz = nombre.split(".")[0]
                if raiz in ("herramientas", "utilidades"):
                    pendientes.append(nombre)
                elif raiz not in sys.stdlib_module_names:
                    terceros.setdefault(nombre_en_pip.get(raiz, raiz).lower(), modulo)
    assert "nbconvert" in terceros and "psutil" in terceros, "la prueba ve lo que importan las herramientas"
    faltan = {paquete: modulo for paquete, modulo in terceros.items() if paquete not in requisitos}
    assert not faltan, f"estos paquetes no están en requirements.txt (paquete: quién lo importa): {faltan}"


@pytest.mark.parametrize("modulo", ["herramientas.diapositivas", "herramientas.banco", "herramientas.corregir"])
def test_la_ayuda_de_cada_herramienta_sale_sin_error(modulo):
    resultado = subprocess.run([sys.executable, "-m", modulo, "--ayuda"], cwd=RAIZ, capture_output=True, text=True,
                               timeout=120)
    assert resultado.returncode == 0, f"{modulo} --ayuda sale con {resultado.returncode}: {resultado.stderr[-500:]}"
    assert "Uso:" in resultado.stdout
