// Friends (#/friends): find players, ask them, answer requests, see who is here.
//
// The server decides everything (docs/protocol.md, "Friends, presence and
// notifications"); the page shows its lists and reloads them when the user's
// socket says they changed (friends_changed), and moves a friend's status dot
// in place when it hears friend_status. Both arrive from app.js as the window
// event "sheshbesh:user-frame". Removing a friend or blocking asks first.

import { ApiError } from "../api.js";
import { avatarImg } from "../avatar.js";
import { clear, h } from "../dom.js";

const NAME = /^[A-Za-z0-9_-]{1,20}$/;
const path = (name) => encodeURIComponent(name);
const STATUS_TEXT = {
  online: "friends.status.online", playing: "friends.status.playing", offline: "friends.status.offline",
};

export async function mount(main, ctx) {
  const { t, api } = ctx;
  if (!ctx.me) {
    main.append(h("section", { class: "card social-guest" },
      h("h1", {}, t("friends.title")),
      h("p", {}, t("friends.login_first")),
      h("a", { class: "button", href: "#/login" }, t("nav.login"))));
    return null;
  }

  let lists = { friends: [], incoming: [], outgoing: [], blocked: [] };
  let results = [];
  let query = "";
  let searchTimer = null;
  let reloadTimer = null;

  const search = h("input", {
    type: "search", maxlength: 20, autocomplete: "off", spellcheck: "false",
    placeholder: t("friends.search_placeholder"), "aria-label": t("friends.search"),
    "data-testid": "friends-search",
    oninput: () => { clearTimeout(searchTimer); searchTimer = setTimeout(runSearch, 250); },
  });
  const found = h("ul", { class: "people", "data-testid": "search-results", "aria-live": "polite" });
  const requests = h("div", { class: "card social-requests" });
  const friends = h("div", { class: "card social-friends" });
  const blocked = h("div", { class: "card social-blocked" });
  main.append(
    h("section", { class: "social" },
      h("header", { class: "social-head" },
        h("h1", {}, t("friends.title")), h("p", { class: "muted" }, t("friends.intro"))),
      h("div", { class: "social-grid" },
        h("div", { class: "social-side" },
          h("div", { class: "card social-search" },
            h("h2", {}, t("friends.find")),
            h("form", { role: "search", onsubmit: (e) => { e.preventDefault(); runSearch(); } }, search),
            found),
          requests),
        h("div", { class: "social-main" }, friends, blocked))));

  function hear(frame) {
    if (frame.t === "friend_status") {
      const friend = lists.friends.find((f) => f.username === frame.d.username);
      if (friend && frame.d.status in STATUS_TEXT) {
        friend.status = frame.d.status;
        renderFriends();
      }
    } else if (frame.t === "friends_changed" || frame.t === "hello") {  // hello: said again
      clearTimeout(reloadTimer);
      reloadTimer = setTimeout(async () => { await reload(); if (query) await runSearch(); }, 150);
    }
  }

  async function reload() {
    try {
      lists = await api.get("/api/friends");
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      ctx.toast(error.message, "bad");
      return;
    }
    renderRequests();
    renderFriends();
    renderBlocked();
  }

  // Run one change, show the server's refusal if any, then show the lists as they are now.
  async function act(change, done) {
    try {
      await change();
      if (done) ctx.toast(done);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      ctx.toast(error.message, "bad");
    }
    await reload();
    if (query) await runSearch();
  }

  const ask = (name) => act(() => api.post("/api/friends/requests", { username: name }),
    t("friends.request_sent", { name }));
  const accept = (r) => act(() => api.post(`/api/friends/requests/${r.id}/accept`),
    t("friends.now_friends", { name: r.from.username }));
  const decline = (r) => act(() => api.post(`/api/friends/requests/${r.id}/decline`));
  const cancel = (r) => act(() => api.del(`/api/friends/requests/${r.id}`));
  const unblock = (name) => act(() => api.del(`/api/blocks/${path(name)}`),
    t("friends.unblocked", { name }));
  function unfriend(name) {
    if (!confirm(t("friends.confirm_unfriend", { name }))) return;
    act(() => api.del(`/api/friends/${path(name)}`));
  }
  function block(name) {
    if (!confirm(t("friends.confirm_block", { name }))) return;
    act(() => api.post("/api/blocks", { username: name }), t("friends.blocked_toast", { name }));
  }

  async function runSearch() {
    query = search.value.trim();
    clear(found);
    if (!query) { results = []; return; }
    if (!NAME.test(query)) {
      found.append(h("li", { class: "empty" }, t("friends.search_invalid")));
      return;
    }
    const asked = query;
    try {
      const got = await api.get(`/api/players?q=${encodeURIComponent(asked)}`);
      if (asked !== search.value.trim()) return;  // a newer search is on its way
      results = got;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      found.append(h("li", { class: "empty error" }, error.message));
      return;
    }
    clear(found);
    if (!results.length) found.append(h("li", { class: "empty" }, t("friends.no_match", { q: asked })));
    for (const player of results) found.append(searchRow(player));
  }

  function who(user, extra = null) {
    return h("a", { class: "who", href: `#/profile/${path(user.username)}` },
      avatarImg(user, 32, { decorative: true }),
      h("span", { class: "name" }, user.username),
      user.is_bot ? h("span", { class: "tag" }, t("friends.bot")) : null,
      extra);
  }

  function small(label, onclick, kind = "secondary", testid = null) {
    return h("button", { type: "button", class: `small ${kind}`, onclick, "data-testid": testid }, label);
  }

  function searchRow(player) {
    const name = player.username;
    const incoming = lists.incoming.find((r) => r.from.username === name);
    const outgoing = lists.outgoing.find((r) => r.to.username === name);
    let primary;
    switch (player.relation) {
      case "friend": primary = h("span", { class: "tag good" }, t("friends.is_friend")); break;
      case "blocked": primary = small(t("friends.unblock"), () => unblock(name)); break;
      case "request_sent":
        primary = outgoing ? small(t("friends.cancel"), () => cancel(outgoing))
          : h("span", { class: "tag" }, t("friends.requested"));
        break;
      case "request_received":
        primary = incoming ? small(t("friends.accept"), () => accept(incoming), "")
          : h("span", { class: "tag" }, t("friends.asked_you"));
        break;
      default:
        primary = player.is_bot ? null : small(t("friends.add"), () => ask(name), "", "add-friend");
    }
    const blockButton = player.relation === "blocked" ? null
      : small(t("friends.block"), () => block(name), "secondary danger");
    return h("li", { class: "person", "data-name": name }, who(player),
      h("span", { class: "person-actions" }, primary, blockButton));
  }

  function renderRequests() {
    clear(requests);
    requests.append(h("h2", {}, t("friends.requests")));
    if (!lists.incoming.length && !lists.outgoing.length) {
      requests.append(h("p", { class: "empty" }, t("friends.no_requests")));
      return;
    }
    if (lists.incoming.length) {
      requests.append(h("h3", {}, t("friends.incoming")), h("ul", { class: "people", "data-testid": "incoming" },
        lists.incoming.map((r) => h("li", { class: "person", "data-name": r.from.username }, who(r.from),
          h("span", { class: "person-actions" },
            small(t("friends.accept"), () => accept(r), "", "accept-friend"),
            small(t("friends.decline"), () => decline(r)))))));
    }
    if (lists.outgoing.length) {
      requests.append(h("h3", {}, t("friends.outgoing")), h("ul", { class: "people", "data-testid": "outgoing" },
        lists.outgoing.map((r) => h("li", { class: "person", "data-name": r.to.username }, who(r.to),
          h("span", { class: "person-actions" }, small(t("friends.cancel"), () => cancel(r)))))));
    }
  }

  function renderFriends() {
    clear(friends);
    const order = { playing: 0, online: 1, offline: 2 };
    const sorted = [...lists.friends].sort((a, b) =>
      order[a.status] - order[b.status] || a.username.localeCompare(b.username));
    const here = sorted.filter((f) => f.status !== "offline").length;
    friends.append(h("h2", {}, t("friends.list"), " ", h("span", { class: "tag" }, ctx.number(sorted.length)),
      sorted.length ? h("span", { class: "muted social-count" }, t("friends.here", { count: ctx.number(here) })) : null));
    if (!sorted.length) {
      friends.append(h("p", { class: "empty" }, t("friends.none")));
      return;
    }
    friends.append(h("ul", { class: "people", "data-testid": "friends" }, sorted.map((f) =>
      h("li", { class: `person friend is-${f.status}`, "data-name": f.username },
        who(f, h("span", { class: "status" },
          h("span", { class: `dot ${f.status}`, "aria-hidden": "true" }),
          h("span", { class: "status-text", "data-testid": "friend-status" }, t(STATUS_TEXT[f.status])))),
        h("span", { class: "person-actions" },
          small(t("friends.challenge"), () => ctx.navigate(`#/?opponent=${path(f.username)}`), "", "challenge"),
          small(t("friends.unfriend"), () => unfriend(f.username)),
          small(t("friends.block"), () => block(f.username), "secondary danger"))))));
  }

  function renderBlocked() {
    clear(blocked);
    blocked.hidden = !lists.blocked.length;
    if (!lists.blocked.length) return;
    blocked.append(h("h2", {}, t("friends.blocked")), h("p", { class: "muted" }, t("friends.blocked_help")),
      h("ul", { class: "people", "data-testid": "blocked" }, lists.blocked.map((u) =>
        h("li", { class: "person", "data-name": u.username }, who(u),
          h("span", { class: "person-actions" }, small(t("friends.unblock"), () => unblock(u.username)))))));
  }

  await reload();
  const onFrame = (event) => hear(event.detail);
  window.addEventListener("sheshbesh:user-frame", onFrame);
  return () => {
    window.removeEventListener("sheshbesh:user-frame", onFrame);
    clearTimeout(searchTimer);
    clearTimeout(reloadTimer);
  };
}
