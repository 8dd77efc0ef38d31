// The shop (#/shop): avatars and board themes for FUN. Each card shows the item
// (its picture, or a small board in the theme's colours), its price and the one
// thing the player can do with it now: buy (after a confirmation), equip, or
// nothing (equipped). The server decides everything; after each change the page
// shows the shop as the server now sees it, and the header's balance follows.

import { ApiError } from "../api.js";
import { applyTheme } from "../avatar.js";
import { clear, h, s } from "../dom.js";

export async function mount(main, ctx) {
  const { t, api } = ctx;
  let shop = await api.get("/api/shop");
  let busy = false;

  const balance = h("p", { class: "shop-balance", "data-testid": "shop-balance" });
  const avatars = h("div", { class: "shop-grid shop-avatars", "data-testid": "shop-avatars" });
  const themes = h("div", { class: "shop-grid shop-themes", "data-testid": "shop-themes" });
  const dialog = h("dialog", { class: "shop-confirm", "aria-labelledby": "shop-confirm-title" });
  main.append(
    h("section", { class: "shop" },
      h("header", { class: "shop-head" },
        h("div", {}, h("h1", {}, t("shop.title")), h("p", { class: "muted" }, t("shop.intro"))),
        balance),
      h("h2", { id: "shop-avatars" }, t("shop.avatars")), avatars,
      h("h2", { id: "shop-themes" }, t("shop.themes")), themes),
    dialog,
  );
  render();

  function render() {
    clear(balance);
    balance.append(ctx.me && shop.balance !== null
      ? h("span", {}, t("shop.balance"), " ", h("strong", {}, fun(shop.balance)))
      : h("a", { class: "button", href: "#/login" }, t("shop.login_to_buy")));
    clear(avatars);
    clear(themes);
    for (const item of shop.items) (item.kind === "avatar" ? avatars : themes).append(card(item));
  }

  function fun(amount) {
    return t("fun.amount", { amount: ctx.number(amount) });
  }

  function name(item) {
    return t(`shop.item.${item.id.replace(":", ".")}`);
  }

  function card(item) {
    const classes = ["shop-card", item.owned ? "is-owned" : "", item.equipped ? "is-equipped" : ""];
    return h("article", { class: classes.join(" "), "data-item": item.id },
      h("div", { class: "shop-preview" }, item.kind === "avatar"
        ? h("img", { class: "avatar", src: item.image, alt: t("shop.preview_of", { item: name(item) }),
            width: 96, height: 96, loading: "lazy", decoding: "async" })
        : swatch(item)),
      h("h3", {}, name(item)),
      h("p", { class: "shop-price" }, price(item)),
      h("div", { class: "shop-actions" }, action(item)));
  }

  function price(item) {
    if (item.free) return item.id === "avatar:default" ? t("shop.generated") : t("shop.free");
    if (item.owned) return h("span", { class: "shop-owned" }, "✓ ", t("shop.owned"));
    return fun(item.price);
  }

  function action(item) {
    if (item.equipped) return h("span", { class: "shop-equipped" }, t("shop.equipped"));
    if (!ctx.me) return null;
    if (item.owned) {
      return h("button", { type: "button", class: "secondary", onclick: () => equip(item) },
        t("shop.equip"));
    }
    const short = item.price - shop.balance;
    return [
      h("button", { type: "button", disabled: short > 0, onclick: () => confirmBuy(item) }, t("shop.buy")),
      short > 0 ? h("span", { class: "shop-short muted" }, t("shop.need_more", { amount: fun(short) })) : null,
    ];
  }

  function confirmBuy(item) {
    clear(dialog);
    const buyButton = h("button", { type: "button", onclick: () => { dialog.close(); buy(item); } },
      t("shop.confirm_buy", { price: fun(item.price) }));
    dialog.append(
      h("h2", { id: "shop-confirm-title" }, t("shop.confirm_title", { item: name(item) })),
      h("p", {}, t("shop.confirm_text", { price: fun(item.price), balance: fun(shop.balance) })),
      h("div", { class: "shop-actions" },
        buyButton,
        h("button", { type: "button", class: "secondary", onclick: () => dialog.close() }, t("shop.cancel"))));
    dialog.showModal();
    buyButton.focus();
  }

  async function buy(item) {
    await change(async () => {
      const bought = await api.post(`/api/shop/${encodeURIComponent(item.id)}/buy`);
      ctx.setBalance(bought.balance);
      ctx.toast(t("shop.bought", { item: name(item) }));
    }, item);
  }

  async function equip(item) {
    await change(async () => {
      await api.post("/api/me/equip", { [item.kind]: item.id });
      await ctx.refreshMe();
      ctx.toast(t("shop.now_equipped", { item: name(item) }));
    }, item);
  }

  // One change at a time; whatever happens, show the shop as the server now has it.
  async function change(work, item) {
    if (busy) return;
    busy = true;
    try {
      await work();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      ctx.toast(explain(error, item), "bad");
    } finally {
      try {
        shop = await api.get("/api/shop");
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
      }
      busy = false;
      render();
    }
  }

  function explain(error, item) {
    const vars = { item: name(item), price: fun(item.price) };
    const known = {
      insufficient_funds: "shop.error.funds", already_owned: "shop.error.owned",
      login_required: "shop.error.login", not_owned: "shop.error.not_owned", offline: "net.offline",
    };
    return known[error.code] ? t(known[error.code], vars) : error.message;
  }

  // A purchase or an equip in another tab: show the shop as the server now has it.
  const onUserFrame = async ({ detail: frame }) => {
    const changed = frame.t === "me" || (frame.t === "notification" && frame.d.kind === "purchase");
    if (!changed || busy) return;
    try {
      shop = await api.get("/api/shop");
      render();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
    }
  };
  window.addEventListener("sheshbesh:user-frame", onUserFrame);
  return () => window.removeEventListener("sheshbesh:user-frame", onUserFrame);
}

