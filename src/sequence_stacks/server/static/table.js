// The table page: lobby controls between games, the board during one.
// It renders the views the server sends and posts commands; it owns no rules: what may
// be played comes from the view's legal action ids, each described as fields
// (`action_table`: type, kind, source, pile, victim, colour), and every word a player
// reads is a message (#13).

import { chipsBox, decksRow, fillDiscard, miniHand, pileFace, pileNeed, renderDecks, resultText, showDirection, standingsTable, turnText } from "./board.js";
import { cardElement, colourClass } from "./cards.js";
import { fitCardWords, h, setWholeWords, svg } from "./dom.js";
import { botName, coloured, entryMessage, eventMessage, kindInfo, kindName, kindOf, line, pileName, refusalLine, seatLabel, tableName } from "./eventlog.js";
import { loadWords, t } from "./messages.js";
import { TableSocket } from "./net.js";
import { setUpPage } from "./pagewords.js";
import { muted, play, setMuted } from "./sounds.js";
import { chatButtons } from "./chat.js";
import { animate, capture } from "./animate.js";
import { focusFirst, focusLost, focusSpot, restoreFocus } from "./focus.js";
import { actionWords, choiceLabel, pileColour } from "./choices.js";
import { openHelp } from "./rules.js";

const tableId = decodeURIComponent(location.pathname.split("/").pop());
const tokenKey = `sequence-stacks:token:${tableId}`;
const $ = (selector) => document.querySelector(selector);

const ui = {
  you: null,
  table: null,
  view: null,
  fields: null,
  bots: ["greedy", "random"],
  log: [],
  logged: 0, // the newest entry version in the log
  timer: null,
  timerAt: 0,
  warned: null, // the timer whose last seconds were already sounded
  selected: null,
  notice: null,
  logSeq: 0, // numbers the log lines, so the list only appends new ones (#15)
  logShown: 0,
  logCleared: true,
  myTurn: false,
  acted: null, // the hand position of the card just played, till the next version (#15)
  actedAt: -1,
  promptOpen: false,
  focusGone: false, // a render hid the focused control and no other has taken it yet
};

const socket = new TableSocket(tableId, {
  status: showConnection,
  sync(frame) {
    ui.you = frame.you;
    ui.table = frame.table;
    ui.view = frame.view;
    ui.fields = frame.action_table;
    ui.bots = frame.bots;
    ui.chat = frame.chat ?? [];
    // A token is rejected once its seat is gone for good (left, or lost at a rematch).
    // A player whose seat a bot took over while they were away is given it back by the
    // hello itself (a "reclaim" entry): this sync then has their seat, hand and actions.
    if (frame.token_rejected) localStorage.removeItem(tokenKey);
    // A sync may repeat entries an update already brought (a hello sent again after
    // taking a seat crosses the broadcast of that very seat): each is logged once.
    if (frame.reset) clearLog();
    for (const entry of frame.entries) if (entry.version > ui.logged) addLog(entry);
    setTimer(frame.timer);
    render();
    ui.myTurn = isMyTurn();
  },
  update(frame) {
    ui.hint = null;
    ui.table = frame.table;
    ui.view = frame.view;
    if (frame.op === "start") {
      // A start carries the action table of your seat (as a sync does).
      ui.fields = frame.action_table;
      clearLog();
    }
    addLog(frame, { live: true });
    setTimer(frame.timer);
    if (ui.selected && !sourceActions(ui.selected).length) ui.selected = null;
    const before = capture();
    render();
    animate(before, frame.events ?? []);
    hear(frame);
  },
  presence(frame) {
    if (!ui.table) return;
    frame.connected.forEach((on, seat) => (ui.table.seats[seat].connected = on));
    renderSeats();
  },
  chat(frame) {
    // A phrase someone at the table said (#15), in the reader's words, in the log.
    pushLine(t("chat.line", { player: logName(frame.seat), phrase: t(`chat.${frame.phrase}`) }), "log-chat");
    renderLog();
  },
  refused(frame) {
    notify(refusalLine(frame, logName), "error");
    ui.acted = null;
    $("#notice").focus(); // what went wrong, read out first (#15)
  },
  hint(frame) {
    // A hint answers the table as it was when asked: after a move it is stale.
    if (frame.version === socket.version) showHint(frame.action_id);
  },
});

