"""Guardia de sincronía: el código que enseña cada cuaderno es exactamente el de `utilidades`.

Una celda que empieza con `# guardar: utilidades/MODULO.py` enseña funciones, clases o constantes
(nombres en MAYÚSCULAS) de ese módulo; el resto de la celda puede usarlas para mostrar algo.
Cada definición de la celda se compara, por su árbol sintáctico (`ast.unparse`), con la del módulo:
comentarios y comillas pueden cambiar; el código no.

Una celda que empieza con `# primera versión: utilidades/MODULO.py` enseña la idea de una definición antes de que
la lección que la amplía la muestre entera: su código es más sencillo que el del módulo (si fuera igual, sería una
celda `# guardar`), y la versión entera aparece en una celda `# guardar` de la misma lección o de una posterior.
Un nombre cuenta como enseñado desde la primera lección que muestra cualquiera de sus versiones.
"""

import ast
import difflib
import pathlib
import re

import pytest

from herramientas.cuadernos import RAIZ, cuadernos, fuente, leer_cuaderno

MARCA = re.compile(r"^# guardar: (utilidades/[\w/]+\.py)\s*$")
MARCA_PRIMERA = re.compile(r"^# primera versión: (utilidades/[\w/]+\.py)\s*$")
TIPOS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Assign, ast.AnnAssign)


