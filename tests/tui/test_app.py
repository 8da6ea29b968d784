"""The Textual interface, driven through the keyboard with Textual's Pilot."""

from __future__ import annotations

import asyncio
import json
import re
import time
from pathlib import Path

import pytest
from textual.widgets import OptionList

from sequence_stacks.engine import Action, ActionType, GameRecord, Settings, View
from sequence_stacks.tui import HUMAN, GameSession, SeatSpec
from sequence_stacks.tui.app import BOT_SPEEDS, PlayApp
from sequence_stacks.tui.choices import Source
from sequence_stacks.tui.screens import (
    BlockScreen,
    HandoffScreen,
    HelpScreen,
    QuitScreen,
    ReplayScreen,
    SummaryScreen,
)
from sequence_stacks.tui.widgets import TableLog

from .helpers import keys_for_turn, make_app, make_session, screen_text, settle, wait_for
from .positions import session_at_block_prompt

SIZE = (120, 40)


def _on_top(app: PlayApp) -> type:
    """The class of the screen shown now (read afresh: keys change it)."""
    return type(app.screen)


def _selected(app: PlayApp) -> Source | None:
    """Read the selection afresh (keys change it between two asserts)."""
    return app.selected


def _viewer(app: PlayApp) -> int | None:
    """Read whose eyes the screen is afresh (a hand-off changes it between two asserts)."""
    return app.viewer


def test_a_whole_game_is_played_through_the_keyboard(tmp_path: Path) -> None:
    # Two chips of any colour win, so a whole game takes a dozen turns or so.
    session = make_session(
        players=2, seed=6, options=["chips_to_win=2", "min_each_colour=0", "max_turns=40"]
    )
    app = make_app(session, tmp_path)

    async def body() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            human_moves = 0
            while not session.is_over:
                # The seed is hidden from everyone while the game runs (R36).
                assert not app.query_one("#log").border_subtitle
                assert "seed" not in screen_text(app).lower()
                for key in keys_for_turn(app):
                    await pilot.press(key)
                human_moves += 1
                await settle(pilot, app)
            assert isinstance(app.screen, SummaryScreen)
            text = screen_text(app)
            assert "Game over" in text
            assert "r: replay the game" in text
            assert "Seed: 6 (with the same options, --seed 6 deals this game again)." in text
            assert app.query_one("#log").border_subtitle == "seed 6"
            assert human_moves >= 5
            await pilot.press("q")

    asyncio.run(body())
    human_actions = [a for seat, a in session.actions if seat == 0]
    assert any(a.type == ActionType.PLAY for a in human_actions)
    assert any(a.type == ActionType.DISCARD for a in human_actions)
    assert session.result is not None
    # Everything the keyboard did is a replayable record (R41).
    assert session.record().replay().result == session.result


def test_main_screen_shows_the_table(tmp_path: Path) -> None:
    session = make_session(players=3, seed=5)
    app = make_app(session, tmp_path)

    async def body() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            text = screen_text(app)
            for expected in (
                "SEQUENCE PILES",
                "◆blue pile 1",
                "●red pile 2",
                "Draw pile",
                "Set aside 0",
                "Chip supply: ◆B 20  ●R 20",
                "Player 1 (you)",  # seats count from 1 for people (#15)
                "Player 3 (Greedy)",
                "Turn 1",
                "Player 1 to play",
                "Direction left →",
                "Pending skips: 0",
                "YOUR HAND",
                "Player 1 was dealt 5 cards:",
                "Player 2 was dealt 5 cards.",
            ):
                assert expected in text, expected
            assert not re.search(r"#\d", text)  # cards in words, no internal ids (#15)
            assert "Player 0" not in text  # seats count from 1 for people
            # One key per hand card, each card with its letter and shape.
            view = session.view(0)
            assert view.hand is not None
            for number in range(1, len(view.hand) + 1):
                assert f"{number}:" in text

    asyncio.run(body())


