// The playable board (#23): whose turn it is, the decks, the sequence piles, the Block
// prompt, the hand and the choices of its selected card, and every seat's panel, drawn
// from a small model and nothing else. One board for every page that shows a game: the
// table feeds it from its socket, the tutorial from its lessons, the replay from its
// frames (read-only); any other driver (a game in the page) can feed it the same way.
// A board that plays calls back `act(id)` (an action id of the model's seat) and
// `select(selection)` (a card chosen, or null); the page then draws it again with the
// model that follows. It owns no rules: what may be played is the view's legal action
// ids, each described by the action table (moves.js), and every word is a message.
//
// The model, all plain data (docs/protocol.md):
//   view         the view of the board's seat (or a spectator's): piles, hands, deciders
//   actionTable  the seat's action table, each action id as fields; null: nothing to play
//   slots        what each pile slot is, {colour, index}
//   you          the board's seat, or null (a spectator)
//   name(seat)   a seat's name on the board ("You" for one's own)
//   selection    the selected card (moves.js: {source, kind, index}) or null
//   hint         the id of a suggested action, or null
//   active       false while nothing may be played (a lesson already answered)
//   seats        per seat {badge, online}: the marks in its header (else: the winner's)
//   timer        the countdown under way ({kind, seats}), or null
//   hands        per seat, cards shown face up (a finished game's replay), or null
//   answered     the seat's answer to the open Block window (an action type), or null
//   bubbles      per seat, a chat phrase just said there ({text, face: an element or
//                null}) shown as a bubble, or null (#24)
//
// The Block prompt (#24) is calm and asks only who may answer: a seat holding a Block
// chooses (Block, or Let it go); any other asked seat sees what happened and the window's
// countdown, with nothing to tap (every answer waits for the window's end anyway).
// The keyboard (#24): the arrows move among the hand's cards, and once a card is
// selected among the places it may go (piles, discards, choices); choosing a card with
// the keyboard takes the focus to its first place, Escape back to the card.

import { cardElement, colourClass } from "./cards.js";
import { choiceLabel } from "./choices.js";
import { fitCardWords, h, svg } from "./dom.js";
import { t } from "./messages.js";
import {
  discardTop,
  handCard,
  isAsked,
  isTurnOf,
  legalActions,
  pileTargets,
  plainAction,
  sameSelection,
  selectedActions,
  SOURCE,
  sortedHand,
  stealTargets,
} from "./moves.js";
import { chipsBox, decksRow, fillDiscard, miniHand, pileFace, pileNeed, renderDecks, resultText, showDirection } from "./pieces.js";
import { ACTION, PHASE, TIMER } from "./vocabulary.js";
import { kindOf, slotName } from "./words.js";

// What the Block prompt shows (#24): a choice for a seat holding a Block, the window
// for anyone else it asks, or the answer given.
export const PROMPT = Object.freeze({ CHOOSE: "choose", WATCH: "watch", ANSWERED: "answered" });

const ARROWS = Object.freeze({ ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 });

/** The board's parts in a page, by their ids (a page without a part leaves it out). */
export function boardParts({ piles = "#piles", seats = "#seats" } = {}) {
  const $ = (selector) => document.querySelector(selector);
  return {
    turn: $("#turn"),
    turnTimer: $("#turn-timer"),
    direction: $("#direction"),
    skips: $("#skips"),
    felt: $(".felt"),
    piles: $(piles),
    prompt: $("#block-prompt"),
    block: $("#answer-block"),
    pass: $("#answer-pass"),
    handArea: $("#hand-area"),
    hand: $("#hand"),
    choices: $("#choices"),
    seats: $(seats),
  };
}

/** Whose turn it is, who is answering a Block window, or how the game ended. */
export function turnText(view, you, name) {
  if (view.result) return resultText(view.result, you, name);
  if (view.phase === PHASE.BLOCK_WINDOW) return t("table.waiting_for_blocks", { player: name(view.window_completer) });
  return isTurnOf(view, you) ? t("table.your_turn") : t("table.turn_of", { player: name(view.current) });
}