// --- names, log, timer --------------------------------------------------------------

/** A seat's display name: the player's, else "Player N". */
function seatName(seat) {
  const found = ui.table?.seats[seat];
  return (found && seatLabel(found)) || t("seat.numbered", { number: seat + 1 });
}

/** A seat as the board names it: "You" for your own. */
function boardName(seat) {
  return seat === ui.you ? t("seat.you") : seatName(seat);
}

/** A seat as the log names it: "Ann (you)" for your own. */
function logName(seat) {
  const name = seatName(seat);
  return seat === ui.you ? t("seat.you_named", { name }) : name;
}

const LOG_CLASSES = { TurnStarted: "log-turn", GameEnded: "log-end" };

function clearLog() {
  ui.log = [];
  ui.logged = 0;
  ui.logCleared = true;
}

/**
 * An entry's log lines. A move the server made for a person whose time ran out (an
 * automatic action of a seat a person holds) is marked "(timed out)", and that person
 * is told so when it happens (#15).
 */
function addLog(entry, { live = false } = {}) {
  ui.logged = Math.max(ui.logged, entry.version);
  const own = entryMessage(entry);
  if (own) pushLine(line(own, logName), "log-lobby");
  const timedOut = entry.op === "act" && entry.auto && ui.table?.seats[entry.seat]?.kind === "human";
  let marked = false;
  for (const event of entry.events) {
    const found = eventMessage(event);
    if (!found) continue;
    let text = line(found, logName);
    if (timedOut && !marked && event.type !== "TurnStarted") {
      text = t("log.timed_out", { line: text.replace(FULL_STOP, "") });
      marked = true;
    }
    pushLine(text, LOG_CLASSES[event.type] ?? "");
  }
  if (timedOut && live && entry.seat === ui.you) notify(t("table.you_timed_out"), "warn");
  if (ui.log.length > 300) ui.log.splice(0, ui.log.length - 300);
}

// The mark that ends a sentence in the six languages (Latin, danda, Armenian, ideographic).
const FULL_STOP = /[.\u0964\u0589\u3002]$/u;

function pushLine(text, kind) {
  ui.log.push({ line: text, kind, seq: ++ui.logSeq });
}

const NOTICED = new Set(["PileBlocked", "CardStolen", "ChipStolen", "SkipPlayed"]);

function isMyTurn() {
  const view = ui.view;
  return Boolean(view && ui.you !== null && !view.result && view.phase === "playing" && view.current === ui.you);
}

/** Sounds and announcements for what an update brought (#15). */
function hear(frame) {
  for (const event of frame.events ?? []) {
    if (event.type === "PileCompleted") play("complete");
    else if (event.type === "PileBlocked") play("block");
    else if (event.type === "GameEnded" && event.winner !== null && event.winner === ui.you) play("win");
    // A Block that worked, a steal and a skip each get a short notice (#15).
    if (NOTICED.has(event.type) && !frame.view?.result) notify(line(eventMessage(event), logName), "event");
  }
  const mine = isMyTurn();
  if (mine && !ui.myTurn) {
    play("turn");
    $("#announce").textContent = t("table.your_turn");
  } else if (!mine) {
    $("#announce").textContent = ""; // emptied, so that the next turn is announced anew (#15)
  }
  ui.myTurn = mine;
}

function setTimer(timer) {
  ui.timer = timer;
  ui.timerAt = performance.now();
}

function remainingSeconds() {
  if (!ui.timer) return null;
  const left = ui.timer.remaining_ms - (performance.now() - ui.timerAt);
  return Math.max(0, Math.ceil(left / 1000));
}

// The last seconds of a timer that waits for you are shown in the warning colour and
// sounded once (#15).
const WARN_SECONDS = 15;

setInterval(() => {
  const seconds = remainingSeconds();
  const warn = seconds !== null && seconds <= WARN_SECONDS && ui.you !== null && (ui.timer?.seats ?? []).includes(ui.you);
  for (const el of document.querySelectorAll("[data-countdown]")) {
    el.textContent = seconds === null ? "" : t("table.seconds", { count: seconds });
    el.classList.toggle("warn", warn);
  }
  if (warn && ui.warned !== ui.timer) {
    ui.warned = ui.timer;
    play("warn");
  }
}, 250);

