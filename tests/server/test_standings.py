"""A finished game's standings (#15 item 6): counted from the game's own events as the
table applies them, so a table rebuilt from its log ranks the same."""

from __future__ import annotations

import random

import pytest
from starlette.testclient import TestClient

from sequence_stacks.engine import Settings, legal_actions
from sequence_stacks.engine.events import CardStolen, ChipStolen, PileBlocked, PileCompleted
from sequence_stacks.server.play.entries import Act, LogPayload, encode
from sequence_stacks.server.play.table import Table
from sequence_stacks.server.store import LogEntry, TableRow

from .harness import connect, create_table, play_until_over, sit

pytestmark = pytest.mark.timeout(60)


def _finished(players: int, seed: int) -> tuple[Table, list[object], list[LogEntry]]:
    """A game played to its end on a table; its events and its log as stored."""
    row = TableRow("t", 0.0, "public", Settings(player_count=players).to_dict())
    table = Table(row)
    log: list[LogEntry] = []

    def apply(payload: LogPayload) -> list[object]:
        log.append(LogEntry(table.version + 1, encode(payload)))
        return list(table.apply_payload(table.version + 1, payload).events)

    for seat in range(players):
        apply(table.prepare_sit(f"P{seat}", seat, f"h{seat}"))
    apply(table.prepare_start(seed, "greedy"))
    rng = random.Random(seed)
    events: list[object] = []
    assert table.state is not None
    while not table.state.is_over:
        assert table.standings() is None  # nothing to rank while the game runs
        mover = table.state.current_player()
        assert mover is not None
        action = rng.choice(legal_actions(table.state, mover))
        events.extend(apply(Act(mover, str(action), None)))
    return table, events, log


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (6, 4)])
def test_the_standings_count_each_seats_own_events_and_rank_the_winner_first(
    players: int, seed: int
) -> None:
    table, events, _ = _finished(players, seed)
    rows = table.standings()
    assert rows is not None
    assert sorted(row["seat"] for row in rows) == list(range(players))
    state = table.state
    assert state is not None
    assert state.result is not None
    by_seat = {row["seat"]: row for row in rows}
    for seat in range(players):
        row = by_seat[seat]
        assert row["chips"] == state.chips[seat]
        completed = sum(isinstance(e, PileCompleted) and e.seat == seat for e in events)
        blocks = sum(isinstance(e, PileBlocked) and e.blocker == seat for e in events)
        steals = sum(isinstance(e, CardStolen | ChipStolen) and e.seat == seat for e in events)
        assert (row["completed"], row["blocks"], row["steals"]) == (completed, blocks, steals)
        assert row["winner"] == (seat == state.result.winner)
    if state.result.winner is not None:
        assert rows[0]["seat"] == state.result.winner
    totals = [sum(row["chips"]) for row in rows[1:]]
    assert totals == sorted(totals, reverse=True)
    # Not vacuous: these games did complete sequences.
    assert sum(row["completed"] for row in rows) > 0


def test_a_table_rebuilt_from_its_log_has_the_same_standings_and_a_rematch_starts_afresh() -> None:
    table, _, log = _finished(3, 5)
    rows = table.standings()
    assert rows is not None
    rebuilt = Table.rebuild(TableRow("t", 0.0, "public", table.settings_dict), log)
    assert rebuilt.standings() == rows
    table.apply_payload(table.version + 1, table.prepare_start(6, "greedy"))
    assert table.standings() is None
    assert all(tally.completed == tally.blocks == 0 for tally in table.tallies)


def test_the_table_frame_carries_the_standings_once_the_game_is_over(client: TestClient) -> None:
    table_id = create_table(client)
    _, token = sit(client, table_id, "Ann")
    with connect(client, table_id, "ann") as ann:
        ann.hello(token)
        assert client.get(f"/api/tables/{table_id}").json()["standings"] is None
        ann.reply(ann.command("start"))
        play_until_over([ann])
    lobby = client.get(f"/api/tables/{table_id}").json()
    assert lobby["status"] == "over"
    assert [row["winner"] for row in lobby["standings"]].count(True) <= 1
    assert {row["seat"] for row in lobby["standings"]} == set(range(len(lobby["seats"])))
