// Words and facts from the server, loaded once before the first render (#13): the
// message templates (GET /api/messages, defined in sequence_stacks/i18n/messages.py) and
// the catalog (GET /api/catalog: colours, card kinds, what each card id is, and every
// vocabulary, which vocabulary.js names).
// `t(key, args)` fills a template's named placeholders; a count picks the plural form
// through the CLDR rules of the page's language (Intl.PluralRules), and numbers are
// written with Intl.NumberFormat. Nothing here touches the DOM, so Node can test it.

import { setVocabulary } from "./vocabulary.js";

const loaded = {
  messages: {},
  catalog: null,
  lang: globalThis.document?.documentElement?.lang || "en",
  plurals: null,
  numbers: null,
};
setLanguage(loaded.lang);

function setLanguage(lang) {
  loaded.lang = lang;
  loaded.plurals = new Intl.PluralRules(lang);
  loaded.numbers = new Intl.NumberFormat(lang);
}

/** Use these templates and this catalog (what `loadWords` does with the server's). */
export function setWords({ messages, catalog, lang = loaded.lang }) {
  loaded.messages = messages ?? {};
  loaded.catalog = catalog ?? null;
  setVocabulary(loaded.catalog);
  setLanguage(lang);
}

let loading = null;

/** Fetch the messages and the catalog once; every page awaits this before rendering. */
export function loadWords() {
  const lang = loaded.lang;
  loading ??= Promise.all([getJson(`/api/messages?lang=${encodeURIComponent(lang)}`), getJson("/api/catalog")])
    .then(([words, catalog]) => setWords({ messages: words.messages, catalog, lang: words.language }));
  return loading;
}

async function getJson(path) {
  const response = await fetch(path);
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return response.json();
}

/** The engine's catalog (colours, kinds, cards, ...), as /api/catalog sends it. */
export function catalog() {
  return loaded.catalog;
}

/** Whether a message with this key exists. */
export function has(key) {
  return Object.hasOwn(loaded.messages, key);
}

/** A number in the page's language. */
export function formatNumber(value) {
  return loaded.numbers.format(value);
}

/**
 * The message `key` with its named placeholders filled from `args`. Never throws: an
 * unknown key shows as the key and a missing placeholder as `{name}`, each with a
 * console error.
 */
export function t(key, args = {}) {
  const message = Object.hasOwn(loaded.messages, key) ? loaded.messages[key] : undefined;
  if (!message) {
    console.error(`no message ${key}`);
    return key;
  }
  return fill(key, chooseForm(key, message, args), args);
}

// A message's forms are keyed by CLDR plural category ("one", "few", "other", ...);
// "other" is always there, and is the only form of a message with no count.
function chooseForm(key, message, args) {
  const forms = message.forms;
  if (!message.count) return forms.other;
  const count = args[message.count];
  if (typeof count !== "number") {
    console.error(`message ${key}: no number in {${message.count}}`);
    return forms.other;
  }
  return forms[loaded.plurals.select(count)] ?? forms.other;
}

// Korean particles after a filled-in word (#24): a template writes both forms,
// "{player}은(는)"; the one the word takes is chosen by its last sound. The rule of
// docs/translating/ko.md, as sequence_stacks/i18n/render.py `particle` has it (both are
// tested on tests/i18n/korean_particles.json).
const PAIRS = {
  "은(는)": ["은", "는"],
  "는(은)": ["은", "는"],
  "이(가)": ["이", "가"],
  "가(이)": ["이", "가"],
  "을(를)": ["을", "를"],
  "를(을)": ["을", "를"],
  "과(와)": ["과", "와"],
  "와(과)": ["과", "와"],
};
const HANGUL_FIRST = 0xac00;
const HANGUL_LAST = 0xd7a3;
const DIGITS_WITH_BATCHIM = "013678"; // 영 일 삼 육 칠 팔 (and 십 백 천 만)
const TRAILING_NOTE = /\s*\([^()]*\)\s*$/;

/**
 * The form of particle `pair` ("은(는)") after `word`: by the word's last sound (a Hangul
 * syllable's final consonant, a digit as Korean reads it), after a note in brackets at
 * its end; `pair` as it is when the sound is unknown (a word in Latin letters).
 */
export function particle(word, pair) {
  const [consonant, vowel] = PAIRS[pair];
  const stem = word.replace(TRAILING_NOTE, "") || word;
  const last = stem.trimEnd().slice(-1);
  if (!last) return pair;
  const code = last.codePointAt(0);
  if (code >= HANGUL_FIRST && code <= HANGUL_LAST) return (code - HANGUL_FIRST) % 28 ? consonant : vowel;
  if (/^[0-9]$/.test(last)) return DIGITS_WITH_BATCHIM.includes(last) ? consonant : vowel;
  return pair;
}

// `{name}` is a placeholder (with a two-form particle right after it, if any); `{{` and
// `}}` are literal braces (as in Python's format).
const PARTICLES = Object.keys(PAIRS).map((pair) => pair.replace(/[()]/g, "\\$&")).join("|");
const PLACEHOLDER = new RegExp(`\\{\\{|\\}\\}|\\{([A-Za-z_][A-Za-z0-9_]*)\\}(${PARTICLES})?`, "g");

function fill(key, text, args) {
  return text.replace(PLACEHOLDER, (whole, name, pair) => {
    if (name === undefined) return whole[0];
    if (!Object.hasOwn(args, name) || args[name] === null || args[name] === undefined) {
      console.error(`message ${key}: no value for {${name}}`);
      return whole;
    }
    const value = args[name];
    const shown = typeof value === "number" ? formatNumber(value) : String(value);
    return pair ? shown + particle(shown, pair) : shown;
  });
}