def test_picking_a_card_lists_its_targets_and_escape_drops_it(tmp_path: Path) -> None:
    session = make_session(players=2, seed=5)
    app = make_app(session, tmp_path)

    async def body() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("1")
            assert app.selected is not None
            menu = app.query_one("#targets", OptionList)
            assert menu.option_count == len(app.picker.targets) > 0
            text = screen_text(app)
            assert "pick a target" in text
            assert "discard" in text
            assert "and end the turn" in text
            offered = {t.action_id for t in app.picker.targets}
            assert offered <= set(session.view(0).legal_action_ids)  # only legal ones
            await pilot.press("escape")
            assert _selected(app) is None
            assert "Selection dropped." in screen_text(app)
            assert session.step_count == 0  # nothing was played

    asyncio.run(body())


def test_only_legal_moves_are_offered_and_keys_show_when_they_apply(tmp_path: Path) -> None:
    session = make_session(players=2, seed=5)
    app = make_app(session, tmp_path)

    def footer_keys() -> set[str]:
        return {b.action for _, b, enabled, _ in app.screen.active_bindings.values() if b.show}

    async def body() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            # Ending the turn needs an empty hand (R19): e is neither shown nor taken.
            assert "end_turn" not in footer_keys()
            assert {"help", "quit_game", "save", "speed(-1)"} <= footer_keys()
            assert "discard" not in footer_keys()
            await pilot.press("e")
            assert session.step_count == 0
            assert "Refused" not in screen_text(app)
            legal = set(session.view(0).legal_action_ids)
            for number in range(1, 6):
                await pilot.press(str(number))
                assert {t.action_id for t in app.picker.targets} <= legal
                assert {"discard", "drop"} <= footer_keys()
                text = screen_text(app)
                assert "✗" not in text
                await pilot.press("escape")
            assert session.step_count == 0

    asyncio.run(body())


def test_cursor_and_enter_pick_a_card_and_x_discards_it(tmp_path: Path) -> None:
    session = make_session(players=2, seed=8)
    app = make_app(session, tmp_path)

    async def body() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("right", "right", "enter")
            assert app.selected is not None
            assert app.selected.position == 3
            await pilot.press("x")
            await settle(pilot, app)

    asyncio.run(body())
    seat, action = session.actions[0]
    assert seat == 0
    assert action.type == ActionType.DISCARD


def test_the_target_menu_takes_arrows_and_enter(tmp_path: Path) -> None:
    session = make_session(players=2, seed=8)
    app = make_app(session, tmp_path)

    async def body() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("1")
            menu = app.query_one("#targets", OptionList)
            await pilot.press("end")
            assert menu.highlighted == len(app.picker.targets) - 1
            await pilot.press("home")
            assert menu.highlighted == 0
            discard = next(
                i for i, t in enumerate(app.picker.targets) if t.action.type == ActionType.DISCARD
            )
            await pilot.press("down", "up", *["down"] * discard, "enter")
            await settle(pilot, app)

    asyncio.run(body())
    assert session.actions[0][1].type == ActionType.DISCARD


def test_keys_do_nothing_but_explain_when_it_is_not_your_turn(tmp_path: Path) -> None:
    session = make_session(players=2, humans=0, bot="first", seed=2)
    app = make_app(session, tmp_path)
    app.bot_delay = 30.0  # the bot waits; the screen must still answer keys
    asked: list[int] = []
    bot = session.bot_for(0)
    choose = bot.choose

    def recording(view: View) -> Action:
        asked.append(view.turn_count)
        return choose(view)

    bot.choose = recording  # type: ignore[method-assign]

    async def body() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("1")
            assert "It is not your turn" in screen_text(app)
            deadline = time.monotonic() + 10  # a thread's start on a loaded machine
            while not asked and time.monotonic() < deadline:
                await pilot.pause(0.01)
            # It has already thought (at once, R36: its thinking time must not show),
            # but its move waits for the delay.
            assert asked == [1]  # the first turn (turn_count starts at 1)
            assert session.step_count == 0

    asyncio.run(body())


def test_help_screen_shows_the_keys_and_the_rule_book(tmp_path: Path) -> None:
    app = make_app(make_session(seed=3), tmp_path)

    async def body() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("question_mark")
            assert isinstance(app.screen, HelpScreen)
            text = screen_text(app)
            assert "KEYS" in text
            assert "THE RULES" in text
            assert "The rules of Sequence Stacks" in text  # the rules for players (en.md)
            assert "R29" not in text  # plain words, no rule ids (#24)
            await pilot.press("escape")
            assert not isinstance(app.screen, HelpScreen)

    asyncio.run(body())


