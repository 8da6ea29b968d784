"""The leak audit itself catches what it must (so the no-leak tests are not vacuous)."""

from __future__ import annotations

from sequence_stacks.engine import Settings, card_text
from sequence_stacks.server.play.audit import (
    card_ids,
    connection_leaks,
    frame_leaks,
    hidden_cards,
    hidden_history,
)
from sequence_stacks.server.play.table import Table
from sequence_stacks.server.store import LogEntry, TableRow


def _started() -> tuple[TableRow, list[LogEntry]]:
    row = TableRow("t", 0.0, "public", Settings(player_count=3).to_dict())
    entries = [LogEntry(1, {"op": "start", "game": 1, "seed": 987654321987, "bot": "random"})]
    return row, entries


def test_hidden_cards_are_the_draw_pile_and_other_hands() -> None:
    row, entries = _started()
    table = Table.rebuild(row, entries)
    state = table.state
    assert state is not None
    hidden = hidden_cards(state, 0)
    assert set(state.draw) <= hidden
    assert set(state.hands[1]) | set(state.hands[2]) <= hidden
    assert not set(state.hands[0]) & hidden
    assert set(state.hands[0]) <= hidden_cards(state, None)


def test_frame_leaks_finds_planted_cards_and_seeds() -> None:
    row, entries = _started()
    history, seeds = hidden_history(row, entries, 0)
    state = Table.rebuild(row, entries).state
    assert state is not None
    mine, theirs = state.hands[0][0], state.hands[1][0]
    clean = {"type": "update", "version": 1, "events": [], "view": {"hand": [mine]}}
    assert frame_leaks(clean, history, seeds=seeds, raw="{}") == []
    planted = {"type": "update", "version": 1, "events": [], "view": {"hand": [theirs]}}
    assert frame_leaks(planted, history)
    in_text = {"type": "update", "version": 1, "events": [{"text": card_text(theirs)}]}
    assert frame_leaks(in_text, history)
    top = {"type": "update", "version": 1, "events": [], "view": {"piles": [[state.draw[-1]]]}}
    assert frame_leaks(top, history)
    assert frame_leaks({"type": "pong"}, history, seeds=seeds, raw='{"x": 987654321987}')
    assert frame_leaks({"type": "sync", "version": 1, "view": {"seed": 1}}, history)


def test_card_ids_reads_card_fields_and_notation_only() -> None:
    frame = {"hand": [3, 4], "legal_action_ids": [5], "card_epoch": [0, 1], "text": "B1#0 and #77"}
    assert card_ids(frame) == {0, 3, 4}


def test_connection_leaks_follows_the_seat_a_token_holds_when_a_frame_is_sent() -> None:
    row = TableRow("t", 0.0, "public", Settings(player_count=2).to_dict())
    entries = [
        LogEntry(1, {"op": "sit", "seat": 0, "name": "Ann", "token_hash": "ann"}),
        LogEntry(2, {"op": "start", "game": 1, "seed": 55, "bot": "random"}),
        LogEntry(3, {"op": "leave", "seat": 0, "bot": "random", "client": "c1"}),
    ]
    state = Table.rebuild(row, entries).state
    assert state is not None
    hand = list(state.hands[0])
    seated = {"type": "update", "version": 2, "events": [], "view": {"hand": hand}}
    left = {"type": "update", "version": 3, "events": [], "view": {"hand": hand}}
    assert connection_leaks(row, entries, "ann", [(seated, "{}")]) == []
    problems = connection_leaks(row, entries, "ann", [(seated, "{}"), (left, "{}")])
    assert len(problems) == 1
    assert problems[0].startswith("(seat None) update 3 view exposes hidden cards")
    # A token that never sat is a spectator throughout.
    assert connection_leaks(row, entries, "bob", [(seated, "{}")])
