"""The game in six languages, in a real browser (#14).

For each language (Armenian chosen through the lobby's language menu, the rest by
``Accept-Language``; English by ``?lang=en``), one player goes from the lobby through a
new two-seat table against a bot (short game: 2 chips, 1 of each colour; hands of 10,
the most a seat's panel must hold; fast bots) and plays it to the end through the
page: on the first turn the rules help is opened, an
illegal action is sent from the page (a discard of a card the hand does not hold: the
refusal notice must give rule R19 and the engine's reason in the language), and a card
is selected to show its choices; every turn ends with a discard that keeps Block
cards; every Block window the bot opens is answered Pass through the prompt. A game
with no Block window (a stalemate) is followed by a rematch. Then the replay of the
game, and a Block prompt whose Block button is live: Python plays a three-seat table
over the WebSocket until a Block window asks a seat that holds a Block, the page takes
that seat and blocks through the prompt.

Every screen is looked at phone (390x844) and desktop (1366x768) size:

- ``<html lang>`` is the language;
- no element's text overflows its box, and nothing is wider than the viewport;
- no word is broken across two lines (a box too narrow for it, or Korean without
  ``keep-all``); a line may break at a space or a hyphen (its own test, after the tour);
- no visible text (nor a title, aria-label or placeholder) is a message key or a
  ``{placeholder}`` left unfilled, nor an English message where the language has its own
  (a text that is an English message and none of the language's);
- every script in the page's text renders with real glyphs: for each script, a few of
  its letters are drawn on a canvas in the page's font stack; a letter no font has
  draws as the same missing-glyph box as a private-use character, so a script is
  missing when its letters all draw alike (the check is first shown to fail on
  private-use characters, which no font has);
- screenshots go to artifacts/lang-<lang>-<size>-<screen>.png, the screen's subject
  scrolled into view.
"""

from __future__ import annotations

import contextlib
import functools
import json
import re
import time
import unicodedata
from collections.abc import Callable, Iterator
from typing import Any, Final

import pytest
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from sequence_stacks.i18n.languages import LANGUAGES
from sequence_stacks.i18n.messages import MESSAGES
from sequence_stacks.i18n.render import current_language, kind_name, render, set_language
from sequence_stacks.i18n.translations import translation

from .conftest import ARTIFACTS, FAST_BOTS, NO_LIMITS, ServerProcess, running_server
from .play import click_if_still_there
from .seat_sockets import PythonTable

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]

SIZES: Final = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 768}}
# How each language is chosen: the menu, ?lang=, or the browser's Accept-Language.
CHOSEN_BY: Final = {
    "en": "query",
    "ms": "accept-language",
    "hy": "menu",
    "sl": "accept-language",
    "ko": "accept-language",
    "hi": "accept-language",
}
# The screens each language's tour must have looked at, in order.
SCREENS: Final = (
    "lobby",
    "seated",
    "game",
    "rules",
    "rules-full",
    "refusal",
    "choices",
    "block-prompt",
    "end",
    "replay",
    "block-held",
)
FAMILIES: Final = "|".join(sorted({key.split(".")[0] for key in MESSAGES}))
RAW: Final = re.compile(rf"\{{[A-Za-z_]+\}}|\b({FAMILIES})\.[a-z_]+[A-Za-z_.]*\b")
# Letters by the first word of their Unicode names (LATIN SMALL LETTER A, HANGUL SYLLABLE GA).
SCRIPTS: Final = ("LATIN", "ARMENIAN", "DEVANAGARI", "HANGUL")
# Characters no font has (Supplementary Private Use Area-A): they draw as missing glyphs.
NO_FONT: Final = "\U000f0001\U000f0002\U000f0003\U000f0004"
# Words each language's tour saw broken across lines (test_no_word_is_broken_...).
BROKEN: dict[str, list[str]] = {}
# The page's own state, as the tests read it.
UI_STATE: Final = """() => { const s = window.sequenceStacks; const u = s.game;
  return {you: u.you, view: u.view, fields: u.actionTable, version: s.socket.version,
          status: u.table && u.table.status, game: u.table && u.table.game}; }"""

_VISIBLE_STRINGS = """() => {
  const strings = document.body.innerText.split("\\n");
  strings.push(document.title);
  for (const el of document.querySelectorAll("[title], [aria-label], [placeholder]")) {
    for (const name of ["title", "aria-label", "placeholder"]) {
      strings.push(el.getAttribute(name) ?? "");
    }
  }
  for (const option of document.querySelectorAll("select:not([hidden]) option")) {
    strings.push(option.textContent);
  }
  // The rule book is a document of its own, not messages: its lines are marked.
  const book = document.querySelector(".rule-book");
  const shown = book && book.getClientRects().length;
  const inBook = new Set(shown ? book.innerText.split("\\n").map((s) => s.trim()) : []);
  return strings.map((s) => s.trim()).filter(Boolean).map((s) => [s, inBook.has(s)]);
}"""