def _nombre(nodo):
    """Nombre de una definición de nivel superior (o None si no es una que se compare)."""
    if isinstance(nodo, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return nodo.name
    # De las asignaciones solo cuentan las constantes (MAYÚSCULAS); el resto es código de demostración.
    if isinstance(nodo, ast.Assign) and len(nodo.targets) == 1 and isinstance(nodo.targets[0], ast.Name):
        nombre = nodo.targets[0].id
    elif isinstance(nodo, ast.AnnAssign) and isinstance(nodo.target, ast.Name):
        nombre = nodo.target.id
    else:
        return None
    return nombre if nombre.isupper() else None


def definiciones(codigo):
    """Diccionario nombre -> código normalizado de las definiciones de nivel superior."""
    return {_nombre(n): ast.unparse(n) for n in ast.parse(codigo).body if isinstance(n, TIPOS) and _nombre(n)}


def celdas_marcadas():
    """Lista de (cuaderno, índice de celda, módulo, código) de todas las celdas con la marca."""
    encontradas = []
    for ruta in cuadernos():
        for i, celda in enumerate(leer_cuaderno(ruta)["cells"]):
            if celda["cell_type"] != "code":
                continue
            codigo = fuente(celda)
            primera = codigo.split("\n", 1)[0]
            if primera.startswith("# guardar"):
                marca = MARCA.match(primera)
                assert marca, f"{ruta.name} celda {i}: la marca debe ser exactamente «# guardar: utilidades/x.py»"
                encontradas.append((ruta, i, marca.group(1), codigo))
    return encontradas


def celdas_de_primera_version():
    """Lista de (cuaderno, índice de celda, módulo, código) de las celdas `# primera versión: ...`."""
    encontradas = []
    for ruta in cuadernos():
        for i, celda in enumerate(leer_cuaderno(ruta)["cells"]):
            codigo = fuente(celda) if celda["cell_type"] == "code" else ""
            primera = codigo.split("\n", 1)[0]
            if primera.startswith("# primera"):
                marca = MARCA_PRIMERA.match(primera)
                assert marca, (f"{ruta.name} celda {i}: la marca debe ser exactamente "
                               f"«# primera versión: utilidades/x.py»")
                encontradas.append((ruta, i, marca.group(1), codigo))
    return encontradas


CELDAS = celdas_marcadas()
PRIMERAS = celdas_de_primera_version()


def test_hay_celdas_marcadas():
    assert CELDAS, "Ningún cuaderno marca celdas con «# guardar: ...»: la guardia no comprobaría nada."


@pytest.mark.parametrize("ruta,indice,modulo,codigo", CELDAS, ids=[f"{r.name}#{i}" for r, i, _, _ in CELDAS])
def test_celda_igual_al_modulo(ruta, indice, modulo, codigo):
    archivo = RAIZ / modulo
    assert archivo.exists(), f"{ruta.name} celda {indice} apunta a {modulo}, que no existe."
    en_celda = definiciones(codigo)
    assert en_celda, f"{ruta.name} celda {indice} está marcada pero no define nada."
    en_modulo = definiciones(archivo.read_text(encoding="utf-8"))
    problemas = []
    for nombre, texto in en_celda.items():
        if nombre not in en_modulo:
            problemas.append(f"«{nombre}» está en la celda pero no en {modulo}.")
        elif en_modulo[nombre] != texto:
            diferencia = "\n".join(difflib.unified_diff(
                en_modulo[nombre].splitlines(), texto.splitlines(),
                fromfile=modulo, tofile=f"{ruta.name} celda {indice}", lineterm=""))
            problemas.append(f"«{nombre}» no coincide:\n{diferencia}")
    assert not problemas, "El cuaderno y el módulo se han separado:\n" + "\n\n".join(problemas)


@pytest.mark.parametrize("ruta,indice,modulo,codigo", PRIMERAS, ids=[f"{r.name}#{i}" for r, i, _, _ in PRIMERAS])
def test_primera_version_se_completa_despues(ruta, indice, modulo, codigo):
    """Una primera versión define nombres del módulo, no es igual a la del módulo, y la entera se enseña después."""
    en_celda = definiciones(codigo)
    assert en_celda, f"{ruta.name} celda {indice} está marcada como primera versión pero no define nada."
    archivo = RAIZ / modulo
    assert archivo.exists(), f"{ruta.name} celda {indice} apunta a {modulo}, que no existe."
    en_modulo = definiciones(archivo.read_text(encoding="utf-8"))
    problemas = []
    for nombre, texto in en_celda.items():
        if nombre not in en_modulo:
            problemas.append(f"«{nombre}» no está en {modulo}: una primera versión sencilla de algo que no existe.")
            continue
        if en_modulo[nombre] == texto:
            problemas.append(f"«{nombre}» es igual que en {modulo}: márcala «# guardar: {modulo}».")
        completas = [(r, i) for r, i, m, c in CELDAS if m == modulo and nombre in definiciones(c)
                     and "soluciones" not in r.parts and (_leccion(r), i) > (_leccion(ruta), indice)]
        if not completas:
            problemas.append(f"«{nombre}»: ninguna celda «# guardar: {modulo}» de esta lección (más abajo) o de "
                             f"una posterior muestra la versión entera.")
    assert not problemas, f"{ruta.name} celda {indice}:\n" + "\n".join(problemas)


def test_cada_nombre_se_ensena_una_vez():
    vistos = {}
    repetidos = []
    for ruta, indice, modulo, codigo in CELDAS:
        if "soluciones" in ruta.parts:
            continue
        for nombre in definiciones(codigo):
            clave = (modulo, nombre)
            if clave in vistos:
                repetidos.append(f"{modulo}:{nombre} en {vistos[clave]} y en {ruta.name}#{indice}")
            vistos[clave] = f"{ruta.name}#{indice}"
    assert not repetidos, "Cada definición se enseña en un solo sitio:\n" + "\n".join(repetidos)


def _leccion(ruta):
    return int(ruta.name[:2])


def _sin_magias(codigo):
    """El código de una celda sin las líneas de IPython (`%magia`, `!orden`), que `ast` no entiende."""
    return "\n".join("" if linea.lstrip().startswith(("%", "!")) else linea for linea in codigo.splitlines())


def _es_modulo_de_utilidades(nombre):
    partes = nombre.split(".")
    return (RAIZ / pathlib.Path(*partes)).with_suffix(".py").exists() or (RAIZ / pathlib.Path(*partes)).is_dir()


def nombres_importados(codigo):
    """Nombres de `utilidades` que usa un código: `from utilidades.x import (a, b)`, `import utilidades.x`
    seguido de `utilidades.x.c`, `from utilidades import x as m` seguido de `m.d`… (leídos con `ast`)."""
    arbol = ast.parse(_sin_magias(codigo))
    nombres, modulos = set(), {}  # modulos: nombre local -> módulo de utilidades
    for nodo in ast.walk(arbol):
        if isinstance(nodo, ast.ImportFrom) and (nodo.module or "").split(".")[0] == "utilidades":
            for alias in nodo.names:
                completo = f"{nodo.module}.{alias.name}"
                if _es_modulo_de_utilidades(completo):
                    modulos[alias.asname or alias.name] = completo
                else:
                    nombres.add(alias.name)
        elif isinstance(nodo, ast.Import):
            for alias in nodo.names:
                if alias.name.split(".")[0] == "utilidades":
                    modulos[alias.asname or alias.name.split(".")[0]] = alias.name if alias.asname else "utilidades"
    for nodo in ast.walk(arbol):
        if isinstance(nodo, ast.Attribute):
            base = nodo.value
            cadena = []
            while isinstance(base, ast.Attribute):
                cadena.insert(0, base.attr)
                base = base.value
            if isinstance(base, ast.Name) and base.id in modulos:
                ruta = ".".join([modulos[base.id], *cadena])
                if not _es_modulo_de_utilidades(f"{ruta}.{nodo.attr}"):
                    nombres.add(nodo.attr)
    return nombres - {"*"}


def test_una_leccion_solo_importa_lo_ya_ensenado():
    """Una lección no usa de `utilidades` algo que se enseña en una lección posterior."""
    ensenado_en = {}
    for ruta, _, _modulo, codigo in sorted(CELDAS + PRIMERAS, key=lambda c: _leccion(c[0])):
        if "soluciones" not in ruta.parts:
            for nombre in definiciones(codigo):
                ensenado_en.setdefault(nombre, _leccion(ruta))
    adelantados = []
    for ruta in cuadernos(incluir_soluciones=False):
        for celda in leer_cuaderno(ruta)["cells"]:
            if celda["cell_type"] != "code":
                continue
            for nombre in sorted(nombres_importados(fuente(celda))):
                if ensenado_en.get(nombre, 0) > _leccion(ruta):
                    adelantados.append(f"{ruta.name} importa {nombre}, que se enseña en la lección "
                                       f"{ensenado_en[nombre]:02d}")
    assert not adelantados, "\n".join(adelantados)


def test_la_guardia_de_importaciones_lee_todas_las_formas():
    codigo = """
%matplotlib inline
from utilidades.gpt import (
    MiniGPT,
    entrenar_gpt,  # con comentario
)
import utilidades.bloques
import utilidades.posicion as pos
from utilidades import invertir as m
from utilidades.ejercicios import comprobar
x = utilidades.bloques.BloqueTransformer(8, 2)
y = pos.posicion_sinusoidal(4, 8)
z = m.TransformerJuguete
"""
    assert nombres_importados(codigo) == {"MiniGPT", "entrenar_gpt", "BloqueTransformer", "posicion_sinusoidal",
                                          "TransformerJuguete", "comprobar"}


def test_la_guardia_detecta_una_diferencia():
    """La comparación por árbol ignora comentarios y comillas, pero no un cambio de código."""
    original = "def f(x):\n    'doc'\n    return x + 1  # suma\n"
    mismo = 'def f(x):\n    "doc"\n    return x + 1\n'
    distinto = "def f(x):\n    'doc'\n    return x + 2\n"
    assert definiciones(original) == definiciones(mismo)
    assert definiciones(original) != definiciones(distinto)
