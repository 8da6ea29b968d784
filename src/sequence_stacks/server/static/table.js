// The table page: lobby controls between games, the board during one.
// It renders the views the server sends and posts commands; it owns no rules: what may
// be played comes from the view's legal action ids (decoded with the "actions" table).

import { cardBack, cardElement, cardInfo, COLOURS, icon, kindName, prettyText } from "./cards.js";
import { h } from "./dom.js";
import { TableSocket } from "./net.js";
import { rulesNodes } from "./rules.js";

const tableId = decodeURIComponent(location.pathname.split("/").pop());
const tokenKey = `sequence-stacks:token:${tableId}`;
const $ = (selector) => document.querySelector(selector);

const ui = {
  you: null,
  table: null,
  view: null,
  actions: null,
  bots: ["greedy", "random"],
  log: [],
  timer: null,
  timerAt: 0,
  selected: null,
  notice: null,
};

const socket = new TableSocket(tableId, {
  status: showConnection,
  sync(frame) {
    ui.you = frame.you;
    ui.table = frame.table;
    ui.view = frame.view;
    ui.actions = frame.actions;
    ui.bots = frame.bots;
    // A token is rejected once its seat is gone for good (left, or lost at a rematch).
    // A player whose seat a bot took over while they were away is given it back by the
    // hello itself (a "reclaim" entry): this sync then has their seat, hand and actions.
    if (frame.token_rejected) localStorage.removeItem(tokenKey);
    if (frame.reset) ui.log = [];
    for (const entry of frame.entries) addLog(entry);
    setTimer(frame.timer);
    render();
  },
  update(frame) {
    ui.table = frame.table;
    ui.view = frame.view;
    if (frame.actions) ui.actions = frame.actions;
    if (frame.op === "start") ui.log = [];
    addLog(frame);
    setTimer(frame.timer);
    if (ui.selected && !sourceActions(ui.selected).length) ui.selected = null;
    render();
  },
  presence(frame) {
    if (!ui.table) return;
    frame.connected.forEach((on, seat) => (ui.table.seats[seat].connected = on));
    renderSeats();
  },
  refused(frame) {
    const rule = frame.rule ? ` (${frame.rule})` : "";
    const reason = frame.code === "stale" ? "The table moved on before that arrived; try again." : frame.reason;
    notify(`${reason}${rule}`, "error");
  },
});

// --- names, log, timer --------------------------------------------------------------

function names() {
  return ui.table ? ui.table.seats.map((s, i) => (i === ui.you ? "You" : s.name || `Seat ${i + 1}`)) : [];
}

const LOBBY_WORDS = {
  sit: "takes a seat",
  leave: "leaves the table",
  add_bot: "joins (bot)",
  remove_bot: "is removed",
  replace: "is away: a bot plays for them",
  reclaim: "is back and takes the seat again",
};

function logNames() {
  return ui.table ? ui.table.seats.map((s, i) => (s.name || `Seat ${i + 1}`) + (i === ui.you ? " (you)" : "")) : [];
}

