// Actividad «¿A quién mira cada palabra?» (lección 01). Módulo de anywidget (API de la 0.9: export default
// { render }, y del modelo solo get, set, save_changes, on, off y send, que también tiene Colab).
//
// La página calcula los pesos ella misma (calcularEstado: lo mismo que `estado` en utilidades/actividades.py),
// así que pasar el ratón o arrastrar responde al momento, sin esperar al kernel. Al terminar cada gesto (soltar
// un vector, un clic, soltar el deslizador, una tecla) manda el estado a Python, que sigue siendo la fuente de
// verdad de las comprobaciones; y si Python cambia el estado (reiniciar, o una celda), la página lo recoge.
//
// Partes: calcularEstado (los números), construirVista (el esqueleto), dibujarFrase / dibujarPlano /
// dibujarBarras / dibujarControles (lo que cambia), conectarPalabras (clic fija, ratón previsualiza),
// conectarArrastre (el asa más cercana gana), conectarTeclado (palabras y vectores con las flechas) y
// conectarControles (T, máscara, reinicio).

const SVG = "http://www.w3.org/2000/svg";
const XHTML = "http://www.w3.org/1999/xhtml";
const TINTA = "#1d2b4f";
const ACENTO = "#d1495b";
const ANCHO = 760;
const ALTO_FRASE = 175;
const LADO = 300; // el plano es un cuadrado de LADO píxeles
const RADIO_ASA = 18; // a esta distancia (en píxeles del plano) o menos, un clic agarra un vector
const PASO_TECLADO = 0.1; // cuánto mueve una flecha un vector (Mayúsculas: 0.5)

function crear(etiqueta, atributos = {}, padre = null, espacio = SVG) {
  const nodo = document.createElementNS(espacio, etiqueta);
  for (const [nombre, valor] of Object.entries(atributos)) nodo.setAttribute(nombre, valor);
  if (padre) padre.appendChild(nodo);
  return nodo;
}

function html(etiqueta, atributos = {}, padre = null) {
  return crear(etiqueta, atributos, padre, XHTML);
}

const formato = ([x, y]) => `(${x.toFixed(1)}, ${y.toFixed(1)})`;

// --- Los números: una copia exacta de `estado` (utilidades/actividades.py), probada contra ella ---------------

const acotar = (v, minimo, maximo) => (Number.isNaN(Number(v)) ? minimo : Math.min(Math.max(Number(v), minimo), maximo));

function calcularPesos(consultas, claves, elegida, temperatura, causal) {
  // softmax(q·k / (√2·T)) de la palabra elegida; con la máscara causal, lo posterior no cuenta.
  const q = consultas[elegida];
  const visibles = claves.map((_, j) => !causal || j <= elegida);
  const puntajes = claves.map((k) => (k[0] * q[0] + k[1] * q[1]) / (Math.sqrt(2) * temperatura));
  const maximo = Math.max(...puntajes.filter((_, j) => visibles[j])); // restarlo evita desbordes con T pequeña
  const exponenciales = puntajes.map((s, j) => (visibles[j] ? Math.exp(s - maximo) : 0));
  const total = exponenciales.reduce((a, b) => a + b, 0);
  return { pesos: exponenciales.map((e) => e / total), visibles };
}

// Dos números más cerca que esto cuentan como iguales al ordenar (NumPy y la página pueden diferir en el último
// decimal con pesos que en exactas son iguales): como TOLERANCIA_EMPATE en Python.
const TOLERANCIA_EMPATE = 1e-9;

function ordenConEmpates(valores, indices = valores.map((_, i) => i)) {
  // De mayor a menor valor; a igualdad (dentro de la tolerancia), primero el índice menor. Igual que en Python.
  const quedan = indices.slice();
  const orden = [];
  while (quedan.length) {
    const maximo = Math.max(...quedan.map((i) => valores[i]));
    const siguiente = Math.min(...quedan.filter((i) => valores[i] >= maximo - TOLERANCIA_EMPATE));
    orden.push(siguiente);
    quedan.splice(quedan.indexOf(siguiente), 1);
  }
  return orden;
}

function porcentajesRedondeados(pesos) {
  // Enteros que suman 100 (resto mayor): los que más pierden al truncar reciben un punto (a igualdad, el primero).
  const total = pesos.reduce((a, b) => a + b, 0);
  const exactos = pesos.map((p) => 100 * p / total);
  const enteros = exactos.map((x) => Math.floor(x + TOLERANCIA_EMPATE)); // 14.999999999999998 cuenta como 15
  const faltan = 100 - enteros.reduce((a, b) => a + b, 0);
  const restos = exactos.map((x, i) => x - enteros[i]);
  ordenConEmpates(restos).slice(0, faltan).forEach((i) => { enteros[i] += 1; });
  return enteros;
}

