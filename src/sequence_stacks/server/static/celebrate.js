// A game won (#24): the result at the top of the page gets a trophy, and confetti in the
// game's colours falls over the screen for a few seconds (none for a reader who asked
// for less motion: the trophy stays). Drawn shapes only, no words of its own: the
// result's text says who won.

import { h, svg } from "./dom.js";
import { reducedMotion } from "./animate.js";

const PIECES = 36;
const SHOWN_MS = 4500;
const COLOURS = ["blue", "red", "gold"];

/** A trophy drawn in the text colour (decoration: the result says who won). */
function trophy() {
  return svg(
    "svg",
    { class: "trophy", viewBox: "0 0 24 24", width: 28, height: 28, "aria-hidden": "true" },
    svg("path", { d: "M7 3h10v4a5 5 0 0 1-10 0zM7 5H4v1a3 3 0 0 0 3 3M17 5h3v1a3 3 0 0 1-3 3M10 14h4v3h3v3H7v-3h3z", fill: "currentColor" }),
  );
}

/** Celebrate the winner on `result` (the page's result box); `text` is what it says. */
export function celebrate(result, text) {
  result.classList.add("celebrate");
  if (!result.querySelector(".trophy")) result.prepend(trophy());
  result.dataset.said = text;
  if (reducedMotion()) return;
  const layer = h("div", { class: "confetti", "aria-hidden": "true" });
  for (let i = 0; i < PIECES; i++) {
    const piece = h("span", { class: `piece ${COLOURS[i % COLOURS.length]}` });
    piece.style.setProperty("--x", `${Math.round(Math.random() * 100)}vw`);
    piece.style.setProperty("--delay", `${(Math.random() * 0.9).toFixed(2)}s`);
    piece.style.setProperty("--spin", `${Math.round(Math.random() * 720 - 360)}deg`);
    layer.append(piece);
  }
  document.body.append(layer);
  setTimeout(() => layer.remove(), SHOWN_MS);
}