// A notice goes by itself after a while, or at once when clicked (it may cover the
// turn and the Block prompt on a phone).
$("#notice").addEventListener("click", hideNotice);
$("#notice").addEventListener("keydown", (event) => {
  if (event.key === "Enter" || event.key === "Escape") hideNotice();
});

/** Hide the notice; the focus it had goes back to the board (#15). */
function hideNotice() {
  clearTimeout(ui.notice);
  const focused = $("#notice").contains(document.activeElement);
  $("#notice").hidden = true;
  if (focused) focusBoard();
}

function notify(text, kind = "info") {
  const box = $("#notice");
  box.textContent = text;
  box.className = `notice ${kind}`;
  box.hidden = false;
  clearTimeout(ui.notice);
  ui.notice = setTimeout(hideNotice, 6000);
}

function showConnection(kind) {
  const el = $("#connection");
  el.dataset.state = kind;
  const key = { online: "table.connected", connecting: "table.connecting", reconnecting: "table.reconnecting", offline: "table.offline" }[kind];
  el.querySelector(".text").textContent = t(key);
}

// --- legal actions --------------------------------------------------------------------

/** The legal actions of your seat, each its id and its fields. */
function legal() {
  if (!ui.view || !ui.fields) return [];
  return ui.view.legal_action_ids.map((id) => ({ id, ...ui.fields[id] }));
}

/** The id of your seat's action of a type that takes no card (pass, block, end). */
function plainAction(type) {
  const id = ui.fields ? ui.fields.findIndex((a) => a.type === type) : -1;
  return id < 0 ? null : id;
}

// A source is "hand:<kind index>" or "top" (the top of your own discard pile).
function sourceActions(source) {
  return legal().filter((a) => {
    if (source === "top") return a.from_discard;
    return a.kind === Number(source.slice(5)) && !a.from_discard;
  });
}

// --- hints in practice games (#15) -------------------------------------------------------

/** True at a practice table: you are seated and every other seat is a bot. */
function isPractice() {
  return ui.you !== null && Boolean(ui.table?.seats.every((seat, index) => index === ui.you || seat.kind === "bot"));
}

/** The hint button shows in a practice game while a decision is yours. */
function renderHint() {
  const deciding = Boolean(ui.view && !ui.view.result && legal().length);
  $("#hint").hidden = !(isPractice() && deciding);
}

function askHint() {
  if (!$("#hint").hidden) socket.send({ type: "hint" });
}

/** Show the suggested action: its card selected, its button marked, its words told. */
function showHint(id) {
  const found = legal().find((a) => a.id === id);
  if (!found) return;
  ui.hint = id;
  if (found.from_discard) ui.selected = "top";
  else if (found.kind !== null) {
    ui.selected = `hand:${found.kind}`;
    ui.selectedIndex = ui.view.hand.findIndex((card) => kindOf(card) === found.kind);
  }
  render();
  notify(t("table.hint_says", { move: actionWords(found, boardName) }));
}

function act(id) {
  if (id === null || id === undefined) return;
  ui.acted = Math.max(0, [...document.querySelectorAll("#hand .card")].findIndex((el) => el.classList.contains("selected")));
  ui.actedAt = socket.version;
  socket.command("act", { action_id: id });
  ui.selected = null;
  render();
}

// --- rendering ------------------------------------------------------------------------

function render() {
  if (!ui.table) return;
  const spot = focusSpot();
  const playing = ui.view && ui.table.status === "playing";
  document.body.dataset.status = ui.table.status;
  $("#lobby").hidden = playing;
  $("#board").hidden = !ui.view;
  renderHeader();
  renderLobby();
  if (ui.view) {
    renderBoard();
    renderPrompt();
    renderHand();
  }
  renderSeats();
  renderLog();
  renderChat();
  renderHint();
  settleFocus(spot);
}

/**
 * The focus after a render (#15): a Block prompt that opens takes it (its first live
 * button) and gives it back to the board when it closes; once the table moved on from
 * your action, the hand's next card (or the turn line); else a rebuilt control keeps it.
 */
