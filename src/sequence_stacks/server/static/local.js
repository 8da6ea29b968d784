// The game on one device (#25): people passing a phone or tablet round the table, and
// bots, with the package's own engine running in the page (localengine.js: Pyodide in
// a Web Worker), with or without a network. This page is a driver of the one board
// (board.js), as the table page is: it keeps what the engine answered (the view of the
// seat whose cards are shown, or the table's view between turns, and each seat's action
// table, shaped as the server's frames) and draws the board from it. Between two
// people's turns a hand-off screen hides every hand until the next player taps; a Block
// window is one public prompt (localprompt.js). The game is kept in IndexedDB after
// every move (localstore.js) and can be saved as a game record. It owns no rules.

import { animate, capture, land } from "./animate.js";
import { Board, boardParts } from "./board.js";
import { actionWords } from "./choices.js";
import { Countdown } from "./countdown.js";
import { canRunEngine, Engine, readBuild } from "./localengine.js";
import { TablePrompt } from "./localprompt.js";
import { seatsOf } from "./localseats.js";
import { PACE, Setup } from "./localsetup.js";
import { downloadRecord, dropSave, keepOffline, keepSave, loadSave } from "./localstore.js";
import { loadWords, t } from "./messages.js";
import { selectedActions, legalActions, selectionFor, toggled, windowKey } from "./moves.js";
import { Notice } from "./notice.js";
import { setUpPage } from "./pagewords.js";
import { resultText, standingsTable } from "./pieces.js";
import { setUpHelp } from "./rules.js";
import { play } from "./sounds.js";
import { renderSoundSwitch, soundSwitch } from "./soundswitch.js";
import { TableLog } from "./tablelog.js";
import { ACTION, EVENT, PHASE, TIMER } from "./vocabulary.js";
import { eventLine, refusalLine } from "./words.js";

const $ = (selector) => document.querySelector(selector);

const build = readBuild();
let engine = null;
let board = null;
let setup = null;

// The game: its fixed facts (players, settings, slots, action tables), the view drawn
// (of `viewer`: a seat whose cards are shown, or null: the table's), the person who has
// taken the device and shown their cards (`holder`), the standings once it is over.
// `serial` numbers games, so that a bot's move planned for one never lands in the next.
const game = { table: null, view: null, viewer: null, holder: null, version: 0, standings: null, pace: PACE.normal, serial: 0, busy: false };
const choice = { selection: null, hint: null };
const { players, isBot, people, solo, logViewer, seatName, boardName, logName, wantedViewer } = seatsOf(game);
let timer = null; // the bot's move or the window's answers that come next

const notice = new Notice($("#notice"));
const log = new TableLog({ list: $("#log"), box: $("#log-box"), toggle: $("#log-toggle"), close: $("#log-close"), lastLine: $("#last-line") });
const countdown = new Countdown();
const prompt = new TablePrompt({ box: $("#table-prompt"), nobody: $("#nobody-blocks"), claim: (seat) => claim(seat), name: seatName });

// --- asking the engine -------------------------------------------------------------------

async function ask(request) {
  const answer = await engine.ask({ viewer: game.viewer, log_viewer: logViewer(), ...request });
  if (answer.error) throw new Error(`${answer.error.code}: ${answer.error.reason}`);
  return answer;
}

/** Take what the engine answered: the view, the version, the standings; keep the save. */
function take(answer) {
  Object.assign(game, { view: answer.view, version: answer.version, standings: answer.standings });
  keepSave(answer.save);
}

/** The board's view for the seat that should see it now (asked again when it changed). */
async function settleViewer() {
  if (game.holder !== null && (game.view.phase !== PHASE.PLAYING || !game.view.deciders.includes(game.holder))) game.holder = null;
  const wanted = wantedViewer();
  if (wanted === game.viewer) return;
  game.viewer = wanted;
  const answer = await ask({ op: "view" });
  game.view = answer.view;
}

// --- a game from its start to its end -------------------------------------------------------

/** A random seed a JavaScript number holds exactly. */
function newSeed() {
  const words = crypto.getRandomValues(new Uint32Array(2));
  return (words[0] & 0x1fffff) * 2 ** 32 + words[1];
}

// Every change goes through one queue: a bot's move, a person's, a Block claim, the
// hand-off. Each runs after the one before has been shown, and looks afresh at the game
// (a tap on a button drawn before a bot moved changes nothing).
let queue = Promise.resolve();