function addLog(entry) {
  const who = logNames();
  if (LOBBY_WORDS[entry.op] && entry.seat !== null) {
    const name = ui.table?.seats[entry.seat]?.name || `Seat ${entry.seat + 1}`;
    ui.log.push({ text: `${name} ${LOBBY_WORDS[entry.op]}.`, kind: "log-lobby" });
  }
  if (entry.op === "start") ui.log.push({ text: `Game ${entry.game} begins.`, kind: "log-lobby" });
  for (const event of entry.events) {
    if (!event.text || event.type === "TurnEnded") continue;
    const kind = event.type === "TurnStarted" ? "log-turn" : event.type === "GameEnded" ? "log-end" : "";
    ui.log.push({ text: prettyText(event.text, who), kind });
  }
  if (ui.log.length > 300) ui.log.splice(0, ui.log.length - 300);
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

setInterval(() => {
  const seconds = remainingSeconds();
  for (const el of document.querySelectorAll("[data-countdown]")) el.textContent = seconds === null ? "" : `${seconds}s`;
}, 250);

function notify(text, kind = "info") {
  const box = $("#notice");
  box.textContent = text;
  box.className = `notice ${kind}`;
  box.hidden = false;
  clearTimeout(ui.notice);
  ui.notice = setTimeout(() => (box.hidden = true), 6000);
}

function showConnection(kind) {
  const el = $("#connection");
  el.dataset.state = kind;
  el.querySelector(".text").textContent = { online: "Connected", connecting: "Connecting…", reconnecting: "Reconnecting…" }[kind];
}

// --- legal actions --------------------------------------------------------------------

function parseAction(text) {
  if (text === "pass" || text === "block" || text === "end") return { word: text };
  if (text.startsWith("discard ")) return { discard: text.slice(8) };
  const fromTop = text.startsWith("^");
  const [kind, target = ""] = (fromTop ? text.slice(1) : text).split(">");
  const parsed = { kind, fromTop };
  if (target === "new") parsed.pile = "new";
  else if (/^\d+$/.test(target)) parsed.pile = Number(target) - 1;
  else if (target.startsWith("p")) {
    const [seat, colour] = target.slice(1).split(":");
    parsed.victim = Number(seat);
    if (colour) parsed.colour = colour === "B" ? 0 : 1;
  }
  return parsed;
}

function legal() {
  if (!ui.view || !ui.actions) return [];
  return ui.view.legal_action_ids.map((id) => ({ id, text: ui.actions[id], ...parseAction(ui.actions[id]) }));
}

// A source is "hand:B3" or "top" (the top of your own discard pile).
function sourceActions(source) {
  return legal().filter((a) => {
    if (source === "top") return a.fromTop;
    const kind = source.slice(5);
    return (a.kind === kind && !a.fromTop) || a.discard === kind;
  });
}

function act(text) {
  socket.command("act", { action: text });
  ui.selected = null;
  render();
}

// --- rendering ------------------------------------------------------------------------

function render() {
  if (!ui.table) return;
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
}

function renderHeader() {
  const settings = ui.table.settings;
  $("#table-title").textContent = `Table ${tableId.slice(0, 6)}`;
  $("#goal").textContent = `First to ${settings.chips_to_win} chips, at least ${settings.min_each_colour} of each colour`;
}

function renderLobby() {
  const table = ui.table;
  const box = $("#lobby");
  const seated = ui.you !== null;
  $("#join").hidden = seated || table.status === "playing" || !table.seats.some((s) => s.kind === "empty");
  $("#start").hidden = !seated;
  $("#start").textContent = table.status === "over" ? "Rematch" : "Start game";
  $("#leave").hidden = !seated;
  $("#share-url").value = location.href;
  const result = $("#result");
  if (table.status === "over" && table.result) {
    const winner = table.result.winner;
    result.hidden = false;
    result.querySelector(".text").textContent = winner === null
      ? `Game over: no winner (${table.result.reason.replace("_", " ")}).`
      : winner === ui.you ? "You win!" : `${table.seats[winner].name} wins!`;
    result.querySelector("a").href = `/replay/${encodeURIComponent(tableId)}/${table.game}`;
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
    label.textContent = seat.kind === "empty" ? "Open seat" : seat.name + (index === ui.you ? " (you)" : "");
    const kind = document.createElement("span");
    kind.className = "badge";
    kind.textContent = seat.kind === "bot" ? `${seat.bot} bot` : seat.kind === "human" ? (seat.connected ? "online" : "away") : "empty";
    row.append(`${index + 1}.`, label, kind);
    if (seated && table.status !== "playing") {
      if (seat.kind === "empty") {
        for (const bot of ui.bots) {
          const add = button(`Add ${bot} bot`, () => socket.command("add_bot", { seat: index, bot }));
          add.className = "small";
          row.append(add);
        }
      } else if (seat.kind === "bot") {
        const remove = button("Remove", () => socket.command("remove_bot", { seat: index }));
        remove.className = "small";
        row.append(remove);
      }
    }
    list.append(row);
  });
  box.querySelector(".empty-note").hidden = !seated;
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
  for (let colour = 0; colour < 2; colour++) {
    const firstFree = [...Array(per).keys()].find((p) => view.piles[colour * per + p].length === 0);
    for (let p = 0; p < per; p++) {
      const cards = view.piles[colour * per + p];
      const slot = document.createElement("button");
      slot.type = "button";
      slot.className = `pile ${COLOURS[colour]}`;
      const targets = selectedActions.filter((a) => a.pile !== undefined && a.kind[0] === (colour ? "R" : "B")
        && (a.pile === p || (a.pile === "new" && p === firstFree)));
      if (targets.length) {
        slot.classList.add("target");
        slot.addEventListener("click", () => act(targets[0].text));
      } else {
        slot.disabled = true;
      }
      const label = `${COLOURS[colour]} pile ${p + 1}`;
      slot.setAttribute("aria-label", `${label}: ${cards.length} of 5${targets.length ? ", play here" : ""}`);
      const stack = document.createElement("div");
      stack.className = "stack";
      if (cards.length) {
        cards.forEach((card, i) => {
          const el = cardElement(card, { small: true });
          el.style.setProperty("--i", i);
          stack.append(el);
        });
      } else {
        stack.append(h("span", { class: "slot-empty" }, targets.length ? "Start here" : "empty"));
      }
      const caption = h("div", { class: "caption" }, h("span", {}, label), h("span", { class: "count" }, `${cards.length}/5`));
      slot.append(stack, caption);
      piles.append(slot);
    }
  }
  const special = view.special;
  $("#draw-count").textContent = view.draw_size;
  $("#pool-count").textContent = view.pool.length;
  const specialBox = $("#special-top");
  specialBox.replaceChildren(special.length ? cardElement(special[special.length - 1], { small: true }) : emptyCard());
  $("#special-count").textContent = special.length;
  const turn = $("#turn");
  const who = names();
  const current = view.current;
  const phase = view.phase;
  let text;
  if (view.result) text = view.result.winner === null ? "Game over: no winner" : `${who[view.result.winner]} ${view.result.winner === ui.you ? "win" : "wins"}!`;
  else if (phase === "block_window") text = `${who[view.window_completer]} completed a sequence: waiting for Block answers`;
  else text = current === ui.you ? "Your turn" : `${who[current]}'s turn`;
  turn.querySelector(".text").textContent = text;
  turn.dataset.mine = String(current === ui.you && phase === "playing" && !view.result);
  $("#direction").replaceChildren(icon("REV", 16), view.direction > 0 ? " Clockwise" : " Anticlockwise");
  $("#direction").dataset.dir = view.direction;
  $("#skips").hidden = !view.pending_skips;
  $("#skips").textContent = `${view.pending_skips} skip${view.pending_skips === 1 ? "" : "s"} pending`;
  $("#turn-timer").hidden = !ui.timer || ui.timer.kind !== "turn";
}

