// The review of a finished game: gnubg's judgement of every decision of
// backgammon, short nardy and takhte nard, the trained net's of every play of the
// other five race games, or dame-rs's of every draughts move (GET
// /api/games/{id}/analysis), each player's totals, and the list of decisions.
// Choosing one shows its position on the room's board (a draughts move with the
// engine's best move drawn on it), so the review steps through the game decision
// by decision, as lichess's analysis does.
// Only asked for on a click, and only by a logged-in viewer (the server refuses
// others with 401): a whole game takes gnubg a few seconds. When the server's
// reviewer is full (503 review_busy) the panel says when to try again.

import { clear, h } from "./dom.js";
import { equityGraph } from "./equitygraph.js";
import { number, signed as signedNumber } from "./i18n.js";

const GNUBG = new Set(["backgammon", "short_nardy", "takhte_nard"]);
const NETS = new Set(["long_nardy", "caucasian_nardy", "plakoto", "russian_backgammon", "jacquet"]);
export const REVIEWED = new Set([...GNUBG, ...NETS, "draughts"]);  // every game of the club
const key = (label) => label.replaceAll(" ", "_");
const signed = (x) => signedNumber(x, 3);  // equities and luck, in the page's digits
const fixed = (x, digits) => number(x, { minimumFractionDigits: digits, maximumFractionDigits: digits });

