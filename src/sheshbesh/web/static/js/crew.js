// The parts of a chouette table's room that show its people (issue 18): the seat cards
// of the banker and the captain beside the board, the crew list with each member's cube
// and what he still owes, and the session's standings with the next game's lineup.
// Pure rendering from the server's `state` (docs/protocol.md, "A chouette table"): what
// a seat may do is what its `legal` menu says, never worked out here.

import { avatarImg } from "./avatar.js";
import { h } from "./dom.js";

/** What a seat does in `game`: "banker", "captain", "bettor", or null (sitting out). */
export function roleOf(game, seat) {
  if (!game || seat === null || seat === undefined) return null;
  if (seat === game.banker) return "banker";
  if (seat === game.captain) return "captain";
  return game.rotation.includes(seat) ? "bettor" : null;
}

/** A member's cube in `game` ({seat, cube, owner, out, pending, called}), or null. */
export function cubeOf(game, seat) {
  return game?.crew.find((c) => c.seat === seat) ?? null;
}

// { t, number, signed, clock } and the room's readers:
// name(seat), player(seat), online(seat), clockOf(seat) -> {text, running, low} | null, you
export function crewParts(words, room) {
  const { t, number, signed, plural } = words;
  const nameOf = (seat) => room.name(seat);
  const you = (seat) => (seat === room.you() ? ` (${t("room.you")})` : "");

  function clockEl(seat) {
    const clock = room.clockOf(seat);
    if (!clock) return null;
    return h("span", { class: `clock${clock.running ? " running" : ""}${clock.low ? " low" : ""}`,
      "data-clock-seat": String(seat), "aria-label": t("room.clock_of", { name: nameOf(seat) }) }, clock.text);
  }

  function offline(seat) {
    return room.online(seat) ? null : h("span", { class: "offline" }, t("room.offline"));
  }

  function cubeTag(cube) {
    const owner = cube.owner === null ? t("chouette.cube_centred")
      : cube.owner === "banker" ? t("chouette.cube_banker") : t("chouette.cube_member");
    return h("span", { class: `cube-tag${cube.out ? " is-out" : ""}`, title: owner,
      "aria-label": t("chouette.cube_label", { value: number(cube.cube), owner }) },
      h("span", { class: "cube-face", "aria-hidden": "true" }, number(cube.cube)),
      h("span", { class: "cube-owner" }, owner));
  }

  /** What a member's cube waits for now, as a tag (null: nothing). */
  function owes(game, cube) {
    if (cube.out) return h("span", { class: "tag bad-tag" }, t("chouette.dropped"));
    if (cube.pending && game.phase === "crew_answers") {
      return h("span", { class: "tag owes", "data-testid": "owes" },
        t("chouette.to_answer", { value: number(cube.cube * 2) }));
    }
    if (cube.pending && game.phase === "banker_answers") {
      return h("span", { class: "tag owes", "data-testid": "owes" },
        t("chouette.banker_to_answer", { value: number(cube.cube * 2) }));
    }
    if (cube.called) return h("span", { class: "tag" }, t("chouette.called"));
    return null;
  }

  /** The banker's or the captain's card beside the board. */
  function seatCard(game, seat, side) {
    const role = roleOf(game, seat);
    const player = room.player(seat) || {};
    const toAct = !!game && game.phase !== "finished" && game.waiting_for.includes(seat);
    const cube = side === "B" ? cubeOf(game, seat) : null;
    return h("div", { class: `player${toAct ? " to-act" : ""}`, "data-testid": `seat-${role}`,
      dataset: { seat: String(seat) } },
      h("span", { class: `swatch ${side}`, "aria-hidden": "true" }),
      player.username ? avatarImg(player, 28) : null,
      h("a", { class: "name", href: `#/profile/${encodeURIComponent(nameOf(seat))}` }, nameOf(seat), you(seat)),
      h("span", { class: `tag role-${role}` }, t(`chouette.role_${role}`)),
      cube ? cubeTag(cube) : null,
      offline(seat),
      clockEl(seat));
  }

  /** The crew in the order of play (the captain first), each with his cube and what it owes. */
  function crewList(game) {
    return h("ul", { class: "crew-list", "data-testid": "crew" }, game.rotation.map((seat) => {
      const cube = cubeOf(game, seat);
      const paid = game.paid?.[String(seat)] ?? 0;
      return h("li", { dataset: { seat: String(seat) }, class: cube?.out ? "is-out" : "" },
        h("span", { class: "crew-who" },
          h("span", { class: "name" }, nameOf(seat), you(seat)),
          h("span", { class: `tag role-${roleOf(game, seat)}` }, t(`chouette.role_${roleOf(game, seat)}`))),
        h("span", { class: "crew-state" },
          cube ? cubeTag(cube) : null,
          cube ? owes(game, cube) : null,
          paid ? h("span", { class: paid > 0 ? "good" : "bad" }, plural("chouette.paid_points", paid, { n: signed(paid) })) : null,
          offline(seat),
          clockEl(seat)));
    }));
  }

  /** Every seat's session result (in FUN) and, between games, his part in the next. */
  function standings(state, stake) {
    const next = state.playing ? null : state.next;
    const rows = state.players.map((p) => {
      const result = state.results[String(p.seat)] ?? p.result ?? 0;
      const nextRole = !next ? null : p.seat === next.banker ? "banker"
        : next.rotation[0] === p.seat ? "captain" : next.rotation.includes(p.seat) ? "bettor" : null;
      return h("tr", { dataset: { seat: String(p.seat) }, class: p.left ? "left muted" : "" },
        h("td", {}, h("a", { class: "who", href: `#/profile/${encodeURIComponent(p.username)}` },
          avatarImg(p, 20, { decorative: true }), p.username, you(p.seat)),
          ratingOf(p),
          p.left ? h("span", { class: "tag" }, t("chouette.left")) : offline(p.seat)),
        next ? h("td", {}, nextRole ? t(`chouette.role_${nextRole}`) : "") : null,
        h("td", { class: "num", "data-testid": "session-result" },
          h("span", { class: result > 0 ? "good" : result < 0 ? "bad" : "" },
            t("fun.amount", { amount: signed(result * stake) }))));
    });
    return h("table", { class: "standings", "data-testid": "standings" },
      h("thead", {}, h("tr", {}, h("th", {}, t("lobby.player")), next ? h("th", {}, t("chouette.next_role")) : null,
        h("th", { class: "num" }, t("chouette.session")))),
      h("tbody", {}, rows));
  }

  /** A seat's rating and, at a rated table, what the table did to it so far. */
  function ratingOf(p) {
    const r = p.rating;
    if (!r) return null;
    const delta = r.change ? r.change.delta : null;
    return h("span", { class: "rating muted", "data-testid": "seat-rating",
      title: r.provisional ? t("profile.provisional") : null }, " ", words.rating(r),
      delta ? h("span", { class: delta >= 0 ? "good" : "bad" }, " ", signed(Math.round(delta))) : null);
  }

  /** "Next game: ann banks; bob captains, then cat." */
  function lineupText(next) {
    if (!next) return null;
    const crew = next.rotation.map(nameOf);
    return t("chouette.next_lineup", { banker: nameOf(next.banker), captain: crew[0] ?? "?",
      others: crew.slice(1).join(", ") || "–" });
  }

  return { seatCard, crewList, standings, lineupText, cubeTag };
}
