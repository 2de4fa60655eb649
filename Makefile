# Atajos para quien tenga make; cada uno llama a tareas.py, que funciona también sin make.
.PHONY: abrir pruebas perturbadas salidas banco colab enlaces diapositivas plan estilo

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

colab:
	python3 tareas.py colab

enlaces:
	python3 tareas.py enlaces

diapositivas:
	python3 tareas.py diapositivas

plan:
	python3 tareas.py plan

estilo:
	.venv/bin/ruff check .
