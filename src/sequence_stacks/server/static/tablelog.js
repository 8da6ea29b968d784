// The table's game log (#15, #23): each entry's own line (a seat taken, a game begun, a
// move made for a player whose time ran out) and its events' lines, worded from the
// messages the server sent with them; chat lines; a phone's one line of it and the
// sheet the Log button opens. The list only appends the lines it has not shown yet: it
// is a live region, and a rebuilt list would be read out again.

import { t } from "./messages.js";
import { EVENT } from "./vocabulary.js";
import { eventLine, line } from "./words.js";

const KEPT = 300;
const SHOWN = 120;

/** The class of an event's line: a turn's start and the game's end stand out. */
function lineClass(event) {
  if (event.type === EVENT.TURN_STARTED) return "log-turn";
  if (event.type === EVENT.GAME_ENDED) return "log-end";
  return "";
}

export class TableLog {
  /** The page's parts: the list, its box (the sheet), the Log and Close buttons, the phone's line. */
  constructor({ list, box, toggle, close, lastLine }) {
    Object.assign(this, { list, box, toggle, close, lastLine });
    this.lines = [];
    this.logged = 0; // the newest entry version in the log
    this.seq = 0; // numbers the lines, so the list only appends new ones
    this.shown = 0;
    this.cleared = true;
    toggle.addEventListener("click", () => this.open(!box.classList.contains("open")));
    lastLine.addEventListener("click", () => this.open(true));
    close.addEventListener("click", () => this.open(false));
    box.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && box.classList.contains("open")) this.open(false);
    });
    // A tap on the table above the open sheet shuts it (and does nothing else).
    box.addEventListener("click", (event) => {
      if (event.target === event.currentTarget && event.clientY < event.currentTarget.getBoundingClientRect().top) this.open(false);
    });
    matchMedia("(max-width: 860px)").addEventListener("change", () => this.open(false));
  }

  /** Start a new game's log. */
  clear() {
    this.lines = [];
    this.logged = 0;
    this.cleared = true;
  }

  /** An entry's lines: its own, then its events'; `name(seat)` names a seat. */
  add(entry, name) {
    this.logged = Math.max(this.logged, entry.version);
    if (entry.message) this.say(line(entry.message, name), entry.timed_out ? "" : "log-lobby");
    for (const event of entry.events) {
      const text = eventLine(event, name);
      if (text !== null) this.say(text, lineClass(event));
    }
    if (this.lines.length > KEPT) this.lines.splice(0, this.lines.length - KEPT);
  }

  /** One more line of text, of class `kind`. */
  say(text, kind) {
    this.lines.push({ text, kind, seq: ++this.seq });
  }

  /** Show the lines not shown yet. */
  render() {
    const list = this.list;
    if (this.cleared) {
      list.replaceChildren();
      this.shown = 0;
      this.cleared = false;
    }
    this.lastLine.textContent = this.lines.at(-1)?.text ?? ""; // a phone's one line of it (#15)
    this.settleSheet();
    const fresh = this.lines.filter((shown) => shown.seq > this.shown).slice(-SHOWN);
    if (!fresh.length) return;
    for (const shown of fresh) {
      const item = document.createElement("li");
      item.textContent = shown.text;
      if (shown.kind) item.className = shown.kind;
      list.append(item);
    }
    this.shown = fresh[fresh.length - 1].seq;
    while (list.childElementCount > SHOWN) list.firstElementChild.remove();
    list.scrollTop = list.scrollHeight;
  }

  /**
   * A chat phrase came (#24): where the log is a sheet and shut, its Log button shows a
   * dot and says there is a new message until the sheet is opened.
   */
  markUnread() {
    const sheet = this.toggle.getClientRects().length > 0;
    if (!sheet || this.box.classList.contains("open")) return;
    this.toggle.classList.add("unread");
    this.toggle.setAttribute("aria-label", t("page.table.log_unread"));
  }

  /**
   * The log on a phone (#15): a sheet over the table that the Log button opens. Shut, it
   * stays in the page below the screen, still a live region, its controls out of reach.
   */
  open(open) {
    const inside = this.box.contains(document.activeElement);
    this.box.classList.toggle("open", open);
    if (open) {
      this.toggle.classList.remove("unread");
      this.toggle.setAttribute("aria-label", t("page.table.log_button"));
    }
    this.settleSheet();
    if (open) {
      this.list.scrollTop = this.list.scrollHeight;
      this.list.focus();
    } else if (inside) this.toggle.focus();
  }

  /** The sheet shut where the log is no sheet (a desktop, a game over); the list
   * reachable by Tab only where it is seen. */
  settleSheet() {
    const sheet = this.toggle.getClientRects().length > 0;
    if (!sheet) this.box.classList.remove("open");
    const open = this.box.classList.contains("open");
    this.toggle.setAttribute("aria-expanded", String(open));
    this.list.tabIndex = open || !sheet ? 0 : -1;
  }
}
