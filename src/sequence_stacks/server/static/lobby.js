// The lobby page: create a table, list public tables. Every word is a message (#13).

import { h } from "./dom.js";
import { refusalLine, seatLabel, tableTitle } from "./words.js";
import { formatNumber, loadWords, t } from "./messages.js";
import { accountNav, nameFromAccount } from "./nav.js";
import { setUpPage } from "./pagewords.js";
import { SEAT_KIND, TABLE_STATUS } from "./vocabulary.js";

const form = document.querySelector("#create");
const list = document.querySelector("#tables");
const problem = document.querySelector("#create-error");

function option(name) {
  return form.elements.namedItem(name);
}

// A number the form cannot send, named by the form's own label (the reader's words,
// not the option's internal name): "Hand size: a whole number from 1 to 10."
function numberProblem(input) {
  if (input.validity.valid && (input.value === "" || Number.isInteger(Number(input.value)))) return null;
  const label = input.closest("label")?.querySelector("[data-t]")?.textContent ?? input.name;
  return t("page.lobby.option_range", { option: label, low: Number(input.min), high: Number(input.max) });
}

/** The turn time of a turn-based table in hours, or null for a table played live. */
function turnHours() {
  return Number(option("turn_hours").value) || null;
}

// A pace is how long a live turn and a Block window last: a turn-based table's are set by
// its turn time (#26), so its pace is not asked for.
function showPace() {
  option("pace").closest("label").hidden = turnHours() !== null;
}
option("turn_hours").addEventListener("change", showPace);
showPace();

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  problem.textContent = "";
  const options = { player_count: Number(option("players").value) };
  for (const name of ["chips_to_win", "min_each_colour", "hand_size", "piles_per_colour"]) {
    const input = option(name);
    const wrong = numberProblem(input);
    if (wrong) {
      problem.textContent = wrong;
      input.closest("details").open = true;
      input.focus();
      return;
    }
    if (input.value !== "") options[name] = Number(input.value);
  }
  for (const name of ["steal_chip_can_win", "two_player_reverses"]) {
    if (option(name).checked) options[name] = true;
  }
  if (!option("refill_at_turn_start").checked) options.refill_at_turn_start = false;
  const hours = turnHours();
  const response = await fetch("/api/tables", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ options, visibility: option("visibility").value, pace: hours === null ? option("pace").value : null, turn_hours: hours }),
  });
  const data = await response.json();
  if (!response.ok) {
    // The options' own names stay off the screen: a refused combination names them by
    // the form's labels (settings.*, #24), another refused set of options is told in
    // the reader's words (page.lobby.refused.bad_request); any other refusal by its code.
    problem.textContent = refusalLine(data, (seat) => t("seat.numbered", { number: seat + 1 }), "lobby");
    return;
  }
  location.href = data.url;
});

// "Play now" (#15): one click to a game against bots of the default strength, the
// reader seated in the first seat and the game started; the table page finds the seat's
// token where it keeps tokens. It has its own number of players, which says how many
// bots that makes, and its own pace (#24).
const quick = document.querySelector("#play-now");
const quickName = quick.elements.namedItem("name");
const quickPlayers = quick.elements.namedItem("players");

// Said once the words are in (a change before that is said when they come).
let wordsIn = false;

function showQuickBots() {
  if (!wordsIn) return;
  document.querySelector("#quick-bots").textContent = t("page.lobby.quick_bots", { count: Number(quickPlayers.value) - 1 });
}
quickPlayers.addEventListener("change", showQuickBots);
const NAME_KEY = "sequence-stacks:name";
quickName.value = localStorage.getItem(NAME_KEY) || "";
nameFromAccount(quickName);

quick.addEventListener("submit", async (event) => {
  event.preventDefault();
  const problemLine = document.querySelector("#play-now-error");
  problemLine.textContent = "";
  const name = quickName.value.trim() || t("page.lobby.default_name");
  const button = quick.querySelector("button");
  button.disabled = true;
  try {
    const response = await fetch("/api/play", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name, players: Number(quickPlayers.value), pace: quick.elements.namedItem("pace").value }),
    });
    const data = await response.json();
    if (!response.ok) {
      problemLine.textContent = refusalLine(data, (seat) => t("seat.numbered", { number: seat + 1 }));
      return;
    }
    if (quickName.value.trim()) localStorage.setItem(NAME_KEY, quickName.value.trim());
    localStorage.setItem(`sequence-stacks:token:${data.id}`, data.token);
    location.href = data.url;
  } catch {
    problemLine.textContent = t("page.lobby.no_connection");
  } finally {
    button.disabled = false;
  }
});

function seatText(seat) {
  if (seat.kind === SEAT_KIND.EMPTY) return t("lobby.open_seat");
  if (seat.kind !== SEAT_KIND.BOT) return seat.name;
  // A bot the server named is worded from its label ("Greedy bot 2", "Ann (bot)");
  // rows stored before labels existed carry only the name.
  return seat.label ? seatLabel(seat) : t("lobby.bot_seat", { name: seat.name });
}

function statusText(table, open) {
  if (table.status === TABLE_STATUS.LOBBY) return t("lobby.open_seats", { count: open });
  return t(`lobby.status.${table.status}`);
}

// Offline (#25): online tables need the network; the game on one device does not.
const offlineNote = document.querySelector("#offline-note");
function showOffline(offline) {
  offlineNote.hidden = !offline;
}
addEventListener("online", () => showOffline(false));
addEventListener("offline", () => showOffline(true));

async function refresh() {
  let response;
  try {
    response = await fetch("/api/tables");
  } catch {
    showOffline(true);
    return;
  }
  showOffline(false);
  const data = await response.json();
  list.replaceChildren();
  if (!data.tables.length) {
    const empty = document.createElement("li");
    empty.className = "muted";
    empty.textContent = t("lobby.no_tables");
    list.append(empty);
  }
  for (const table of data.tables) {
    const item = document.createElement("li");
    item.className = "table-row";
    const open = table.seats.filter((s) => s.kind === SEAT_KIND.EMPTY).length;
    const who = table.seats.filter((s) => s.kind !== SEAT_KIND.EMPTY).map(seatText).join(t("list.separator"));
    const title = t("lobby.table_named", { name: tableTitle(table.id, table.options), count: table.players });
    item.append(
      h("a", { href: `/t/${encodeURIComponent(table.id)}` }, title),
      h("span", { class: "badge" }, statusText(table, open)),
      h("span", { class: "muted who" }, who),
    );
    list.append(item);
  }
}

loadWords()
  .catch((error) => console.error(`the messages or the catalog did not load: ${error}`))
  .finally(() => {
    wordsIn = true;
    setUpPage();
    accountNav();
    for (const select of [option("players"), quickPlayers]) {
      for (const choice of select.options) choice.textContent = formatNumber(Number(choice.value));
    }
    for (const choice of option("turn_hours").options) if (choice.value) choice.textContent = t("games.turn_based", { count: Number(choice.value) });
    showQuickBots();
    refresh();
    setInterval(refresh, 5000);
  });
