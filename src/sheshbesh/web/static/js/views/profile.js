// A player's page: results, recent games (each opens the room, with replay once
// finished) and, for the player himself, the wallet and its ledger history.

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
  main.append(h("section", { class: "card" },
    h("h1", {}, profile.username, profile.is_bot ? h("span", { class: "tag" }, t("profile.bot")) : null),
    h("p", { class: "row" },
      stat(t("profile.played"), profile.played), stat(t("profile.won"), profile.won),
      stat(t("profile.lost"), profile.lost), stat(t("profile.drawn"), profile.drawn),
      stat(t("profile.playing"), profile.playing),
      own ? stat(t("profile.balance"), t("fun.amount", { amount: ctx.number(profile.balance) })) : null),
    h("p", { class: "muted" }, t("profile.member_since", {
      date: new Date(profile.created_at * 1000).toLocaleDateString(language()) }))));

  main.append(h("section", { class: "card" }, h("h2", {}, t("profile.recent")),
    profile.recent.length ? h("table", { class: "responsive" },
      h("thead", {}, h("tr", {}, h("th", {}, t("lobby.game")), h("th", { class: "num" }, t("lobby.stake")),
        h("th", {}, t("profile.result")), h("th", {}, ""))),
      h("tbody", {}, profile.recent.map((game) => h("tr", {},
        h("td", {}, t(`variant.${game.variant}`)),
        h("td", { class: "num" }, t("fun.amount", { amount: ctx.number(game.stake) })),
        h("td", {}, outcome(t, game)),
        h("td", {}, h("a", { href: `#/game/${game.id}` },
          game.status === "live" ? t("profile.open") : t("profile.replay")))))))
      : h("p", { class: "empty" }, t("profile.no_games"))));

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
  }
}

function stat(label, value) {
  return h("span", { class: "card" }, h("strong", {}, String(value)), " ", h("span", { class: "muted" }, label));
}

function outcome(t, game) {
  if (game.status === "live") return t("profile.live");
  const winner = game.result ? game.result.winner_seat : null;
  if (winner === null || winner === undefined) return t("profile.draw");
  return winner === game.seat ? t("profile.win") : t("profile.loss");
}
