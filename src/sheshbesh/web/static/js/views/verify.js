// Verify dice (PL-2, docs/fair-dice.md): paste a record, open a file or give a game
// number, and every roll is recomputed here, in the browser, from the revealed
// seeds (Web Crypto's SHA-256 and HMAC-SHA256, see ../fairdice.js). Nothing is
// sent anywhere: the server is only asked for the record when a game number is
// given. Bad input is a message on the page, never an exception.

import { clear, h } from "../dom.js";
import { NoWebCrypto, verifyRecord } from "../fairdice.js";
import { pluralKey } from "../i18n.js";

const GAME_ID = /^[\w-]{1,40}$/;
const COLUMNS = ["roll", "where", "nonce", "seed", "commit", "dice", "recomputed", "check"];

// The page's own stylesheet, in case the page that mounts the view does not link it.
function ensureStylesheet() {
  if (document.querySelector('link[rel=stylesheet][href$="/css/verify.css"]')) return;
  document.head.append(h("link", { rel: "stylesheet", href: "/static/css/verify.css" }));
}

export async function mount(main, ctx) {
  ensureStylesheet();
  const { api, t } = ctx;
  const params = ctx.params || new URLSearchParams();
  const count = (value) => (ctx.number ? ctx.number(value) : String(value));
  let latest = 0; // only the newest check may draw its result

  const gameInput = h("input", {
    id: "verify-game", name: "game", type: "text", autocomplete: "off", spellcheck: "false", dir: "ltr",
    placeholder: t("verify.game_placeholder"), "data-testid": "verify-game",
  });
  const text = h("textarea", {
    id: "verify-text", name: "record", rows: 5, spellcheck: "false", autocomplete: "off", dir: "ltr",
    placeholder: t("verify.paste_placeholder"), "data-testid": "verify-text",
    oninput: () => { gameInput.value = ""; },
  });
  const file = h("input", {
    id: "verify-file", name: "file", type: "file", accept: ".json,application/json,text/plain",
    "data-testid": "verify-file", onchange: openFile,
  });
  const result = h("div", { class: "verify-result", "aria-live": "polite", "data-testid": "verify-result" });

  main.append(h("section", { class: "verify", "aria-labelledby": "verify-title" },
    h("h1", { id: "verify-title" }, t("verify.title")),
    h("p", { class: "verify-intro" }, t("verify.intro")),
    h("div", { class: "verify-sources" },
      h("form", { class: "verify-source", onsubmit: submitGame, "data-testid": "verify-by-game" },
        h("label", { for: "verify-game" }, t("verify.game_label")),
        h("div", { class: "verify-inline" },
          gameInput,
          h("button", { type: "submit", "data-testid": "verify-open" }, t("verify.open_game")))),
      h("form", { class: "verify-source", onsubmit: submitText, "data-testid": "verify-by-text" },
        h("label", { for: "verify-text" }, t("verify.paste_label")),
        text,
        h("div", { class: "verify-inline verify-actions" },
          h("label", { class: "verify-file", for: "verify-file" },
            h("span", {}, t("verify.file_label")), file),
          h("button", { type: "submit", "data-testid": "verify-submit" }, t("verify.verify"))))),
    result));

  const wanted = (params.get("game") || "").trim();
  if (wanted) {
    gameInput.value = wanted;
    await checkGame(wanted);
  }

  // --- sources ---------------------------------------------------------------------------

  async function submitGame(event) {
    event.preventDefault();
    await checkGame(gameInput.value.trim());
  }

  async function submitText(event) {
    event.preventDefault();
    await checkText(text.value, { kind: "text" });
  }

  async function openFile() {
    const chosen = file.files && file.files[0];
    if (!chosen) return;
    const run = ++latest;
    let content;
    try {
      content = await chosen.text();
    } catch {
      if (run === latest) message("error", "read_failed", t("verify.error.read_failed", { name: chosen.name }));
      return;
    } finally {
      file.value = "";
    }
    if (run !== latest) return;
    gameInput.value = "";
    text.value = content;
    await checkText(content, { kind: "file", name: chosen.name });
  }

  async function checkGame(id) {
    const run = ++latest;
    if (!id) return message("error", "no_game", t("verify.error.no_game"));
    if (!GAME_ID.test(id)) return message("error", "bad_game", t("verify.error.bad_game", { id }));
    message("busy", "loading", t("verify.loading", { id }));
    let record;
    try {
      record = await api.get(`/api/games/${encodeURIComponent(id)}/record`);
    } catch (error) {
      if (run !== latest) return;
      if (error && error.status === 404) return message("error", "not_found", t("verify.error.not_found", { id }));
      if (error && error.status === 0) return message("error", "offline", t("verify.error.offline"));
      return message("error", "load_failed",
        t("verify.error.load_failed", { id, message: (error && error.message) || String(error) }));
    }
    if (run !== latest) return;
    if (location.hash.startsWith("#/verify")) {
      history.replaceState(history.state, "", `#/verify?game=${encodeURIComponent(id)}`);
    }
    text.value = JSON.stringify(record, null, 1);
    await check(run, record, { kind: "game", id });
  }

  async function checkText(content, source) {
    const run = ++latest;
    if (!content.trim()) return message("error", "empty", t("verify.error.empty"));
    let record;
    try {
      record = JSON.parse(content);
    } catch (error) {
      return message("error", "not_json", t("verify.error.not_json", { detail: error.message }));
    }
    await check(run, record, source);
  }

  // --- the check --------------------------------------------------------------------------

  async function check(run, record, source) {
    message("busy", "checking", t("verify.checking"));
    let verdict;
    try {
      verdict = await verifyRecord(record);
    } catch (error) {
      if (run !== latest) return;
      if (error instanceof NoWebCrypto) return message("error", "no_crypto", t("verify.error.no_crypto"));
      return message("error", "failed", t("verify.error.failed", { detail: String(error && error.message) }));
    }
    if (run !== latest) return;
    if (verdict.error) {
      return message("error", verdict.error.code,
        translated(`verify.error.${verdict.error.code}`, verdict.error.vars, verdict.error.message));
    }
    if (verdict.noDice) return message("info", "no_dice", t("verify.no_dice"));
    if (verdict.honest && !verdict.rollsChecked) return message("info", "no_rolls", t("verify.no_rolls"));
    clear(result).append(report(verdict, source));
  }

  function message(kind, code, words) {
    clear(result).append(h("p", {
      class: `verify-message verify-${kind}`, role: kind === "error" ? "alert" : "status",
      "data-kind": kind, "data-code": code, "data-testid": "verify-message",
    }, words));
  }

  // --- the report ------------------------------------------------------------------------

  function report(verdict, source) {
    const rolls = plural("verify.roll_count", verdict.rollsChecked);
    const sourceLine = source.kind === "game" ? t("verify.source_game", { id: source.id })
      : source.kind === "file" ? t("verify.source_file", { name: source.name })
        : t("verify.source_text");
    const headline = h("div", {
      class: "verify-verdict", "data-honest": String(verdict.honest), "data-testid": "verdict",
      "data-rolls": verdict.rollsChecked, "data-problems": verdict.problems.length,
    },
    h("span", { class: "verify-mark", "aria-hidden": "true" }, verdict.honest ? "✓" : "✗"),
    h("div", { class: "verify-verdict-text" },
      h("h2", {}, verdict.honest ? t("verify.honest") : t("verify.not_honest")),
      h("p", {}, verdict.honest
        ? t("verify.honest_detail", { rolls })
        : t("verify.not_honest_detail", { problems: plural("verify.problem_count", verdict.problems.length), rolls })),
      h("p", { class: "verify-source-line" }, sourceLine)));

    const rows = new Map();
    const jump = (index) => {
      const row = rows.get(index);
      if (!row) return;
      row.scrollIntoView({ block: "center" });
      row.focus({ preventScroll: true });
    };
    const problems = verdict.honest ? null : h("ul", { class: "verify-problems", "data-testid": "verify-problems" },
      verdict.issues.map((issue) => h("li", { "data-index": issue.index ?? "", "data-roll": issue.roll ?? "" },
        issue.index === null ? problemText(issue, true)
          : h("button", { type: "button", class: "verify-jump", onclick: () => jump(issue.index) },
            problemText(issue, true)))));

    // Every row repeats the column names (narrow screens show them as labels): look them up once.
    const words = Object.fromEntries(COLUMNS.map((name) => [name, t(`verify.col.${name}`)]));
    words.ok = t("verify.ok");
    words.bad = t("verify.bad");
    const body = h("tbody", {}, verdict.rolls.map((entry) => {
      const row = rollRow(entry, words);
      rows.set(entry.index, row);
      return row;
    }));
    const table = h("table", { class: "verify-table", "data-testid": "verify-table" },
      h("caption", {}, t("verify.table_caption", { rolls })),
      h("thead", {}, h("tr", {}, COLUMNS.map((name) =>
        h("th", { scope: "col", class: name === "roll" ? "num" : null }, words[name])))),
      body);

    const filter = verdict.honest ? null : h("label", { class: "verify-filter" },
      h("input", {
        type: "checkbox", "data-testid": "verify-only-bad",
        onchange: (event) => table.classList.toggle("verify-only-bad", event.target.checked),
      }),
      h("span", {}, t("verify.only_problems")));

    return h("div", { class: "verify-report" }, headline, problems, filter,
      h("div", { class: "verify-scroll" }, table));
  }

  function rollRow(entry, words) {
    const cell = (name, attrs, ...children) => h("td", {
      "data-label": words[name], ...attrs, class: `verify-c-${name} ${attrs.class || ""}`.trim(),
    }, ...children);
    const commit = entry.published ?? entry.commit;
    return h("tr", {
      class: entry.ok ? "verify-ok" : "verify-bad", tabindex: entry.ok ? null : "-1",
      "data-ok": String(entry.ok), "data-roll": entry.roll ?? "", "data-index": entry.index,
    },
    cell("roll", { class: "num" }, entry.roll ?? "—"),
    cell("where", {},
      where(entry.index, entry.seq),
      entry.type ? h("code", { class: "verify-type" }, entry.type) : null),
    cell("nonce", {}, hexish(entry.nonce, 14)),
    cell("seed", {}, hexish(entry.seed, 10)),
    cell("commit", {}, hexish(commit, 10)),
    cell("dice", { "data-testid": "dice" }, diceView(entry.dice, null)),
    cell("recomputed", { "data-testid": "recomputed" }, diceView(entry.recomputed, entry.dice)),
    cell("check", {}, entry.ok
      ? h("span", { class: "verify-pass" }, "✓ ", words.ok)
      : h("div", {},
        h("span", { class: "verify-fail" }, "✗ ", words.bad),
        h("ul", { class: "verify-roll-problems" },
          entry.issues.map((issue) => h("li", {}, problemText(issue, false)))))));
  }

  // --- pieces ---------------------------------------------------------------------------

  function hexish(value, keep) {
    if (value === null || value === undefined) return h("span", { class: "verify-none" }, "—");
    const full = String(value);
    const shown = [...full].length > keep + 1 ? `${[...full].slice(0, keep).join("")}…` : full;
    return h("code", { class: "verify-hex", title: full, dir: "ltr" }, shown);
  }

  function diceView(dice, published) {
    if (dice === null || dice === undefined) return h("span", { class: "verify-none" }, "—");
    if (!Array.isArray(dice)) return h("code", { dir: "ltr" }, JSON.stringify(dice));
    return h("span", { class: "verify-dice", dir: "ltr" }, dice.map((die, i) => h("span", {
      class: published && Array.isArray(published) && published[i] !== die ? "verify-die verify-die-off" : "verify-die",
    }, typeof die === "number" ? String(die) : JSON.stringify(die))));
  }

  function where(index, seq) {
    if (index === null || index === undefined) return "";
    return seq === null || seq === undefined
      ? t("verify.where_no_seq", { index })
      : t("verify.where", { index, seq });
  }

  function problemText(issue, withWhere) {
    const vars = { ...issue.vars };
    if (vars.at && typeof vars.at === "object") vars.at = where(vars.at.index, vars.at.seq);
    if (issue.code === "opening_starter") for (const name of ["expected", "got"]) vars[name] = side(vars[name]);
    const english = issue.text.replace(/^event \d+( \(seq -?\d+\))?: (roll -?\d+: )?/, "");
    const words = translated(`verify.problem.${issue.code}`, vars, english);
    const inRoll = issue.roll !== null && issue.roll !== undefined;
    if (!withWhere || issue.index === null || issue.index === undefined) {
      return inRoll && withWhere ? t("verify.in_roll", { roll: issue.roll, problem: words }) : words;
    }
    const place = where(issue.index, issue.seq);
    return inRoll
      ? t("verify.at_roll", { where: place, roll: issue.roll, problem: words })
      : t("verify.at", { where: place, problem: words });
  }

  // A side of fairdice.js's vars ("W", "B", null for nobody) in the reader's words.
  function side(letter) {
    if (letter === "W") return t("board.white");
    if (letter === "B") return t("board.black");
    return letter === null || letter === undefined ? t("verify.nobody") : letter;
  }

  function translated(key, vars, english) {
    const words = t(key, vars);
    return words === key ? english : words;
  }

  function plural(base, n) {
    return t(pluralKey(base, n), { count: count(n) });
  }
}