# Nothing on its way: no flying card copies, no finite animation or transition running.
_SETTLED = """() => !document.querySelector("#flights")?.children.length
  && !document.getAnimations().some((a) => a.playState === "running"
    && a.effect && a.effect.getComputedTiming().iterations !== Infinity)"""

# The message keys the page's markup asks for (its words filled in by pagewords.js).
_PAGE_KEYS = """() => {
  const keys = [...document.querySelectorAll("[data-t]")].map((el) => el.dataset.t);
  for (const el of document.querySelectorAll("[data-t-attr]")) {
    for (const pair of el.dataset.tAttr.trim().split(/\\s+/)) keys.push(pair.split(":")[1]);
  }
  return keys;
}"""

_OVERFLOWS = """() => {
  const problems = [];
  const root = document.documentElement;
  const width = root.clientWidth;
  if (root.scrollWidth > width + 1) {
    problems.push(`the page is ${root.scrollWidth}px wide in ${width}px`);
  }
  const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "")
    + (typeof el.className === "string" && el.className ? "." + el.className : "");
  const skipped = ["SCRIPT", "SELECT", "OPTION", "INPUT", "TEXTAREA", "svg"];
  for (const el of document.body.querySelectorAll("*")) {
    if (skipped.includes(el.tagName)) continue;
    const text = [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE)
      .map((n) => n.textContent).join("").trim();
    if (!text || !el.getClientRects().length) continue;
    const style = getComputedStyle(el);
    const rect = el.getBoundingClientRect();
    // Visually hidden text (.sr-only) is clipped on purpose.
    if (style.visibility === "hidden" || (rect.width <= 1 && rect.height <= 1)) continue;
    const what = `${name(el)} "${text.slice(0, 40)}"`;
    if (style.display !== "inline" && el.scrollWidth > el.clientWidth + 1) {
      problems.push(`${what}: text ${el.scrollWidth}px in a ${el.clientWidth}px box`);
    }
    let scrolled = false;
    for (let up = el.parentElement; up && !scrolled; up = up.parentElement) {
      scrolled = /(auto|scroll)/.test(getComputedStyle(up).overflowX);
    }
    if (!scrolled && (rect.right > width + 1 || rect.left < -1)) {
      const span = `${Math.round(rect.left)}-${Math.round(rect.right)}px`;
      problems.push(`${what}: at ${span}, the viewport is ${width}px`);
    }
  }
  return problems;
}"""

# Words drawn across two lines: a box too narrow for a word breaks it anywhere
# ("Սեղ/ան", "Bot / tam / ak 2"), and Korean without keep-all breaks inside its words.
# A word is a run of letters, marks and digits; a break at a space or a hyphen is fine.
_BROKEN_WORDS = """() => {
  const broken = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || !el.getClientRects().length || el.closest("script, style, option")) continue;
    const rect = el.getBoundingClientRect();
    if (rect.width <= 1 && rect.height <= 1) continue;  // visually hidden (.sr-only)
    // Lines a clamped box hides (the one-line summary of the log, "…") are not seen.
    const clipped = /(hidden|clip)/.test(getComputedStyle(el).overflowY);
    for (const word of node.textContent.matchAll(/[\\p{L}\\p{M}\\p{N}]{2,}/gu)) {
      range.setStart(node, word.index);
      range.setEnd(node, word.index + word[0].length);
      const tops = new Set([...range.getClientRects()]
        .filter((r) => r.width > 0 && (!clipped || r.top < rect.bottom - 1))
        .map((r) => Math.round(r.bottom / 4)));
      if (tops.size > 1) broken.push(`${el.tagName.toLowerCase()} "${word[0]}"`);
    }
  }
  return broken;
}"""

_GLYPHS = """([samples, reference]) => {
  // Each sample's letters drawn in the page's font stack; a letter with no glyph in any
  // font draws exactly like the reference (a character no font has) or not at all.
  const family = getComputedStyle(document.body).fontFamily;
  const canvas = document.createElement("canvas");
  canvas.width = 64; canvas.height = 64;
  const ctx = canvas.getContext("2d", { willReadFrequently: true });
  const draw = (ch) => {
    ctx.fillStyle = "#fff"; ctx.fillRect(0, 0, 64, 64);
    ctx.fillStyle = "#000"; ctx.font = `40px ${family}`; ctx.textBaseline = "middle";
    ctx.fillText(ch, 8, 32);
    const data = ctx.getImageData(0, 0, 64, 64).data;
    let ink = 0, hash = 0;
    for (let i = 0; i < data.length; i += 4) {
      const dark = 255 - data[i];
      ink += dark;
      hash = (hash * 31 + dark) >>> 0;
    }
    return { ink, hash };
  };
  const missing = draw(reference);
  const result = {};
  for (const [script, letters] of Object.entries(samples)) {
    const drawn = [...letters].map(draw);
    const distinct = new Set(drawn.map((d) => d.hash)).size;
    const tofu = drawn.filter((d) => d.ink === 0 || d.hash === missing.hash).length;
    const ok = tofu === 0 && (letters.length < 2 || distinct > 1);
    result[script] = { letters, distinct, tofu, ok };
  }
  return result;
}"""


