// How long is left, in the reader's words (#26): days, hours or minutes, the largest
// unit that fits ("2 days left", "5 hours left").

import { t } from "./messages.js";

/** A long time in the largest unit that fits: "2 days", "5 hours", "12 minutes". */
export function duration(seconds) {
  if (seconds >= 2 * 86400) return t("games.days", { count: Math.floor(seconds / 86400) });
  if (seconds >= 2 * 3600) return t("games.hours", { count: Math.floor(seconds / 3600) });
  return t("games.minutes", { count: Math.max(1, Math.ceil(seconds / 60)) });
}

/** The time until `seconds` (a Unix time), as "3 hours left". */
export function timeLeft(seconds) {
  return t("games.left", { time: duration(Math.max(0, seconds - Date.now() / 1000)) });
}

/** How a table plays: turn-based with its turn time, or live. */
export function howPlayed(options) {
  return options?.turn_hours ? t("games.turn_based", { count: options.turn_hours }) : t("games.live");
}
