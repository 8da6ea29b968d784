"""The plain line mode, driven with scripted input."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from sequence_stacks.engine import ActionType
from sequence_stacks.tui import GameSession, load_record
from sequence_stacks.tui.plain import PlainGame, board_lines
from sequence_stacks.tui.present import action_words

from .helpers import make_session


def _run(session: GameSession, script: str, tmp_path: Path, **kwargs: object) -> str:
    out = io.StringIO()
    game = PlainGame(
        session,
        stdin=io.StringIO(script),
        stdout=out,
        save_path=tmp_path / "save.json",
        **kwargs,  # type: ignore[arg-type]
    )
    assert game.run() == 0
    return out.getvalue()


def test_a_whole_game_in_plain_mode(tmp_path: Path) -> None:
    session = make_session(
        players=3, seed=21, options=["chips_to_win=2", "min_each_colour=0", "max_turns=60"]
    )
    # Move 1 is always legal: the first play if there is one, else a discard.
    out = _run(session, "1\n" * 400, tmp_path)
    assert session.is_over
    assert "Game over" in out
    # The seed is hidden from everyone until the game is over (R36), told after it.
    playing, _, summary = out.partition("Game over")
    assert "seed" not in playing.lower()
    assert "Seed: 21 (with the same options, --seed 21 deals this game again)." in summary
    assert "Replay the game turn by turn? (y/N)" in out
    mine = [a for seat, a in session.actions if seat == 0]
    assert any(a.type == ActionType.PLAY for a in mine)
    assert "Your moves:" in out
    assert "Your hand: " in out
    assert "\x1b[" not in out  # no escape codes for a dumb terminal
    assert not re.search(r"#\d", out)  # cards in words, never their internal ids (#15)
    assert "Player 0" not in out  # seats count from 1 for people


def test_board_lines_say_everything_in_words() -> None:
    session = make_session(players=3, seed=5)
    lines = board_lines(session, session.view(0))
    text = "\n".join(lines)
    for expected in (
        "Turn 1. To act: Player 1 (you).",
        "Direction: left",
        "Pending skips: 0.",
        "Draw pile ",
        "set aside 0 cards, played actions 0 cards.",
        "Chip supply: blue 20, red 20.",
        "  blue pile 1: empty",
        "  red pile 2: empty",
        "  Player 3 (Greedy): 5 cards in hand, chips blue 0 red 0, discard pile 0 cards.",
        "Your hand: ",
    ):
        assert expected in text, expected


def test_refusals_and_mistakes_are_explained(tmp_path: Path) -> None:
    session = make_session(players=2, seed=3)
    script = "end\n99\nB9\nSKIP>p1\nhelp\nrules\nboard\nlog\nmoves\nquit\nn\nquit\nx\n"
    out = _run(session, script, tmp_path)
    assert "Refused (R19): You still hold cards: end the turn by discarding one." in out
    assert "one.." not in out  # the reason's own full stop gives way to the wrapper's
    assert "There is no move 99" in out
    assert "Not understood: cannot read action 'B9'" in out
    assert "COMMANDS" in out
    assert "THE RULES OF SEQUENCE STACKS" in out  # the rules for players, no rule ids (#24)
    assert "Back to the game." in out  # quit asks first; n plays on
    assert "You left the game without saving it." in out
    assert not (tmp_path / "save.json").exists()
    assert session.step_count == 0


def test_moves_by_notation_and_save(tmp_path: Path) -> None:
    session = make_session(players=2, seed=3)
    view = session.view(0)
    move = session.action_of(view.legal_action_ids[0], 0)  # a discard
    target = tmp_path / "mine.json"
    out = _run(session, f"{move}\nsave {target}\nquit\nx\n", tmp_path)
    assert f"You: {action_words(move, view)}." in out
    assert "[discard" not in out  # the moves are in words, without notation
    assert f"Saved to {target}." in out
    assert session.actions[0] == (0, move)
    assert target.exists()


def test_hotseat_hands_over_and_hides_the_last_players_cards(tmp_path: Path) -> None:
    session = make_session(players=2, humans=2, seed=3)
    discard = next(
        session.action_of(i, 0)
        for i in session.view(0).legal_action_ids
        if session.action_of(i, 0).type == ActionType.DISCARD
    )
    out = _run(session, f"\n{discard}\n\nquit\nx\n", tmp_path)
    # Nobody's cards before the first person to act has the keyboard, as between turns.
    first = out.index("Pass the keyboard to Player 1")
    assert "Player 1 was dealt 5 cards: " not in out[:first]
    assert "Player 1 was dealt 5 cards: " in out[first:]
    handoff = out.index("Pass the keyboard to Player 2")
    after = out[handoff:]
    assert "Player 1 was dealt 5 cards." in after  # redacted for Player 2
    assert "Player 2 was dealt 5 cards: " in after
    assert "Player 2, your move" in after


def test_watching_bots_then_replaying(tmp_path: Path) -> None:
    session = make_session(players=2, humans=0, seed=5, options=["max_turns=6"])
    slept: list[float] = []
    ticks = iter(range(10_000))  # each bot thinks for one tick of the clock: 0.05 s

    def clock() -> float:
        return next(ticks) * 0.05

    out = _run(
        session, "y\n" + "\n" * 50, tmp_path, bot_delay=0.25, sleep=slept.append, clock=clock
    )
    assert "Game over with no winner (turn limit reached)." in out
    assert "End of the replay." in out
    # Each move shows 0.25 s after the bot began, the thinking included (R36).
    assert slept == [pytest.approx(0.2)] * session.step_count
    assert out.count("Enter for the next turn") == 6


def test_quit_asks_then_saves_so_load_resumes(tmp_path: Path) -> None:
    session = make_session(players=2, seed=3)
    out = _run(session, "1\nquit\ny\n", tmp_path)
    assert "Leave the game? y: save it in" in out
    assert "To finish it, run: sequence-stacks play --plain --load" in out
    record = load_record(tmp_path / "save.json")
    assert record.actions == session.actions
    assert record.actions  # the move before quitting is in it
