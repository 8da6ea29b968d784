"""The game in six languages, in a real browser (#14).

For each language (Armenian chosen through the lobby's language menu, the rest by
``Accept-Language``; English by ``?lang=en``), one player goes from the lobby through a
new two-seat table against a bot to a running game, opens the rules help, plays a few
turns and opens the replay. Every screen is looked at phone (390x844) and desktop
(1366x768) size:

- ``<html lang>`` is the language;
- no element's text overflows its box, and nothing is wider than the viewport;
- no visible text (nor a title, aria-label or placeholder) is a message key or a
  ``{placeholder}`` left unfilled;
- every script in the page's text renders with real glyphs: for each script, a few of
  its letters are drawn on a canvas in the page's font stack; a letter no font has
  draws as the same missing-glyph box as a private-use character, so a script is
  missing when its letters all draw alike (the check is first shown to fail on
  private-use characters, which no font has);
- screenshots go to artifacts/lang-<lang>-<size>-<screen>.png.

A second test per language then checks that the visible text holds no English message
the language's catalog has not translated (skipped while the catalog does not exist).
"""

from __future__ import annotations

import contextlib
import re
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from sequence_stacks.i18n.languages import LANGUAGES
from sequence_stacks.i18n.messages import MESSAGES
from sequence_stacks.i18n.translations import catalog_path, translation

from .conftest import ARTIFACTS, ServerProcess

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
FAMILIES: Final = "|".join(sorted({key.split(".")[0] for key in MESSAGES}))
RAW: Final = re.compile(rf"\{{[A-Za-z_]+\}}|\b({FAMILIES})\.[a-z_]+[A-Za-z_.]*\b")
# Letters by the first word of their Unicode names (LATIN SMALL LETTER A, HANGUL SYLLABLE GA).
SCRIPTS: Final = ("LATIN", "ARMENIAN", "DEVANAGARI", "HANGUL")
# Characters no font has (Supplementary Private Use Area-A): they draw as missing glyphs.
NO_FONT: Final = "\U000f0001\U000f0002\U000f0003\U000f0004"

# What each language's pages showed, for the untranslated-English test after the tour.
SEEN: dict[str, list[str]] = {}

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


class Reader:
    """One browser context reading the game in one language."""

    def __init__(self, browser: Browser, language: str, server: ServerProcess) -> None:
        self.language = language
        self.server = server
        locale = language if CHOSEN_BY[language] == "accept-language" else "en-US"
        self.context = browser.new_context(viewport=SIZES["desktop"], locale=locale)  # type: ignore[arg-type]
        self.page: Page = self.context.new_page()
        self.problems: list[str] = []
        self.seen: list[str] = []
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

    def screen(self, name: str) -> None:
        """Look at the page at both sizes: language, overflow, keys, glyphs; screenshot."""
        page = self.page
        lang = page.evaluate("document.documentElement.lang")
        if lang != self.language:
            self.problems.append(f"{name}: <html lang={lang!r}>, not {self.language!r}")
        for size, viewport in SIZES.items():
            page.set_viewport_size(viewport)  # type: ignore[arg-type]
            page.wait_for_timeout(60)
            where = f"{name} ({size})"
            for problem in page.evaluate(_OVERFLOWS):
                self.problems.append(f"{where}: {problem}")
            marked: list[tuple[str, bool]] = page.evaluate(_VISIBLE_STRINGS)
            strings = [text for text, _ in marked]
            self.seen.extend(text for text, in_book in marked if not in_book)
            for found in RAW.finditer("\n".join(strings)):
                self.problems.append(f"{where}: raw {found.group(0)!r}")
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

    def act_and_wait(self, click: Any) -> None:
        before = self.page.evaluate("window.sequenceStacks.socket.version")
        click()
        with contextlib.suppress(PlaywrightTimeout):  # refused or overtaken: look again
            self.page.wait_for_function(
                "v => window.sequenceStacks.socket.version > v", arg=before, timeout=5_000
            )


