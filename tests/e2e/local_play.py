"""Driving the game on one device (/local, #25) from the browser tests: a page with the
engine in its worker, its state as the page keeps it, saves written into its IndexedDB,
moves made through the UI (a hint, then its choice), and games prepared in Python."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from typing import Any, Final, Literal

import pytest
from playwright.sync_api import Browser, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from sequence_stacks.bots import HeuristicBot
from sequence_stacks.device import DeviceGame, Player
from sequence_stacks.engine import CARD_KIND, Kind, Phase, Settings, observe
from sequence_stacks.server.web.runtime import find_runtime

from .conftest import ARTIFACTS

__all__ = [
    "PHONE",
    "LocalTab",
    "holds_block",
    "needs_runtime",
    "prepared_game",
]

PHONE: Final = {"width": 390, "height": 844}

# The page's state as the tests read it.
_STATE: Final = """() => { const s = window.sequenceStacks; const g = s.game;
  return {view: g.view, viewer: g.viewer, holder: g.holder, busy: g.busy, version: g.version,
          players: g.table && g.table.players}; }"""

# What the page waits for now, once nothing is under way: the results, the hand-off, the
# table's Block prompt, or a person's move; null while bots play or a change is shown.
_WAITING: Final = """() => { const g = window.sequenceStacks.game;
  const shown = (selector) => !document.querySelector(selector).hidden;
  if (g.busy) return null;
  if (shown("#end")) return "end";
  if (shown("#handoff")) return "handoff";
  if (shown("#table-prompt")) return "prompt";
  const v = g.view;
  if (v && v.phase === "playing" && g.viewer !== null && v.deciders.includes(g.viewer)
      && shown("#hint")) return "turn";
  return null; }"""

_PUT_SAVE: Final = """async (save) => {
  const db = await new Promise((resolve, reject) => {
    const opened = indexedDB.open("sequence-stacks", 1);
    opened.addEventListener("upgradeneeded", () => opened.result.createObjectStore("games"));
    opened.addEventListener("success", () => resolve(opened.result));
    opened.addEventListener("error", () => reject(opened.error));
  });
  await new Promise((resolve, reject) => {
    const tx = db.transaction("games", "readwrite");
    if (save === null) tx.objectStore("games").delete("current");
    else tx.objectStore("games").put(save, "current");
    tx.addEventListener("complete", resolve);
    tx.addEventListener("error", () => reject(tx.error));
  });
  db.close();
}"""

_GET_SAVE: Final = """async () => {
  const db = await new Promise((resolve, reject) => {
    const opened = indexedDB.open("sequence-stacks", 1);
    opened.addEventListener("upgradeneeded", () => opened.result.createObjectStore("games"));
    opened.addEventListener("success", () => resolve(opened.result));
    opened.addEventListener("error", () => reject(opened.error));
  });
  const found = await new Promise((resolve, reject) => {
    const got = db.transaction("games").objectStore("games").get("current");
    got.addEventListener("success", () => resolve(got.result ?? null));
    got.addEventListener("error", () => reject(got.error));
  });
  db.close();
  return found;
}"""


def needs_runtime() -> None:
    """Skip without npm's pyodide (fail in CI, whose install fetches it)."""
    if find_runtime() is None:
        if os.environ.get("CI") == "true":
            pytest.fail("the Pyodide runtime is not installed (scripts/test runs npm ci)")
        pytest.skip("the Pyodide runtime is not installed: cd vendor && npm ci")


def holds_block(hand: Sequence[int]) -> bool:
    """True when a hand holds a Block card."""
    return any(CARD_KIND[card] == Kind.BLOCK for card in hand)


