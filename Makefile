# Atajos para quien tenga make; cada uno llama a tareas.py, que funciona también sin make.
.PHONY: abrir pruebas perturbadas salidas banco enlaces estilo

abrir:
	python3 tareas.py abrir

pruebas:
	python3 tareas.py pruebas

perturbadas:
	python3 tareas.py perturbadas

salidas:
	python3 tareas.py salidas

banco:
	python3 tareas.py banco

enlaces:
	python3 tareas.py enlaces

estilo:
	.venv/bin/ruff check .
