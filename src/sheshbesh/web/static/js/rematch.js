// The rematch line of a finished game's result card, for its two players. An offer
// is a private challenge to the opponent (POST /api/games/{id}/rematch); the
// opponent's room hears of it on the player's own socket (a challenge note with
// rematch_of) and shows Accept / Decline. Whoever's action starts the new game,
// both rooms move to it on the "game_started" frame of their own channel.

import { ApiError } from "./api.js";
import { clear, h } from "./dom.js";

export function rematchPanel({ t, api, id, toast, navigate, opponent }) {
  const el = h("div", { class: "rematch row", "data-testid": "rematch" });
  const offer = { mine: null, theirs: null };
  const removed = new Set();  // offers that closed here: one may have become the game
  let busy = false;

  async function load() {
    // After a reload: offers of this game again already standing between the two of us
    // (another challenge between us is no rematch offer).
    try {
      for (const request of await api.get("/api/requests")) {
        if (!request.invitee || request.rematch_of !== id) continue;
        if (request.owner.username === opponent()) offer.theirs = request.id;
        else if (request.invitee.username === opponent()) offer.mine = request.id;
      }
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
    }
    render();
  }

  function render() {
    clear(el);
    const name = opponent();
    if (offer.theirs) {
      el.append(
        h("span", { class: "rematch-note" }, t("rematch.offered_to_you", { name })),
        h("button", { type: "button", "data-testid": "rematch-accept",
          onclick: () => act(async () => go(await api.post(`/api/requests/${offer.theirs}/accept`))) },
        t("rematch.accept")),
        h("button", { type: "button", class: "secondary", "data-testid": "rematch-decline",
          onclick: () => act(async () => { await api.del(`/api/requests/${offer.theirs}`); offer.theirs = null; }) },
        t("rematch.decline")));
    } else if (offer.mine) {
      el.append(
        h("span", { class: "rematch-note", "data-testid": "rematch-waiting" }, t("rematch.waiting", { name })),
        h("button", { type: "button", class: "secondary", "data-testid": "rematch-cancel",
          onclick: () => act(async () => { await api.del(`/api/requests/${offer.mine}`); offer.mine = null; }) },
        t("rematch.cancel")));
    } else {
      el.append(h("button", { type: "button", "data-testid": "rematch-offer",
        onclick: () => act(async () => {
          const answer = await api.post(`/api/games/${id}/rematch`);
          if (answer.game) go(answer.game);
          else offer.mine = answer.request.id;
        }) }, t("rematch.offer")));
    }
  }

  function go(game) {
    navigate(`#/game/${game.id}`);
  }

  async function act(work) {
    if (busy) return;
    busy = true;
    try {
      await work();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      toast(error.message, "bad");
      if (error.code === "request_closed" || error.code === "cannot_accept") offer.theirs = null;
    } finally {
      busy = false;
      render();
    }
  }

  // Frames of the player's own socket (app.js relays them as "sheshbesh:user-frame").
  function onFrame(frame) {
    const d = frame.d || {};
    if (frame.t === "notification" && d.kind === "challenge" && d.data?.rematch_of === id) {
      offer.theirs = d.data.request_id;
    } else if (frame.t === "request_removed" && (d.id === offer.mine || d.id === offer.theirs)) {
      // Declined, cancelled or accepted: if accepted, "game_started" follows at once.
      removed.add(d.id);
      if (d.id === offer.mine) offer.mine = null;
      if (d.id === offer.theirs) offer.theirs = null;
    } else if (frame.t === "game_started" && (offer.mine || offer.theirs || removed.size)
      && (d.players || []).some((p) => p.username === opponent())) {
      go(d);
      return;
    } else {
      return;
    }
    render();
  }

  return { el, load, onFrame };
}
