// Geometry both boards share, in SVG viewBox units: which place a node, a pointer or an
// arrow key points at (a board's `places` map keys to {rect, el}), fitting the players'
// strips to a language's words, and the shine drawn over every piece. It knows no game:
// board/input.js, race.js and draughts.js import it, and it imports none of them.

import { s } from "../dom.js";

/** The key of the place a node belongs to (its `data-key`), or null. */
export function keyAt(node) {
  const el = node && node.closest ? node.closest("[data-key]") : null;
  return el ? el.getAttribute("data-key") : null;
}

/** The key of the place that has the keyboard focus in `svg`, so a redrawn board can keep it. */
export function focusedKey(svg) {
  const active = document.activeElement;
  return svg && active && svg.contains(active) ? keyAt(active) : null;
}

/** Where a pointer event is, in the viewBox units of `svg`. */
export function svgPoint(svg, event) {
  const matrix = svg.getScreenCTM();
  if (!matrix) return { x: 0, y: 0 };
  return new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
}

/** The first place whose rect holds `point`, or null. */
export function placeAt(places, point) {
  for (const [key, place] of places) {
    const r = place.rect;
    if (point.x >= r.x && point.x <= r.x + r.width && point.y >= r.y && point.y <= r.y + r.height) return key;
  }
  return null;
}

/** The target nearest in the arrow's direction (spatial navigation, so the keys follow the picture). */
export function nearest(places, key, arrow) {
  const centre = (r) => ({ x: r.x + r.width / 2, y: r.y + r.height / 2 });
  const from = centre(places.get(key).rect);
  let best = null;
  let bestScore = Infinity;
  for (const [other, place] of places) {
    if (other === key || !place.el) continue;
    const c = centre(place.rect);
    const dx = c.x - from.x;
    const dy = c.y - from.y;
    const [along, across] = {
      ArrowLeft: [-dx, dy], ArrowRight: [dx, dy], ArrowUp: [-dy, dx], ArrowDown: [dy, dx],
    }[arrow] || [0, 0];
    if (along <= 1) continue;
    const score = along + 2 * Math.abs(across);
    if (score < bestScore) {
      bestScore = score;
      best = other;
    }
  }
  return best;
}

/** The radial gradient (a `<defs>` child) that gives checkers and men their gloss. */
export function shine(id) {
  return s("radialGradient", { id, cx: "35%", cy: "30%", r: "75%" },
    s("stop", { offset: "0", "stop-color": "#fff", "stop-opacity": "0.5" }),
    s("stop", { offset: "0.55", "stop-color": "#fff", "stop-opacity": "0" }),
    s("stop", { offset: "1", "stop-color": "#000", "stop-opacity": "0.28" }));
}

/**
 * Keep a strip's texts apart when a language's words are long: first smaller info texts,
 * then without the optional one (the trays show the borne-off count anyway), then smaller
 * name and flag. Needs the board on screen; a hidden board is fitted on its next update.
 */
export function fitStrips(svg) {
  for (const strip of svg.querySelectorAll(".sb-strip")) {
    const texts = [...strip.querySelectorAll("text")];
    const clash = () => {
      const shown = texts.filter((text) => text.style.display !== "none").map(box);
      return shown.some((a, i) => i + 1 < shown.length && a.x + a.width + 12 > shown[i + 1].x);
    };
    const steps = [
      () => texts.filter((x) => x.classList.contains("sb-strip-info")).forEach((x) => { x.style.fontSize = "19px"; }),
      () => texts.filter((x) => x.classList.contains("sb-strip-optional")).forEach((x) => { x.style.display = "none"; }),
      () => texts.filter((x) => !x.classList.contains("sb-strip-info")).forEach((x) => { x.style.fontSize = "20px"; }),
    ];
    for (const step of steps) {
      if (!clash()) break;
      step();
    }
  }
}

function box(text) {
  try {
    return text.getBBox();
  } catch {
    return { x: 0, width: 0 };
  }
}