export class Board {
  /**
   * `parts` as `boardParts` finds them; `act` and `select` are called back; `readOnly`
   * draws piles and discards as pictures, not buttons; `nextSeat` shows each seat's
   * successor in the direction of play, `notes` who is deciding and a turn's countdown.
   */
  constructor(parts, { act = () => {}, select = () => {}, readOnly = false, nextSeat = false, notes = false } = {}) {
    this.parts = parts;
    this.act = act;
    this.select = select;
    this.options = { readOnly, nextSeat, notes };
    this.model = null;
    this.legal = [];
    this.chosen = [];
    parts.felt?.prepend(decksRow());
    parts.block?.addEventListener("click", () => this.answer(ACTION.BLOCK));
    parts.pass?.addEventListener("click", () => this.answer(ACTION.PASS));
    // A turned phone changes the cards' size: their words are fitted again.
    if (parts.hand) addEventListener("resize", () => fitCardWords(parts.hand));
  }

  /** Draw the board from `model` (the seats alone while there is no game: no view). */
  render(model) {
    this.model = model;
    const playing = !this.options.readOnly && model.active !== false;
    this.legal = playing ? legalActions(model.view, model.actionTable) : [];
    this.chosen = selectedActions(this.legal, model.selection);
    if (model.view) {
      this.renderStatus();
      renderDecks(model.view);
      this.renderPiles();
      this.renderPrompt();
      this.renderHand();
    }
    this.renderSeats();
  }

  /** Draw the seats' panels alone again (a player's connection came or went). */
  renderSeatMarks(model) {
    this.model = model;
    this.renderSeats();
  }

  /** True when the model's seat is playing its turn and may act. */
  mine() {
    return Boolean(this.model?.view) && this.model.active !== false && isTurnOf(this.model.view, this.model.you);
  }

  /** The legal actions of the model's seat, as the last render drew them. */
  legalNow() {
    return this.legal;
  }

  // --- the parts ------------------------------------------------------------------------

  renderStatus() {
    const { view, you, name, timer } = this.model;
    const { turn, turnTimer, direction, skips } = this.parts;
    turn.querySelector(".text").textContent = turnText(view, this.options.readOnly ? null : you, name);
    if (!this.options.readOnly) turn.dataset.mine = String(this.mine());
    showDirection(direction, view.direction);
    skips.hidden = !view.pending_skips;
    skips.textContent = t("table.skips_pending", { count: view.pending_skips });
    if (turnTimer) turnTimer.hidden = timer?.kind !== TIMER.TURN;
  }

  renderPiles() {
    const view = this.model.view;
    const targets = pileTargets(view, this.chosen);
    const boxes = view.piles.map((cards, slot) => (this.options.readOnly ? this.pilePicture(cards, slot) : this.pileButton(cards, slot, targets.get(slot))));
    this.parts.piles.replaceChildren(...boxes);
  }

  /** A pile the selected card may go on (a target) or not (disabled). */
  pileButton(cards, slot, target) {
    const { view, slots } = this.model;
    const el = h("button", { type: "button", class: `pile ${colourClass(slots[slot].colour)}` });
    // The pile a Block window asks about is outlined (#15).
    el.classList.toggle("completed", view.window_pile === slot);
    if (target) {
      el.classList.add("target");
      el.addEventListener("click", () => this.act(target.id));
    } else {
      el.disabled = true;
    }
    const name = slotName(slots, slot);
    const label = t("table.pile_label", { pile: name, count: cards.length });
    // Named by a hidden sentence that holds the pile's visible name (#15, WCAG 2.5.3).
    const empty = t(target ? "table.start_here" : "table.pile_empty");
    const face = h("span", { class: "pile-face", "aria-hidden": "true" }, ...pileFace(cards, name, empty), h("span", { class: "need" }, pileNeed(cards.length)));
    el.append(h("span", { class: "sr-only" }, target ? t("table.play_here", { label }) : label), face);
    return el;
  }

  /** A pile to look at (read-only): a group named by its name and count. */
  pilePicture(cards, slot) {
    const { view, slots } = this.model;
    const name = slotName(slots, slot);
    const label = t("table.pile_label", { pile: name, count: cards.length });
    const box = h("div", { class: `pile ${colourClass(slots[slot].colour)}`, role: "group", "aria-label": label });
    box.classList.toggle("completed", view.window_pile === slot);
    box.append(...pileFace(cards, name, t("table.pile_empty")), h("div", { class: "need" }, pileNeed(cards.length)));
    return box;
  }

