// The replay page: step through a game from its deal (#15). While it runs you see only
// what your seat (or a spectator) could see; once it is over, every hand is shown. The
// move list comes from the last step's frame (`moves`), each step's board from its own
// frame, drawn by the table's board (board.js), read-only. Every word comes from the
// messages and every card fact from the catalog (#13).

import { Board, boardParts } from "./board.js";
import { h, svg } from "./dom.js";
import { loadWords, t } from "./messages.js";
import { keyStep, moveLines, SPEEDS, stepDelay, turnsOf } from "./movelist.js";
import { setUpPage } from "./pagewords.js";
import { standingsTable } from "./pieces.js";
import { eventLine, refusalLine, seatLabel, tableTitle } from "./words.js";

const parts = location.pathname.split("/");
const tableId = decodeURIComponent(parts[2]);
const game = Number(parts[3]);
const token = localStorage.getItem(`sequence-stacks:token:${tableId}`);
const SPEED_KEY = "sequence-stacks:replay-speed";
const $ = (selector) => document.querySelector(selector);
const slider = $("#step");
let board = null;

const replay = {
  names: [],
  options: null, // the table's own options: its name, as the table page shows it (#24)
  you: null,
  total: 0,
  moves: [],
  step: 0, // the step shown
  wanted: 0, // the step asked for last: a slower answer for another one is dropped
  frames: new Map(), // step -> the promise of its frame
  playing: false,
  speed: 1,
  timer: null,
};

// --- names and data ------------------------------------------------------------------

/** A seat's display name: the player's, else "Player N". */
function seatName(seat) {
  return replay.names[seat] || t("seat.numbered", { number: seat + 1 });
}

/** A seat as the log names it: "Ann (you)" for your own. */
function logName(seat) {
  const name = seatName(seat);
  return seat === replay.you ? t("seat.you_named", { name }) : name;
}

class Refused extends Error {
  constructor(data) {
    super(data.code);
    this.data = data;
  }
}

/** The frame of one step (null: the last one), fetched once (a request under way is shared). */
function frameAt(step) {
  if (!replay.frames.has(step)) {
    const loading = fetchFrame(step);
    replay.frames.set(step, loading);
    loading.then((data) => replay.frames.set(data.step, loading), () => replay.frames.delete(step));
  }
  return replay.frames.get(step);
}

async function fetchFrame(step) {
  const query = step === null ? "" : `?step=${step}`;
  const headers = token ? { "x-seat-token": token } : {};
  const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/games/${game}${query}`, { headers });
  const data = await response.json();
  if (!response.ok) throw new Refused(data);
  return data;
}

/** The seats' names and the table's options, from its public facts. */
async function tableFacts() {
  const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}`);
  if (!response.ok) return { names: [], options: null };
  const table = await response.json();
  return { names: table.seats.map((seat) => seatLabel(seat)), options: table.options ?? null };
}

function showError(error) {
  console.error(error);
  $("#replay-note").textContent = error instanceof Refused ? refusalLine(error.data, seatName) : t("refused.bad_request");
}

// --- going to a step -----------------------------------------------------------------

/** Show step `step` (kept within the game). */
async function go(step) {
  const to = Math.max(0, Math.min(replay.total, step));
  replay.wanted = to;
  let data;
  try {
    data = await frameAt(to);
  } catch (error) {
    pause();
    showError(error);
    return;
  }
  if (replay.wanted !== to) return;
  replay.step = to;
  render(data);
}

/** Go to a step the reader chose; autoplay, if on, goes on from there. */
function jump(step) {
  go(step).then(schedule);
}

function schedule() {
  clearTimeout(replay.timer);
  if (!replay.playing) return;
  if (replay.step >= replay.total) {
    pause();
    return;
  }
  frameAt(replay.step + 1).catch(() => {}); // fetched while this step is shown
  replay.timer = setTimeout(() => go(replay.step + 1).then(schedule), stepDelay(replay.speed));
}

function play() {
  replay.playing = true;
  showPlaying();
  if (replay.step >= replay.total) jump(0);
  else schedule();
}

function pause() {
  replay.playing = false;
  clearTimeout(replay.timer);
  showPlaying();
}

function toggle() {
  if (replay.playing) pause();
  else play();
}

// --- rendering -------------------------------------------------------------------------

// Control icons (24x24), drawn in the text colour: no font needs to have them.
const ICONS = {
  first: [["path", { d: "M6 5v14", stroke: "currentColor", "stroke-width": 2.6 }], ["path", { d: "M19 5 9 12l10 7z", fill: "currentColor" }]],
  prev: [["path", { d: "M17 5 7 12l10 7z", fill: "currentColor" }]],
  play: [["path", { d: "M8 5l11 7-11 7z", fill: "currentColor" }]],
  pause: [["rect", { x: 6, y: 5, width: 4, height: 14, rx: 1, fill: "currentColor" }], ["rect", { x: 14, y: 5, width: 4, height: 14, rx: 1, fill: "currentColor" }]],
  next: [["path", { d: "M7 5l10 7-10 7z", fill: "currentColor" }]],
  last: [["path", { d: "M18 5v14", stroke: "currentColor", "stroke-width": 2.6 }], ["path", { d: "M5 5l10 7-10 7z", fill: "currentColor" }]],
};

function controlIcon(name) {
  const shapes = ICONS[name].map(([tag, attrs]) => svg(tag, attrs));
  return svg("svg", { viewBox: "0 0 24 24", width: 22, height: 22, "aria-hidden": "true", focusable: "false" }, ...shapes);
}

