// The pages' own words and the language menu (#14). The HTML keeps its English text as
// the fallback with no script; once the messages are loaded, `fillPage` puts the
// reader's words in: `data-t="key"` is an element's text, `data-t-attr="name:key ..."`
// its attributes (title, aria-label, placeholder). The menu lists the languages from
// /api/languages, each named in itself; a choice is remembered in the `lang` cookie
// (which the server reads for every page and message) and in localStorage.

import { h, svg } from "./dom.js";
import { has, t } from "./messages.js";

const ATTRIBUTES = new Set(["title", "aria-label", "placeholder", "alt"]);
const COOKIE = "lang";
const YEAR = 365 * 24 * 60 * 60;

/** Fill every `data-t` and `data-t-attr` under `root` from the messages. */
export function fillPage(root = document) {
  for (const el of root.querySelectorAll("[data-t]")) {
    if (has(el.dataset.t)) el.textContent = t(el.dataset.t);
  }
  for (const el of root.querySelectorAll("[data-t-attr]")) {
    for (const pair of el.dataset.tAttr.trim().split(/\s+/)) {
      const [name, key] = pair.split(":");
      if (ATTRIBUTES.has(name) && has(key)) el.setAttribute(name, t(key));
    }
  }
}

function cookieLanguage() {
  const found = document.cookie.split(";").map((part) => part.trim()).find((part) => part.startsWith(`${COOKIE}=`));
  return found ? decodeURIComponent(found.slice(COOKIE.length + 1)) : null;
}

function remember(code) {
  document.cookie = `${COOKIE}=${encodeURIComponent(code)}; path=/; max-age=${YEAR}; SameSite=Lax`;
  try {
    localStorage.setItem(COOKIE, code);
  } catch {
    // Storage may be off; the cookie alone is enough.
  }
}

/** Choose a language: remember it, then load the page again in it. */
export function chooseLanguage(code) {
  remember(code);
  const url = new URL(location.href);
  if (url.searchParams.has("lang")) {
    url.searchParams.delete("lang"); // a ?lang= would outrank the choice
    location.replace(url.href);
  } else {
    location.reload();
  }
}

// A choice kept in localStorage comes back when its cookie is gone (cleared, expired).
// A reader with no choice yet who came by a link in a language (`?lang=hy`, a friend's
// link, say) keeps it: the pages they go on to (the table, the rules) stay in it.
function restore(codes) {
  let stored = null;
  try {
    stored = localStorage.getItem(COOKIE);
  } catch {
    // Storage may be off: only the cookie then.
  }
  if (cookieLanguage() !== null) return;
  const linked = new URL(location.href).searchParams.get("lang");
  if (linked !== null) {
    if (!stored && codes.includes(linked) && linked === document.documentElement.lang) remember(linked);
    return;
  }
  if (!stored || !codes.includes(stored)) return;
  remember(stored);
  if (stored !== document.documentElement.lang && cookieLanguage() === stored) location.reload();
}

/**
 * The header's menu on a phone (app.css, max-width 600px): a globe and the language's
 * code ("HY") in a 44 px box, the menu itself laid over it, unseen but the one that is
 * tapped, focused and named ("Language"); it opens with every language in full. A
 * full name ("Bahasa Melayu") would be cut by the narrow header, and takes the table's
 * name's room.
 */
function compactFace(select, code) {
  if (select.parentElement?.classList.contains("language-pick")) return;
  const globe = svg(
    "svg",
    { viewBox: "0 0 24 24", width: 18, height: 18, "aria-hidden": "true", focusable: "false" },
    svg("circle", { cx: 12, cy: 12, r: 9 }),
    svg("ellipse", { cx: 12, cy: 12, rx: 4, ry: 9 }),
    svg("path", { d: "M3 12h18M5 7.5h14M5 16.5h14" }),
  );
  const face = h("span", { class: "language-face", "aria-hidden": "true" }, globe, h("span", { class: "code" }, code.toUpperCase()));
  const pick = h("span", { class: "language-pick" });
  select.replaceWith(pick);
  pick.append(face, select);
}

/** Fill `select` with the languages, the page's own selected, and act on a choice. */
export async function languageMenu(select) {
  if (!select) return;
  const response = await fetch("/api/languages");
  if (!response.ok) return;
  const data = await response.json();
  const current = document.documentElement.lang || data.current;
  select.replaceChildren(
    ...data.languages.map(({ code, name }) => h("option", { value: code, lang: code, selected: code === current }, name)),
  );
  select.value = current;
  select.hidden = false;
  if (select.closest(".bar")) compactFace(select, current);
  select.addEventListener("change", () => chooseLanguage(select.value));
  restore(data.languages.map(({ code }) => code));
}

/** Everything a page does with its words once the messages are loaded (or failed). */
export function setUpPage() {
  fillPage();
  languageMenu(document.querySelector("#language")).catch((error) => console.error(`the language menu did not load: ${error}`));
}