function exclusive(work) {
  const run = queue.then(async () => {
    game.busy = true;
    try {
      await work();
    } finally {
      game.busy = false;
    }
  });
  queue = run.catch((error) => {
    console.error(error);
    notice.show(t("local.engine_failed"), "error");
  });
  return queue;
}

/** Run `work` in the queue after `ms`, unless another game started meanwhile. */
function later(work, ms) {
  const serial = game.serial;
  clearTimeout(timer);
  timer = setTimeout(() => exclusive(async () => serial === game.serial && (await work())), ms);
}

function newGame(chosen, pace) {
  return exclusive(async () => {
    await engine.ready;
    game.pace = PACE[pace] ?? PACE.normal;
    const only = chosen.filter((player) => player.bot === null).length === 1;
    const answer = await ask({ op: "new", players: chosen, seed: newSeed(), viewer: null, log_viewer: only ? chosen.findIndex((player) => player.bot === null) : null });
    await begin(answer, answer.entry);
  });
}

/** Draw a game the engine started or loaded, and play on. */
async function begin(answer, entry = null) {
  game.serial += 1;
  clearTimeout(timer);
  Object.assign(game, { table: answer.table, holder: null, viewer: null });
  Object.assign(choice, { selection: null, hint: null });
  prompt.close();
  countdown.set(null);
  log.clear();
  if (entry) log.add(entry, logName);
  take(answer);
  showPart(PART.BOARD);
  await step();
}

function resume(save) {
  return exclusive(async () => {
    await engine.ready;
    const answer = await engine.ask({ op: "load", save, viewer: null, log_viewer: null });
    if (answer.error?.code === "bad_save") {
      console.error(`the saved game was refused: ${answer.error.reason}`);
      await dropSave();
      notice.show(t("local.bad_save"), "error");
      notice.keep();
      showPart(PART.SETUP);
      return;
    }
    if (answer.error) throw new Error(answer.error.reason);
    game.pace = PACE[localPace()] ?? PACE.normal;
    await begin(answer);
    log.say(t("local.resumed"), "log-lobby");
    log.render();
  });
}

function localPace() {
  return $("#pace").value;
}

/** What comes next: a bot's move, a Block window's answers, the hand-off to a person, the end. */
async function step() {
  clearTimeout(timer);
  await settleViewer();
  render();
  const view = game.view;
  if (view.result) return finish();
  if (view.phase === PHASE.BLOCK_WINDOW) return blockWindow();
  prompt.close();
  countdown.set(null);
  const seat = view.deciders[0];
  if (isBot(seat)) {
    later(() => botMove(seat), game.pace.botMs);
  } else if (!solo() && game.holder !== seat) {
    handOff(seat);
  } else if (!focusInBoard()) {
    focusHand();
  }
}

/** A bot's move or Block answer, when the game still waits for it. */
async function botMove(seat) {
  if (!game.view.result && game.view.deciders.includes(seat) && isBot(seat)) await changed(await ask({ op: "bot", seat }));
}

/** Show what a move changed (log, board, cards travelling, sounds), then play on. */
async function changed(answer) {
  const before = capture();
  // A hint's words name a card of the hand it was for: gone with the move (R36).
  if (choice.hint !== null) notice.hide();
  choice.selection = null;
  choice.hint = null;
  take(answer);
  log.add(answer.entry, logName);
  await settleViewer();
  render();
  animate(before, answer.entry.events);
  hear(answer.entry.events);
  await step();
}

function finish() {
  prompt.close();
  notice.hideKind("event"); // the results speak now (the log keeps the event's line)
  countdown.set(null);
  // The results push the table down: cards on their way land at once.
  land();
  document.body.dataset.status = "over";
  const result = game.view.result;
  $("#end .text").textContent = resultText(result, solo() ? people()[0] : null, seatName);
  $("#end .standings").replaceChildren(...standingsTable(game.standings ?? [], logName));
  showPart(PART.RESULTS);
  if (result.winner !== null && !isBot(result.winner)) play("win");
  $("#again").focus();
}

// --- the board's callbacks -----------------------------------------------------------------

function act(id) {
  if (game.busy || game.viewer === null) return;
  const seat = game.viewer;
  const version = game.version;
  exclusive(async () => {
    if (game.viewer !== seat || game.version !== version) return;
    const answer = await ask({ op: "act", seat, action_id: id });
    if (answer.refused) notice.show(refusalLine(answer.refused, logName), "error");
    else await changed(answer);
  });
}

function select(next) {
  choice.selection = toggled(choice.selection, next);
  render();
}

// --- the hand-off between people ---------------------------------------------------------

