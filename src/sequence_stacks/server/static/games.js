// "My games" (#26): every table of the signed-in account, those where it is the reader's
// turn first, each with how long is left and a link back to the table.

import { h } from "./dom.js";
import { call, Refused } from "./api.js";
import { accountNav } from "./nav.js";
import { loadWords, t } from "./messages.js";
import { setUpPage } from "./pagewords.js";
import { SEAT_KIND, TABLE_STATUS } from "./vocabulary.js";
import { howPlayed, timeLeft } from "./when.js";
import { seatLabel, tableTitle } from "./words.js";

const list = document.querySelector("#games");
const note = document.querySelector("#games-note");

function statusText(game) {
  if (game.my_turn) return t("games.your_turn");
  if (game.status === TABLE_STATUS.PLAYING) return t("games.waiting");
  if (game.status === TABLE_STATUS.LOBBY) return t("games.lobby");
  return t("games.over");
}

function who(game) {
  return game.seats
    .filter((seat) => seat.kind !== SEAT_KIND.EMPTY)
    .map((seat) => (seat.label ? seatLabel(seat) : seat.name))
    .join(t("list.separator"));
}

function row(game) {
  const name = tableTitle(game.id, game.options);
  const bits = [h("a", { href: game.url }, name), h("span", { class: game.my_turn ? "badge waiting" : "badge" }, statusText(game)), h("span", { class: "muted" }, howPlayed(game.options))];
  if (game.my_turn && game.deadline) bits.push(h("span", { class: "muted" }, timeLeft(game.deadline)));
  bits.push(h("span", { class: "muted who" }, who(game)));
  return h("li", { class: game.my_turn ? "table-row mine" : "table-row", "data-table": game.id }, ...bits);
}

async function refresh() {
  try {
    if (!(await call("GET", "/api/me/badge")).signed_in) throw new Refused(401, null);
    const data = await call("GET", "/api/me/games");
    list.replaceChildren(...data.games.map(row));
    note.textContent = data.games.length ? "" : t("page.games.none");
  } catch (error) {
    list.replaceChildren();
    note.textContent = error instanceof Refused && error.status === 401 ? t("page.games.signed_out") : t("page.lobby.no_connection");
  }
}

loadWords()
  .catch((error) => console.error(`the messages did not load: ${error}`))
  .finally(() => {
    setUpPage();
    accountNav();
    refresh();
    setInterval(refresh, 30_000);
  });
