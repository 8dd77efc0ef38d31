// Avatars and board themes, for every page that shows a player or a board.
//
// avatarImg(user, size) is the player's picture as an <img>: the server draws it
// (a generated pattern, or the emblem he equipped from the shop) and the user JSON
// carries its URL with a version, so the browser may cache it for good.
// applyTheme(element, themeId) repaints every board inside element: the theme
// classes (.sb-theme-walnut…) set the board's colour custom properties
// (css/board.css); their stylesheet is generated from the shop's catalogue
// (/api/shop/themes.css) and linked here the first time a theme is applied.

import { h } from "./dom.js";
import { t } from "./i18n.js";

export const DEFAULT_THEME = "theme:classic";
const THEME_CLASS = "sb-theme-";
const THEMES_CSS = "/api/shop/themes.css";

// The picture's URL: the versioned one from the user JSON, else the plain one by name.
export function avatarUrl(user) {
  if (user && user.avatar) return user.avatar;
  return `/api/avatars/${encodeURIComponent((user && user.username) || "")}.svg`;
}

// An <img> of the player's avatar, size CSS pixels square. The alt names him; pass
// { decorative: true } where his name is written right beside it (alt="").
export function avatarImg(user, size = 32, { decorative = false } = {}) {
  const name = (user && user.username) || "";
  return h("img", {
    class: "avatar",
    src: avatarUrl(user),
    alt: decorative ? "" : t("shop.avatar_of", { name }),
    width: size,
    height: size,
    loading: "lazy",
    decoding: "async",
    draggable: "false",
  });
}

// The class of a theme on a board's container: "theme:walnut" → "sb-theme-walnut"
// (null for the classic colours, which css/board.css has as its defaults).
export function themeClass(themeId) {
  if (!themeId || themeId === DEFAULT_THEME) return null;
  const slug = String(themeId).replace(/^theme:/, "");
  return /^[a-z]+$/.test(slug) ? THEME_CLASS + slug : null;
}

// Repaint the boards inside element (or element itself, if it is a .sb-board) with a
// theme; null or "theme:classic" restores the classic colours. Returns element.
export function applyTheme(element, themeId) {
  if (!element) return element;
  for (const name of [...element.classList]) {
    if (name.startsWith(THEME_CLASS)) element.classList.remove(name);
  }
  const name = themeClass(themeId);
  if (name) {
    linkThemes();
    element.classList.add(name);
  }
  return element;
}

function linkThemes() {
  if (document.querySelector(`link[href="${THEMES_CSS}"]`)) return;
  document.head.append(h("link", { rel: "stylesheet", href: THEMES_CSS }));
}