@pytest.fixture(scope="module")
def shared_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for every language (the conftest's `server` is one per test)."""
    env = {
        "SEQUENCE_STACKS_BOT_DELAY": "0.01,0.03",
        "SEQUENCE_STACKS_BOT_BLOCK_DELAY": "0.02,0.05",
        "SEQUENCE_STACKS_BLOCK_TIMEOUT": "30",
        "SEQUENCE_STACKS_TURN_TIMEOUT": "120",
        "SEQUENCE_STACKS_GRACE_PERIOD": "120",
    }
    process = ServerProcess(tmp_path_factory.mktemp("languages") / "e2e.sqlite3", env)
    process.start()
    yield process
    process.stop()


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


def _play_a_few_turns(reader: Reader, turns: int) -> None:
    """Discard on each of the player's turns (passing any Block window) until the
    player has had ``turns`` turns, or the game ends."""
    page = reader.page
    had = 0
    for _ in range(2000):
        state = page.evaluate(
            "() => { const u = window.sequenceStacks.ui; return {you: u.you, view: u.view,"
            " status: u.table && u.table.status}; }"
        )
        view = state["view"]
        if state["status"] == "over" or had >= turns:
            return
        if page.locator("#block-prompt").is_visible():
            reader.act_and_wait(lambda: page.click("#answer-pass"))
        elif view and view["phase"] == "playing" and view["current"] == state["you"]:
            card = page.locator("#hand .card:not([disabled])")
            if card.count():
                card.first.click()
                reader.act_and_wait(page.locator("#choices button.discard").first.click)
            else:
                reader.act_and_wait(page.locator("#choices button.primary").first.click)
            had += 1
        else:
            page.wait_for_timeout(40)


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
    """A new two-seat table with a short game, the player seated beside a bot; the
    table's path."""
    page = reader.page
    page.select_option("select[name=players]", "2")
    page.click("summary")
    page.fill("input[name=chips_to_win]", "2")
    page.fill("input[name=min_each_colour]", "1")
    page.click("#create button[type=submit]")
    page.wait_for_url("**/t/*")
    table_path = page.url.removeprefix(reader.server.url).split("?")[0]
    if CHOSEN_BY[reader.language] == "query":
        reader.goto(table_path)
    reader.words_filled()
    page.fill("#join-name", "Ann")
    page.click("#join button")
    page.wait_for_selector("#start:not([hidden])")
    page.locator("#lobby-seats .lobby-seat.empty button").first.click()
    page.wait_for_selector(".lobby-seat.bot")
    return table_path


def _read_the_rules(reader: Reader) -> None:
    """The help opens at its top with the rule book (the language's, or English)."""
    page = reader.page
    page.click("#help-open")
    page.wait_for_selector("#help[open] .rule-book")
    top = page.evaluate("document.querySelector('#help').scrollTop")
    assert top == 0, f"the help opened scrolled down by {top}px"
    book_lang = page.evaluate("document.querySelector('#help .rule-book').lang")
    assert book_lang in (reader.language, "en")
    assert "R41" in page.locator("#help .rule-book").inner_text()
    reader.screen("rules")
    page.click("#help .close")
    page.wait_for_selector("#help:not([open])", state="hidden")


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_a_game_in_each_language(
    shared_server: ServerProcess, browser: Browser, language: str
) -> None:
    reader = Reader(browser, language, shared_server)
    page = reader.page
    try:
        _open_the_lobby(reader)
        reader.screen("lobby")
        table_path = _create_and_sit(reader)
        reader.screen("seated")
        page.click("#start")
        page.wait_for_selector("#board:not([hidden])")
        _play_a_few_turns(reader, 1)
        reader.screen("game")
        _read_the_rules(reader)
        _play_a_few_turns(reader, 2)
        game = page.evaluate("window.sequenceStacks.ui.table.game")
        reader.goto(f"{table_path.replace('/t/', '/replay/')}/{game}")
        page.wait_for_selector("#replay-seats .seat")
        reader.screen("replay")
    finally:
        reader.context.close()
        SEEN[language] = reader.seen
    assert not reader.problems, "\n".join(dict.fromkeys(reader.problems))


def _english_pattern(text: str) -> re.Pattern[str] | None:
    """A whole visible string that is this English text (any value in a placeholder),
    or None when the text has too few letters of its own to tell (``{count}/5``)."""
    parts = re.split(r"\{[A-Za-z_]+\}", text.replace("{{", "{").replace("}}", "}"))
    if sum(len(re.findall(r"[A-Za-z]{3,}", part)) for part in parts) < 1:
        return None
    return re.compile(".{1,40}?".join(re.escape(part) for part in parts))


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != "en"])
def test_no_untranslated_english_on_screen(language: str) -> None:
    if not Path(catalog_path(language)).exists():
        pytest.skip(f"no {language} catalog yet ({catalog_path(language)}): its pages are English")
    if language not in SEEN:
        pytest.skip("the tour of this language did not run")
    words = translation(language)
    patterns = {
        key: pattern
        for key, message in MESSAGES.items()
        if not words.has(key)
        for form in filter(None, (message.text, message.plural))
        if (pattern := _english_pattern(form)) is not None
    }
    untranslated = sorted(
        {
            f"{key}: {seen!r}"
            for seen in set(SEEN[language])
            for key, pattern in patterns.items()
            if pattern.fullmatch(seen)
        }
    )
    assert not untranslated, (
        f"{len(untranslated)} English messages on the {language} pages:\n" + "\n".join(untranslated)
    )


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
        page.select_option("select[name=players]", "3")
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
            reader.page.wait_for_function("document.querySelectorAll('#log li').length >= 4")
        facts = "() => { const u = window.sequenceStacks.ui; return [u.table.game,"
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
