// What a legal action is called on its button (#15): the board's choices and the words
// of a hint. An action comes as fields (the action table: type, kind, from_discard,
// slot, victim, colour); `name(seat)` names a seat, `slots` says what each pile slot is.

import { ACTION } from "./vocabulary.js";
import { coloured, kindName, slotName } from "./words.js";
import { t } from "./messages.js";

/** A choice button's words for one legal action of a selected card. */
export function choiceLabel(a, name, slots) {
  switch (a.type) {
    case ACTION.DISCARD:
      return t("choice.discard", { card: kindName(a.kind) });
    case ACTION.PLAY:
      if (a.slot === null) return t(coloured("choice.new_pile", a.colour));
      return t("choice.play_on", { pile: slotName(slots, a.slot) });
    case ACTION.STEAL_CARD:
      return t("choice.steal_card", { player: name(a.victim) });
    case ACTION.STEAL_CHIP:
      return t(coloured("choice.steal_chip", a.colour), { player: name(a.victim) });
    default:
      return t("choice.play", { card: kindName(a.kind) });
  }
}

/** Any action in words, whatever its type: a hint says it this way. */
export function actionWords(a, name, slots) {
  switch (a.type) {
    case ACTION.PASS:
      return t("page.table.pass");
    case ACTION.BLOCK:
      return t("page.table.block");
    case ACTION.END:
      return t("choice.end");
    case ACTION.PLAY:
      return t("table.hint_play", { card: kindName(a.kind), choice: choiceLabel(a, name, slots) });
    default:
      return choiceLabel(a, name, slots);
  }
}