function settleFocus(spot) {
  const asked = !$("#block-prompt").hidden && !$("#board").hidden;
  if (asked !== ui.promptOpen) {
    const inPrompt = $("#block-prompt").contains(document.activeElement);
    ui.promptOpen = asked;
    if (asked) focusFirst($("#answer-block"), $("#answer-pass"));
    else if (inPrompt || focusLost()) focusBoard(ui.acted ?? 0);
    if (!asked) ui.acted = null;
  } else if (ui.acted !== null && socket.version > ui.actedAt) {
    focusBoard(ui.acted);
    ui.acted = null;
  } else if (ui.acted === null) {
    restoreFocus(spot);
    // A control gone with its part of the page (Sit down, Start game): the next step's,
    // as soon as a render shows it.
    if (spot && focusLost()) ui.focusGone = true;
    if (ui.focusGone && focusLost()) {
      if ($("#board").hidden) focusFirst($("#start"), $("#join-name"));
      else focusBoard();
    }
    if (!focusLost()) ui.focusGone = false;
  }
}

/** The board's focus: the hand's card at `at` or the next that may be played, else the turn line. */
function focusBoard(at = 0) {
  if (!$("#board").contains(document.activeElement) && !focusLost() && !$("#notice").contains(document.activeElement)) return;
  const cards = isMyTurn() ? [...document.querySelectorAll("#hand .card")] : [];
  focusFirst(...cards.slice(at), ...cards.slice(0, at).reverse(), isMyTurn() ? $("#choices button.primary") : null, $("#turn"));
}

function renderHeader() {
  const settings = ui.table.settings;
  setWholeWords($("#table-title"), tableName(tableId));
  $("#table-title").title = t("table.title", { id: tableId.slice(0, 6) });
  $("#goal").textContent = t("table.goal", { count: settings.chips_to_win, each: settings.min_each_colour });
  renderSound();
}

/** The sound switch: says whether sounds are on; pressed when they are off. */
function renderSound() {
  const on = !muted();
  const button = $("#sound");
  // A drawn speaker (no font glyph) and the words; on a phone only the speaker shows.
  const speaker = svg(
    "svg",
    { viewBox: "0 0 24 24", width: 20, height: 20, "aria-hidden": "true", class: "speaker" },
    svg("path", { d: "M4 9h4l5-4v14l-5-4H4z", class: "body" }),
    on ? svg("path", { d: "M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12", class: "waves" }) : svg("path", { d: "M16 9l5 6M21 9l-5 6", class: "waves" }),
  );
  button.replaceChildren(speaker, h("span", { class: "label" }, t(on ? "table.sound_on" : "table.sound_off")));
  button.setAttribute("aria-pressed", String(!on));
}

$("#sound").addEventListener("click", () => {
  setMuted(!muted());
  renderSound();
  play("turn"); // what it sounds like now (nothing when just muted)
});

function renderLobby() {
  const table = ui.table;
  const box = $("#lobby");
  const seated = ui.you !== null;
  $("#join").hidden = seated || table.status === "playing" || !table.seats.some((s) => s.kind === "empty");
  $("#start").hidden = !seated;
  $("#start").textContent = t(table.status === "over" ? "table.rematch" : "table.start");
  $("#leave").hidden = !seated;
  $("#share-url").value = location.href;
  const result = $("#result");
  if (table.status === "over" && table.result) {
    result.hidden = false;
    result.querySelector(".text").textContent = resultText(table.result, ui.you, seatName);
    result.querySelector("a").href = `/replay/${encodeURIComponent(tableId)}/${table.game}`;
    result.querySelector(".standings").replaceChildren(...standingsTable(table.standings ?? [], logName));
  } else {
    result.hidden = true;
  }
  const list = $("#lobby-seats");
  list.replaceChildren();
  table.seats.forEach((seat, index) => {
    const row = document.createElement("li");
    row.className = `lobby-seat ${seat.kind}`;
    const label = document.createElement("span");
    label.className = "seat-name";
    label.textContent = seat.kind === "empty" ? t("table.open_seat") : logName(index);
    const kind = document.createElement("span");
    kind.className = "badge";
    kind.textContent = seatBadge(seat);
    row.append(t("table.seat_number", { number: index + 1 }), label, kind);
    if (table.status === "over" && table.result?.winner === index) {
      row.classList.add("winner");
      row.append(h("span", { class: "badge winner-badge" }, t("table.winner")));
    }
    if (seated && table.status !== "playing") {
      if (seat.kind === "empty") {
        for (const bot of ui.bots) {
          const add = button(t("table.add_bot", { bot: botName(bot) }), () => socket.command("add_bot", { seat: index, bot }));
          add.className = "small";
          row.append(add);
        }
      } else if (seat.kind === "bot") {
        const remove = button(t("table.remove_bot"), () => socket.command("remove_bot", { seat: index }));
        remove.className = "small";
        row.append(remove);
      }
    }
    list.append(row);
  });
  box.querySelector(".empty-note").hidden = !seated;
  // What each bot strength plays like, beside the buttons that add one (#15).
  const guide = $("#bot-guide");
  guide.hidden = !seated || table.status === "playing";
  if (!guide.hidden && guide.childElementCount !== 2 * ui.bots.length) {
    guide.replaceChildren(...ui.bots.flatMap((bot) => [h("dt", {}, botName(bot)), h("dd", {}, t(`bot.${bot}.about`))]));
  }
}

