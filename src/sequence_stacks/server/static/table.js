// The table page: the lobby between games (tablelobby.js), the board during one (#15, #23).
// It keeps what the server said (the table, your seat, your view, your action table),
// draws the board (board.js) from it and sends the board's actions over the socket; it
// owns no rules, and every word a player reads is a message (#13).

import { animate, capture, land } from "./animate.js";
import { Board, boardParts, PROMPT } from "./board.js";
import { celebrate } from "./celebrate.js";
import { chatButtons, face, isEmote } from "./chat.js";
import { actionWords } from "./choices.js";
import { Countdown } from "./countdown.js";
import { h, setWholeWords } from "./dom.js";
import { focusFirst, focusLost, focusSpot, restoreFocus } from "./focus.js";
import { loadWords, t } from "./messages.js";
import { isAsked, isTurnOf, legalActions, selectedActions, selectionFor, toggled, windowKey } from "./moves.js";
import { TableSocket } from "./net.js";
import { Notice } from "./notice.js";
import { setUpPage } from "./pagewords.js";
import { resultText } from "./pieces.js";
import { setUpHelp } from "./rules.js";
import { howPlayed } from "./when.js";
import { isTurnBased, seatToken, setUpSeatTools, showSeatTools } from "./seatlink.js";
import { play } from "./sounds.js";
import { renderSoundSwitch, soundSwitch } from "./soundswitch.js";
import { TableLobby } from "./tablelobby.js";
import { TableLog } from "./tablelog.js";
import { EVENT, OP, SEAT_KIND, TABLE_STATUS } from "./vocabulary.js";
import { botName, eventLine, line, refusalLine, seatLabel, tableTitle } from "./words.js";

const tableId = decodeURIComponent(location.pathname.split("/").pop());
const tokenKey = `sequence-stacks:token:${tableId}`;
const $ = (selector) => document.querySelector(selector);

// What the server said: the table, your seat, your view, your action table and the
// piles' slots, the bots one may add, the quick-chat phrases, whether hints are offered.
const game = { you: null, table: null, view: null, actionTable: null, slots: null, bots: [], chat: [], hints: false, answered: null };
// Chat phrases shown as a bubble at their sender's seat for a while (#24): seat -> phrase.
const bubbles = new Map();
const BUBBLE_MS = 6000;
// The board's selected card and the move a hint suggests (#15).
const choice = { selection: null, hint: null };
// Where the focus goes after a render (#15): the hand's place of the card just played
// (till the version after it), whether the Block prompt was open, whether a render hid
// the focused control; and whether it was your turn at the last render.
const focus = { acted: null, actedAt: -1, promptOpen: false, gone: false, myTurn: false };

let board = null; // made once the words are loaded: it is drawn with them
const log = new TableLog({ list: $("#log"), box: $("#log-box"), toggle: $("#log-toggle"), close: $("#log-close"), lastLine: $("#last-line") });
const notice = new Notice($("#notice"), { hidden: () => focusBoard() });
const countdown = new Countdown({ waitsFor: (timer) => game.you !== null && timer.seats.includes(game.you), warn: () => play("warn") });

