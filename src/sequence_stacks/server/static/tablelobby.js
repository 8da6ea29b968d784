// The table page's lobby (#15, #24, #26): between games, the seats with the bots one
// may add or remove, taking a seat, start or rematch, leaving, the link to share, and the
// last game's result with its standings and its replay and review links. It reads the
// page's `game` (what the server said) and sends commands over the page's socket; every
// name goes in as text (h() sets textContent).

import { h } from "./dom.js";
import { t } from "./messages.js";
import { nameFromAccount } from "./nav.js";
import { resultText, standingsTable } from "./pieces.js";
import { seatTaken } from "./seatlink.js";
import { SEAT_KIND, TABLE_STATUS } from "./vocabulary.js";
import { botName, refusalLine } from "./words.js";

const $ = (selector) => document.querySelector(selector);

export class TableLobby {
  /**
   * @param {object} parts `tableId`, `tokenKey` (where this device keeps its seat's
   *   token), `game` (the page's record of what the server said), `socket`, `notice`,
   *   and `names`: `{ seatName, logName, seatBadge }` as the page words seats.
   */
  constructor({ tableId, tokenKey, game, socket, notice, names }) {
    Object.assign(this, { tableId, tokenKey, game, socket, notice, names });
    this.reviewsAsked = new Set();
    this.setUpControls();
  }

  /** The lobby as the table is now: its buttons, the result, the seats, the bots' guide. */
  render() {
    const { game } = this;
    const table = game.table;
    const seated = game.you !== null;
    const over = table.status === TABLE_STATUS.OVER;
    const between = table.status !== TABLE_STATUS.PLAYING;
    $("#join").hidden = seated || !between || !table.seats.some((s) => s.kind === SEAT_KIND.EMPTY);
    $("#start").hidden = !seated;
    $("#start").textContent = t(over ? "table.rematch" : "table.start");
    $("#leave").hidden = !seated;
    $("#share-url").value = location.href;
    this.renderResult(over);
    $("#lobby-seats").replaceChildren(...table.seats.map((seat, index) => this.seatRow(seat, index, { seated, over, between })));
    $("#lobby").querySelector(".empty-note").hidden = !seated;
    // What each bot strength plays like, beside the buttons that add one (#15).
    const guide = $("#bot-guide");
    guide.hidden = !seated || !between;
    if (!guide.hidden && guide.childElementCount !== 2 * game.bots.length) {
      guide.replaceChildren(...game.bots.flatMap((bot) => [h("dt", {}, botName(bot)), h("dd", {}, t(`bot.${bot}.about`))]));
    }
  }

  /** The last game's result, standings and links, once it is over (its review asked for). */
  renderResult(over) {
    const { game, names } = this;
    const table = game.table;
    const result = $("#result");
    result.hidden = !(over && table.result);
    if (result.hidden) return;
    const id = encodeURIComponent(this.tableId);
    result.querySelector(".text").textContent = resultText(table.result, game.you, names.seatName);
    result.querySelector(".replay-link").href = `/replay/${id}/${table.game}`;
    result.querySelector(".review-link").href = `/review/${id}/${table.game}`;
    this.startReview(table.game);
    result.querySelector(".standings").replaceChildren(...standingsTable(table.standings ?? [], names.logName));
  }

  /**
   * Ask for finished game `number`'s review once, as the game ends (#27): the server
   * starts computing it then, so it is ready (or nearly) when the player opens it. The
   * answer itself is not needed here.
   */
  startReview(number) {
    if (this.reviewsAsked.has(number)) return;
    this.reviewsAsked.add(number);
    const token = localStorage.getItem(this.tokenKey);
    const headers = token ? { "x-seat-token": token } : {};
    fetch(`/api/tables/${encodeURIComponent(this.tableId)}/games/${number}/review`, { headers }).catch(() => {});
  }

  /** One seat in the lobby's list: its number, who sits there, and its buttons. */
  seatRow(seat, index, { seated, over, between }) {
    const { game, socket, names } = this;
    const empty = seat.kind === SEAT_KIND.EMPTY;
    const row = h("li", { class: `lobby-seat ${seat.kind}` }, t("table.seat_number", { number: index + 1 }),
      h("span", { class: "seat-name" }, empty ? t("table.open_seat") : names.logName(index)),
      h("span", { class: "badge" }, names.seatBadge(seat)));
    if (over && game.table.result?.winner === index) {
      row.classList.add("winner");
      row.append(h("span", { class: "badge winner-badge" }, t("table.winner")));
    }
    if (seated && between && empty) {
      for (const bot of game.bots) row.append(button(t("table.add_bot", { bot: botName(bot) }), () => socket.command("add_bot", { seat: index, bot }), "small"));
    } else if (seated && between && seat.kind === SEAT_KIND.BOT) {
      row.append(button(t("table.remove_bot"), () => socket.command("remove_bot", { seat: index }), "small"));
    }
    return row;
  }

  /** Taking a seat by name, start or rematch, leaving, and copying the table's link. */
  setUpControls() {
    const { game, socket, notice, tokenKey } = this;
    $("#join-form").addEventListener("submit", async (event) => {
      event.preventDefault();
      const name = $("#join-name").value;
      localStorage.setItem("sequence-stacks:name", name);
      const response = await fetch(`/api/tables/${encodeURIComponent(this.tableId)}/seats`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name }),
      });
      const data = await response.json();
      if (!response.ok) {
        notice.show(refusalLine(data, this.names.logName), "error");
        return;
      }
      localStorage.setItem(tokenKey, data.token);
      seatTaken();
      socket.reidentify(data.token);
    });
    $("#join-name").value = localStorage.getItem("sequence-stacks:name") || "";
    nameFromAccount($("#join-name"));
    $("#start").addEventListener("click", () => socket.command("start"));
    $("#leave").addEventListener("click", () => {
      socket.command("leave");
      localStorage.removeItem(tokenKey);
      game.you = null;
      setTimeout(() => socket.reidentify(null), 300);
    });
    $("#copy-link").addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(location.href);
        notice.show(t("table.link_copied"));
      } catch {
        $("#share-url").select();
      }
    });
  }
}

function button(text, onClick, extra = "") {
  const el = h("button", { type: "button", class: extra || null }, text);
  el.addEventListener("click", onClick);
  return el;
}
