"""Construye el corpus de la lección 10 con la prosa de las lecciones del curso.

Uso: python -m herramientas.corpus [--forzar]

Lee las celdas de texto de las lecciones 01 a 09 (notebooks/NN_*.ipynb, no las soluciones), les quita el
código, las fórmulas y las marcas de Markdown, y escribe datos/corpus.txt y datos/README.md. Si el corpus ya
existe, avisa y no lo toca salvo con --forzar: así, editar una lección no cambia en silencio los resultados
de la lección 10.
"""

import collections
import re
import sys

from herramientas.cuadernos import ETIQUETA_NAVEGACION, RAIZ, Orden, cuadernos, fuente, leer_cuaderno
from utilidades.formato import miles

CORPUS = RAIZ / "datos" / "corpus.txt"
LEEME = RAIZ / "datos" / "README.md"

_SIMBOLOS = {
    r"\cdot": "·", r"\times": "×", r"\approx": "≈", r"\le": "≤", r"\leq": "≤", r"\ge": "≥", r"\geq": "≥",
    r"\ne": "≠", r"\neq": "≠", r"\pm": "±", r"\to": "→", r"\rightarrow": "→", r"\infty": "∞",
    r"\sqrt": "√", r"\ln": "ln", r"\exp": "exp", r"\sum": "suma", r"\top": "T", r"\in": "en",
    r"\mu": "mu", r"\sigma": "sigma", r"\alpha": "alfa", r"\beta": "beta", r"\gamma": "gamma",
    r"\epsilon": "épsilon", r"\varepsilon": "épsilon", r"\theta": "theta", r"\lambda": "lambda",
    r"\pi": "pi", r"\omega": "omega", r"\dots": "…", r"\ldots": "…", r"\cdots": "…",
}
# Las lecciones 10 y 11 hablan del modelo que se entrena con este corpus (sus pérdidas, su tamaño, sus muestras):
# dentro del corpus, esas cifras quedarían viejas en cuanto se volviera a entrenar, y el modelo leería frases sobre
# sí mismo que ya no son verdad. Por eso el corpus es la prosa de las lecciones anteriores.
ULTIMA_LECCION = 9
_MAXIMO_EN_LINEA = 40  # una fórmula o un código más largo que esto se nombra en vez de copiarse


def formula_en_texto(tex):
    """Lee una fórmula de LaTeX en línea como texto llano («d_{modelo} = 96» -> «d_modelo = 96»).

    Si queda algo largo o con órdenes que no sé leer, devuelve «una fórmula»: el corpus debe leerse como prosa.
    """
    t = re.sub(r"\\(?:mathrm|text|operatorname|mathbf|mathit|textrm|mathcal|boldsymbol)\s*\{([^{}]*)\}",
               r"\1", tex)
    t = re.sub(r"\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}", r"\1/\2", t)
    t = re.sub(r"\\(?:left|right|big|Big|bigg|Bigg)\b", "", t)
    t = re.sub(r"\\[,;:! ]", " ", t)  # espacios finos de LaTeX
    for orden in sorted(_SIMBOLOS, key=len, reverse=True):
        t = re.sub(re.escape(orden) + r"(?![A-Za-z])", _SIMBOLOS[orden], t)
    t = re.sub(r"([_^])\{([^{}]*)\}", r"\1\2", t)  # d_{modelo} -> d_modelo
    t = t.replace("{", "").replace("}", "")
    t = re.sub(r"\s+", " ", t).strip()
    if not t or "\\" in t or len(t) > _MAXIMO_EN_LINEA:
        return "una fórmula"
    return t


def codigo_en_texto(codigo):
    """Un fragmento de código en línea se queda tal cual si es corto (un nombre, una llamada); si no, se nombra."""
    codigo = re.sub(r"\s+", " ", codigo).strip()
    if not codigo:
        return ""
    return codigo if len(codigo) <= _MAXIMO_EN_LINEA else "este código"


