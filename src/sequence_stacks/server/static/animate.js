// Cards travelling (#15). Between two renders of the table, each card that moved is
// animated from where it was to where it is now (FLIP: first, last, invert, play): from a
// hand or a discard top to a pile, a stolen card to its thief. A card that appears with
// no place before (a card another player played from their hidden hand) comes from that
// player's seat. Cards that leave the board travel as copies: a completed or blocked
// pile to the set-aside pool, a stolen card to another player's seat. A chip that
// changes hands pulses at its new owner. The cards of the move just made are marked
// until the next one. With prefers-reduced-motion nothing moves (the marks stay).
// Only the page's own elements are copied and moved: no text is made here.

import { EVENT } from "./vocabulary.js";

const DURATION = 450;
const EASING = "cubic-bezier(.2, .7, .2, 1)";

/** True when the reader asked the system for less motion. */
export function reducedMotion() {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Where each visible card is now: card id -> {rect, el}. */
export function capture(root = document) {
  const found = new Map();
  for (const el of root.querySelectorAll("[data-card]")) {
    const rect = el.getBoundingClientRect();
    if (rect.width && rect.height) found.set(el.dataset.card, { rect, el });
  }
  return found;
}

function seatBox(seat) {
  return document.querySelector(`#seats [data-seat="${Number(seat)}"]`);
}

function centre(rect) {
  return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
}

// `el` (now at `to`) seen coming from `from`: from a card's old place at that card's
// size, or (`scale` given) from a seat's panel at a fixed size.
function travel(el, from, to, scale = from.width && to.width ? from.width / to.width : 1) {
  const a = centre(from);
  const b = centre(to);
  return el.animate(
    [{ transform: `translate(${a.x - b.x}px, ${a.y - b.y}px) scale(${scale})` }, { transform: "none" }],
    { duration: DURATION, easing: EASING },
  );
}

// A copy of a card that left the board, flying from where it was to `to`, then gone.
function fly(entry, to, layer) {
  const ghost = entry.el.cloneNode(true);
  ghost.removeAttribute("id");
  ghost.classList.add("flying");
  ghost.setAttribute("aria-hidden", "true");
  const from = entry.rect;
  ghost.style.left = `${from.left}px`;
  ghost.style.top = `${from.top}px`;
  ghost.style.width = `${from.width}px`;
  ghost.style.height = `${from.height}px`;
  layer.append(ghost);
  const a = centre(from);
  const b = centre(to);
  const run = ghost.animate(
    [{ transform: "none", opacity: 1 }, { transform: `translate(${b.x - a.x}px, ${b.y - a.y}px) scale(.6)`, opacity: 0.2 }],
    { duration: DURATION, easing: EASING },
  );
  run.onfinish = () => ghost.remove();
  run.oncancel = () => ghost.remove();
  return run;
}

function layer() {
  let box = document.querySelector("#flights");
  if (!box) {
    box = document.createElement("div");
    box.id = "flights";
    box.setAttribute("aria-hidden", "true");
    document.body.append(box);
  }
  return box;
}

/**
 * Every card on its way lands at once and every copy in flight is gone: before the results
 * push the table down, and before a hand-off (the screen between two people shows no card
 * that was travelling, R36).
 */
export function land() {
  for (const run of document.getAnimations()) if (!(run instanceof CSSAnimation) && !(run instanceof CSSTransition)) run.finish();
  document.querySelector("#flights")?.replaceChildren();
}

/** True for the events of a card put down by its player: its `card` and `seat`. */
function putDown(event) {
  return [EVENT.CARD_PLAYED, EVENT.DISCARDED, EVENT.SKIP_PLAYED, EVENT.REVERSE_PLAYED, EVENT.CARD_STOLEN, EVENT.CHIP_STOLEN].includes(event.type);
}

/** The cards an update's events name, by what happened to them. */
export function movedCards(events) {
  const played = new Map(); // card id -> seat that played or took it
  const stolen = new Map(); // card id -> thief
  const gone = []; // card ids that went to the pool
  const chips = new Set(); // seats whose chips changed
  for (const event of events) {
    // Every card an action puts down: a number or wild on a pile, a discard, an action
    // card to the played actions (its `card`); a Block card is its blocker's.
    if (putDown(event)) played.set(String(event.card), event.seat);
    if (event.type === EVENT.PILE_BLOCKED) {
      played.set(String(event.card), event.blocker);
      for (const card of event.cards) gone.push(String(card));
    } else if (event.type === EVENT.PILE_COMPLETED) {
      for (const card of event.cards) gone.push(String(card));
    } else if (event.type === EVENT.CARD_STOLEN) {
      stolen.set(String(event.stolen), event.seat);
    } else if (event.type === EVENT.CHIP_TAKEN || event.type === EVENT.CHIP_STOLEN) {
      chips.add(event.seat);
      if (event.victim !== undefined) chips.add(event.victim);
    }
  }
  return { played, stolen, gone, chips };
}

/**
 * Animate what changed between `before` (a capture taken before the render) and now,
 * for an update's `events`; mark the cards of the move. Returns the animations started.
 */
export function animate(before, events) {
  for (const el of document.querySelectorAll(".last-move")) el.classList.remove("last-move");
  const { played, stolen, gone, chips } = movedCards(events);
  const after = capture();
  for (const id of [...played.keys(), ...stolen.keys()]) after.get(id)?.el.classList.add("last-move");
  if (reducedMotion()) return [];
  const runs = [];
  for (const [id, now] of after) {
    const was = before.get(id);
    if (was) {
      if (Math.abs(was.rect.left - now.rect.left) > 1 || Math.abs(was.rect.top - now.rect.top) > 1) runs.push(travel(now.el, was.rect, now.rect));
    } else if (played.has(id) || stolen.has(id)) {
      const from = seatBox(played.get(id) ?? stolen.get(id));
      if (from) runs.push(travel(now.el, from.getBoundingClientRect(), now.rect, 0.6));
    }
  }
  const pool = document.querySelector("#pool-count")?.closest(".deck") ?? document.querySelector("#pool-count");
  for (const id of gone) {
    const was = before.get(id);
    if (was && !after.has(id) && pool) runs.push(fly(was, pool.getBoundingClientRect(), layer()));
  }
  for (const [id, thief] of stolen) {
    const was = before.get(id);
    const to = seatBox(thief);
    if (was && !after.has(id) && to) runs.push(fly(was, to.getBoundingClientRect(), layer()));
  }
  for (const seat of chips) {
    const box = seatBox(seat)?.querySelector(".chips");
    if (box) runs.push(box.animate([{ transform: "scale(1)" }, { transform: "scale(1.35)" }, { transform: "scale(1)" }], { duration: DURATION }));
  }
  return runs;
}