def _english_pattern(text: str) -> re.Pattern[str] | None:
    """A whole visible string that is this English text (any value in a placeholder),
    or None when the text has too few letters of its own to tell (``{count}/5``)."""
    parts = re.split(r"\{[A-Za-z_]+\}", text.replace("{{", "{").replace("}}", "}"))
    if sum(len(re.findall(r"[A-Za-z]{3,}", part)) for part in parts) < 1:
        return None
    return re.compile(".{1,40}?".join(re.escape(part) for part in parts))


def _any_values_pattern(text: str) -> re.Pattern[str]:
    """A whole string that is this template with any text in its placeholders."""
    parts = re.split(r"\{[A-Za-z_]+\}", text.replace("{{", "{").replace("}}", "}"))
    return re.compile(".+?".join(_with_either_particle(part) for part in parts), re.DOTALL)


def _with_either_particle(part: str) -> str:
    """``part`` escaped; a Korean particle pair right after a placeholder ("이(가)") may
    show as either form or as both, as the sound before it chooses (#24)."""
    pair = re.match(r"([\uac00-\ud7a3])\(([\uac00-\ud7a3])\)", part)
    if pair is None:
        return re.escape(part)
    either = f"(?:{re.escape(pair[0])}|{pair[1]}|{pair[2]})"
    return either + re.escape(part[pair.end() :])


def _literal_letters(text: str) -> int:
    """How many letters (of any script) a template has outside its placeholders."""
    return len(re.findall(r"[^\W\d_]", re.sub(r"\{[A-Za-z_]+\}", "", text)))


@functools.cache
def _message_patterns(
    language: str,
) -> tuple[tuple[tuple[str, re.Pattern[str]], ...], dict[str, tuple[re.Pattern[str], ...]]]:
    """Every English message as a pattern (with its key), and every message the
    language itself has (not English standing in for it), by key, in each form."""
    english = tuple(
        (key, pattern)
        for key, message in MESSAGES.items()
        for form in filter(None, (message.text, message.plural))
        if (pattern := _english_pattern(form)) is not None
    )
    words = translation(language)
    own = {
        key: tuple(_any_values_pattern(form) for form in words.forms(key).values())
        for key in MESSAGES
        if words.has(key)
    }
    return english, own


@functools.cache
def _worded_patterns(language: str) -> tuple[re.Pattern[str], ...]:
    """The language's messages with words of their own (three letters or more outside
    the placeholders: ``{colour} {rank}`` would match any text with a space)."""
    words = translation(language)
    return tuple(
        _any_values_pattern(form)
        for key in MESSAGES
        if words.has(key)
        for form in words.forms(key).values()
        if _literal_letters(form) >= 3
    )


def english_leftovers(language: str, strings: list[str]) -> list[str]:
    """The strings that are an English message and not the language's own words: not
    its text for the same message, nor another message of its own."""
    if language == "en":
        return []
    english, own = _message_patterns(language)
    found = []
    for text in dict.fromkeys(strings):
        keys = [key for key, pattern in english if pattern.fullmatch(text)]
        if not keys or any(p.fullmatch(text) for key in keys for p in own.get(key, ())):
            continue
        if not any(pattern.fullmatch(text) for pattern in _worded_patterns(language)):
            found.append(f"{keys[0]}: {text!r}")
    return found


def _template_pattern(
    language: str, key: str, form: int | None = None, **known: str
) -> re.Pattern[str]:
    """A message of ``language`` (in the form for the number ``form``) as a pattern: the
    ``known`` placeholders filled, any other one matching some text."""
    text = translation(language).text(key, form)
    parts = re.split(r"(\{[A-Za-z_]+\})", text)
    pattern = "".join(
        re.escape(known.get(part[1:-1], "")) or ".+"
        if part.startswith("{") and part.endswith("}")
        else re.escape(part)
        for part in parts
    )
    return re.compile(pattern)


def _matches_one_of(language: str, keys: list[str], text: str) -> bool:
    return any(
        _any_values_pattern(form).fullmatch(text)
        for key in keys
        for form in translation(language).forms(key).values()
    )


