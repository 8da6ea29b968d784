// The in-game help (#14): how to use the page, from the messages, then the rule book in
// the reader's language (GET /api/rules, i18n/rules/<lang>.md, English while a language
// has none) as blocks of text runs, built with elements and text nodes only.

import { h } from "./dom.js";
import { t } from "./messages.js";

const HEADINGS = { h1: "h2", h2: "h3", h3: "h4" };

// A code run (an option's name and value, `two_player_reverses=false`) may break after
// its _ = / . , rather than inside a word, which a phone would otherwise do (#14).
function codeNode(text) {
  const parts = text.split(/(?<=[_=/.,])/);
  return h("code", {}, ...parts.flatMap((part, i) => (i ? [h("wbr"), part] : [part])));
}

function runs(list) {
  return list.map((run) => {
    let node = run.code ? codeNode(run.text) : document.createTextNode(run.text);
    if (run.bold) node = h("strong", {}, node);
    return node;
  });
}

function items(list) {
  return h("ul", {}, ...list.map((item) => h("li", {}, ...runs(item.runs), item.items.length ? items(item.items) : null)));
}

function table(block) {
  const row = (cells, tag) => h("tr", {}, ...cells.map((cell) => h(tag, {}, ...runs(cell))));
  // Its own horizontal scroller: a narrow phone scrolls the table, never breaks a word.
  const grid = h("table", { class: "rule-table" }, h("thead", {}, row(block.header, "th")), h("tbody", {}, ...block.rows.map((cells) => row(cells, "td"))));
  return h("div", { class: "rule-table-wrap" }, grid);
}

/** One block of the rule book as an element. */
export function blockNode(block) {
  if (block.type in HEADINGS) return h(HEADINGS[block.type], {}, ...runs(block.runs));
  if (block.type === "ul") return items(block.items);
  if (block.type === "table") return table(block);
  return h("p", {}, ...runs(block.runs ?? []));
}

/** The rule book's nodes, in a section marked with the language its text is in. */
export function ruleBookNode(book) {
  return h("section", { class: "rule-book", lang: book.language }, ...book.blocks.map(blockNode));
}

function usingThePage() {
  return h("section", { class: "help-use" }, h("h2", {}, t("page.help.using")), h("p", {}, t("page.help.select")), h("p", {}, t("page.help.keys")));
}

let loading = null;

// The rule book is fetched the first time the help opens.
function fill(body) {
  loading ??= (async () => {
    const lang = document.documentElement.lang || "en";
    body.replaceChildren(usingThePage(), h("p", { class: "muted" }, t("page.help.loading")));
    try {
      const response = await fetch(`/api/rules?lang=${encodeURIComponent(lang)}`);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      body.replaceChildren(usingThePage(), ruleBookNode(await response.json()));
    } catch (error) {
      console.error(`the rule book did not load: ${error}`);
      body.replaceChildren(usingThePage(), h("p", { class: "error" }, t("page.help.unavailable")));
      loading = null;
    }
  })();
  return loading;
}

/** Open the help dialog at its top (the game goes on meanwhile; nothing is paused). */
export function openHelp(dialog) {
  const body = dialog.querySelector(".body");
  const done = fill(body);
  if (!dialog.open) dialog.showModal();
  const toTop = () => {
    dialog.scrollTop = 0;
    body.scrollTop = 0;
  };
  body.focus({ preventScroll: true });
  toTop();
  done.then(toTop);
}
