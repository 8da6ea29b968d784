// What a legal action is called on its button (#15): the live table's choices and the
// tutorial's, and the words of a hint. An action comes as fields (the action table:
// type, kind, from_discard, pile, victim, colour); `name(seat)` names a seat.

import { coloured, kindInfo, kindName, pileName } from "./eventlog.js";
import { t } from "./messages.js";

/** The colour a played card's pile has: the card kind's own. */
export function pileColour(action) {
  return kindInfo(action.kind).colour;
}

/** A choice button's words for one legal action of a selected card. */
export function choiceLabel(a, name) {
  switch (a.type) {
    case "discard":
      return t("choice.discard", { card: kindName(a.kind) });
    case "play":
      if (a.pile === null) return t(coloured("choice.new_pile", pileColour(a)));
      return t("choice.play_on", { pile: pileName(pileColour(a), a.pile) });
    case "steal_card":
      return t("choice.steal_card", { player: name(a.victim) });
    case "steal_chip":
      return t(coloured("choice.steal_chip", a.colour), { player: name(a.victim) });
    default:
      return t("choice.play", { card: kindName(a.kind) });
  }
}

/** Any action in words, whatever its type: a hint says it this way. */
export function actionWords(a, name) {
  if (a.type === "pass") return t("page.table.pass");
  if (a.type === "block") return t("page.table.block");
  if (a.type === "end") return t("choice.end");
  if (a.type === "play") return t("table.hint_play", { card: kindName(a.kind), choice: choiceLabel(a, name) });
  return choiceLabel(a, name);
}
