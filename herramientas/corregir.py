"""Corrige entregas: ejecuta cada cuaderno entregado en un kernel nuevo y resume sus ejercicios.

Uso: python3 tareas.py corregir [--csv NOTAS.csv] ENTREGA.ipynb [...]

Cada cuaderno se ejecuta de principio a fin desde la carpeta notebooks/ del curso (así su celda de preparación
encuentra el código del curso aunque la entrega esté en otra carpeta), sin detenerse en los errores. De sus
salidas se leen los veredictos de `comprobar("NN.M", …)`: las salidas que el cuaderno traía guardadas no cuentan.
El cuaderno entregado no se modifica.
"""

import csv
import pathlib
import re
import sys

import nbformat
from nbclient import NotebookClient

from herramientas.cuadernos import RAIZ, Orden, fuente, rutas_de_cuadernos

VEREDICTO = re.compile(r"^(✅|❌) Ejercicio (\d+\.\d+): (.*)$", re.M)
LLAMADA = re.compile(r"""comprobar\(\s*["'](\d+\.\d+)["']""")


def corregir(ruta, tiempo_por_celda=300):
    """Ejecuta la entrega y devuelve ({clave: (correcto, mensaje)}, [claves sin veredicto], primer error o None)."""
    cuaderno = nbformat.read(ruta, as_version=4)
    for celda in cuaderno.cells:
        if celda.cell_type == "code":
            celda.outputs = []
    cliente = NotebookClient(cuaderno, timeout=tiempo_por_celda, kernel_name="python3", allow_errors=True,
                             resources={"metadata": {"path": str(RAIZ / "notebooks")}})
    cliente.execute()
    veredictos, pedidos, error = {}, [], None
    for celda in cuaderno.cells:
        if celda.cell_type != "code":
            continue
        pedidos += LLAMADA.findall(fuente(celda))
        for salida in celda.get("outputs", []):
            if salida.get("output_type") == "stream":
                for marca, clave, mensaje in VEREDICTO.findall(salida.get("text", "")):
                    veredictos[clave] = (marca == "✅", mensaje.strip())
            elif salida.get("output_type") == "error" and error is None:
                error = f"{salida.get('ename')}: {salida.get('evalue')}"
    sin_veredicto = [c for c in dict.fromkeys(pedidos) if c not in veredictos]
    return veredictos, sin_veredicto, error


def main(argumentos):
    analizador = Orden(__doc__)
    analizador.add_argument("--csv", metavar="notas.csv", help="escribe además una tabla con cada ejercicio")
    analizador.add_argument("entregas", nargs="*")
    leidos = analizador.parse_args(list(argumentos))
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
        veredictos, sin_veredicto, error = corregir(ruta)
        bien = sum(correcto for correcto, _ in veredictos.values())
        total = len(veredictos) + len(sin_veredicto)
        print(f"{ruta.name}: {bien} de {total} ejercicios bien" + (f" · primer error: {error}" if error else ""))
        for clave, (correcto, mensaje) in sorted(veredictos.items()):
            print(f"  {clave} {'✅' if correcto else '❌'} {mensaje}")
            filas.append((ruta.name, clave, "bien" if correcto else "mal", mensaje))
        for clave in sin_veredicto:
            print(f"  {clave} —  sin respuesta comprobada (la celda no llegó a ejecutarse o no imprime veredicto)")
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
