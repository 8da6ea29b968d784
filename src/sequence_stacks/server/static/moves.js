// What the board's seat may do, from data (#23): the legal actions of a view (its legal
// action ids, each described by the seat's action table), the selected card and what it
// may do, where it may go, and whose turn it is. The engine decides all of it; this only
// reads the view (`deciders`, `new_pile_slots`, `legal_action_ids`) and the action
// table. No DOM here, so Node tests it; board.js draws it.

import { ACTION, PHASE } from "./vocabulary.js";
import { kindInfo, kindOf } from "./words.js";

// --- whose turn ---------------------------------------------------------------------

/** True when `seat` is playing its turn now (not in a Block window, not after the end). */
export function isTurnOf(view, seat) {
  return seat !== null && seat !== undefined && view.phase === PHASE.PLAYING && view.deciders.includes(seat);
}

/** The open Block window's key (it stays the same while the window is open). */
export function windowKey(view) {
  return view.phase === PHASE.BLOCK_WINDOW ? `${view.turn_count}/${view.turn_actions}/${view.window_pile}` : null;
}

/** True when an open Block window waits for `seat`'s answer. */
export function isAsked(view, seat) {
  return seat !== null && seat !== undefined && view.phase === PHASE.BLOCK_WINDOW && view.deciders.includes(seat);
}

// --- the selected card ----------------------------------------------------------------

// Where a selected card is: a card of the hand (its kind and its place in the view's
// hand), or the top of one's own discard pile.
export const SOURCE = Object.freeze({ HAND: "hand", TOP: "top" });

/** The selection of the hand's card of `kind` at `index` (its place in the view's hand). */
export function handCard(kind, index) {
  return { source: SOURCE.HAND, kind, index };
}

/** The selection of the top of one's own discard pile. */
export function discardTop() {
  return { source: SOURCE.TOP, kind: null, index: -1 };
}

/** True when two selections (or nulls) name the same card. */
export function sameSelection(one, other) {
  if (!one || !other) return one === other;
  return one.source === other.source && one.kind === other.kind && one.index === other.index;
}

/** The selection after choosing `next`: choosing the selected card again lets it go. */
export function toggled(current, next) {
  return next && !sameSelection(current, next) ? next : null;
}

// --- legal actions --------------------------------------------------------------------

/** The legal actions of the view's seat, each its id and its fields (the action table's). */
export function legalActions(view, actionTable) {
  if (!view || !actionTable) return [];
  return view.legal_action_ids.map((id) => ({ id, ...actionTable[id] }));
}

/** The legal actions of the selected card (none when nothing is selected). */
export function selectedActions(legal, selection) {
  if (!selection) return [];
  const top = selection.source === SOURCE.TOP;
  return legal.filter((a) => a.from_discard === top && (top || a.kind === selection.kind));
}

/** The legal actions that take no card (pass, block, end) by type: the id, or null. */
export function plainAction(legal, type) {
  return legal.find((a) => a.type === type)?.id ?? null;
}

/** The slot a play puts its card on: its own, or the one a new pile of its colour takes. */
export function playSlot(view, action) {
  return action.slot ?? view.new_pile_slots[action.colour];
}

/** Where the selected card may go: slot -> the first action that puts it there. */
export function pileTargets(view, actions) {
  const found = new Map();
  for (const a of actions) {
    if (a.type !== ACTION.PLAY) continue;
    const slot = playSlot(view, a);
    if (!found.has(slot)) found.set(slot, a);
  }
  return found;
}

/** Whose discard pile the selected card may take from: seat -> the Steal-a-Card action. */
export function stealTargets(actions) {
  const found = new Map();
  for (const a of actions) if (a.type === ACTION.STEAL_CARD && !found.has(a.victim)) found.set(a.victim, a);
  return found;
}

/** The selection a suggested action makes: the discard top, or its card in `hand`. */
export function selectionFor(action, hand) {
  if (action.from_discard) return discardTop();
  if (action.kind === null) return null;
  return handCard(action.kind, hand.findIndex((card) => kindOf(card) === action.kind));
}

// --- the hand ---------------------------------------------------------------------------

/** A card's place in a sorted hand: blue 1-5, blue wild, red 1-5, red wild, actions. */
export function handOrder(card) {
  const info = kindInfo(kindOf(card));
  if (info.action) return 100 + info.index;
  return info.colour * 10 + (info.wild ? 9 : info.rank);
}

/** The hand as shown (#15): [card, its index in `hand`] sorted, equal cards as dealt. */
export function sortedHand(hand) {
  return hand.map((card, index) => [card, index]).sort((one, other) => handOrder(one[0]) - handOrder(other[0]) || one[1] - other[1]);
}