@pytest.mark.parametrize("holds_block", [True, False], ids=["holds-block", "no-block"])
def test_block_prompt_blocks_or_refuses(tmp_path: Path, holds_block: bool) -> None:
    session = session_at_block_prompt(holding_block=holds_block)
    app = make_app(session, tmp_path)

    async def body() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            assert isinstance(app.screen, BlockScreen)
            text = screen_text(app)
            assert "Player 2 completed a" in text
            assert "Block it or pass?" in text
            assert f"You hold {1 if holds_block else 0} Block card" in text
            await pilot.press("b")
            if not holds_block:
                assert "Refused (R29)" in screen_text(app)
                assert isinstance(app.screen, BlockScreen)
                await pilot.press("p")
            await settle(pilot, app)
            assert not isinstance(app.screen, BlockScreen)

    asyncio.run(body())
    answers = [a.type for seat, a in session.actions if seat == 0]
    assert answers[-1] == (ActionType.BLOCK if holds_block else ActionType.PASS)


def test_hotseat_hides_the_table_between_humans(tmp_path: Path) -> None:
    session = make_session(players=3, humans=2, seed=4)
    app = make_app(session, tmp_path)

    async def body() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            # Nobody's cards before the first person to act has the keyboard.
            assert isinstance(app.screen, HandoffScreen)
            assert _viewer(app) is None
            assert "Pass the keyboard to Player 1" in screen_text(app)
            assert "YOUR HAND" not in screen_text(app)
            await pilot.press("enter")
            await settle(pilot, app)
            assert _viewer(app) == 0
            await pilot.press("1", "x")  # seat 0 discards: seat 1 (human) is next
            await settle(pilot, app)
            assert isinstance(app.screen, HandoffScreen)
            text = screen_text(app)
            assert "Pass the keyboard to Player 2" in text
            hand0 = session.view(0).hand
            assert hand0 is not None
            assert "YOUR HAND" not in text  # no cards on show
            await pilot.press("enter")
            await settle(pilot, app)
            assert app.viewer == 1
            text = screen_text(app)
            assert "Player 2 (you)" in text
            assert "Player 1 was dealt 5 cards." in text  # seat 0's cards are hidden now

    asyncio.run(body())


def test_save_key_writes_a_record_that_resumes(tmp_path: Path) -> None:
    session = make_session(players=2, seed=6)
    app = make_app(session, tmp_path)

    async def body() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("1", "x")
            await settle(pilot, app)
            await pilot.press("s")
            assert "Saved to" in screen_text(app)

    asyncio.run(body())
    record = GameRecord.from_dict(json.loads((tmp_path / "save.json").read_text()))
    assert record.actions == session.actions
    assert record.meta["seats"] == ["human", "greedy"]
    assert record.replay() is not None


def test_bot_speed_keys_step_through_the_speeds(tmp_path: Path) -> None:
    app = make_app(make_session(seed=3), tmp_path)
    app.bot_delay = 0.3

    async def body() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("minus")
            assert app.bot_delay > 0.3
            await pilot.press("plus", "plus")
            assert app.bot_delay < 0.3
            assert f"bots wait {app.bot_delay:g} s" in screen_text(app)

    asyncio.run(body())
    assert min(BOT_SPEEDS) == 0.0


def test_summary_offers_a_replay_that_steps_through_the_game(tmp_path: Path) -> None:
    session = make_session(players=2, humans=0, bot="greedy", seed=9, options=["max_turns=12"])
    app = make_app(session, tmp_path)

    async def body() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            assert isinstance(app.screen, SummaryScreen)
            assert "Game over with no winner (turn limit reached)" in screen_text(app)
            await pilot.press("r")
            await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
            assert "Replay step 0/" in screen_text(app)
            await pilot.press("right", "right")
            assert "Replay step 2/" in screen_text(app)
            await pilot.press("end")
            text = screen_text(app)
            assert f"Replay step {session.step_count}/{session.step_count}" in text
            await pilot.press("escape")
            await wait_for(pilot, lambda: isinstance(app.screen, SummaryScreen))
            await pilot.press("s")
            assert "Saved to" in screen_text(app)

    asyncio.run(body())
    assert (tmp_path / "save.json").exists()


