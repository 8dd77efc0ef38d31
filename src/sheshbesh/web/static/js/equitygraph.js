// The review's equity graph (issue 17, as lichess draws its evaluation): White's equity
// after each decision, from gnubg's judgement, over the whole game; above the middle line
// White stands better, below it Black. Mistakes are dots in their skill's colour, the
// decision on the board a vertical line; a click anywhere picks the nearest decision.

import { s } from "./dom.js";

const W = 300;
const H = 90;
const PAD = 4;
const LIMIT = 1.5;  // equities beyond ± this (gammons, a cube) are drawn at the edge

/** White's equity after an entry: gnubg scores each decision for the side that made it. */
export function whiteEquity(entry) {
  const equity = Number(entry.equity) || 0;
  return entry.side === "B" ? -equity : equity;
}

/** The x of decision i of n, and the y of an equity, in the graph's units. */
export function xOf(i, n) {
  return n <= 1 ? W / 2 : PAD + (i * (W - 2 * PAD)) / (n - 1);
}

export function yOf(equity) {
  const clamped = Math.max(-LIMIT, Math.min(LIMIT, equity));
  return H / 2 - (clamped / LIMIT) * (H / 2 - PAD);
}

/**
 * The graph of `entries` with decision `shown` marked; `onPick(index)` on a click.
 * `label(entry, index)` words a mistake's dot (its tooltip).
 */
export function equityGraph(entries, { shown = null, onPick, label, title }) {
  const n = entries.length;
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "equity-graph", role: "img",
    "aria-label": title, "data-testid": "equity-graph", preserveAspectRatio: "none" });
  if (!n) return svg;
  const points = entries.map((entry, i) => [xOf(i, n), yOf(whiteEquity(entry))]);
  const line = points.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ");
  const mid = H / 2;
  const first = points[0][0];
  const last = points[points.length - 1][0];
  svg.append(
    s("rect", { x: 0, y: 0, width: W, height: mid, class: "eq-white-half" }),
    s("rect", { x: 0, y: mid, width: W, height: mid, class: "eq-black-half" }),
    s("polygon", { points: `${first},${mid} ${line} ${last},${mid}`, class: "eq-area" }),
    s("line", { x1: 0, y1: mid, x2: W, y2: mid, class: "eq-mid" }),
    s("polyline", { points: line, class: "eq-line" }),
  );
  if (shown !== null && shown >= 0 && shown < n) {
    const x = xOf(shown, n);
    svg.append(s("line", { x1: x, y1: 0, x2: x, y2: H, class: "eq-shown", "data-shown": shown }));
  }
  entries.forEach((entry, i) => {
    if (!entry.skill || entry.skill === "none") return;
    const [x, y] = points[i];
    svg.append(s("circle", { cx: x, cy: y, r: 3.2, class: `eq-dot skill-${entry.skill.replaceAll(" ", "_")}`,
      "data-index": i }, s("title", {}, label(entry, i))));
  });
  svg.addEventListener("click", (event) => {
    const box = svg.getBoundingClientRect();
    if (!box.width) return;
    const x = ((event.clientX - box.left) / box.width) * W;
    let best = 0;
    for (let i = 1; i < n; i++) if (Math.abs(xOf(i, n) - x) < Math.abs(xOf(best, n) - x)) best = i;
    onPick(best);
  });
  return svg;
}
