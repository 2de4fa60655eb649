"""Herramientas del repositorio: preparar el entorno, ejecutar los cuadernos, medir y comprobar."""