function frase(palabras, pesos, porcentajes, elegida) {
  const visibles = pesos.map((_, i) => i).filter((i) => pesos[i] > 0);
  const nombre = (i) => (i === elegida ? "sí misma" : `«${palabras[i]}»`);
  const quien = `La palabra «${palabras[elegida]}»`; // «a sí misma» concuerda con «la palabra»
  if (visibles.length === 1) return `${quien} solo puede mirar a ${nombre(visibles[0])} (${porcentajes[visibles[0]]} %)`;
  const valores = visibles.map((i) => pesos[i]);
  if (Math.max(...valores) - Math.min(...valores) < 0.01) {
    return `${quien} reparte su atención casi por igual entre las ${visibles.length} palabras que ve`;
  }
  const [primera, segunda] = ordenConEmpates(pesos, visibles);
  if (porcentajes[segunda] === 0) return `${quien} mira casi solo a ${nombre(primera)} (${porcentajes[primera]} %)`;
  return `${quien} mira sobre todo a ${nombre(primera)} (${porcentajes[primera]} %) ` +
    `y después a ${nombre(segunda)} (${porcentajes[segunda]} %)`;
}

export function calcularEstado(datos, limites = { t_minima: 0.1, t_maxima: 10, plano: 3 }) {
  // Lo que muestra la actividad para unos vectores y controles, recortados como los recorta Python.
  const L = limites.plano;
  const recorte = (vectores) => vectores.map((v) => v.map((x) => acotar(x, -L, L)));
  const n = datos.claves.length;
  const elegida = Math.trunc(acotar(datos.elegida, 0, n - 1));
  const temperatura = acotar(datos.temperatura, limites.t_minima, limites.t_maxima);
  const { pesos, visibles } = calcularPesos(recorte(datos.consultas), recorte(datos.claves), elegida, temperatura,
    Boolean(datos.causal));
  const porcentajes = porcentajesRedondeados(pesos);
  const palabras = datos.palabras.length === n ? datos.palabras : pesos.map((_, i) => String(i));
  return { pesos, porcentajes, visibles, elegida, frase: frase(palabras, pesos, porcentajes, elegida) };
}

// --- Geometría: temperatura en escala logarítmica, plano de -L..L a píxeles y vuelta ----------------------

function geometria(model) {
  const limites = () => model.get("limites") || { t_minima: 0.1, t_maxima: 10, plano: 3 };
  return {
    limites,
    aDeslizador(t) {
      const { t_minima, t_maxima } = limites();
      return Math.round(1000 * Math.log(t / t_minima) / Math.log(t_maxima / t_minima));
    },
    deDeslizador(u) {
      const { t_minima, t_maxima } = limites();
      return t_minima * Math.pow(t_maxima / t_minima, u / 1000);
    },
    aPixel([x, y]) {
      const L = limites().plano;
      return [(x + L) / (2 * L) * LADO, (L - y) / (2 * L) * LADO];
    },
    recortar(v) {
      const L = limites().plano;
      return Math.round(Math.max(-L, Math.min(L, v)) * 10) / 10;
    },
    dePixel(px, py) {
      const L = limites().plano;
      return [this.recortar(px / LADO * 2 * L - L), this.recortar(L - py / LADO * 2 * L)];
    },
    centros() {
      const n = model.get("palabras").length;
      return Array.from({ length: n }, (_, i) => 60 + i * (ANCHO - 120) / Math.max(1, n - 1));
    },
  };
}

// --- El esqueleto: frase, plano, barras, resumen y controles ------------------------------------------------

