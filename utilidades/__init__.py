"""Utilidades del curso «Atención y transformers»: el código que enseñan las lecciones, listo para reutilizar."""

__version__ = "0.1.0"
