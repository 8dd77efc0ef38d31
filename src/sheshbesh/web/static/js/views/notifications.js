// Notifications (#/notifications): newest first, in pages; each links to its
// subject (a game, the friends page, the lobby, the shop) and opening it marks it
// read. New ones arrive live from the user's socket (app.js relays its frames as
// the window event "sheshbesh:user-frame") and go on top of the list.

import { ApiError } from "../api.js";
import { clear, h } from "../dom.js";
import { number } from "../i18n.js";

const PAGE = 30;

const OUTCOME = { won: "notify.game_won", lost: "notify.game_lost", draw: "notify.game_draw" };

// Where a notification leads, and its text: one entry per kind the server sends.
const KINDS = {
  friend_request: { href: () => "#/friends", text: (d) => ["notify.friend_request", { name: d.from }] },
  friend_accepted: { href: () => "#/friends", text: (d) => ["notify.friend_accepted", { name: d.by }] },
  challenge: {  // a rematch is answered in the finished game's room, any other in the lobby
    href: (d) => (d.rematch_of ? `#/game/${d.rematch_of}` : "#/"),
    text: (d, v) => [d.rematch_of ? "notify.rematch" : "notify.challenge",
      { name: d.from, variant: v(d.variant), stake: number(d.stake || 0) }],
  },
  request_accepted: { href: (d) => `#/game/${d.game_id}`, text: (d, v) => ["notify.request_accepted", { name: d.by, variant: v(d.variant) }] },
  your_turn: { href: (d) => `#/game/${d.game_id}`, text: (d, v) => ["notify.your_turn", { name: d.opponent, variant: v(d.variant) }] },
  double_offered: {
    href: (d) => `#/game/${d.game_id}`,
    text: (d, v) => [d.beaver ? "notify.beaver_offered" : "notify.double_offered",
      { name: d.opponent, cube: number(d.cube || 0), variant: v(d.variant) }],
  },
  draw_offered: { href: (d) => `#/game/${d.game_id}`, text: (d, v) => ["notify.draw_offered", { name: d.opponent, variant: v(d.variant) }] },
  game_result: { href: (d) => `#/game/${d.game_id}`, text: (d, v) => [OUTCOME[d.outcome] || "notify.game_over", { name: d.opponent, variant: v(d.variant) }] },
  table_result: {  // a chouette table ended: what the player won or lost there
    href: (d) => `#/game/${d.game_id}`,
    text: (d) => [d.fun > 0 ? "notify.table_won" : d.fun < 0 ? "notify.table_lost" : "notify.table_even",
      { fun: number(Math.abs(d.fun || 0)) }],
  },
  purchase: { href: () => "#/shop", text: (d, v, t) => ["notify.purchase", { item: t(`shop.item.${String(d.item).replace(":", ".")}`) }] },
};

// A note's text and link: { text, href } (the header's toast says the same).
export function describe(note, t) {
  const kind = KINDS[note.kind];
  const variant = (name) => (name ? t(`variant.${name}`) : "");
  if (!kind) return { text: t("notify.other"), href: "#/notifications" };
  const [key, vars] = kind.text(note.data || {}, variant, t);
  return { text: t(key, vars), href: kind.href(note.data || {}) };
}