_QUITAR = [
    re.compile(r"```.*?```", re.S),  # bloques de código
    re.compile(r"\$\$.*?\$\$", re.S),  # fórmulas en su propia línea
    re.compile(r"\\\[.*?\\\]", re.S),
]
# Fórmulas y código dentro de una frase (pueden partir línea): se leen como texto llano, para que la frase
# siga teniendo sentido («la función atencion», no «la función ()»).
_EN_LINEA = [
    (re.compile(r"\$((?:[^$\n]|\n(?!\s*\n))+)\$"), formula_en_texto),
    (re.compile(r"`((?:[^`\n]|\n(?!\s*\n))*)`"), codigo_en_texto),
]
_REGLAS = [
    (re.compile(r"[$`]"), " "),  # lo que quede suelto
    (re.compile(r"<[^>\n]+>"), " "),  # etiquetas HTML
    (re.compile(r"!\[[^\]]*\]\([^)]*\)"), " "),  # imágenes
    (re.compile(r"\[([^\]]*)\]\([^)]*\)"), r"\1"),  # enlaces: nos quedamos con el texto
    (re.compile(r"https?://\S+"), " "),  # direcciones sueltas
    (re.compile(r"(\*\*|__|\*|~~)"), ""),  # negritas, cursivas, tachados
    (re.compile(r"(?<!\w)_(?=\w)|(?<=\w)_(?!\w)"), ""),  # _cursiva_ (no toca palabras_con_guion)
]
_LINEA_DE_MARCAS = re.compile(r"^\s*(#{1,6}\s*|>\s*|[-+*]\s+|\d+[.)]\s+)")


def limpiar_markdown(texto):
    """Devuelve la prosa de un texto Markdown: sin código, fórmulas ni marcas; un párrafo por línea."""
    for patron in _QUITAR:
        texto = patron.sub(" ", texto)
    guardados = []  # lo que sale de fórmulas y código no pasa por las reglas de Markdown (3 * d, __init__)

    def guardar(leer):
        def cambio(encontrado):
            guardados.append(leer(encontrado.group(1)))
            return f"\0{len(guardados) - 1}\0"
        return cambio

    for patron, leer in _EN_LINEA:
        texto = patron.sub(guardar(leer), texto)
    for patron, cambio in _REGLAS:
        texto = patron.sub(cambio, texto)
    texto = re.sub(r"\0(\d+)\0", lambda m: guardados[int(m.group(1))], texto)
    parrafos, actual = [], []
    for linea in texto.splitlines():
        if linea.strip().startswith("|") or re.fullmatch(r"\s*[-=*_]{3,}\s*", linea):
            linea = ""  # tablas y líneas horizontales
        marca = _LINEA_DE_MARCAS.match(linea)
        if marca or not linea.strip():
            if actual:
                parrafos.append(" ".join(actual))
            actual = []
            linea = linea[marca.end():] if marca else ""
        if linea.strip():
            actual.append(linea.strip())
    if actual:
        parrafos.append(" ".join(actual))
    parrafos = [re.sub(r"\s+([,;:!?»)]|\.(?!\w))", r"\1", re.sub(r"\s+", " ", p)).strip() for p in parrafos]
    return "\n".join(p for p in parrafos if len(p) > 1)


def prosa_de_cuaderno(ruta):
    """La prosa de todas las celdas de texto de un cuaderno, limpia, un párrafo por línea (sin los enlaces de
    navegación entre lecciones, que no son prosa)."""
    partes = [limpiar_markdown(fuente(c)) for c in leer_cuaderno(ruta)["cells"]
              if c["cell_type"] == "markdown" and ETIQUETA_NAVEGACION not in c.get("metadata", {}).get("tags", [])]
    return "\n".join(p for p in partes if p)


def construir_corpus():
    """Devuelve (texto, rutas): la prosa de las lecciones en orden, y las lecciones usadas."""
    partes, rutas = [], []
    for ruta in cuadernos(incluir_soluciones=False):
        if int(ruta.name[:2]) > ULTIMA_LECCION:
            continue
        try:
            partes.append(prosa_de_cuaderno(ruta))
        except (ValueError, KeyError) as error:  # un cuaderno a medio escribir no es JSON válido
            print(f"Aviso: no puedo leer {ruta.name} ({type(error).__name__}); lo dejo fuera del corpus.")
            continue
        rutas.append(ruta)
    return "\n".join(partes) + "\n", rutas


def _miles(n):  # el README de datos/ se lee en texto plano: espacio normal, también con cuatro cifras
    return miles(n, cuatro_cifras=True, espacio=" ")


