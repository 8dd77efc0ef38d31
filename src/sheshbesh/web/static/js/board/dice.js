// The dice of the race board: which faces a turn's steps used, and one die drawn as SVG.

import { s } from "../dom.js";

export const DIE = 46; // a die's side

/** Which dice faces the entered steps used: by value for a plain roll, in order for a double. */
export function usedDice(faces, steps, double) {
  const used = faces.map(() => false);
  if (double) {
    for (let i = 0; i < Math.min(steps.length, faces.length); i++) used[i] = true;
    return used;
  }
  for (const step of steps) {
    let i = faces.findIndex((face, j) => !used[j] && face === step[2]);
    if (i < 0) i = used.indexOf(false);
    if (i >= 0) used[i] = true;
  }
  return used;
}

const PIPS = {
  1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]], 5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
};

/** One die with `face` pips (0: a blank one, still to roll) at (x, y), dimmed once used. */
export function die(x, y, face, used) {
  const g = s("g", { class: `sb-die${used ? " is-used" : ""}${face ? "" : " is-blank"}` },
    s("rect", { x, y, width: DIE, height: DIE, rx: 9, class: "sb-die-face" }));
  if (!face) {
    g.append(s("text", { x: x + DIE / 2, y: y + DIE / 2 + 9, class: "sb-die-blank" }, "?"));
    return g;
  }
  for (const [dx, dy] of PIPS[face] || []) {
    g.append(s("circle", { cx: x + DIE / 2 + dx * 12, cy: y + DIE / 2 + dy * 12, r: 4.6, class: "sb-die-pip" }));
  }
  return g;
}
