// How a game ended, in the words a player reads on the result card: the rule's own
// words, made exact where one rule ends a game in several ways, then the rule's ID
// (RULES.md). DR-13 ends a draughts game when the side to move has no legal move,
// which is also what taking all his pieces leaves him, and on a resignation; PL-7
// ends any game when a flag falls or the player to act stays away. The server's
// result names the rule; the game's own events and final position tell which way.

import { parseFen } from "./board/draughts-position.js";

const HOW = {
  wiped_out: "result.how.wiped_out",
  blocked: "result.how.blocked",
  resigned: "result.how.resigned",
  out_of_time: "result.how.out_of_time",
  left: "result.how.left",
};

/**
 * Which way `result` came about (a key of HOW), or null where its rule says it all.
 * `state` is the final state, `events` the game's events (the move list's), `clock`
 * the final clock ({white, black} seconds left, null values when untimed).
 */
export function endedHow(result, { state, events, clock }) {
  const loser = result.winner === "W" ? "B" : result.winner === "B" ? "W" : null;
  if (!loser) return null;
  if (result.reason === "DR-13") {
    if (events.some((event) => event.type === "resigned")) return "resigned";
    const { pieces } = parseFen(state.position);
    return [...pieces.values()].some((piece) => piece.colour === loser) ? "blocked" : "wiped_out";
  }
  if (result.reason === "PL-7") {
    const left = clock ? (loser === "W" ? clock.white : clock.black) : null;
    return left !== null && left !== undefined && left <= 0 ? "out_of_time" : "left";
  }
  return null;
}

/** "all pieces taken (DR-13)": the reason in words, with its rule's ID. */
export function reasonText(t, result, facts) {
  const how = endedHow(result, facts);
  const key = how ? HOW[how] : `result.rule.${result.reason}`;
  const words = t(key);
  return words === key ? result.reason : `${words} (${result.reason})`;
}
