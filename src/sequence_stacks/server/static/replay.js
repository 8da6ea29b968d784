// The replay page: step through a game. While it runs you see only what your seat
// (or a spectator) could see; once it is over, every hand is shown. Every word comes
// from the messages and every card fact from the catalog (#13).

import { cardBack, cardElement, colourClass } from "./cards.js";
import { h } from "./dom.js";
import { eventMessage, line, pileName, refusalLine, seatLabel } from "./eventlog.js";
import { loadWords, t } from "./messages.js";
import { setUpPage } from "./pagewords.js";

const parts = location.pathname.split("/");
const tableId = decodeURIComponent(parts[2]);
const game = Number(parts[3]);
const token = localStorage.getItem(`sequence-stacks:token:${tableId}`);
const slider = document.querySelector("#step");
let names = [];
let you = null;
let total = 0;

/** A seat's display name: the player's, else "Player N". */
function seatName(seat) {
  return names[seat] || t("seat.numbered", { number: seat + 1 });
}

/** A seat as the log names it: "Ann (you)" for your own. */
function logName(seat) {
  const name = seatName(seat);
  return seat === you ? t("seat.you_named", { name }) : name;
}

async function load(step) {
  const query = step === null ? "" : `?step=${step}`;
  const headers = token ? { "x-seat-token": token } : {};
  const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/games/${game}${query}`, { headers });
  const data = await response.json();
  if (!response.ok) {
    document.querySelector("#replay-note").textContent = refusalLine(data, seatName);
    return;
  }
  if (!names.length) {
    const table = await (await fetch(`/api/tables/${encodeURIComponent(tableId)}`)).json();
    names = table.seats.map((s) => seatLabel(s));
  }
  you = data.you;
  total = data.steps;
  slider.max = String(total);
  slider.value = String(data.step);
  document.querySelector("#replay-title").textContent = t("replay.title", { id: tableId.slice(0, 6), game });
  document.querySelector("#replay-note").textContent = t(data.over
    ? "replay.over"
    : data.you === null ? "replay.running_spectator" : "replay.running_seat");
  document.querySelector("#step-label").textContent = t("replay.step", { step: data.step, count: total });
  render(data);
}

function render(data) {
  const view = data.view;
  const events = document.querySelector("#step-events");
  events.replaceChildren();
  for (const event of data.entry.events) {
    const found = eventMessage(event);
    if (found) events.append(h("li", {}, line(found, logName)));
  }
  const per = view.settings.piles_per_colour;
  const piles = document.querySelector("#replay-piles");
  piles.replaceChildren();
  view.piles.forEach((cards, slot) => {
    const colour = Math.floor(slot / per);
    const box = document.createElement("div");
    box.className = `pile ${colourClass(colour)}`;
    const stack = document.createElement("div");
    stack.className = "stack";
    cards.forEach((card, i) => {
      const el = cardElement(card, { small: true });
      el.style.setProperty("--i", i);
      stack.append(el);
    });
    if (!cards.length) stack.append(h("span", { class: "slot-empty" }, t("table.pile_empty")));
    const caption = h("div", { class: "caption" },
      h("span", {}, pileName(colour, slot % per)),
      h("span", { class: "count" }, t("table.pile_count", { count: cards.length })));
    box.append(stack, caption);
    piles.append(box);
  });
  const seats = document.querySelector("#replay-seats");
  seats.replaceChildren();
  view.hand_sizes.forEach((size, seat) => {
    const panel = document.createElement("section");
    panel.className = "seat" + (view.current === seat ? " current" : "");
    const header = h("header", {},
      h("b", { class: "name" }, seatName(seat)),
      h("span", { class: "chip blue" }, view.chips[seat][0]),
      h("span", { class: "chip red" }, view.chips[seat][1]));
    const hand = document.createElement("div");
    hand.className = "hand small";
    const cards = data.hands ? data.hands[seat] : seat === data.you ? view.hand : null;
    if (cards) cards.forEach((card) => hand.append(cardElement(card, { small: true })));
    else for (let i = 0; i < size; i++) hand.append(cardBack());
    const discard = document.createElement("div");
    discard.className = "hand small";
    view.discards[seat].forEach((card) => discard.append(cardElement(card, { small: true })));
    panel.append(header, hand);
    if (view.discards[seat].length) {
      panel.append(h("div", { class: "muted" }, t("replay.discard_pile")), discard);
    }
    seats.append(panel);
  });
}

const go = (step) => load(Math.max(0, Math.min(total, step)));
slider.addEventListener("input", () => go(Number(slider.value)));
document.querySelector("#first").addEventListener("click", () => go(0));
document.querySelector("#prev").addEventListener("click", () => go(Number(slider.value) - 1));
document.querySelector("#next").addEventListener("click", () => go(Number(slider.value) + 1));
document.querySelector("#last").addEventListener("click", () => go(total));
document.addEventListener("keydown", (event) => {
  if (event.key === "ArrowRight") go(Number(slider.value) + 1);
  if (event.key === "ArrowLeft") go(Number(slider.value) - 1);
});
loadWords()
  .catch((error) => console.error(`the messages or the catalog did not load: ${error}`))
  .finally(() => {
    setUpPage();
    load(null);
  });