class Reader:
    """One browser context reading the game in one language."""

    def __init__(self, browser: Browser, language: str, server: ServerProcess) -> None:
        self.language = language
        self.server = server
        locale = language if CHOSEN_BY[language] == "accept-language" else "en-US"
        self.context = browser.new_context(viewport=SIZES["desktop"], locale=locale)  # type: ignore[arg-type]
        self.page: Page = self.context.new_page()
        self.problems: list[str] = []
        self.screens: list[str] = []
        self.broken: list[str] = []  # words broken across lines, for their own test
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.problems.append(f"pageerror: {error}"))

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.problems.append(f"console error: {message.text}")

    def goto(self, path: str) -> None:
        suffix = ""
        if CHOSEN_BY[self.language] == "query":
            suffix = ("&" if "?" in path else "?") + f"lang={self.language}"
        self.page.goto(self.server.url + path + suffix)
        self.words_filled()

    def words_filled(self) -> None:
        self.page.wait_for_selector("#language:not([hidden]) option", state="attached")

    def screen(self, name: str, subject: str | None = None) -> None:
        """Look at the page at both sizes: language, overflow, keys, English, glyphs;
        a screenshot with ``subject`` (a selector that must be visible) in view."""
        page = self.page
        self.screens.append(name)
        lang = page.evaluate("document.documentElement.lang")
        if lang != self.language:
            self.problems.append(f"{name}: <html lang={lang!r}>, not {self.language!r}")
        for key in sorted(set(page.evaluate(_PAGE_KEYS)) - set(MESSAGES)):
            self.problems.append(f"{name}: the markup asks for {key!r}, which is no message")
        for size, viewport in SIZES.items():
            page.set_viewport_size(viewport)  # type: ignore[arg-type]
            page.wait_for_timeout(60)
            # Cards flying to where they went (an aria-hidden layer of copies) land first,
            # and whatever else moves (a prompt rising) comes to rest; a glow that pulses
            # for ever does not count.
            page.wait_for_function(_SETTLED, timeout=5_000)
            where = f"{name} ({size})"
            if subject is not None:
                found = page.locator(subject).first
                if found.is_visible():
                    found.scroll_into_view_if_needed()
                else:
                    self.problems.append(f"{where}: {subject} is not shown")
            for problem in page.evaluate(_OVERFLOWS):
                self.problems.append(f"{where}: {problem}")
            self.broken.extend(f"{where}: {word}" for word in page.evaluate(_BROKEN_WORDS))
            marked: list[tuple[str, bool]] = page.evaluate(_VISIBLE_STRINGS)
            strings = [text for text, _ in marked]
            for found_raw in RAW.finditer("\n".join(strings)):
                self.problems.append(f"{where}: raw {found_raw.group(0)!r}")
            messages = [text for text, in_book in marked if not in_book]
            for leftover in english_leftovers(self.language, messages):
                self.problems.append(f"{where}: English on the page: {leftover}")
            self.glyphs(where, strings)
            page.screenshot(path=str(ARTIFACTS / f"lang-{self.language}-{size}-{name}.png"))
        page.set_viewport_size(SIZES["desktop"])  # type: ignore[arg-type]

    def glyphs(self, where: str, strings: list[str]) -> None:
        letters: dict[str, set[str]] = {}
        for char in set("".join(strings)):
            if char.isalpha():
                script = unicodedata.name(char, "").split(" ")[0]
                if script in SCRIPTS:
                    letters.setdefault(script, set()).add(char)
        samples = {script: "".join(sorted(found)[:8]) for script, found in letters.items()}
        for script, found in self.page.evaluate(_GLYPHS, [samples, NO_FONT[0]]).items():
            if not found["ok"]:
                self.problems.append(
                    f"{where}: {script} letters {found['letters']!r} have no glyphs ({found})"
                )

    def state(self) -> dict[str, Any]:
        found: dict[str, Any] = self.page.evaluate(UI_STATE)
        return found

    def act_and_wait(self, click: Callable[[], Any]) -> None:
        before = self.page.evaluate("window.sequenceStacks.socket.version")
        click()
        with contextlib.suppress(PlaywrightTimeout):  # refused or overtaken: look again
            self.page.wait_for_function(
                "v => window.sequenceStacks.socket.version > v", arg=before, timeout=5_000
            )

    def check(self, where: str, ok: bool, what: str) -> None:
        if not ok:
            self.problems.append(f"{where}: {what}")


