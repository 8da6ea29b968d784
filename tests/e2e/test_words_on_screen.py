"""Every word on the pages comes from the messages, filled in (#13).

One player plays a two-seat game against a bot through the table page, passing every
Block window, to the end; then the replay. At each stage the visible text of the page
is checked for a message key or a placeholder left unfilled (what ``t()`` shows when a
message or an argument is missing) and the page for console errors. Screenshots at
desktop and phone size go to artifacts/words-*.png.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Locator, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .conftest import ARTIFACTS, ServerProcess
from .play import click_if_still_there

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(240)]

DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
FAMILIES = "card|choice|colour|end|list|lobby|log|pile|prompt|refused|replay|seat|table"
RAW = re.compile(rf"\{{[A-Za-z_]+\}}|\b({FAMILIES})\.[a-z_]+[A-Za-z_.]*\b")


class Player:
    def __init__(self, browser: Browser) -> None:
        self.context = browser.new_context(viewport=DESKTOP)  # type: ignore[arg-type]
        self.page: Page = self.context.new_page()
        self.problems: list[str] = []
        self.shots: set[str] = set()
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.problems.append(f"pageerror: {error}"))

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.problems.append(f"console error: {message.text}")

    def check(self, where: str) -> None:
        text = self.page.inner_text("body")
        titles = self.page.eval_on_selector_all(
            "[title], [aria-label]",
            "els => els.map((el) => `${el.title} ${el.getAttribute('aria-label') ?? ''}`)",
        )
        for found in RAW.finditer("\n".join([text, *titles])):
            self.problems.append(f"{where}: raw {found.group(0)!r}")

    def shot(self, name: str, scroll_to: str | None = None) -> None:
        """Check the page, then screenshot it at both sizes (once per name)."""
        if name in self.shots:
            return
        self.shots.add(name)
        self.check(name)
        for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
            self.page.set_viewport_size(viewport)  # type: ignore[arg-type]
            if scroll_to:
                self.page.locator(scroll_to).scroll_into_view_if_needed()
            self.page.screenshot(path=str(ARTIFACTS / f"words-{name}-{size}.png"))
        self.page.set_viewport_size(DESKTOP)  # type: ignore[arg-type]

    def ui(self) -> dict[str, Any]:
        data: dict[str, Any] = self.page.evaluate(
            "() => { const s = window.sequenceStacks; return {you: s.game.you, view: s.game.view,"
            " status: s.game.table && s.game.table.status, version: s.socket.version}; }"
        )
        return data

    def act(self, click: Any) -> None:
        before = self.ui()["version"]
        click()
        with contextlib.suppress(PlaywrightTimeout):  # refused or overtaken: look again
            self.page.wait_for_function(
                "v => window.sequenceStacks.socket.version > v", arg=before, timeout=5_000
            )


def _choose(card: Locator) -> None:
    """Select a card of the hand, unless it is selected already (a tap on a selected card
    puts it back: after a move the server took more than 5 s to answer, the card chosen
    for it may still be the selection)."""
    if card.get_attribute("aria-pressed") != "true":
        card.click()


def _move(player: Player, moves: int) -> None:
    """One move of the player's turn: a steal if it can (after a screenshot of the
    choices), else a play, else a discard."""
    page = player.page
    end = page.locator("#choices button", has_text="End turn")
    if end.count():
        player.act(end.first.click)
        return
    for kind in ("SCARD", "SCHIP"):
        card = page.locator(f'#hand .card.playable[data-kind="{kind}"]')
        if card.count():
            _choose(card.first)
            player.shot(f"steal-{kind.lower()}", scroll_to="#choices")
            player.act(page.locator("#choices button.primary").first.click)
            return
    playable = page.locator("#hand .card.playable")
    if playable.count() and moves % 3:
        _choose(playable.first)
        player.act(page.locator("#choices button.primary").first.click)
        return
    _choose(page.locator("#hand .card:not([disabled])").first)
    player.act(page.locator("#choices button.discard").first.click)


def _play(player: Player) -> None:
    page = player.page
    for moves in range(3000):
        state = player.ui()
        view = state["view"]
        if state["status"] == "over":
            return
        if page.locator("#block-prompt").is_visible():
            player.shot("block-prompt", scroll_to="#block-prompt")
            if page.locator("#answer-pass").is_visible():
                player.act(lambda: click_if_still_there(page, "#answer-pass"))
            else:
                page.wait_for_timeout(50)  # no Block, nothing to tap (#24)
        elif view and view["phase"] == "playing" and view["current"] == state["you"]:
            if moves > 8:
                player.shot("mid-game")
            _move(player, moves)
        else:
            page.wait_for_timeout(50)
    raise AssertionError("the game did not end")


def test_every_word_on_the_pages_is_a_filled_message(
    server: ServerProcess, browser: Browser
) -> None:
    player = Player(browser)
    page = player.page
    try:
        page.goto(server.url + "/")
        page.select_option("#create select[name=players]", "2")
        page.click("summary")
        page.fill("input[name=chips_to_win]", "3")
        page.fill("input[name=min_each_colour]", "1")
        page.click("#create button[type=submit]")
        page.wait_for_url("**/t/*")
        page.fill("#join-name", "Ann")
        page.click("#join button")
        page.wait_for_selector("#start:not([hidden])")
        page.locator("#lobby-seats button", has_text="Add greedy bot").first.click()
        page.wait_for_selector(".lobby-seat.bot")
        player.shot("table-lobby")
        page.click("#start")
        page.wait_for_selector("#board:not([hidden])")
        _play(player)
        page.wait_for_selector("#result:not([hidden])")
        # The last move's steal or Block notice is taken away: it covered the result's words.
        assert not page.locator("#notice.event").is_visible(), "an event's notice over the result"
        player.shot("end")
        table_url = page.url
        page.goto(server.url + "/")
        page.wait_for_selector("#tables li")
        player.shot("lobby")
        page.goto(table_url.replace("/t/", "/replay/") + "/1")
        page.wait_for_selector("#replay-seats .seat")
        player.shot("replay")
        page.click("#first")
        page.wait_for_function("() => document.querySelector('#step').value === '0'")
        player.shot("replay-start")
    finally:
        player.context.close()
    assert {"table-lobby", "mid-game", "end", "lobby", "replay"} <= player.shots
    assert not player.problems, "\n".join(player.problems)
