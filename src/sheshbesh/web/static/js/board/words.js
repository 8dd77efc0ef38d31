// The words both boards write. Each board looks its keys up with `tr`, handing it its own
// English (the shared words below and its own) to show while a catalog lacks a key;
// `colourName` names a side. Imported by race.js and draughts.js.

import { pluralKey, t } from "../i18n.js";

// English for the keys both boards use.
export const SHARED = {
  "board.white": "White",
  "board.black": "Black",
  "board.you": "you",
  "board.your_turn": "Your turn",
  "board.to_move": "To move",
  "board.wins": "{colour} wins",
  "board.draw": "Draw",
  "board.label": "{place}: {contents}",
  "board.empty": "empty",
  "board.move_here": "move here",
  "board.plays": "{colour} to play",
};

/** The reader's text for `key`, or else `english[key]` with its {placeholders} filled, or else the key. */
export function tr(key, vars = {}, english = SHARED) {
  const text = t(key, vars);
  if (text !== key || !(key in english)) return text;
  return english[key].replace(/\{(\w+)\}/g, (_, name) => (name in vars ? String(vars[name]) : `{${name}}`));
}

/** `tr` for a counted text: the form of `base` that n takes (i18n.js `pluralKey`). */
export function trPlural(base, n, vars = {}, english = SHARED) {
  return tr(pluralKey(base, n), vars, english);
}

export function colourName(side) {
  return tr(side === "W" ? "board.white" : "board.black");
}