export async function mount(main, ctx) {
  const { t, api } = ctx;
  if (!ctx.me) {
    main.append(h("section", { class: "card social-guest" },
      h("h1", {}, t("notify.title")), h("p", {}, t("notify.login_first")),
      h("a", { class: "button", href: "#/login" }, t("nav.login"))));
    return null;
  }
  const notes = [];
  let more = false;
  const list = h("ul", { class: "notes", "data-testid": "notifications" });
  const allRead = h("button", { type: "button", class: "secondary", onclick: readAll, "data-testid": "read-all" },
    t("notify.read_all"));
  const moreButton = h("button", { type: "button", class: "secondary", onclick: loadMore }, t("notify.more"));
  main.append(h("section", { class: "notes-page card" },
    h("header", { class: "notes-head" }, h("h1", {}, t("notify.title")), allRead),
    list, h("div", { class: "notes-more" }, moreButton)));

  // Listening starts before the first page is asked for: a note pushed while that
  // page is on its way is not lost (the page, when it comes, skips the ones shown).
  const onFrame = (event) => {
    const frame = event.detail;
    if (frame.t === "notification" && !notes.some((n) => n.id === frame.d.id)) {
      notes.unshift(frame.d);
      render();
    } else if (frame.t === "hello") {  // said again: what came meanwhile was not pushed
      catchUp();
    }
  };
  window.addEventListener("sheshbesh:user-frame", onFrame);
  const stop = () => window.removeEventListener("sheshbesh:user-frame", onFrame);
  try {
    await loadMore();
  } catch (error) {
    stop();
    throw error;
  }
  return stop;

  async function loadMore() {
    const before = notes.length ? `&before=${notes[notes.length - 1].id}` : "";
    try {
      const page = await api.get(`/api/notifications?limit=${PAGE}${before}`);
      const known = new Set(notes.map((n) => n.id));
      notes.push(...page.notes.filter((n) => !known.has(n.id)));
      more = page.more;
      ctx.setUnread(page.unread);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      ctx.toast(error.message, "bad");
    }
    render();
  }

  // The newest page again, its notes not shown yet put on top (after the socket
  // reopened, or the server's bus lost what it would have pushed).
  async function catchUp() {
    try {
      const page = await api.get(`/api/notifications?limit=${PAGE}`);
      const known = new Set(notes.map((n) => n.id));
      notes.unshift(...page.notes.filter((n) => !known.has(n.id)));
      ctx.setUnread(page.unread);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
    }
    render();
  }

  async function read(body) {
    try {
      const answer = await api.post("/api/notifications/read", body);
      ctx.setUnread(answer.unread);
      return true;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      ctx.toast(error.message, "bad");
      return false;
    }
  }

  async function readAll() {
    if (await read({ all: true })) {
      for (const note of notes) note.read = true;
      render();
    }
  }

  async function readOne(note) {
    if (note.read) return;
    note.read = true;
    render();
    await read({ ids: [note.id] });
  }

  function render() {
    clear(list);
    allRead.disabled = !notes.some((n) => !n.read);
    moreButton.hidden = !more;
    if (!notes.length) {
      list.append(h("li", { class: "empty" }, t("notify.none")));
      return;
    }
    for (const note of notes) list.append(row(note));
  }

  function row(note) {
    const { text, href } = describe(note, t);
    return h("li", { class: `note kind-${note.kind} ${note.read ? "is-read" : "is-unread"}`, "data-id": note.id },
      h("span", { class: "note-dot", "aria-hidden": "true" }),
      h("a", { class: "note-link", href, onclick: () => { readOne(note); } },
        h("span", { class: "note-text" }, text),
        h("time", { class: "note-time muted", datetime: new Date(note.created_at * 1000).toISOString() },
          when(note.created_at))),
      note.read ? null : h("button", { type: "button", class: "small secondary", "aria-label": t("notify.mark_read"),
        title: t("notify.mark_read"), onclick: () => readOne(note) }, "✓"));
  }

  function when(seconds) {
    const ago = Date.now() / 1000 - seconds;
    const format = new Intl.RelativeTimeFormat(document.documentElement.lang || "en", { numeric: "auto" });
    if (ago < 60) return format.format(0, "second");
    if (ago < 3600) return format.format(-Math.floor(ago / 60), "minute");
    if (ago < 86400) return format.format(-Math.floor(ago / 3600), "hour");
    if (ago < 7 * 86400) return format.format(-Math.floor(ago / 86400), "day");
    return new Date(seconds * 1000).toLocaleDateString(document.documentElement.lang || "en");
  }
}