const socket = new TableSocket(tableId, {
  status: showConnection,
  sync(frame) {
    Object.assign(game, {
      you: frame.you,
      table: frame.table,
      view: frame.view,
      actionTable: frame.action_table,
      slots: frame.slots,
      bots: frame.bots,
      chat: frame.chat ?? [],
      hints: frame.hints,
    });
    // A token is rejected once its seat is gone for good (left, or lost at a rematch).
    // A player whose seat a bot took over while they were away is given it back by the
    // hello itself (a "reclaim" entry): this sync then has their seat, hand and actions.
    if (frame.token_rejected) localStorage.removeItem(tokenKey);
    // A sync may repeat entries an update already brought (a hello sent again after
    // taking a seat crosses the broadcast of that very seat): each is logged once.
    if (frame.reset) log.clear();
    for (const entry of frame.entries) if (entry.version > log.logged) log.add(entry, logName);
    countdown.set(frame.timer);
    render();
    // Back at a seat a bot kept: what it did meanwhile (#24).
    if (frame.stand_in?.length) showAway(frame.stand_in);
    // A sync can bring your turn (a reconnect, a gap in versions): said as an update's is.
    sayTurn();
  },
  update(frame) {
    const wasOver = game.table?.status === TABLE_STATUS.OVER;
    Object.assign(game, { table: frame.table, view: frame.view, hints: frame.hints });
    choice.hint = null;
    if (frame.op === OP.START) {
      // A start carries the action table of your seat and the piles' slots (as a sync does).
      Object.assign(game, { actionTable: frame.action_table, slots: frame.slots });
      log.clear();
    }
    log.add(frame, logName);
    // A move the server made because your time ran out: you are told so (#15).
    if (frame.timed_out && frame.seat === game.you) notice.show(t("table.you_timed_out"), "warn");
    countdown.set(frame.timer);
    if (!selectedActions(legalActions(game.view, game.actionTable), choice.selection).length) choice.selection = null;
    const before = capture();
    render();
    animate(before, frame.events ?? []);
    hear(frame);
    if (!wasOver && game.table.status === TABLE_STATUS.OVER) gameOver();
  },
  presence(frame) {
    if (!game.table) return;
    frame.connected.forEach((on, seat) => (game.table.seats[seat].connected = on));
    board?.renderSeatMarks(boardModel());
  },
  chat(frame) {
    // A phrase someone at the table said (#15), in the reader's words, in the log; and a
    // bubble at the sender's seat, the Log button marked while it is unread (#24).
    log.say(t("chat.line", { player: logName(frame.seat), phrase: t(`chat.${frame.phrase}`) }), "log-chat");
    log.render();
    if (frame.seat !== game.you) log.markUnread();
    showBubble(frame.seat, frame.phrase);
  },
  refused(frame) {
    notice.show(refusalLine(frame, logName), "error");
    focus.acted = null;
    $("#notice").focus(); // what went wrong, read out first (#15)
  },
  hint(frame) {
    // A hint answers the table as it was when asked: after a move it is stale.
    if (frame.version === socket.version) showHint(frame.action_id, frame.why);
  },
});

const lobby = new TableLobby({ tableId, tokenKey, game, socket, notice, names: { seatName, logName, seatBadge } });

// --- names ----------------------------------------------------------------------------

/** A seat's display name: the player's, else "Player N". */
function seatName(seat) {
  const found = game.table?.seats[seat];
  return (found && seatLabel(found)) || t("seat.numbered", { number: seat + 1 });
}

/** A seat as the board names it: "You" for your own. */
function boardName(seat) {
  return seat === game.you ? t("seat.you") : seatName(seat);
}

/** A seat as the log names it: "Ann (you)" for your own. */
function logName(seat) {
  const name = seatName(seat);
  return seat === game.you ? t("seat.you_named", { name }) : name;
}

/** A seat's badge: its bot, whether its player is online, or empty. */
function seatBadge(seat) {
  if (seat.kind === SEAT_KIND.BOT) return t("table.bot_badge", { bot: botName(seat.bot) });
  if (seat.kind === SEAT_KIND.HUMAN && isTurnBased()) return ""; // nobody is shown coming or going (#26)
  if (seat.kind === SEAT_KIND.HUMAN) return t(seat.connected ? "table.online" : "table.away");
  return t("table.empty");
}

function myTurn() {
  return Boolean(game.view) && isTurnOf(game.view, game.you);
}

// --- what a frame brought ---------------------------------------------------------------

/** True for the events that also get a short notice (#15): a Block that worked, a steal, a skip. */
function noticed(event) {
  return [EVENT.PILE_BLOCKED, EVENT.CARD_STOLEN, EVENT.CHIP_STOLEN, EVENT.SKIP_PLAYED].includes(event.type);
}

/** Sounds and announcements for what an update brought (#15). */
function hear(frame) {
  for (const event of frame.events ?? []) {
    if (event.type === EVENT.PILE_COMPLETED) play("complete");
    else if (event.type === EVENT.PILE_BLOCKED) play("block");
    else if (event.type === EVENT.GAME_ENDED && event.winner !== null && event.winner === game.you) play("win");
    if (noticed(event) && !frame.view?.result) notice.show(eventLine(event, logName), "event");
  }
  sayTurn();
}

/** A turn that became yours: its sound, "Your turn" in the assertive live region and the
 * focus in the hand, once; emptied when it is not yours, so the next one is said anew (#15). */
function sayTurn() {
  const mine = myTurn();
  if (mine && !focus.myTurn) {
    play("turn");
    $("#announce").textContent = t("table.your_turn");
    focusHand();
  } else if (!mine) {
    $("#announce").textContent = "";
  }
  focus.myTurn = mine;
}

function showConnection(kind) {
  const el = $("#connection");
  el.dataset.state = kind;
  const key = { online: "table.connected", connecting: "table.connecting", reconnecting: "table.reconnecting", offline: "table.offline" }[kind];
  el.querySelector(".text").textContent = t(key);
}

// --- the board's callbacks, and hints in practice games (#15) -----------------------------