function construirVista(el) {
  const raiz = html("div", { class: "aqm-raiz", tabindex: "0" }, el);
  raiz.setAttribute("role", "group");
  raiz.setAttribute("aria-label", "Actividad: ¿a quién mira cada palabra?");
  // Que JupyterLab y Notebook 7 no conviertan las flechas en atajos del cuaderno mientras la actividad tiene el foco.
  raiz.setAttribute("data-lm-suppress-shortcuts", "true");
  const ayuda = html("div", { class: "aqm-ayuda" }, raiz);
  ayuda.textContent = "Clic en una palabra: la fijas (otro clic la suelta). Sin ninguna fijada, pasar el ratón " +
    "la previsualiza. Teclado: Tab hasta una palabra o un vector y flechas.";

  const svgFrase = crear("svg", { class: "aqm-frase", viewBox: `0 0 ${ANCHO} ${ALTO_FRASE}`, width: ANCHO }, raiz);
  const capaArcos = crear("g", {}, svgFrase);
  const capaPalabras = crear("g", { role: "listbox", "aria-label": "palabras de la frase" }, svgFrase);

  const fila = html("div", { class: "aqm-fila" }, raiz);
  const columnaPlano = html("div", { class: "aqm-columna-plano" }, fila);
  const svgPlano = crear("svg", { class: "aqm-plano", viewBox: `-34 -24 ${LADO + 54} ${LADO + 52}`,
    width: LADO + 54, height: LADO + 52 }, columnaPlano);
  const capaEjes = crear("g", {}, svgPlano);
  const capaClaves = crear("g", {}, svgPlano);
  const capaConsulta = crear("g", {}, svgPlano);
  const coordenadas = html("div", { class: "aqm-coordenadas" }, columnaPlano);
  const barras = html("div", { class: "aqm-barras" }, fila);

  // El resumen se anuncia a los lectores de pantalla cada vez que cambia.
  const resumen = html("div", { class: "aqm-resumen", "aria-live": "polite", role: "status" }, raiz);
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
  return { raiz, svgFrase, capaArcos, capaPalabras, svgPlano, capaEjes, capaClaves, capaConsulta, coordenadas,
    barras, resumen, deslizador, valorT, casilla, boton };
}

// --- Lo que cambia con cada respuesta de Python ---------------------------------------------------------------

function dibujarArcos(d, vista, geo) {
  const pesos = d.pesos;
  const visibles = d.visibles;
  const elegida = d.elegida;
  const xs = geo.centros();
  const base = ALTO_FRASE - 52;
  vista.capaArcos.replaceChildren();
  pesos.forEach((peso, j) => {
    if (!visibles[j]) return;
    let d;
    if (j === elegida) { // un lazo sobre la propia palabra
      const x = xs[j];
      d = `M ${x - 10} ${base} C ${x - 40} ${base - 63}, ${x + 40} ${base - 63}, ${x + 10} ${base}`;
    } else { // una curva que sube más cuanto más lejos está la palabra
      const x1 = xs[elegida];
      const x2 = xs[j];
      const altura = Math.min(105, 20 + Math.abs(x2 - x1) * 0.17);
      d = `M ${x1} ${base} Q ${(x1 + x2) / 2} ${base - 2 * altura}, ${x2} ${base}`;
    }
    crear("path", { d, class: "aqm-arco", "data-indice": j, fill: "none", stroke: ACENTO,
      "stroke-width": (1 + 16 * peso).toFixed(2), "stroke-opacity": (0.25 + 0.75 * peso).toFixed(3),
      "stroke-linecap": "round" }, vista.capaArcos);
  });
}

function dibujarFrase(d, vista, geo, estado) {
  dibujarArcos(d, vista, geo);
  const palabras = d.palabras;
  const visibles = d.visibles;
  const elegida = d.elegida;
  // Las palabras no se vuelven a crear (si no, el ratón quieto sobre una «entraría» en ella otra vez).
  Array.from(vista.capaPalabras.children).forEach((grupo, j) => {
    const clases = ["aqm-palabra"];
    if (j === elegida) clases.push("aqm-elegida");
    if (j === estado.fijada) clases.push("aqm-fijada");
    if (!visibles[j]) clases.push("aqm-oculta");
    grupo.setAttribute("class", clases.join(" "));
    grupo.setAttribute("aria-selected", String(j === elegida));
    grupo.setAttribute("aria-label", `${palabras[j]}${j === estado.fijada ? " (fijada)" : ""}` +
      `${visibles[j] ? "" : " (oculta por la máscara)"}`);
    grupo.querySelector("text").textContent = palabras[j];
  });
}

