// The sound switch of the table pages (#15): a drawn speaker (no font glyph) and its
// words (on a phone only the speaker shows), pressed when sounds are off. Clicked, it
// turns sounds off or on and plays what they sound like now (nothing when just muted).

import { h, svg } from "./dom.js";
import { t } from "./messages.js";
import { muted, play, setMuted } from "./sounds.js";

/** Draw `button` as sounds are now, in the reader's words. */
export function renderSoundSwitch(button) {
  const on = !muted();
  const speaker = svg(
    "svg",
    { viewBox: "0 0 24 24", width: 20, height: 20, "aria-hidden": "true", class: "speaker" },
    svg("path", { d: "M4 9h4l5-4v14l-5-4H4z", class: "body" }),
    svg("path", { d: on ? "M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12" : "M16 9l5 6M21 9l-5 6", class: "waves" }),
  );
  button.replaceChildren(speaker, h("span", { class: "label" }, t(on ? "table.sound_on" : "table.sound_off")));
  button.setAttribute("aria-pressed", String(!on));
}

/** Make `button` the sound switch (drawn by `renderSoundSwitch` once the words are in). */
export function soundSwitch(button) {
  button.addEventListener("click", () => {
    setMuted(!muted());
    renderSoundSwitch(button);
    play("turn");
  });
}
