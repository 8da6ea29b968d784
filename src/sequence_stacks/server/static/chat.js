// Quick chat (#15): a fixed set of phrases and emotes. The server passes on only a
// phrase's id; each reader's page words it in their own language (chat.<phrase>), so
// two players in two languages read the same thing each in theirs. Emotes are drawn
// (inline SVG), never emoji a font may lack. No DOM text from anyone but the messages.

import { h, svg } from "./dom.js";
import { t } from "./messages.js";

// The mouth of each emote's face (a path in a 24x24 box); other phrases are words.
const MOUTHS = {
  happy: "M7.5 14.5 Q12 19 16.5 14.5",
  surprised: null, // an open mouth: a circle
  sad: "M7.5 17.5 Q12 13 16.5 17.5",
};

/** True for the phrases drawn as a face. */
export function isEmote(phrase) {
  return Object.hasOwn(MOUTHS, phrase);
}

/** A face for an emote (aria-hidden: its words go beside it or in its label). */
export function face(phrase) {
  const mouth = MOUTHS[phrase];
  return svg(
    "svg",
    { class: `face ${phrase}`, viewBox: "0 0 24 24", width: 24, height: 24, "aria-hidden": "true" },
    svg("circle", { cx: 12, cy: 12, r: 10.5, class: "skin" }),
    svg("circle", { cx: 8.5, cy: 9.5, r: 1.4, class: "eye" }),
    svg("circle", { cx: 15.5, cy: 9.5, r: 1.4, class: "eye" }),
    mouth ? svg("path", { d: mouth, class: "mouth" }) : svg("circle", { cx: 12, cy: 16, r: 2.4, class: "mouth" }),
  );
}

/** The buttons of the quick chat, one per phrase; `say(phrase)` sends one. */
export function chatButtons(phrases, say) {
  return phrases.map((phrase) => {
    const label = t(`chat.${phrase}`);
    const button = isEmote(phrase)
      ? h("button", { type: "button", class: "chat-phrase emote", "aria-label": label, title: label }, face(phrase))
      : h("button", { type: "button", class: "chat-phrase" }, label);
    button.dataset.phrase = phrase;
    button.addEventListener("click", () => say(phrase));
    return button;
  });
}