function dibujarBarras(d, vista) {
  const palabras = d.palabras;
  const porcentajes = d.porcentajes;
  const visibles = d.visibles;
  const elegida = d.elegida;
  vista.barras.replaceChildren();
  const titulo = html("div", { class: "aqm-titulo-barras" }, vista.barras);
  titulo.textContent = `Pesos de «${palabras[elegida]}» (suman 100 %)`;
  palabras.forEach((palabra, j) => {
    // data-peso: el peso sin redondear (las pruebas lo comparan con el de Python).
    const fila = html("div", { class: "aqm-barra" + (visibles[j] ? "" : " aqm-oculta"), "data-indice": j,
      "data-peso": String(d.pesos[j]) }, vista.barras);
    html("span", { class: "aqm-nombre" }, fila).textContent = palabra;
    const carril = html("span", { class: "aqm-carril" }, fila);
    const relleno = html("span", { class: "aqm-relleno" }, carril);
    relleno.style.width = `${visibles[j] ? porcentajes[j] : 0}%`;
    if (j === elegida) relleno.style.background = ACENTO;
    html("span", { class: "aqm-porcentaje" }, fila).textContent = visibles[j] ? `${porcentajes[j]} %` : "oculta";
  });
}

function dibujarEjes(vista, geo) {
  vista.capaEjes.replaceChildren();
  const L = geo.limites().plano;
  crear("rect", { x: 0, y: 0, width: LADO, height: LADO, class: "aqm-fondo" }, vista.capaEjes);
  for (let v = -L; v <= L; v += 1) {
    const [px] = geo.aPixel([v, 0]);
    const [, py] = geo.aPixel([0, v]);
    crear("line", { x1: px, y1: 0, x2: px, y2: LADO, class: v === 0 ? "aqm-eje" : "aqm-rejilla" }, vista.capaEjes);
    crear("line", { x1: 0, y1: py, x2: LADO, y2: py, class: v === 0 ? "aqm-eje" : "aqm-rejilla" }, vista.capaEjes);
    if (v !== 0) {
      crear("text", { x: px, y: LADO + 18, "text-anchor": "middle", class: "aqm-marca" }, vista.capaEjes)
        .textContent = String(v);
      crear("text", { x: -9, y: py + 5, "text-anchor": "end", class: "aqm-marca" }, vista.capaEjes)
        .textContent = String(v);
    }
  }
  crear("text", { x: LADO / 2, y: -8, "text-anchor": "middle", class: "aqm-leyenda" }, vista.capaEjes)
    .textContent = "flecha: consulta · puntos: claves (arrástralos)";
}

function dibujarPlano(d, vista, geo, estado) {
  const palabras = d.palabras;
  const claves = d.claves;
  const consultas = d.consultas;
  const pesos = d.pesos;
  const visibles = d.visibles;
  const elegida = d.elegida;
  const conFoco = document.activeElement;
  const enfocada = conFoco && vista.svgPlano.contains(conFoco) ? conFoco.getAttribute("data-asa") : null;
  vista.capaClaves.replaceChildren();
  vista.capaConsulta.replaceChildren();
  const etiquetas = [];
  claves.forEach((clave, j) => {
    const [px, py] = geo.aPixel(clave);
    const grupo = crear("g", { class: "aqm-clave" + (visibles[j] ? "" : " aqm-oculta"), "data-indice": j,
      "data-asa": `clave-${j}`, tabindex: "0", role: "slider", "aria-valuetext": formato(clave),
      "aria-label": `clave de «${palabras[j]}»; muévela con las flechas` }, vista.capaClaves);
    crear("circle", { cx: px, cy: py, r: 7 + 10 * (visibles[j] ? pesos[j] : 0), class: "aqm-punto",
      fill: j === elegida ? ACENTO : TINTA, "fill-opacity": visibles[j] ? 0.85 : 0.35 }, grupo);
    crear("circle", { cx: px, cy: py, r: 12, class: "aqm-asa" }, grupo);
    const nodo = crear("text", { class: "aqm-etiqueta", "data-indice": j }, grupo);
    nodo.textContent = palabras[j];
    etiquetas.push({ nodo, px, py, r: 7 + 10 * (visibles[j] ? pesos[j] : 0) });
  });
  const [ox, oy] = geo.aPixel([0, 0]);
  const [qx, qy] = geo.aPixel(consultas[elegida]);
  const flecha = crear("g", { class: "aqm-consulta", "data-asa": "consulta", tabindex: "0", role: "slider",
    "aria-valuetext": formato(consultas[elegida]),
    "aria-label": `consulta de «${palabras[elegida]}»; muévela con las flechas` },
  vista.capaConsulta);
  crear("line", { x1: ox, y1: oy, x2: qx, y2: qy, stroke: ACENTO, "stroke-width": 4 }, flecha);
  const angulo = Math.atan2(qy - oy, qx - ox);
  const punta = (a, r) => `${qx - r * Math.cos(angulo + a)},${qy - r * Math.sin(angulo + a)}`;
  crear("polygon", { points: `${qx},${qy} ${punta(0.4, 16)} ${punta(-0.4, 16)}`, fill: ACENTO }, flecha);
  crear("circle", { cx: qx, cy: qy, r: 12, class: "aqm-asa aqm-punta-consulta" }, flecha);
  // El nombre de la flecha va fijo en una esquina del plano: así nunca tapa las etiquetas de las claves. La segunda
  // línea dice qué es el punto rojo (la clave de la misma palabra), para que nadie lo tome por otra consulta.
  const nombreFlecha = crear("text", { class: "aqm-etiqueta aqm-etiqueta-consulta" }, flecha);
  const lineas = [[`flecha: consulta de «${palabras[elegida]}»`, LADO - 30], ["punto rojo: su clave", LADO - 10]];
  const cajasRotulo = lineas.map(([texto, y]) => {
    const linea = crear("tspan", { x: 8, y }, nombreFlecha);
    linea.textContent = texto;
    return cajaDeTexto(linea, 8, y, "start", 10.5);
  });
  colocarEtiquetas(etiquetas, [ox, oy, qx, qy], cajasRotulo);
  if (enfocada) { // el foco sigue en el mismo vector aunque el plano se haya redibujado
    const nodo = vista.svgPlano.querySelector(`[data-asa="${enfocada}"]`);
    if (nodo) nodo.focus({ preventScroll: true });
  }
  dibujarCoordenadas(d, vista, estado);
}

