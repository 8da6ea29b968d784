"""The tutorial, "Learn to play" (#15 item 1), in a real browser: reached from the lobby,
completed lesson by lesson through the page itself (cards, piles, the Block prompt, the
choices) at desktop and phone size in Korean and on a phone in English, nothing wider
than the screen, every tap target at least 44 px, no message missing; a move the lesson
did not ask for is explained and can be tried again. On a phone every lesson fits one
screen (#24), and at both sizes the lesson's words, the card chosen and where it may go
are on the screen together, and a move leaves the page where it was (no jump).
Screenshots go to artifacts/."""

from __future__ import annotations

import json
import re
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from sequence_stacks.i18n import MESSAGES, translation

from .conftest import ARTIFACTS, ServerProcess

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]

SIZES = {"desktop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}
AXE = Path(__file__).resolve().parents[1] / "a11y" / "node_modules" / "axe-core" / "axe.min.js"
# axe-core's serious and critical violations (the page's CSP does not govern DevTools).
RUN_AXE = """
async () => (await axe.run(document, { resultTypes: ["violations"] })).violations
  .filter((v) => v.impact === "serious" || v.impact === "critical")
  .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).slice(0, 4).join(", ")}`)
"""
SHOTS = {"start_pile", "wild", "complete", "block", "steal_card", "win"}

# What must be on the screen together once a card is chosen (#24): the lesson's words,
# the card, each place on the board it may go and its first choice; the page's height.
TOGETHER = """(card) => {
  const outside = [];
  const inside = (el) => { const r = el.getBoundingClientRect();
    return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 1 && r.right <= innerWidth + 1; };
  const wanted = [document.querySelector("#lesson-text"), document.querySelector(card),
    ...document.querySelectorAll(".pile.target, .discard.target"),
    document.querySelector("#choices button.primary")];
  for (const el of wanted) if (el && !inside(el)) outside.push(el.id || el.className);
  return { outside, height: document.documentElement.scrollHeight };
}"""

# Every visible control of the lesson and the board that is smaller than 44 px.
SMALL_TARGETS = """() => [...document.querySelectorAll(
    ".lesson-buttons button, .lesson-buttons a, #choices button, #block-prompt button,"
    + " #hand .card, .pile.target, .discard.target")]
  .filter((el) => el.offsetParent !== null)
  .map((el) => [el.id || el.className, el.getBoundingClientRect()])
  .filter(([, box]) => box.height < 44 || box.width < 44)
  .map(([name, box]) => `${name}: ${Math.round(box.width)}x${Math.round(box.height)}`)"""


def _lessons(server: ServerProcess) -> list[dict[str, Any]]:
    with urllib.request.urlopen(f"{server.url}/api/tutorial") as response:
        lessons: list[dict[str, Any]] = json.load(response)["lessons"]
        return lessons


class Learner:
    """One tutorial page at one size in one language, and what went wrong on it."""

    def __init__(
        self, browser: Browser, server: ServerProcess, size: str, lang: str, scheme: str = "light"
    ) -> None:
        self.server, self.size, self.lang = server, size, lang
        self.context = browser.new_context(
            viewport=SIZES[size],  # type: ignore[arg-type]
            locale=lang,
            color_scheme=scheme,  # type: ignore[arg-type]
        )
        self.violations: list[str] = []
        self.page: Page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on(
            "console",
            lambda message: self.errors.append(message.text) if message.type == "error" else None,
        )

    def words(self, key: str, **args: Any) -> str:
        return translation(self.lang).text(key, None).format_map(args)

    def shot(self, name: str) -> None:
        self.page.screenshot(path=str(ARTIFACTS / f"tutorial-{self.lang}-{self.size}-{name}.png"))

    def wait(self, check: str, timeout: float = 15) -> None:
        """Poll ``check`` (a JavaScript expression; the CSP forbids Playwright's eval)."""
        deadline = time.monotonic() + timeout
        while not self.page.evaluate(f"() => Boolean({check})"):
            assert time.monotonic() < deadline, f"waited in vain for {check}"
            self.page.wait_for_timeout(50)

    def status(self) -> str:
        status: str = self.page.evaluate("() => document.querySelector('#lesson').dataset.status")
        return status

    def fits(self, where: str) -> None:
        width = self.page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= SIZES[self.size]["width"], f"{where}: the page is {width}px wide"
        small = self.page.evaluate(SMALL_TARGETS)
        assert not small, f"{where}: tap targets under 44 px: {small[:5]}"

    def scan(self, where: str) -> None:
        """axe-core over the page as it is now (when npm's axe-core is installed)."""
        if not AXE.exists():
            return
        if not self.page.evaluate("() => typeof window.axe === 'object'"):
            self.page.evaluate(AXE.read_text(encoding="utf-8"))
        self.violations += [f"{where}: {found}" for found in self.page.evaluate(RUN_AXE)]

    def card(self, kind: str | None) -> None:
        selector = (
            "#hand .card:not(:disabled)" if kind is None else f'#hand .card[data-kind="{kind}"]'
        )
        self.page.locator(selector).first.click()
        self.together(selector)

    def together(self, card: str) -> None:
        """The lesson's words, the chosen card and the places it may go are all on the
        screen at once (#24), the page no taller than a phone's screen."""
        seen = self.page.evaluate(TOGETHER, card)
        assert not seen["outside"], f"{self.size}: off the screen: {seen['outside']}"
        if self.size == "phone":
            assert seen["height"] <= SIZES["phone"]["height"], f"the lesson is {seen['height']}px"

    def move(self, lesson: dict[str, Any], *, other: bool = False) -> None:
        """Make the lesson's awaited move through the page (``other``: a legal one it
        did not ask for: a wild starting a pile of its own)."""
        awaited = lesson["awaited"][0]
        page = self.page
        match awaited["type"]:
            case "play":
                self.card(awaited["kind"])
                page.locator(".pile.target").nth(1 if other else 0).click()
            case "discard" if self.size == "desktop":
                page.keyboard.press("1")  # the keys of the table: select a card, discard it
                page.keyboard.press("d")
            case "discard":
                self.card(None)
                page.locator("#choices button.discard").first.click()
            case "block" if self.size == "desktop":
                page.keyboard.press("b")
            case "block":
                page.locator("#answer-block").click()
            case "steal_card":
                self.card(awaited["kind"] or "SCARD")
                page.locator(".discard.target").first.click()
            case kind:
                self.card({"skip": "SKIP", "reverse": "REV", "steal_chip": "SCHIP"}[kind])
                page.locator("#choices button.primary").first.click()

    def complete(self, lessons: list[dict[str, Any]]) -> None:
        page = self.page
        page.goto(f"{self.server.url}/?lang={self.lang}")
        page.wait_for_selector("#learn")
        self.shot("00-lobby")
        page.locator("#learn").click()
        self.wait("document.querySelector('#lesson-title').textContent")
        # The rules open over the lesson and close again; the lesson is where it was.
        page.keyboard.press("?")
        self.wait("document.querySelector('#help').open")
        page.keyboard.press("Escape")
        self.wait("!document.querySelector('#help').open")
        for index, lesson in enumerate(lessons):
            key = lesson["key"]
            progress = self.words("page.learn.progress", step=index + 1, count=len(lessons))
            assert page.locator("#progress").text_content() == progress
            assert page.locator("#lesson-title").text_content() == self.words(f"learn.{key}.title")
            assert page.locator("#next").is_disabled()
            self.fits(f"{key} (before)")
            if key in SHOTS:
                self.shot(f"{index + 1:02}-{key}")
                self.scan(f"{key} (before)")
            if key == "wild":
                # Another legal move is explained kindly, then the lesson starts again.
                self.move(lesson, other=True)
                self.wait("document.querySelector('#lesson').dataset.status === 'other'")
                told = page.locator("#lesson-text").text_content() or ""
                other = self.words("learn.other_move")
                assert told.startswith(other + " "), told
                # ... and why the lesson's own move is worth making (#27, a hint's reason)
                assert told[len(other) + 1 :].strip(), told
                assert "{" not in told, told
                if self.size == "desktop":
                    self.shot(f"{index + 1:02}-{key}-other")
                page.locator("#retry").click()
                self.wait("document.querySelector('#lesson').dataset.status === 'try'")
            scrolled = page.evaluate("scrollY")
            self.move(lesson)
            self.wait("document.querySelector('#lesson').dataset.status === 'done'")
            assert page.evaluate("scrollY") == scrolled, f"{key}: the page jumped after the move"
            assert page.locator("#events li").count() >= 1, key
            self.fits(f"{key} (after)")
            if key in SHOTS:
                self.shot(f"{index + 1:02}-{key}-done")
                self.scan(f"{key} (after)")
            if index + 1 < len(lessons):
                page.keyboard.press("Enter")  # the focus is on "Next step"
                following = self.words("page.learn.progress", step=index + 2, count=len(lessons))
                self.wait(
                    f"document.querySelector('#progress').textContent === {json.dumps(following)}"
                )
        assert page.locator("#play").is_visible()
        assert page.locator("#turn .text").text_content() == self.words("table.you_win")
        assert not self.errors, self.errors
        assert not self.violations, "\n".join(self.violations)


@pytest.mark.parametrize(
    ("size", "lang", "scheme"),
    [("desktop", "ko", "dark"), ("phone", "en", "light"), ("phone", "ko", "dark")],
)
def test_the_tutorial_is_completed_through_the_page(
    browser: Browser, server: ServerProcess, size: str, lang: str, scheme: str
) -> None:
    learner = Learner(browser, server, size, lang, scheme)
    try:
        learner.complete(_lessons(server))
    finally:
        learner.context.close()


def test_the_lessons_words_are_messages() -> None:
    for key in ("page.learn.link", "page.learn.progress", "learn.other_move", "table.hint"):
        assert key in MESSAGES


def _hint_patterns() -> list[str]:
    """Every English hint sentence as a pattern: table.hint_why around each reason
    (hint.reason.*, every plural form) with its placeholders matching any words."""

    def pattern(text: str) -> str:
        return re.sub(r"\\\{\w+\\\}", ".+", re.escape(text))

    reasons = [
        form
        for key, message in MESSAGES.items()
        if key.startswith("hint.reason.")
        for form in (message.text, message.plural)
        if form
    ]
    outer = MESSAGES["table.hint_why"].text
    return [pattern(outer).replace(r"\.\ .+", r"\.\ " + pattern(reason)) for reason in reasons]


def test_a_practice_game_offers_a_hint_that_marks_a_move(
    browser: Browser, server: ServerProcess
) -> None:
    """'Play now' makes a game against bots: the Hint button asks, the page tells the
    suggested move in words and why, and marks its button (or selects its card)."""
    learner = Learner(browser, server, "phone", "en")
    page = learner.page
    try:
        page.goto(f"{server.url}/?lang=en")
        page.fill("#play-now input[name=name]", "Mina")
        page.click("#play-now button[type=submit]")
        page.wait_for_selector("#hint:not([hidden])", timeout=15000)
        page.click("#hint")
        page.wait_for_selector("#notice:not([hidden])")
        said = page.locator("#notice").text_content() or ""
        assert said.startswith(learner.words("table.hint_says", move=""))
        # ... and why, in one sentence (#27): "Hint: <move>. <a hint.reason.* sentence>"
        assert any(re.fullmatch(pattern, said) for pattern in _hint_patterns()), said
        assert page.locator("button.hinted").count() == 1
        learner.fits("hint")
        learner.shot("hint")
        assert not learner.errors, learner.errors
    finally:
        learner.context.close()
