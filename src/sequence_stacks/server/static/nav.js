// The account links every page shows (#26): sign in, or the player's name and "My games"
// with a badge of the games waiting for them; the badge also goes in the page's title,
// so a tab in the background says when a game waits. Asked again every half minute.
// Each answer is also told to the page as an "account" event (its detail: the answer),
// so a page can use the signed-in player's name (`nameFromAccount`, below).

import { h } from "./dom.js";
import { avatar } from "./avatars.js";
import { t } from "./messages.js";

const EVERY_MS = 30_000;
let baseTitle = null;

function link(href, text, extra = {}) {
  return h("a", { href, ...extra }, ...(Array.isArray(text) ? text : [text]));
}

function render(nav, data, title) {
  const items = [];
  if (data.signed_in) {
    const count = data.my_turn;
    const badge = count ? h("span", { class: "badge waiting", "aria-label": t("nav.waiting", { count }) }, String(count)) : null;
    items.push(link("/games", [t("nav.my_games"), badge].filter(Boolean), { id: "nav-games" }));
    items.push(link("/account", [avatar(data.player.avatar, { size: 20 }), data.player.name], { id: "nav-account", class: "who" }));
  } else {
    items.push(link("/account", t("nav.sign_in"), { id: "nav-account" }));
  }
  items.push(link("/leaderboard", t("nav.leaderboard")));
  nav.replaceChildren(...items);
  nav.hidden = false;
  document.dispatchEvent(new CustomEvent("account", { detail: data }));
  if (!title) return;
  if (baseTitle === null) baseTitle = document.title;
  document.title = data.my_turn ? t("nav.title_badge", { count: data.my_turn, title: baseTitle }) : baseTitle;
}

async function refresh(nav, title) {
  try {
    const response = await fetch("/api/me/badge", { credentials: "same-origin" });
    if (response.ok) render(nav, await response.json(), title);
  } catch {
    // Offline: the links stay as they were.
  }
}

/**
 * Fill the page's `#account-nav` (if it has one) and keep its badge fresh; with
 * `title`, the count of waiting games goes in front of the page's title too (a page
 * that words its own title, the table's, says "your turn" itself).
 */
export function accountNav({ title = true } = {}) {
  const nav = document.querySelector("#account-nav");
  if (!nav) return;
  refresh(nav, title);
  setInterval(() => refresh(nav, title), EVERY_MS);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") refresh(nav, title);
  });
}

/**
 * A name field of a form that seats the reader (a table's "Take a seat", the lobby's
 * "Play now"): a signed-in player sits as their account (#26), so the field shows the
 * account's name, read-only; signed out, it is theirs to fill again.
 */
export function nameFromAccount(input) {
  document.addEventListener("account", (event) => {
    const player = event.detail.signed_in ? event.detail.player : null;
    if (player) input.value = player.name;
    input.readOnly = player !== null;
    input.classList.toggle("as-account", player !== null);
  });
}

/** Forget the title this module kept (a page that renames itself calls this). */
export function retitled() {
  baseTitle = null;
}
