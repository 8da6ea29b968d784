// A player's public page (#26): name and avatar, games and win rate, a rating per
// player-count group with its uncertainty, and the finished games with their replays.
// Nothing else of an account is public.

import { h } from "./dom.js";
import { avatar } from "./avatars.js";
import { call } from "./api.js";
import { accountNav } from "./nav.js";
import { loadWords, t } from "./messages.js";
import { setUpPage } from "./pagewords.js";
import { rating } from "./rating.js";

const $ = (selector) => document.querySelector(selector);

function percent(rate) {
  return new Intl.NumberFormat(document.documentElement.lang, { style: "percent" }).format(rate);
}

function render(data) {
  const player = data.player;
  $("#player-name").replaceChildren(avatar(player.avatar, { size: 32, named: true }), " ", player.name);
  document.title = player.name;
  const totals = [t("player.games", { count: data.games, wins: data.wins })];
  if (data.win_rate !== null) totals.push(t("player.win_rate", { rate: percent(data.win_rate) }));
  $("#player-totals").textContent = totals.join(t("list.separator"));
  $("#ratings").replaceChildren(
    ...data.ratings.map((r) => h("li", { class: "table-row" }, h("span", {}, t(`leaders.group.${r.group}`)), rating(r))),
  );
  if (!data.ratings.length) $("#ratings").append(h("li", { class: "muted" }, t("leaders.none")));
  $("#history").replaceChildren(
    ...data.history.map((game) => {
      const marks = [game.rated ? t("player.rated") : t("player.unrated")];
      if (game.with_bots) marks.push(t("player.with_bots"));
      return h(
        "li",
        { class: "table-row" },
        h("span", { class: game.won ? "badge waiting" : "badge" }, game.won ? t("player.won") : t("player.place", { place: game.place, players: game.players })),
        h("span", { class: "muted" }, new Date(game.finished_at * 1000).toLocaleDateString(document.documentElement.lang)),
        ...marks.map((mark) => h("span", { class: "muted" }, mark)),
        h("a", { href: game.replay }, t("player.replay")),
      );
    }),
  );
  if (!data.history.length) $("#history").append(h("li", { class: "muted" }, t("player.none")));
}

async function start() {
  setUpPage();
  accountNav();
  const id = decodeURIComponent(location.pathname.split("/").pop());
  try {
    render(await call("GET", `/api/players/${encodeURIComponent(id)}`));
  } catch {
    $("#player-name").textContent = t("player.missing");
  }
}

loadWords()
  .catch((error) => console.error(`the messages did not load: ${error}`))
  .finally(start);
