// The vocabularies as named constants, from the catalog /api/catalog serves (#23).

import assert from "node:assert/strict";
import { before, describe, test } from "node:test";

import { fixture, STATIC } from "./fixtures.mjs";

const { setWords } = await import(new URL("messages.js", STATIC));
const vocabulary = await import(new URL("vocabulary.js", STATIC));

before(() => {
  setWords({ messages: fixture("messages.json"), catalog: fixture("catalog.json"), lang: "en" });
});

describe("the vocabulary", () => {
  test("each constant is the catalog's value, named after it", () => {
    const { ACTION, EVENT, OP, PHASE, SEAT_KIND, TABLE_STATUS, TIMER, END_REASON, DRAW_REASON } = vocabulary;
    assert.equal(PHASE.BLOCK_WINDOW, "block_window");
    assert.equal(ACTION.STEAL_CHIP, "steal_chip");
    assert.equal(EVENT.TURN_STARTED, "TurnStarted");
    assert.equal(OP.ADD_BOT, "add_bot");
    assert.equal(SEAT_KIND.BOT, "bot");
    assert.equal(TABLE_STATUS.PLAYING, "playing");
    assert.equal(TIMER.TURN, "turn");
    assert.equal(END_REASON.MAX_TURNS, "max_turns");
    assert.equal(DRAW_REASON.EMPTY_HAND, "empty-hand");
  });

  test("every value of every vocabulary the catalog serves has its constant", () => {
    const catalog = fixture("catalog.json");
    const lists = {
      PHASE: catalog.phases,
      ACTION: catalog.action_types,
      EVENT: Object.keys(catalog.events),
      OP: catalog.ops,
      SEAT_KIND: catalog.seat_kinds,
      TABLE_STATUS: catalog.table_statuses,
      TIMER: catalog.timer_kinds,
    };
    for (const [name, values] of Object.entries(lists)) {
      assert.ok(values.length >= 2, name);
      assert.deepEqual(Object.values(vocabulary[name]).sort(), [...values].sort(), name);
    }
  });

  test("a name the catalog lacks throws, and nothing can be changed", () => {
    assert.throws(() => vocabulary.PHASE.PLAYNIG, /PHASE.PLAYNIG is not in the catalog/);
    assert.throws(() => {
      vocabulary.PHASE.PLAYING = "x";
    });
    assert.equal(vocabulary.constantName("TurnStarted"), "TURN_STARTED");
    assert.equal(vocabulary.constantName("empty-hand"), "EMPTY_HAND");
  });
});