/** "Pass to Ann": every hand out of the page until Ann taps (R36). */
function handOff(seat) {
  notice.hide();
  land();
  const name = seatName(seat);
  $("#handoff-title").textContent = t("local.handoff.title", { player: name });
  $("#handoff-text").textContent = t("local.handoff.text", { player: name });
  $("#handoff-show").textContent = t("local.handoff.show", { player: name });
  $("#handoff").dataset.seat = seat;
  $("#handoff").hidden = false;
  $("#main").inert = true;
  $("#handoff-show").focus();
}

function takeDevice() {
  const seat = Number($("#handoff").dataset.seat);
  exclusive(async () => {
    $("#handoff").hidden = true;
    $("#main").inert = false;
    if (!game.view || game.view.result || !game.view.deciders.includes(seat)) return;
    game.holder = seat;
    await settleViewer();
    render();
    play("turn");
    $("#announce").textContent = t("table.your_turn");
    focusHand();
  });
}

// --- a Block window at the table ----------------------------------------------------------

/** The action id of `type` (a pass or a block) in `seat`'s action table. */
function answerId(seat, type) {
  return game.table.action_tables[seat].findIndex((action) => action.type === type);
}

/** True while the Block window `key` is open and waits for the person in `seat`. */
function waitsFor(key, seat) {
  return game.view.phase === PHASE.BLOCK_WINDOW && windowKey(game.view) === key && game.view.deciders.includes(seat);
}

/**
 * The window's bots answer (after a bot's think time, whatever they hold); the people
 * asked get the public prompt and its countdown, at whose end they pass.
 */
function blockWindow() {
  const view = game.view;
  const key = windowKey(view);
  const bots = view.deciders.filter(isBot);
  const waiting = view.deciders.filter((seat) => !isBot(seat));
  if (waiting.length && prompt.show(key, view, waiting, game.table.slots, () => nobody(key))) {
    countdown.set({ kind: TIMER.BLOCK, seats: waiting, remaining_ms: game.pace.blockMs });
    play("complete");
    $("#announce").textContent = $("#table-prompt .text").textContent;
    $("#table-prompt .claim")?.focus();
  }
  if (bots.length) later(() => botMove(bots[0]), game.pace.botMs);
  else if (waiting.length) later(() => passAll(key), Math.max(0, countdown.seconds() ?? 0) * 1000);
}

/** A person claims a Block: the engine checks they hold one (R29); the others pass. */
function claim(seat) {
  const key = prompt.key;
  exclusive(async () => {
    if (!waitsFor(key, seat)) return;
    const answer = await ask({ op: "act", seat, action_id: answerId(seat, ACTION.BLOCK) });
    if (answer.refused) {
      prompt.refuse(seat);
      notice.show(t("local.prompt.no_block", { player: seatName(seat) }), "error");
      return;
    }
    await changed(answer);
    await passAll(key);
  });
}

/** Nobody (else) blocks: every person still asked passes. */
function nobody(key) {
  exclusive(() => passAll(key));
}

async function passAll(key) {
  for (;;) {
    const seat = game.view.deciders.find((asked) => !isBot(asked) && waitsFor(key, asked));
    if (seat === undefined) return;
    await changed(await ask({ op: "act", seat, action_id: answerId(seat, ACTION.PASS) }));
  }
}

// --- hints -----------------------------------------------------------------------------

function askHint() {
  if ($("#hint").hidden || game.viewer === null || game.busy) return;
  const seat = game.viewer;
  const version = game.version;
  exclusive(async () => {
    if (game.viewer !== seat || game.version !== version) return;
    const { action_id: id } = await ask({ op: "hint", seat });
    const found = board.legalNow().find((action) => action.id === id);
    if (!found) return;
    choice.hint = id;
    choice.selection = selectionFor(found, game.view.hand) ?? choice.selection;
    render();
    notice.show(t("table.hint_says", { move: actionWords(found, boardName, game.table.slots) }));
  });
}

// --- drawing ---------------------------------------------------------------------------

function boardModel() {
  return {
    view: game.view,
    actionTable: game.viewer === null ? null : game.table.action_tables[game.viewer],
    slots: game.table.slots,
    you: game.viewer,
    name: boardName,
    selection: choice.selection,
    hint: choice.hint,
    timer: null,
  };
}

