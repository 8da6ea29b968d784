// How long is left, in the reader's words (#26): days, hours or minutes, the largest
// unit that fits ("2 days left", "5 hours left").

import { t } from "./messages.js";

/** The time until `seconds` (a Unix time), as "3 hours left". */
export function timeLeft(seconds) {
  const left = Math.max(0, seconds - Date.now() / 1000);
  let time;
  if (left >= 2 * 86400) time = t("games.days", { count: Math.floor(left / 86400) });
  else if (left >= 2 * 3600) time = t("games.hours", { count: Math.floor(left / 3600) });
  else time = t("games.minutes", { count: Math.max(1, Math.ceil(left / 60)) });
  return t("games.left", { time });
}

/** How a table plays: turn-based with its turn time, or live. */
export function howPlayed(options) {
  return options?.turn_hours ? t("games.turn_based", { count: options.turn_hours }) : t("games.live");
}