def _leeme(texto, rutas):
    """El README de datos/: de dónde sale el corpus, cómo se reconstruye, su tamaño y su vocabulario."""
    conteo = collections.Counter(texto)
    vocabulario = "".join(sorted(conteo))
    visibles = vocabulario.replace("\n", "").replace(" ", "")
    lecciones = "\n".join(f"- `notebooks/{r.name}`" for r in rutas)
    frecuentes = ", ".join(f"«{c}» {n}" for c, n in conteo.most_common(8)).replace("«\n»", "«salto de línea»")
    return f"""# Datos del curso

## `corpus.txt`: la prosa del propio curso

Es el texto con el que se entrena el mini-GPT de la lección 10. Sale de las celdas de texto de las lecciones
01 a {ULTIMA_LECCION:02d} (no de las soluciones), en este orden:

{lecciones}

Las lecciones 10 y 11 no entran: hablan del modelo que se entrena con este corpus (sus pérdidas, su tamaño, sus
muestras), y esas cifras, dentro del corpus, quedarían viejas en cuanto se volviera a entrenar.

A cada celda se le quitan los bloques de código, las fórmulas en su propia línea, las etiquetas HTML, las
direcciones web y las marcas de Markdown (títulos, negritas, viñetas, tablas); los enlaces conservan su texto.
Lo que va dentro de una frase no se borra, para que la frase se siga entendiendo: el código en línea se queda
tal cual si es corto (un nombre como `atencion` o una llamada corta) y una fórmula en línea se lee como texto
llano (`$d_{{modelo}} = 96$` queda «d_modelo = 96»); si es demasiado larga, queda «este código» o «una fórmula».
Queda un párrafo por línea.

- Tamaño: {_miles(len(texto))} caracteres ({_miles(len(texto.split()))} palabras).
- Vocabulario: {len(vocabulario)} caracteres distintos (con el espacio y el salto de línea).
- Los más frecuentes: {frecuentes}.
- Todos los visibles, ordenados: `{visibles}`

Es pequeño a propósito: la lección 10 muestra qué pasa cuando los datos escasean.

Es una **instantánea**: la prosa de las lecciones tal como estaba el día en que se reconstruyó. Las lecciones
han podido cambiar después; el corpus no, y todas las cifras de la lección 10 (tamaño, vocabulario, pérdidas)
se refieren a este archivo, no a lo que daría reconstruirlo hoy.

## Cómo se reconstruye

El corpus está en el repositorio y **no** cambia solo cuando se edita una lección: así los resultados de la
lección 10 no se mueven en silencio. Para reconstruirlo a propósito, desde la raíz del repositorio:

```
.venv/bin/python -m herramientas.corpus --forzar
```

Sin `--forzar`, la orden avisa y no sobrescribe nada. Después vuelve a ejecutar la lección 10 y sus soluciones
(`python3 tareas.py salidas notebooks/10_mini_gpt.ipynb notebooks/soluciones/10_mini_gpt_soluciones.ipynb`).
"""


def main(argumentos=None):
    analizador = Orden(__doc__)
    analizador.add_argument("--forzar", action="store_true", help="sobrescribe el corpus si ya existe")
    opciones = analizador.parse_args(argumentos)
    texto, rutas = construir_corpus()
    if not rutas:
        print("No encuentro lecciones en notebooks/ (NN_nombre.ipynb): no hay prosa con la que construir el corpus.")
        return 1
    if CORPUS.exists() and not opciones.forzar:
        anterior = CORPUS.read_text(encoding="utf-8")
        estado = "es idéntico al actual" if anterior == texto else (
            f"tendría {_miles(len(texto))} caracteres (ahora tiene {_miles(len(anterior))})")
        print(f"Aviso: {CORPUS.relative_to(RAIZ)} ya existe y no lo toco. El corpus nuevo {estado}.\n"
              f"Si de verdad quieres reconstruirlo, repite la orden con --forzar.")
        return 1
    CORPUS.parent.mkdir(parents=True, exist_ok=True)
    CORPUS.write_text(texto, encoding="utf-8")
    LEEME.write_text(_leeme(texto, rutas), encoding="utf-8")
    print(f"Escrito {CORPUS.relative_to(RAIZ)}: {_miles(len(texto))} caracteres, {len(set(texto))} distintos, "
          f"de {len(rutas)} lecciones.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
