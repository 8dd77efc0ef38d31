// Reading a race position for the race board, with no drawing: how each variant numbers
// the points for each side (docs/notation.md), which variants have a bar, and the
// checkers of the server's canonical position text. Pure functions; race.js imports them.

const MAPPINGS = {
  backgammon: "opposite", short_nardy: "opposite", takhte_nard: "opposite",
  caucasian_nardy: "opposite", plakoto: "opposite",
  long_nardy: "diagonal", jacquet: "diagonal",
  russian_backgammon: "shared",
};
export const WITH_BAR = new Set(["backgammon", "short_nardy", "takhte_nard", "caucasian_nardy", "russian_backgammon"]);

export function mappingOf(variant) {
  return MAPPINGS[variant] || "opposite";
}

/** A side's own point number (1–24) as the absolute index, and back: each mapping is its own inverse. */
export function toAbsolute(mapping, side, n) {
  if (side === "W" || mapping === "shared") return n;
  if (mapping === "diagonal") return n <= 12 ? n + 12 : n - 12;
  return 25 - n;
}

export const other = (side) => (side === "W" ? "B" : "W");

/** The checkers of a canonical position text: per side, counts by absolute point, bar, unentered, pins. */
export function parseRace(text) {
  const fields = String(text || "").trim().split(":");
  const board = { turn: (fields[0] || "W").toUpperCase(), W: emptySide(), B: emptySide() };
  for (const field of fields.slice(1, 3)) {
    const side = board[field.slice(0, 1).toUpperCase()];
    if (!side) continue;
    for (const raw of field.slice(1).split(",")) {
      const token = raw.trim().toLowerCase();
      if (!token) continue;
      const [label, times] = token.split("x");
      const count = times ? Number(times) : 1;
      if (label === "bar") side.bar += count;
      else if (label === "new") side.waiting += count;
      else if (label.endsWith("p")) side.pinned.add(Number(label.slice(0, -1)));
      else side.points[Number(label)] = count;
    }
  }
  return board;
}

function emptySide() {
  return { points: new Array(25).fill(0), bar: 0, waiting: 0, pinned: new Set() };
}

/** How many of a side's checkers stand on points, pinned ones included. */
export function onBoard(side) {
  return side.points.reduce((a, b) => a + b, 0) + side.pinned.size;
}
