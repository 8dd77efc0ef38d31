// The club's one page: header, router (by the URL's hash) and the shared context
// every view receives. Views live in views/*.js and export mount(main, ctx),
// which may return a function that unmounts (closes sockets, stops timers).

import { api, ApiError } from "./api.js";
import { Channel } from "./channel.js";
import { describe } from "./views/notifications.js";
import { avatarImg } from "./avatar.js";
import { clear, h, s } from "./dom.js";
import { chosenLanguage, clock, LANGUAGES, language, number, pair, plural, rating, setLanguage, signed, t } from "./i18n.js";

const ROUTES = [
  [/^#?\/?$/, () => import("./views/lobby.js")],
  [/^#\/login$/, () => import("./views/auth.js"), { mode: "login" }],
  [/^#\/register$/, () => import("./views/auth.js"), { mode: "register" }],
  [/^#\/game\/([\w-]+)$/, () => import("./views/room.js"), {}, ["game"]],
  [/^#\/profile\/([\w-]+)$/, () => import("./views/profile.js"), {}, ["name"]],
  [/^#\/verify$/, () => import("./views/verify.js")],
  [/^#\/rules$/, () => import("./views/rules.js")],
  [/^#\/friends$/, () => import("./views/friends.js")],
  [/^#\/notifications$/, () => import("./views/notifications.js")],
  [/^#\/shop$/, () => import("./views/shop.js")],
];

const ctx = {
  api, t, plural, number, signed, rating, clock, pair, me: null,
  navigate(hash) { location.hash = hash; },
  toast,
  banner,
  async refreshMe() {
    try {
      ctx.me = (await api.get("/api/session")).me;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      toast(error.message, "bad");
    }
    renderHeader();
    followUser();
    return ctx.me;
  },
  setUnread(count) {
    if (!ctx.me) return;
    ctx.me.unread = count;
    const badge = document.querySelector(".bell .count");
    if (badge) { badge.textContent = String(count); badge.hidden = !count; }
  },
  setBalance(balance) {
    if (ctx.me) ctx.me.balance = balance;
    renderHeader();
  },
  signedOut,
};

let unmount = null;

function renderHeader() {
  document.querySelector(".skip").textContent = t("nav.skip");
  const top = document.getElementById("top");
  clear(top);
  const me = ctx.me;
  const languages = h("select", {
    class: "language", "aria-label": t("nav.language"),
    onchange: async (event) => { await setLanguage(event.target.value); renderHeader(); route(); },
  }, Object.entries(LANGUAGES).map(([code, name]) =>
    h("option", { value: code, selected: code === language() }, name)));
  top.append(
    h("a", { class: "brand", href: "#/" }, h("img", { src: "/static/favicon.svg", alt: "" }), "sheshbesh"),
    h("nav", { class: "nav main-nav", "aria-label": t("nav.main") },
      h("a", { href: "#/" }, t("nav.lobby")),
      me ? h("a", { href: "#/friends", "data-testid": "nav-friends" }, t("nav.friends")) : null,
      h("a", { href: "#/verify" }, t("nav.verify")),
      h("a", { href: "#/rules", "data-testid": "nav-rules" }, t("nav.rules")),
      h("a", { href: "#/shop" }, t("shop.nav"))),
    h("span", { class: "spacer" }),
    me
      ? h("nav", { class: "nav account", "aria-label": t("nav.account") },
          h("span", { class: "balance", title: t("nav.balance"), "data-testid": "balance" },
            t("fun.amount", { amount: number(me.balance) })),
          h("a", { class: "bell", href: "#/notifications", "aria-label": t("nav.notifications"),
            "data-testid": "bell" },
            bellIcon(), h("span", { class: "count", hidden: !me.unread, "data-testid": "unread" },
              String(me.unread || 0))),
          h("a", { class: "me", href: `#/profile/${me.username}`, "data-testid": "me" },
            avatarImg(me, 24, { decorative: true }), h("span", { class: "name" }, me.username)),
          h("button", { class: "secondary logout", type: "button", onclick: logout }, t("nav.logout")))
      : h("nav", { class: "nav account", "aria-label": t("nav.account") },
          h("a", { href: "#/login" }, t("nav.login")),
          h("a", { href: "#/register" }, t("nav.register"))),
    languages,
  );
}

function bellIcon() {
  return s("svg", { viewBox: "0 0 24 24", width: 20, height: 20, "aria-hidden": "true" },
    s("path", { fill: "currentColor", d: "M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22zm7-6V11a7 7 0 0 0-5.5-6.84V3a1.5 1.5 0 0 0-3 0v1.16A7 7 0 0 0 5 11v5l-2 2v1h18v-1z" }));
}

let leaving = false;  // this page is logging out: its sockets' 4401 is no news

async function logout() {
  leaving = true;
  try {
    await api.post("/api/logout");
  } finally {
    leaving = false;
  }
  ctx.me = null;
  followUser();
  renderHeader();
  ctx.navigate("#/");
}

// A socket was closed with 4401: the session ended elsewhere (a logout in another
// tab, a new password, an account closed by the club). Say so once and show the
// login page; /ws/me closes instead of reopening, the other sockets reopen as a
// guest's wherever the page keeps them.
function signedOut() {
  const news = ctx.me !== null && !leaving;
  ctx.me = null;
  followUser();
  if (!news) return;
  renderHeader();
  toast(t("net.signed_out"), "bad");
  ctx.navigate("#/login");
}

// The player's own socket (/ws/me), open while someone is logged in: his
// notifications and his friends' comings and goings. Every frame is relayed to
// the views as the window event "sheshbesh:user-frame" (detail: the frame).
let userSocket = null;
let userSocketOf = null;

function followUser() {
  const id = ctx.me ? ctx.me.id : null;
  if (id === userSocketOf) return;
  if (userSocket) userSocket.close();
  userSocket = null;
  userSocketOf = id;
  if (id !== null) userSocket = new Channel("/ws/me", { onFrame: onUserFrame, onEnded: signedOut });
}

function onUserFrame(frame) {
  if (frame.t === "hello" || frame.t === "unread") ctx.setUnread(frame.d.unread);
  if (frame.t === "me" && ctx.me) {  // he equipped something, maybe in another tab
    const was = ctx.me.playing;
    Object.assign(ctx.me, frame.d);
    renderHeader();
    // Sent again after the server's bus lost messages: a game that began meanwhile
    // is one whose "game_started" he never got.
    if (frame.d.playing && frame.d.playing !== was) goToGame(frame.d.playing);
  }
  if (frame.t === "game_started" && ctx.me && (frame.d.players || []).some((p) => p.id === ctx.me.id)) {
    // A game of his began (accepted here, in another tab, or by a bot): every open
    // tab of his goes to it, so no game ever runs unseen (issue 17).
    ctx.me.playing = frame.d.id;
    goToGame(frame.d.id);
  }
  if (frame.t === "notification") {
    ctx.setUnread(frame.d.unread);
    if (frame.d.kind === "purchase" && Number.isInteger(frame.d.data?.balance)) {
      ctx.setBalance(frame.d.data.balance);
    }
    const { text, href } = describe(frame.d, t);
    const here = location.hash.split("?")[0] || "#/";
    const lobbyKnows = here === "#/" && frame.d.kind === "challenge";  // the lobby says it itself
    if (here !== href && here !== "#/notifications" && !lobbyKnows) {
      toast(h("a", { href, class: "toast-link" }, text));
    }
  }
  window.dispatchEvent(new CustomEvent("sheshbesh:user-frame", { detail: frame }));
}

function goToGame(id) {
  const room = `#/game/${id}`;
  if (location.hash.split("?")[0] !== room) ctx.navigate(room);
}

export function toast(message, kind = "") {
  const box = h("div", { class: `toast ${kind}` }, message);
  document.getElementById("toasts").append(box);
  setTimeout(() => box.remove(), 5000);
}

export function banner(message, kind = "") {
  const el = document.getElementById("banner");
  el.hidden = !message;
  el.className = `banner ${kind}`;
  clear(el);
  if (message) el.append(message);
}

// Each route() is a visit; a page whose mount finishes after a newer visit began
// is unmounted at once (else its sockets and listeners would outlive it, and what
// it drew after its first await would stand beside the newer page).
let routed = 0;

async function route() {
  const visit = ++routed;
  const [path, query = ""] = location.hash.split("?");
  if (unmount) {
    try { unmount(); } catch (error) { console.error(error); }
    unmount = null;
  }
  banner("");
  const main = document.getElementById("main");
  clear(main);
  // The visit's own box: a page that mounts late writes into it, and once a newer
  // visit has cleared main it is nowhere on screen (display: contents: no box).
  const page = h("div", { class: "page" });
  main.append(page);
  for (const [pattern, load, extra = {}, names = []] of ROUTES) {
    const found = path.match(pattern);
    if (!found) continue;
    const params = new URLSearchParams(query);
    names.forEach((name, i) => params.set(name, found[i + 1]));
    for (const [key, value] of Object.entries(extra)) params.set(key, value);
    try {
      const view = await load();
      const cleanup = (await view.mount(page, { ...ctx, params })) || null;
      if (routed !== visit) {  // he went elsewhere while it loaded: the newer page owns main
        if (cleanup) cleanup();
        return;
      }
      unmount = cleanup;
    } catch (error) {
      console.error(error);
      if (routed !== visit) return;
      page.append(h("p", { class: "error" }, t("error.page", { message: error.message })));
    }
    main.focus({ preventScroll: true });
    return;
  }
  page.append(h("h1", {}, t("error.not_found")), h("a", { href: "#/" }, t("nav.lobby")));
}

async function boot() {
  await setLanguage(chosenLanguage());
  await ctx.refreshMe();
  window.addEventListener("hashchange", route);
  await route();
}

boot();
