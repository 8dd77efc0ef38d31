// The room's move list: a game's stored events as a score sheet, one line a turn
// ("ann 5-3: 13/8 6/3"), with the opening roll, cube and resignation actions and
// each game's end. The same events come from the record (GET /api/games/{id}/record)
// when the room opens and from the socket while it is open, so `MoveList` keeps
// them by sequence number: whatever arrives twice is listed once, in order.
// `lines` is pure (events in, lines out); `renderMoves` draws them, each move of a
// play in its own unbreakable span so a play wraps between moves, never inside one.

import { clear, h } from "./dom.js";

// Events that change no line of the sheet: a checker moved and taken back.
const UNLISTED = new Set(["step", "undo", "created", "match_created"]);

export class MoveList {
  constructor() {
    this.events = new Map();  // seq -> event
  }

  /** Add events (from the record or the socket); true when one was new. */
  add(events) {
    let added = false;
    for (const event of events) {
      if (typeof event.seq !== "number" || this.events.has(event.seq)) continue;
      this.events.set(event.seq, event);
      added = true;
    }
    return added;
  }

  /** Every event kept, in order of its sequence number. */
  ordered() {
    return [...this.events.values()].sort((a, b) => a.seq - b.seq);
  }

  has(type) {
    for (const event of this.events.values()) if (event.type === type) return true;
    return false;
  }
}

const dice = (pair) => (pair ? pair.join("-") : "");

/**
 * The lines of the sheet for `events` (in order). `names` are the players' names by
 * seat; `number` writes a count in the page's language and `pair` a score (the dice
 * and the moves stay in the notation's digits). A line is { seq, seqs, text } or, for a turn, { seq,
 * seqs, who, dice, moves, note }: moves is the play split into its moves (null while
 * the roll waits for its play), note a word in place of them ("cannot move").
 */
export function lines(events, { t, names, number = String, pair = (a, b) => `${a}–${b}` }) {
  const out = [];
  let whiteSeat = 0;  // the opening may give White to its winner (nardy: SN-2, LN-3)
  let turn = null;    // the line of a roll that waits for its play
  let opening = null; // the dice of the opening roll the starter plays (BF-14, variant U)
  const name = (side) => names[side === "W" ? whiteSeat : 1 - whiteSeat] ?? "?";
  const line = (event, text) => out.push({ seq: event.seq, seqs: [event.seq], text });
  const open = (event, side, pair) => {
    turn = { seq: event.seq, seqs: [event.seq], side, who: name(side), dice: dice(pair), moves: null, note: null };
    out.push(turn);
    return turn;
  };
  for (const event of events) {
    if (UNLISTED.has(event.type)) continue;
    const who = event.side ? name(event.side) : "";
    switch (event.type) {
      case "opening":
        if (!event.starter) {
          line(event, t("log.opening_tie", { dice: dice(event.dice) }));
          break;
        }
        if (event.white_seat !== undefined && event.white_seat !== null) whiteSeat = event.white_seat;
        line(event, t("log.opening", { name: name(event.starter), dice: dice(event.dice) }));
        opening = event.first_dice ? { side: event.starter, dice: event.first_dice } : null;
        break;
      case "rolled":
        opening = null;
        if (event.ignored) {
          open(event, event.side, event.dice).note = t("log.ignored", { rule: event.ignored });
          turn = null;
        } else {
          open(event, event.side, event.dice);
        }
        break;
      case "complement":
        opening = null;
        open(event, event.side, event.owed);
        break;
      case "played": {
        let at = turn && turn.side === event.side && !turn.moves && !turn.note ? turn : null;
        if (!at && opening && opening.side === event.side) at = open(event, event.side, opening.dice);
        if (!at) at = open(event, event.side, null);  // draughts: a move without dice
        if (at.seq !== event.seq) at.seqs.push(event.seq);
        at.moves = String(event.play || event.move || "").split(" ").filter(Boolean);
        turn = null;
        opening = null;
        break;
      }
      case "passed": {
        const at = turn && turn.side === event.side && !turn.moves && !turn.note ? turn : open(event, event.side, null);
        if (at.seq !== event.seq) at.seqs.push(event.seq);
        at.note = t("log.cannot_move");
        turn = null;
        break;
      }
      case "doubled": line(event, t("log.doubled", { name: who, value: number(event.cube) })); break;
      case "taken": line(event, t("log.taken", { name: who })); break;
      case "dropped": line(event, t("log.dropped", { name: who })); break;
      case "beavered": line(event, t("log.beavered", { name: who })); break;
      case "beaver_taken": line(event, t("log.beaver_taken", { name: who })); break;
      case "auto_double": line(event, t("log.auto_double", { value: number(event.cube) })); break;
      case "last_roll": line(event, t("log.last_roll", { name: who })); break;
      case "resign_offered":
        line(event, t("log.resign_offered", { name: who, level: t(`result.level_${event.level}`) }));
        break;
      case "resign_accepted": line(event, t("log.resign_accepted", { name: who })); break;
      case "resign_declined": line(event, t("log.resign_declined", { name: who })); break;
      case "resigned": line(event, t("log.resigned", { name: who })); break;
      case "draw_offered": line(event, t("log.draw_offered", { name: who })); break;
      case "draw_accepted": line(event, t("log.draw_accepted", { name: who })); break;
      case "draw_declined": line(event, t("log.draw_declined", { name: who })); break;
      case "timeout": line(event, t("log.timeout", { name: who })); break;
      case "adjudicated": line(event, t("log.adjudicated")); break;
      case "finished": {
        const result = event.result || {};
        line(event, result.winner
          ? t("log.won", { name: name(result.winner), points: number(result.points) })
          : t("log.drawn"));
        break;
      }
      case "game_finished": {
        const [w, b] = event.score || [0, 0];  // by side; said in the players' (seats') order
        const score = whiteSeat === 0 ? pair(w, b) : pair(b, w);
        line(event, t("log.game_finished", { game: number(event.game), score }));
        break;
      }
      case "game_started":
        whiteSeat = 0;
        line(event, t("log.game_started", { game: number(event.game) }));
        break;
      case "match_finished":
        line(event, event.result?.winner ? t("log.match_won", { name: name(event.result.winner) }) : t("log.finished"));
        break;
      default:
        break;
    }
  }
  return out;
}

/** Draw `list` into the <ol> `el`: one <li data-seq> a line, a move never broken inside. */
export function renderMoves(el, list) {
  clear(el);
  for (const item of list) {
    const li = h("li", { "data-seq": item.seq, "data-seqs": item.seqs.join(" ") });
    if (item.text !== undefined) {
      li.append(item.text);
    } else {
      li.append(h("span", { class: "who" }, item.who), item.dice ? ` ${item.dice}` : "");
      if (item.moves || item.note) li.append(": ");
      if (item.moves) item.moves.forEach((move, i) => li.append(i ? " " : "", h("span", { class: "move" }, move)));
      if (item.note) li.append(item.note);
    }
    el.append(li);
  }
}