function act(id) {
  // An answer to a Block window is held by the server until the window's end (R29:
  // secret till then); the page shows it as given meanwhile.
  if (isAsked(game.view, game.you)) game.answered = { key: windowKey(game.view), type: game.actionTable[id].type };
  focus.acted = Math.max(0, [...document.querySelectorAll("#hand .card")].findIndex((el) => el.classList.contains("selected")));
  focus.actedAt = socket.version;
  socket.command("act", { action_id: id });
  choice.selection = null;
  render();
}

function select(next) {
  choice.selection = toggled(choice.selection, next);
  render();
}

/** The hint button shows in a practice game (the server says which) while a decision is yours. */
function renderHint() {
  $("#hint").hidden = !(game.hints && board.legalNow().length);
}

function askHint() {
  if (!$("#hint").hidden) socket.send({ type: "hint" });
}

/** Show the suggested action: its card selected, its button marked, its words and why told (#27). */
function showHint(id, why) {
  const found = board.legalNow().find((a) => a.id === id);
  if (!found) return;
  choice.hint = id;
  choice.selection = selectionFor(found, game.view.hand) ?? choice.selection;
  render();
  const move = actionWords(found, boardName, game.slots);
  notice.show(why ? t("table.hint_why", { move, reason: line(why, boardName) }) : t("table.hint_says", { move }));
}

// --- rendering ------------------------------------------------------------------------

/** A chat phrase as a bubble at its sender's seat, gone after a while (#24). */
function showBubble(seat, phrase) {
  const shown = { phrase, at: performance.now() };
  bubbles.set(seat, shown);
  board?.render(boardModel());
  setTimeout(() => {
    if (bubbles.get(seat) !== shown) return;
    bubbles.delete(seat);
    board?.render(boardModel());
  }, BUBBLE_MS);
}

/** The bubbles of the board's model: per seat the phrase's words and face, or null. */
function bubbleModel() {
  if (!game.table) return null;
  return game.table.seats.map((_, seat) => {
    const shown = bubbles.get(seat);
    if (!shown) return null;
    return { text: t(`chat.${shown.phrase}`), face: isEmote(shown.phrase) ? face(shown.phrase) : null };
  });
}

/** What the bot that kept your seat did while you were away (#24): a panel to dismiss. */
function showAway(lines) {
  const box = $("#away");
  box.querySelector(".away-lines").replaceChildren(...lines.map((found) => h("li", {}, line(found, logName))));
  box.hidden = false;
  $("#away-ok").focus();
}

$("#away-ok").addEventListener("click", () => {
  $("#away").hidden = true;
  focusHand();
});

/** The game just ended: its result and standings at the top, the winner celebrated (#24). */
function gameOver() {
  scrollTo({ top: 0 });
  notice.hideKind("event"); // a steal's or a Block's words would cover the result's (the log keeps them)
  const result = game.table.result;
  if (result?.winner !== null && result?.winner !== undefined) celebrate($("#result"), resultText(result, game.you, seatName));
  focusFirst($("#result a"));
}

/** The board's model (board.js) from what the server said and what is selected. */
function boardModel() {
  return {
    view: game.view,
    actionTable: game.actionTable,
    slots: game.slots,
    you: game.you,
    name: boardName,
    selection: choice.selection,
    hint: choice.hint,
    seats: game.table.seats.map((seat) => ({ badge: seatBadge(seat), online: seat.kind === SEAT_KIND.BOT || seat.connected || isTurnBased() })),
    timer: countdown.timer,
    answered: game.answered && game.answered.key === windowKey(game.view) ? game.answered.type : null,
    bubbles: bubbleModel(),
  };
}

function render() {
  if (!game.table || !board) return;
  const spot = focusSpot();
  const playing = game.view && game.table.status === TABLE_STATUS.PLAYING;
  document.body.dataset.status = game.table.status;
  $("#lobby").hidden = playing;
  $("#board").hidden = !game.view;
  renderHeader();
  lobby.render();
  board.render(boardModel());
  log.render();
  renderChat();
  renderHint();
  showSeatTools(game.you !== null);
  settleFocus(spot);
}

/**
 * The focus after a render (#15): a Block prompt that opens takes it (its first live
 * button) and gives it back to the board when it closes; once the table moved on from
 * your action, the hand's next card (or the turn line); else a rebuilt control keeps it.
 */