function emptyCard() {
  const el = document.createElement("div");
  el.className = "card small ghost";
  return el;
}

function renderPrompt() {
  const view = ui.view;
  const prompt = $("#block-prompt");
  const asked = view.phase === "block_window" && ui.you !== null && view.window_pending.includes(ui.you);
  prompt.hidden = !asked;
  if (!asked) return;
  const who = names();
  prompt.querySelector(".text").textContent = `${who[view.window_completer]} completed a ${view.window_pile !== null ? "" : ""}sequence. Block it?`;
  const ids = view.legal_action_ids;
  const blockButton = $("#answer-block");
  blockButton.disabled = !ids.includes(1);
  blockButton.title = ids.includes(1) ? "Spend a Block card" : "You hold no Block card";
}

function renderHand() {
  const view = ui.view;
  const hand = $("#hand");
  hand.replaceChildren();
  const mine = ui.you !== null && view.hand;
  $("#hand-area").hidden = !mine;
  if (!mine) return;
  const all = legal();
  view.hand.forEach((card, index) => {
    const info = cardInfo(card);
    const source = `hand:${info.kind}`;
    const el = cardElement(card, { button: true });
    const usable = all.some((a) => (a.kind === info.kind && !a.fromTop) || a.discard === info.kind);
    el.classList.toggle("playable", usable && all.some((a) => a.kind === info.kind && !a.fromTop));
    el.classList.toggle("selected", ui.selected === source && ui.selectedIndex === index);
    el.disabled = !usable;
    el.dataset.index = index;
    el.setAttribute("aria-pressed", String(ui.selected === source && ui.selectedIndex === index));
    el.addEventListener("click", () => select(source, index));
    hand.append(el);
  });
  renderChoices();
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
  bar.replaceChildren();
  const all = legal();
  const who = names();
  const endOnly = all.find((a) => a.word === "end");
  if (endOnly) bar.append(button("End turn", () => act("end"), "primary"));
  if (!ui.selected) {
    const hint = document.createElement("span");
    hint.className = "muted";
    const myTurn = ui.view.current === ui.you && ui.view.phase === "playing" && !ui.view.result;
    hint.textContent = myTurn ? "Select a card to see where it can go. A discard ends your turn." : "";
    bar.append(hint);
    return;
  }
  for (const a of sourceActions(ui.selected)) {
    let label;
    if (a.discard) label = `Discard ${kindName(a.discard)} (ends turn)`;
    else if (a.pile === "new") label = `Start a new ${a.kind[0] === "B" ? "blue" : "red"} pile`;
    else if (a.pile !== undefined) label = `Play on ${a.kind[0] === "B" ? "blue" : "red"} pile ${a.pile + 1}`;
    else if (a.kind === "SKIP" || a.kind === "REV") label = `Play ${kindName(a.kind)}`;
    else if (a.kind === "SCARD") label = `Steal ${who[a.victim]}'s top discard`;
    else if (a.kind === "SCHIP") label = `Take a ${COLOURS[a.colour]} chip from ${who[a.victim]}`;
    else label = a.text;
    bar.append(button(label, () => act(a.text), a.discard ? "discard" : "primary"));
  }
  bar.append(button("Cancel", () => select(null), "ghost"));
}

