"""Playing through the browser's UI, shared by the browser game tests: a page and the
WebSocket frames it received, one move or Block-window answer at a time, and the
check that no frame showed a card its seat may not see (R36)."""

from __future__ import annotations

import json
import time
from typing import Any

from playwright.sync_api import Browser, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from sequence_stacks.server import Storage
from sequence_stacks.server.play.audit import card_ids, frame_leaks, hidden_history

from .conftest import ARTIFACTS

__all__ = [
    "Tab",
    "act_and_wait",
    "answer_window",
    "assert_no_leaks",
    "click_if_still_there",
    "pass_window",
    "step",
    "wait_until",
]


def wait_until(page: Page, check: str, timeout: float = 30, poll_ms: int = 50) -> None:
    """Poll ``check`` (a JavaScript function) until it is true: the pages' CSP forbids
    the eval that Playwright's wait_for_function needs."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(check):
        assert time.monotonic() < deadline, f"waited {timeout}s in vain for {check}"
        page.wait_for_timeout(poll_ms)


class Tab:
    """One browser page and every WebSocket frame it received."""

    def __init__(self, browser: Browser, name: str, viewport: dict[str, int]) -> None:
        self.name = name
        self.context = browser.new_context(viewport=viewport)  # type: ignore[arg-type]
        self.page: Page = self.context.new_page()
        self.frames: list[str] = []
        self.sockets = 0
        self.errors: list[str] = []
        self.page.on("websocket", self._watch)
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))

    def _watch(self, websocket: Any) -> None:
        self.sockets += 1
        websocket.on("framereceived", self._frame)

    def _frame(self, payload: str | bytes) -> None:
        self.frames.append(payload if isinstance(payload, str) else payload.decode())

    def ui(self) -> dict[str, Any]:
        data: dict[str, Any] = self.page.evaluate(
            "() => { const s = window.sequenceStacks; return {you: s.game.you, view: s.game.view,"
            " table: s.game.table, version: s.socket.version}; }"
        )
        return data

    def shot(self, name: str) -> None:
        self.page.screenshot(path=str(ARTIFACTS / f"e2e-{name}.png"))

    def sit(self, name: str) -> None:
        self.page.fill("#join-name", name)
        self.page.click("#join button")
        self.page.wait_for_selector("#start:not([hidden])")

    def wait_online(self, timeout: float = 20_000) -> None:
        self.page.wait_for_selector('#connection[data-state="online"]', timeout=timeout)


def act_and_wait(tab: Tab, click: Any) -> bool:
    """Click something that sends an action; wait until the page's version moves on."""
    before = tab.ui()["version"]
    click()
    try:
        tab.page.wait_for_function(
            "v => window.sequenceStacks.socket.version > v", arg=before, timeout=5_000
        )
    except PlaywrightTimeout:
        return False  # refused (the table moved on) or the server went away: look again
    return True


def step(tab: Tab, *, starts_piles: bool) -> bool:
    """Make one move through the UI if this page has one to make. True if it acted."""
    page = tab.page
    state = tab.ui()
    view = state["view"]
    if not view or view["result"] or view["phase"] != "playing" or view["current"] != state["you"]:
        return False
    end = page.locator("#choices button", has_text="End turn")
    if end.count():
        return act_and_wait(tab, end.first.click)
    if starts_piles:  # start piles (never complete them: the bots do, so both are asked)
        cards = page.locator("#hand .card.playable")
        for index in range(cards.count()):
            cards.nth(index).click()
            start = page.locator("#choices button", has_text="Start a new")
            if start.count():
                return act_and_wait(tab, start.first.click)
            page.keyboard.press("Escape")
    page.locator("#hand .card:not([disabled])").first.click()
    discard = page.locator("#choices button", has_text="Discard")
    try:
        discard.first.wait_for(timeout=5_000)
    except PlaywrightTimeout:
        # A frame drew the hand anew under the click (a reconnect, the turn moving on),
        # or the click took a selection away: start from no selection and look again.
        page.keyboard.press("Escape")
        return False
    return act_and_wait(tab, discard.first.click)


def answer_window(tabs: list[Tab]) -> bool | None:
    """If a Block window asks either player: check that when one is asked the other (if
    asked too) sees the same prompt, then pass for both. None if no window asks them,
    else whether it asked both. Players answer only here, after the check, so a window
    cannot open and close between two looks (a race that once hid every window)."""
    states = [tab.ui() for tab in tabs]
    asked = [
        s["view"] is not None
        and s["view"]["phase"] == "block_window"
        and s["you"] in s["view"]["window_pending"]
        for s in states
    ]
    if not any(asked):
        return None
    view = next(s["view"] for s, a in zip(states, asked, strict=True) if a)
    both = all(s["you"] in view["window_pending"] for s in states)
    for tab, state in zip(tabs, states, strict=True):
        if state["you"] in view["window_pending"]:
            # The prompt shows, unless the window's time ran out before the page was
            # looked at again (a fast table's window is a few seconds).
            tab.page.wait_for_function(
                "() => !document.querySelector('#block-prompt').hidden"
                " || window.sequenceStacks.game.view.phase !== 'block_window'",
                timeout=5_000,
            )
    return both


def pass_window(tabs: list[Tab]) -> None:
    """Each asked player who has not answered yet passes. Answers are held until the
    window's whole time is up (docs/rules-notes.md N19): the prompt then says so and
    its buttons go, and the page's version moves on at the window's end."""
    for tab in tabs:
        if tab.page.locator("#answer-pass").is_visible():
            act_and_wait(tab, lambda page=tab.page: click_if_still_there(page, "#answer-pass"))


def click_if_still_there(page: Any, selector: str) -> None:
    """Click ``selector`` unless it goes before it can be clicked: a Block window can end
    (its time is up, a bot blocked) between looking at the button and clicking it."""
    try:
        page.click(selector, timeout=3_000)
    except PlaywrightTimeout:
        if page.locator(selector).is_visible():
            raise  # still there and still not clickable: that is a fault, not a race


def assert_no_leaks(
    storage: Storage, table_id: str, tabs: dict[int | None, Tab], pages: list[str]
) -> None:
    """The game is over in ``storage``; each tab saw it to the end and no frame it got
    (nor any of the ``pages`` given as HTML) shows a card its seat may not see."""
    row = storage.table(table_id)
    assert row is not None
    assert row.status == "over"
    entries = storage.entries(table_id)
    for seat, tab in tabs.items():
        history, seeds = hidden_history(row, entries, seat)
        frames = [json.loads(raw) for raw in tab.frames]
        versions = [f["version"] for f in frames if f["type"] in ("sync", "update")]
        assert max(versions) == len(entries), tab.name  # it saw the game to the end
        for frame, raw in zip(frames, tab.frames, strict=True):
            assert frame_leaks(frame, history, seeds=seeds, raw=raw) == [], tab.name
        if seat is not None:  # the check is not vacuous: own cards did arrive
            assert card_ids(frames)
    for page in pages:
        assert not card_ids(page)
        assert not any(seed in page for seed in seeds)
