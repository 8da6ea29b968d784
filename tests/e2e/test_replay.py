"""The replay page in a real browser (#15), at phone (390x844) and desktop (1366x768)
size, on a game Python played to the end at machine speed over the table WebSocket.

The page opens at step 0 (the deal); a move clicked in the list (grouped by turn) is
the step shown, highlighted and in view inside the list; the arrow keys, Home and End
move it; Space plays and pauses; autoplay at the fastest speed runs to the end and
stops there, where the final standings are shown. At every step looked at, the board's
counts (draw pile, played actions, set aside, each pile's cards and the number it needs
next, each seat's hand size, discard pile and chips by colour) are the replay API's view
of that step. Nothing is wider than the screen, every control is at least 44 px, and
no icon is a character a font may lack. Screenshots: artifacts/replay-<size>-*.png.
The replay of a game still running shows a spectator no hand and no dealt card, and a
seat its own hand and deal only.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any, Final

import pytest
from playwright.sync_api import Browser, Page

from .conftest import ARTIFACTS, ServerProcess
from .seat_sockets import PythonTable

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]

SIZES: Final = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 768}}
SHORT_GAME: Final = {"player_count": 3, "chips_to_win": 2, "min_each_colour": 1}
SEQUENCE_LENGTH: Final = 5


def _choose(legal: list[str], rng: random.Random) -> str:
    """A play when there is one, else the end of the turn (a discard if need be)."""
    plays = [a for a in legal if a not in ("pass", "block", "end") and not a.startswith("disc")]
    if plays:
        return rng.choice(plays)
    return "end" if "end" in legal else rng.choice([a for a in legal if a.startswith("discard")])


def _play_to_the_end(table: PythonTable, limit: int = 3000) -> None:
    """Start the game and play every seat until it is over; Block windows are passed."""
    table.seats[0].command("start")
    for _ in range(limit):
        table.settle()
        first = table.seats[0]
        assert first.view is not None
        if first.table["status"] == "over":
            return
        view = first.view
        if view["phase"] == "block_window":
            table.pass_window()
            continue
        seat = table.seats[view["current"]]
        seat.command("act", action=_choose(seat.legal(), table.rng))
    raise AssertionError("the game did not end")


@pytest.fixture
def finished(server: ServerProcess) -> Iterator[str]:
    """A table whose first game is over; its id."""
    table = PythonTable(server, SHORT_GAME, ["Ann", "Bob", "Cyd"])
    try:
        _play_to_the_end(table)
        yield table.table_id
    finally:
        table.close()


def _api(server: ServerProcess, table_id: str, step: int | None = None) -> dict[str, Any]:
    query = "" if step is None else f"?step={step}"
    data: dict[str, Any] = json.loads(server.get(f"/api/tables/{table_id}/games/1{query}"))
    return data


# What the page shows, read back: the numbers of every count on the board.
READ_BOARD: Final = """() => {
  const text = (el) => el.textContent.trim();
  const all = (root, selector) => [...root.querySelectorAll(selector)];
  return {
    step: Number(document.querySelector("#step").value),
    draw: text(document.querySelector("#draw-count")),
    special: text(document.querySelector("#special-count")),
    pool: text(document.querySelector("#pool-count")),
    piles: all(document, "#replay-piles .pile").map((pile) => ({
      cards: pile.querySelectorAll(".stack .card").length,
      count: text(pile.querySelector(".caption .count")),
      need: text(pile.querySelector(".need")),
    })),
    seats: all(document, "#replay-seats .seat").map((seat) => ({
      hand: text(seat.querySelector(".mini-hand .count")),
      discard: text(seat.querySelector(".discard .count")),
      chips: all(seat, ".chips .chip").map(text),
    })),
  };
}"""


def _expected_board(view: dict[str, Any], step: int) -> dict[str, Any]:
    def need(count: int) -> str:
        if not count:
            return ""
        return "complete" if count >= SEQUENCE_LENGTH else f"needs {count + 1}"

    return {
        "step": step,
        "draw": str(view["draw_size"]),
        "special": str(len(view["special"])),
        "pool": str(len(view["pool"])),
        "piles": [
            {"cards": len(pile), "count": f"{len(pile)}/5", "need": need(len(pile))}
            for pile in view["piles"]
        ],
        "seats": [
            {
                "hand": str(size),
                "discard": str(len(view["discards"][seat])),
                "chips": [str(count) for count in view["chips"][seat]],
            }
            for seat, size in enumerate(view["hand_sizes"])
        ],
    }


class Replay:
    """One replay page at one size and what went wrong on it."""

    def __init__(self, browser: Browser, server: ServerProcess, table_id: str, size: str):
        self.server = server
        self.table_id = table_id
        self.size = size
        self.context = browser.new_context(viewport=SIZES[size])  # type: ignore[arg-type]
        self.page: Page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on(
            "console",
            lambda message: self.errors.append(message.text) if message.type == "error" else None,
        )

    def open(self) -> None:
        self.page.goto(f"{self.server.url}/replay/{self.table_id}/1?lang=en")
        self.page.wait_for_selector("#moves .move.current")

    def shot(self, name: str) -> None:
        self.page.screenshot(path=str(ARTIFACTS / f"replay-{self.size}-{name}.png"))

    def at(self, step: int) -> None:
        """Wait until step ``step`` is shown; its board's counts are the API's."""
        self.page.wait_for_function(
            "s => document.querySelector('#step').value === String(s)"
            " && document.querySelector('.move.current')?.dataset.step === String(s)",
            arg=step,
        )
        view = _api(self.server, self.table_id, step)["view"]
        assert self.page.evaluate(READ_BOARD) == _expected_board(view, step), f"step {step}"

    def current_in_view(self) -> None:
        """The highlighted move is inside the list's visible part."""
        inside = self.page.evaluate(
            """() => {
              const list = document.querySelector("#moves").getBoundingClientRect();
              const move = document.querySelector("#moves .move.current").getBoundingClientRect();
              return move.top >= list.top - 1 && move.bottom <= list.bottom + 1;
            }"""
        )
        assert inside, "the current move is scrolled out of the list"

    def fits(self) -> None:
        """Nothing wider than the screen; every control and move at least 44 px."""
        page = self.page
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= SIZES[self.size]["width"], f"{self.size}: the page is {width}px wide"
        small = page.evaluate(
            """() => [...document.querySelectorAll(
                ".controls button, .controls select, .controls input, #moves .move")]
              .filter((el) => el.offsetParent !== null)
              .map((el) => [el.id || el.className, el.getBoundingClientRect()])
              .filter(([, box]) => box.height < 44 || (box.width < 44))
              .map(([name, box]) => `${name}: ${box.width}x${box.height}`)"""
        )
        assert not small, f"{self.size}: tap targets under 44 px: {small[:5]}"

    def icons_are_drawn(self) -> None:
        """The control buttons hold an SVG each and no text a font would have to draw."""
        found = self.page.evaluate(
            """() => ["first", "prev", "play", "next", "last"].map((id) => {
              const button = document.getElementById(id);
              return [button.querySelectorAll("svg").length, button.textContent.trim()];
            })"""
        )
        assert found == [[1, ""]] * 5, found

    def value(self) -> str:
        step: str = self.page.evaluate("() => document.querySelector('#step').value")
        return step

    def click_move(self, step: int) -> None:
        self.page.locator(f'#moves .move[data-step="{step}"]').click()
        self.at(step)

    def check_keys(self, chosen: int, total: int) -> None:
        """Right, Left, End, Home; none while the speed menu has the focus."""
        page = self.page
        page.keyboard.press("ArrowRight")
        self.at(chosen + 1)
        page.keyboard.press("ArrowLeft")
        page.keyboard.press("ArrowLeft")
        self.at(chosen - 1)
        page.keyboard.press("End")
        self.at(total)
        self.current_in_view()
        page.keyboard.press("Home")
        self.at(0)
        page.focus("#speed")
        page.keyboard.press("ArrowRight")
        page.wait_for_timeout(300)
        assert self.value() == "0"

    def check_space(self) -> None:
        """Space plays and pauses, even with a move button focused (no click of it)."""
        page = self.page
        page.select_option("#speed", "0.5")
        page.locator('#moves .move[data-step="3"]').click()
        page.keyboard.press("ArrowRight")
        self.at(4)
        page.keyboard.press("Space")
        assert page.get_attribute("#play", "aria-pressed") == "true"
        assert page.get_attribute("#play", "aria-label") == "Pause"
        page.keyboard.press("Space")
        assert page.get_attribute("#play", "aria-pressed") == "false"
        assert self.value() == "4"

    def check_autoplay(self, start: int, total: int) -> None:
        """At the fastest speed from ``start``: every step in turn, stopping at the end."""
        page = self.page
        self.click_move(start)
        page.select_option("#speed", "4")
        page.evaluate(WATCH_STEPS)
        page.click("#play")
        page.wait_for_function(
            "() => document.querySelector('#play').getAttribute('aria-pressed') === 'false'",
            timeout=30_000,
        )
        self.at(total)
        seen = [int(step) for step in page.evaluate("() => window.seenSteps")]
        assert seen == list(range(start + 1, total + 1)), seen
        self.current_in_view()


