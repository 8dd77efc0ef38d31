// The room's board tools (issue 17): turn the board round, put the home board on the
// right or the left (the race games; kept with the player's settings), sounds on or off,
// and the shown position to copy: gnubg's position and match IDs where gnubg knows the
// board, the FEN of a draughts position, our position text for the other race games.

import { h } from "./dom.js";

/** The text that describes `state`'s position for other programs, and what it is. */
export function positionText(state) {
  if (!state) return null;
  if (state.kind === "draughts") return { kind: "fen", text: state.position };
  if (state.ids) return { kind: "gnubg", text: `${state.ids.position_id}:${state.ids.match_id}` };
  return { kind: "position", text: state.position };
}

export function boardTools({ t, onFlip, onHome, onSound }) {
  const flip = h("button", { type: "button", class: "secondary small", "data-testid": "flip",
    "aria-pressed": "false", onclick: () => onFlip() }, t("room.flip"));
  const home = h("button", { type: "button", class: "secondary small", "data-testid": "home-side",
    title: t("room.home_title"), onclick: () => onHome() });
  const sound = h("button", { type: "button", class: "secondary small", "data-testid": "sound",
    onclick: () => onSound() });
  const label = h("label", { class: "muted", for: "position-id" });
  const field = h("input", { id: "position-id", type: "text", readonly: true, class: "position-id",
    "data-testid": "position-id", spellcheck: false, onfocus: (event) => event.target.select() });
  const copy = h("button", { type: "button", class: "secondary", "data-testid": "copy-position",
    onclick: async () => {
      field.select();
      let done = false;
      try {
        await navigator.clipboard.writeText(field.value);
        done = true;
      } catch {
        done = document.execCommand && document.execCommand("copy");
      }
      copy.textContent = done ? t("room.copied") : t("room.copy");
    } }, t("room.copy"));
  const el = h("section", { class: "card board-tools stack", "data-testid": "board-tools" },
    h("div", { class: "row" }, flip, home, sound),
    h("div", { class: "stack tight" }, label, h("div", { class: "row nowrap" }, field, copy)));

  function update({ state, flipped, prefs }) {
    flip.setAttribute("aria-pressed", String(flipped));
    home.hidden = !state || state.kind === "draughts";
    home.textContent = prefs.home === "left" ? t("room.home_left") : t("room.home_right");
    home.setAttribute("aria-pressed", String(prefs.home === "left"));
    sound.textContent = prefs.sound ? t("room.sound_on") : t("room.sound_off");
    sound.setAttribute("aria-pressed", String(!prefs.sound));
    const found = positionText(state);
    if (found && field.value !== found.text) {
      field.value = found.text;
      copy.textContent = t("room.copy");
    }
    label.textContent = found ? t(`room.id_${found.kind}`) : "";
  }

  return { el, update };
}
