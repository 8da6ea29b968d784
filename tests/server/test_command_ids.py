"""Command ids are remembered for a bounded number of versions (docs/protocol.md): a
command sent again within them is a duplicate, one sent again after them is refused as
stale; neither is applied twice, and a table played for months keeps a bounded memory."""

from __future__ import annotations

import random

import pytest

from sequence_stacks.engine import Action, Settings, action_space, legal_action_ids
from sequence_stacks.server.play import commands
from sequence_stacks.server.play import table as table_module
from sequence_stacks.server.play.entries import Act
from sequence_stacks.server.play.prepare import prepare_command
from sequence_stacks.server.play.refusals import Refusal, RefusalCode
from sequence_stacks.server.play.table import Table
from sequence_stacks.server.store import TableRow

REMEMBERED = 12


def _played(moves: int) -> tuple[Table, list[tuple[str, int, int, Action]]]:
    """A two-seat table whose seats sent ``moves`` game actions, each with its own id;
    for each: (id, the version it was decided on, its seat, its action)."""
    table = Table(TableRow("t", 0.0, "public", Settings(player_count=2).to_dict()))
    for seat in range(2):
        table.apply_payload(table.version + 1, table.prepare_sit(f"P{seat}", seat, f"h{seat}"))
    table.apply_payload(table.version + 1, table.prepare_start(5, "greedy"))
    rng = random.Random(3)
    sent = []
    for move in range(moves):
        state = table.state
        assert state is not None
        assert not state.is_over
        seat = rng.choice(state.deciders())
        space = action_space(2, state.settings.piles_per_colour)
        action = space.action(rng.choice(legal_action_ids(state, seat)), seat)
        sent.append((f"m{move}", table.version, seat, action))
        table.apply_payload(table.version + 1, Act(seat, action.notation(), f"m{move}"))
    return table, sent


def _resend(table: Table, sent: tuple[str, int, int, Action]) -> int | None:
    """What the service does with a command sent again: the version of a duplicate, or
    None when it is refused as stale (anything else fails the test)."""
    client_id, version, seat, action = sent
    done = table.accepted(f"h{seat}", client_id)
    if done is not None:
        return done
    command = commands.Act(id=client_id, version=version, action=action)
    with pytest.raises(Refusal) as refused:
        prepare_command(table, command, seat, seed=lambda: 1, bot="greedy")
    assert refused.value.code == RefusalCode.STALE
    return None


def test_ids_are_remembered_for_a_bounded_number_of_versions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(table_module, "IDS_REMEMBERED", REMEMBERED)
    table, sent = _played(60)
    # At most twice the versions remembered, and at least the last REMEMBERED of them.
    assert REMEMBERED <= len(table.client_ids) <= 2 * REMEMBERED
    versions = sorted(table.client_ids.values())
    assert versions[-REMEMBERED:] == list(range(table.version - REMEMBERED + 1, table.version + 1))
    before = table.version
    # A command sent again within the remembered versions is a duplicate of its version.
    for back, command in enumerate(reversed(sent[-REMEMBERED:])):
        assert _resend(table, command) == table.version - back
    # One sent again long after is refused as stale: nothing is applied twice.
    for command in sent[:10]:
        assert _resend(table, command) is None
    assert table.version == before


def test_the_default_memory_covers_the_history_kept_for_catching_up() -> None:
    assert table_module.IDS_REMEMBERED >= table_module.HISTORY_LIMIT
    table, sent = _played(60)
    assert len(table.client_ids) == 60  # nothing forgotten this soon
    assert _resend(table, sent[0]) == 4  # the first move: after two seats and a start