/** A seat's badge: its bot, whether its player is online, or empty. */
/** The seat after `index` in the direction of play (#15), as an arrow and a name. */
function nextSeat(index, view) {
  const count = ui.table.seats.length;
  const next = (index + (view.direction > 0 ? 1 : -1) + count) % count;
  const name = boardName(next);
  const arrow = svg("svg", { viewBox: "0 0 24 24", width: 14, height: 14, "aria-hidden": "true" }, svg("path", { d: "M4 12h14m-6-6 6 6-6 6", fill: "none", stroke: "currentColor", "stroke-width": 2.4, "stroke-linecap": "round", "stroke-linejoin": "round" }));
  return h("div", { class: "next-seat", title: t("table.next_seat", { player: name }) }, arrow, h("span", { class: "sr-only" }, t("table.next_seat", { player: name })), h("span", { "aria-hidden": "true" }, name));
}

function seatBadge(seat) {
  if (seat.kind === "bot") return t("table.bot_badge", { bot: botName(seat.bot) });
  if (seat.kind === "human") return t(seat.connected ? "table.online" : "table.away");
  return t("table.empty");
}

function button(text, onClick, extra = "") {
  const el = document.createElement("button");
  el.type = "button";
  el.textContent = text;
  if (extra) el.className = extra;
  el.addEventListener("click", onClick);
  return el;
}

function renderBoard() {
  const view = ui.view;
  const per = view.settings.piles_per_colour;
  const selectedActions = ui.selected ? sourceActions(ui.selected) : [];
  const piles = $("#piles");
  piles.replaceChildren();
  for (let colour = 0; colour < view.piles.length / per; colour++) {
    const firstFree = [...Array(per).keys()].find((p) => view.piles[colour * per + p].length === 0);
    for (let p = 0; p < per; p++) {
      const cards = view.piles[colour * per + p];
      const slot = document.createElement("button");
      slot.type = "button";
      slot.className = `pile ${colourClass(colour)}`;
      // The pile a Block window asks about is outlined (#15).
      if (view.phase === "block_window" && view.window_pile === colour * per + p) slot.classList.add("completed");
      const targets = selectedActions.filter((a) => a.type === "play" && pileColour(a) === colour
        && (a.pile === p || (a.pile === null && p === firstFree)));
      if (targets.length) {
        slot.classList.add("target");
        slot.addEventListener("click", () => act(targets[0].id));
      } else {
        slot.disabled = true;
      }
      const name = pileName(colour, p);
      const label = t("table.pile_label", { pile: name, count: cards.length });
      // Named by a hidden sentence that holds the pile's visible name (#15, WCAG 2.5.3).
      const face = h("span", { class: "pile-face", "aria-hidden": "true" }, ...pileFace(cards, colour, p, t(targets.length ? "table.start_here" : "table.pile_empty")), h("span", { class: "need" }, pileNeed(cards.length)));
      slot.append(h("span", { class: "sr-only" }, targets.length ? t("table.play_here", { label }) : label), face);
      piles.append(slot);
    }
  }
  renderDecks(view);
  const turn = $("#turn");
  turn.querySelector(".text").textContent = turnText(view, ui.you, boardName);
  turn.dataset.mine = String(view.current === ui.you && view.phase === "playing" && !view.result);
  showDirection($("#direction"), view.direction);
  $("#skips").hidden = !view.pending_skips;
  $("#skips").textContent = t("table.skips_pending", { count: view.pending_skips });
  $("#turn-timer").hidden = !ui.timer || ui.timer.kind !== "turn";
}

