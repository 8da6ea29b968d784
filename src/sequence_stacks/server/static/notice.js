// The notice over the board (#15): why a request changed nothing, a hint's words, a
// Block that worked. It goes by itself after a while, or at once when clicked or
// dismissed with Enter or Escape (on a phone it may cover the turn and the prompt).

const SHOWN_MS = 6000;

export class Notice {
  /** `box` the notice element; `hidden()` is called when a focused notice goes. */
  constructor(box, { hidden = () => {} } = {}) {
    this.box = box;
    this.timer = null;
    this.hidden = hidden;
    box.addEventListener("click", () => this.hide());
    box.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === "Escape") this.hide();
    });
  }

  /** Show `text`; `kind` is its class (info, warn, error, event). */
  show(text, kind = "info") {
    this.box.textContent = text;
    this.box.className = `notice ${kind}`;
    this.box.hidden = false;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.hide(), SHOWN_MS);
  }

  /** Hide it now; the focus it had goes where `hidden()` puts it. */
  hide() {
    clearTimeout(this.timer);
    const focused = this.box.contains(document.activeElement);
    this.box.hidden = true;
    if (focused) this.hidden();
  }

  /** Hide it now if what it shows is of `kind` (a game's end takes away an event's notice). */
  hideKind(kind) {
    if (!this.box.hidden && this.box.classList.contains(kind)) this.hide();
  }

  /** Keep it shown until it is dismissed (it does not go by itself). */
  keep() {
    clearTimeout(this.timer);
  }
}