class _BrokenBot:
    """A bot that fails: it raises, or it answers an illegal action."""

    name = "broken"

    def __init__(self, *, raises: bool) -> None:
        self.raises = raises

    def choose(self, view: View) -> Action:
        if self.raises:
            raise RuntimeError("the bot crashed")
        return Action(ActionType.END)  # illegal while the hand holds cards (R19)


@pytest.mark.parametrize("raises", [True, False], ids=["raises", "illegal"])
def test_a_failing_bot_plays_a_default_and_the_game_goes_on(tmp_path: Path, raises: bool) -> None:
    session = GameSession(
        Settings(player_count=2),
        4,
        [SeatSpec(HUMAN), SeatSpec("broken")],
        {1: _BrokenBot(raises=raises)},
    )
    app = make_app(session, tmp_path)

    async def body() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("1", "x")
            await settle(pilot, app)
            assert "Player 2 (broken) failed to choose a legal action" in screen_text(app)
            assert session.view(0).turn_count == 3

    asyncio.run(body())
    assert [seat for seat, _ in session.actions] == [0, 1]


def test_q_asks_then_saves_so_the_game_resumes(tmp_path: Path) -> None:
    session = make_session(players=2, seed=6)
    app = make_app(session, tmp_path)

    async def body() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            await pilot.press("1", "x")
            await settle(pilot, app)
            await pilot.press("q")
            assert _on_top(app) is QuitScreen
            text = screen_text(app)
            assert "Leave the game?" in text
            assert "sequence-stacks play --load" in text
            await pilot.press("n")  # keep playing: nothing saved, the game goes on
            assert _on_top(app) is not QuitScreen
            assert not (tmp_path / "save.json").exists()
            await pilot.press("q", "y")

    asyncio.run(body())
    assert app.return_code == 0
    assert "To finish it, run: sequence-stacks play --load" in app.farewell
    record = GameRecord.from_dict(json.loads((tmp_path / "save.json").read_text()))
    assert record.actions == session.actions
    resumed = GameSession.from_record(record, session.seats, {1: session.bot_for(1)})
    assert resumed.step_count == session.step_count
    assert resumed.view(0) == session.view(0)


def test_q_can_leave_without_saving(tmp_path: Path) -> None:
    app = make_app(make_session(players=2, seed=6), tmp_path)

    async def body() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("q", "x")

    asyncio.run(body())
    assert app.farewell == ""
    assert not (tmp_path / "save.json").exists()


def test_a_save_that_fails_keeps_the_quit_question_open(tmp_path: Path) -> None:
    session = make_session(players=2, seed=6)
    app = PlayApp(session, bot_delay=0.0, save_path=tmp_path / "missing" / "save.json")

    async def body() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("q", "y")
            assert _on_top(app) is QuitScreen
            assert "Could not save" in screen_text(app)
            await pilot.press("escape")
            assert _on_top(app) is not QuitScreen

    asyncio.run(body())


def test_the_log_wraps_again_when_the_terminal_changes_size(tmp_path: Path) -> None:
    """Each line of the log is wrapped at the log's width now, not at the width it had
    when the line was written: at 80x24 (one column) and at 120x40 (the log beside the
    table), and back."""
    app = make_app(make_session(seed=3), tmp_path)

    def fits(log: TableLog) -> list[int]:
        width = log.scrollable_content_region.width
        too_wide = [strip.cell_length for strip in log.lines if strip.cell_length > width]
        assert not too_wide, (width, too_wide)
        return [len(log.lines), width]

    async def body() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            log = app.query_one("#log", TableLog)
            narrow = fits(log)
            await pilot.resize_terminal(*SIZE)
            await settle(pilot, app)
            wide = fits(log)
            assert wide[1] != narrow[1], (narrow, wide)  # the log's width did change
            await pilot.resize_terminal(80, 24)
            await settle(pilot, app)
            assert fits(log) == narrow

    asyncio.run(body())
