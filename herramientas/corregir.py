"""Corrige entregas: ejecuta cada cuaderno entregado en un kernel nuevo y resume sus ejercicios.

Uso: python3 tareas.py corregir [--csv NOTAS.csv] [--limite SEGUNDOS] ENTREGA.ipynb [...]

Cada cuaderno se ejecuta de principio a fin desde la carpeta notebooks/ del curso (así su celda de preparación
encuentra el código del curso aunque la entrega esté en otra carpeta), sin detenerse en los errores, cada uno en
un proceso aparte y con un tiempo máximo (--limite, 600 segundos por entrega si no se dice otro): una entrega que
no termina se detiene y cuenta lo que respondió hasta entonces. Los veredictos los apunta la propia comprobación
del curso (utilidades.ejercicios) en un archivo aparte cada vez que se llama: no se leen de lo que imprime el
cuaderno, así que escribir a mano «✅ Ejercicio …» no cuenta, y las salidas que el cuaderno traía guardadas
tampoco. El cuaderno entregado no se modifica.

Atención: corregir ejecuta el código de los estudiantes con los permisos de quien corrige. Hazlo en una cuenta o
máquina sin nada que proteger.
"""

import csv
import json
import pathlib
import re
import subprocess
import sys
import tempfile

from herramientas.cuadernos import RAIZ, Orden, fuente, rutas_de_cuadernos

LLAMADA = re.compile(r"""comprobar\(\s*["'](\d+\.\d+)["']""")
CLAVE_ESCRITA = re.compile(r"Ejercicio (\d\d\.\d+)")  # la clave de un ejercicio escrita en el código de la entrega
LIMITE = 600  # segundos que puede tardar una entrega entera, por defecto

# Lo que se ejecuta en el kernel antes de la entrega: envuelve `evaluar`, la función que usa `comprobar` para
# decidir, para que cada veredicto se apunte en el archivo de veredictos (una línea JSON por llamada). Se borra
# del espacio de nombres del cuaderno al terminar.
GANCHO = """
def _gancho_de_la_correccion(raiz, ruta):
    import importlib.util
    import json
    import os
    import sys
    if "utilidades" not in sys.modules:  # como la celda de preparación: el paquete de la carpeta del curso
        inicio = os.path.join(raiz, "utilidades", "__init__.py")
        especificacion = importlib.util.spec_from_file_location("utilidades", inicio)
        sys.modules["utilidades"] = importlib.util.module_from_spec(especificacion)
        especificacion.loader.exec_module(sys.modules["utilidades"])
    import utilidades.ejercicios as modulo
    original = modulo.evaluar
    def evaluar(clave, respuesta, **datos):
        veredicto = original(clave, respuesta, **datos)
        with open(ruta, "a", encoding="utf-8") as archivo:
            archivo.write(json.dumps({"clave": clave, "correcto": bool(veredicto.correcto),
                                      "mensaje": str(veredicto.mensaje)}, ensure_ascii=False) + chr(10))
        return veredicto
    modulo.evaluar = evaluar
_gancho_de_la_correccion(RAIZ_DEL_CURSO, ARCHIVO_DE_VEREDICTOS)
del _gancho_de_la_correccion
"""


def _ejecutar_entrega(ruta, archivo_veredictos, archivo_errores):
    """Ejecuta la entrega (en el proceso hijo): el gancho primero, luego sus celdas; apunta el primer error."""
    import nbformat
    from nbclient import NotebookClient

    cuaderno = nbformat.read(ruta, as_version=4)
    for celda in cuaderno.cells:
        if celda.cell_type == "code":
            celda.outputs = []
    gancho = nbformat.v4.new_code_cell(GANCHO.replace("RAIZ_DEL_CURSO", repr(str(RAIZ))).replace(
        "ARCHIVO_DE_VEREDICTOS", repr(str(archivo_veredictos))))
    cuaderno.cells.insert(0, gancho)
    cliente = NotebookClient(cuaderno, timeout=None, kernel_name="python3", allow_errors=True,
                             resources={"metadata": {"path": str(RAIZ / "notebooks")}})
    cliente.execute()
    errores = []
    for numero, celda in enumerate(cuaderno.cells):
        for salida in celda.get("outputs", []) if celda.cell_type == "code" else []:
            if salida.get("output_type") == "error":
                errores.append({"gancho": numero == 0, "texto": f"{salida.get('ename')}: {salida.get('evalue')}"})
    pathlib.Path(archivo_errores).write_text(json.dumps(errores, ensure_ascii=False), encoding="utf-8")


def _terminar(proceso):
    """Detiene el proceso hijo y todo lo que lanzó (el kernel arranca en su propia sesión: hay que buscarlo)."""
    import psutil

    try:
        familia = psutil.Process(proceso.pid).children(recursive=True)
    except psutil.Error:
        familia = []
    for hijo in familia:
        try:
            hijo.kill()
        except psutil.Error:
            pass
    proceso.kill()
    proceso.wait()
    psutil.wait_procs(familia, timeout=10)


