"""`tareas.py corregir`: los veredictos salen de la comprobación del curso, no de lo que imprime la entrega, y cada
entrega se ejecuta en un proceso aparte con un tiempo máximo."""

import time

import nbformat
import psutil
import pytest

from herramientas import corregir


def _entrega(ruta, celdas_de_codigo):
    cuaderno = nbformat.v4.new_notebook()
    cuaderno.metadata = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}
    cuaderno.cells = [nbformat.v4.new_markdown_cell("# Entrega de prueba")]
    cuaderno.cells += [nbformat.v4.new_code_cell(c) for c in celdas_de_codigo]
    nbformat.write(cuaderno, ruta)
    return ruta


def test_imprimir_el_veredicto_a_mano_no_aprueba(tmp_path, capsys, monkeypatch):
    entrega = _entrega(tmp_path / "entrega.ipynb", [
        "from utilidades.ejercicios import comprobar",
        "comprobar('03.1', 16)",  # una respuesta de verdad, y correcta
        'print("✅ Ejercicio 03.2: ¡correcto!")',  # imprime la línea sin llamar a la comprobación
        # una «comprobar» propia que imprime lo mismo que la del curso
        "def comprobar(clave, respuesta):\n    print(f'✅ Ejercicio {clave}: ¡correcto!')",
        "comprobar('03.4', 0)",
    ])
    veredictos, sin_veredicto, error = corregir.corregir(entrega)
    assert veredictos.get("03.1", (None,))[0] is True, "la respuesta comprobada de verdad cuenta"
    assert "03.2" not in veredictos and "03.4" not in veredictos, \
        f"un «✅» impreso por la entrega no es un veredicto de la comprobación: {veredictos}"
    assert {"03.2", "03.4"} <= set(sin_veredicto), "los ejercicios que solo imprimen el ✅ quedan sin comprobar"
    assert error is None
    # La nota y el CSV salen de esos mismos veredictos: `main` no vuelve a ejecutar la entrega (ejecutarla lo prueban
    # las pruebas de abajo, que llaman a `main`).
    monkeypatch.setattr(corregir, "corregir", lambda ruta, limite: (veredictos, sin_veredicto, error))
    assert corregir.main([str(entrega), "--csv", str(tmp_path / "notas.csv")]) == 0
    notas = (tmp_path / "notas.csv").read_text(encoding="utf-8")
    assert "entrega.ipynb,03.1,bien" in notas
    assert "entrega.ipynb,03.2,sin comprobar" in notas and "entrega.ipynb,03.4,sin comprobar" in notas
    assert "1 de 3 ejercicios bien" in capsys.readouterr().out


def test_una_entrega_de_la_leccion_espera_todos_sus_ejercicios(tmp_path):
    entrega = _entrega(tmp_path / "03_escala_y_temperatura_ana.ipynb", [
        "from utilidades.ejercicios import comprobar",
        "comprobar('03.1', 16)",
    ])
    veredictos, sin_veredicto, _ = corregir.corregir(entrega)
    assert veredictos["03.1"][0] is True
    assert sin_veredicto == ["03.2", "03.3", "03.4", "03.5"], "borrar la celda de un ejercicio no lo quita de la nota"


def test_una_entrega_que_no_termina_se_detiene_en_el_limite(tmp_path, capsys):
    entrega = _entrega(tmp_path / "entrega.ipynb", [
        "from utilidades.ejercicios import comprobar",
        "comprobar('03.1', 16)",
        # No termina nunca (y, dormida, no quita la CPU a las demás pruebas).
        "import time\nwhile True:\n    time.sleep(0.2)",
        "comprobar('03.4', 8)",
    ])
    antes = {p.pid for p in psutil.Process().children(recursive=True)}
    inicio = time.perf_counter()
    # 12 s: el kernel arranca y responde 03.1 en unos 4 s con la máquina ocupada; el resto, dormido en el bucle.
    assert corregir.main([str(entrega), "--limite", "12"]) == 0
    segundos = time.perf_counter() - inicio
    assert segundos < 12 + 30, f"la corrección tardó {segundos:.0f} s con un límite de 12 s"
    salida = capsys.readouterr().out
    assert "límite de 12 s" in salida, salida
    assert "03.1 ✅" in salida, "lo respondido antes del bucle cuenta"
    assert "03.4 —  sin respuesta comprobada" in salida
    quedan = [p for p in psutil.Process().children(recursive=True) if p.pid not in antes and p.is_running()
              and p.status() != psutil.STATUS_ZOMBIE]
    assert not quedan, f"quedan procesos de la entrega (¿el kernel?): {[p.cmdline() for p in quedan]}"


def test_el_limite_tiene_que_ser_positivo(tmp_path):
    with pytest.raises(SystemExit, match="--limite espera un número de segundos mayor que 0"):
        corregir.main([str(tmp_path / "entrega.ipynb"), "--limite", "0"])