/** The pile a Block window is about: a slot of the view's piles, as [colour, index]. */
function windowPile(view) {
  const per = view.settings.piles_per_colour;
  return [Math.floor(view.window_pile / per), view.window_pile % per];
}

function renderPrompt() {
  const view = ui.view;
  const prompt = $("#block-prompt");
  const asked = view.phase === "block_window" && ui.you !== null && view.window_pending.includes(ui.you);
  prompt.hidden = !asked;
  if (!asked) return;
  const pile = pileName(...windowPile(view));
  prompt.querySelector(".text").textContent = t("prompt.block", { player: boardName(view.window_completer), pile });
  const canBlock = legal().some((a) => a.type === "block");
  const blockButton = $("#answer-block");
  blockButton.disabled = !canBlock;
  blockButton.title = t(canBlock ? "prompt.block_title" : "prompt.no_block_title");
  const hinted = ui.hint === null || ui.hint === undefined ? null : ui.fields?.[ui.hint]?.type;
  blockButton.classList.toggle("hinted", hinted === "block");
  $("#answer-pass").classList.toggle("hinted", hinted === "pass");
}

function renderHand() {
  const view = ui.view;
  const hand = $("#hand");
  hand.replaceChildren();
  const mine = ui.you !== null && view.hand;
  $("#hand-area").hidden = !mine;
  if (!mine) return;
  const all = legal().filter((a) => !a.from_discard);
  // Shown sorted (#15): by colour, numbers up then the wild, action cards last; the
  // index stays the card's place in the hand the server sent.
  const shown = view.hand.map((card, index) => [card, index]).sort((one, other) => handOrder(one[0]) - handOrder(other[0]) || one[1] - other[1]);
  shown.forEach(([card, index]) => {
    const kind = kindOf(card);
    const source = `hand:${kind}`;
    const el = cardElement(card, { button: true });
    const uses = all.filter((a) => a.kind === kind);
    el.classList.toggle("playable", uses.some((a) => a.type !== "discard"));
    el.classList.toggle("selected", ui.selected === source && ui.selectedIndex === index);
    el.disabled = !uses.length;
    el.dataset.index = index;
    el.setAttribute("aria-pressed", String(ui.selected === source && ui.selectedIndex === index));
    el.addEventListener("click", () => select(source, index));
    hand.append(el);
  });
  fitCardWords(hand);
  renderChoices();
}
// A turned phone changes the cards' size: their words are fitted again.
window.addEventListener("resize", () => fitCardWords($("#hand")));

/** A card's place in a sorted hand: blue 1-5, blue wild, red 1-5, red wild, actions. */
function handOrder(card) {
  const info = kindInfo(kindOf(card));
  if (info.action) return 100 + info.index;
  return info.colour * 10 + (info.wild ? 9 : info.rank);
}

function select(source, index = -1) {
  if (ui.selected === source && ui.selectedIndex === index) ui.selected = null;
  else {
    ui.selected = source;
    ui.selectedIndex = index;
  }
  render();
}

function renderChoices() {
  const bar = $("#choices");
  const items = [];
  const end = legal().find((a) => a.type === "end");
  if (end) items.push(button(t("choice.end"), () => act(end.id), end.id === ui.hint ? "primary hinted" : "primary"));
  if (!ui.selected) {
    const hint = document.createElement("span");
    hint.className = "muted";
    const myTurn = ui.view.current === ui.you && ui.view.phase === "playing" && !ui.view.result;
    hint.textContent = myTurn ? t("choice.hint") : "";
    items.push(hint);
  } else {
    for (const a of sourceActions(ui.selected)) {
      const kind = a.type === "discard" ? "discard" : "primary";
      items.push(button(choiceLabel(a, boardName), () => act(a.id), a.id === ui.hint ? `${kind} hinted` : kind));
    }
    items.push(button(t("choice.cancel"), () => select(null), "ghost"));
  }
  // A live region: drawn anew, and so read out again, only when its offer changed (#15).
  const offer = JSON.stringify([ui.selected, ...items.map((el) => [el.className, el.textContent])]);
  if (bar.dataset.offer === offer) return;
  bar.dataset.offer = offer;
  bar.replaceChildren(...items);
}