class LocalTab:
    """One browser context on /local, and the errors its page reported."""

    def __init__(
        self,
        browser: Browser,
        url: str,
        *,
        viewport: dict[str, int] = PHONE,
        init_script: str | None = None,
        **context: Any,
    ) -> None:
        self.url = url
        self.context = browser.new_context(viewport=viewport, accept_downloads=True, **context)  # type: ignore[arg-type]
        if init_script is not None:
            self.context.add_init_script(init_script)
        self.errors: list[str] = []
        # Requests not yet answered (the page's and its service worker's), for the
        # message of a page that does not load.
        self.pending: dict[Any, tuple[float, str]] = {}
        self.context.on("request", self._started)
        self.context.on("requestfinished", self._ended)
        self.context.on("requestfailed", self._ended)
        self.page: Page = self._new_page()

    def _started(self, request: Any) -> None:
        self.pending[request] = (time.monotonic(), f"{request.method} {request.url}")

    def _ended(self, request: Any) -> None:
        self.pending.pop(request, None)

    def _new_page(self) -> Page:
        page = self.context.new_page()
        page.on("pageerror", lambda error: self.errors.append(f"pageerror: {error}"))
        page.on(
            "console",
            lambda message: self.errors.append(message.text) if message.type == "error" else None,
        )
        return page

    def open(
        self, path: str = "/local", *, wait_until: Literal["domcontentloaded", "load"] = "load"
    ) -> None:
        try:
            self.page.goto(self.url + path, wait_until=wait_until)
        except PlaywrightTimeoutError as error:
            now = time.monotonic()
            waiting = [f"{now - at:.1f} s {what}" for at, what in self.pending.values()]
            raise AssertionError(f"{path} did not load; unanswered: {waiting}") from error

    def visit_again(self, path: str = "/local") -> None:
        """Close the page and come back in a new one (the same browser: its service
        worker, caches and saved game), as a person does the next day.

        Waits for the document and its scripts, not for the load event: with a new
        service worker installing (and fetching every file it keeps) beside a machine
        busy with other browsers, the load event was seen to wait past 30 s (in CI, and
        here under load; never on a quiet machine). What the page needs is checked by
        what comes next (:meth:`ready`); a page that does not even reach its scripts
        still fails, naming the requests left unanswered."""
        self.page.close()
        self.page = self._new_page()
        self.open(path, wait_until="domcontentloaded")

    def ready(self) -> dict[str, Any]:
        """Wait for the engine's start; what it says about it."""
        self.page.wait_for_selector("#players li")
        found: dict[str, Any] = self.page.evaluate(
            "async () => { for (;;) { const s = window.sequenceStacks; if (s && s.ready()) "
            "return await s.ready(); await new Promise((r) => setTimeout(r, 20)); } }"
        )
        return found

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        """Ask the page's engine directly (what a seat's view holds, a record)."""
        answer: dict[str, Any] = self.page.evaluate("r => window.sequenceStacks.ask(r)", request)
        return answer

    def state(self) -> dict[str, Any]:
        found: dict[str, Any] = self.page.evaluate(_STATE)
        return found

    def waiting(self, timeout: float = 30) -> str:
        """Wait until the page waits for someone at the table: what for."""
        deadline = time.monotonic() + timeout
        while True:
            found = self.page.evaluate(_WAITING)
            if found:
                return str(found)
            assert time.monotonic() < deadline, f"the page never waited for anyone: {self.state()}"
            self.page.wait_for_timeout(25)

    def wait_for(self, check: Callable[[], bool], what: str, timeout: float = 20) -> None:
        deadline = time.monotonic() + timeout
        while not check():
            assert time.monotonic() < deadline, f"waited {timeout}s in vain: {what}"
            self.page.wait_for_timeout(25)

    def set_up(self, rows: Sequence[tuple[str, str | None]], pace: str = "fast") -> None:
        """Fill the setup form (a name, or a bot) and start the game."""
        page = self.page
        page.wait_for_selector("#players li")
        while page.locator("#players li").count() < len(rows):
            page.click("#add-player")
        while page.locator("#players li").count() > len(rows):
            page.locator("#players li .remove").last.click()
        for index, (name, bot) in enumerate(rows):
            row = page.locator("#players li").nth(index)
            row.locator("select").select_option(bot or "")
            if bot is None:
                row.locator("input").fill(name)
        page.select_option("#pace", pace)
        page.click("#start")
        self.waiting()

    def put_save(self, save: dict[str, Any] | str | None) -> None:
        self.page.evaluate(_PUT_SAVE, save)

    def get_save(self) -> Any:
        return self.page.evaluate(_GET_SAVE)

    def play_hint(self) -> None:
        """Make the hinted move of the seat whose cards are shown, through the UI."""
        page = self.page
        before = self.state()["version"]
        page.keyboard.press("h")
        page.wait_for_selector("#choices button.hinted", timeout=10_000)
        page.locator("#choices button.hinted").first.click()
        self.wait_for(lambda: self.state()["version"] != before, "the move to be made")

    def nobody(self) -> None:
        """Tap "Nobody blocks", and wait until the window moved on."""
        key = self._window()
        self.page.click("#nobody-blocks")
        self.wait_for(lambda: self._window() != key, "the Block window to close")

    def _window(self) -> str:
        view = self.state()["view"]
        return f"{view['phase']}/{view['turn_count']}/{view['turn_actions']}/{view['window_pile']}"

    def shot(self, name: str) -> None:
        self.page.screenshot(path=str(ARTIFACTS / f"local-{name}.png"))


def prepared_game(
    players: Sequence[Player],
    until: Callable[[DeviceGame], bool],
    *,
    seeds: range = range(200),
    player_count: int | None = None,
) -> DeviceGame:
    """A game of ``players`` played by bots (the people's moves by a heuristic bot)
    until ``until`` holds, for the first seed that gets there."""
    count = player_count or len(players)
    for seed in seeds:
        game = DeviceGame(Settings(player_count=count), seed, players)
        stand_ins = {seat: HeuristicBot(seed=seed + seat) for seat in range(count)}
        while game.state.result is None and not until(game):
            seat = game.state.deciders()[0]
            if seat in game.bots:
                game.bot_move(seat, None)
            else:
                action = stand_ins[seat].choose(observe(game.state, seat))
                game.act(seat, game.space.id_of(action, seat), None)
        if until(game):
            return game
    raise AssertionError("no seed gave the game wanted")


def asked_people(game: DeviceGame) -> list[int]:
    """The people a game's open Block window asks (none when no window is open)."""
    if game.state.phase != Phase.BLOCK_WINDOW:
        return []
    return [seat for seat in game.state.deciders() if game.players[seat].bot is None]
