// The leaderboard (#26): per player-count group, overall or of one language; players
// best first by OpenSkill's rating less three times its uncertainty, and the bots at
// their fixed ratings among them, marked as bots.

import { h } from "./dom.js";
import { avatar } from "./avatars.js";
import { call } from "./api.js";
import { accountNav } from "./nav.js";
import { formatNumber, loadWords, t } from "./messages.js";
import { setUpPage } from "./pagewords.js";
import { rating } from "./rating.js";
import { botName } from "./words.js";

const body = document.querySelector("#leaders");
const group = document.querySelector("#group");
const language = document.querySelector("#leaders-language");

function rows(data) {
  const all = [...data.players, ...data.bots];
  all.sort((a, b) => b.ordinal - a.ordinal);
  let place = 0;
  return all.map((entry) => {
    if (entry.bot) {
      return h("tr", { class: "bot-row" }, h("td", {}, ""), h("td", {}, t("leaders.bot", { bot: botName(entry.bot) })), h("td", {}, rating(entry)), h("td", {}, ""));
    }
    place += 1;
    const who = h("a", { href: `/players/${encodeURIComponent(entry.id)}`, class: "who" }, avatar(entry.avatar, { size: 20 }), entry.name);
    return h("tr", { "data-player": entry.id }, h("td", {}, formatNumber(place)), h("td", {}, who), h("td", {}, rating(entry)), h("td", {}, formatNumber(entry.games)));
  });
}

async function refresh() {
  const query = new URLSearchParams({ group: group.value });
  if (language.value) query.set("lang", language.value);
  const data = await call("GET", `/api/leaderboard?${query}`);
  body.replaceChildren(...rows(data));
  document.querySelector("#leaders-note").textContent = data.players.length ? "" : t("leaders.none");
}

async function start() {
  setUpPage();
  accountNav();
  const params = new URLSearchParams(location.search);
  for (const key of ["2", "3-4", "5-6"]) group.append(h("option", { value: key, selected: key === (params.get("group") ?? "3-4") }, t(`leaders.group.${key}`)));
  const known = await call("GET", "/api/languages");
  language.append(h("option", { value: "" }, t("leaders.all_languages")), ...known.languages.map(({ code, name }) => h("option", { value: code, lang: code, selected: code === params.get("lang") }, name)));
  for (const select of [group, language]) select.addEventListener("change", refresh);
  await refresh();
}

loadWords()
  .catch((error) => console.error(`the messages did not load: ${error}`))
  .finally(start);
