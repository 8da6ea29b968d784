// The replay page: step through a game. While it runs you see only what your seat
// (or a spectator) could see; once it is over, every hand is shown.

import { cardBack, cardElement, COLOURS, prettyText } from "./cards.js";
import { h } from "./dom.js";

const parts = location.pathname.split("/");
const tableId = decodeURIComponent(parts[2]);
const game = Number(parts[3]);
const token = localStorage.getItem(`sequence-stacks:token:${tableId}`);
const slider = document.querySelector("#step");
let names = [];
let total = 0;

async function load(step) {
  const query = step === null ? "" : `?step=${step}`;
  const headers = token ? { "x-seat-token": token } : {};
  const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/games/${game}${query}`, { headers });
  const data = await response.json();
  if (!response.ok) {
    document.querySelector("#replay-note").textContent = data.reason;
    return;
  }
  if (!names.length) {
    const table = await (await fetch(`/api/tables/${encodeURIComponent(tableId)}`)).json();
    names = table.seats.map((s) => s.name);
  }
  total = data.steps;
  slider.max = String(total);
  slider.value = String(data.step);
  document.querySelector("#replay-title").textContent = `Replay: table ${tableId.slice(0, 6)}, game ${game}`;
  document.querySelector("#replay-note").textContent = data.over
    ? "The game is over: every hand is shown."
    : data.you === null ? "The game is running: you see what a spectator sees." : "The game is running: you see only your own hand.";
  document.querySelector("#step-label").textContent = `step ${data.step} of ${total}`;
  render(data);
}

function render(data) {
  const view = data.view;
  const events = document.querySelector("#step-events");
  events.replaceChildren();
  for (const event of data.entry.events) {
    if (!event.text) continue;
    const li = document.createElement("li");
    li.textContent = prettyText(event.text, names);
    events.append(li);
  }
  const per = view.settings.piles_per_colour;
  const piles = document.querySelector("#replay-piles");
  piles.replaceChildren();
  view.piles.forEach((cards, slot) => {
    const colour = Math.floor(slot / per);
    const box = document.createElement("div");
    box.className = `pile ${COLOURS[colour]}`;
    const stack = document.createElement("div");
    stack.className = "stack";
    cards.forEach((card, i) => {
      const el = cardElement(card, { small: true });
      el.style.setProperty("--i", i);
      stack.append(el);
    });
    if (!cards.length) stack.append(h("span", { class: "slot-empty" }, "empty"));
    const caption = h("div", { class: "caption" },
      h("span", {}, `${COLOURS[colour]} pile ${(slot % per) + 1}`),
      h("span", { class: "count" }, `${cards.length}/5`));
    box.append(stack, caption);
    piles.append(box);
  });
  const seats = document.querySelector("#replay-seats");
  seats.replaceChildren();
  view.hand_sizes.forEach((size, seat) => {
    const panel = document.createElement("section");
    panel.className = "seat" + (view.current === seat ? " current" : "");
    const header = h("header", {},
      h("b", { class: "name" }, names[seat] ?? `Seat ${seat + 1}`),
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
      panel.append(h("div", { class: "muted" }, "discard pile"), discard);
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
load(null);
