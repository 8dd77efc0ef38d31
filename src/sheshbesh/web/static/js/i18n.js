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

/**
 * The key of the form a counted text takes for n: `base.one`, `base.few`, … as
 * Intl.PluralRules names n's category in the page's language ("1 pt", "2 pts"; Russian
 * "1 очко", "2 очка", "5 очков"), else that catalog's `base.other`, else English's form.
 */
export function pluralKey(base, n) {
  const own = [`${base}.${rulesOf(current).select(n)}`, `${base}.other`];
  const english = [`${base}.${rulesOf("en").select(n)}`, `${base}.other`];
  return own.find((key) => key in catalog) ?? english.find((key) => key in fallback) ?? english[0];
}

/** A counted text: t() of the form n takes (`pluralKey`), its {placeholders} from vars. */
export function plural(base, n, vars = {}) {
  return t(pluralKey(base, n), vars);
}

const pluralRules = new Map();
function rulesOf(lang) {
  if (!pluralRules.has(lang)) pluralRules.set(lang, new Intl.PluralRules(lang));
  return pluralRules.get(lang);
}

/** A number in the page's language: its digits, separators and the place of its sign. */
export function number(value, options = {}) {
  return new Intl.NumberFormat(current, options).format(value);
}

/**
 * A score of two, "2–1", in the order the page names the two players. On a
 * right-to-left page the pair is isolated left to right (LRI…PDI), as the players'
 * (Latin) names beside it read, so the first number stays the first player's.
 */
export function pair(first, second) {
  const text = `${number(first)}–${number(second)}`;
  return RTL.has(current) ? `\u2066${text}\u2069` : text;
}

/** A change, its sign always written where the language writes it: "+17", "-3". */
export function signed(value, digits = 0) {
  return number(value, { signDisplay: "exceptZero", minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** A rating as players read one: a whole number, "?" while provisional (lichess: "1500?"). */
export function rating(value) {
  return `${number(Math.round(value.rating), { useGrouping: false })}${value.provisional ? "?" : ""}`;
}

/** Seconds on a clock, as m:ss in the page's digits. */
export function clock(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  const minutes = number(Math.floor(whole / 60), { useGrouping: false });
  return `${minutes}:${number(whole % 60, { minimumIntegerDigits: 2 })}`;
}
