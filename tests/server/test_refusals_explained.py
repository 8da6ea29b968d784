"""Refusals that say what happened (#15 item 5 and 6): a name taken at the table, a
second Start, and a command from a table that has moved on, told by what changed
(the timer ran out, the turn or the Block window is over, the game ended or began).

Run on the :class:`Table` itself (no I/O), then once through the WebSocket protocol."""

from __future__ import annotations

import random

import pytest
from starlette.testclient import TestClient

from sequence_stacks.engine import Action, ActionType, Phase, Settings, legal_actions
from sequence_stacks.engine.events import BlockWindowOpened, PileBlocked, PileCompleted, TurnStarted
from sequence_stacks.server.play import Refusal, RefusalCode, commands
from sequence_stacks.server.play.entries import Act, Op, SeatKind
from sequence_stacks.server.play.prepare import prepare_command, stale_reason
from sequence_stacks.server.play.table import Table
from sequence_stacks.server.store import TableRow

from .harness import connect, create_table, sit

pytestmark = pytest.mark.timeout(60)


def _is_stale(table: Table, seen: int, seat: int) -> bool:
    """Whether an action command of ``seat`` decided at version ``seen`` is refused
    as stale (whatever the action: staleness is judged before legality)."""
    command = commands.Act(id="late", version=seen, action=Action(ActionType.PASS))
    try:
        prepare_command(table, command, seat, seed=lambda: 1, bot="greedy")
    except Refusal as refusal:
        return refusal.code == RefusalCode.STALE
    return False


def _table(players: int = 2) -> Table:
    return Table(TableRow("t", 0.0, "public", Settings(player_count=players).to_dict()))


def _apply(table: Table, payload: object) -> int:
    table.apply_payload(table.version + 1, payload)  # type: ignore[arg-type]
    return table.version


def _seated(players: int, seed: int = 7) -> Table:
    table = _table(players)
    for seat in range(players):
        _apply(table, table.prepare_sit(f"P{seat}", seat, f"hash{seat}"))
    _apply(table, table.prepare_start(seed, "greedy"))
    return table


def _refusal(call: object, *args: object) -> Refusal:
    with pytest.raises(Refusal) as caught:
        call(*args)  # type: ignore[operator]
    return caught.value


def _in_window(table: Table) -> bool:
    return table.state is not None and table.state.phase == Phase.BLOCK_WINDOW


def _current(table: Table) -> int:
    assert table.state is not None
    seat = table.state.current_player()
    assert seat is not None
    return seat


def _move(table: Table, seat: int, rng: random.Random, *, auto: bool = False) -> None:
    assert table.state is not None
    action = rng.choice(legal_actions(table.state, seat))
    _apply(table, Act(seat, str(action), None if auto else f"c{table.version}"))


def _to_turn_of_a_new_seat(table: Table, rng: random.Random) -> int:
    """Play until a turn starts (a fresh turn, no Block window); return its seat."""
    state = table.state
    assert state is not None
    while True:
        seat = _current(table)
        fresh = any(isinstance(event, TurnStarted) for event in table.history[-1].events)
        if state.phase == Phase.PLAYING and fresh:
            return seat
        _move(table, seat, rng)


@pytest.mark.parametrize(
    ("first", "second"),
    [("Ann", "Ann"), ("Ann", "  ann "), ("Ann", "\uff21\uff2e\uff2e"), ("Straße", "STRASSE")],
)
def test_a_name_already_at_the_table_is_refused(first: str, second: str) -> None:
    table = _table(3)
    _apply(table, table.prepare_sit(first, 0, "a"))
    refusal = _refusal(table.prepare_sit, second, None, "b")
    assert refusal.code == "name_taken"
    assert table.seats[1].name == ""  # nothing changed
    # A different name still sits.
    _apply(table, table.prepare_sit("Anna", None, "b"))
    assert table.seats[1].name == "Anna"


def test_a_second_start_says_the_game_has_started() -> None:
    table = _seated(2)
    refusal = _refusal(table.prepare_start, 1, "greedy")
    assert refusal.code == "game_started"
    assert table.game_no == 1


def test_a_move_made_for_a_timed_out_player_is_what_a_late_command_hears() -> None:
    table = _seated(2)
    rng = random.Random(1)
    seat = _to_turn_of_a_new_seat(table, rng)
    seen = table.version
    _move(table, seat, rng, auto=True)  # the server moves: the seat's time ran out
    assert _is_stale(table, seen, seat)
    assert stale_reason(table, seen, seat) == "timed_out"
    # The other seat, which also saw that version, is not told about someone's timer.
    assert stale_reason(table, seen, 1 - seat) != "timed_out"


def test_a_turn_that_ended_is_told_as_over() -> None:
    table = _seated(3)
    rng = random.Random(2)
    seat = _to_turn_of_a_new_seat(table, rng)
    seen = table.version
    assert table.state is not None
    while not table.state.is_over and _current(table) == seat:
        _move(table, seat, rng)
    assert stale_reason(table, seen, seat) in ("turn_over", "window_closed", "game_over")
    if table.state.phase == Phase.PLAYING and not table.state.is_over:
        assert stale_reason(table, seen, seat) == "turn_over"


