// The rules help shown in a dialog (a summary of RULES.md), as data that dom.js's
// `build` turns into nodes: a string is text, `[tag, ...children]` an element.

import { build } from "./dom.js";

const RULES = [
  ["h2", "How to play Sequence Stacks"],
  ["p",
    ["b", "Goal."], " Be the first to hold ", ["b", "5 chips with at least 2 of each colour"],
    " (the table may use other numbers; see the settings). You win a chip by completing a sequence."],
  ["h3", "Your turn"],
  ["ol",
    ["li", "Draw until you hold 5 cards."],
    ["li", "Play as many cards as you like, one at a time, from your hand or from the top of your own discard pile, onto the shared sequence piles."],
    ["li", "End the turn by discarding one card from your hand onto your discard pile."]],
  ["h3", "Sequence piles"],
  ["p",
    "At most two piles of each colour. A ", ["b", "1"], " starts a pile, then each card is one higher: 1, 2, 3, 4, 5. ",
    ["b", "Wilds"], " stand for any number of their own colour. The card that makes a pile five long completes it and its player takes a chip of that colour, unless an opponent ",
    ["b", "blocks"], "."],
  ["p", "If your hand empties during your turn you draw five more and keep playing."],
  ["h3", "Action cards"],
  ["ul",
    ["li", ["b", "Skip"], ": the next player loses their turn."],
    ["li", ["b", "Reverse"], ": the direction of play flips."],
    ["li", ["b", "Steal a card"], ": take the top card of an opponent's discard pile."],
    ["li", ["b", "Steal a chip"], ": take a chip from an opponent (never the chip that would win)."],
    ["li", ["b", "Block"], ": when an opponent completes a sequence, everyone else is asked \"Block or pass?\" at the same moment, with the same deadline. Blocking discards the sequence and no chip is taken. No answer in time is a pass."]],
  ["h3", "Using this page"],
  ["p",
    "Select a card (click, or Tab to it and press Enter): the places where it can go light up. Choose one. Keys: ",
    ["kbd", "1"], "-", ["kbd", "9"], " select cards in your hand, ", ["kbd", "D"],
    " discards the selected card, ", ["kbd", "Esc"], " clears the selection, ", ["kbd", "B"], "/", ["kbd", "P"],
    " answer a Block prompt, ", ["kbd", "?"], " opens this help."],
];

/** The rules help as nodes, for the help dialog's body. */
export function rulesNodes() {
  return RULES.map(build);
}
