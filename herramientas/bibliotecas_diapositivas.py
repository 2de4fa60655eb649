"""reveal.js y MathJax para las diapositivas estáticas, sin red: se sacan de dos ruedas de PyPI.

Las diapositivas de `python3 tareas.py diapositivas` se abren desde el disco (file://) sin conexión, así que
reveal.js (con su complemento de notas) y MathJax viven junto a ellas, en resultados/diapositivas/bibliotecas/.
No se guardan en el repositorio (no son nuestras): la primera vez se baja con pip cada rueda de la tabla RUEDAS
(versión fija; su huella sha256 se comprueba aquí), se extraen solo los archivos que hacen falta y se reutilizan
las veces siguientes. No instala nada en el entorno (ni Sphinx: la rueda de sphinx-revealjs solo se abre como zip).

Si no se puede bajar una rueda (sin conexión), SinBibliotecas explica en castellano qué hacer; lo ya escrito no se
borra: una biblioteca nueva se extrae aparte y solo sustituye a la anterior cuando está completa.
"""

import dataclasses
import hashlib
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

MARCA = ".rueda.json"  # dentro de cada biblioteca extraída: de qué rueda sale (así se sabe si sirve)
# Las @import de hojas de estilo de internet (el tema «simple» pide letras a Google Fonts): se quitan al extraer;
# sin red, el navegador usa la letra del sistema.
IMPORT_DE_INTERNET = re.compile(r"@import\s+url\(\s*['\"]?(?:https?:)?//[^)]*\)\s*;?")


class SinBibliotecas(Exception):
    """No se pudo conseguir una biblioteca (sin conexión, huella que no coincide…); el texto dice qué hacer."""


@dataclasses.dataclass(frozen=True)
class Rueda:
    paquete: str  # nombre en PyPI
    version: str
    sha256: str  # huella del archivo .whl
    prefijo: str  # carpeta de la rueda donde están los archivos de la biblioteca
    incluir: tuple  # archivos o carpetas (terminadas en «/») bajo el prefijo que se extraen; "" es todo
    carpeta: str  # nombre de la carpeta extraída en bibliotecas/ (lleva la versión de la biblioteca)

    def archivo(self):
        return f"{self.paquete.replace('-', '_')}-{self.version}-py3-none-any.whl"


RUEDAS = {
    # reveal.js 5.2.0 (licencia MIT) en sphinx_revealjs/_static/revealjs/: el núcleo, los temas y las notas.
    "reveal.js": Rueda(
        paquete="sphinx-revealjs", version="3.2.1",
        sha256="805bed3ca459346e0f01967d5ed1c40d6b7b917de1541e1e4566c8341fe7017b",
        prefijo="sphinx_revealjs/_static/revealjs/",
        incluir=("LICENSE", "dist/reveal.js", "dist/reveal.css", "dist/reset.css", "dist/theme/",
                 "plugin/notes/notes.js"),
        carpeta="reveal.js-5.2.0"),
    # MathJax 2.7.9 (licencia Apache 2.0) entero: carga por su cuenta las extensiones y letras que necesita.
    "mathjax": Rueda(
        paquete="jupyter-server-mathjax", version="0.2.6",
        sha256="416389dde2010df46d5fbbb7adb087a5607111070af65a1445391040f2babb5e",
        prefijo="jupyter_server_mathjax/static/", incluir=("",), carpeta="mathjax-2.7.9"),
}


def huella(ruta):
    resumen = hashlib.sha256()
    with open(ruta, "rb") as archivo:
        for trozo in iter(lambda: archivo.read(1 << 20), b""):
            resumen.update(trozo)
    return resumen.hexdigest()


def comprobar_huella(ruta, rueda):
    """Falla (SinBibliotecas) si el archivo no es la rueda esperada: otra versión o un archivo alterado."""
    obtenida = huella(ruta)
    if obtenida != rueda.sha256:
        raise SinBibliotecas(
            f"La rueda {pathlib.Path(ruta).name} no es la esperada: su huella sha256 es {obtenida} y debía ser "
            f"{rueda.sha256} ({rueda.paquete}=={rueda.version}). No se usa. Bórrala si la copiaste a mano y vuelve "
            "a ejecutar `python3 tareas.py diapositivas` con conexión para que pip baje la buena.")


def bajar_con_pip(rueda, carpeta):
    """Baja la rueda con pip a `carpeta` (sin dependencias ni compilar nada) y devuelve su ruta."""
    orden = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--disable-pip-version-check",
             f"{rueda.paquete}=={rueda.version}", "-d", str(carpeta)]
    try:
        resultado = subprocess.run(orden, capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.TimeoutExpired) as error:
        resultado = None
        detalle = str(error)
    else:
        detalle = (resultado.stderr or resultado.stdout).strip().splitlines()[-1:] or [""]
        detalle = detalle[0]
    ruta = pathlib.Path(carpeta) / rueda.archivo()
    if resultado is None or resultado.returncode != 0 or not ruta.exists():
        raise SinBibliotecas(
            f"No se pudo bajar {rueda.paquete}=={rueda.version} con pip (de ahí salen los archivos de "
            f"{rueda.carpeta} para ver las diapositivas sin red). Conéctate a internet y vuelve a ejecutar "
            "`python3 tareas.py diapositivas`: solo hace falta la primera vez. Si pip usa un índice propio, "
            f"comprueba que tiene ese paquete. Lo que dijo pip: {detalle}")
    return ruta