// --- Dónde va el nombre de cada clave: junto a su punto, sin pisar nada --------------------------------------

function cajaDeTexto(nodo, x, y, ancla, porLetra = 9.6) {
  // Caja [x0, y0, x1, y1] de un texto de 16 px con su línea base en y. Se mide si el navegador ya lo ha maquetado
  // (si la actividad está oculta mide 0: entonces se estima por el número de letras).
  const medido = nodo.getComputedTextLength ? nodo.getComputedTextLength() : 0;
  const ancho = medido > 0 ? medido : porLetra * nodo.textContent.length;
  const x0 = ancla === "start" ? x : ancla === "end" ? x - ancho : x - ancho / 2;
  return [x0, y - 14, x0 + ancho, y + 4];
}

const pisa = (a, b) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];

function colocarEtiquetas(etiquetas, [ox, oy, qx, qy], cajasRotulo) {
  // Como la figura de matplotlib: cada nombre prueba ocho sitios alrededor de su punto (primero hacia fuera del
  // centro) y se queda con el primero que no pisa el borde del plano (ni la leyenda de encima), otro nombre, otro
  // punto, los ejes, la flecha ni su rótulo; si ninguno está libre, con el que menos pisa.
  const direcciones = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => [Math.cos(i * Math.PI / 4), Math.sin(i * Math.PI / 4)]);
  const puntos = etiquetas.map((e) => [e.px - e.r, e.py - e.r, e.px + e.r, e.py + e.r]);
  const flecha = Array.from({ length: 24 }, (_, i) => [ox + (qx - ox) * (i + 1) / 24, oy + (qy - oy) * (i + 1) / 24]);
  const ocupadas = cajasRotulo.slice();
  etiquetas.forEach((e, j) => {
    const fuera = Math.atan2(e.py - oy, e.px - ox);
    const orden = direcciones.slice().sort((a, b) =>
      (b[0] * Math.cos(fuera) + b[1] * Math.sin(fuera)) - (a[0] * Math.cos(fuera) + a[1] * Math.sin(fuera)));
    const separacion = e.r + 4;
    let mejor = null;
    for (const [dx, dy] of orden) {
      const ancla = dx > 0.3 ? "start" : dx < -0.3 ? "end" : "middle";
      const x = e.px + dx * separacion;
      // Arriba: la caja acaba en el punto; abajo: empieza en él; a los lados: centrada en su altura.
      const base = dy < -0.3 ? e.py + dy * separacion - 4 : dy > 0.3 ? e.py + dy * separacion + 14 : e.py + 5;
      const caja = cajaDeTexto(e.nodo, x, base, ancla);
      const distancia = (p) => Math.hypot(Math.max(p[0] - caja[2], caja[0] - p[2], 0),
        Math.max(p[1] - caja[3], caja[1] - p[3], 0));
      const ajeno = puntos.some((p, k) => k !== j && distancia(p) + 2 <= distancia(puntos[j]));
      const choques = 10 * (caja[0] < 0 || caja[1] < 0 || caja[2] > LADO || caja[3] > LADO)
        + 10 * ocupadas.filter((o) => pisa(caja, o)).length
        + 10 * puntos.filter((p, k) => k !== j && pisa(caja, p)).length
        + 8 * ajeno + 8 * flecha.some(([fx, fy]) => fx >= caja[0] - 2 && fx <= caja[2] + 2 && fy >= caja[1] - 2
          && fy <= caja[3] + 2)
        + 3 * (caja[0] < ox && ox < caja[2]) + 3 * (caja[1] < oy && oy < caja[3]);
      if (mejor === null || choques < mejor.choques) mejor = { choques, x, base, ancla, caja };
      if (choques === 0) break;
    }
    e.nodo.setAttribute("x", mejor.x.toFixed(1));
    e.nodo.setAttribute("y", mejor.base.toFixed(1));
    e.nodo.setAttribute("text-anchor", mejor.ancla);
    ocupadas.push(mejor.caja);
  });
}

