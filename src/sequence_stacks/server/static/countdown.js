// A countdown the server started (docs/protocol.md, `timer`: a turn's or a Block
// window's), shown in every [data-countdown] element of the page as seconds, and in
// every [data-countdown-bar] as the share of its time that is left (the `--left` its
// style draws a bar with, #24). Its last seconds are in the warning colour, and sounded
// once, when it waits for the reader (#15).

import { t } from "./messages.js";
import { duration } from "./when.js";

const WARN_SECONDS = 15;
const LONG_SECONDS = 600; // longer than this (a turn-based table's): minutes, hours, days
const TICK_MS = 250;

export class Countdown {
  /** `waitsFor(timer)`: whether a timer waits for the reader; `warn()` sounds it. */
  constructor({ waitsFor = () => false, warn = () => {} } = {}) {
    this.timer = null;
    this.at = 0;
    this.total = 0; // the longest time left seen of this countdown: the bar's whole
    this.warned = null; // the timer whose last seconds were already sounded
    this.waitsFor = waitsFor;
    this.warn = warn;
  }

  /** The countdown a frame brought (null: none), from now. */
  set(timer) {
    const same = timer && this.timer && timer.kind === this.timer.kind && String(timer.seats) === String(this.timer.seats);
    this.timer = timer ?? null;
    this.at = performance.now();
    const left = this.timer?.remaining_ms ?? 0;
    this.total = same ? Math.max(this.total, left) : left;
    this.tick(); // shown at once, not at the next tick
  }

  /** The share of the countdown still left, 0 to 1 (1 without a countdown). */
  share() {
    if (!this.timer || !this.total) return 1;
    const left = this.timer.remaining_ms - (performance.now() - this.at);
    return Math.min(1, Math.max(0, left / this.total));
  }

  /** Whole seconds left, or null without a countdown. */
  seconds() {
    if (!this.timer) return null;
    const left = this.timer.remaining_ms - (performance.now() - this.at);
    return Math.max(0, Math.ceil(left / 1000));
  }

  /** Show the seconds left now. */
  tick() {
    const seconds = this.seconds();
    const warn = seconds !== null && seconds <= WARN_SECONDS && this.waitsFor(this.timer);
    for (const el of document.querySelectorAll("[data-countdown]")) {
      if (seconds === null) el.textContent = "";
      else el.textContent = seconds > LONG_SECONDS ? duration(seconds) : t("table.seconds", { count: seconds });
      el.classList.toggle("warn", warn);
    }
    const share = this.share();
    for (const el of document.querySelectorAll("[data-countdown-bar]")) el.style.setProperty("--left", share.toFixed(3));
    if (warn && this.warned !== this.timer) {
      this.warned = this.timer;
      this.warn();
    }
  }

  /** Tick from now on. */
  start() {
    setInterval(() => this.tick(), TICK_MS);
  }
}
