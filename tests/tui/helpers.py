"""Shared helpers for the terminal-play tests: sessions, a pilot driver, screen text."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from pathlib import Path

from rich.console import Console
from textual.pilot import Pilot

from sequence_stacks.bots import make_bot
from sequence_stacks.engine import Action, ActionType, Phase, Settings, View, action_space
from sequence_stacks.tui import HUMAN, BotPlayer, GameSession, SeatSpec
from sequence_stacks.tui.app import PlayApp
from sequence_stacks.tui.choices import sources, targets


class FirstLegalBot:
    """A rule-free test bot: takes the lowest legal action id (passes, or discards)."""

    name = "first"

    def choose(self, view: View) -> Action:
        """Return the action with the lowest legal id."""
        assert view.seat is not None
        space = action_space(view.settings.player_count, view.settings.piles_per_colour)
        return space.action(view.legal_action_ids[0], view.seat)


def make_session(
    *,
    players: int = 2,
    humans: int = 1,
    bot: str = "greedy",
    seed: int | str = 1,
    options: Sequence[str] = (),
    actions: Sequence[tuple[int, Action]] = (),
) -> GameSession:
    """Return a session with ``humans`` human seats first and bots in the rest."""
    settings = Settings.from_options(options, player_count=players)
    seats = [SeatSpec(HUMAN)] * humans + [SeatSpec(bot)] * (players - humans)
    bots: dict[int, BotPlayer] = {
        seat: FirstLegalBot() if bot == "first" else make_bot(bot, seed=seat)
        for seat in range(humans, players)
    }
    return GameSession(settings, seed, seats, bots, actions=actions)


def make_app(session: GameSession, tmp_path: Path) -> PlayApp:
    """Return the Textual app on ``session`` with instant bots and a save file in tmp."""
    return PlayApp(session, bot_delay=0.0, save_path=tmp_path / "save.json")


def screen_text(app: PlayApp) -> str:
    """Return what the terminal shows now, as plain text (the screenshot without styles)."""
    width, height = app.size
    console = Console(
        width=width, height=height, file=io.StringIO(), record=True, legacy_windows=False
    )
    console.print(
        app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    )
    return console.export_text()


async def settle(pilot: Pilot[int], app: PlayApp, *, limit: int = 2000) -> None:
    """Let bots and screens run until a human must press a key (or the game is over)."""
    for _ in range(limit):
        await pilot.pause()
        if app.is_waiting_for_human:
            await app.screen.wait_for_refresh()  # the screen shown is fully drawn
            await pilot.pause()
            return
    raise AssertionError("the app never came back to a human")


async def wait_for(pilot: Pilot[int], check: Callable[[], bool], *, limit: int = 500) -> None:
    """Pause the pilot until ``check()`` holds."""
    for _ in range(limit):
        if check():
            return
        await pilot.pause()
    raise AssertionError("condition never became true")


def keys_for_turn(app: PlayApp) -> list[str]:
    """Return the keys a simple human presses now: a legal play if any, else a discard.

    Reads only the same view and choice lists the screen shows: it picks the first card
    that has a legal play and presses that target's number, or discards the first card.
    """
    view = app.view()
    if view.phase == Phase.BLOCK_WINDOW:
        return ["p"]
    shown = sources(view)
    if not shown:
        return ["e"]
    space = app.session.space
    for source in shown:
        found = targets(view, space, source)
        for number, target in enumerate(found[:9], start=1):
            if target.action.type != ActionType.DISCARD:
                first = "t" if source.from_discard else str(source.position % 10)
                return [first, str(number)]
    first_hand = next(s for s in shown if not s.from_discard)
    return [str(first_hand.position % 10), "x"]