// { t, api, id, me, nameOfSide(side), show(frames, at) -> void }
export function reviewPanel({ t, api, id, me, nameOfSide, show }) {
  const body = h("div", { class: "stack" });
  const el = h("section", { class: "card review", "data-testid": "review", hidden: true },
    h("h2", {}, t("review.title")), body);
  let analysis = null;
  let shown = null;  // the index of the decision on the board
  let onlyMistakes = true;
  let draughts = false;  // dame-rs's review: no dice, no luck, its own words
  let judge = "gnubg";  // whose review: "gnubg", "net" or "draughts" (dame-rs)
  const OWN_WORDS = {
    draughts: {
      "review.intro": "review.draughts.intro", "review.analyse": "review.draughts.analyse",
      "review.login": "review.draughts.login", "review.busy": "review.draughts.busy",
      "review.no_mistakes": "review.draughts.no_mistakes",
      "review.col.error_rate_hint": "review.draughts.col.error_rate_hint",
    },
    net: {
      "review.intro": "review.net.intro", "review.analyse": "review.net.analyse",
      "review.login": "review.net.login", "review.busy": "review.net.busy",
      "review.no_mistakes": "review.net.no_mistakes",
      "review.col.error_rate_hint": "review.net.col.error_rate_hint",
    },
  };
  const words = (k) => OWN_WORDS[judge]?.[k] ?? k;  // gnubg's words, or the net's, or dame-rs's

  function start() {
    clear(body).append(h("p", { class: "muted" }, t(words("review.intro"))),
      me ? h("p", {}, h("button", { type: "button", "data-testid": "analyse", onclick: load }, t(words("review.analyse"))))
        : loginFirst());
  }

  function loginFirst() {
    return h("p", { "data-testid": "review-login" }, t(words("review.login")), " ",
      h("a", { class: "button", href: "#/login" }, t("nav.login")));
  }

  async function load() {
    clear(body).append(h("p", { class: "muted", "aria-live": "polite" }, t("review.working")));
    try {
      analysis = await api.get(`/api/games/${id}/analysis?plies=1`);
    } catch (error) {
      if (error.status === 401) {  // the session ended meanwhile
        clear(body).append(loginFirst());
        return;
      }
      const why = error.code === "review_busy"
        ? h("p", { class: "error", role: "alert", "data-testid": "review-busy" },
          t(words("review.busy"), { seconds: error.retryAfter ?? 30 }))
        : h("p", { class: "error", role: "alert" }, t("review.failed", { message: error.message }));
      clear(body).append(why, h("button", { type: "button", class: "secondary", onclick: load }, t("review.retry")));
      return;
    }
    render();
  }

  // The decisions listed: every one, or only those gnubg calls doubtful or worse.
  function listed() {
    return analysis.entries
      .map((entry, index) => ({ entry, index }))
      .filter(({ entry }) => !onlyMistakes || entry.skill !== "none");
  }

  function render() {
    const before = body.querySelector(".review-list")?.scrollTop ?? 0;
    clear(body).append(totals(), graph(), filter(), decisions(), detail());
    keepInView(body.querySelector(".review-list"), before);
  }

  // The list is rebuilt on every choice: keep its scroll, and bring the decision on the
  // board into the list's view (chosen from the graph or by Next, it may lie outside it).
  function keepInView(list, scrollTop) {
    if (!list) return;
    list.scrollTop = scrollTop;
    const current = list.querySelector(".is-shown");
    if (!current) return;
    const box = list.getBoundingClientRect(), item = current.getBoundingClientRect();
    if (item.top < box.top) list.scrollTop -= box.top - item.top;
    else if (item.bottom > box.bottom) list.scrollTop += item.bottom - box.bottom;
  }

  // White's equity decision by decision; a click puts the nearest decision on the board.
  function graph() {
    return h("figure", { class: "equity" },
      equityGraph(analysis.entries, {
        shown, onPick: choose, title: t("review.graph"),
        label: (entry, i) => `${number(i + 1)}. ${nameOfSide(entry.side)}: ${t(`review.skill.${key(entry.skill)}`)}`
          + ` (${signed(-entry.equity_lost)})`,
      }),
      h("figcaption", { class: "muted" }, t("review.graph_caption", { white: nameOfSide("W"), black: nameOfSide("B") })));
  }

  // One column per player, one row per measure: fits the room's narrow side column.
  function totals() {
    const players = ["W", "B"].map((side) => ({ side, ...analysis.players[side] }));
    const row = (metric, label, cell, hint = null) => h("tr", { "data-metric": metric },
      h("th", { scope: "row", title: hint }, label),
      players.map((p) => h("td", { class: "num", "data-side": p.side }, cell(p))));
    return h("table", { class: "review-totals", "data-testid": "review-totals" },
      h("thead", {}, h("tr", {}, h("td", {}),
        players.map((p) => h("th", { class: "num", scope: "col" }, nameOfSide(p.side))))),
      h("tbody", {},
        row("error_rate", t("review.col.error_rate"), (p) => fixed(p.error_rate, 1), t(words("review.col.error_rate_hint"))),
        row("level", t("review.col.level"), (p) => t(`review.rating.${key(p.rating)}`)),
        row("blunders", t("review.col.blunders"), (p) => number(p.blunders)),
        row("bad", t("review.col.bad"), (p) => number(p.bad)),
        row("doubtful", t("review.col.doubtful"), (p) => number(p.doubtful)),
        draughts ? null : row("luck", t("review.col.luck"), (p) => h("span", { title: t(`review.luck.${key(p.luck_rating)}`) },
          signed(p.luck)))));
  }

  function filter() {
    const box = h("input", { type: "checkbox", checked: onlyMistakes, "data-testid": "only-mistakes",
      onchange: () => { onlyMistakes = box.checked; render(); } });
    return h("label", { class: "check" }, box, t("review.only_mistakes"));
  }

  function decisions() {
    const items = listed();
    if (!items.length) return h("p", { class: "muted" }, t(words("review.no_mistakes")));
    return h("ol", { class: "review-list", "data-testid": "review-list" }, items.map(({ entry, index }) =>
      h("li", {}, h("button", {
        type: "button", class: `review-entry${index === shown ? " is-shown" : ""}`,
        "aria-current": index === shown ? "true" : null, "data-skill": key(entry.skill),
        onclick: () => choose(index),
      },
      h("span", { class: `skill skill-${key(entry.skill)}` }, t(`review.skill.${key(entry.skill)}`)),
      h("span", { class: "who" }, nameOfSide(entry.side)),
      entry.dice ? h("span", { class: "dice" }, entry.dice.join("-")) : null,
      h("span", { class: "what" }, movesOf(actionText(entry.action))),
      entry.equity_lost > 0 ? h("span", { class: "lost" }, signed(-entry.equity_lost)) : null))));
  }

  // A play as its moves, each unbreakable: the list wraps between moves, never inside one.
  function movesOf(text) {
    return text.split(" ").flatMap((move, i) => [i ? " " : null, h("span", { class: "move" }, move)]);
  }

  function actionText(action) {
    const cube = ["double", "no double", "take", "drop", "beaver", "cannot move"];
    return cube.includes(action) ? t(`review.action.${key(action)}`) : action;
  }

  function detail() {
    if (shown === null) return h("p", { class: "muted" }, t("review.choose"));
    const entry = analysis.entries[shown];
    const name = nameOfSide(entry.side);
    const heading = entry.kind === "play" && !entry.dice ? t("review.detail.move", { name })
      : entry.kind === "play" ? t("review.detail.play", { name, dice: entry.dice.join("-") })
      : entry.kind === "cube" ? t("review.detail.cube", { name })
        : t("review.detail.response", { name });
    return h("div", { class: "review-detail", "data-testid": "review-detail" },
      h("p", {}, h("strong", {}, heading), " ",
        h("span", { class: "muted", "data-testid": "review-decision", "data-n": String(shown + 1) },
          t("review.decision", { n: number(shown + 1), of: number(analysis.entries.length) }))),
      h("p", {}, t("review.played", { action: actionText(entry.action), equity: signed(entry.equity) })),
      h("p", { "data-testid": "review-best" }, t("review.best", { action: actionText(entry.best), equity: signed(entry.best_equity) })),
      entry.equity_lost > 0 ? h("p", {}, t("review.lost", { lost: fixed(entry.equity_lost, 3) }),
        " ", h("span", { class: `skill skill-${key(entry.skill)}` }, t(`review.skill.${key(entry.skill)}`))) : null,
      entry.luck !== null ? h("p", { class: "muted" },
        t("review.roll_luck", { luck: signed(entry.luck), label: t(`review.luck.${key(entry.luck_label)}`) })) : null,
      h("p", { class: "row" },
        h("button", { type: "button", class: "secondary", disabled: shown === 0,
          onclick: () => choose(shown - 1) }, t("review.previous")),
        h("button", { type: "button", class: "secondary", disabled: shown === analysis.entries.length - 1,
          onclick: () => choose(shown + 1) }, t("review.next"))));
  }

  // Put decision ``index`` on the board: its position, its dice, the cube where it was.
  function choose(index) {
    shown = Math.max(0, Math.min(analysis.entries.length - 1, index));
    show(analysis.entries.map(frameOf), shown, (at) => { shown = at; render(); });
    render();
  }

  return {
    el,
    // Shown once the game is over, for every variant an engine reviews.
    update(variant, finished) {
      const wanted = finished && REVIEWED.has(variant);
      draughts = variant === "draughts";
      judge = draughts ? "draughts" : NETS.has(variant) ? "net" : "gnubg";
      if (wanted && el.hidden) start();
      el.hidden = !wanted;
    },
    // The board left the review (the replay was closed or restarted).
    forget() {
      if (shown === null || !analysis) return;
      shown = null;
      render();
    },
  };
}

// A board frame for one decision, on top of the room's current state. A draughts
// move is shown before it was made, with the engine's best move drawn on the board.
export function frameOf(entry) {
  if (!entry.dice && entry.position.includes(":")) {  // a FEN: a draughts move
    return (state) => ({
      ...state, position: entry.position, moves: [], best: entry.best, to_act: entry.side,
      draw_offer: null, result: null,
    });
  }
  return (state) => ({
    ...state, board: entry.position, position: entry.position, turn: entry.kind === "response"
      ? (entry.side === "W" ? "B" : "W") : entry.side,
    dice: entry.kind === "play" ? entry.dice : null, steps: [], result: null,
    cube: { value: entry.cube, owner: entry.cube_owner },
    phase: entry.kind === "response" ? "doubled" : entry.kind === "cube" ? "roll" : "move",
    to_act: entry.side,
    match: state.match ? { ...state.match, result: null } : undefined,
  });
}
