"""Real-browser play: two people in separate browser contexts and two bots play a whole
game through the UI, with a dropped socket and a SIGKILLed server on the way, while
every WebSocket frame each page receives is checked for cards it must not see (R36)."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Browser

from sequence_stacks.server import SqliteStorage

from .conftest import ServerProcess
from .play import Tab, answer_window, assert_no_leaks, pass_window, step

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(240)]

DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}
GAME_SECONDS = 150.0  # the whole test has 240 s


def _play(
    tabs: list[Tab], server: ServerProcess, spectator: Tab, seconds: float = GAME_SECONDS
) -> tuple[int, bool, bool]:
    ann, bob = tabs
    windows = moves = 0
    dropped = killed = False
    # A time limit, not a count of looks: the bots' own delays decide how many looks a
    # game takes, and a fast machine looks more often (a count once ran out mid-game).
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if all(tab.ui()["table"]["status"] == "over" for tab in tabs):
            return windows, dropped, killed
        both = answer_window(tabs)
        if both:
            windows += 1
            if windows == 1:
                ann.shot("block-prompt-ann")
                bob.shot("block-prompt-bob")
        if both is not None:
            pass_window(tabs)
            continue
        acted = step(ann, starts_piles=False) | step(bob, starts_piles=True)
        moves += acted
        if not acted:
            ann.page.wait_for_timeout(30)  # the bots' turns: look again shortly
        # Early in the game, so that no short deal ends it first (seen as a flaky CI run).
        if moves >= 2 and not dropped:
            dropped = True
            sockets = bob.sockets
            bob.page.evaluate("window.sequenceStacks.dropSocket()")
            bob.page.wait_for_function(
                "() => window.sequenceStacks.socket.ws.readyState === 1"
                " && document.querySelector('#connection').dataset.state === 'online'"
            )
            assert bob.sockets == sockets + 1  # it reconnected by itself
            spectator.shot("phone-spectator")
        if moves >= 4 and not killed:
            killed = True
            ann.shot("before-kill")
            server.kill()
            ann.page.wait_for_selector('#connection[data-state="reconnecting"]', timeout=10_000)
            ann.shot("reconnecting")
            server.start()
            for tab in (*tabs, spectator):
                tab.wait_online()
    raise AssertionError(f"the game did not end in {seconds:.0f} s ({moves} moves)")


def test_two_players_and_bots_play_a_game_to_the_end_in_browsers(
    server: ServerProcess, browser: Browser
) -> None:
    ann = Tab(browser, "ann", DESKTOP)
    bob = Tab(browser, "bob", DESKTOP)
    spectator = Tab(browser, "spectator", PHONE)
    ann.page.goto(server.url + "/")
    ann.shot("lobby")
    ann.page.select_option("#create select[name=players]", "4")
    ann.page.click("summary")
    ann.page.fill("input[name=chips_to_win]", "3")
    ann.page.fill("input[name=min_each_colour]", "1")
    ann.page.click("#create button[type=submit]")
    ann.page.wait_for_url("**/t/*")
    table_url = ann.page.url
    table_id = table_url.rsplit("/", 1)[1]
    ann.sit("Ann")
    bob.page.goto(table_url)
    bob.sit("Bob")
    spectator.page.goto(table_url)
    spectator.wait_online()
    ann.page.locator("#lobby-seats button", has_text="Add greedy bot").first.click()
    ann.page.wait_for_selector(".lobby-seat.bot")
    ann.shot("table-lobby")
    ann.page.click("#start")
    for tab in (ann, bob, spectator):
        tab.page.wait_for_selector("#board:not([hidden])")
    assert (ann.ui()["you"], bob.ui()["you"], spectator.ui()["you"]) == (0, 1, None)
    ann.shot("board")
    windows, dropped, killed = _play([ann, bob], server, spectator)
    assert windows >= 1, "no Block window asked both players"
    assert dropped, "the game ended before the socket was dropped"
    assert killed, "the game ended before the server was killed"
    for tab in (ann, bob, spectator):
        tab.page.wait_for_selector("#result:not([hidden])")
    ann.shot("result")
    spectator.shot("phone-result")
    assert spectator.page.locator("#hand-area").is_hidden()
    assert all(not tab.errors for tab in (ann, bob, spectator)), [t.errors for t in (ann, bob)]

    # Replay page: the game is over, so every hand is shown.
    ann.page.goto(f"{server.url}/replay/{table_id}/1")
    ann.page.wait_for_selector("#replay-seats .seat")
    assert "every hand is shown" in ann.page.inner_text("#replay-note")
    ann.shot("replay")

    _assert_no_leaks(server, table_id, {0: ann, 1: bob, None: spectator})


def _assert_no_leaks(server: ServerProcess, table_id: str, tabs: dict[int | None, Tab]) -> None:
    storage = SqliteStorage(str(server.database))
    try:
        pages = [server.get(path) for path in ("/", f"/t/{table_id}", f"/replay/{table_id}/1")]
        assert_no_leaks(storage, table_id, tabs, pages)
    finally:
        storage.close()
