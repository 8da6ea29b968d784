// Cards as DOM elements. What a card id is (its colour, rank, wild or action) comes
// from the engine's catalog (/api/catalog), its name from the messages (#13).

import { h, svg, wholeWords } from "./dom.js";
import { catalog, t } from "./messages.js";
import { kindInfo, kindName, kindOf } from "./words.js";

/** The CSS class of a colour index ("blue", "red"): the catalog's key. */
export function colourClass(colour) {
  return catalog().colours[colour].key;
}

// Icon shapes (24x24 viewBox) by the catalog's action key, and one for wilds:
// [tag, attributes] each, drawn in the text colour.
const LINE = { fill: "none", stroke: "currentColor" };
const ICONS = {
  skip: [
    ["circle", { cx: 12, cy: 12, r: 8.5, ...LINE, "stroke-width": 2.4 }],
    ["path", { d: "M6 18 18 6", stroke: "currentColor", "stroke-width": 2.4 }],
  ],
  reverse: [
    ["path", { d: "M5 9h11l-3-3M19 15H8l3 3", ...LINE, "stroke-width": 2.4, "stroke-linecap": "round", "stroke-linejoin": "round" }],
  ],
  steal_card: [
    ["rect", { x: 3.5, y: 5, width: 9, height: 13, rx: 1.5, ...LINE, "stroke-width": 2 }],
    ["path", { d: "M14 12h7m-3-3 3 3-3 3", ...LINE, "stroke-width": 2.2, "stroke-linecap": "round", "stroke-linejoin": "round" }],
  ],
  block: [
    ["path", { d: "M12 3 4.5 6v5.5c0 4.6 3.2 8.1 7.5 9.5 4.3-1.4 7.5-4.9 7.5-9.5V6z", ...LINE, "stroke-width": 2.2, "stroke-linejoin": "round" }],
    ["path", { d: "M8.5 12h7", stroke: "currentColor", "stroke-width": 2.4 }],
  ],
  steal_chip: [
    ["circle", { cx: 10, cy: 12, r: 6.5, ...LINE, "stroke-width": 2.2 }],
    ["circle", { cx: 10, cy: 12, r: 2.5, fill: "currentColor" }],
    ["path", { d: "M17 12h5m-2.5-2.5L22 12l-2.5 2.5", ...LINE, "stroke-width": 2, "stroke-linecap": "round" }],
  ],
  wild: [
    ["path", { d: "m12 3 2.6 5.6 6.1.7-4.5 4.2 1.2 6L12 16.6 6.6 19.5l1.2-6-4.5-4.2 6.1-.7z", fill: "currentColor" }],
  ],
};

// Each colour's shape, drawn on its cards so they read without colour too (#15): the
// terminal's marks, a diamond for blue and a disc for red (by the catalog's index).
const SUITS = [
  ["path", { d: "M12 2.5 21 12l-9 9.5L3 12z", fill: "currentColor" }],
  ["circle", { cx: 12, cy: 12, r: 9, fill: "currentColor" }],
];

/** A colour's shape as an SVG element (decoration: the card's name says its colour). */
export function suit(colour, size = 12) {
  const [tag, attrs] = SUITS[colour];
  return svg("svg", { viewBox: "0 0 24 24", width: size, height: size, "aria-hidden": "true", class: "suit" }, svg(tag, attrs));
}

/** An icon as an SVG element. */
export function icon(name, size = 24) {
  const shapes = ICONS[name].map(([tag, attrs]) => svg(tag, attrs));
  return svg("svg", { viewBox: "0 0 24 24", width: size, height: size, "aria-hidden": "true" }, ...shapes);
}

/**
 * A card element; `opts.small` for piles and discards, `opts.button` for choosable cards.
 * The corners' marks are drawn by the style (`data-corner`): the words a card shows are
 * then part of its name, "3" of "blue 3" (WCAG 2.5.3, label in name; #15).
 */
export function cardElement(id, opts = {}) {
  const kind = kindOf(id);
  const info = kindInfo(kind);
  const name = kindName(kind);
  const el = document.createElement(opts.button ? "button" : "div");
  el.className = "card";
  el.dataset.card = id; // where it is, so a move can be animated (animate.js)
  if (opts.small) el.classList.add("small");
  if (info.action) {
    el.classList.add("action", `act-${info.key.toLowerCase()}`);
    el.append(
      h("span", { class: "corner" }, icon(info.action, 14)),
      h("span", { class: "face" }, icon(info.action, opts.small ? 26 : 36)),
      h("span", { class: "label" }, ...wholeWords(name, { hyphens: true })),
    );
  } else {
    el.classList.add(colourClass(info.colour));
    el.append(suit(info.colour, opts.small ? 10 : 13));
    if (info.wild) {
      el.classList.add("wild");
      el.append(
        h("span", { class: "corner", "data-corner": t("card.wild_corner") }),
        h("span", { class: "face" }, icon("wild", opts.small ? 26 : 38)),
        h("span", { class: "label" }, ...wholeWords(t("card.wild_short"), { hyphens: true })),
      );
    } else {
      el.append(
        h("span", { class: "corner", "data-corner": info.rank }),
        h("span", { class: "face num" }, info.rank),
        h("span", { class: "corner br", "data-corner": info.rank }),
      );
    }
  }
  el.dataset.kind = info.key;
  el.title = name;
  el.setAttribute("aria-label", name);
  if (!opts.button) el.setAttribute("role", "img"); // a picture named by its card (#15)
  return el;
}

export function cardBack(small = true) {
  const el = document.createElement("div");
  el.className = "card back" + (small ? " small" : "");
  el.setAttribute("aria-hidden", "true");
  return el;
}
