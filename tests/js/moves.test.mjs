// What the board reads from data (#23): where a legal play puts its card (its slot, or
// the slot the view says a new pile of its colour takes) is where the engine put it, in
// positions of random games (tests/test_js_client.py, boards.json); a selection is a
// small record; whose turn it is comes from the view's deciders.

import assert from "node:assert/strict";
import { before, describe, test } from "node:test";

import { fixture, STATIC } from "./fixtures.mjs";

const { setWords } = await import(new URL("messages.js", STATIC));
const moves = await import(new URL("moves.js", STATIC));
const { ACTION } = await import(new URL("vocabulary.js", STATIC));

before(() => {
  setWords({ messages: fixture("messages.json"), catalog: fixture("catalog.json"), lang: "en" });
});

describe("where a card goes", () => {
  test("every legal play's slot is the pile the engine put the card on", () => {
    let checked = 0;
    for (const { view, action_table: table, plays } of fixture("boards.json")) {
      const legal = moves.legalActions(view, table);
      for (const [id, slot] of plays) {
        const action = legal.find((a) => a.id === id);
        assert.ok(action, `play ${id} is legal`);
        assert.equal(moves.playSlot(view, action), slot, JSON.stringify(action));
        checked += 1;
      }
    }
    assert.ok(checked > 20, `only ${checked} plays checked`);
  });

  test("a selected card's targets: each slot once, each a legal play of that card", () => {
    for (const { view, action_table: table, plays } of fixture("boards.json")) {
      const legal = moves.legalActions(view, table);
      for (const [index, card] of view.hand.entries()) {
        const kind = fixture("catalog.json").cards[card];
        const chosen = moves.selectedActions(legal, moves.handCard(kind, index));
        assert.ok(chosen.every((a) => a.kind === kind && !a.from_discard));
        const targets = moves.pileTargets(view, chosen);
        for (const [slot, action] of targets) {
          assert.equal(action.type, ACTION.PLAY);
          assert.ok(plays.some(([id, put]) => id === action.id && put === slot));
        }
        const wanted = new Set(plays.filter(([id]) => chosen.some((a) => a.id === id)).map(([, slot]) => slot));
        assert.deepEqual([...targets.keys()].sort(), [...wanted].sort());
      }
    }
  });
});

describe("the selection", () => {
  test("is a record; choosing it again lets it go; equal records are the same card", () => {
    const card = moves.handCard(3, 2);
    assert.deepEqual(card, { source: moves.SOURCE.HAND, kind: 3, index: 2 });
    assert.equal(moves.toggled(null, card), card);
    assert.equal(moves.toggled(card, moves.handCard(3, 2)), null);
    assert.deepEqual(moves.toggled(card, moves.handCard(3, 4)), moves.handCard(3, 4));
    assert.equal(moves.toggled(card, null), null);
    assert.ok(moves.sameSelection(moves.discardTop(), moves.discardTop()));
    assert.ok(!moves.sameSelection(card, moves.discardTop()));
    assert.ok(moves.sameSelection(null, null));
  });

  test("the discard top's actions are its own; a hinted action selects its card", () => {
    for (const { view, action_table: table } of fixture("boards.json")) {
      const legal = moves.legalActions(view, table);
      assert.ok(moves.selectedActions(legal, moves.discardTop()).every((a) => a.from_discard));
      for (const action of legal) {
        const selection = moves.selectionFor(action, view.hand);
        if (action.kind === null) assert.equal(selection, null);
        else if (!action.from_discard) assert.ok(moves.selectedActions(legal, selection).some((a) => a.id === action.id));
      }
    }
  });
});

describe("whose turn", () => {
  test("the deciders of a turn and of a Block window", () => {
    const playing = { phase: "playing", deciders: [2] };
    assert.ok(moves.isTurnOf(playing, 2));
    assert.ok(!moves.isTurnOf(playing, 1));
    assert.ok(!moves.isTurnOf(playing, null));
    assert.ok(!moves.isAsked(playing, 2));
    const window = { phase: "block_window", deciders: [0, 3] };
    assert.ok(moves.isAsked(window, 3));
    assert.ok(!moves.isAsked(window, 2));
    assert.ok(!moves.isTurnOf(window, 3));
    const over = { phase: "over", deciders: [] };
    assert.ok(!moves.isTurnOf(over, 0) && !moves.isAsked(over, 0));
  });

  test("a hand is shown by colour, numbers up, wild, then action cards", () => {
    const catalog = fixture("catalog.json");
    const cardOf = (key) => catalog.cards.findIndex((kind) => catalog.kinds[kind].key === key);
    const hand = ["SKIP", "R2", "BW", "B3", "R1", "B3"].map(cardOf);
    hand[5] = catalog.cards.findLastIndex((kind) => catalog.kinds[kind].key === "B3");
    const shown = moves.sortedHand(hand).map(([card, index]) => [catalog.kinds[catalog.cards[card]].key, index]);
    assert.deepEqual(shown, [["B3", 3], ["B3", 5], ["BW", 2], ["R1", 4], ["R2", 1], ["SKIP", 0]]);
  });
});
