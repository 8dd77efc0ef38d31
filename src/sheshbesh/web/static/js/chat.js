// The chat panel the game room and the lobby mount: a tab per room the viewer may
// read (the server sends a chat_history for each), the lines, and a line to type.
// Every line goes in as text nodes through h(): what a player types is shown as
// the characters he typed and is never parsed as markup. A player may mute another
// locally (the list lives in localStorage, on this browser only); blocking, which
// the server enforces everywhere, is on the profile page. A chouette crew's line may
// carry a proposed play (`play`, CH-4): it is marked as one.

import { append, clear, h } from "./dom.js";
import { language, number } from "./i18n.js";

export const MAX_LENGTH = 140;  // the server's limit (docs/protocol.md, "Chat")
const MUTED_KEY = "chat-muted";
const ERRORS = {
  chat_empty: "chat.error_empty", chat_too_long: "chat.error_too_long",
  chat_rate_limited: "chat.error_rate_limited", chat_repeated: "chat.error_repeated",
  chat_muted: "chat.error_muted", chat_forbidden: "chat.error_forbidden",
  login_required: "chat.login",
};

function loadMuted() {
  try {
    const saved = JSON.parse(localStorage.getItem(MUTED_KEY) || "{}");
    return saved && typeof saved === "object" && !Array.isArray(saved) ? saved : {};
  } catch {
    return {};
  }
}