  renderPrompt() {
    const { prompt, block, pass } = this.parts;
    if (!prompt) return;
    const mode = this.promptMode();
    prompt.hidden = mode === null;
    prompt.dataset.mode = mode ?? "";
    if (mode === null) return;
    const { view, name, slots } = this.model;
    block.hidden = pass.hidden = mode !== PROMPT.CHOOSE;
    const text = prompt.querySelector(".text");
    const args = { player: name(view.window_completer), pile: slotName(slots, view.window_pile) };
    if (mode === PROMPT.ANSWERED) {
      text.textContent = t(this.model.answered === ACTION.BLOCK ? "prompt.answered_block" : "prompt.answered_pass");
      return;
    }
    text.textContent = t(mode === PROMPT.CHOOSE ? "prompt.block" : "prompt.watch", args);
    block.title = t("prompt.block_title");
    pass.title = t("prompt.let_go_title");
    const hinted = this.legal.find((a) => a.id === this.model.hint)?.type;
    block.classList.toggle("hinted", hinted === ACTION.BLOCK);
    pass.classList.toggle("hinted", hinted === ACTION.PASS);
  }

  /** What the Block prompt shows now (PROMPT), or null when it asks nothing of this board. */
  promptMode() {
    const { view, you } = this.model ?? {};
    if (!view || this.options.readOnly || this.model.active === false || !isAsked(view, you)) return null;
    if ((this.model.answered ?? null) !== null) return PROMPT.ANSWERED;
    return plainAction(this.legal, ACTION.BLOCK) !== null ? PROMPT.CHOOSE : PROMPT.WATCH;
  }

  renderHand() {
    const { hand, handArea } = this.parts;
    if (!hand) return;
    const { view, you, selection } = this.model;
    const mine = you !== null && Boolean(view.hand) && !view.result; // none after the end (#24)
    if (handArea) handArea.hidden = !mine;
    if (!mine) {
      hand.replaceChildren();
      return;
    }
    const fromHand = this.legal.filter((a) => !a.from_discard);
    // Shown sorted (#15); each card's index stays its place in the hand the view has.
    const cards = sortedHand(view.hand).map(([card, index]) => {
      const kind = kindOf(card);
      const chosen = handCard(kind, index);
      const selected = sameSelection(selection, chosen);
      const uses = fromHand.filter((a) => a.kind === kind);
      const el = cardElement(card, { button: true });
      el.classList.toggle("playable", uses.some((a) => a.type !== ACTION.DISCARD));
      el.classList.toggle("selected", selected);
      el.disabled = !uses.length;
      el.dataset.index = index;
      el.setAttribute("aria-pressed", String(selected));
      // Chosen with the keyboard (a click with no pointer): on to its first place (#24).
      el.addEventListener("click", (event) => {
        const keyed = event.detail === 0;
        this.select(chosen);
        if (keyed && this.model.selection) this.focusTarget(0);
      });
      return el;
    });
    hand.replaceChildren(...cards);
    fitCardWords(hand);
    this.renderChoices();
  }

  /** The choices: ending an empty-handed turn, and what the selected card may do. */
  renderChoices() {
    const { choices } = this.parts;
    const { selection, name, slots } = this.model;
    const items = [];
    const end = this.legal.find((a) => a.type === ACTION.END);
    if (end) items.push(this.choice(t("choice.end"), end, "primary"));
    if (!selection) {
      items.push(h("span", { class: "muted" }, this.mine() ? t("choice.hint") : ""));
    } else {
      // What the card may do first; the discard, which ends the turn, last and apart (#24).
      const discards = this.chosen.filter((a) => a.type === ACTION.DISCARD);
      for (const a of this.chosen) if (a.type !== ACTION.DISCARD) items.push(this.choice(choiceLabel(a, name, slots), a, "primary"));
      const cancel = h("button", { type: "button", class: "ghost" }, t("choice.cancel"));
      cancel.addEventListener("click", () => this.select(null));
      items.push(cancel);
      for (const a of discards) items.push(this.choice(choiceLabel(a, name, slots), a, "discard"));
    }
    // A live region: drawn anew, and so read out again, only when its offer changed (#15).
    const offer = JSON.stringify([selection, ...items.map((el) => [el.className, el.textContent])]);
    if (choices.dataset.offer === offer) return;
    choices.dataset.offer = offer;
    choices.replaceChildren(...items);
  }