function renderSeats() {
  if (!ui.table) return;
  const view = ui.view;
  const box = $("#seats");
  box.replaceChildren();
  const selectedActions = ui.selected ? sourceActions(ui.selected) : [];
  const fromTop = legal().some((a) => a.from_discard);
  ui.table.seats.forEach((seat, index) => {
    const panel = document.createElement("section");
    panel.className = "seat";
    panel.dataset.seat = index;
    if (index === ui.you) panel.classList.add("me");
    if (view && !view.result && view.phase === "playing" && view.current === index) panel.classList.add("current");
    if (view && view.phase === "block_window" && view.window_pending.includes(index)) panel.classList.add("asked");
    panel.append(h("header", {},
      h("span", { class: `dot ${seat.kind === "bot" || seat.connected ? "on" : ""}` }),
      h("b", { class: "name" }, boardName(index)),
      h("span", { class: "badge" }, seatBadge(seat))));
    if (view) {
      const row = document.createElement("div");
      row.className = "seat-row";
      const discard = document.createElement("button");
      discard.type = "button";
      discard.className = "discard";
      const pile = view.discards[index];
      const steal = selectedActions.find((a) => a.type === "steal_card" && a.victim === index);
      if (steal) {
        discard.classList.add("target");
        discard.addEventListener("click", () => act(steal.id));
      } else if (index === ui.you && fromTop) {
        discard.classList.add("playable");
        if (ui.selected === "top") discard.classList.add("selected");
        discard.addEventListener("click", () => select("top"));
      } else {
        discard.disabled = true;
      }
      const label = index === ui.you ? t("table.discard_label.own", { count: pile.length }) : t("table.discard_label", { player: seatName(index), count: pile.length });
      // Named by a hidden sentence, the top card and count beside it (#15, WCAG 2.5.3).
      const face = h("span", { class: "discard-face", "aria-hidden": "true" });
      fillDiscard(face, pile);
      discard.append(h("span", { class: "sr-only" }, label), face);
      row.append(miniHand(view.hand_sizes[index]), discard, chipsBox(view.chips[index]));
      panel.append(row);
      if (!view.result) panel.append(nextSeat(index, view));
      if (view.phase === "block_window" && view.window_pending.includes(index)) {
        panel.append(h("div", { class: "asked-note" }, t("table.deciding"), h("span", { "data-countdown": "" })));
      }
      if (!view.result && view.phase === "playing" && view.current === index && ui.timer?.kind === "turn") {
        panel.append(h("div", { class: "asked-note" }, t("table.turn_timer"), h("span", { "data-countdown": "" })));
      }
    }
    box.append(panel);
  });
}

// The log only appends the lines it has not shown yet (#15): it is a live region, and a
// rebuilt list would be read out again (and cost a node per line per update).
const LOG_SHOWN = 120;

/** The quick chat: for seated players only (spectators read it in the log). */
function renderChat() {
  const box = $("#chat");
  box.hidden = ui.you === null || !ui.chat?.length;
  const buttons = box.querySelector(".chat-buttons");
  if (box.hidden || buttons.childElementCount === ui.chat.length) return;
  buttons.replaceChildren(...chatButtons(ui.chat, (phrase) => socket.send({ type: "chat", phrase })));
}

function renderLog() {
  const box = $("#log");
  if (ui.logCleared) {
    box.replaceChildren();
    ui.logShown = 0;
    ui.logCleared = false;
  }
  $("#last-line").textContent = ui.log.at(-1)?.line ?? ""; // a phone's one line of it (#15)
  settleLogSheet();
  const fresh = ui.log.filter((shown) => shown.seq > ui.logShown).slice(-LOG_SHOWN);
  if (!fresh.length) return;
  for (const shown of fresh) {
    const item = document.createElement("li");
    item.textContent = shown.line;
    if (shown.kind) item.className = shown.kind;
    box.append(item);
  }
  ui.logShown = fresh[fresh.length - 1].seq;
  while (box.childElementCount > LOG_SHOWN) box.firstElementChild.remove();
  box.scrollTop = box.scrollHeight;
}

/**
 * The log on a phone (#15): a sheet over the table that the Log button opens. Shut, it
 * stays in the page below the screen, still a live region, its controls out of reach.
 */
function openLog(open) {
  const box = $("#log-box");
  const inside = box.contains(document.activeElement);
  box.classList.toggle("open", open);
  settleLogSheet();
  if (open) {
    $("#log").scrollTop = $("#log").scrollHeight;
    $("#log").focus();
  } else if (inside) $("#log-toggle").focus();
}

