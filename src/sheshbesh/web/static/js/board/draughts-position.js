// Reading a draughts position for the draughts board, with no drawing: where square n
// lies (DR-1: numbered 1–50 from Black's side), the pieces of an FMJD FEN
// (docs/draughts.md) and the squares a move's text names. Pure functions; draughts.js
// imports them.

/** Row (1 = Black's back row) and column (1 = White's left) of square n. */
export function rowColumn(n) {
  const row = Math.ceil(n / 5);
  const k = n - 5 * (row - 1);
  return { row, column: row % 2 ? 2 * k : 2 * k - 1 };
}

/** The pieces of an FMJD FEN: a Map square → {colour, king}; ranges such as K46-48 accepted. */
export function parseFen(fen) {
  const fields = String(fen || "").trim().replace(/\.$/, "").split(":");
  const pieces = new Map();
  for (const field of fields.slice(1)) {
    const colour = field.trim().slice(0, 1).toUpperCase();
    if (colour !== "W" && colour !== "B") continue;
    for (const raw of field.trim().slice(1).split(",")) {
      let token = raw.trim().toUpperCase();
      if (!token) continue;
      const king = token.startsWith("K");
      if (king) token = token.slice(1);
      const [first, last] = token.split("-").map(Number);
      for (let n = first; n <= (last || first); n++) pieces.set(n, { colour, king });
    }
  }
  return { turn: (fields[0] || "W").trim().toUpperCase(), pieces };
}

/** The squares a move's text names: "32-28" → [32, 28], "26x37x48" → [26, 37, 48]. */
export function movePath(text) {
  return String(text || "").split(/[-x]/).map(Number).filter((n) => n >= 1 && n <= 50);
}
