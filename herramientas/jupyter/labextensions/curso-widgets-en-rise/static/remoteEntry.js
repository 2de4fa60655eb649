// Paneles interactivos dentro de la presentación de RISE (jupyterlab-rise 0.43 con ipywidgets 8).
//
// Por qué hace falta: la presentación de RISE es una aplicación propia que carga las extensiones de JupyterLab
// instaladas, pero no trae el paquete @jupyterlab/console. La extensión de los widgets (jupyterlab_widgets 3, la
// de ipywidgets 8) lo pide como módulo compartido, sin copia propia, solo para registrar los widgets también en
// las consolas. Sin él, la extensión entera no se carga («Shared module @jupyterlab/console doesn't exist in
// shared scope default»), anywidget tampoco («No provider for: jupyter.extensions.jupyterWidgetRegistry») y cada
// panel se ve como su texto. Ver jupyterlab-contrib/rise#119 y #126.
//
// Qué hace: al cargarse, si la aplicación no ofrece @jupyterlab/console, ofrece en su lugar un módulo mínimo con
// una ficha IConsoleTracker que nadie proporciona. La extensión de los widgets la declara opcional: recibe null,
// no se ocupa de consolas (en la presentación no las hay) y todo lo demás funciona. En JupyterLab y en Notebook 7,
// que sí traen @jupyterlab/console, no hace nada.
//
// Es una extensión «federada» escrita a mano (sin compilar): la carpeta herramientas/jupyter va en JUPYTER_PATH
// (tareas.py abrir la pone) y JupyterLab la encuentra en labextensions/.
(function () {
  "use strict";
  var NOMBRE = "curso-widgets-en-rise";
  var PAQUETE = "@jupyterlab/console";
  var contenedores = (window._JUPYTERLAB = window._JUPYTERLAB || {});

  function moduloMinimo() {
    // Lo único que la extensión de los widgets toma del paquete: la ficha del servicio de consolas.
    return { IConsoleTracker: { name: PAQUETE + ":IConsoleTracker" } };
  }

  contenedores[NOMBRE] = {
    init: function (ambito) {
      if (!ambito || ambito[PAQUETE]) {
        return; // la aplicación ya trae el paquete de verdad: no hay nada que suplir
      }
      ambito[PAQUETE] = {
        "0.0.0": {
          get: function () {
            return Promise.resolve(moduloMinimo);
          },
          from: NOMBRE,
          eager: false,
          loaded: 1
        }
      };
      console.info(NOMBRE + ": " + PAQUETE + " no está en esta aplicación; se ofrece un sustituto para los widgets.");
    },
    get: function (modulo) {
      return Promise.reject(new Error(NOMBRE + " no exporta módulos (se pidió " + modulo + ")."));
    }
  };
})();