def corregir(ruta, limite=LIMITE):
    """Ejecuta la entrega en un proceso aparte, como mucho `limite` segundos.

    Devuelve ({clave: (correcto, mensaje)}, [claves sin veredicto], primer error o None). Un veredicto es el de la
    última llamada a `comprobar` de ese ejercicio; solo cuentan las que apuntó la comprobación del curso.
    """
    ruta = pathlib.Path(ruta).resolve()
    with tempfile.TemporaryDirectory(prefix="corregir-") as carpeta:
        archivo_veredictos = pathlib.Path(carpeta) / "veredictos.jsonl"
        archivo_errores = pathlib.Path(carpeta) / "errores.json"
        orden = [sys.executable, "-c", "import sys; from herramientas.corregir import _ejecutar_entrega; "
                 "_ejecutar_entrega(*sys.argv[1:])", str(ruta), str(archivo_veredictos), str(archivo_errores)]
        proceso = subprocess.Popen(orden, cwd=RAIZ, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        error = None
        try:
            _, salida_de_error = proceso.communicate(timeout=limite)
        except subprocess.TimeoutExpired:
            _terminar(proceso)
            error = f"se detuvo al pasar el límite de {limite:g} s (¿un bucle que no termina?)"
        else:
            if not archivo_errores.exists():
                ultima = (salida_de_error or "").strip().splitlines()[-1:] or ["sin mensaje"]
                error = f"no se pudo ejecutar el cuaderno ({ultima[0]})"
        if archivo_errores.exists():
            errores = json.loads(archivo_errores.read_text(encoding="utf-8"))
            gancho = [e["texto"] for e in errores if e["gancho"]]
            if gancho:
                raise RuntimeError(f"No pude preparar la corrección en el kernel ({gancho[0]}): ¿está instalado el "
                                   "curso en este entorno? Ejecuta python3 tareas.py abrir una vez y repite.")
            error = error or next((e["texto"] for e in errores), None)
        veredictos = {}
        if archivo_veredictos.exists():
            for linea in archivo_veredictos.read_text(encoding="utf-8").splitlines():
                apunte = json.loads(linea)
                inicio = "¡correcto!" if apunte["correcto"] else "todavía no."
                veredictos[apunte["clave"]] = (apunte["correcto"], f"{inicio} {apunte['mensaje']}".strip())
    sin_veredicto = [c for c in ejercicios_de_la_entrega(ruta) if c not in veredictos]
    return veredictos, sin_veredicto, error


def ejercicios_de_la_entrega(ruta):
    """Los ejercicios que debería responder la entrega: los que nombra su código (en `comprobar("NN.M", …)` o
    escritos como «Ejercicio NN.M») y, si el nombre del archivo empieza por el número de una lección (NN_…), todos
    los de esa lección, aunque el cuaderno haya borrado o cambiado alguna llamada a `comprobar`."""
    from herramientas.banco import pistas_de_la_leccion

    ruta = pathlib.Path(ruta)
    cuaderno = json.loads(ruta.read_text(encoding="utf-8"))
    codigo = "\n".join(fuente(c) for c in cuaderno.get("cells", []) if c.get("cell_type") == "code")
    claves = LLAMADA.findall(codigo) + CLAVE_ESCRITA.findall(codigo)
    lecciones = [ruta.name[:2]] if re.match(r"\d\d_", ruta.name) else []
    todas = [clave for leccion in lecciones for clave in sorted(pistas_de_la_leccion(leccion))]
    return list(dict.fromkeys(todas + claves))


def main(argumentos):
    analizador = Orden(__doc__)
    analizador.add_argument("--csv", metavar="notas.csv", help="escribe además una tabla con cada ejercicio")
    analizador.add_argument("--limite", metavar="SEGUNDOS", type=float, default=LIMITE,
                            help="tiempo máximo de cada entrega")
    analizador.add_argument("entregas", nargs="*")
    leidos = analizador.parse_args(list(argumentos))
    if leidos.limite <= 0:
        sys.exit(f"--limite espera un número de segundos mayor que 0, no «{leidos.limite:g}».")
    destino_csv = pathlib.Path(leidos.csv) if leidos.csv else None
    # Una entrega que falta no para las demás: se salta abajo, con un aviso.
    entregas = rutas_de_cuadernos(leidos.entregas, deben_existir=False)
    if not entregas:
        print(__doc__)
        return 2
    filas = []
    for ruta in entregas:
        if not ruta.exists():
            print(f"No existe {ruta}; lo salto.")
            continue
        veredictos, sin_veredicto, error = corregir(ruta, leidos.limite)
        bien = sum(correcto for correcto, _ in veredictos.values())
        total = len(veredictos) + len(sin_veredicto)
        print(f"{ruta.name}: {bien} de {total} ejercicios bien" + (f" · primer error: {error}" if error else ""))
        for clave, (correcto, mensaje) in sorted(veredictos.items()):
            print(f"  {clave} {'✅' if correcto else '❌'} {mensaje}")
            filas.append((ruta.name, clave, "bien" if correcto else "mal", mensaje))
        for clave in sin_veredicto:
            print(f"  {clave} —  sin respuesta comprobada (la celda no llegó a ejecutarse o no llama a comprobar)")
            filas.append((ruta.name, clave, "sin comprobar", ""))
    if destino_csv:
        with destino_csv.open("w", newline="", encoding="utf-8") as archivo:
            escritor = csv.writer(archivo)
            escritor.writerow(["cuaderno", "ejercicio", "estado", "mensaje"])
            escritor.writerows(filas)
        print(f"Notas guardadas en {destino_csv}.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
