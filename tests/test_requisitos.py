"""Las versiones fijadas: requirements.txt fija, con sus hashes, todo lo que pip instala en Linux, macOS y Windows (un
solo archivo, con marcas de plataforma) salvo torch, que va en su propio paso (requirements.in dice su versión), y
nada de CUDA; requirements-desarrollo.txt, lo de quien contribuye."""

import importlib.metadata
import re

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from herramientas.cuadernos import RAIZ

LINEA = re.compile(r"^(?P<nombre>[A-Za-z0-9._-]+)==(?P<version>[^\s;#]+)(?: ; (?P<marca>.+))?$")
# Lo que pip instalaría de más fuera de Linux si faltara aquí: cada uno, con la marca de su sistema.
SOLO_EN = {"appnope": "darwin", "colorama": "win32", "pywinpty": "nt"}
SISTEMAS = {  # los entornos de packaging.markers de cada sistema, con Python 3.11
    "linux": {"sys_platform": "linux", "os_name": "posix", "platform_system": "Linux", "platform_machine": "x86_64"},
    "darwin": {"sys_platform": "darwin", "os_name": "posix", "platform_system": "Darwin", "platform_machine": "arm64"},
    "win32": {"sys_platform": "win32", "os_name": "nt", "platform_system": "Windows", "platform_machine": "AMD64"},
}


def _lineas(nombre, con_hashes=False):
    """Cada requisito de un archivo en una línea (las que siguen con «\\» unidas); sin sus hashes, salvo si se piden."""
    lineas = []
    for linea in (RAIZ / nombre).read_text(encoding="utf-8").replace("\\\n", " ").splitlines():
        linea = linea.split("  #")[0].strip()
        if linea and not linea.startswith(("#", "-r ")):
            lineas.append(linea if con_hashes else re.sub(r"\s+--hash=\S+", "", linea))
    return lineas


def _fijadas(nombre):
    """{nombre normalizado: (versión, marca o None)} de un archivo de requisitos, o falla si una línea no encaja."""
    fijadas = {}
    for linea in _lineas(nombre):
        encaje = LINEA.match(linea)
        assert encaje, f"{nombre}: «{linea}» no es «paquete==versión» (con « ; marca» si depende del sistema)"
        clave = canonicalize_name(encaje["nombre"])
        assert clave not in fijadas, f"{nombre}: {clave} aparece dos veces"
        fijadas[clave] = (encaje["version"], encaje["marca"])
    return fijadas


def _entorno(sistema, python="3.11"):
    return {"python_version": python, "python_full_version": f"{python}.7", "implementation_name": "cpython",
            "platform_python_implementation": "CPython", **SISTEMAS[sistema]}


def test_lo_que_pide_el_curso_esta_fijado():
    fijadas = _fijadas("requirements.txt")
    pedidos = [canonicalize_name(re.split(r"[=<>]", linea)[0]) for linea in _lineas("requirements.in")]
    assert pedidos and "torch" in pedidos, "requirements.in debe nombrar lo que usa el curso"
    assert not [p for p in pedidos if p not in fijadas and p != "torch"], "requirements.in pide algo sin fijar"
    assert "torch" not in fijadas, "torch va en su propio paso: el mismo torch tiene otro hash en cada índice"
    assert re.search(r"^torch==\d+\.\d+\.\d+$", (RAIZ / "requirements.in").read_text(encoding="utf-8"), re.M)


@pytest.mark.parametrize("archivo", ["requirements.txt", "requirements-desarrollo.txt"])
def test_cada_paquete_lleva_sus_hashes(archivo):
    """pip comprueba que cada archivo que baja es el fijado; con un solo requisito sin hash, pip no instalaría nada."""
    sin = [linea.split(" ")[0] for linea in _lineas(archivo, con_hashes=True)
           if not re.search(r"--hash=sha256:[0-9a-f]{64}", linea)]
    assert not sin, f"{archivo}: sin hash: {sin}"


@pytest.mark.parametrize("paquete,sistema", sorted(SOLO_EN.items()))
def test_lo_de_cada_sistema_esta_fijado_con_su_marca(paquete, sistema):
    version, marca = _fijadas("requirements.txt")[paquete]
    assert marca, f"{paquete} solo hace falta en un sistema: debe llevar marca"
    for otro in SISTEMAS:
        assert Marker(marca).evaluate(_entorno(otro)) == (otro == sistema or (sistema == "nt" and otro == "win32")), (
            f"{paquete} ({marca}) en {otro}")


def test_nada_de_cuda():
    """torch llega del índice solo CPU en Linux: si la lista pidiera los paquetes de CUDA, pip los bajaría (GB)."""
    cuda = [n for n in _fijadas("requirements.txt") if n.startswith(("nvidia-", "cuda-")) or n == "triton"]
    assert not cuda, f"requirements.txt no debe fijar paquetes de CUDA: {cuda}"


def test_en_linux_lo_fijado_se_basta_a_si_mismo():
    """Cada paquete que se instala en Linux tiene sus dependencias (las de este entorno) también fijadas, con la
    misma versión que aquí: nada se instala sin versión."""
    torch = re.search(r"^torch==(\S+)$", (RAIZ / "requirements.in").read_text(encoding="utf-8"), re.M).group(1)
    fijadas = {**_fijadas("requirements.txt"), **_fijadas("requirements-desarrollo.txt"), "torch": (torch, None)}
    entorno = _entorno("linux")
    en_linux = {n for n, (_, marca) in fijadas.items() if marca is None or Marker(marca).evaluate(entorno)}
    sueltas = []
    for nombre in sorted(en_linux):
        if nombre == "torch":  # sus dependencias de CUDA, a propósito fuera (test_nada_de_cuda)
            requisitos = [r for r in importlib.metadata.requires("torch") or [] if not r.startswith(("nvidia", "cuda",
                                                                                                      "triton"))]
        else:
            requisitos = importlib.metadata.requires(nombre) or []
        assert importlib.metadata.version(nombre).split("+")[0] == fijadas[nombre][0], f"{nombre}: otra versión aquí"
        for texto in requisitos:
            requisito = Requirement(texto)
            if requisito.marker and not requisito.marker.evaluate({**entorno, "extra": ""}):
                continue
            if canonicalize_name(requisito.name) not in en_linux:
                sueltas.append(f"{nombre} pide {texto}")
    assert not sueltas, "Dependencias sin fijar en Linux:\n" + "\n".join(sueltas)


def test_las_de_desarrollo_estan_fijadas_y_no_repiten():
    estudiante, desarrollo = _fijadas("requirements.txt"), _fijadas("requirements-desarrollo.txt")
    assert "pytest-xdist" in desarrollo and "pytest" in desarrollo
    assert not set(estudiante) & set(desarrollo), "lo del estudiante va solo en requirements.txt"
    assert (RAIZ / "requirements-desarrollo.txt").read_text(encoding="utf-8").count("-r requirements.txt") == 1
