"""Qué Chromium usan las pruebas en el navegador y cómo lo instala `tareas.py pruebas` (herramientas/navegador.py),
sin tocar el sistema: las carpetas del sistema y del PATH son temporales y apt-get es un sustituto."""

import pytest

from herramientas import navegador


def _ejecutable(carpeta, nombre):
    ruta = carpeta / nombre
    ruta.write_text("#!/bin/sh\n")
    ruta.chmod(0o755)
    return str(ruta)


@pytest.fixture
def sistema(tmp_path, monkeypatch):
    """Una carpeta del sistema vacía (y la única del PATH), sin CHROMIUM, como root con apt-get."""
    carpeta = tmp_path / "bin"
    carpeta.mkdir()
    monkeypatch.setattr(navegador, "CARPETA_DEL_SISTEMA", str(carpeta))
    monkeypatch.setenv("PATH", str(carpeta))
    monkeypatch.delenv("CHROMIUM", raising=False)
    monkeypatch.setattr(navegador.os, "geteuid", lambda: 0, raising=False)
    _ejecutable(carpeta, "apt-get")
    return carpeta


def _apt_que(sistema, monkeypatch, instala):
    """Sustituye a apt-get: «instala» los paquetes de `instala` (crea su ejecutable); con los demás, falla."""
    ordenes = []

    def llamar(orden, **_):
        ordenes.append(orden[1:])
        if orden[1] == "install":
            if orden[-1] not in instala:
                return 100
            _ejecutable(sistema, orden[-1])
        return 0

    monkeypatch.setattr(navegador.subprocess, "call", llamar)
    return ordenes


def test_se_prefiere_el_chromium_sin_cabeza_y_manda_la_variable(sistema, monkeypatch, tmp_path):
    assert navegador.ruta_chromium() is None
    escritorio = _ejecutable(sistema, "chromium")
    assert navegador.ruta_chromium() == escritorio
    sin_cabeza = _ejecutable(sistema, "chromium-headless-shell")
    assert navegador.ruta_chromium() == sin_cabeza
    otro = _ejecutable(tmp_path, "chrome")
    monkeypatch.setenv("CHROMIUM", otro)
    assert navegador.ruta_chromium() == otro


def test_sin_chromium_instala_el_sin_cabeza(sistema, monkeypatch):
    ordenes = _apt_que(sistema, monkeypatch, instala={"chromium-headless-shell", "chromium"})
    assert navegador.asegurar_chromium() == str(sistema / "chromium-headless-shell")
    assert [o[-1] for o in ordenes] == ["update", "chromium-headless-shell"]


def test_con_el_de_escritorio_anade_el_sin_cabeza_y_si_no_puede_usa_el_que_hay(sistema, monkeypatch, capsys):
    escritorio = _ejecutable(sistema, "chromium")
    ordenes = _apt_que(sistema, monkeypatch, instala=set())
    assert navegador.asegurar_chromium() == escritorio
    assert [o[-1] for o in ordenes] == ["update", "chromium-headless-shell"]  # no reinstala el de escritorio
    assert f"las pruebas usan {escritorio}" in capsys.readouterr().out


def test_si_no_hay_sin_cabeza_en_apt_instala_el_de_escritorio(sistema, monkeypatch):
    ordenes = _apt_que(sistema, monkeypatch, instala={"chromium"})
    assert navegador.asegurar_chromium() == str(sistema / "chromium")
    assert [o[-1] for o in ordenes] == ["update", "chromium-headless-shell", "chromium"]


def test_con_el_sin_cabeza_o_con_la_variable_no_llama_a_apt(sistema, monkeypatch, tmp_path):
    ordenes = _apt_que(sistema, monkeypatch, instala=set())
    sin_cabeza = _ejecutable(sistema, "chromium-headless-shell")
    assert navegador.asegurar_chromium() == sin_cabeza
    otro = _ejecutable(tmp_path, "chrome")
    monkeypatch.setenv("CHROMIUM", otro)
    assert navegador.asegurar_chromium() == otro
    assert ordenes == []


def test_sin_poder_instalar_lo_explica(sistema, monkeypatch, capsys):
    monkeypatch.setattr(navegador.os, "geteuid", lambda: 1000, raising=False)
    assert navegador.asegurar_chromium() is None
    salida = capsys.readouterr().out
    assert "chromium-headless-shell" in salida and "CHROMIUM" in salida