function render() {
  if (!game.view || !board) return;
  if (!selectedActions(legalActions(game.view, boardModel().actionTable), choice.selection).length) choice.selection = null;
  document.body.dataset.status = game.view.result ? "over" : "playing";
  const settings = game.table.settings;
  $("#goal").textContent = t("table.goal", { count: settings.chips_to_win, each: settings.min_each_colour });
  // The game's pace (#24), as the table page shows a table's.
  $("#pace-shown").textContent = t(`table.pace.${localPace()}`);
  board.render(boardModel());
  log.render();
  $("#hint").hidden = !(game.viewer !== null && board.legalNow().length && !game.view.result);
}

// The parts of the page: the setup, the board, the results (with the board).
const PART = Object.freeze({ SETUP: "setup", BOARD: "board", RESULTS: "results" });

/** Show one part of the page. */
function showPart(part) {
  const playing = part !== PART.SETUP;
  $("#setup").hidden = playing;
  $("#board").hidden = !playing;
  $("#side").hidden = !playing;
  $("#end").hidden = part !== PART.RESULTS;
  $("#quit").hidden = part !== PART.BOARD;
  if (!playing) {
    document.body.dataset.status = "lobby";
    $("#handoff").hidden = true;
    $("#main").inert = false;
    setup.render();
  }
}

function focusInBoard() {
  return $("#board").contains(document.activeElement);
}

function focusHand() {
  const card = [...document.querySelectorAll("#hand .card")].find((el) => !el.disabled);
  (card ?? $("#turn")).focus({ preventScroll: true });
}

/** Sounds and notices for what a move brought (#15). */
function hear(events) {
  for (const event of events) {
    if (event.type === EVENT.PILE_COMPLETED) play("complete");
    else if (event.type === EVENT.PILE_BLOCKED) play("block");
    if ([EVENT.PILE_BLOCKED, EVENT.CARD_STOLEN, EVENT.CHIP_STOLEN, EVENT.SKIP_PLAYED].includes(event.type) && !game.view.result) {
      notice.show(eventLine(event, logName), "event");
    }
  }
}

// --- controls ------------------------------------------------------------------------------

function setUpControls() {
  board = new Board(boardParts(), { act, select, nextSeat: true });
  setup = new Setup({
    form: $("#setup-form"),
    list: $("#players"),
    add: $("#add-player"),
    pace: $("#pace"),
    error: $("#setup-error"),
    bots: build.bots,
    start: (chosen, pace) => newGame(chosen, pace),
  });
  $("#handoff-show").addEventListener("click", takeDevice);
  $("#hint").addEventListener("click", askHint);
  $("#again").addEventListener("click", () => newGame(players().map(({ name, bot }) => ({ name, bot })), localPace()));
  $("#new-game").addEventListener("click", () => showPart(PART.SETUP));
  $("#export").addEventListener("click", async () => downloadRecord((await ask({ op: "record" })).record));
  $("#quit").addEventListener("click", () => {
    if (!confirm(t("local.quit_confirm"))) return;
    exclusive(async () => {
      game.serial += 1;
      clearTimeout(timer);
      await dropSave();
      showPart(PART.SETUP);
    });
  });
  soundSwitch($("#sound"));
  // The rules' summary for this game's settings (#24), as at an online table.
  const openRules = setUpHelp(() => game.table?.settings ?? null);
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, textarea, select, dialog") || event.ctrlKey || event.metaKey || event.altKey) return;
    if (!$("#handoff").hidden) return;
    if (event.key === "?") openRules();
    else if (event.key.toLowerCase() === "h") askHint();
    else board.keydown(event);
  });
  renderSoundSwitch($("#sound"));
  countdown.start();
}

/** Why this page cannot play here, with the way to the online game. */
function unsupported(key) {
  $("#unsupported .text").textContent = t(key);
  $("#unsupported").hidden = false;
  $("#setup-form").hidden = true;
}

async function start() {
  setUpControls();
  showPart(PART.SETUP);
  if (!canRunEngine()) return unsupported("local.no_wasm");
  if (!build.runtime || !build.source) return unsupported("local.unavailable");
  engine = new Engine(build);
  const status = $("#engine-status");
  status.textContent = t("local.loading");
  engine.ready.then(
    () => (status.textContent = ""),
    (error) => {
      console.error(`the engine did not start: ${error}`);
      status.textContent = t("local.engine_failed");
    },
  );
  keepOffline($("#offline-status"));
  const save = await loadSave();
  if (save) await resume(save);
}

// Test hook: the browser tests read the game and ask the engine directly.
window.sequenceStacks = {
  game,
  choice,
  notice,
  ask: (request) => engine.ask(request),
  ready: () => engine?.ready,
};

loadWords()
  .catch((error) => console.error(`the messages or the catalog did not load: ${error}`))
  .finally(() => {
    setUpPage();
    start();
  });
