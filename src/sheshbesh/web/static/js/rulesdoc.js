// RULES.md drawn as a page: the small part of Markdown the rules use (headings, lists
// with nested items, tables, rules, paragraphs; **bold**, *italic* and `code`), built
// with dom.js so the text can never become markup. Every rule (a list item opening
// with its ID in bold, "**BG-12**") gets the anchor "rule-BG-12", and every rule ID
// in the text links to its rule.

import { append, h } from "./dom.js";

const RULE_ID = /\b((?:GEN|BF|NS|BG|SN|TN|LN|CN|PK|RB|JQ|CH|DR|PL)-E?\d+)\b/g;
const INLINE = /(`[^`]+`|\*\*[^*]+\*\*|\*[^*\s][^*]*\*)/;

/** The anchor of a rule: "rule-BG-12". */
export function anchorOf(id) {
  return `rule-${id}`;
}

function linked(text) {
  const out = [];
  let at = 0;
  for (const found of text.matchAll(RULE_ID)) {
    out.push(text.slice(at, found.index));
    out.push(h("a", { href: `#/rules?rule=${found[1]}`, class: "rule-ref" }, found[1]));
    at = found.index + found[0].length;
  }
  out.push(text.slice(at));
  return out;
}

function inline(text) {
  return text.split(INLINE).filter((part) => part !== "").map((part) => {
    if (part.startsWith("`")) return h("code", {}, part.slice(1, -1));
    if (part.startsWith("**")) return h("strong", {}, linked(part.slice(2, -2)));
    if (part.startsWith("*") && part.length > 2) return h("em", {}, linked(part.slice(1, -1)));
    return linked(part);
  });
}

function ruleOf(text) {
  const found = /^\*\*((?:[A-Z]{2,3})-E?\d+)\b/.exec(text);
  return found ? found[1] : null;
}

const ITEM = /^( *)(- |\d+\. )(.*)$/;

function list(lines) {
  // lines: the raw lines of one list; items start at the list's own indent
  const indent = ITEM.exec(lines[0])[1].length;
  const ordered = /\d/.test(ITEM.exec(lines[0])[2]);
  const el = h(ordered ? "ol" : "ul");
  let item = null;
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i];
    const found = ITEM.exec(line);
    if (found && found[1].length === indent) {
      item = { text: [found[3]], children: [] };
      el.append(render(item));
      continue;
    }
    if (found && found[1].length > indent) {  // a nested list: to the next line at our indent
      let end = i;
      while (end < lines.length) {
        const next = ITEM.exec(lines[end]);
        if (next && next[1].length <= indent) break;
        end += 1;
      }
      el.lastChild.append(list(lines.slice(i, end)));
      i = end - 1;
      continue;
    }
    append(el.lastChild.querySelector(":scope > .text"), [" ", inline(line.trim())]);
  }
  return el;

  function render(entry) {
    const text = entry.text.join(" ");
    const rule = ruleOf(text);
    const li = h("li", rule ? { id: anchorOf(rule), dataset: { rule } } : {},
      h("span", { class: "text" }, inline(text)));
    return li;
  }
}

function table(lines) {
  const cells = (line) => line.replace(/^\||\|$/g, "").split("|").map((c) => c.trim());
  const [head, , ...rows] = lines;
  return h("div", { class: "table-scroll" }, h("table", {},
    h("thead", {}, h("tr", {}, cells(head).map((c) => h("th", {}, inline(c))))),
    h("tbody", {}, rows.map((row) => h("tr", {}, cells(row).map((c) => h("td", {}, inline(c))))))));
}

/** The document's elements, in order. */
export function renderRules(source) {
  const lines = source.replace(/\r\n/g, "\n").split("\n");
  const out = [];
  let i = 0;
  const take = (test) => {
    const start = i;
    while (i < lines.length && test(lines[i])) i += 1;
    return lines.slice(start, i);
  };
  while (i < lines.length) {
    const line = lines[i];
    const heading = /^(#{1,4}) (.*)$/.exec(line);
    if (line.trim() === "") {
      i += 1;
    } else if (heading) {
      const level = Math.min(heading[1].length + 1, 5);  // the page has its own h1
      const id = `section-${heading[2].replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-|-$/g, "").toLowerCase()}`;
      out.push(h(`h${level}`, { id }, inline(heading[2])));
      i += 1;
    } else if (/^-{3,}$/.test(line.trim())) {
      out.push(h("hr"));
      i += 1;
    } else if (line.startsWith("|")) {
      out.push(table(take((l) => l.startsWith("|"))));
    } else if (ITEM.test(line)) {
      out.push(list(take((l) => ITEM.test(l) || /^ {2,}\S/.test(l))));
    } else {
      out.push(h("p", {}, inline(take((l) => l.trim() !== "" && !/^(#|\||- |-{3})/.test(l)).join(" "))));
    }
  }
  return out;
}
