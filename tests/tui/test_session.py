"""The game session: the model both interfaces share, tested without a terminal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sequence_stacks.engine import (
    Action,
    ActionType,
    GameRecord,
    IllegalActionError,
    RecordError,
    Settings,
    parse_action,
)
from sequence_stacks.tui import HUMAN, GameSession, SeatSpec, load_record, seats_from_record

from .helpers import FirstLegalBot, make_session


def _play_bots(session: GameSession, steps: int) -> None:
    """Let the bots take up to ``steps`` actions, stopping when a human must act."""
    for _ in range(steps):
        seat = session.to_act()
        assert seat is not None
        if session.is_human(seat):
            return
        session.submit(seat, session.bot_for(seat).choose(session.view(seat)))


def test_a_refused_action_names_the_rule_and_changes_nothing() -> None:
    session = make_session(seed=3)
    before = session.view(0)
    with pytest.raises(IllegalActionError) as refused:
        session.submit(0, Action(ActionType.END))
    assert refused.value.rule_id == "R19"
    with pytest.raises(IllegalActionError) as wrong_turn:
        session.submit(1, parse_action("discard B1"))
    assert wrong_turn.value.rule_id == "R20"
    assert session.step_count == 0
    assert session.view(0) == before


def test_the_log_hides_other_seats_cards() -> None:
    session = make_session(players=3, seed=4)
    mine = session.log_lines(0)
    theirs = session.log_lines(1)
    # Seat 0 is Player 1: people count seats from 1 (#15).
    assert mine[0].startswith("Player 1 was dealt 5 cards: ")
    assert "Player 2 was dealt 5 cards." in mine
    assert "Player 1 was dealt 5 cards." in theirs
    assert session.log_lines(None)[0] == "Player 1 was dealt 5 cards."


def test_the_log_grows_from_where_it_was_read() -> None:
    session = make_session(players=2, humans=0, seed=4)
    start = session.event_count
    _play_bots(session, 3)
    new = session.log_lines(None, start)
    assert new
    assert session.log_lines(None)[-len(new) :] == new


def test_save_and_load_resume_the_same_game(tmp_path: Path) -> None:
    session = make_session(players=3, humans=1, seed=5, bot="random")
    moves = [session.action_of(i, 0) for i in session.view(0).legal_action_ids]
    session.submit(0, next(a for a in moves if a.type == ActionType.DISCARD))
    _play_bots(session, 6)
    path = tmp_path / "game.json"
    session.save(path)
    record = load_record(path)
    assert record.meta["seats"] == [HUMAN, "random", "random"]
    seats = seats_from_record(record)
    assert seats == [SeatSpec(HUMAN), SeatSpec("random"), SeatSpec("random")]
    resumed = GameSession.from_record(record, seats, {1: FirstLegalBot(), 2: FirstLegalBot()})
    assert resumed.actions == session.actions
    for seat in (0, 1, 2, None):
        assert resumed.view(seat) == session.view(seat)
        assert resumed.log_lines(seat) == session.log_lines(seat)


def test_a_tampered_save_is_refused(tmp_path: Path) -> None:
    session = make_session(seed=5)
    session.submit(0, session.action_of(session.view(0).legal_action_ids[0], 0))
    data = session.record().to_dict()
    data["digest"] = "0" * len(data["digest"])
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(RecordError):
        GameSession.from_record(load_record(path), session.seats, {1: FirstLegalBot()})
    path.write_text("{not json")
    with pytest.raises(RecordError, match="is not a saved game"):
        load_record(path)
    path.write_text("[" * 100_000)  # nested deeper than the parser goes
    with pytest.raises(RecordError, match="is not a saved game"):
        load_record(path)
    with pytest.raises(RecordError, match="cannot read"):
        load_record(tmp_path / "missing.json")


def test_seats_from_record_needs_one_kind_per_seat() -> None:
    settings = Settings(player_count=2)
    assert seats_from_record(GameRecord(settings, 1)) is None
    assert seats_from_record(GameRecord(settings, 1, meta={"seats": ["human"]})) is None
    assert seats_from_record(GameRecord(settings, 1, meta={"seats": ["human", 3]})) is None


def test_replay_steps_walk_from_the_deal_to_now() -> None:
    session = make_session(players=2, humans=0, seed=6)
    _play_bots(session, 10)
    steps = list(session.replay_steps(0))
    assert len(steps) == session.step_count + 1
    assert steps[0][0].turn_count == 1
    assert steps[-1][0] == session.view(0)
    assert [line for _, lines in steps for line in lines] == session.log_lines(0)


def test_seats_and_bots_must_match_the_settings() -> None:
    settings = Settings(player_count=2)
    with pytest.raises(ValueError, match="2 players"):
        GameSession(settings, 1, [SeatSpec(HUMAN)], {})
    with pytest.raises(ValueError, match="no bot object"):
        GameSession(settings, 1, [SeatSpec(HUMAN), SeatSpec("greedy")], {})
    assert SeatSpec("greedy").label(1) == "Player 2 (Greedy)"
    assert SeatSpec(HUMAN).label(0) == "Player 1"


def test_a_save_is_written_whole_or_not_at_all(tmp_path: Path) -> None:
    session = make_session(seed=5)
    path = tmp_path / "game.json"
    session.save(path)
    before = path.read_text()
    session.submit(0, session.action_of(session.view(0).legal_action_ids[0], 0))

    def broken_replace(source: object, target: object) -> None:
        raise OSError(28, "No space left on device")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("sequence_stacks.tui.session.os.replace", broken_replace)
        with pytest.raises(OSError, match="No space"):
            session.save(path)
    assert path.read_text() == before  # the old save is whole
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]  # no temporary left
    session.save(path)
    assert load_record(path).actions == session.actions
