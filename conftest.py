"""Configuración de pytest para todo el repositorio (pruebas y cuadernos): cada figura que muestran los cuadernos
bajo nbval se revisa (ver tests/figuras_nbval.py)."""

pytest_plugins = ["tests.figuras_nbval"]