function renderSeats() {
  if (!ui.table) return;
  const view = ui.view;
  const box = $("#seats");
  box.replaceChildren();
  const who = names();
  const selectedActions = ui.selected ? sourceActions(ui.selected) : [];
  ui.table.seats.forEach((seat, index) => {
    const panel = document.createElement("section");
    panel.className = "seat";
    if (index === ui.you) panel.classList.add("me");
    if (view && !view.result && view.phase === "playing" && view.current === index) panel.classList.add("current");
    if (view && view.phase === "block_window" && view.window_pending.includes(index)) panel.classList.add("asked");
    const status = seat.kind === "bot" ? `${seat.bot} bot` : seat.kind === "human" ? (seat.connected ? "online" : "away") : "empty";
    panel.append(h("header", {},
      h("span", { class: `dot ${seat.kind === "bot" || seat.connected ? "on" : ""}` }),
      h("b", { class: "name" }, who[index] ?? seat.name),
      h("span", { class: "badge" }, status)));
    if (view) {
      const chips = view.chips[index];
      const row = document.createElement("div");
      row.className = "seat-row";
      const handBox = document.createElement("div");
      handBox.className = "mini-hand";
      handBox.title = `${view.hand_sizes[index]} cards in hand`;
      for (let i = 0; i < view.hand_sizes[index]; i++) handBox.append(cardBack());
      handBox.append(h("span", { class: "count" }, view.hand_sizes[index]));
      const chipBox = document.createElement("div");
      chipBox.className = "chips";
      chipBox.setAttribute("aria-label", `${chips[0]} blue and ${chips[1]} red chips`);
      chipBox.append(h("span", { class: "chip blue" }, chips[0]), h("span", { class: "chip red" }, chips[1]));
      const discard = document.createElement("button");
      discard.type = "button";
      discard.className = "discard";
      const pile = view.discards[index];
      const steal = selectedActions.find((a) => a.kind === "SCARD" && a.victim === index);
      const fromTop = index === ui.you && legal().some((a) => a.fromTop);
      if (steal) {
        discard.classList.add("target");
        discard.addEventListener("click", () => act(steal.text));
      } else if (fromTop) {
        discard.classList.add("playable");
        if (ui.selected === "top") discard.classList.add("selected");
        discard.addEventListener("click", () => select("top"));
      } else {
        discard.disabled = true;
      }
      discard.setAttribute("aria-label", `${who[index]}'s discard pile, ${pile.length} cards`);
      discard.append(pile.length ? cardElement(pile[pile.length - 1], { small: true }) : emptyCard());
      discard.append(h("span", { class: "count" }, pile.length));
      discard.title = pile.map((c) => cardInfo(c).name).join(", ") || "empty discard pile";
      row.append(handBox, discard, chipBox);
      panel.append(row);
      if (view.phase === "block_window" && view.window_pending.includes(index)) {
        panel.append(h("div", { class: "asked-note" }, "deciding… ", h("span", { "data-countdown": "" })));
      }
      if (!view.result && view.phase === "playing" && view.current === index && ui.timer?.kind === "turn") {
        panel.append(h("div", { class: "asked-note" }, "turn timer ", h("span", { "data-countdown": "" })));
      }
    }
    box.append(panel);
  });
}

