// A player's page: avatar, ratings per game, results, recent games (each opens the
// room, with replay once finished), the friend and challenge buttons, and, for the
// player himself, any play-ban with its reason, the wallet and its ledger history.

import { ApiError } from "../api.js";
import { avatarImg } from "../avatar.js";
import { h } from "../dom.js";
import { language } from "../i18n.js";

export async function mount(main, ctx) {
  const { t, api } = ctx;
  const name = ctx.params.get("name");
  let profile;
  try {
    profile = await api.get(`/api/users/${encodeURIComponent(name)}`);
  } catch (error) {
    main.append(h("h1", {}, t("error.not_found")), h("p", { class: "muted" }, error.message));
    return;
  }
  const own = ctx.me && ctx.me.id === profile.id;
  const when = (at) => new Date(at * 1000).toLocaleDateString(language());
  main.append(h("section", { class: "card profile-head", "data-testid": "profile" },
    avatarImg(profile, 96),
    h("div", { class: "grow" },
      h("h1", {}, profile.username, profile.is_bot ? h("span", { class: "tag" }, t("profile.bot")) : null,
        profile.closed ? h("span", { class: "tag", "data-testid": "closed" }, t("profile.closed")) : null),
      h("p", { class: "muted" }, t("profile.member_since", { date: when(profile.created_at) })),
      h("p", { class: "row" },
        stat(t("profile.played"), ctx.number(profile.played)), stat(t("profile.won"), ctx.number(profile.won)),
        stat(t("profile.lost"), ctx.number(profile.lost)), stat(t("profile.drawn"), ctx.number(profile.drawn)),
        stat(t("profile.playing"), ctx.number(profile.playing)),
        own ? stat(t("profile.balance"), t("fun.amount", { amount: ctx.number(profile.balance) })) : null),
      profile.closed ? null : relationButtons(ctx, profile))));

  if (own && profile.playban && (profile.playban.ban || profile.playban.offences)) {
    main.append(playbanCard(ctx, profile.playban));
  }
  main.append(ratingsCard(ctx, profile));
  const items = await api.get(`/api/users/${encodeURIComponent(name)}/items`).catch(() => null);
  if (items && items.items.length) main.append(collectionCard(ctx, items));
  main.append(gamesCard(ctx, name, profile));

  if (own) {
    const ledger = await api.get("/api/me/ledger");
    main.append(h("section", { class: "card", "data-testid": "ledger" }, h("h2", {}, t("profile.wallet")),
      h("table", { class: "responsive" },
        h("thead", {}, h("tr", {}, h("th", {}, t("profile.when")), h("th", {}, t("profile.what")),
          h("th", { class: "num" }, t("profile.amount")), h("th", {}, ""))),
        h("tbody", {}, ledger.map((row) => h("tr", {},
          h("td", {}, new Date(row.at * 1000).toLocaleString(language())),
          h("td", {}, t(`ledger.${row.reason}`)),
          h("td", { class: "num" }, `${row.amount > 0 ? "+" : ""}${ctx.number(row.amount)}`),
          h("td", {}, row.game ? h("a", { href: `#/game/${row.game}` }, t("profile.game")) : "")))))));
    main.append(passwordCard(ctx));
  }
}

// A new password, given the current one; the server ends every other session.
function passwordCard(ctx) {
  const { t, api } = ctx;
  const field = (name, label) => h("label", {}, label,
    h("input", { type: "password", name, required: true, autocomplete: name === "current" ? "current-password" : "new-password",
      minlength: name === "current" ? null : 8, maxlength: 256 }));
  const message = h("p", { class: "error", role: "alert" });
  const form = h("form", { class: "stack password-form", "data-testid": "password-form", onsubmit: async (event) => {
    event.preventDefault();
    message.textContent = "";
    const data = new FormData(form);
    if (data.get("new") !== data.get("again")) {
      message.textContent = t("password.mismatch");
      return;
    }
    try {
      await api.post("/api/me/password", { current: data.get("current"), new: data.get("new") });
      form.reset();
      ctx.toast(t("password.changed"));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      message.textContent = error.message;
    }
  } },
  field("current", t("password.current")), field("new", t("password.new")), field("again", t("password.again")),
  message, h("button", { type: "submit" }, t("password.change")));
  return h("section", { class: "card", "data-testid": "password" }, h("h2", {}, t("password.title")), form);
}

