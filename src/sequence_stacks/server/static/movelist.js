// A replay's moves by turn (#15): which steps each turn holds, each step's log lines,
// where a key takes the replay and how fast autoplay goes. The steps come from the
// replay API's `moves` (moves[k] is step k's seat and events as the asker may see them,
// each with its log line as data; moves[0] is the deal). No DOM here, so Node can test it.

import { EVENT } from "./vocabulary.js";
import { eventLine } from "./words.js";

/** Autoplay speeds, as multiples of one step a second. */
export const SPEEDS = [0.5, 1, 2, 4];

/** Milliseconds between two steps of autoplay at `speed`. */
export function stepDelay(speed) {
  return 1000 / speed;
}

/**
 * The steps grouped by turn: the deal first ({turn: 0, seat: null, steps: [0]}), then
 * each turn that has steps as {turn, seat, steps}. A step belongs to the turn under way
 * when it was taken: the one its own TurnStarted event begins comes after it.
 */
export function turnsOf(moves) {
  const groups = [{ turn: 0, seat: null, steps: [0] }];
  let started = null;
  moves.forEach((move, step) => {
    if (step > 0) {
      if (started) groups.push({ ...started, steps: [] });
      started = null;
      groups[groups.length - 1].steps.push(step);
    }
    for (const event of move.events) {
      if (event.type === EVENT.TURN_STARTED) started = { turn: event.turn_number, seat: event.seat };
    }
  });
  return groups;
}

/** A step's log lines (its turn's start left to the turn's heading); `player` names a seat. */
export function moveLines(move, player) {
  const lines = [];
  for (const event of move.events) {
    if (event.type === EVENT.TURN_STARTED) continue;
    const text = eventLine(event, player);
    if (text !== null) lines.push(text);
  }
  return lines;
}

/**
 * The step a key takes the replay to from `step` of `total`, or null for a key that
 * does not move it: Left and Right one step, Home the deal, End the last step.
 */
export function keyStep(key, step, total) {
  const to = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: total }[key];
  return to === undefined ? null : Math.max(0, Math.min(total, to));
}