  choice(text, action, kind) {
    const el = h("button", { type: "button", class: action.id === this.model.hint ? `${kind} hinted` : kind }, text);
    el.addEventListener("click", () => this.act(action.id));
    return el;
  }

  renderSeats() {
    const { view, seats } = this.model;
    const count = view ? view.hand_sizes.length : (seats?.length ?? 0);
    const steals = stealTargets(this.chosen);
    const fromTop = this.legal.some((a) => a.from_discard);
    const panels = [];
    for (let seat = 0; seat < count; seat++) panels.push(this.seatPanel(seat, steals.get(seat), fromTop));
    this.parts.seats.replaceChildren(...panels);
  }

  seatPanel(seat, steal, fromTop) {
    const { view, you, name, timer } = this.model;
    const panel = h("section", { class: "seat", "data-seat": seat });
    panel.classList.toggle("me", seat === you);
    if (view) {
      panel.classList.toggle("current", isTurnOf(view, seat));
      panel.classList.toggle("asked", isAsked(view, seat));
    }
    panel.append(this.seatHeader(seat));
    // A chat phrase just said at this seat, as a bubble (#24).
    const bubble = this.model.bubbles?.[seat];
    if (bubble) panel.append(h("div", { class: "bubble", role: "presentation" }, bubble.face ?? "", h("span", {}, bubble.text)));
    if (!view) return panel;
    panel.append(h("div", { class: "seat-row" }, miniHand(view.hand_sizes[seat]), this.discard(seat, steal, fromTop), chipsBox(view.chips[seat])));
    const shown = this.model.hands?.[seat];
    if (shown?.length) {
      panel.append(h("div", { class: "hand small", "aria-label": t("replay.hand", { player: name(seat) }) }, ...shown.map((card) => cardElement(card, { small: true }))));
    }
    if (this.options.nextSeat && !view.result) panel.append(nextSeat(seat, view, name));
    if (this.options.notes && isAsked(view, seat)) panel.append(countdownNote("table.deciding"));
    if (this.options.notes && isTurnOf(view, seat) && timer?.kind === TIMER.TURN) panel.append(countdownNote("table.turn_timer"));
    return panel;
  }

  /** A seat's header: its name, and its marks (online, bot) or a finished game's winner. */
  seatHeader(seat) {
    const marks = this.model.seats?.[seat];
    const name = h("b", { class: "name" }, this.model.name(seat));
    if (marks) return h("header", {}, h("span", { class: `dot ${marks.online ? "on" : ""}` }), name, h("span", { class: "badge" }, marks.badge));
    const winner = this.model.view?.result?.winner === seat;
    return h("header", {}, name, winner ? h("span", { class: "badge winner-badge" }, t("table.winner")) : null);
  }

  /** A seat's discard pile: a steal's target, one's own top to select, or a picture. */
  discard(seat, steal, fromTop) {
    const { view, you, name, selection } = this.model;
    const pile = view.discards[seat];
    const label = seat === you ? t("table.discard_label.own", { count: pile.length }) : t("table.discard_label", { player: name(seat), count: pile.length });
    if (this.options.readOnly) {
      const picture = h("div", { class: "discard", "aria-label": label });
      fillDiscard(picture, pile);
      return picture;
    }
    const el = h("button", { type: "button", class: "discard" });
    if (steal) {
      el.classList.add("target");
      el.addEventListener("click", () => this.act(steal.id));
    } else if (seat === you && fromTop) {
      el.classList.add("playable");
      el.classList.toggle("selected", sameSelection(selection, discardTop()));
      el.addEventListener("click", () => this.select(discardTop()));
    } else {
      el.disabled = true;
    }
    // Named by a hidden sentence, the top card and count beside it (#15, WCAG 2.5.3).
    const face = h("span", { class: "discard-face", "aria-hidden": "true" });
    fillDiscard(face, pile);
    el.append(h("span", { class: "sr-only" }, label), face);
    return el;
  }

