// The pieces the board (board.js) and the pages are drawn with (#15): the decks' counts,
// a sequence pile's cards and caption, a seat's hand size, discard top and chips, the
// direction of play, the end of a game and a finished game's standings. Each piece is
// built from a view (or a frame's data) with textContent only; the board adds what is
// its own (buttons, targets, labels) around it.

import { cardBack, cardElement, icon } from "./cards.js";
import { h } from "./dom.js";
import { kindInfo, kindName, kindOf } from "./words.js";
import { formatNumber, t } from "./messages.js";

/** An empty card slot (an empty discard pile, no played action yet). */
export function emptyCard() {
  return h("div", { class: "card small ghost" });
}

/** The row above the piles: the draw pile, the played actions and the set-aside pool,
 * each with its count (`renderDecks` fills them in). */
export function decksRow() {
  const deck = (face, key, id) => h("div", { class: "deck" }, face, h("span", {}, h("span", {}, t(key)), " ", h("b", { id }, 0)));
  return h("div", { class: "decks" },
    deck(h("div", { class: "card back" }), "page.table.draw", "draw-count"),
    deck(h("div", { id: "special-top" }), "page.table.played_actions", "special-count"),
    deck(h("div", { class: "card small ghost pool" }), "page.table.set_aside", "pool-count"));
}

/** The draw pile's, played actions' and set-aside pool's counts, and the top played action. */
export function renderDecks(view) {
  const special = view.special;
  document.querySelector("#draw-count").textContent = view.draw_size;
  document.querySelector("#pool-count").textContent = view.pool.length;
  document.querySelector("#special-count").textContent = special.length;
  document.querySelector("#special-top").replaceChildren(special.length ? cardElement(special[special.length - 1], { small: true }) : emptyCard());
}

/** A pile's cards, stacked, and its caption (its `name` and "3/5"); `empty` when it has none. */
export function pileFace(cards, name, empty) {
  const stack = h("div", { class: "stack" });
  cards.forEach((card, i) => {
    const el = cardElement(card, { small: true });
    el.style.setProperty("--i", i);
    // A wild stands for the number of its place in the pile (R16): shown on it (#15).
    if (kindInfo(kindOf(card)).wild) el.append(h("span", { class: "stands-for", title: t("table.wild_as", { rank: i + 1 }) }, formatNumber(i + 1)));
    stack.append(el);
  });
  if (!cards.length) stack.append(h("span", { class: "slot-empty" }, empty));
  const caption = h("div", { class: "caption" },
    h("span", {}, name), h("span", { class: "count" }, t("table.pile_count", { count: cards.length })));
  return [stack, caption];
}

// A sequence is complete at five cards (the "{count}/5" of table.pile_count).
const SEQUENCE_LENGTH = 5;

/** What a pile of `count` cards needs next in words ("needs 3", "complete"); "" when empty. */
export function pileNeed(count) {
  if (!count) return "";
  return count >= SEQUENCE_LENGTH ? t("table.pile_complete") : t("table.pile_next", { rank: count + 1 });
}

/** A seat's hand as card backs (the style shows a few) and its size. */
export function miniHand(size) {
  const box = h("div", { class: "mini-hand", title: t("table.hand_size", { count: size }) });
  for (let i = 0; i < size; i++) box.append(cardBack());
  box.append(h("span", { class: "count" }, size));
  return box;
}

/** A seat's chips by colour. */
export function chipsBox(chips) {
  return h("div", { class: "chips", "aria-label": t("table.chips_label", { blue: chips[0], red: chips[1] }) },
    h("span", { class: "chip blue" }, chips[0]), h("span", { class: "chip red" }, chips[1]));
}

/** Fill a discard pile's element with its top card, its count and the names of its cards. */
export function fillDiscard(el, pile) {
  el.append(pile.length ? cardElement(pile[pile.length - 1], { small: true }) : emptyCard());
  el.append(h("span", { class: "count" }, pile.length));
  el.title = pile.length ? pile.map((card) => kindName(kindOf(card))).join(t("list.separator")) : t("table.empty_discard");
}

/** The direction of play on its pill: an arrow and its word. */
export function showDirection(el, direction) {
  el.replaceChildren(icon("reverse", 16), " ", t(direction > 0 ? "table.clockwise" : "table.anticlockwise"));
  el.dataset.dir = direction;
}

/** The end of a game in words: who won, or why nobody did; `name(seat)` names a seat. */
export function resultText(result, you, name) {
  if (result.winner === null) return t("table.no_winner", { reason: t(`end.${result.reason}`) });
  return result.winner === you ? t("table.you_win") : t("table.wins", { player: name(result.winner) });
}

/**
 * A finished game's standings (#15), best first as the server ranks them: place, name,
 * chips by colour, sequences completed, Blocks that worked and steals; `name(seat)`
 * names a seat.
 */
export function standingsTable(rows, name) {
  if (!rows.length) return [];
  const heads = ["place", "player", "chips", "sequences", "blocks", "steals"];
  const head = h("tr", {}, ...heads.map((key) => h("th", { scope: "col" }, t(`table.standings.${key}`))));
  const body = rows.map((row, place) => {
    const chips = h(
      "td",
      { class: "chips", "aria-label": t("table.chips_label", { blue: row.chips[0], red: row.chips[1] }) },
      h("span", { class: "chip blue" }, formatNumber(row.chips[0])),
      h("span", { class: "chip red" }, formatNumber(row.chips[1])),
    );
    const tr = h(
      "tr",
      {},
      h("td", {}, formatNumber(place + 1)),
      h("th", { scope: "row" }, name(row.seat)),
      chips,
      h("td", {}, formatNumber(row.completed)),
      h("td", {}, formatNumber(row.blocks)),
      h("td", {}, formatNumber(row.steals)),
    );
    if (row.winner) tr.classList.add("winner");
    return tr;
  });
  return [h("table", { class: "standings-table" }, h("caption", {}, t("table.standings")), h("thead", {}, head), h("tbody", {}, ...body))];
}
