// The lobby page: create a table, list public tables.

import { h } from "./dom.js";

const form = document.querySelector("#create");
const list = document.querySelector("#tables");
const problem = document.querySelector("#create-error");

function option(name) {
  return form.elements.namedItem(name);
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  problem.textContent = "";
  const options = { player_count: Number(option("players").value) };
  for (const name of ["chips_to_win", "min_each_colour", "hand_size", "piles_per_colour"]) {
    const value = option(name).value;
    if (value !== "") options[name] = Number(value);
  }
  for (const name of ["steal_chip_can_win", "two_player_reverses"]) {
    if (option(name).checked) options[name] = true;
  }
  if (!option("refill_at_turn_start").checked) options.refill_at_turn_start = false;
  const response = await fetch("/api/tables", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ options, visibility: option("visibility").value }),
  });
  const data = await response.json();
  if (!response.ok) {
    problem.textContent = data.reason;
    return;
  }
  location.href = data.url;
});

function seatText(seat) {
  if (seat.kind === "empty") return "open seat";
  return seat.kind === "bot" ? `${seat.name} (bot)` : seat.name;
}

async function refresh() {
  const response = await fetch("/api/tables");
  const data = await response.json();
  list.replaceChildren();
  if (!data.tables.length) {
    const empty = document.createElement("li");
    empty.className = "muted";
    empty.textContent = "No public tables yet: create one!";
    list.append(empty);
  }
  for (const table of data.tables) {
    const item = document.createElement("li");
    item.className = "table-row";
    const open = table.seats.filter((s) => s.kind === "empty").length;
    const status = table.status === "lobby" ? `${open} open seat${open === 1 ? "" : "s"}` : table.status;
    const who = table.seats.filter((s) => s.kind !== "empty").map(seatText).join(", ");
    item.append(
      h("a", { href: `/t/${encodeURIComponent(table.id)}` }, `Table ${table.id.slice(0, 6)} · ${table.players} players`),
      h("span", { class: "badge" }, status),
      h("span", { class: "muted who" }, who),
    );
    list.append(item);
  }
}

refresh();
setInterval(refresh, 5000);
