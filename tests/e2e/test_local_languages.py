"""The game on one device (#25) in each of the six languages: its setup, the hand-off,
a person's turn, the table's Block prompt with a refused claim, and the results, each
looked at phone and desktop size with the checks of test_languages.py (``<html lang>``,
nothing overflowing, no word broken across lines, no message key, placeholder or
English left, every script drawn with real glyphs)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, FloatRect

from sequence_stacks.device import DeviceGame, Player
from sequence_stacks.engine import Phase
from sequence_stacks.i18n.languages import LANGUAGES

from .conftest import FAST_BOTS, NO_LIMITS, ServerProcess, running_server
from .local_play import asked_people, holds_block, needs_runtime, prepared_game
from .test_languages import Reader

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]

PLAYERS = [Player("Ann"), Player("Ben"), Player("Cy"), Player("Greedy bot 4", "greedy")]


@pytest.fixture(scope="module")
def local_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with running_server(tmp_path_factory.mktemp("local-lang"), {**FAST_BOTS, **NO_LIMITS}) as found:
        yield found


@pytest.fixture(scope="module")
def saves() -> dict[str, dict[str, Any]]:
    """Games to open the page at: a person's turn, a Block window asking a person with
    no Block, the end."""

    def turn(game: DeviceGame) -> bool:
        seat = game.state.deciders()[0]
        return game.version > 12 and game.state.phase == Phase.PLAYING and seat < 3

    def window(game: DeviceGame) -> bool:
        return any(not holds_block(game.state.hands[seat]) for seat in asked_people(game))

    def over(game: DeviceGame) -> bool:
        return game.state.result is not None

    return {
        name: prepared_game(PLAYERS, until).save()
        for name, until in (("turn", turn), ("window", window), ("over", over))
    }


def _open(reader: Reader, save: dict[str, Any] | None) -> None:
    page = reader.page
    if save is not None:
        page.evaluate(
            """async (save) => {
              const db = await new Promise((resolve) => {
                const opened = indexedDB.open("sequence-stacks", 1);
                const store = () => opened.result.createObjectStore("games");
                opened.addEventListener("upgradeneeded", store);
                opened.addEventListener("success", () => resolve(opened.result));
              });
              const tx = db.transaction("games", "readwrite");
              tx.objectStore("games").put(save, "current");
              await new Promise((resolve) => tx.addEventListener("complete", resolve));
              db.close();
            }""",
            save,
        )
    reader.goto("/local")
    page.evaluate(
        "async () => { for (;;) { const s = window.sequenceStacks; if (s && s.ready()) "
        "return await s.ready(); await new Promise((r) => setTimeout(r, 20)); } }"
    )


def _settled(reader: Reader, selector: str) -> None:
    reader.page.wait_for_selector(selector, timeout=20_000)
    reader.page.wait_for_function("() => !window.sequenceStacks.game.busy")


def _box(reader: Reader, selector: str) -> FloatRect:
    found = reader.page.locator(selector).bounding_box()
    assert found is not None, selector
    return found


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_game_on_one_device_in_each_language(
    browser: Browser,
    local_server: ServerProcess,
    saves: dict[str, dict[str, Any]],
    language: str,
    tmp_path: Path,
) -> None:
    needs_runtime()
    reader = Reader(browser, language, local_server)
    reader.context.add_cookies([{"name": "lang", "value": language, "url": local_server.url}])
    _open(reader, None)
    # Start close under the players and the pace, its word beside its menu: the form's
    # empty notes leave no blank band.
    row, start = _box(reader, ".setup-row"), _box(reader, "#start")
    assert start["y"] - (row["y"] + row["height"]) < 48, (row, start)
    word, menu = _box(reader, ".setup-row .pace span"), _box(reader, "#pace")
    middle = abs((word["y"] + word["height"] / 2) - (menu["y"] + menu["height"] / 2))
    assert middle < 4, (word, menu)
    reader.screen("local-setup", "#setup-form")
    _open(reader, saves["turn"])
    _settled(reader, "#handoff:not([hidden])")
    reader.screen("local-handoff", "#handoff-show")
    reader.page.click("#handoff-show")
    _settled(reader, "#hand .card")
    reader.screen("local-board", "#hand")
    _open(reader, saves["window"])
    _settled(reader, "#table-prompt:not([hidden])")
    reader.screen("local-prompt", "#table-prompt")
    window = saves["window"]
    game = DeviceGame.load(window)
    seat = next(s for s in asked_people(game) if not holds_block(game.state.hands[s]))
    reader.page.click(f'#table-prompt .claim[data-seat="{seat}"]')
    _settled(reader, "#notice:not([hidden])")
    # It hides itself after 6 s; the screens (desktop then phone) may take longer on a
    # loaded machine, so it stays until it is clicked (as the table page's test does).
    reader.page.evaluate("window.sequenceStacks.notice.keep()")
    reader.screen("local-refused-claim", "#notice")
    _open(reader, saves["over"])
    _settled(reader, "#end:not([hidden])")
    reader.screen("local-end", "#end")
    assert not reader.problems, "\n".join(reader.problems)
    assert not reader.broken, "\n".join(reader.broken)