// A small board in a theme's colours: a quarter of a backgammon board with two
// checkers beside a corner of a draughts board, drawn with the real boards' classes
// (css/board.css) so a theme repaints it exactly as it repaints a game.
function swatch(item) {
  const points = [];
  for (let i = 0; i < 6; i++) {
    const x = 8 + i * 14;
    const tone = i % 2 ? "sb-point-dark" : "sb-point-light";
    const other = i % 2 ? "sb-point-light" : "sb-point-dark";
    points.push(s("polygon", { class: tone, points: `${x},6 ${x + 14},6 ${x + 7},44` }));
    points.push(s("polygon", { class: other, points: `${x},90 ${x + 14},90 ${x + 7},52` }));
  }
  const squares = [];
  for (let row = 0; row < 6; row++) {
    for (let col = 0; col < 4; col++) {
      const dark = (row + col) % 2 === 1;
      squares.push(s("rect", { x: 104 + col * 14, y: 6 + row * 14, width: 14, height: 14,
        class: dark ? "sb-square-dark" : "sb-square-light" }));
    }
  }
  const checker = (side, cx, cy) => s("g", { class: `sb-${side}` },
    s("circle", { class: "sb-checker-body", cx, cy, r: 6.4 }),
    s("circle", { class: "sb-checker-ring", cx, cy, r: 3.8 }));
  const piece = (side, cx, cy) => s("g", { class: `sb-piece sb-${side}` },
    s("circle", { class: "sb-piece-body", cx, cy, r: 5.6 }));
  const svg = s("svg", { viewBox: "0 0 166 96", class: "sb-svg", "aria-hidden": "true", focusable: "false" },
    s("rect", { class: "sb-case", x: 0, y: 0, width: 166, height: 96, rx: 8 }),
    s("rect", { class: "sb-wood", x: 3, y: 3, width: 160, height: 90, rx: 5 }),
    s("rect", { class: "sb-felt", x: 8, y: 6, width: 84, height: 84 }),
    s("rect", { class: "sb-bar", x: 92, y: 3, width: 9, height: 90 }),
    points, squares,
    checker("W", 15, 13), checker("W", 15, 26), checker("B", 71, 83), checker("B", 43, 83),
    piece("B", 125, 13), piece("W", 139, 83), piece("W", 111, 55));
  const frame = h("div", { class: "shop-swatch" }, h("div", { class: "sb-board" }, svg));
  return applyTheme(frame, item.id);
}