function dibujarCoordenadas(d, vista, estado) {
  // Las coordenadas del último vector tocado (o de la consulta elegida): así se pueden copiar a un ejercicio.
  const palabras = d.palabras;
  const ultimo = estado.ultimo || { tipo: "consulta", indice: d.elegida };
  const indice = ultimo.tipo === "consulta" ? d.elegida : ultimo.indice;
  const vector = d[ultimo.tipo === "consulta" ? "consultas" : "claves"][indice];
  vista.coordenadas.textContent = `${ultimo.tipo} de «${palabras[indice]}»: ${formato(vector)}`;
  vista.coordenadas.setAttribute("data-tipo", ultimo.tipo);
  vista.coordenadas.setAttribute("data-indice", String(indice));
}

function dibujarControles(d, vista, geo) {
  const t = d.temperatura;
  if (document.activeElement !== vista.deslizador) vista.deslizador.value = String(geo.aDeslizador(t));
  vista.valorT.textContent = `= ${t.toFixed(2)}`;
  vista.casilla.checked = d.causal;
}

// --- El estado en la página: una copia de los datos del modelo que los gestos cambian al momento ------------

const ENTRADAS = ["consultas", "claves", "elegida", "temperatura", "causal"];

function crearLocal(model, geo) {
  // datos: lo que se ve (Python lo recibe al terminar cada gesto); previa: la palabra que se previsualiza con el
  // ratón (o null), que no se manda a Python; enviando: true mientras se copian los datos al modelo.
  const copia = (valor) => JSON.parse(JSON.stringify(valor));
  const local = { datos: null, previa: null, enviando: false };
  local.recoger = () => {
    local.datos = copia(Object.fromEntries(["palabras", ...ENTRADAS].map((n) => [n, model.get(n)])));
  };
  local.ver = () => {
    // Lo que se dibuja: los datos (con la palabra previsualizada, si la hay) y sus pesos, todo de una vez.
    const elegida = local.previa !== null ? local.previa : local.datos.elegida;
    const limites = geo.limites();
    const L = limites.plano;
    const recorte = (vectores) => vectores.map((v) => v.map((x) => acotar(x, -L, L)));
    const calculo = calcularEstado({ ...local.datos, elegida }, limites);
    return { ...local.datos, consultas: recorte(local.datos.consultas), claves: recorte(local.datos.claves),
      temperatura: acotar(local.datos.temperatura, limites.t_minima, limites.t_maxima), ...calculo };
  };
  local.enviar = () => {
    // Fin de un gesto: Python recibe el estado entero (vectores, palabra elegida, T y máscara) en un mensaje.
    local.enviando = true;
    try {
      for (const nombre of ENTRADAS) model.set(nombre, copia(local.datos[nombre]));
    } finally {
      local.enviando = false;
    }
    model.save_changes();
  };
  local.elegir = (i) => {
    const n = local.datos.palabras.length;
    local.datos.elegida = ((i % n) + n) % n;
    local.previa = null;
    return local.datos.elegida;
  };
  local.mover = (tipo, indice, vector) => {
    local.datos[tipo === "consulta" ? "consultas" : "claves"][indice] = vector;
  };
  local.recoger();
  return local;
}

// --- Gestos ------------------------------------------------------------------------------------------------