# Every step the page shows from now on, in order.
WATCH_STEPS: Final = """() => {
  window.seenSteps = [];
  const seen = () => window.seenSteps.push(document.querySelector("#step").value);
  new MutationObserver(seen).observe(document.querySelector("#step-label"), { childList: true });
}"""


@pytest.mark.parametrize("size", list(SIZES))
def test_the_replay_opens_at_the_deal_and_steps_by_list_keys_and_autoplay(
    server: ServerProcess, browser: Browser, finished: str, size: str
) -> None:
    final = _api(server, finished)
    total = final["steps"]
    assert total >= 12, total  # a game of 2 chips: a few dozen steps
    replay = Replay(browser, server, finished, size)
    page = replay.page
    try:
        replay.open()
        replay.at(0)  # the deal
        assert page.url.endswith("#0")
        assert page.inner_text("#turn .text") == "Ann's turn"
        heads = page.locator("#moves .turn-head").all_inner_texts()
        assert heads[:2] == ["The deal", "Turn 1: Ann."]
        replay.icons_are_drawn()
        replay.fits()
        replay.shot("start")

        # A move clicked in the list: that step, highlighted, in view in the list.
        chosen = total // 2
        replay.click_move(chosen)
        replay.current_in_view()
        assert page.locator("#moves .move.current .line").all_inner_texts()
        replay.shot("move")

        replay.check_keys(chosen, total)
        replay.check_space()
        replay.check_autoplay(max(5, total - (8 if size == "phone" else 16)), total)

        # The last step: the final standings, as the table ranks them.
        standings = final["standings"]
        assert standings
        names = ["Ann", "Bob", "Cyd"]
        rows = page.locator("#result .standings-table tbody th").all_inner_texts()
        assert rows == [names[row["seat"]] for row in standings]
        replay.fits()
        page.locator("#result").scroll_into_view_if_needed()
        replay.shot("end")
        assert not replay.errors, replay.errors
    finally:
        replay.context.close()


