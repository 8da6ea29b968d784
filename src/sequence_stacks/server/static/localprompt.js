// A Block window at a table of people sharing one device (#25; docs/rules-notes.md N22).
// Everyone looks at the same screen, so the window is one public prompt: which pile was
// completed and by whom, one button per asked person ("Ann blocks"), "Nobody blocks",
// and a short countdown. A claimed Block goes to the engine, which refuses it when that
// player holds no Block card (R29); "Nobody blocks" or the end of the countdown is a
// pass from every asked person who has not answered. Bots answer on their own.

import { h } from "./dom.js";
import { t } from "./messages.js";
import { slotName } from "./words.js";

export class TablePrompt {
  /** `claim(seat)` and `nobody()` are called back; `name(seat)` names a seat. */
  constructor({ box, nobody, claim, name }) {
    Object.assign(this, { box, nobodyButton: nobody, claim, name });
    this.key = null;
    this.refused = new Set(); // seats whose claim the engine refused in this window
    nobody.addEventListener("click", () => this.onNobody?.());
  }

  /** Whether the prompt is open. */
  get open() {
    return !this.box.hidden;
  }

  /**
   * Show the window `key` of `view` asking `people` (seats); `slots` names the piles.
   * Returns true when it opened (a new window), false when it was open already.
   */
  show(key, view, people, slots, onNobody) {
    const fresh = key !== this.key;
    if (fresh) this.refused.clear();
    this.key = key;
    this.onNobody = onNobody;
    this.box.querySelector(".text").textContent = t("local.prompt.text", { player: this.name(view.window_completer), pile: slotName(slots, view.window_pile) });
    const buttons = people.map((seat) => {
      const button = h("button", { type: "button", class: "danger claim", "data-seat": seat }, t("local.prompt.claim", { player: this.name(seat) }));
      button.disabled = this.refused.has(seat);
      button.addEventListener("click", () => this.claim(seat));
      return button;
    });
    this.box.querySelector(".claims").replaceChildren(...buttons);
    this.box.hidden = false;
    return fresh;
  }

  /** The engine refused `seat`'s claim: its button stays off for this window. */
  refuse(seat) {
    this.refused.add(seat);
    const button = this.box.querySelector(`.claim[data-seat="${Number(seat)}"]`);
    if (button) button.disabled = true;
  }

  /** Close the prompt (the window is over). */
  close() {
    this.box.hidden = true;
    this.key = null;
  }
}