function conectarPalabras(local, vista, geo, estado, redibujar) {
  const xs = geo.centros();
  const base = ALTO_FRASE - 30;
  vista.capaPalabras.replaceChildren();
  local.datos.palabras.forEach((palabra, j) => {
    const grupo = crear("g", { class: "aqm-palabra", "data-indice": j, tabindex: "0", role: "option",
      transform: `translate(${xs[j]}, ${base})` }, vista.capaPalabras);
    crear("rect", { x: -46, y: -21, width: 92, height: 36, rx: 8 }, grupo);
    crear("text", { x: 0, y: -2, "text-anchor": "middle", "dominant-baseline": "middle" }, grupo)
      .textContent = palabra;
    // Un clic fija la palabra (y se manda a Python); otro clic en la misma la suelta.
    grupo.addEventListener("click", () => {
      estado.fijada = estado.fijada === j ? null : j;
      estado.teclado = null; // las flechas vuelven a mover la palabra elegida
      local.elegir(j);
      local.enviar();
      // El cuaderno puede quedarse el foco tras el clic: lo recupera la actividad, para que funcionen las flechas.
      setTimeout(() => vista.raiz.focus({ preventScroll: true }), 0);
      redibujar();
    });
    // Pasar el ratón solo previsualiza (sin avisar a Python), mientras no hay ninguna fijada ni se arrastra nada.
    grupo.addEventListener("pointerenter", (evento) => {
      if (evento.pointerType !== "mouse" || estado.fijada !== null || estado.arrastre !== null) return;
      local.previa = j;
      redibujar();
    });
  });
  // Al salir de la frase, vuelve la palabra elegida de antes de la previsualización.
  vista.svgFrase.addEventListener("pointerleave", () => {
    if (local.previa === null) return;
    local.previa = null;
    redibujar();
  });
}

function asaMasCercana(d, geo, px, py) {
  // Todas las asas compiten por distancia: la consulta no tapa a una clave cercana, ni al revés.
  const candidatas = [{ tipo: "consulta", indice: d.elegida, vector: d.consultas[d.elegida] }];
  d.claves.forEach((vector, j) => candidatas.push({ tipo: "clave", indice: j, vector }));
  let mejor = null;
  for (const c of candidatas) {
    const [x, y] = geo.aPixel(c.vector);
    const distancia = Math.hypot(x - px, y - py);
    if (distancia <= RADIO_ASA && (mejor === null || distancia < mejor.distancia)) mejor = { ...c, distancia };
  }
  return mejor;
}

function conectarArrastre(local, vista, geo, estado, redibujar) {
  const svg = vista.svgPlano;
  const enPlano = (evento) => new DOMPoint(evento.clientX, evento.clientY).matrixTransform(svg.getScreenCTM().inverse());
  svg.addEventListener("pointerdown", (evento) => {
    const p = enPlano(evento);
    const asa = asaMasCercana(local.ver(), geo, p.x, p.y);
    if (asa === null) return;
    evento.preventDefault();
    estado.arrastre = { tipo: asa.tipo, indice: asa.indice };
    estado.ultimo = estado.arrastre;
    svg.setPointerCapture(evento.pointerId);
    // Después, con el foco en la actividad, las flechas mueven el vector agarrado, paso a paso.
    estado.teclado = { tipo: asa.tipo, indice: asa.indice };
    setTimeout(() => vista.raiz.focus({ preventScroll: true }), 0);
    redibujar(); // las coordenadas bajo el plano pasan al vector agarrado
  });
  svg.addEventListener("pointermove", (evento) => {
    if (estado.arrastre === null) return;
    const p = enPlano(evento);
    local.mover(estado.arrastre.tipo, estado.arrastre.indice, geo.dePixel(p.x, p.y));
    redibujar(); // pesos, arcos y barras al momento, calculados aquí
  });
  const soltar = () => {
    if (estado.arrastre === null) return;
    estado.arrastre = null;
    local.enviar(); // al soltar, Python recibe dónde quedó el vector
    redibujar();
  };
  svg.addEventListener("pointerup", soltar);
  svg.addEventListener("pointercancel", soltar);
}

