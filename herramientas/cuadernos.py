"""Los cuadernos del curso como archivos: cuáles son, leerlos y escribirlos en el formato de Jupyter, el texto de
una celda, y los argumentos de las órdenes que reciben cuadernos. Lo usan todas las herramientas; no importa
ninguna otra."""

import argparse
import json
import pathlib
import re
import sys

RAIZ = pathlib.Path(__file__).resolve().parent.parent
ETIQUETA_NAVEGACION = "navegacion"  # las celdas de enlaces que genera herramientas.celdas llevan esta etiqueta


def cuadernos(incluir_soluciones=True):
    """Lista ordenada de los cuadernos del curso (lecciones y, si se pide, soluciones)."""
    lecciones = sorted((RAIZ / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    if not incluir_soluciones:
        return lecciones
    return lecciones + sorted((RAIZ / "notebooks" / "soluciones").glob("[0-9][0-9]_*.ipynb"))


class _Ayuda(argparse.Action):
    def __init__(self, option_strings, dest, **_):
        super().__init__(option_strings, dest, nargs=0, help="muestra cómo se usa la orden y sale")

    def __call__(self, analizador, *_):
        print(analizador.format_help().strip())
        analizador.exit(0)


class Orden(argparse.ArgumentParser):
    """El analizador de argumentos de todas las órdenes del curso: argparse, con -h, --help y --ayuda y con los
    errores en castellano (qué falla y qué escribir). `uso` es el texto de ayuda de la orden (su docstring)."""

    def __init__(self, uso="", **opciones):
        super().__init__(add_help=False, allow_abbrev=False, **opciones)
        self.uso = uso.strip()
        self.add_argument("-h", "--help", "--ayuda", action=_Ayuda)

    def format_help(self):
        if not self.uso:
            return super().format_help()
        propias = [a for a in self._actions if not isinstance(a, _Ayuda) and a.option_strings]
        lineas = [f"  {', '.join(a.option_strings)}{' N' if a.nargs is None and a.type else ''}   {a.help or ''}"
                  for a in propias]
        return self.uso + ("\n\nOpciones:\n" + "\n".join(lineas) if lineas and "--" not in self.uso else "")

    def _admitidas(self):
        opciones = [o for a in self._actions if not isinstance(a, _Ayuda) for o in a.option_strings]
        return f"las que admite son {', '.join(opciones)}" if opciones else "no admite ninguna"

    def error(self, message):
        desconocidas = re.match(r"unrecognized arguments: (\S+)", message)
        mal_valor = re.match(r"argument (\S+): invalid (\w+) value: '(.*)'", message)
        sin_valor = re.match(r"argument (\S+): expected one argument", message)
        if desconocidas:
            texto = f"No conozco la opción «{desconocidas.group(1)}»: esta orden {self._admitidas()}."
        elif mal_valor:
            tipo = {"int": "un número entero", "float": "un número"}.get(mal_valor.group(2), "otro valor")
            texto = f"{mal_valor.group(1)} espera {tipo}, no «{mal_valor.group(3)}»."
        elif sin_valor:
            opcion = sin_valor.group(1)
            accion = next((a for a in self._actions if opcion in a.option_strings), None)
            ejemplo = accion.metavar if accion is not None and accion.metavar else "VALOR"
            texto = f"Falta el valor de {opcion}: escríbelo justo después, como {opcion} {ejemplo}."
        else:
            texto = f"No entiendo la orden ({message})."
        sys.exit(f"{texto} Añade --ayuda para ver cómo se usa.")


def leer_argumentos(argumentos, opciones=(), uso="", deben_existir=True):
    """(opciones pedidas, rutas de los cuadernos) de una orden del curso; si algo no encaja, sale con un mensaje claro.

    `opciones` son las que admite la orden (por ejemplo "--guardar"). Con -h, --help o --ayuda muestra `uso` y sale
    sin error. Una opción desconocida, algo que no es un .ipynb o (con `deben_existir`) un cuaderno que no existe
    paran antes de hacer nada.
    """
    analizador = Orden(uso)
    for opcion in opciones:
        analizador.add_argument(opcion, action="store_true")
    analizador.add_argument("cuadernos", nargs="*")
    leidos = analizador.parse_args(list(argumentos))
    pedidas = [o for o in opciones if getattr(leidos, o.lstrip("-").replace("-", "_"))]
    return pedidas, rutas_de_cuadernos(leidos.cuadernos, deben_existir)


def rutas_de_cuadernos(argumentos, deben_existir=True):
    """Las rutas (resueltas) de los cuadernos pedidos; si uno no es un .ipynb o (con `deben_existir`) no existe, sale
    con un mensaje claro antes de hacer nada."""
    rutas = []
    for argumento in argumentos:
        ruta = pathlib.Path(argumento)
        if ruta.suffix != ".ipynb":
            sys.exit(f"«{argumento}» no es un cuaderno: se esperan rutas .ipynb, como "
                     f"notebooks/02_atencion_a_mano.ipynb (o ninguna, para todos).")
        if deben_existir and not ruta.is_file():
            sys.exit(f"No existe el cuaderno {argumento}; revisa la ruta (por ejemplo "
                     f"notebooks/02_atencion_a_mano.ipynb).")
        rutas.append(ruta.resolve())
    return rutas


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


def fin_de_la_apertura(celdas):
    """Cuántas celdas abren la lección: las de texto del principio, hasta la navegación, la primera de código o la
    primera sección («## …»). Al menos una, el título."""
    fin = 0
    for celda in celdas:
        texto = fuente(celda).lstrip()
        if (celda["cell_type"] != "markdown" or ETIQUETA_NAVEGACION in celda.get("metadata", {}).get("tags", [])
                or (fin and texto.startswith("## "))):
            break
        fin += 1
    return max(fin, 1)


def apertura(cuaderno):
    """El texto con que abre una lección (ver `fin_de_la_apertura`): título, presentación, «Al terminar podrás»,
    requisitos y tiempo pueden ir en una celda o en varias (así caben en las diapositivas)."""
    celdas = cuaderno["cells"]
    return "\n\n".join(fuente(c) for c in celdas[:fin_de_la_apertura(celdas)])


def titulo(ruta):
    """«NN · Título» de una lección, leído de su primera línea «# NN · Título»."""
    primera = fuente(leer_cuaderno(ruta)["cells"][0]).splitlines()[0]
    return primera.lstrip("# ").strip()