  // --- acting ---------------------------------------------------------------------------

  /** Answer the Block prompt (a type: block or pass) if that answer is legal. */
  answer(type) {
    const id = plainAction(this.legal, type);
    if (id !== null) this.act(id);
  }

  /**
   * The board's keys (page.help.keys): the arrows move among the hand's cards, or the
   * selected card's places; 1-9 select a card of the hand, D discards the selected one,
   * Escape lets it go (the focus back on it), B and P answer the Block prompt. Returns
   * whether the key was one of them.
   */
  keydown(event) {
    const key = event.key.toLowerCase();
    const choosing = this.promptMode() === PROMPT.CHOOSE;
    const selection = this.model?.selection;
    if (event.key in ARROWS) return this.moveFocus(ARROWS[event.key]);
    if (key === "escape" && selection) {
      this.select(null);
      this.focusCard(selection);
    } else if (choosing && key === "p") this.answer(ACTION.PASS);
    else if (choosing && key === "b") this.answer(ACTION.BLOCK);
    else if (/^[1-9]$/.test(key)) this.pressCard(Number(key) - 1);
    else if (key === "d" && selection?.source === SOURCE.HAND) this.discardSelected();
    else return false;
    return true;
  }

  /** The places the selected card may go, in order: piles, discards, then the choices. */
  targets() {
    const { piles, seats, choices } = this.parts;
    return [...(piles?.querySelectorAll(".pile.target") ?? []), ...(seats?.querySelectorAll(".discard.target") ?? []), ...(choices?.querySelectorAll("button") ?? [])];
  }

  /** Focus the selected card's place at `at` (-1: the last). */
  focusTarget(at) {
    const found = this.targets();
    found.at(at)?.focus();
  }

  /** Focus the hand's card of `selection` (or the top of one's discard pile). */
  focusCard(selection) {
    const card = selection.source === SOURCE.HAND ? this.parts.hand?.querySelector(`.card[data-index="${Number(selection.index)}"]`) : this.parts.seats?.querySelector(".discard.playable");
    card?.focus();
  }

  /** An arrow key: the next or previous card of the hand, or place of the selected card. */
  moveFocus(step) {
    const here = document.activeElement;
    const cards = [...(this.parts.hand?.querySelectorAll(".card:not([disabled])") ?? [])];
    const places = this.targets();
    const ring = cards.includes(here) ? cards : places.includes(here) ? places : null;
    if (!ring?.length) return false;
    ring[(ring.indexOf(here) + step + ring.length) % ring.length].focus();
    return true;
  }

  pressCard(at) {
    const card = this.parts.hand?.querySelectorAll(".card")[at];
    if (!card || card.disabled) return;
    card.click();
  }

  discardSelected() {
    const discard = this.chosen.find((a) => a.type === ACTION.DISCARD);
    if (discard) this.act(discard.id);
  }
}

/** The seat after `seat` in the direction of play (#15), as an arrow and a name. */
function nextSeat(seat, view, name) {
  const count = view.hand_sizes.length;
  const next = name((seat + (view.direction > 0 ? 1 : -1) + count) % count);
  const arrow = svg("svg", { viewBox: "0 0 24 24", width: 14, height: 14, "aria-hidden": "true" }, svg("path", { d: "M4 12h14m-6-6 6 6-6 6", fill: "none", stroke: "currentColor", "stroke-width": 2.4, "stroke-linecap": "round", "stroke-linejoin": "round" }));
  return h("div", { class: "next-seat", title: t("table.next_seat", { player: next }) }, arrow, h("span", { class: "sr-only" }, t("table.next_seat", { player: next })), h("span", { "aria-hidden": "true" }, next));
}

/** A note under a seat with a countdown that countdown.js fills in. */
function countdownNote(key) {
  return h("div", { class: "asked-note" }, t(key), h("span", { "data-countdown": "" }));
}