@pytest.fixture(scope="module")
def shared_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for every language (the conftest's `server` is one per test), with
    fast bots and no limit the Python-played table could reach."""
    env = {
        **FAST_BOTS,
        **NO_LIMITS,
        # A window lasts its whole time, 6.4 s at the default relaxed pace: long enough to
        # look at the prompt at both sizes on a busy machine, short enough for 6 games.
        "SEQUENCE_STACKS_BLOCK_TIMEOUT": "4",
        "SEQUENCE_STACKS_TURN_TIMEOUT": "120",
        "SEQUENCE_STACKS_GRACE_PERIOD": "120",
    }
    with running_server(tmp_path_factory.mktemp("languages"), env) as process:
        yield process


@pytest.fixture(scope="module")
def catalog(shared_server: ServerProcess) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(shared_server.get("/api/catalog"))
    return found


def test_the_glyph_check_sees_missing_glyphs(browser: Browser) -> None:
    """The glyph check fails where no font has the letters (private-use characters) and
    passes for letters every machine has."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.set_content("<body>x</body>")
        found = page.evaluate(_GLYPHS, [{"none": NO_FONT[1:], "latin": "abcdefg"}, NO_FONT[0]])
    finally:
        context.close()
    assert not found["none"]["ok"], found
    assert found["latin"]["ok"], found


def test_the_broken_word_check_sees_a_word_broken_in_two(browser: Browser) -> None:
    """A word a narrow box breaks anywhere is found; words wrapped at spaces and
    hyphens, and Korean kept whole (keep-all), are not."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.set_content(
            '<div style="width: 60px; overflow-wrap: anywhere">Sequence</div>'
            '<div style="width: 60px">a bc de fg Steal-a-Card</div>'
            '<div lang="ko" style="width: 60px; word-break: keep-all">시퀀스 완성 블록</div>'
            '<div lang="ko" style="width: 40px">테이블테이블</div>'
        )
        found = page.evaluate(_BROKEN_WORDS)
    finally:
        context.close()
    assert found == ['div "Sequence"', 'div "테이블테이블"'], found


def test_the_english_check_sees_english_and_not_the_language() -> None:
    """The check for English left on a page flags an English message (with any value
    in its placeholders), not the language's own words for it nor a player's name."""
    english = translation("en").text("table.turn_of").format(player="Ann")
    assert english_leftovers("ko", [english, "Ann"]) == [f"table.turn_of: {english!r}"]
    own = translation("ko").text("table.turn_of").replace("{player}", "Ann")
    assert own != english
    assert english_leftovers("ko", [own]) == []
    assert english_leftovers("en", [english]) == []


def _open_the_lobby(reader: Reader) -> None:
    """The lobby in the reader's language: through the menu (which must remember the
    choice in the cookie and localStorage), else by ?lang= or Accept-Language."""
    page, language = reader.page, reader.language
    if CHOSEN_BY[language] == "menu":
        page.goto(reader.server.url + "/")
        reader.words_filled()
        assert page.evaluate("document.documentElement.lang") == "en"
        with page.expect_navigation():
            page.select_option("#language", language)
        reader.words_filled()
        cookies = {c["name"]: c["value"] for c in reader.context.cookies()}
        assert cookies.get("lang") == language
        assert page.evaluate("localStorage.getItem('lang')") == language
    else:
        reader.goto("/")
    assert page.locator("#language").input_value() == language
    page.wait_for_selector("#tables li")


def _create_and_sit(reader: Reader) -> str:
    """A new two-seat table with a short game and the largest hands (10 cards: the
    most a seat's panel and the hand must hold), the player seated beside a greedy bot
    (the server's default: it plays to win, so the game ends soon); the table's path."""
    page = reader.page
    page.select_option("#create select[name=players]", "2")
    page.click("summary")
    page.fill("input[name=chips_to_win]", "2")
    page.fill("input[name=min_each_colour]", "1")
    page.fill("input[name=hand_size]", "10")
    page.click("#create button[type=submit]")
    page.wait_for_url("**/t/*")
    table_path = page.url.removeprefix(reader.server.url).split("?")[0]
    if CHOSEN_BY[reader.language] == "query":
        reader.goto(table_path)
    reader.words_filled()
    page.fill("#join-name", "Ann")
    page.click("#join button")
    page.wait_for_selector("#start:not([hidden])")
    greedy = page.evaluate("window.sequenceStacks.game.bots.indexOf('greedy')")
    assert greedy >= 0, "no greedy bot to add"
    page.locator("#lobby-seats .lobby-seat.empty button").nth(greedy).click()
    page.wait_for_selector(".lobby-seat.bot")
    lines = page.locator("#log li").all_inner_texts()
    reader.check("seated", len(lines) == 2, f"the log is not one sit and one bot: {lines}")
    return table_path


def _read_the_rules(reader: Reader) -> None:
    """The help opens at its top with the one-screen summary for players (#24: the goal,
    a turn, the seven cards each with its drawn example, a completed sequence, winning),
    and "All the rules" one tap further is the language's own rules for players, in
    plain words: no rule ids."""
    page = reader.page
    page.click("#help-open")
    page.wait_for_selector("#help[open] .rules-summary")
    top = page.evaluate("document.querySelector('#help').scrollTop")
    assert top == 0, f"the help opened scrolled down by {top}px"
    parts = page.locator("#help .rules-summary h3").count()
    examples = page.locator("#help .card-rows li .example .card").count()
    reader.check("rules", parts == 5, f"{parts} parts in the summary, not 5")
    reader.check("rules", page.locator("#help .card-rows li").count() == 7, "not 7 cards")
    reader.check("rules", examples >= 7, f"only {examples} drawn cards in the examples")
    reader.screen("rules", "#help .rules-summary")
    page.click("#help .rules-switch")
    page.wait_for_selector("#help .rule-book")
    book_lang = page.evaluate("document.querySelector('#help .rule-book').lang")
    assert book_lang == reader.language
    text = page.locator("#help .rule-book").inner_text()
    assert not re.findall(r"\bR\d+\b", text), "a rule id in the rules for players"
    reader.screen("rules-full", "#help .rule-book")
    page.click("#help .close")
    page.wait_for_selector("#help:not([open])", state="hidden")


def _expected_refusal(language: str, kind: int) -> str:
    """The refusal of a discard of a card kind not held, in the language (as Python
    words it; tests/js checks the browser words it alike): the reason alone, players
    read no rule ids (#24)."""
    before = current_language()
    set_language(language)
    try:
        return render("illegal.nothing_to_discard", kind=kind_name(kind))
    finally:
        set_language(before)


def _refuse(reader: Reader, catalog: dict[str, Any]) -> None:
    """On the player's turn, the page sends a discard of a number card the hand does
    not hold (a crafted command, as a stale or tampered page would): the server refuses
    it (R19) and the notice says why, with the rule id, in the language."""
    page = reader.page
    state = reader.state()
    held = {catalog["cards"][card] for card in state["view"]["hand"]}
    numbers = {kind["index"] for kind in catalog["kinds"] if not kind["action"]}
    choices = [
        (index, fields["kind"])
        for index, fields in enumerate(state["fields"])
        if fields["type"] == "discard" and fields["kind"] in numbers - held
    ]
    assert choices, "every number card is in the hand"
    action_id, kind = choices[0]
    page.evaluate("id => window.sequenceStacks.socket.command('act', {action_id: id})", action_id)
    notice = page.locator("#notice.error")
    notice.wait_for(state="visible", timeout=5_000)
    # It hides itself after 6 s; the screens below (desktop then phone) may take longer
    # on a loaded machine, so it stays until it is clicked.
    page.evaluate("window.sequenceStacks.notice.keep()")
    shown = notice.inner_text().strip()
    expected = _expected_refusal(reader.language, kind)
    reader.check("refusal", shown == expected, f"the notice says {shown!r}, not {expected!r}")
    reader.screen("refusal", "#notice")
    if notice.is_visible():  # read: it goes (else it would cover the next screens)
        notice.click()
    notice.wait_for(state="hidden", timeout=2_000)


def _show_choices_and_discard(reader: Reader) -> None:
    """Select a card (one that can be played, if any) to show its choices, look at
    them, then end the turn by discarding it from the choices."""
    page = reader.page
    hand = "#hand .card:not([disabled]):not(.act-block)"
    playable = page.locator(f"{hand}.playable")
    card = playable.first if playable.count() else page.locator(hand).first
    card.click()
    page.wait_for_selector("#choices button.discard")
    labels = page.locator("#choices button").all_inner_texts()
    reader.check("choices", all(label.strip() for label in labels), f"empty choice in {labels}")
    reader.screen("choices", "#choices")
    reader.act_and_wait(page.locator("#choices button.discard").first.click)


def _discard(reader: Reader) -> None:
    """End the turn: discard the first card that is not a Block (End turn if the hand
    is empty)."""
    page = reader.page
    cards = page.locator("#hand .card:not([disabled])")
    if not cards.count():
        reader.act_and_wait(page.locator("#choices button.primary").first.click)
        return
    kept = page.locator("#hand .card:not([disabled]):not(.act-block)")
    (kept.first if kept.count() else cards.first).click()
    discard = page.locator("#choices button.discard")
    try:
        discard.first.wait_for(timeout=5_000)
    except PlaywrightTimeout:
        # The click took away a selection left from before (a move refused or overtaken),
        # or a frame drew the hand anew under it: start from no selection, look again.
        page.keyboard.press("Escape")
        return
    reader.act_and_wait(discard.first.click)


# The Block prompt's seconds while it is open; "closed" once it is not.
COUNTDOWN_SHOWN: Final = """() => {
  const prompt = document.querySelector('#block-prompt');
  if (prompt.hidden) return 'closed';
  return prompt.querySelector('[data-countdown]').textContent.trim();
}"""


def _look_at_the_prompt(reader: Reader, state: dict[str, Any], name: str) -> None:
    """The Block prompt speaks the language: a seat holding a Block is asked, its two
    answers shown; a seat with none sees what happened and the countdown, nothing to
    tap (#24)."""
    page = reader.page
    page.wait_for_selector("#block-prompt:not([hidden])", timeout=5_000)
    text = page.locator("#block-prompt .text").inner_text()
    fields = state["fields"]
    may_block = any(fields[i]["type"] == "block" for i in state["view"]["legal_action_ids"])
    key = "prompt.block" if may_block else "prompt.watch"
    reader.check(name, _matches_one_of(reader.language, [key], text), f"prompt {text!r}")
    button = page.locator("#answer-block")
    reader.check(name, button.is_visible() == may_block, f"Block shown={not may_block}")
    if may_block:
        title = button.get_attribute("title")
        expected = translation(reader.language).text("prompt.block_title")
        reader.check(name, title == expected, f"Block's title {title!r}, not {expected!r}")
    else:
        try:  # the seconds the prompt shows while it is open (it may close meanwhile)
            seconds = page.wait_for_function(COUNTDOWN_SHOWN, timeout=3_000).json_value()
        except PlaywrightTimeout:
            seconds = ""
        reader.check(name, bool(seconds), "no countdown in the prompt")
    reader.screen(name, "#block-prompt")


def _play_to_the_end(reader: Reader, catalog: dict[str, Any]) -> bool:
    """Play the game to its end through the page; the first turn shows the rules,
    a refusal and the choices, the first Block window the prompt. Whether a Block
    window asked the player."""
    page = reader.page
    asked = False
    turns = 0
    for _ in range(5000):
        state = reader.state()
        view = state["view"]
        if state["status"] == "over":
            return asked
        if view and view["phase"] == "block_window" and state["you"] in view["window_pending"]:
            if not asked and "block-prompt" not in reader.screens:
                _look_at_the_prompt(reader, state, "block-prompt")
            asked = True
            if page.locator("#answer-pass").is_visible():
                reader.act_and_wait(lambda: click_if_still_there(page, "#answer-pass"))
            else:
                page.wait_for_timeout(50)  # no Block, nothing to tap: the window runs out
        elif view and view["phase"] == "playing" and view["current"] == state["you"]:
            turns += 1
            if "game" not in reader.screens:
                page.wait_for_selector("#turn[data-mine=true]")
                reader.screen("game", "#hand")
                _read_the_rules(reader)
                _refuse(reader, catalog)
            if "choices" not in reader.screens and page.locator("#hand .card").count():
                _show_choices_and_discard(reader)
            else:
                _discard(reader)
        else:
            page.wait_for_timeout(30)
    raise AssertionError(f"the game did not end ({turns} turns of the player)")


def _the_end(reader: Reader) -> None:
    """The end screen says who won, or why nobody did, in the language."""
    page = reader.page
    page.wait_for_selector("#result:not([hidden])")
    text = page.locator("#result .text").inner_text()
    keys = ["table.wins", "table.you_win", "table.no_winner"]
    reader.check("end", _matches_one_of(reader.language, keys, text), f"result {text!r}")
    rematch = translation(reader.language).text("table.rematch")
    reader.check("end", page.locator("#start").inner_text() == rematch, "no rematch button")
    if "end" not in reader.screens:
        reader.screen("end", "#result")


def _block_with_a_block_in_hand(reader: Reader) -> None:
    """Python plays a three-seat table until a Block window asks a seat holding a
    Block; the page takes that seat, sees a live Block button and blocks with it.

    The page has the window's last 4.5 s to load and look; on a busy machine that can
    run out. What goes wrong only after the window's end is not the page's: what that
    look found is dropped and the next such window is looked at (three at most)."""
    options = {"player_count": 3, "hand_size": 10, "chips_to_win": 10, "min_each_colour": 2}
    table = PythonTable(reader.server, options, ["Ann", "Bo", "Cy"], pace="relaxed")
    try:
        for _ in range(3):
            # Windows of 6.4 s (relaxed), each lasting its whole time; the page gets one
            # with 4.5 s left.
            seat = table.play_until_a_block_is_held(time_left=4.5)
            ends = time.monotonic() + table.seats[0].seconds_left()
            problems, screens = len(reader.problems), len(reader.screens)
            try:
                _block_in_the_page(reader, table, seat)
            except (AssertionError, PlaywrightError):
                if time.monotonic() < ends:
                    raise
            else:
                if len(reader.problems) == problems or time.monotonic() < ends:
                    return
            del reader.problems[problems:], reader.screens[screens:]
        raise AssertionError("block-held: three Block windows in a row ended before the look")
    finally:
        table.close()


def _block_in_the_page(reader: Reader, table: PythonTable, seat: int) -> None:
    """The page takes ``seat``, asked in a Block window, and blocks with its Block."""
    page = reader.page
    page.evaluate(
        "([key, token]) => localStorage.setItem(key, token)",
        [f"sequence-stacks:token:{table.table_id}", table.tokens[seat]],
    )
    reader.goto(f"/t/{table.table_id}")
    page.wait_for_function(
        "seat => { const s = window.sequenceStacks; return s && s.game.you === seat"
        " && s.game.view && s.game.view.phase === 'block_window'; }",
        arg=seat,
    )
    state = reader.state()
    _look_at_the_prompt(reader, state, "block-held")
    reader.check("block-held", page.locator("#answer-block").is_enabled(), "no live Block")
    reader.act_and_wait(lambda: page.click("#answer-block"))
    page.wait_for_selector("#block-prompt", state="hidden")
    blocked = [key for key in MESSAGES if key.startswith("log.PileBlocked")]
    for _ in range(100):  # the log shows its last 120 lines: look at the newest
        shown = page.locator("#log li").all_inner_texts()[-6:]
        if any(_matches_one_of(reader.language, blocked, line) for line in shown):
            break
        page.wait_for_timeout(50)
    else:
        reader.problems.append(f"block-held: no line says the pile was blocked: {shown}")


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_a_game_in_each_language(
    shared_server: ServerProcess, browser: Browser, catalog: dict[str, Any], language: str
) -> None:
    reader = Reader(browser, language, shared_server)
    page = reader.page
    try:
        _open_the_lobby(reader)
        reader.screen("lobby", "#create")
        table_path = _create_and_sit(reader)
        reader.screen("seated", "#lobby-seats")
        page.click("#start")
        page.wait_for_selector("#board:not([hidden])")
        for _ in range(3):  # a game with no Block window for the player: a rematch
            asked = _play_to_the_end(reader, catalog)
            _the_end(reader)
            if asked:
                break
            reader.act_and_wait(lambda: page.click("#start"))
        assert "block-prompt" in reader.screens, "no Block window asked the player in 3 games"
        game = reader.state()["game"]
        reader.goto(f"{table_path.replace('/t/', '/replay/')}/{game}")
        page.wait_for_selector("#replay-seats .seat")
        note = page.locator("#replay-note").inner_text()
        over = translation(language).text("replay.over")
        reader.check("replay", note == over, f"the note says {note!r}, not {over!r}")
        reader.screen("replay", "#step-events")
        _block_with_a_block_in_hand(reader)
    except Exception as error:  # say what the page said before it went wrong
        seen = "\n".join(dict.fromkeys(reader.problems)) or "none"
        raise AssertionError(f"{error}\nthe page's problems so far: {seen}") from error
    finally:
        reader.context.close()
        BROKEN[language] = reader.broken
    assert not reader.problems, "\n".join(dict.fromkeys(reader.problems))
    assert sorted(reader.screens) == sorted(SCREENS), reader.screens


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_no_word_is_broken_across_lines(language: str) -> None:
    """On no screen of the tour, at either size, is a word drawn across two lines."""
    if language not in BROKEN:
        pytest.skip("the tour of this language did not run")
    assert not BROKEN[language], "\n".join(dict.fromkeys(BROKEN[language]))


def test_two_players_of_one_table_read_the_same_game_each_in_their_language(
    shared_server: ServerProcess, browser: Browser
) -> None:
    """The server sends data, never a sentence: Korean and Hindi players at one table
    see the same game, each in their own words (#14)."""
    korean = Reader(browser, "ko", shared_server)
    hindi = Reader(browser, "hi", shared_server)
    try:
        korean.goto("/")
        page = korean.page
        page.select_option("#create select[name=players]", "3")
        page.click("#create button[type=submit]")
        page.wait_for_url("**/t/*")
        table_path = page.url.removeprefix(shared_server.url).split("?")[0]
        korean.words_filled()
        page.fill("#join-name", "Ann")
        page.click("#join button")
        page.wait_for_selector("#start:not([hidden])")
        hindi.goto(table_path)
        hindi.page.fill("#join-name", "Bob")
        hindi.page.click("#join button")
        hindi.page.wait_for_selector("#start:not([hidden])")
        page.click("#start")
        for reader in (korean, hindi):
            reader.page.wait_for_selector("#board:not([hidden])")
            reader.page.wait_for_function("() => document.querySelectorAll('#log li').length >= 4")
        facts = "() => { const u = window.sequenceStacks.game; return [u.table.game,"
        facts += " u.view.current, u.view.draw_size, u.view.hand_sizes]; }"
        assert korean.page.evaluate(facts) == hindi.page.evaluate(facts)
        lines = {
            reader.language: reader.page.locator("#log li").all_inner_texts()
            for reader in (korean, hindi)
        }
        for language, shown in lines.items():
            reader = korean if language == "ko" else hindi
            assert reader.page.evaluate("document.documentElement.lang") == language
            turn = _template_pattern(language, "log.TurnStarted", turn="1")
            dealt = _template_pattern(language, "log.CardsDrawn.deal", 5, count="5")
            assert any(turn.fullmatch(line) for line in shown), (language, shown)
            assert any(dealt.fullmatch(line) for line in shown), (language, shown)
        assert set(lines["ko"]).isdisjoint(lines["hi"])  # the same events, other words
    finally:
        korean.context.close()
        hindi.context.close()
    assert not korean.problems + hindi.problems


def test_a_link_s_language_stays_with_a_reader_who_has_not_chosen_one(
    server: ServerProcess, browser: Browser
) -> None:
    """A family that comes by a link in their language (``/?lang=hy``) with a browser
    set to English keeps it on the pages they go on to; a reader who chose a language
    in the menu keeps theirs: the link shows its page in its language, nothing more."""

    def language_of(page: Page, path: str) -> str:
        page.goto(server.url + path)
        page.wait_for_selector("#language option:nth-child(2)", state="attached")
        return str(page.evaluate("document.documentElement.lang"))

    def cookie(context: BrowserContext) -> str | None:
        return {c["name"]: c["value"] for c in context.cookies()}.get("lang")

    # (the reader's own choice before the link, the language they read after it)
    for chosen, after in ((None, "hy"), ("ko", "ko")):
        context = browser.new_context(locale="en-US")
        try:
            if chosen is not None:
                context.add_cookies([{"name": "lang", "value": chosen, "url": server.url}])
            page = context.new_page()
            assert language_of(page, "/?lang=hy") == "hy"
            assert cookie(context) == after
            assert language_of(page, "/learn") == after
        finally:
            context.close()
