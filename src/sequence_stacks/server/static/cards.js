// Cards: ids 0-119 as the engine lays them out (RULES R4), rendered as DOM elements.
// For colour c (blue 0, red 1): number n copy k is c*52 + (n-1)*9 + k, wild copy k is
// c*52 + 45 + k; then 104-106 Skip, 107-109 Reverse, 110-112 Steal-a-Card,
// 113-115 Block, 116-119 Steal-a-Chip.

import { h, svg } from "./dom.js";

export const COLOURS = ["blue", "red"];
const ACTIONS = [
  [104, "SKIP", "Skip"],
  [107, "REV", "Reverse"],
  [110, "SCARD", "Steal a card"],
  [113, "BLOCK", "Block"],
  [116, "SCHIP", "Steal a chip"],
];

export function cardInfo(id) {
  if (id < 104) {
    const colour = id >= 52 ? 1 : 0;
    const r = id - colour * 52;
    const wild = r >= 45;
    const rank = wild ? 0 : Math.floor(r / 9) + 1;
    const letter = colour ? "R" : "B";
    return {
      id, colour, rank, wild, action: null,
      kind: letter + (wild ? "W" : String(rank)),
      name: `${COLOURS[colour]} ${wild ? "wild" : rank}`,
    };
  }
  let found = ACTIONS[0];
  for (const entry of ACTIONS) if (id >= entry[0]) found = entry;
  return { id, colour: -1, rank: -1, wild: false, action: found[1], kind: found[1], name: found[2] };
}

export function kindName(kind) {
  if (kind.length === 2 && (kind[0] === "B" || kind[0] === "R")) {
    const colour = kind[0] === "B" ? "blue" : "red";
    return `${colour} ${kind[1] === "W" ? "wild" : kind[1]}`;
  }
  const entry = ACTIONS.find((a) => a[1] === kind);
  return entry ? entry[2] : kind;
}

// Icon shapes (24x24 viewBox): [tag, attributes] each, drawn in the text colour.
const LINE = { fill: "none", stroke: "currentColor" };
const ICONS = {
  SKIP: [
    ["circle", { cx: 12, cy: 12, r: 8.5, ...LINE, "stroke-width": 2.4 }],
    ["path", { d: "M6 18 18 6", stroke: "currentColor", "stroke-width": 2.4 }],
  ],
  REV: [
    ["path", { d: "M5 9h11l-3-3M19 15H8l3 3", ...LINE, "stroke-width": 2.4, "stroke-linecap": "round", "stroke-linejoin": "round" }],
  ],
  SCARD: [
    ["rect", { x: 3.5, y: 5, width: 9, height: 13, rx: 1.5, ...LINE, "stroke-width": 2 }],
    ["path", { d: "M14 12h7m-3-3 3 3-3 3", ...LINE, "stroke-width": 2.2, "stroke-linecap": "round", "stroke-linejoin": "round" }],
  ],
  BLOCK: [
    ["path", { d: "M12 3 4.5 6v5.5c0 4.6 3.2 8.1 7.5 9.5 4.3-1.4 7.5-4.9 7.5-9.5V6z", ...LINE, "stroke-width": 2.2, "stroke-linejoin": "round" }],
    ["path", { d: "M8.5 12h7", stroke: "currentColor", "stroke-width": 2.4 }],
  ],
  SCHIP: [
    ["circle", { cx: 10, cy: 12, r: 6.5, ...LINE, "stroke-width": 2.2 }],
    ["circle", { cx: 10, cy: 12, r: 2.5, fill: "currentColor" }],
    ["path", { d: "M17 12h5m-2.5-2.5L22 12l-2.5 2.5", ...LINE, "stroke-width": 2, "stroke-linecap": "round" }],
  ],
  WILD: [
    ["path", { d: "m12 3 2.6 5.6 6.1.7-4.5 4.2 1.2 6L12 16.6 6.6 19.5l1.2-6-4.5-4.2 6.1-.7z", fill: "currentColor" }],
  ],
};

/** An icon as an SVG element. */
export function icon(name, size = 24) {
  const shapes = ICONS[name].map(([tag, attrs]) => svg(tag, attrs));
  return svg("svg", { viewBox: "0 0 24 24", width: size, height: size, "aria-hidden": "true" }, ...shapes);
}

/** A card element; `opts.small` for piles and discards, `opts.button` for choosable cards. */
export function cardElement(id, opts = {}) {
  const info = cardInfo(id);
  const el = document.createElement(opts.button ? "button" : "div");
  el.className = "card";
  if (opts.small) el.classList.add("small");
  if (info.action) {
    el.classList.add("action", `act-${info.action.toLowerCase()}`);
    el.append(
      h("span", { class: "corner" }, icon(info.action, 14)),
      h("span", { class: "face" }, icon(info.action, opts.small ? 26 : 36)),
      h("span", { class: "label" }, info.name),
    );
  } else {
    el.classList.add(COLOURS[info.colour]);
    if (info.wild) {
      el.classList.add("wild");
      el.append(
        h("span", { class: "corner" }, "W"),
        h("span", { class: "face" }, icon("WILD", opts.small ? 26 : 38)),
        h("span", { class: "label" }, "wild"),
      );
    } else {
      el.append(
        h("span", { class: "corner" }, info.rank),
        h("span", { class: "face num" }, info.rank),
        h("span", { class: "corner br" }, info.rank),
      );
    }
  }
  el.dataset.kind = info.kind;
  el.title = info.name;
  el.setAttribute("aria-label", info.name);
  return el;
}

export function cardBack(small = true) {
  const el = document.createElement("div");
  el.className = "card back" + (small ? " small" : "");
  el.setAttribute("aria-hidden", "true");
  return el;
}

/** Replace engine card notation ("B3#20") in log text with words ("blue 3"). */
export function prettyText(text, names) {
  return text
    .replace(/\b([BR][1-5W]|SKIP|REV|SCARD|BLOCK|SCHIP)#\d+/g, (_, kind) => kindName(kind))
    .replace(/Player (\d)/g, (_, seat) => names[Number(seat)] ?? `Player ${seat}`);
}
