// The club's one page: header, router (by the URL's hash) and the shared context
// every view receives. Views live in views/*.js and export mount(main, ctx),
// which may return a function that unmounts (closes sockets, stops timers).

import { api, ApiError } from "./api.js";
import { clear, h, s } from "./dom.js";
import { chosenLanguage, LANGUAGES, language, number, setLanguage, t } from "./i18n.js";

const ROUTES = [
  [/^#?\/?$/, () => import("./views/lobby.js")],
  [/^#\/login$/, () => import("./views/auth.js"), { mode: "login" }],
  [/^#\/register$/, () => import("./views/auth.js"), { mode: "register" }],
  [/^#\/game\/([\w-]+)$/, () => import("./views/game.js"), {}, ["game"]],
  [/^#\/profile\/([\w-]+)$/, () => import("./views/profile.js"), {}, ["name"]],
  [/^#\/verify$/, () => import("./views/verify.js")],
];

const ctx = {
  api, t, number, me: null,
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
    return ctx.me;
  },
  setBalance(balance) {
    if (ctx.me) ctx.me.balance = balance;
    renderHeader();
  },
};

let unmount = null;

function renderHeader() {
  document.querySelector(".skip").textContent = t("nav.skip");
  const top = document.getElementById("top");
  clear(top);
  const me = ctx.me;
  const languages = h("select", {
    "aria-label": t("nav.language"),
    onchange: async (event) => { await setLanguage(event.target.value); renderHeader(); route(); },
  }, Object.entries(LANGUAGES).map(([code, name]) =>
    h("option", { value: code, selected: code === language() }, name)));
  top.append(
    h("a", { class: "brand", href: "#/" }, h("img", { src: "/static/favicon.svg", alt: "" }), "sheshbesh"),
    h("nav", { class: "nav", "aria-label": t("nav.main") },
      h("a", { href: "#/" }, t("nav.lobby")),
      h("a", { href: "#/verify" }, t("nav.verify"))),
    h("span", { class: "spacer" }),
    me
      ? h("nav", { class: "nav", "aria-label": t("nav.account") },
          h("span", { class: "balance", title: t("nav.balance"), "data-testid": "balance" },
            t("fun.amount", { amount: number(me.balance) })),
          h("a", { class: "bell", href: `#/profile/${me.username}`, "aria-label": t("nav.notifications") },
            bellIcon(), h("span", { class: "count", hidden: !me.unread }, String(me.unread || 0))),
          h("a", { href: `#/profile/${me.username}`, "data-testid": "me" }, me.username),
          h("button", { class: "secondary", type: "button", onclick: logout }, t("nav.logout")))
      : h("nav", { class: "nav", "aria-label": t("nav.account") },
          h("a", { href: "#/login" }, t("nav.login")),
          h("a", { href: "#/register" }, t("nav.register"))),
    languages,
  );
}

function bellIcon() {
  return s("svg", { viewBox: "0 0 24 24", width: 20, height: 20, "aria-hidden": "true" },
    s("path", { fill: "currentColor", d: "M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22zm7-6V11a7 7 0 0 0-5.5-6.84V3a1.5 1.5 0 0 0-3 0v1.16A7 7 0 0 0 5 11v5l-2 2v1h18v-1z" }));
}

async function logout() {
  await api.post("/api/logout");
  ctx.me = null;
  renderHeader();
  ctx.navigate("#/");
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

async function route() {
  const [path, query = ""] = location.hash.split("?");
  if (unmount) {
    try { unmount(); } catch (error) { console.error(error); }
    unmount = null;
  }
  banner("");
  const main = document.getElementById("main");
  clear(main);
  for (const [pattern, load, extra = {}, names = []] of ROUTES) {
    const found = path.match(pattern);
    if (!found) continue;
    const params = new URLSearchParams(query);
    names.forEach((name, i) => params.set(name, found[i + 1]));
    for (const [key, value] of Object.entries(extra)) params.set(key, value);
    try {
      const view = await load();
      unmount = (await view.mount(main, { ...ctx, params })) || null;
    } catch (error) {
      console.error(error);
      main.append(h("p", { class: "error" }, t("error.page", { message: error.message })));
    }
    main.focus({ preventScroll: true });
    return;
  }
  main.append(h("h1", {}, t("error.not_found")), h("a", { href: "#/" }, t("nav.lobby")));
}

async function boot() {
  await setLanguage(chosenLanguage());
  await ctx.refreshMe();
  window.addEventListener("hashchange", route);
  await route();
}

boot();