def _marca_de(rueda):
    return {"paquete": rueda.paquete, "version": rueda.version, "sha256": rueda.sha256}


def lista(destino, rueda):
    """True si `destino` ya tiene la biblioteca extraída de esta misma rueda."""
    try:
        return json.loads((pathlib.Path(destino) / MARCA).read_text(encoding="utf-8")) == _marca_de(rueda)
    except (OSError, ValueError):
        return False


def _se_extrae(nombre, rueda):
    if not nombre.startswith(rueda.prefijo) or nombre.endswith("/"):
        return False
    resto = nombre[len(rueda.prefijo):]
    return any(resto == parte or (parte.endswith("/") or not parte) and resto.startswith(parte)
               for parte in rueda.incluir)


def extraer(ruta_rueda, rueda, destino):
    """Extrae de la rueda los archivos de la biblioteca en `destino` (sustituye lo que hubiera solo al final)."""
    destino = pathlib.Path(destino)
    destino.parent.mkdir(parents=True, exist_ok=True)
    provisional = pathlib.Path(tempfile.mkdtemp(prefix=f".{rueda.carpeta}-", dir=destino.parent))
    provisional.chmod(0o755)  # mkdtemp la crea solo para su dueño; es una carpeta de resultados normal
    try:
        with zipfile.ZipFile(ruta_rueda) as rueda_zip:
            nombres = [n for n in rueda_zip.namelist() if _se_extrae(n, rueda)]
            if not nombres:
                raise SinBibliotecas(f"La rueda {pathlib.Path(ruta_rueda).name} no tiene {rueda.prefijo}: ¿es la "
                                     f"versión {rueda.version} de {rueda.paquete}?")
            for nombre in nombres:
                relativo = pathlib.PurePosixPath(nombre[len(rueda.prefijo):])
                if ".." in relativo.parts:
                    raise SinBibliotecas(f"La rueda {pathlib.Path(ruta_rueda).name} tiene una ruta no válida: {nombre}")
                salida = provisional.joinpath(*relativo.parts)
                salida.parent.mkdir(parents=True, exist_ok=True)
                datos = rueda_zip.read(nombre)
                if salida.suffix == ".css":
                    datos = IMPORT_DE_INTERNET.sub("", datos.decode("utf-8")).encode("utf-8")
                salida.write_bytes(datos)
        (provisional / MARCA).write_text(json.dumps(_marca_de(rueda)), encoding="utf-8")
        if destino.exists():
            viejo = destino.with_name(f".{destino.name}-viejo")
            shutil.rmtree(viejo, ignore_errors=True)
            os.replace(destino, viejo)
            os.replace(provisional, destino)
            shutil.rmtree(viejo, ignore_errors=True)
        else:
            os.replace(provisional, destino)
    finally:
        shutil.rmtree(provisional, ignore_errors=True)
    return destino


def asegurar(carpeta, ruedas=None, bajar=None, copiar_de=None):
    """Deja en `carpeta` (p. ej. resultados/diapositivas/bibliotecas) cada biblioteca de `ruedas` (RUEDAS si no se
    dice) y devuelve {nombre: su carpeta}. Reutiliza lo ya extraído de la misma rueda; si no, lo copia de
    `copiar_de` (otra carpeta de bibliotecas, si allí está completo) o baja la rueda con `bajar(rueda, carpeta)`
    (bajar_con_pip si no se dice), comprueba su huella y extrae lo necesario."""
    carpeta = pathlib.Path(carpeta)
    bajar = bajar or bajar_con_pip
    rutas = {}
    for nombre, rueda in (RUEDAS if ruedas is None else ruedas).items():
        destino = carpeta / rueda.carpeta
        if not lista(destino, rueda):
            origen = pathlib.Path(copiar_de) / rueda.carpeta if copiar_de else None
            if origen and lista(origen, rueda):
                provisional = carpeta / f".{rueda.carpeta}-copia"
                shutil.rmtree(provisional, ignore_errors=True)
                shutil.copytree(origen, provisional)
                shutil.rmtree(destino, ignore_errors=True)
                os.replace(provisional, destino)
            else:
                print(f"Preparando {rueda.carpeta} (de {rueda.paquete}=={rueda.version}, una sola vez) …", flush=True)
                with tempfile.TemporaryDirectory(prefix="ruedas-") as temporal:
                    ruta = bajar(rueda, temporal)
                    comprobar_huella(ruta, rueda)
                    extraer(ruta, rueda, destino)
        rutas[nombre] = destino
    return rutas