function renderLog() {
  const box = $("#log");
  box.replaceChildren();
  for (const line of ui.log.slice(-120)) {
    const item = document.createElement("li");
    item.textContent = line.text;
    if (line.kind) item.className = line.kind;
    box.append(item);
  }
  box.scrollTop = box.scrollHeight;
}

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
    notify(data.reason, "error");
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
$("#answer-block").addEventListener("click", () => act("block"));
$("#answer-pass").addEventListener("click", () => act("pass"));
$("#copy-link").addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText(location.href);
    notify("Link copied: send it to your friends.");
  } catch {
    $("#share-url").select();
  }
});

const help = $("#help");
help.querySelector(".body").replaceChildren(...rulesNodes());
$("#help-open").addEventListener("click", () => help.showModal());
help.querySelector(".close").addEventListener("click", () => help.close());

document.addEventListener("keydown", (event) => {
  if (event.target.closest("input, textarea, select") || event.ctrlKey || event.metaKey || event.altKey) return;
  const prompt = !$("#block-prompt").hidden;
  if (event.key === "?") help.showModal();
  else if (event.key === "Escape" && ui.selected) select(null);
  else if (prompt && event.key.toLowerCase() === "p") act("pass");
  else if (prompt && event.key.toLowerCase() === "b" && !$("#answer-block").disabled) act("block");
  else if (/^[1-9]$/.test(event.key)) {
    const card = document.querySelectorAll("#hand .card")[Number(event.key) - 1];
    if (card && !card.disabled) {
      card.click();
      document.querySelectorAll("#hand .card")[Number(event.key) - 1]?.focus();
    }
  } else if (event.key.toLowerCase() === "d" && ui.selected?.startsWith("hand:")) {
    const discard = sourceActions(ui.selected).find((a) => a.discard);
    if (discard) act(discard.text);
  }
});

// Test hook: lets the browser tests drop the socket the way a network failure would.
window.sequenceStacks = { dropSocket: () => socket.drop(), ui, socket };

socket.connect(localStorage.getItem(tokenKey));
