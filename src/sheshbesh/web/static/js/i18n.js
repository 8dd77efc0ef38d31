// Translations: every string on the page comes from a catalog (static/i18n/LANG.json).
// t("lobby.accept") returns the text; {name} placeholders are filled from vars.
// Persian switches the whole page to right-to-left.

export const LANGUAGES = {
  en: "English", ru: "Русский", pt: "Português", fa: "فارسی", el: "Ελληνικά", cy: "Cymraeg",
};
const RTL = new Set(["fa"]);
let catalog = {};
let fallback = {};
let current = "en";

async function load(lang) {
  const response = await fetch(`/static/i18n/${lang}.json`);
  if (!response.ok) throw new Error(`no catalog for ${lang}`);
  return response.json();
}

export function chosenLanguage() {
  const saved = localStorage.getItem("lang");
  if (saved && LANGUAGES[saved]) return saved;
  const browser = (navigator.language || "en").slice(0, 2);
  return LANGUAGES[browser] ? browser : "en";
}

export async function setLanguage(lang) {
  if (!LANGUAGES[lang]) lang = "en";
  if (!Object.keys(fallback).length) fallback = await load("en");
  catalog = lang === "en" ? fallback : await load(lang);
  current = lang;
  localStorage.setItem("lang", lang);
  document.documentElement.lang = lang;
  document.documentElement.dir = RTL.has(lang) ? "rtl" : "ltr";
}

export function language() {
  return current;
}

export function t(key, vars = {}) {
  let text = catalog[key] ?? fallback[key];
  if (text === undefined) {
    console.warn(`missing translation: ${key}`);
    text = key;
  }
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in vars ? String(vars[name]) : `{${name}}`));
}

export function number(value) {
  return new Intl.NumberFormat(current).format(value);
}
