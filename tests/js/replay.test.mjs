// The replay page's pure pieces (#15): steps grouped by turn, each step's log lines,
// the keys that move the replay, autoplay's pace, and what a pile needs next.

import assert from "node:assert/strict";
import { before, describe, test } from "node:test";

import { fixture, player, STATIC } from "./fixtures.mjs";

const { setWords } = await import(new URL("messages.js", STATIC));
const { eventLine } = await import(new URL("words.js", STATIC));
const { keyStep, moveLines, SPEEDS, stepDelay, turnsOf } = await import(new URL("movelist.js", STATIC));
const { pileNeed } = await import(new URL("pieces.js", STATIC));

before(() => {
  setWords({ messages: fixture("messages.json"), catalog: fixture("catalog.json"), lang: "en" });
});

// Events as frames carry them: their fields and their log line as data.
const said = (key, args) => ({ key, args });
const started = (seat, turn) => ({ type: "TurnStarted", seat, turn_number: turn, message: said("log.TurnStarted", { player: seat, turn }) });
const dealt = (seat) => ({ type: "CardsDrawn", seat, count: 5, cards: [], reason: "deal", message: said("log.CardsDrawn.deal", { player: seat, count: 5, cards: [] }) });
const played = (seat, count) => ({
  type: "CardPlayed", seat, card: 0, from_discard: false, colour: 0, slot: 0, pile_count: count,
  message: said("log.CardPlayed", { player: seat, card: 0, pile: [0, 0], count }),
});
const discarded = (seat) => ({ type: "Discarded", seat, card: 0, message: said("log.Discarded", { player: seat, card: 0 }) });
const ended = (seat) => ({ type: "TurnEnded", seat, discarded: true, message: null });

// A short game: the deal; Ann's turn 1 (a play, then a discard); Bob's turn 2, whose
// Skip skips Ann (no turn of hers starts) and a Block window Ann answers in it; Bob's
// turn 3, which wins.
const MOVES = [
  { seat: null, events: [dealt(0), dealt(1), started(0, 1)] },
  { seat: 0, events: [played(0, 1)] },
  { seat: 0, events: [discarded(0), ended(0), started(1, 2)] },
  { seat: 1, events: [{ type: "SkipPlayed", seat: 1, card: 0, from_discard: false, message: said("log.SkipPlayed", { player: 1, card: 0 }) }] },
  { seat: 1, events: [played(1, 5), { type: "BlockWindowOpened", completer: 1, colour: 0, slot: 0, message: said("log.BlockWindowOpened.blue", { player: 1 }) }] },
  {
    seat: 0,
    events: [
      { type: "BlockAnswered", seat: 0, blocked: false, message: said("log.BlockAnswered.pass", { player: 0 }) },
      { type: "PileCompleted", seat: 1, colour: 0, slot: 0, message: said("log.PileCompleted.blue", {}) },
    ],
  },
  { seat: 1, events: [discarded(1), ended(1), { type: "TurnSkipped", seat: 0, message: said("log.TurnSkipped", { player: 0 }) }, started(1, 3)] },
  { seat: 1, events: [played(1, 2), { type: "GameEnded", reason: "win", winner: 1, returns: [0, 1], message: said("log.GameEnded.win", { player: 1 }) }] },
];

describe("the move list", () => {
  test("steps are grouped by the turn under way when each was taken, the deal first", () => {
    assert.deepEqual(turnsOf(MOVES), [
      { turn: 0, seat: null, steps: [0] },
      { turn: 1, seat: 0, steps: [1, 2] },
      { turn: 2, seat: 1, steps: [3, 4, 5, 6] },
      { turn: 3, seat: 1, steps: [7] },
    ]);
  });

  test("every step is in exactly one turn, in order", () => {
    const steps = turnsOf(MOVES).flatMap((group) => group.steps);
    assert.deepEqual(steps, MOVES.map((_, step) => step));
  });

  test("a game not begun yet has only the deal", () => {
    assert.deepEqual(turnsOf([{ seat: null, events: [dealt(0)] }]), [{ turn: 0, seat: null, steps: [0] }]);
  });

  test("a step's lines are its events' log lines, its turn's start left to the heading", () => {
    for (const move of MOVES) {
      const expected = move.events.filter((event) => event.type !== "TurnStarted").map((event) => eventLine(event, player)).filter(Boolean);
      assert.deepEqual(moveLines(move, player), expected);
    }
    assert.deepEqual(moveLines(MOVES[2], player), ["Player 1 discards blue 1."]);
    assert.deepEqual(moveLines(MOVES[0], player), ["Player 1 was dealt 5 cards.", "Player 2 was dealt 5 cards."]);
  });
});

describe("controls", () => {
  test("Left and Right step, Home and End jump, within the game", () => {
    assert.equal(keyStep("ArrowRight", 3, 10), 4);
    assert.equal(keyStep("ArrowLeft", 3, 10), 2);
    assert.equal(keyStep("ArrowLeft", 0, 10), 0);
    assert.equal(keyStep("ArrowRight", 10, 10), 10);
    assert.equal(keyStep("Home", 7, 10), 0);
    assert.equal(keyStep("End", 2, 10), 10);
    assert.equal(keyStep("a", 2, 10), null);
    assert.equal(keyStep(" ", 2, 10), null);
  });

  test("autoplay is one step a second at 1x, faster at higher speeds", () => {
    assert.deepEqual(SPEEDS, [0.5, 1, 2, 4]);
    assert.deepEqual(SPEEDS.map(stepDelay), [2000, 1000, 500, 250]);
  });
});

describe("the board", () => {
  test("a pile says the number it needs next, or that it is complete", () => {
    assert.equal(pileNeed(0), "");
    assert.equal(pileNeed(1), "needs 2");
    assert.equal(pileNeed(4), "needs 5");
    assert.equal(pileNeed(5), "complete");
  });
});
