// The rules for players (#14, #24). "Rules" (or ?) opens a one-screen summary: the goal,
// a turn, each card with a drawn example of what it does (cards as the table draws them,
// arrows and chips in SVG), what happens when a sequence is completed, and how to win;
// its numbers are the table's own (chips to win, at least of each colour). "All the
// rules" is one tap further: the game in plain words (GET /api/rules/players,
// i18n/rules/players/<lang>.md, English while a language has none) as blocks of text
// runs, built with elements and text nodes only. No rule ids, no option names: those are
// for developers (the rule book, /api/rules). Then the page's keys.

import { cardElement, icon } from "./cards.js";
import { h, svg } from "./dom.js";
import { catalog, formatNumber, t } from "./messages.js";

const HEADINGS = { h1: "h2", h2: "h3", h3: "h4" };
// The rule book's defaults (R31): a page with no table (the tutorial) shows these.
const DEFAULT_GOAL = { chips_to_win: 5, min_each_colour: 2 };

function runs(list) {
  return list.map((run) => {
    let node = run.code ? h("code", {}, run.text) : document.createTextNode(run.text);
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

/** One block of a rules document as an element. */
export function blockNode(block) {
  if (block.type in HEADINGS) return h(HEADINGS[block.type], {}, ...runs(block.runs));
  if (block.type === "ul") return items(block.items);
  if (block.type === "table") return table(block);
  return h("p", {}, ...runs(block.runs ?? []));
}

/** A rules document's nodes, in a section marked with the language its text is in. */
export function ruleBookNode(book) {
  return h("section", { class: "rule-book", lang: book.language }, ...book.blocks.map(blockNode));
}

// --- the drawn examples ---------------------------------------------------------------

/** A card of the kind `wanted(info)` picks (the catalog's first card of that kind), small. */
function card(wanted, extra = null) {
  const kind = catalog().kinds.find(wanted);
  const el = cardElement(catalog().cards.indexOf(kind.index), { small: true });
  el.removeAttribute("role");
  el.removeAttribute("aria-label");
  if (extra) el.append(extra);
  return el;
}

const numbered = (colour, rank) => (info) => info.colour === colour && info.rank === rank && !info.wild;
const wild = (colour) => (info) => info.colour === colour && info.wild;
const action = (key) => (info) => info.action === key;

const LINE = { fill: "none", stroke: "currentColor", "stroke-width": 2.4, "stroke-linecap": "round", "stroke-linejoin": "round" };

/** A drawn sign between the pictures of an example: an arrow, a cross. */
function sign(name) {
  const paths = {
    arrow: ["M4 12h15m-5-5 5 5-5 5"],
    cross: ["M6 6l12 12M18 6 6 18"],
  }[name];
  return svg("svg", { class: `sign ${name}`, viewBox: "0 0 24 24", width: 20, height: 20, "aria-hidden": "true" }, ...paths.map((d) => svg("path", { d, ...LINE })));
}

/** Seats in a row, one of them passed over (a Skip): three discs and a jump over the middle one. */
function skipped() {
  return svg(
    "svg",
    { class: "sign seats", viewBox: "0 0 60 24", width: 60, height: 24, "aria-hidden": "true" },
    svg("circle", { cx: 8, cy: 17, r: 5, fill: "currentColor" }),
    svg("circle", { cx: 30, cy: 17, r: 5, fill: "none", stroke: "currentColor", "stroke-width": 2, "stroke-dasharray": "2 2" }),
    svg("circle", { cx: 51, cy: 17, r: 5, fill: "currentColor" }),
    svg("path", { d: "M10 10 Q30 -4 48 9m-5-1 5 1-1-5", ...LINE, "stroke-width": 2 }),
  );
}

function chip(colour) {
  return h("span", { class: `chip ${catalog().colours[colour].key}` });
}

function picture(...parts) {
  return h("div", { class: "example", "aria-hidden": "true" }, ...parts);
}

/** A short pile (its cards overlapping) for an example. */
function pile(...cards) {
  return h("span", { class: "mini-pile" }, ...cards);
}

/** Each card's example and its words, in the order of the printed rules. */
function cardRows() {
  const stands = (rank) => h("span", { class: "stands-for" }, formatNumber(rank));
  const rows = [
    ["rules.card.number", picture(pile(card(numbered(0, 1)), card(numbered(0, 2))), sign("arrow"), card(numbered(0, 3)))],
    ["rules.card.wild", picture(pile(card(numbered(1, 1)), card(numbered(1, 2))), sign("arrow"), card(wild(1), stands(3)))],
    ["rules.card.skip", picture(card(action("skip")), skipped())],
    ["rules.card.reverse", picture(card(action("reverse")), h("span", { class: "sign reverse-sign" }, icon("reverse", 22)))],
    ["rules.card.steal_card", picture(card(action("steal_card")), card(numbered(0, 4)), sign("arrow"), h("span", { class: "hand-sign" }, card(numbered(0, 4))))],
    ["rules.card.steal_chip", picture(card(action("steal_chip")), chip(1), sign("arrow"), chip(1))],
    ["rules.card.block", picture(card(action("block")), pile(...[1, 2, 3, 4, 5].map((rank) => card(numbered(1, rank)))), sign("cross"))],
  ];
  return h("ul", { class: "card-rows" }, ...rows.map(([key, drawing]) => h("li", {}, drawing, h("p", {}, t(key)))));
}

/** The one-screen summary, with the numbers of `settings` (a table's) or the defaults. */
export function summaryNode(settings = null) {
  const goal = { count: (settings ?? DEFAULT_GOAL).chips_to_win, each: (settings ?? DEFAULT_GOAL).min_each_colour };
  // One part: its name (its class, rules-<name>; its title, the message rules.<name>.title).
  const part = (name, ...rest) => h("section", { class: `rules-part rules-${name}` }, h("h3", {}, t(`rules.${name}.title`)), ...rest);
  const sequence = picture(pile(...[1, 2, 3, 4, 5].map((rank) => card(numbered(0, rank)))), sign("arrow"), chip(0));
  return h(
    "section",
    { class: "rules-summary" },
    h("h2", {}, t("rules.title")),
    part("goal", sequence, h("p", {}, t("rules.goal", goal))),
    part("turn", h("p", {}, t("rules.turn"))),
    part("cards", cardRows()),
    part("block", h("p", {}, t("rules.block"))),
    part("win", h("p", {}, t("rules.win", goal))),
  );
}

function usingThePage() {
  return h("section", { class: "help-use" }, h("h2", {}, t("page.help.using")), h("p", {}, t("page.help.select")), h("p", {}, t("page.help.keys")));
}

// --- the dialog ------------------------------------------------------------------------

let loading = null;

/** The full rules for players, fetched the first time they are asked for. */
function fullRules() {
  loading ??= (async () => {
    const lang = document.documentElement.lang || "en";
    const response = await fetch(`/api/rules/players?lang=${encodeURIComponent(lang)}`);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return ruleBookNode(await response.json());
  })();
  loading.catch(() => (loading = null));
  return loading;
}

function button(key, onClick, extra = "") {
  const el = h("button", { type: "button", class: `rules-switch ${extra}`.trim() }, t(key));
  el.addEventListener("click", onClick);
  return el;
}

/** Show the summary in `body`, its "All the rules" button first in reach. */
function showSummary(body, settings) {
  body.replaceChildren(summaryNode(settings), button("rules.full", () => showFull(body, settings), "primary"), usingThePage());
  body.dataset.view = "summary";
}

/** Show the full rules in `body` (and a way back to the summary). */
async function showFull(body, settings) {
  const back = () => button("rules.back", () => {
    showSummary(body, settings);
    body.querySelector(".rules-switch")?.focus();
  });
  body.replaceChildren(back(), h("p", { class: "muted" }, t("rules.full_loading")));
  body.dataset.view = "full";
  try {
    body.replaceChildren(back(), await fullRules(), back());
  } catch (error) {
    console.error(`the rules did not load: ${error}`);
    body.replaceChildren(back(), h("p", { class: "error" }, t("page.help.unavailable")));
  }
  body.scrollTop = 0;
  body.closest("dialog").scrollTop = 0;
  body.querySelector(".rules-switch")?.focus();
}

/**
 * Open the rules dialog at its summary (the game goes on meanwhile; nothing is paused);
 * `settings` are the table's (the summary's numbers), or null.
 */
function openHelp(dialog, settings = null) {
  const body = dialog.querySelector(".body");
  showSummary(body, settings);
  if (!dialog.open) dialog.showModal();
  dialog.scrollTop = 0;
  body.scrollTop = 0;
  body.focus({ preventScroll: true });
}

/**
 * Wire the page's rules dialog (#help) to its "Rules" button (#help-open) and its Close;
 * returns what opens it, for the page's ? key. `settings` gives the table's settings
 * (the summary's numbers), or null.
 */
export function setUpHelp(settings = () => null) {
  const dialog = document.querySelector("#help");
  const open = () => openHelp(dialog, settings());
  document.querySelector("#help-open").addEventListener("click", open);
  dialog.querySelector(".close").addEventListener("click", () => dialog.close());
  return open;
}
