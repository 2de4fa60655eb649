// Actividad «¿A quién mira cada palabra?» (lección 01). Módulo de anywidget (API ≥ 0.9: export default
// { render }). Solo dibuja y recoge gestos: los pesos, porcentajes y la frase llegan calculados desde Python.

const SVG = "http://www.w3.org/2000/svg";
const TINTA = "#1d2b4f";
const ACENTO = "#d1495b";
const GRIS = "#8d99ae";

function crear(etiqueta, atributos = {}, padre = null, espacio = SVG) {
  const nodo = document.createElementNS(espacio, etiqueta);
  for (const [nombre, valor] of Object.entries(atributos)) nodo.setAttribute(nombre, valor);
  if (padre) padre.appendChild(nodo);
  return nodo;
}

function html(etiqueta, atributos = {}, padre = null) {
  return crear(etiqueta, atributos, padre, "http://www.w3.org/1999/xhtml");
}

function render({ model, el }) {
  const ANCHO = 760;
  const ALTO_FRASE = 175;
  const LADO = 300; // el plano es un cuadrado de LADO píxeles
  const limites = () => model.get("limites") || { t_minima: 0.1, t_maxima: 10, plano: 3 };

  const raiz = html("div", { class: "aqm-raiz", tabindex: "0" }, el);
  raiz.setAttribute("aria-label", "Actividad: ¿a quién mira cada palabra? Usa las flechas para elegir palabra.");
  // Que JupyterLab y Notebook 7 no conviertan las flechas en atajos del cuaderno mientras la actividad tiene el foco.
  raiz.setAttribute("data-lm-suppress-shortcuts", "true");
  // Tras un clic, el cuaderno puede quedarse el foco; lo recuperamos para que funcionen las flechas.
  const enfocar = () => setTimeout(() => raiz.focus({ preventScroll: true }), 0);

  // 1. La frase con los arcos.
  const svgFrase = crear("svg", { class: "aqm-frase", viewBox: `0 0 ${ANCHO} ${ALTO_FRASE}`, width: ANCHO }, raiz);
  const capaArcos = crear("g", {}, svgFrase);
  const capaPalabras = crear("g", {}, svgFrase);

  // 2. Debajo, el plano (izquierda) y las barras (derecha).
  const fila = html("div", { class: "aqm-fila" }, raiz);
  const svgPlano = crear("svg", { class: "aqm-plano", viewBox: `-30 -20 ${LADO + 50} ${LADO + 45}`,
    width: LADO + 50, height: LADO + 45 }, fila);
  const capaEjes = crear("g", {}, svgPlano);
  const capaClaves = crear("g", {}, svgPlano);
  const capaConsulta = crear("g", {}, svgPlano);
  const barras = html("div", { class: "aqm-barras" }, fila);

  // 3. La frase resumen y los controles.
  const frase = html("div", { class: "aqm-resumen" }, raiz);
  const controles = html("div", { class: "aqm-controles" }, raiz);
  const etiquetaT = html("label", { class: "aqm-control" }, controles);
  etiquetaT.append("Temperatura T ");
  const deslizador = html("input", { type: "range", min: "0", max: "1000", step: "1", class: "aqm-temperatura" },
    etiquetaT);
  const valorT = html("span", { class: "aqm-valor-t" }, etiquetaT);
  const etiquetaCausal = html("label", { class: "aqm-control" }, controles);
  const casilla = html("input", { type: "checkbox", class: "aqm-causal" }, etiquetaCausal);
  etiquetaCausal.append(" máscara causal (solo mira hacia atrás)");
  const boton = html("button", { type: "button", class: "aqm-reiniciar" }, controles);
  boton.textContent = "Volver al inicio";

  // Escala logarítmica: el centro del deslizador es T = 1.
  const aDeslizador = (t) => {
    const { t_minima, t_maxima } = limites();
    return Math.round(1000 * Math.log(t / t_minima) / Math.log(t_maxima / t_minima));
  };
  const deDeslizador = (u) => {
    const { t_minima, t_maxima } = limites();
    return t_minima * Math.pow(t_maxima / t_minima, u / 1000);
  };

  // Coordenadas: del plano (-L..L) a píxeles y al revés.
  const aPixel = ([x, y]) => {
    const L = limites().plano;
    return [(x + L) / (2 * L) * LADO, (L - y) / (2 * L) * LADO];
  };
  const dePixel = (px, py) => {
    const L = limites().plano;
    const redondear = (v) => Math.round(Math.max(-L, Math.min(L, v)) * 10) / 10;
    return [redondear(px / LADO * 2 * L - L), redondear(L - py / LADO * 2 * L)];
  };

  // Posición horizontal del centro de cada palabra en la frase.
  const centros = () => {
    const n = model.get("palabras").length;
    return Array.from({ length: n }, (_, i) => 60 + i * (ANCHO - 120) / Math.max(1, n - 1));
  };

  function elegir(i) {
    const n = model.get("palabras").length;
    const nuevo = ((i % n) + n) % n;
    if (nuevo !== model.get("elegida")) {
      model.set("elegida", nuevo);
      model.save_changes();
    }
  }

  function dibujarFrase() {
    const palabras = model.get("palabras");
    const pesos = model.get("pesos");
    const visibles = model.get("visibles");
    const elegida = model.get("elegida");
    const xs = centros();
    const base = ALTO_FRASE - 30;
    capaArcos.replaceChildren();
    palabras.forEach((_, j) => {
      if (!visibles[j]) return;
      const peso = pesos[j];
      const grosor = (1 + 16 * peso).toFixed(2);
      const opacidad = (0.25 + 0.75 * peso).toFixed(3);
      let d;
      if (j === elegida) {
        // Un lazo sobre la propia palabra.
        const x = xs[j];
        d = `M ${x - 10} ${base - 22} C ${x - 40} ${base - 85}, ${x + 40} ${base - 85}, ${x + 10} ${base - 22}`;
      } else {
        const x1 = xs[elegida];
        const x2 = xs[j];
        const altura = Math.min(105, 20 + Math.abs(x2 - x1) * 0.17);
        d = `M ${x1} ${base - 22} Q ${(x1 + x2) / 2} ${base - 22 - 2 * altura}, ${x2} ${base - 22}`;
      }
      crear("path", { d, class: "aqm-arco", "data-indice": j, fill: "none", stroke: ACENTO,
        "stroke-width": grosor, "stroke-opacity": opacidad, "stroke-linecap": "round" }, capaArcos);
    });
    // Las palabras no se vuelven a crear (si no, el ratón quieto sobre una «entraría» en ella otra vez).
    if (capaPalabras.childElementCount !== palabras.length) construirPalabras();
    Array.from(capaPalabras.children).forEach((grupo, j) => {
      grupo.setAttribute("class", "aqm-palabra" + (j === elegida ? " aqm-elegida" : "") +
        (visibles[j] ? "" : " aqm-oculta"));
      grupo.querySelector("text").textContent = palabras[j];
    });
  }

  function construirPalabras() {
    const xs = centros();
    const base = ALTO_FRASE - 30;
    capaPalabras.replaceChildren();
    model.get("palabras").forEach((palabra, j) => {
      const grupo = crear("g", { class: "aqm-palabra", "data-indice": j, transform: `translate(${xs[j]}, ${base})` },
        capaPalabras);
      crear("rect", { x: -45, y: -20, width: 90, height: 34, rx: 8 }, grupo);
      const texto = crear("text", { x: 0, y: -2, "text-anchor": "middle", "dominant-baseline": "middle" }, grupo);
      texto.textContent = palabra;
      grupo.addEventListener("click", () => {
        elegir(j);
        enfocar();
      });
      grupo.addEventListener("pointerenter", (evento) => {
        if (evento.pointerType === "mouse" && arrastre === null) elegir(j);
      });
    });
  }

  function dibujarBarras() {
    const palabras = model.get("palabras");
    const porcentajes = model.get("porcentajes");
    const visibles = model.get("visibles");
    const elegida = model.get("elegida");
    barras.replaceChildren();
    const titulo = html("div", { class: "aqm-titulo-barras" }, barras);
    titulo.textContent = `Pesos de «${palabras[elegida]}» (suman 100 %)`;
    palabras.forEach((palabra, j) => {
      const filaBarra = html("div", { class: "aqm-barra" + (visibles[j] ? "" : " aqm-oculta"), "data-indice": j },
        barras);
      const nombre = html("span", { class: "aqm-nombre" }, filaBarra);
      nombre.textContent = palabra;
      const carril = html("span", { class: "aqm-carril" }, filaBarra);
      const relleno = html("span", { class: "aqm-relleno" }, carril);
      relleno.style.width = `${visibles[j] ? porcentajes[j] : 0}%`;
      if (j === elegida) relleno.style.background = ACENTO;
      const cifra = html("span", { class: "aqm-porcentaje" }, filaBarra);
      cifra.textContent = visibles[j] ? `${porcentajes[j]} %` : "oculta";
    });
  }

  function dibujarEjes() {
    capaEjes.replaceChildren();
    const L = limites().plano;
    crear("rect", { x: 0, y: 0, width: LADO, height: LADO, class: "aqm-fondo" }, capaEjes);
    for (let v = -L; v <= L; v += 1) {
      const [px] = aPixel([v, 0]);
      const [, py] = aPixel([0, v]);
      crear("line", { x1: px, y1: 0, x2: px, y2: LADO, class: v === 0 ? "aqm-eje" : "aqm-rejilla" }, capaEjes);
      crear("line", { x1: 0, y1: py, x2: LADO, y2: py, class: v === 0 ? "aqm-eje" : "aqm-rejilla" }, capaEjes);
      if (v !== 0) {
        const t1 = crear("text", { x: px, y: LADO + 16, "text-anchor": "middle", class: "aqm-marca" }, capaEjes);
        t1.textContent = String(v);
        const t2 = crear("text", { x: -8, y: py + 4, "text-anchor": "end", class: "aqm-marca" }, capaEjes);
        t2.textContent = String(v);
      }
    }
    const leyenda = crear("text", { x: LADO / 2, y: -6, "text-anchor": "middle", class: "aqm-leyenda" }, capaEjes);
    leyenda.textContent = "flecha: consulta · puntos: claves (arrástralos)";
  }

  let arrastre = null; // {tipo: "consulta" | "clave", indice}

  function dibujarPlano() {
    const palabras = model.get("palabras");
    const claves = model.get("claves");
    const consultas = model.get("consultas");
    const pesos = model.get("pesos");
    const visibles = model.get("visibles");
    const elegida = model.get("elegida");
    capaClaves.replaceChildren();
    capaConsulta.replaceChildren();
    claves.forEach((clave, j) => {
      const [px, py] = aPixel(clave);
      const grupo = crear("g", { class: "aqm-clave" + (visibles[j] ? "" : " aqm-oculta"), "data-indice": j },
        capaClaves);
      crear("circle", { cx: px, cy: py, r: 7 + 10 * (visibles[j] ? pesos[j] : 0),
        fill: j === elegida ? ACENTO : TINTA, "fill-opacity": visibles[j] ? 0.85 : 0.25 }, grupo);
      crear("circle", { cx: px, cy: py, r: 16, class: "aqm-asa" }, grupo); // zona cómoda para agarrar
      const derecha = px > LADO - 60; // cerca del borde derecho, la etiqueta va a la izquierda del punto
      const texto = crear("text", { x: derecha ? px - 11 : px + 11, y: py - 10, class: "aqm-etiqueta",
        "text-anchor": derecha ? "end" : "start" }, grupo);
      texto.textContent = palabras[j];
      grupo.addEventListener("pointerdown", (evento) => empezar(evento, "clave", j));
    });
    const [ox, oy] = aPixel([0, 0]);
    const [qx, qy] = aPixel(consultas[elegida]);
    const flecha = crear("g", { class: "aqm-consulta" }, capaConsulta);
    crear("line", { x1: ox, y1: oy, x2: qx, y2: qy, stroke: ACENTO, "stroke-width": 4 }, flecha);
    const angulo = Math.atan2(qy - oy, qx - ox);
    const punta = (a, r) => `${qx - r * Math.cos(angulo + a)},${qy - r * Math.sin(angulo + a)}`;
    crear("polygon", { points: `${qx},${qy} ${punta(0.4, 16)} ${punta(-0.4, 16)}`, fill: ACENTO }, flecha);
    const asa = crear("circle", { cx: qx, cy: qy, r: 14, class: "aqm-asa aqm-punta-consulta" }, flecha);
    // El nombre de la flecha va fijo en una esquina del plano: así nunca tapa las etiquetas de las claves.
    const texto = crear("text", { x: 8, y: LADO - 10, class: "aqm-etiqueta aqm-etiqueta-consulta" }, flecha);
    texto.textContent = `flecha: consulta de «${palabras[elegida]}»`;
    asa.addEventListener("pointerdown", (evento) => empezar(evento, "consulta", elegida));
  }

  // Arrastrar: el vector se mueve al instante en pantalla y Python recalcula los pesos.
  let pendiente = false;
  function empezar(evento, tipo, indice) {
    evento.preventDefault();
    evento.stopPropagation();
    arrastre = { tipo, indice };
    svgPlano.setPointerCapture(evento.pointerId);
  }
  svgPlano.addEventListener("pointermove", (evento) => {
    if (arrastre === null) return;
    const matriz = svgPlano.getScreenCTM().inverse();
    const p = new DOMPoint(evento.clientX, evento.clientY).matrixTransform(matriz);
    const nombre = arrastre.tipo === "consulta" ? "consultas" : "claves";
    const vectores = model.get(nombre).map((v) => v.slice());
    vectores[arrastre.indice] = dePixel(p.x, p.y);
    model.set(nombre, vectores);
    dibujarPlano();
    if (!pendiente) {
      pendiente = true;
      requestAnimationFrame(() => {
        pendiente = false;
        model.save_changes();
      });
    }
  });
  const soltar = () => {
    if (arrastre !== null) {
      arrastre = null;
      model.save_changes();
      enfocar();
    }
  };
  svgPlano.addEventListener("pointerup", soltar);
  svgPlano.addEventListener("pointercancel", soltar);

  // Teclado: flechas para cambiar de palabra (con el foco en la actividad).
  raiz.addEventListener("keydown", (evento) => {
    if (evento.target instanceof HTMLInputElement) return;
    if (evento.key === "ArrowRight" || evento.key === "ArrowDown") elegir(model.get("elegida") + 1);
    else if (evento.key === "ArrowLeft" || evento.key === "ArrowUp") elegir(model.get("elegida") - 1);
    else return;
    evento.preventDefault();
    evento.stopPropagation();
  });

  deslizador.addEventListener("input", () => {
    const t = Math.round(deDeslizador(Number(deslizador.value)) * 100) / 100;
    valorT.textContent = `= ${t.toFixed(2)}`;
    model.set("temperatura", t);
    model.save_changes();
  });
  casilla.addEventListener("change", () => {
    model.set("causal", casilla.checked);
    model.save_changes();
  });
  boton.addEventListener("click", () => model.send({ accion: "reiniciar" }));

  function dibujarControles() {
    const t = model.get("temperatura");
    if (document.activeElement !== deslizador) deslizador.value = String(aDeslizador(t));
    valorT.textContent = `= ${t.toFixed(2)}`;
    casilla.checked = model.get("causal");
  }

  function dibujarTodo() {
    dibujarFrase();
    if (arrastre === null) dibujarPlano();
    dibujarBarras();
    frase.textContent = model.get("frase");
    dibujarControles();
  }

  dibujarEjes();
  dibujarTodo();
  const eventos = ["pesos", "porcentajes", "visibles", "frase", "elegida", "temperatura", "causal", "consultas",
    "claves", "palabras"].map((n) => `change:${n}`);
  for (const evento of eventos) model.on(evento, dibujarTodo);
  return () => {
    for (const evento of eventos) model.off(evento, dibujarTodo);
  };
}

export default { render };