def test_a_running_game_s_replay_shows_the_asker_only_what_they_may_see(
    server: ServerProcess, browser: Browser
) -> None:
    """A spectator sees no hand and no dealt card; a seat sees its own, and only those."""
    table = PythonTable(server, SHORT_GAME, ["Ann", "Bob", "Cyd"])
    try:
        table.seats[0].command("start")
        for _ in range(6):
            table.settle()
            view = table.seats[0].view
            assert view is not None
            if view["phase"] == "block_window":
                break
            seat = table.seats[view["current"]]
            seat.command("act", action=_choose(seat.legal(), table.rng))
        table.settle()
        for token, hands in ((None, 0), (table.tokens[0], 1)):
            replay = Replay(browser, server, table.table_id, "desktop")
            if token is not None:
                key = f"sequence-stacks:token:{table.table_id}"
                replay.context.add_init_script(f"localStorage.setItem({key!r}, {token!r})")
            try:
                replay.open()
                note = "you see only your own hand" if token else "you see what a spectator sees"
                assert note in replay.page.inner_text("#replay-note")
                assert replay.page.locator("#replay-seats .hand").count() == hands
                deal = replay.page.locator('#moves .move[data-step="0"] .line').all_inner_texts()
                shown = [line.startswith("Ann") and ":" in line for line in deal]
                assert shown == [token is not None, False, False], deal
                assert not replay.errors, replay.errors
            finally:
                replay.context.close()
    finally:
        table.close()