// { t, me, send(room, text) -> bool, canWrite(room) -> null | reason, toast(message, kind), label }
export function chatPanel({ t, me, send, canWrite, toast, label }) {
  const rooms = new Map();  // name -> { lines: Map(id -> line), unread }
  let active = null;
  let muted = loadMuted();  // user id -> username
  let lastSent = "";  // given back to the input if the server refuses it

  const tabs = h("div", { class: "chat-tabs", role: "tablist", "aria-label": label });
  const heading = h("h2", { class: "chat-title" }, label);
  const list = h("ol", { class: "chat-lines", "aria-live": "polite", "aria-label": label,
    "data-testid": "chat-lines", tabindex: 0 });
  const mutedBar = h("p", { class: "chat-muted muted", hidden: true });
  const input = h("input", { type: "text", maxlength: MAX_LENGTH, autocomplete: "off",
    enterkeyhint: "send", "aria-label": t("chat.placeholder"), dir: "auto",
    "data-testid": "chat-input", oninput: updateCounter });
  const counter = h("span", { class: "chat-counter muted", "aria-hidden": "true" });
  const button = h("button", { type: "submit", class: "secondary" }, t("chat.send"));
  const form = h("form", { class: "chat-form", onsubmit: submit }, input, counter, button);
  const el = h("section", { class: "card chat", "data-testid": "chat" },
    heading, tabs, list, mutedBar, form);

  function updateCounter() {
    const left = MAX_LENGTH - input.value.trim().length;
    counter.textContent = number(left);
    counter.classList.toggle("low", left < 20);
  }

  function submit(event) {
    event.preventDefault();
    const text = input.value.trim();
    if (!text || !active) return;
    if (send(active, text)) {
      lastSent = text;
      input.value = "";
      updateCounter();
    } else {
      toast(t("net.offline"), "bad");
    }
  }

  function saveMuted() {
    localStorage.setItem(MUTED_KEY, JSON.stringify(muted));
    renderLines();
  }

  function toggleMute(user) {
    if (muted[user.id]) delete muted[user.id];
    else muted[user.id] = user.username;
    saveMuted();
  }

  function clock(at) {
    return new Intl.DateTimeFormat(language(), { hour: "2-digit", minute: "2-digit", hourCycle: "h23" })
      .format(new Date(at * 1000));
  }

  function lineItem(line) {
    const mine = me && line.user.id === me.id;
    return h("li", { class: `chat-line${mine ? " mine" : ""}`, dataset: { id: line.id } },
      h("time", { class: "muted", datetime: new Date(line.at * 1000).toISOString() }, clock(line.at)),
      h("a", { class: "chat-name", href: `#/profile/${encodeURIComponent(line.user.username)}` },
        line.user.username),
      line.play ? h("span", { class: "tag chat-play", "data-testid": "chat-play" }, t("chat.proposal")) : null,
      h("span", { class: "chat-text", dir: "auto" }, line.text),
      mine ? null : h("button", { type: "button", class: "chat-mute", title: t("chat.mute", { name: line.user.username }),
        "aria-label": t("chat.mute", { name: line.user.username }), onclick: () => toggleMute(line.user) }, "⊘"));
  }

  function renderTabs() {
    clear(tabs);
    tabs.hidden = rooms.size < 2;
    heading.hidden = rooms.size >= 2;
    const only = rooms.size === 1 ? [...rooms.keys()][0] : "lobby";
    heading.textContent = only === "lobby" ? label : `${label} · ${t(`chat.room_${only}`)}`;
    for (const [name, room] of rooms) {
      tabs.append(h("button", {
        type: "button", role: "tab", class: "chat-tab", "aria-selected": String(name === active),
        "data-room": name, onclick: () => { active = name; room.unread = false; render(); },
      }, t(`chat.room_${name}`), room.unread ? h("span", { class: "dot", "aria-label": t("chat.unread") }) : null));
    }
  }

  function renderLines() {
    const near = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    clear(list);
    const room = rooms.get(active);
    const lines = room ? [...room.lines.values()] : [];
    const shown = lines.filter((line) => !muted[line.user.id]);
    if (!shown.length) list.append(h("li", { class: "chat-empty muted" }, t("chat.empty")));
    for (const line of shown) list.append(lineItem(line));
    const hidden = new Map(lines.filter((line) => muted[line.user.id])
      .map((line) => [line.user.id, line.user.username]));
    clear(mutedBar);
    mutedBar.hidden = !hidden.size;
    if (hidden.size) {
      append(mutedBar, [t("chat.muted_here"), " ", [...hidden].map(([id, name]) =>
        h("button", { type: "button", class: "link", "aria-label": t("chat.unmute", { name }),
          onclick: () => toggleMute({ id, username: name }) }, name))]);
    }
    if (near) list.scrollTop = list.scrollHeight;
  }

  function renderForm() {
    const reason = active ? canWrite(active) : t("chat.empty");
    input.disabled = button.disabled = !!reason;
    input.placeholder = reason || t("chat.placeholder");
    counter.hidden = !!reason;
    updateCounter();
  }

  function render() {
    renderTabs();
    renderLines();
    renderForm();
    list.scrollTop = list.scrollHeight;
  }

  function roomOf(name) {
    if (!rooms.has(name)) {
      rooms.set(name, { lines: new Map(), unread: false });
      if (!active) active = name;
    }
    return rooms.get(name);
  }

  return {
    el,
    // A chat_history frame: the room's last lines, replacing what was shown (a reconnect).
    history({ room, lines }) {
      const found = roomOf(room);
      found.lines = new Map(lines.map((line) => [line.id, line]));
      render();
    },
    // A chat frame: one new line.
    line(line) {
      const found = roomOf(line.room);
      if (found.lines.has(line.id)) return;
      found.lines.set(line.id, line);
      if (found.lines.size > 200) found.lines.delete(found.lines.keys().next().value);
      if (line.room === active) {
        renderLines();
      } else if (!muted[line.user.id]) {
        found.unread = true;
        renderTabs();
      }
    },
    // An error frame about chat: said in the viewer's language where we know the code.
    refused(error) {
      if (!input.value && lastSent && error.error !== "chat_muted") input.value = lastSent;
      updateCounter();
      const key = ERRORS[error.error];
      const minutes = Math.max(1, Math.ceil((error.retry || 0) / 60));
      toast(key ? t(key, { seconds: error.retry ?? "", minutes, max: error.max ?? MAX_LENGTH })
        : error.message, "bad");
    },
    // Who may write changed (the game ended, the viewer logged in): ask canWrite again.
    refresh: render,
    has: (name) => rooms.has(name),
    // A room the viewer reads no more (a chouette crew's, when the next game has another
    // crew): its tab and lines go.
    forget(name) {
      if (!rooms.delete(name)) return;
      if (active === name) active = rooms.keys().next().value ?? null;
      render();
    },
  };
}
