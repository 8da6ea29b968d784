// Building DOM nodes without markup. Text (a display name, a log line) always goes in as
// a text node, never through an HTML parser, so it can never become an element, an
// event handler or a script (#12). No script of the client hands a string to the HTML
// parser at all; tests/test_static_client.py keeps it that way.

const SVG_NS = "http://www.w3.org/2000/svg";

function setAttributes(el, attrs) {
  for (const [name, value] of Object.entries(attrs)) {
    // Inline handlers and inline styles are refused by the page's CSP anyway.
    if (/^on/i.test(name) || name.toLowerCase() === "style") throw new Error(`no ${name} attribute`);
    if (value !== null && value !== undefined && value !== false) el.setAttribute(name, String(value));
  }
}

/**
 * An HTML element: `h("span", { class: "count" }, "3/5")`. Children are nodes or text
 * (strings and numbers become text nodes); null, undefined and false are left out.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  setAttributes(el, attrs);
  el.append(...children.filter((child) => child !== null && child !== undefined && child !== false));
  return el;
}

/** An SVG element, as `h` makes HTML ones. */
export function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  setAttributes(el, attrs);
  el.append(...children);
  return el;
}

/**
 * Nodes from data: a string is text; an array is `[tag, attrs?, ...children]` (attrs a
 * plain object), its children built the same way. Used for the static rules text.
 */
export function build(node) {
  if (!Array.isArray(node)) return document.createTextNode(String(node));
  const [tag, ...rest] = node;
  const attrs = rest.length && rest[0] !== null && typeof rest[0] === "object" && !Array.isArray(rest[0]) ? rest.shift() : {};
  return h(tag, attrs, ...rest.map(build));
}

/** Whether a whole word of `el` (a `.whole` span) is wider than `el`'s box. */
function tooWide(el) {
  const room = el.clientWidth;
  return [...el.querySelectorAll(".whole")].some((word) => word.getBoundingClientRect().width > room + 0.5);
}

/**
 * Text that keeps its words whole in a box that may be narrow (the table's name in a
 * phone's header: "«Ջրասամույր» սեղան", "Meja Lumba-lumba"). Each run of non-spaces, with
 * its quotes and hyphens, is one unbreakable span (`.whole`); lines break only between
 * them. If the widest is wider than the box, the text is made smaller a step at a time
 * (`data-shrink` 1..steps, sizes in app.css) until it fits, and it is fitted again
 * whenever the box's width changes (a turned phone, another language).
 */
export function setWholeWords(el, text, steps = 3) {
  el.replaceChildren(...wholeWords(text));
  fitWords(el, steps);
}

/**
 * `text` as nodes whose words cannot break inside: each run of non-spaces is a `.whole`
 * span, the spaces between stay text. With `hyphens`, a hyphenated word may still break
 * after its hyphens ("Steal-" "a-" "Card" on a card's narrow label), never elsewhere.
 */
export function wholeWords(text, { hyphens = false } = {}) {
  const nodes = [];
  for (const part of String(text).split(/(\s+)/u)) {
    if (part === "") continue;
    if (/^\s+$/u.test(part)) nodes.push(part);
    else for (const piece of hyphens ? part.match(/[^-]*-+|[^-]+$/gu) : [part]) nodes.push(h("span", { class: "whole" }, piece));
  }
  return nodes;
}

/**
 * The words on the cards under `root` (an action's or a wild's label) made smaller a
 * step at a time (`data-shrink` 1..3, app.css) where a word is wider than its card: a
 * long word ("ՀԱԿԱԴԱՐՁ" on a seven-card hand of a small phone) stays whole on its card.
 */
export function fitCardWords(root) {
  for (const label of root.querySelectorAll(".card .label")) shrinkToFit(label, 3);
}

/** `el`'s `data-shrink`: the first step (0..steps) at which no whole word is too wide. */
function shrinkToFit(el, steps) {
  delete el.dataset.shrink;
  for (let step = 1; step <= steps && tooWide(el); step++) el.dataset.shrink = String(step);
}

function fitWords(el, steps) {
  shrinkToFit(el, steps);
  if (!el.fitWatch && typeof ResizeObserver === "function") {
    let width = el.clientWidth;
    el.fitWatch = new ResizeObserver(() => {
      if (el.clientWidth === width) return;
      width = el.clientWidth;
      fitWords(el, steps);
    });
    el.fitWatch.observe(el);
  }
}
