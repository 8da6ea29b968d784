// The tutorial, "Learn to play" (#15): a guided game on prepared deals. Each lesson is a
// position the server keeps (GET /api/tutorial: the learner's view of each, and the
// learner's action table); the learner's move goes to the server, which applies it with
// the engine to the lesson's position (POST /api/tutorial/<lesson>) and answers with the
// events, the view after it and whether it was the move the lesson asked for. The board
// is drawn with the live table's pieces (board.js, cards.js); every word is a message.

import { chipsBox, decksRow, fillDiscard, miniHand, pileFace, pileNeed, renderDecks, showDirection, turnText } from "./board.js";
import { cardElement, colourClass } from "./cards.js";
import { choiceLabel, pileColour } from "./choices.js";
import { fitCardWords, h } from "./dom.js";
import { eventLine, kindInfo, kindOf, pileName, refusalLine } from "./eventlog.js";
import { loadWords, t } from "./messages.js";
import { setUpPage } from "./pagewords.js";
import { openHelp } from "./rules.js";

const $ = (selector) => document.querySelector(selector);

const tut = {
  lessons: [],
  fields: null, // the learner's action table: every action id as fields
  index: 0,
  view: null, // the view shown: the lesson's, or the one after a move
  status: "try", // "try": waiting for the move; "done": the awaited move; "other": another one
  events: [],
  selected: null, // "hand:<kind>" or "top"
  selectedIndex: -1,
  done: new Set(),
  busy: false,
};

// --- names ---------------------------------------------------------------------------

function you() {
  return tut.lessons[tut.index]?.seat ?? 0;
}

/** A seat on the board: "You" for the learner, else "Player N". */
function boardName(seat) {
  return seat === you() ? t("seat.you") : t("seat.numbered", { number: seat + 1 });
}

/** A seat in a log line: "Player 1 (you)" for the learner. */
function logName(seat) {
  const name = t("seat.numbered", { number: seat + 1 });
  return seat === you() ? t("seat.you_named", { name }) : name;
}

/** The names a lesson's words may use: the next player and the one after. */
function lessonArgs() {
  return { player: boardName(you() + 1), other: boardName(you() + 2) };
}

// --- legal actions -------------------------------------------------------------------

function legal() {
  if (tut.status !== "try" || !tut.view || !tut.fields) return [];
  return tut.view.legal_action_ids.map((id) => ({ id, ...tut.fields[id] }));
}

function sourceActions(source) {
  return legal().filter((a) => (source === "top" ? a.from_discard : a.kind === Number(source.slice(5)) && !a.from_discard));
}

function plainAction(type) {
  return legal().find((a) => a.type === type)?.id ?? null;
}

function select(source, index = -1) {
  if (tut.selected === source && tut.selectedIndex === index) tut.selected = null;
  else {
    tut.selected = source;
    tut.selectedIndex = index;
  }
  render();
}

// --- moves ---------------------------------------------------------------------------