/** The sheet shut where the log is no sheet (a desktop, a game over); the log list
 * reachable by Tab only where it is seen. */
function settleLogSheet() {
  const sheet = $("#log-toggle").getClientRects().length > 0;
  const box = $("#log-box");
  if (!sheet) box.classList.remove("open");
  const open = box.classList.contains("open");
  $("#log-toggle").setAttribute("aria-expanded", String(open));
  $("#log").tabIndex = open || !sheet ? 0 : -1;
}

$("#log-toggle").addEventListener("click", () => openLog(!$("#log-box").classList.contains("open")));
$("#last-line").addEventListener("click", () => openLog(true));
$("#log-close").addEventListener("click", () => openLog(false));
$("#log-box").addEventListener("keydown", (event) => {
  if (event.key === "Escape" && $("#log-box").classList.contains("open")) openLog(false);
});
// A tap on the table above the open sheet shuts it (and does nothing else).
$("#log-box").addEventListener("click", (event) => {
  if (event.target === event.currentTarget && event.clientY < event.currentTarget.getBoundingClientRect().top) openLog(false);
});
matchMedia("(max-width: 860px)").addEventListener("change", () => openLog(false));
// A screen resized (a phone turned) while cards travel: they land at once, their paths
// were measured on the layout that is gone (#15).
addEventListener("resize", () => {
  for (const run of document.getAnimations()) if (!(run instanceof CSSAnimation) && !(run instanceof CSSTransition)) run.finish();
});

// --- controls -------------------------------------------------------------------------

$("#join-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const name = $("#join-name").value;
  localStorage.setItem("sequence-stacks:name", name);
  const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/seats`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name }),
  });
  const data = await response.json();
  if (!response.ok) {
    notify(refusalLine(data, logName), "error");
    return;
  }
  localStorage.setItem(tokenKey, data.token);
  socket.reidentify(data.token);
});

$("#join-name").value = localStorage.getItem("sequence-stacks:name") || "";
$("#start").addEventListener("click", () => socket.command("start"));
$("#leave").addEventListener("click", () => {
  socket.command("leave");
  localStorage.removeItem(tokenKey);
  ui.you = null;
  setTimeout(() => socket.reidentify(null), 300);
});
$("#answer-block").addEventListener("click", () => act(plainAction("block")));
$("#answer-pass").addEventListener("click", () => act(plainAction("pass")));
$("#copy-link").addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText(location.href);
    notify(t("table.link_copied"));
  } catch {
    $("#share-url").select();
  }
});

$("#hint").addEventListener("click", askHint);
const help = $("#help");
$("#help-open").addEventListener("click", () => openHelp(help));
help.querySelector(".close").addEventListener("click", () => help.close());

document.addEventListener("keydown", (event) => {
  if (event.target.closest("input, textarea, select") || event.ctrlKey || event.metaKey || event.altKey) return;
  const prompt = !$("#block-prompt").hidden;
  if (event.key === "?") openHelp(help);
  else if (event.key.toLowerCase() === "h") askHint();
  else if (event.key === "Escape" && ui.selected) select(null);
  else if (prompt && event.key.toLowerCase() === "p") act(plainAction("pass"));
  else if (prompt && event.key.toLowerCase() === "b" && !$("#answer-block").disabled) act(plainAction("block"));
  else if (/^[1-9]$/.test(event.key)) {
    const card = document.querySelectorAll("#hand .card")[Number(event.key) - 1];
    if (card && !card.disabled) {
      card.click();
      document.querySelectorAll("#hand .card")[Number(event.key) - 1]?.focus();
    }
  } else if (event.key.toLowerCase() === "d" && ui.selected?.startsWith("hand:")) {
    const discard = sourceActions(ui.selected).find((a) => a.type === "discard");
    if (discard) act(discard.id);
  }
});

// Test hook: lets the browser tests drop the socket the way a network failure would.
window.sequenceStacks = { dropSocket: () => socket.drop(), ui, socket };

// The words and the catalog come first: every frame is rendered with them.
loadWords()
  .catch((error) => console.error(`the messages or the catalog did not load: ${error}`))
  .finally(() => {
    setUpPage();
    $("#board .felt").prepend(decksRow());
    socket.connect(localStorage.getItem(tokenKey));
  });
