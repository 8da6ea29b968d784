"""Snapshots of the main screens, as the text a terminal shows (seeded, 120x40).

Regenerate after a deliberate change of the layout with::

    UPDATE_TUI_SNAPSHOTS=1 pytest tests/tui/test_snapshots.py

which rewrites ``tests/tui/snapshots/*.txt`` and the SVG screenshots in ``docs/img/``
that ``docs/terminal.md`` shows. Review the diff like any other change.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot

from sequence_stacks.tui import GameSession
from sequence_stacks.tui.app import PlayApp

from .helpers import make_app, make_session, screen_text, settle, wait_for
from .positions import session_at_block_prompt

SNAPSHOTS = Path(__file__).parent / "snapshots"
DOCS_IMG = Path(__file__).resolve().parents[2] / "docs" / "img"
UPDATE = os.environ.get("UPDATE_TUI_SNAPSHOTS") == "1"
SIZE = (120, 40)

Steps = Callable[[Pilot[int], PlayApp], Awaitable[None]]


async def _nothing(pilot: Pilot[int], app: PlayApp) -> None:
    return None


async def _pick_first_card(pilot: Pilot[int], app: PlayApp) -> None:
    await pilot.press("1")


async def _help(pilot: Pilot[int], app: PlayApp) -> None:
    await pilot.press("question_mark")


async def _hand_over(pilot: Pilot[int], app: PlayApp) -> None:
    await pilot.press("enter")  # Player 1 takes the keyboard first
    await settle(pilot, app)
    await pilot.press("1", "x")
    await settle(pilot, app)


async def _replay(pilot: Pilot[int], app: PlayApp) -> None:
    await pilot.press("r")
    await wait_for(pilot, lambda: type(app.screen).__name__ == "ReplayScreen")
    await pilot.press("right", "right", "right")


def _snapshot(name: str, session: GameSession, steps: Steps, tmp_path: Path) -> str:
    app = make_app(session, tmp_path)
    shot: list[str] = []

    async def body() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await steps(pilot, app)
            await app.screen.wait_for_refresh()
            await pilot.pause()
            shot.append(screen_text(app))
            if UPDATE and name in {"main", "targets", "block"}:
                app.save_screenshot(filename=f"play-{name}.svg", path=str(DOCS_IMG))

    asyncio.run(body())
    return "\n".join(line.rstrip() for line in shot[0].splitlines()) + "\n"


CASES: dict[str, tuple[Callable[[], GameSession], Steps]] = {
    "main": (lambda: make_session(players=4, seed=17, bot="greedy"), _nothing),
    "targets": (lambda: make_session(players=3, seed=5), _pick_first_card),
    "help": (lambda: make_session(players=2, seed=5), _help),
    "block": (lambda: session_at_block_prompt(holding_block=True), _nothing),
    "handoff": (lambda: make_session(players=2, humans=2, seed=5), _hand_over),
    "summary": (
        lambda: make_session(players=2, humans=0, seed=9, options=["max_turns=12"]),
        _nothing,
    ),
    "replay": (
        lambda: make_session(players=2, humans=0, seed=9, options=["max_turns=12"]),
        _replay,
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_screen_matches_its_snapshot(name: str, tmp_path: Path) -> None:
    make, steps = CASES[name]
    text = _snapshot(name, make(), steps, tmp_path)
    path = SNAPSHOTS / f"{name}.txt"
    if UPDATE:
        SNAPSHOTS.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no snapshot {path.name}: run with UPDATE_TUI_SNAPSHOTS=1"
    assert text == path.read_text(encoding="utf-8")