async function act(id) {
  if (id === null || tut.busy) return;
  tut.busy = true;
  const index = tut.index;
  try {
    const response = await fetch(`/api/tutorial/${index}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ action_id: id }),
    });
    const data = await response.json();
    if (tut.index !== index) return;
    if (!response.ok) {
      notify(refusalLine(data, logName));
      return;
    }
    tut.status = data.expected ? "done" : "other";
    if (data.expected) tut.done.add(index);
    tut.view = data.view;
    tut.events = data.events;
    tut.selected = null;
    render();
    const next = data.expected ? (index + 1 < tut.lessons.length ? $("#next") : $("#play")) : $("#retry");
    $("#lesson").scrollIntoView({ block: "nearest" });
    next.focus({ preventScroll: true });
  } catch (error) {
    console.error(error);
    notify(t("page.learn.unavailable"));
  } finally {
    tut.busy = false;
  }
}

/** Show lesson `index` from its start. */
function show(index) {
  tut.index = Math.max(0, Math.min(tut.lessons.length - 1, index));
  const lesson = tut.lessons[tut.index];
  tut.view = lesson.view;
  tut.status = "try";
  tut.events = [];
  tut.selected = null;
  history.replaceState(null, "", `#${tut.index + 1}`);
  render();
}

let noticeTimer = null;

function notify(text) {
  const box = $("#notice");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => (box.hidden = true), 6000);
}

// --- rendering -----------------------------------------------------------------------

function render() {
  renderLesson();
  const view = tut.view;
  $("#turn .text").textContent = turnText(view, you(), boardName);
  $("#turn").dataset.mine = String(tut.status === "try" && view.phase === "playing" && view.current === you());
  showDirection($("#direction"), view.direction);
  $("#skips").hidden = !view.pending_skips;
  $("#skips").textContent = t("table.skips_pending", { count: view.pending_skips });
  renderDecks(view);
  renderPiles();
  renderPrompt();
  renderHand();
  renderSeats();
}

function renderLesson() {
  const lesson = tut.lessons[tut.index];
  const count = tut.lessons.length;
  const last = tut.index + 1 === count;
  $("#progress").textContent = t("page.learn.progress", { step: tut.index + 1, count });
  const bar = $("#progress-bar");
  bar.max = count;
  bar.value = tut.index + (tut.status === "done" ? 1 : 0);
  $("#lesson-title").textContent = t(`learn.${lesson.key}.title`);
  const words = {
    try: [t(`learn.${lesson.key}.goal`, lessonArgs())],
    done: [t(`learn.${lesson.key}.after`, lessonArgs()), last ? t("learn.finished") : ""],
    other: [t("learn.other_move")],
  }[tut.status];
  $("#lesson-text").textContent = words.filter(Boolean).join(" ");
  $("#lesson").dataset.status = tut.status;
  const lines = tut.events.map((event) => eventLine(event, logName)).filter(Boolean);
  $("#happened").hidden = !lines.length;
  $("#events").replaceChildren(...lines.map((text) => h("li", {}, text)));
  $("#retry").hidden = tut.status !== "other";
  $("#prev").disabled = tut.index === 0;
  $("#next").hidden = last;
  $("#next").disabled = !tut.done.has(tut.index);
  $("#play").hidden = !(last && tut.done.has(tut.index));
}

function renderPiles() {
  const view = tut.view;
  const per = view.settings.piles_per_colour;
  const selected = tut.selected ? sourceActions(tut.selected) : [];
  const piles = [];
  for (let colour = 0; colour < view.piles.length / per; colour++) {
    const firstFree = [...Array(per).keys()].find((p) => view.piles[colour * per + p].length === 0);
    for (let p = 0; p < per; p++) {
      const slot = colour * per + p;
      const cards = view.piles[slot];
      const targets = selected.filter((a) => a.type === "play" && pileColour(a) === colour && (a.pile === p || (a.pile === null && p === firstFree)));
      const label = t("table.pile_label", { pile: pileName(colour, p), count: cards.length });
      const box = h("button", { type: "button", class: `pile ${colourClass(colour)}` });
      if (targets.length) {
        box.classList.add("target");
        box.addEventListener("click", () => act(targets[0].id));
      } else {
        box.disabled = true;
      }
      if (view.phase === "block_window" && view.window_pile === slot) box.classList.add("completed");
      const empty = t(targets.length ? "table.start_here" : "table.pile_empty");
      const face = h("span", { class: "pile-face", "aria-hidden": "true" }, ...pileFace(cards, colour, p, empty), h("span", { class: "need" }, pileNeed(cards.length)));
      box.append(h("span", { class: "sr-only" }, targets.length ? t("table.play_here", { label }) : label), face);
      piles.push(box);
    }
  }
  $("#piles").replaceChildren(...piles);
}

function renderPrompt() {
  const view = tut.view;
  const prompt = $("#block-prompt");
  const asked = tut.status === "try" && view.phase === "block_window" && view.window_pending.includes(you());
  prompt.hidden = !asked;
  if (!asked) return;
  const per = view.settings.piles_per_colour;
  const pile = pileName(Math.floor(view.window_pile / per), view.window_pile % per);
  prompt.querySelector(".text").textContent = t("prompt.block", { player: boardName(view.window_completer), pile });
  $("#answer-block").disabled = plainAction("block") === null;
}

/** A card's place in a sorted hand: by colour, numbers up then the wild, actions last. */
function handOrder(card) {
  const info = kindInfo(kindOf(card));
  if (info.action) return 100 + info.index;
  return info.colour * 10 + (info.wild ? 9 : info.rank);
}

function renderHand() {
  const view = tut.view;
  const all = legal().filter((a) => !a.from_discard);
  const shown = view.hand.map((card, index) => [card, index]).sort((one, other) => handOrder(one[0]) - handOrder(other[0]) || one[1] - other[1]);
  const cards = shown.map(([card, index]) => {
    const kind = kindOf(card);
    const source = `hand:${kind}`;
    const el = cardElement(card, { button: true });
    const uses = all.filter((a) => a.kind === kind);
    const chosen = tut.selected === source && tut.selectedIndex === index;
    el.classList.toggle("playable", uses.some((a) => a.type !== "discard"));
    el.classList.toggle("selected", chosen);
    el.disabled = !uses.length;
    el.setAttribute("aria-pressed", String(chosen));
    el.addEventListener("click", () => select(source, index));
    return el;
  });
  $("#hand").replaceChildren(...cards);
  fitCardWords($("#hand"));
  renderChoices();
}

// A turned phone changes the cards' size: their words are fitted again.
window.addEventListener("resize", () => fitCardWords($("#hand")));

function renderChoices() {
  const bar = $("#choices");
  const end = plainAction("end");
  const buttons = end === null ? [] : [choice(t("choice.end"), end, "primary")];
  if (tut.selected) {
    for (const a of sourceActions(tut.selected)) buttons.push(choice(choiceLabel(a, boardName), a.id, a.type === "discard" ? "discard" : "primary"));
    const cancel = h("button", { type: "button", class: "ghost" }, t("choice.cancel"));
    cancel.addEventListener("click", () => select(null));
    buttons.push(cancel);
  } else if (tut.status === "try" && tut.view.phase === "playing") {
    buttons.push(h("span", { class: "muted" }, t("choice.hint")));
  }
  bar.replaceChildren(...buttons);
}

function choice(text, id, kind) {
  const el = h("button", { type: "button", class: kind }, text);
  el.addEventListener("click", () => act(id));
  return el;
}

function renderSeats() {
  const view = tut.view;
  const selected = tut.selected ? sourceActions(tut.selected) : [];
  const fromTop = legal().some((a) => a.from_discard);
  const panels = view.hand_sizes.map((size, seat) => {
    const panel = h("section", { class: "seat" });
    if (seat === you()) panel.classList.add("me");
    if (!view.result && view.phase === "playing" && view.current === seat) panel.classList.add("current");
    if (view.phase === "block_window" && view.window_pending.includes(seat)) panel.classList.add("asked");
    const winner = view.result?.winner === seat;
    panel.append(h("header", {}, h("b", { class: "name" }, boardName(seat)), winner ? h("span", { class: "badge winner-badge" }, t("table.winner")) : null));
    const pile = view.discards[seat];
    const discard = h("button", { type: "button", class: "discard" });
    const steal = selected.find((a) => a.type === "steal_card" && a.victim === seat);
    if (steal) {
      discard.classList.add("target");
      discard.addEventListener("click", () => act(steal.id));
    } else if (seat === you() && fromTop) {
      discard.classList.add("playable");
      discard.addEventListener("click", () => select("top"));
    } else {
      discard.disabled = true;
    }
    const label = seat === you()
      ? t("table.discard_label.own", { count: pile.length })
      : t("table.discard_label", { player: boardName(seat), count: pile.length });
    // Named by a hidden sentence, the top card and count beside it (WCAG 2.5.3).
    const face = h("span", { class: "discard-face", "aria-hidden": "true" });
    fillDiscard(face, pile);
    discard.append(h("span", { class: "sr-only" }, label), face);
    panel.append(h("div", { class: "seat-row" }, miniHand(size), discard, chipsBox(view.chips[seat])));
    return panel;
  });
  $("#seats").replaceChildren(...panels);
}

// --- controls ------------------------------------------------------------------------

function setUpControls() {
  $(".felt").prepend(decksRow());
  $("#prev").addEventListener("click", () => show(tut.index - 1));
  $("#next").addEventListener("click", () => {
    show(tut.index + 1);
    $("#lesson-title").focus();
  });
  $("#retry").addEventListener("click", () => {
    show(tut.index);
    $("#lesson-title").focus();
  });
  $("#answer-block").addEventListener("click", () => act(plainAction("block")));
  $("#answer-pass").addEventListener("click", () => act(plainAction("pass")));
  $("#notice").addEventListener("click", () => ($("#notice").hidden = true));
  const help = $("#help");
  $("#help-open").addEventListener("click", () => openHelp(help));
  help.querySelector(".close").addEventListener("click", () => help.close());
  document.addEventListener("keydown", (event) => {
    if (event.target.closest?.("input, textarea, select, dialog") || event.ctrlKey || event.metaKey || event.altKey) return;
    onKey(event.key, help);
  });
}

/** The table's keys (page.help.keys): 1-9 select a card, D discards it, Esc clears the
 * selection, B/P answer the Block prompt, ? opens the rules. */
function onKey(key, help) {
  const prompt = !$("#block-prompt").hidden;
  if (key === "?") openHelp(help);
  else if (key === "Escape" && tut.selected) select(null);
  else if (prompt && key.toLowerCase() === "b") act(plainAction("block"));
  else if (prompt && key.toLowerCase() === "p") act(plainAction("pass"));
  else if (/^[1-9]$/.test(key)) {
    const card = document.querySelectorAll("#hand .card")[Number(key) - 1];
    if (card && !card.disabled) {
      card.click();
      document.querySelectorAll("#hand .card")[Number(key) - 1]?.focus();
    }
  } else if (key.toLowerCase() === "d" && tut.selected?.startsWith("hand:")) {
    const discard = sourceActions(tut.selected).find((a) => a.type === "discard");
    if (discard) act(discard.id);
  }
}

async function start() {
  setUpControls();
  let data;
  try {
    const response = await fetch("/api/tutorial");
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    data = await response.json();
  } catch (error) {
    console.error(`the lessons did not load: ${error}`);
    $("#lesson-text").textContent = t("page.learn.unavailable");
    return;
  }
  tut.lessons = data.lessons;
  tut.fields = data.action_table;
  const asked = /^#(\d+)$/.exec(location.hash);
  show(asked ? Number(asked[1]) - 1 : 0);
}

// Test hook: the browser tests read the lessons' awaited moves.
window.sequenceStacks = { tut };

loadWords()
  .catch((error) => console.error(`the messages or the catalog did not load: ${error}`))
  .finally(() => {
    setUpPage();
    start();
  });
