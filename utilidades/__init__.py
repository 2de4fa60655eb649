"""Utilidades del curso «Atención y transformers»: el código que enseñan las lecciones, listo para reutilizar.

Cada módulo se llama como lo que guarda, y lo enseña una lección:

| lección | módulo | qué guarda |
|---|---|---|
| 01 | `actividades` | la actividad «¿A quién mira cada palabra?» |
| 02, 05 | `atencion` | `atencion(Q, K, V, mascara)`: la idea en la 02, entera (máscaras) en la 05 |
| 03 | `escala` | √d y temperatura |
| 04, 05 | `multicabeza` | `AtencionMulticabeza` (sin máscaras en la 04, entera en la 05) y su copia en PyTorch |
| 05 | `mascaras` | máscara causal, de relleno y las dos juntas |
| 06 | `posicion` | vectores de posición |
| 07 | `bloques`, `coste`, `diagramas` | el bloque transformer, lo que cuesta la atención, su diagrama |
| 08 | `invertir`, `entrenamiento` | los dígitos y el transformer de juguete; el bucle de entrenamiento |
| 09 | `vision` | parches y el ViT diminuto |
| 10 | `texto`, `gpt`, `dropout`, `escritor` | corpus y tokenizador; el mini-GPT y su *dropout*; el escritor |
| 11 | `visualizador`, `visualizador_widget` | la pasada etapa por etapa y su widget |
| 12 | `cache`, `modernos`, `gpt2` | la caché de claves y valores; RMSNorm, SwiGLU, RoPE, GQA y el mini-Llama; GPT-2 |
| todas | `configuracion`, `graficos`, `formato` | preparar cada lección, el aspecto de las figuras, los números |
| todas | `validacion`, `paneles`, `vistas`, `ejercicios` | errores claros, controles, vistas, ejercicios |
"""

__version__ = "0.1.0"
