// Who plays a game on one device (#25): two to six seats, each a person with a name or
// a bot of a strength, and the pace (how fast bots play, how long a Block window waits).
// The last choice is remembered on the device. Every word is a message (#13).

import { h } from "./dom.js";
import { t } from "./messages.js";
import { botName } from "./words.js";

const KEY = "sequence-stacks:local-setup";
const NAME_KEY = "sequence-stacks:name";
const MIN_PLAYERS = 2; // R5
const MAX_PLAYERS = 6;
const NAME_LIMIT = 24;
// What a seat's menu holds for a person: no bot.
const PERSON = "";

// How fast bots play and how long a Block window waits for the people asked, by pace.
export const PACE = Object.freeze({
  relaxed: { botMs: 1100, blockMs: 12000 },
  normal: { botMs: 650, blockMs: 8000 },
  fast: { botMs: 80, blockMs: 5000 },
});
export const PACES = Object.freeze(Object.keys(PACE));

/** A seat's default name: "Player 2". */
function numbered(index) {
  return t("seat.numbered", { number: index + 1 });
}

/** A bot's name at the table: "Greedy bot 3". */
export function botSeatName(bot, index) {
  return t("seat.bot", { bot: botName(bot), number: index + 1 });
}

/** Two names that read the same (any case, any Unicode form). */
function sameName(one, other) {
  return one.normalize("NFKC").toLocaleLowerCase() === other.normalize("NFKC").toLocaleLowerCase();
}

export class Setup {
  /** `bots`: the bot strengths the page offers; `start(players, pace)` is called with a valid choice. */
  constructor({ form, list, add, pace, error, bots, start }) {
    Object.assign(this, { form, list, addButton: add, paceSelect: pace, error, bots, start });
    this.rows = this.remembered();
    add.addEventListener("click", () => {
      this.read();
      this.rows.push({ name: "", bot: this.bots[0] ?? PERSON });
      this.render();
      this.list.querySelector("li:last-child select")?.focus();
    });
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.submit();
    });
  }

  /** The last setup kept on this device, else you and two bots. */
  remembered() {
    let kept = null;
    try {
      kept = JSON.parse(localStorage.getItem(KEY) ?? "null");
    } catch {
      kept = null;
    }
    const valid = Array.isArray(kept?.rows) && kept.rows.length >= MIN_PLAYERS && kept.rows.length <= MAX_PLAYERS;
    if (valid && PACES.includes(kept.pace)) this.paceSelect.value = kept.pace;
    if (valid) return kept.rows.map((row) => ({ name: String(row.name ?? "").slice(0, NAME_LIMIT), bot: this.bots.includes(row.bot) ? row.bot : PERSON }));
    let name = "";
    try {
      name = localStorage.getItem(NAME_KEY) ?? "";
    } catch {
      name = "";
    }
    const bot = this.bots[0] ?? PERSON;
    return [{ name, bot: PERSON }, { name: "", bot }, { name: "", bot }];
  }

  /** Draw the seats' rows. */
  render() {
    this.list.replaceChildren(...this.rows.map((row, index) => this.row(row, index)));
    this.addButton.disabled = this.rows.length >= MAX_PLAYERS;
  }

  row(row, index) {
    const number = index + 1;
    const kind = h("select", { class: "kind", "aria-label": t("local.setup.kind", { number }) },
      h("option", { value: PERSON }, t("local.setup.person")),
      ...this.bots.map((bot) => h("option", { value: bot }, t("local.setup.bot", { bot: botName(bot) }))));
    kind.value = row.bot;
    const name = h("input", {
      class: "name",
      maxlength: NAME_LIMIT,
      autocomplete: "off",
      "aria-label": t("local.setup.name", { number }),
      placeholder: numbered(index),
    });
    name.value = row.name;
    name.hidden = row.bot !== PERSON;
    const botLabel = h("span", { class: "bot-name muted" }, row.bot === PERSON ? "" : botSeatName(row.bot, index));
    botLabel.hidden = row.bot === PERSON;
    kind.addEventListener("change", () => {
      this.read();
      this.render();
      this.list.children[index]?.querySelector(kind.value === PERSON ? "input" : "select")?.focus();
    });
    const remove = h("button", { type: "button", class: "ghost small remove", "aria-label": t("local.setup.remove_label", { number }) }, t("local.setup.remove"));
    remove.disabled = this.rows.length <= MIN_PLAYERS;
    remove.addEventListener("click", () => {
      this.read();
      this.rows.splice(index, 1);
      this.render();
      this.addButton.focus();
    });
    return h("li", { class: "player-row" }, h("span", { class: "seat-number", "aria-hidden": "true" }, number), kind, name, botLabel, remove);
  }

  /** The rows as the form shows them now. */
  read() {
    this.rows = [...this.list.children].map((item) => ({
      name: item.querySelector("input.name").value,
      bot: item.querySelector("select.kind").value,
    }));
  }

  /** The players for the engine, or a problem in words. */
  players() {
    this.read();
    const players = this.rows.map((row, index) => {
      if (row.bot !== PERSON) return { name: botSeatName(row.bot, index), bot: row.bot };
      const name = row.name.split(/\s+/u).filter(Boolean).join(" ").slice(0, NAME_LIMIT);
      return { name: name || numbered(index), bot: null };
    });
    const people = players.filter((player) => player.bot === null);
    if (!people.length) return { problem: t("local.setup.need_person") };
    for (const [index, player] of people.entries()) {
      const twin = people.slice(index + 1).find((other) => sameName(player.name, other.name));
      if (twin) return { problem: t("local.setup.same_name", { name: twin.name }) };
    }
    return { players };
  }

  submit() {
    const { players, problem } = this.players();
    this.error.textContent = problem ?? "";
    if (problem) return;
    try {
      localStorage.setItem(KEY, JSON.stringify({ rows: this.rows, pace: this.paceSelect.value }));
      const first = this.rows.find((row) => row.bot === PERSON && row.name.trim());
      if (first) localStorage.setItem(NAME_KEY, first.name.trim());
    } catch {
      // Storage may be off: the choice is not remembered, the game starts all the same.
    }
    this.start(players, this.paceSelect.value);
  }
}