def test_a_block_window_that_closed_is_told_as_closed() -> None:
    rng = random.Random(3)
    for seed in range(40):
        table = _seated(3, seed)
        assert table.state is not None
        for _ in range(2000):
            state = table.state
            if state.is_over or state.phase == Phase.BLOCK_WINDOW:
                break
            _move(table, _current(table), rng)
        if _in_window(table):
            break
    else:
        pytest.fail("no Block window in 40 games")
    state = table.state
    assert state is not None
    asked = state.window_pending[0]
    seen = table.version
    # Every asked seat passes: the window closes.
    for seat in list(state.window_pending):
        passing = next(a for a in legal_actions(state, seat) if a.type == ActionType.PASS)
        _apply(table, Act(seat, str(passing), f"c{table.version}"))
    assert not _in_window(table)
    assert _is_stale(table, seen, asked)
    assert stale_reason(table, seen, asked) == "window_closed"


def test_a_finished_game_and_a_new_one_are_told() -> None:
    table = _seated(2)
    rng = random.Random(4)
    seen_in_game = table.version
    assert table.state is not None
    while not table.state.is_over:
        _move(table, _current(table), rng)
    assert stale_reason(table, seen_in_game, 0) in ("game_over", "timed_out")
    seen_at_end = table.version
    _apply(table, table.prepare_start(9, "greedy"))
    assert stale_reason(table, seen_at_end, 0) == "game_started"


def test_a_version_older_than_the_history_kept_is_told_only_that_it_changed() -> None:
    table = _seated(2)
    rng = random.Random(5)
    for _ in range(6):
        _move(table, _current(table), rng)
    del table.history[:3]
    assert stale_reason(table, 1, 0) == "changed"


def _reason_read_from_the_whole_history(table: Table, version: int, seat: int) -> str:  # noqa: PLR0911
    """``stale_reason`` as it was first written: every entry of the history read into
    two lists at every stale command (the oracle the counting one is held to)."""
    history = table.history
    newer = [entry for entry in history if entry.version > version]
    if not newer or len(newer) < table.version - version:
        return "changed"
    human = table.seats[seat].kind == SeatKind.HUMAN
    if human and any(e.op == Op.ACT and e.auto and e.seat == seat for e in newer):
        return "timed_out"
    if any(e.op == Op.START for e in newer):
        return "game_started"
    state = table.state
    if state is None:
        return "changed"
    if state.is_over:
        return "game_over"
    saw = [entry for entry in history if entry.version <= version]
    window = 0
    for entry in reversed(saw):
        kinds = [type(event) for event in reversed(entry.events)]
        found = next(
            (k for k in kinds if k in (PileBlocked, PileCompleted, BlockWindowOpened)), None
        )
        if found is not None:
            window = entry.version if found is BlockWindowOpened else 0
            break
    if window and (state.phase != Phase.BLOCK_WINDOW or table.window_version != window):
        return "window_closed"
    turn = next(
        (
            int(event.seat)
            for entry in reversed(saw)
            for event in reversed(entry.events)
            if isinstance(event, TurnStarted)
        ),
        None,
    )
    if turn == seat and state.current_player() != seat:
        return "turn_over"
    return "changed"


def test_what_changed_is_found_by_counting_as_it_was_by_reading_everything() -> None:
    """Every version a client could have seen, every seat, over two games and a history
    trimmed at its front: the same reason as the whole-history reading gives."""
    rng = random.Random(6)
    compared = 0
    for players in (2, 3):
        table = _seated(players, seed=players)
        assert table.state is not None
        for game in range(2):
            while not table.state.is_over:
                _move(table, _current(table), rng, auto=rng.random() < 0.1)
                if rng.random() < 0.3:
                    for seen in rng.sample(range(-2, table.version + 2), 8):
                        for seat in range(players):
                            expected = _reason_read_from_the_whole_history(table, seen, seat)
                            assert stale_reason(table, seen, seat) == expected
                            compared += 1
            if game == 0:
                _apply(table, table.prepare_start(11, "greedy"))
        del table.history[: len(table.history) // 3]
        for seen in range(-1, table.version + 1):
            for seat in range(players):
                expected = _reason_read_from_the_whole_history(table, seen, seat)
                assert stale_reason(table, seen, seat) == expected
                compared += 1
    assert compared > 1000


def test_a_stale_command_over_the_socket_carries_what_changed(client: TestClient) -> None:
    table_id = create_table(client)
    _, ann_token = sit(client, table_id, "Ann")
    sit(client, table_id, "Bob")
    refused = client.post(f"/api/tables/{table_id}/seats", json={"name": "ann"})
    assert refused.status_code == 409
    assert refused.json()["code"] == "name_taken"
    with connect(client, table_id, "ann") as ann:
        ann.hello(ann_token)
        seen = ann.version
        assert ann.reply(ann.command("start"))["type"] == "ack"
        again = ann.reply(ann.command("start", version=seen))
        assert again["type"] == "refused"
        assert again["code"] == "stale"
        assert again["detail"] == {"key": "refused.stale.game_started", "args": {}}
        current = ann.reply(ann.command("start"))
        assert (current["type"], current["code"]) == ("refused", "game_started")