function ratingsCard(ctx, profile) {
  const { t } = ctx;
  const pools = Object.entries(profile.ratings || {});
  return h("section", { class: "card", "data-testid": "ratings" },
    h("h2", {}, t("profile.ratings"), profile.is_bot ? h("span", { class: "tag" }, t("profile.bot_rating")) : null),
    pools.length
      ? h("table", { class: "responsive" },
          h("thead", {}, h("tr", {}, h("th", {}, t("lobby.game")), h("th", { class: "num" }, t("profile.rating")),
            h("th", { class: "num" }, t("profile.rated_games")))),
          h("tbody", {}, pools.map(([pool, rating]) => h("tr", {},
            h("td", { "data-label": t("lobby.game") }, t(`variant.${pool}`)),
            h("td", { class: "num", "data-label": t("profile.rating"),
                      title: rating.provisional ? t("profile.provisional") : null }, ctx.rating(rating)),
            h("td", { class: "num", "data-label": t("profile.rated_games") }, ctx.number(rating.games))))))
      : h("p", { class: "empty" }, t("profile.no_ratings")));
}

function collectionCard(ctx, items) {
  // What the player bought in the shop; what he wears is marked.
  const { t } = ctx;
  const worn = new Set(Object.values(items.equipped || {}));
  return h("section", { class: "card", "data-testid": "collection" }, h("h2", {}, t("profile.collection")),
    h("p", { class: "row" }, items.items.map((p) => h("span", { class: `tag${worn.has(p.item) ? " good" : ""}` },
      t(`shop.item.${p.item.replace(":", ".")}`), worn.has(p.item) ? ` · ${t("profile.worn")}` : ""))));
}

function playbanCard(ctx, standing) {
  const { t } = ctx;
  const ban = standing.ban;
  const lines = [];
  if (ban) {
    lines.push(h("p", { class: "error" }, t("profile.banned_until", {
      time: new Date(ban.until * 1000).toLocaleString(language()) })));
  }
  lines.push(h("p", {}, t("profile.offences", { count: standing.offences })));
  if (standing.next) {
    lines.push(h("p", { class: "muted" }, t("profile.next_ban", { minutes: Math.round(standing.next.seconds / 60) })));
  }
  return h("section", { class: `card ${ban ? "warning" : ""}`, "data-testid": "playban" },
    h("h2", {}, t("profile.playban")), h("p", { class: "muted" }, t("profile.playban_why")), lines);
}

function relationButtons(ctx, profile) {
  const { t, api } = ctx;
  if (!ctx.me || profile.relation === "self") return null;
  const name = encodeURIComponent(profile.username);
  const act = (fn, done) => async () => {
    try {
      await fn();
      ctx.toast(done, "good");
      ctx.navigate(`#/profile/${name}?r=${Date.now()}`);
    } catch (error) {
      ctx.toast(error.message, "bad");
    }
  };
  const buttons = [];
  if (!profile.is_bot || profile.bot) {
    buttons.push(h("a", { class: "button", href: `#/?opponent=${name}`, "data-testid": "challenge" },
      t("profile.challenge")));
  }
  const relation = profile.relation;
  if (!profile.is_bot && relation === null) {
    buttons.push(h("button", { type: "button", "data-testid": "befriend",
      onclick: act(() => api.post("/api/friends/requests", { username: profile.username }), t("profile.request_sent")) },
    t("profile.add_friend")));
  } else if (relation === "request_sent") {
    buttons.push(h("span", { class: "tag" }, t("profile.request_pending")));
  } else if (relation === "request_received") {
    buttons.push(h("a", { class: "button", href: "#/friends" }, t("profile.answer_request")));
  } else if (relation === "friend") {
    buttons.push(h("span", { class: "tag good" }, t("profile.friend")),
      h("button", { type: "button", class: "secondary",
        onclick: act(() => api.del(`/api/friends/${name}`), t("profile.unfriended")) }, t("profile.unfriend")));
  }
  if (relation === "blocked") {
    buttons.push(h("button", { type: "button", class: "secondary",
      onclick: act(() => api.del(`/api/blocks/${name}`), t("profile.unblocked")) }, t("profile.unblock")));
  } else {
    buttons.push(h("button", { type: "button", class: "secondary danger",
      onclick: act(() => api.post("/api/blocks", { username: profile.username }), t("profile.blocked")) },
    t("profile.block")));
  }
  return h("p", { class: "row actions" }, buttons);
}

function stat(label, value) {
  return h("span", { class: "card" }, h("strong", {}, String(value)), " ", h("span", { class: "muted" }, label));
}

// What a player won or lost at a chouette table over all its games, in points.
function tableResult(ctx, points) {
  const text = ctx.plural("room.points", Math.abs(points), { n: ctx.signed(points) });
  return h("span", { class: points > 0 ? "good" : points < 0 ? "bad" : "" }, text);
}

