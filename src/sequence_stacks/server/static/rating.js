// A rating as the leaderboard and a player's page show it (#26): the number a player is
// ranked by (OpenSkill's mean less three times its uncertainty) and, under it, its mean
// and uncertainty, each its own message.

import { h } from "./dom.js";
import { formatNumber, t } from "./messages.js";

const one = (value) => formatNumber(Math.round(value * 10) / 10);

export function rating(entry) {
  return h(
    "span",
    { class: "rating" },
    t("leaders.rating", { score: one(entry.ordinal) }),
    h("span", { class: "spread" }, t("leaders.spread", { mu: one(entry.mu), sigma: one(entry.sigma) })),
  );
}