function conectarTeclado(local, vista, geo, estado, redibujar) {
  const direcciones = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
  vista.raiz.addEventListener("keydown", (evento) => {
    const objetivo = evento.target;
    if (objetivo instanceof HTMLInputElement || objetivo instanceof HTMLButtonElement) return;
    const palabra = objetivo.closest && objetivo.closest(".aqm-palabra");
    let asa = objetivo.getAttribute && objetivo.getAttribute("data-asa");
    let indicePalabra = palabra ? Number(palabra.dataset.indice) : null;
    const d = local.ver();
    if (objetivo === vista.raiz) { // foco en la actividad (tras un clic): manda lo último que se tocó
      if (estado.teclado === null) indicePalabra = d.elegida;
      else asa = estado.teclado.tipo === "consulta" ? "consulta" : `clave-${estado.teclado.indice}`;
    }
    if (indicePalabra !== null && (evento.key === "ArrowRight" || evento.key === "ArrowLeft")) {
      // Flechas sobre la frase: la palabra de al lado queda elegida y fijada.
      const j = local.elegir(indicePalabra + (evento.key === "ArrowRight" ? 1 : -1));
      estado.fijada = j;
      if (palabra) vista.capaPalabras.children[j].focus({ preventScroll: true });
    } else if (palabra && (evento.key === "Enter" || evento.key === " ")) {
      const j = Number(palabra.dataset.indice);
      estado.fijada = estado.fijada === j ? null : j;
      local.elegir(j);
    } else if (asa && direcciones[evento.key]) {
      // Flechas sobre un vector: se mueve 0.1 (0.5 con Mayúsculas) en esa dirección.
      const tipo = asa === "consulta" ? "consulta" : "clave";
      const indice = tipo === "consulta" ? d.elegida : Number(asa.split("-")[1]);
      const vector = d[tipo === "consulta" ? "consultas" : "claves"][indice];
      const paso = evento.shiftKey ? 0.5 : PASO_TECLADO;
      const [dx, dy] = direcciones[evento.key];
      local.mover(tipo, indice, [geo.recortar(vector[0] + dx * paso), geo.recortar(vector[1] + dy * paso)]);
      estado.ultimo = { tipo, indice };
    } else {
      return;
    }
    local.enviar(); // cada tecla es un gesto completo
    redibujar();
    evento.preventDefault();
    evento.stopPropagation();
  });
}

function conectarControles(local, model, vista, geo, estado, redibujar) {
  // Mover el deslizador redibuja al momento; al soltarlo (evento change), Python recibe la temperatura.
  vista.deslizador.addEventListener("input", () => {
    local.datos.temperatura = Math.round(geo.deDeslizador(Number(vista.deslizador.value)) * 100) / 100;
    redibujar();
  });
  vista.deslizador.addEventListener("change", () => local.enviar());
  vista.casilla.addEventListener("change", () => {
    local.datos.causal = vista.casilla.checked;
    local.enviar();
    redibujar();
  });
  vista.boton.addEventListener("click", () => {
    // El estado inicial lo guarda Python: la página lo recibe con su respuesta (change:…).
    estado.fijada = null;
    estado.ultimo = null;
    estado.teclado = null;
    local.previa = null;
    redibujar(); // ya sin palabra fijada, aunque Python no cambie nada
    model.send({ accion: "reiniciar" });
  });
}

// --- render: une las partes ----------------------------------------------------------------------------------

function render({ model, el }) {
  const geo = geometria(model);
  const vista = construirVista(el);
  // fijada: palabra fijada con un clic (o null); arrastre: vector en la mano; ultimo: el último vector tocado
  // (sus coordenadas, bajo el plano); teclado: el vector que mueven las flechas con el foco en la actividad
  // (null: mueven la palabra elegida).
  const estado = { fijada: null, arrastre: null, ultimo: null, teclado: null };
  const local = crearLocal(model, geo);
  const dibujarTodo = () => {
    // Título, barras, arcos, plano y frase salen del mismo cálculo: nunca se ven pesos de otra palabra.
    const d = local.ver();
    dibujarFrase(d, vista, geo, estado);
    dibujarPlano(d, vista, geo, estado);
    dibujarBarras(d, vista);
    if (vista.resumen.textContent !== d.frase) vista.resumen.textContent = d.frase;
    dibujarControles(d, vista, geo);
  };
  conectarPalabras(local, vista, geo, estado, dibujarTodo);
  conectarArrastre(local, vista, geo, estado, dibujarTodo);
  conectarTeclado(local, vista, geo, estado, dibujarTodo);
  conectarControles(local, model, vista, geo, estado, dibujarTodo);
  dibujarEjes(vista, geo);
  dibujarTodo();
  // Si Python cambia los datos (reiniciar, o una celda que los asigna), la página los recoge. Lo que la propia
  // página manda no hace falta recogerlo, y mientras se arrastra manda el gesto.
  const alCambiar = () => {
    if (local.enviando || estado.arrastre !== null) return;
    local.recoger();
    dibujarTodo();
  };
  const eventos = ["palabras", ...ENTRADAS].map((n) => `change:${n}`);
  for (const evento of eventos) model.on(evento, alCambiar);
  return () => {
    for (const evento of eventos) model.off(evento, alCambiar);
  };
}

export default { render };