function delta(ctx, game) {
  if (game.rating_change === null || game.rating_change === undefined) return "";
  const value = game.rating_change;
  return h("span", { class: value >= 0 ? "good" : "bad" }, ctx.signed(Math.round(value)));
}

// His games, newest first: the profile's first page, then "More games" fetches the next
// (the server cuts pages by the last game shown, so none repeats or goes missing).
function gamesCard(ctx, name, profile) {
  const { t, api } = ctx;
  const card = h("section", { class: "card", "data-testid": "games" });
  if (!profile.recent.length) {
    card.append(h("h2", {}, t("profile.recent")), h("p", { class: "empty" }, t("profile.no_games")));
    return card;
  }
  const rows = h("tbody", {}, profile.recent.map((game) => gameRow(ctx, game)));
  const empty = h("p", { class: "empty", hidden: true }, t("profile.no_games_of"));
  const table = h("table", { class: "responsive", "data-testid": "recent" },
    h("thead", {}, h("tr", {}, h("th", {}, t("lobby.game")), h("th", {}, t("profile.opponent")),
      h("th", { class: "num" }, t("lobby.stake")), h("th", {}, t("profile.result")),
      h("th", { class: "num" }, t("profile.rating_change")), h("th", {}, ""))),
    rows);
  let before = profile.more;
  let variant = "";
  const error = h("p", { class: "error", role: "alert" });
  const games = `/api/users/${encodeURIComponent(name)}/games`;
  // One page more of the chosen game's (or, from the start, the first page of another's).
  async function load(fresh) {
    more.disabled = filter.disabled = true;
    error.textContent = "";
    const query = new URLSearchParams();
    if (variant) query.set("variant", variant);
    if (!fresh) query.set("before", before);
    try {
      const page = await api.get(`${games}?${query}`);
      if (fresh) rows.replaceChildren();
      rows.append(...page.games.map((game) => gameRow(ctx, game)));
      before = page.more;
      table.hidden = !rows.children.length;
      empty.hidden = !table.hidden;
    } catch (failure) {
      if (!(failure instanceof ApiError)) throw failure;
      error.textContent = failure.message;
    } finally {
      more.disabled = filter.disabled = false;
      more.hidden = !before;
    }
  }
  const more = h("button", { type: "button", class: "secondary", "data-testid": "more-games",
    onclick: () => load(false) }, t("profile.more_games"));
  const filter = h("select", { name: "variant", "data-testid": "games-filter", "aria-label": t("lobby.game"),
    onchange: () => { variant = filter.value; load(true); } },
    h("option", { value: "" }, t("profile.all_games")));
  api.get("/api/requests/variants").then((known) => {
    for (const { variant: v } of known) filter.append(h("option", { value: v }, t(`variant.${v}`)));
    filter.append(h("option", { value: "chouette" }, t("variant.chouette")));
  }).catch(() => { filter.hidden = true; });
  more.hidden = !before;
  card.append(h("div", { class: "row card-head" }, h("h2", { class: "grow" }, t("profile.recent")), filter),
    table, empty, error, more);
  return card;
}

function gameRow(ctx, game) {
  const { t } = ctx;
  const open = game.status === "live" || game.status === "waiting";
  return h("tr", { "data-kind": game.kind, "data-game": game.id },
    h("td", { "data-label": t("lobby.game") }, gameName(t, game)),
    h("td", { "data-label": t("profile.opponent") }, game.kind === "chouette"
      ? ctx.plural("profile.table_players", game.players, { n: ctx.number(game.players) })
      : h("a", { href: `#/profile/${encodeURIComponent(game.opponent)}` }, game.opponent)),
    h("td", { class: "num", "data-label": t("lobby.stake") },
      t("fun.amount", { amount: ctx.number(game.stake) })),
    h("td", { "data-label": t("profile.result") }, outcome(ctx, game)),
    h("td", { class: "num", "data-label": t("profile.rating_change") }, delta(ctx, game)),
    h("td", {}, h("a", { href: `#/game/${game.id}` }, open ? t("profile.open") : t("profile.replay"))));
}

// A chouette table is named as such: its variant is always backgammon (CH-1).
function gameName(t, game) {
  return game.kind === "chouette" ? t("variant.chouette") : t(`variant.${game.variant}`);
}

function outcome(ctx, game) {
  const { t } = ctx;
  if (game.status === "live") return t("profile.live");
  if (game.status === "waiting") return t("profile.waiting");
  if (game.status === "aborted") return t("profile.aborted");
  if (game.kind === "chouette") return tableResult(ctx, game.result ? game.result.points : 0);
  const winner = game.result ? game.result.winner_seat : null;
  if (winner === null || winner === undefined) return t("profile.draw");
  return winner === game.seat ? t("profile.win") : t("profile.loss");
}
