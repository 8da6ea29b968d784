// The tutorial, "Learn to play" (#15): a guided game on prepared deals. Each lesson is a
// position the server keeps (GET /api/tutorial: the learner's view of each, and the
// learner's action table and the piles' slots); the learner's move goes to the server,
// which applies it with the engine to the lesson's position (POST /api/tutorial/<lesson>)
// and answers with the events (each with its log line as data), the view after it and
// whether it was the move the lesson asked for. The board is the table's (board.js),
// fed from the lessons; every word is a message.

import { Board, boardParts } from "./board.js";
import { h } from "./dom.js";
import { loadWords, t } from "./messages.js";
import { toggled } from "./moves.js";
import { Notice } from "./notice.js";
import { setUpPage } from "./pagewords.js";
import { setUpHelp } from "./rules.js";
import { eventLine, line, refusalLine } from "./words.js";

const $ = (selector) => document.querySelector(selector);

// Where a lesson is: waiting for the move, the awaited move made, another move made.
const STATUS = Object.freeze({ TRY: "try", DONE: "done", OTHER: "other" });

// The course as GET /api/tutorial gives it: the lessons, the learner's action table
// (every action id as fields, the same for every lesson) and the piles' slots.
const course = { lessons: [], actionTable: null, slots: null, done: new Set() };
// The lesson shown: its view (the lesson's, or the one after a move), where it is, the
// events of the move made, the selected card; `busy` while a move is on its way.
const lesson = { index: 0, view: null, status: STATUS.TRY, events: [], why: null, selection: null, busy: false };

let board = null;
const notice = new Notice($("#notice"));

// --- names ---------------------------------------------------------------------------

function you() {
  return course.lessons[lesson.index]?.seat ?? 0;
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

// --- the board's callbacks -----------------------------------------------------------------

function select(next) {
  lesson.selection = toggled(lesson.selection, next);
  render();
}

async function act(id) {
  if (lesson.busy) return;
  lesson.busy = true;
  const index = lesson.index;
  try {
    const response = await fetch(`/api/tutorial/${index}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ action_id: id }),
    });
    const data = await response.json();
    if (lesson.index !== index) return;
    if (!response.ok) {
      notice.show(refusalLine(data, logName), "error");
      return;
    }
    if (data.expected) course.done.add(index);
    Object.assign(lesson, { status: data.expected ? STATUS.DONE : STATUS.OTHER, view: data.view, events: data.events, why: data.why, selection: null });
    // What happened is open where there is room for it (a wide screen), one tap away on a phone.
    $("#happened").open = !matchMedia("(max-width: 860px)").matches;
    render();
    // The page stays where it is (#24: no jump back up after a move); the lesson's next
    // step takes the focus without scrolling.
    const next = data.expected ? (index + 1 < course.lessons.length ? $("#next") : $("#play")) : $("#retry");
    next.focus({ preventScroll: true });
  } catch (error) {
    console.error(error);
    notice.show(t("page.learn.unavailable"), "error");
  } finally {
    lesson.busy = false;
  }
}

/** Show lesson `index` from its start. */
function show(index) {
  lesson.index = Math.max(0, Math.min(course.lessons.length - 1, index));
  Object.assign(lesson, { view: course.lessons[lesson.index].view, status: STATUS.TRY, events: [], why: null, selection: null });
  history.replaceState(null, "", `#${lesson.index + 1}`);
  render();
}

// --- rendering -----------------------------------------------------------------------

function render() {
  renderLesson();
  board.render({
    view: lesson.view,
    actionTable: course.actionTable,
    slots: course.slots,
    you: you(),
    name: boardName,
    selection: lesson.selection,
    hint: null,
    active: lesson.status === STATUS.TRY,
  });
}

function renderLesson() {
  const shown = course.lessons[lesson.index];
  const count = course.lessons.length;
  const last = lesson.index + 1 === count;
  const done = course.done.has(lesson.index);
  $("#progress").textContent = t("page.learn.progress", { step: lesson.index + 1, count });
  const bar = $("#progress-bar");
  bar.max = count;
  bar.value = lesson.index + (lesson.status === STATUS.DONE ? 1 : 0);
  $("#lesson-title").textContent = t(`learn.${shown.key}.title`);
  const words = {
    [STATUS.TRY]: [t(`learn.${shown.key}.goal`, lessonArgs())],
    [STATUS.DONE]: [t(`learn.${shown.key}.after`, lessonArgs()), last ? t("learn.finished") : ""],
    // After another move, why the step's move is worth making (#27: a hint's reason).
    [STATUS.OTHER]: [t("learn.other_move"), lesson.why ? line(lesson.why, logName) : ""],
  }[lesson.status];
  $("#lesson-text").textContent = words.filter(Boolean).join(" ");
  $("#lesson").dataset.status = lesson.status;
  const lines = lesson.events.map((event) => eventLine(event, logName)).filter(Boolean);
  $("#happened").hidden = !lines.length;
  $("#events").replaceChildren(...lines.map((text) => h("li", {}, text)));
  $("#retry").hidden = lesson.status !== STATUS.OTHER;
  $("#prev").disabled = lesson.index === 0;
  $("#next").hidden = last;
  $("#next").disabled = !done;
  $("#play").hidden = !(last && done);
}

// --- controls ------------------------------------------------------------------------

function setUpControls() {
  board = new Board(boardParts(), { act, select });
  $("#prev").addEventListener("click", () => show(lesson.index - 1));
  $("#next").addEventListener("click", () => {
    show(lesson.index + 1);
    $("#lesson-title").focus();
  });
  $("#retry").addEventListener("click", () => {
    show(lesson.index);
    $("#lesson-title").focus();
  });
  const openRules = setUpHelp();
  // The table's keys (page.help.keys): the board's, and ? opens the rules.
  document.addEventListener("keydown", (event) => {
    if (event.target.closest?.("input, textarea, select, dialog") || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "?") openRules();
    else if (board.keydown(event) && event.key.startsWith("Arrow")) event.preventDefault();
  });
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
  Object.assign(course, { lessons: data.lessons, actionTable: data.action_table, slots: data.slots });
  const asked = /^#(\d+)$/.exec(location.hash);
  show(asked ? Number(asked[1]) - 1 : 0);
}

// Test hook: the browser tests read the lessons and the lesson shown.
window.sequenceStacks = { course, lesson };

loadWords()
  .catch((error) => console.error(`the messages or the catalog did not load: ${error}`))
  .finally(() => {
    setUpPage();
    start();
  });
