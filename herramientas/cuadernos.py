"""Los cuadernos del curso como archivos: cuáles son, leerlos y escribirlos en el formato de Jupyter, el texto de
una celda, y los argumentos de las órdenes que reciben cuadernos. Lo usan todas las herramientas; no importa
ninguna otra."""

import json
import pathlib
import sys

RAIZ = pathlib.Path(__file__).resolve().parent.parent
ETIQUETA_NAVEGACION = "navegacion"  # las celdas de enlaces que genera herramientas.celdas llevan esta etiqueta


def cuadernos(incluir_soluciones=True):
    """Lista ordenada de los cuadernos del curso (lecciones y, si se pide, soluciones)."""
    lecciones = sorted((RAIZ / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    if not incluir_soluciones:
        return lecciones
    return lecciones + sorted((RAIZ / "notebooks" / "soluciones").glob("[0-9][0-9]_*.ipynb"))


def leer_argumentos(argumentos, opciones=(), uso="", deben_existir=True):
    """(opciones pedidas, rutas de los cuadernos) de una orden del curso; si algo no encaja, sale con un mensaje claro.

    `opciones` son las que admite la orden (por ejemplo "--guardar"). Con -h, --help o --ayuda muestra `uso` y sale
    sin error. Una opción desconocida, algo que no es un .ipynb o (con `deben_existir`) un cuaderno que no existe
    paran antes de hacer nada.
    """
    pedidas, rutas = [], []
    for argumento in argumentos:
        if argumento in ("-h", "--help", "--ayuda"):
            print(uso.strip())
            sys.exit(0)
        if argumento.startswith("-"):
            if argumento not in opciones:
                admitidas = f"las que admite son {', '.join(opciones)}" if opciones else "no admite ninguna"
                sys.exit(f"No conozco la opción «{argumento}»: esta orden {admitidas}. Añade --ayuda para ver cómo "
                         f"se usa.")
            pedidas.append(argumento)
            continue
        ruta = pathlib.Path(argumento)
        if ruta.suffix != ".ipynb":
            sys.exit(f"«{argumento}» no es un cuaderno: se esperan rutas .ipynb, como "
                     f"notebooks/02_atencion_a_mano.ipynb (o ninguna, para todos).")
        if deben_existir and not ruta.is_file():
            sys.exit(f"No existe el cuaderno {argumento}; revisa la ruta (por ejemplo "
                     f"notebooks/02_atencion_a_mano.ipynb).")
        rutas.append(ruta.resolve())
    return pedidas, rutas


def leer_cuaderno(ruta):
    """Carga un cuaderno como diccionario JSON."""
    return json.loads(pathlib.Path(ruta).read_text(encoding="utf-8"))


def escribir_cuaderno(ruta, cuaderno):
    """Guarda un cuaderno con el formato de Jupyter (indentación 1, salto de línea final)."""
    texto = json.dumps(cuaderno, ensure_ascii=False, indent=1) + "\n"
    pathlib.Path(ruta).write_text(texto, encoding="utf-8")


def fuente(celda):
    """El texto de una celda, sea lista de líneas o cadena."""
    texto = celda.get("source", "")
    return "".join(texto) if isinstance(texto, list) else texto


def limpiar_metadatos(cuaderno):
    """Quita lo que cambia en cada ejecución o rompe la vista de GitHub: widgets y tiempos de ejecución."""
    cuaderno.get("metadata", {}).pop("widgets", None)
    for celda in cuaderno.get("cells", []):
        celda.get("metadata", {}).pop("execution", None)
        celda.pop("id", None)
    cuaderno["nbformat"], cuaderno["nbformat_minor"] = 4, 4
    return cuaderno


def titulo(ruta):
    """«NN · Título» de una lección, leído de su primera línea «# NN · Título»."""
    primera = fuente(leer_cuaderno(ruta)["cells"][0]).splitlines()[0]
    return primera.lstrip("# ").strip()
