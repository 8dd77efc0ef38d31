// Plays proposed by a chouette crew (CH-4), drawn as arrows over a race board: each
// bettor's proposal for the captain's roll, in its own colour, from where a checker
// starts to where it ends. The arrows are advice only: the captain still moves the
// checkers himself, and his confirmed play is final. The arrows never take a click.

import { s } from "../dom.js";
import { BW, COL, FIELD_H, MID, X_BAR, X_RIGHT, stackY } from "./race-layout.js";
import { toAbsolute } from "./race-position.js";

export const ARROW_COLOURS = ["#4fc3ff", "#ffcf3f", "#ff7aa8", "#7cf29a", "#c59bff", "#ff9b4f", "#f5f5f5"];

/**
 * A play in the notation of docs/notation.md as its steps [from, to] in the mover's own
 * numbers (25 the bar, 0 off): "24/18*\/13" is two steps, "13/7(2)" the same step twice.
 * Null when the text is not a play.
 */
export function playSteps(text) {
  const steps = [];
  for (const token of String(text || "").trim().toLowerCase().split(/\s+/)) {
    if (!token) continue;
    const found = token.match(/^([^()]+)(?:\((\d)\))?$/);
    if (!found) return null;
    const points = found[1].replaceAll("*", "").split("/").map((p) => (p === "bar" ? 25 : p === "off" ? 0 : Number(p)));
    if (points.length < 2 || points.some((p) => !Number.isInteger(p) || p < 0 || p > 25)) return null;
    for (let k = 0; k < Number(found[2] || 1); k++) {
      for (let i = 1; i < points.length; i++) steps.push([points[i - 1], points[i]]);
    }
  }
  return steps.length ? steps : null;
}

/** Where the arrows of `side` start and end on `board` (a RaceBoard after its update). */
function spotOf(board, side, own) {
  if (own === 25) return { x: X_BAR + BW / 2, y: MID };
  if (own === 0) {
    const below = side === board.viewer;
    return { x: board.column(X_RIGHT) + COL / 2, y: below ? MID + FIELD_H / 4 : MID - FIELD_H / 4 };
  }
  const slot = board.slotOf(toAbsolute(board.mapping, side, own));
  return { x: board.sx(slot), y: stackY(slot, 1.6) };
}

/**
 * Draw `proposals` ([{play, colour}]) for `side`'s checkers on `board`; what was drawn
 * before goes. Returns how many arrows were drawn.
 */
export function drawProposals(board, side, proposals) {
  const svg = board.svg;
  if (!svg) return 0;
  svg.querySelector(".sb-proposals")?.remove();
  const layer = s("g", { class: "sb-proposals", "aria-hidden": "true", "pointer-events": "none" });
  const defs = s("defs");
  layer.append(defs);
  let count = 0;
  proposals.forEach(({ play, colour }, i) => {
    const steps = playSteps(play);
    if (!steps) return;
    const marker = `${board.uid}-arrow-${i}`;
    defs.append(s("marker", { id: marker, viewBox: "0 0 10 10", refX: 6, refY: 5, markerWidth: 4, markerHeight: 4,
      orient: "auto-start-reverse" }, s("path", { d: "M0,0 L10,5 L0,10 z", fill: colour })));
    const shift = (i - (proposals.length - 1) / 2) * 7;  // two proposals of one step stay apart
    steps.forEach(([from, to], k) => {
      const lift = k * 14;  // steps from one point ("24/22 24/18") do not hide each other
      const a = spotOf(board, side, from);
      const b = spotOf(board, side, to);
      layer.append(s("line", { x1: a.x + shift, y1: a.y + lift, x2: b.x + shift, y2: b.y + lift, stroke: colour,
        "stroke-width": 9, "stroke-linecap": "round", "marker-end": `url(#${marker})`,
        class: "sb-proposal", "data-play": play }));
      count++;
    });
  });
  svg.append(layer);
  return count;
}