function settleFocus(spot) {
  const asked = board.promptMode() === PROMPT.CHOOSE && !$("#board").hidden;
  if (asked !== focus.promptOpen) {
    const inPrompt = $("#block-prompt").contains(document.activeElement);
    focus.promptOpen = asked;
    // A choice with a deadline is never left under the log's sheet or the rules (#24).
    if (asked) {
      log.open(false);
      if ($("#help").open) $("#help").close();
      focusFirst($("#answer-block"), $("#answer-pass"));
    }
    else if (inPrompt || focusLost()) focusBoard(focus.acted ?? 0);
    if (!asked) focus.acted = null;
  } else if (focus.acted !== null && socket.version > focus.actedAt) {
    focusBoard(focus.acted);
    focus.acted = null;
  } else if (focus.acted === null) {
    restoreFocus(spot);
    // A control gone with its part of the page (Sit down, Start game): the next step's,
    // as soon as a render shows it.
    if (spot && focusLost()) focus.gone = true;
    if (focus.gone && focusLost()) {
      if ($("#board").hidden) focusFirst($("#start"), $("#join-name"));
      else focusBoard();
    }
    if (!focusLost()) focus.gone = false;
  }
}

/**
 * Your turn begins (#24): the focus goes to your hand's first card that may be played,
 * unless the reader is busy elsewhere (a dialog, a field, the log's sheet, a panel).
 */
function focusHand() {
  if ($("#help").open || !$("#away").hidden || $("#log-box").classList.contains("open")) return;
  if (!focusLost() && document.activeElement.closest("input, select, textarea, #notice, #chat")) return;
  focusFirst(...document.querySelectorAll("#hand .card.playable"), ...document.querySelectorAll("#hand .card:not([disabled])"), $("#choices button.primary"));
}

/** The board's focus: the hand's card at `at` or the next that may be played, else the turn line. */
function focusBoard(at = 0) {
  if (!$("#board").contains(document.activeElement) && !focusLost() && !$("#notice").contains(document.activeElement)) return;
  const cards = myTurn() ? [...document.querySelectorAll("#hand .card")] : [];
  focusFirst(...cards.slice(at), ...cards.slice(0, at).reverse(), myTurn() ? $("#choices button.primary") : null, $("#turn"));
}

function renderHeader() {
  const settings = game.table.settings;
  const title = tableTitle(tableId, game.table.options);
  if ($("#table-title").dataset.name !== title) {
    $("#table-title").dataset.name = title;
    setWholeWords($("#table-title"), title);
  }
  $("#table-title").title = t("table.title", { id: tableId.slice(0, 6) });
  // The table's pace (#24), chosen when it was made; a turn-based table's turn time
  // instead (#26), which is what its players wait by.
  const pace = game.table.options?.pace;
  if (game.table.options?.turn_hours) $("#pace").textContent = howPlayed(game.table.options);
  else $("#pace").textContent = pace ? t(`table.pace.${pace}`) : "";
  $("#goal").textContent = t("table.goal", { count: settings.chips_to_win, each: settings.min_each_colour });
  renderSoundSwitch($("#sound"));
}

soundSwitch($("#sound"));

/** The quick chat: for seated players only (spectators read it in the log). */
function renderChat() {
  const box = $("#chat");
  box.hidden = game.you === null || !game.chat.length;
  const buttons = box.querySelector(".chat-buttons");
  if (box.hidden || buttons.childElementCount === game.chat.length) return;
  buttons.replaceChildren(...chatButtons(game.chat, (phrase) => socket.send({ type: "chat", phrase })));
}

// A screen resized (a phone turned) while cards travel: they land at once and the copies in
// flight are gone, their paths were measured on the layout that is gone (#15).
addEventListener("resize", () => {
  land();
});

// --- controls -------------------------------------------------------------------------

$("#hint").addEventListener("click", askHint);
const openRules = setUpHelp(() => game.table?.settings ?? null);

document.addEventListener("keydown", (event) => {
  if (event.target.closest("input, textarea, select") || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key === "?") openRules();
  else if (event.key.toLowerCase() === "h") askHint();
  else if (board?.keydown(event) && event.key.startsWith("Arrow")) event.preventDefault();
});

// Test hook: lets the browser tests read the table and drop the socket the way a network
// failure would.
window.sequenceStacks = { dropSocket: () => socket.drop(), game, choice, notice, socket };

// The words and the catalog come first: every frame is rendered with them.
loadWords()
  .catch((error) => console.error(`the messages or the catalog did not load: ${error}`))
  .finally(() => {
    setUpPage();
    board = new Board(boardParts(), { act, select, nextSeat: true, notes: true });
    countdown.start();
    // The seat this device keeps, else the signed-in account's seat here (#26).
    seatToken(tableId, tokenKey).then((token) => {
      socket.connect(token);
      setUpSeatTools();
    });
  });