function showPlaying() {
  const button = $("#play");
  const label = t(replay.playing ? "page.replay.pause" : "page.replay.play");
  button.replaceChildren(controlIcon(replay.playing ? "pause" : "play"));
  button.setAttribute("aria-label", label);
  button.title = label;
  button.setAttribute("aria-pressed", String(replay.playing));
}

function render(data) {
  const view = data.view;
  slider.value = String(data.step);
  $("#step-label").textContent = t("replay.step", { step: data.step, count: replay.total });
  // At either end its buttons are dimmed, not disabled: a disabled button drops the focus.
  for (const id of ["first", "prev"]) $(`#${id}`).classList.toggle("at-end", data.step === 0);
  for (const id of ["next", "last"]) $(`#${id}`).classList.toggle("at-end", data.step >= replay.total);
  const lines = data.entry.events.map((event) => eventLine(event, logName)).filter(Boolean);
  $("#step-events").replaceChildren(...lines.map((text) => h("li", {}, text)));
  // Every hand once the game is over; while it runs, only your own.
  const hands = data.hands ?? view.hand_sizes.map((_, seat) => (seat === data.you ? view.hand : null));
  board.render({ view, actionTable: null, slots: data.slots, you: replay.you, name: logName, selection: null, hint: null, hands });
  const standings = data.standings ?? [];
  $("#result").hidden = !standings.length;
  $("#result .standings").replaceChildren(...standingsTable(standings, logName));
  markMove(data.step);
  history.replaceState(null, "", `#${data.step}`);
}

// --- the move list ---------------------------------------------------------------------

function buildMoves() {
  const groups = turnsOf(replay.moves).map((group) => {
    const head = group.turn ? t("log.TurnStarted", { turn: group.turn, player: logName(group.seat) }) : t("replay.deal");
    return h("li", { class: "turn-group" }, h("div", { class: "turn-head" }, head), h("ol", {}, ...group.steps.map(moveButton)));
  });
  $("#moves").replaceChildren(...groups);
}

function moveButton(step) {
  const lines = moveLines(replay.moves[step], logName);
  if (!lines.length) lines.push(t("replay.step", { step, count: replay.total }));
  const button = h("button", { type: "button", class: "move", "data-step": step }, ...lines.map((text) => h("span", { class: "line" }, text)));
  button.addEventListener("click", () => jump(step));
  return h("li", {}, button);
}

/** Highlight the move shown and scroll the list (only the list) to it. */
function markMove(step) {
  const list = $("#moves");
  for (const old of list.querySelectorAll(".move.current")) {
    old.classList.remove("current");
    old.removeAttribute("aria-current");
  }
  const shown = list.querySelector(`.move[data-step="${step}"]`);
  if (!shown) return;
  shown.classList.add("current");
  shown.setAttribute("aria-current", "step");
  const top = shown.offsetTop;
  const bottom = top + shown.offsetHeight;
  if (top < list.scrollTop || bottom > list.scrollTop + list.clientHeight) {
    list.scrollTop = Math.max(0, top - (list.clientHeight - shown.offsetHeight) / 2);
  }
}

// --- controls --------------------------------------------------------------------------

function setUpControls() {
  board = new Board(boardParts({ piles: "#replay-piles", seats: "#replay-seats" }), { readOnly: true });
  for (const name of ["first", "prev", "next", "last"]) $(`#${name}`).replaceChildren(controlIcon(name));
  showPlaying();
  const speed = $("#speed");
  const stored = Number(localStorage.getItem(SPEED_KEY));
  replay.speed = SPEEDS.includes(stored) ? stored : 1;
  speed.replaceChildren(...SPEEDS.map((value) => h("option", { value, selected: value === replay.speed }, t("replay.speed", { speed: value }))));
  speed.value = String(replay.speed);
  speed.addEventListener("change", () => {
    replay.speed = Number(speed.value);
    localStorage.setItem(SPEED_KEY, speed.value);
    schedule();
  });
  slider.addEventListener("input", () => jump(Number(slider.value)));
  $("#first").addEventListener("click", () => jump(0));
  $("#prev").addEventListener("click", () => jump(replay.wanted - 1));
  $("#next").addEventListener("click", () => jump(replay.wanted + 1));
  $("#last").addEventListener("click", () => jump(replay.total));
  $("#play").addEventListener("click", toggle);
  document.addEventListener("keydown", (event) => {
    if (event.target.closest?.("input, textarea, select") || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === " ") {
      event.preventDefault(); // no page scroll, no click of a focused button
      toggle();
      return;
    }
    const to = keyStep(event.key, replay.wanted, replay.total); // from the step on its way
    if (to === null) return;
    event.preventDefault();
    jump(to);
  });
}

async function start() {
  setUpControls();
  let end;
  try {
    let facts;
    [end, facts] = await Promise.all([frameAt(null), tableFacts()]);
    Object.assign(replay, facts);
  } catch (error) {
    showError(error);
    return;
  }
  replay.you = end.you;
  replay.total = end.steps;
  replay.moves = end.moves;
  slider.max = String(end.steps);
  // The table's name as its own page shows it (#24), not its id.
  $("#replay-title").textContent = t("replay.title_named", { name: tableTitle(tableId, replay.options), game });
  $("#replay-note").textContent = t(end.over ? "replay.over" : end.you === null ? "replay.running_spectator" : "replay.running_seat");
  // A finished game has a review (#27): the win chances, the moments, the decisions.
  $("#review-link").hidden = !end.over;
  $("#review-link").href = `/review/${encodeURIComponent(tableId)}/${game}`;
  buildMoves();
  const asked = /^#(\d+)$/.exec(location.hash);
  await go(asked ? Number(asked[1]) : 0);
}

loadWords()
  .catch((error) => console.error(`the messages or the catalog did not load: ${error}`))
  .finally(() => {
    setUpPage();
    start();
  });
