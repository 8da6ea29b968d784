// Who is who at a game on one device (#25): the people and the bots, and how each part
// of the page names a seat. Read from the page's `game` (the engine's table, the seat
// whose cards are shown, the person holding the device) each time, so always as it is now.

import { botSeatName } from "./localsetup.js";
import { t } from "./messages.js";
import { PHASE } from "./vocabulary.js";

/** The seats of `game`: `{ players, isBot, people, solo, logViewer, seatName, boardName, logName, wantedViewer }`. */
export function seatsOf(game) {
  function players() {
    return game.table?.players ?? [];
  }

  function isBot(seat) {
    return players()[seat]?.bot !== null && players()[seat]?.bot !== undefined;
  }

  /** The seats people play. */
  function people() {
    return players().flatMap((player, seat) => (player.bot === null ? [seat] : []));
  }

  /** One person and bots: that person's cards stay in sight, no hand-off is needed. */
  function solo() {
    return people().length === 1;
  }

  /** Whose events the log tells in full: the one person's alone, else nobody's (R36). */
  function logViewer() {
    return solo() ? people()[0] : null;
  }

  /** A seat's name: the person's, or the bot's ("Greedy bot 3") in the reader's words. */
  function seatName(seat) {
    const player = players()[seat];
    if (!player) return t("seat.numbered", { number: seat + 1 });
    return player.bot === null ? player.name : botSeatName(player.bot, seat);
  }

  /** A seat as the board names it: "You" for the seat whose cards are shown. */
  function boardName(seat) {
    return seat === game.viewer ? t("seat.you") : seatName(seat);
  }

  /** A seat as the log names it: "Ann (you)" for the one person playing bots. */
  function logName(seat) {
    return solo() && seat === people()[0] ? t("seat.you_named", { name: seatName(seat) }) : seatName(seat);
  }

  /** The seat whose view the board shows now: the one person's, or a holder deciding. */
  function wantedViewer() {
    if (solo()) return people()[0];
    const view = game.view;
    const playing = view && !view.result && view.phase === PHASE.PLAYING;
    return playing && game.holder !== null && view.deciders.includes(game.holder) ? game.holder : null;
  }

  return { players, isBot, people, solo, logViewer, seatName, boardName, logName, wantedViewer };
}
