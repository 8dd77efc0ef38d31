// Which checkers moved between two race positions: the board slides them (motion) and marks
// the last play's points (from → to) with it. Pure: positions in (race-position.js's
// parseRace), moves out. A location is "p<n>" (absolute point n), "bar", "off" or "new"
// (Russian backgammon's unentered checkers); a pinned checker stays on its point.

import { toAbsolute } from "./race-position.js";

/** Each side's checkers by location in a parsed position. */
function counts(board, side) {
  const checkers = board[side];
  const found = new Map();
  let placed = 0;
  for (let n = 1; n <= 24; n++) {
    const here = checkers.points[n] + (checkers.pinned.has(n) ? 1 : 0);
    if (here) found.set(`p${n}`, here);
    placed += here;
  }
  if (checkers.bar) found.set("bar", checkers.bar);
  if (checkers.waiting) found.set("new", checkers.waiting);
  const off = 15 - placed - checkers.bar - checkers.waiting;
  if (off > 0) found.set("off", off);
  return found;
}

/** How far from home a location is for `side` (its own point number; bar and unentered 25). */
function distance(mapping, side, location) {
  if (location === "off") return 0;
  if (location === "bar" || location === "new") return 25;
  return toAbsolute(mapping, side, Number(location.slice(1)));
}

/**
 * The moves that turn `before` into `after` for each side: [{side, from, to}], the mover's
 * checkers paired far-to-far (a play 13/7 8/2 slides 13 to 7 and 8 to 2, not 13 to 2), and a
 * hit as the hit checker's own move to the bar, flagged `hit` and listed after the hitter's.
 */
export function diffRace(mapping, before, after) {
  const moves = [];
  for (const side of ["W", "B"]) {
    const was = counts(before, side);
    const now = counts(after, side);
    const sources = [];
    const targets = [];
    for (const location of new Set([...was.keys(), ...now.keys()])) {
      const delta = (now.get(location) || 0) - (was.get(location) || 0);
      for (let k = 0; k < -delta; k++) sources.push(location);
      for (let k = 0; k < delta; k++) targets.push(location);
    }
    const far = (a, b) => distance(mapping, side, b) - distance(mapping, side, a);
    sources.sort(far);
    targets.sort(far);
    for (let i = 0; i < Math.min(sources.length, targets.length); i++) {
      moves.push({ side, from: sources[i], to: targets[i], hit: false });
    }
  }
  // A checker sent to the bar from a point the other side now holds was hit: it goes last.
  for (const move of moves) {
    move.hit = move.to === "bar" && moves.some((m) => m.side !== move.side && m.to === move.from);
  }
  return [...moves.filter((m) => !m.hit), ...moves.filter((m) => m.hit)];
}
