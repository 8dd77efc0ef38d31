// The rules page (#/rules, #/rules?rule=BG-12): the club's own copy of RULES.md, the
// contract every game is played by, so a player can read the rule that decided his
// game. The text is English; other languages say so above it.

import { clear, h } from "../dom.js";
import { language } from "../i18n.js";
import { anchorOf, renderRules } from "../rulesdoc.js";

export async function mount(main, ctx) {
  const { t } = ctx;
  const wanted = ctx.params.get("rule");
  const body = h("article", { class: "rules", "data-testid": "rules", dir: "ltr", lang: "en" });
  main.append(h("section", { class: "card" },
    h("h1", {}, t("rules.title")),
    language() === "en" ? null : h("p", { class: "notice", "data-testid": "rules-english" }, t("rules.english_only")),
    body));
  const response = await fetch("/static/rules/RULES.md");
  if (!response.ok) {
    clear(body).append(h("p", { class: "bad" }, t("rules.unavailable")));
    return;
  }
  body.append(...renderRules(await response.text()));
  if (wanted) {
    const target = document.getElementById(anchorOf(wanted));
    if (target) {
      target.classList.add("is-target");
      target.scrollIntoView({ block: "start" });
    } else {
      body.prepend(h("p", { class: "notice", "data-testid": "rules-missing" }, t("rules.no_such_rule", { id: wanted })));
    }
  }
}
