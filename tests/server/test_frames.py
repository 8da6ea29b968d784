"""What frames tell a client so that it re-derives nothing (#23): piles named by slot in
the view, the action table and the events alike; each event's and each entry's log line
as data; who decides now and where a new pile goes; the piles' slots and whether hints
are offered. Frames are rendered here from tables played with the engine's own moves."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from starlette.testclient import TestClient

from sequence_stacks.engine import (
    CARD_KIND,
    Settings,
    action_space,
    apply_in_place,
    event_for,
    kind_colour,
    legal_action_ids,
    observe,
)
from sequence_stacks.i18n import MESSAGES, render, set_language, words
from sequence_stacks.server import MemoryStorage, create_app
from sequence_stacks.server.play.codec import dumps
from sequence_stacks.server.play.entries import Act, Op, SeatKind, TableStatus
from sequence_stacks.server.play.protocol import lobby_dict, sync_frame, update_frame
from sequence_stacks.server.play.schedule import TimerKind
from sequence_stacks.server.play.table import Entry, Table
from sequence_stacks.server.play.viewdata import (
    PUBLIC_VIEW_FIELDS,
    EntryViews,
    public_view_changes,
    table_entry,
    view_changes,
)
from sequence_stacks.server.store import TableRow

from .harness import FAST

SEQUENCE_LENGTH = 5


def _table(people: int, player_count: int, seed: int, **options: Any) -> tuple[Table, list[Entry]]:
    """A started table: ``people`` seated persons, bots in the other seats."""
    settings = Settings(player_count=player_count, **options)
    table = Table(TableRow("t", 0.0, "public", settings.to_dict()))
    entries = []
    for seat in range(people):
        payload = table.prepare_sit(f"P{seat}", seat, f"h{seat}")
        entries.append(table.apply_payload(table.version + 1, payload))
    entries.append(table.apply_payload(table.version + 1, table.prepare_start(seed, "greedy")))
    return table, entries


def _step(table: Table, rng: random.Random, *, auto: bool = False) -> Entry:
    """One legal move of a seat that decides now (made by the server when ``auto``)."""
    state = table.state
    assert state is not None
    seat = rng.choice(state.deciders())
    settings = state.settings
    space = action_space(settings.player_count, settings.piles_per_colour)
    action = space.action(rng.choice(legal_action_ids(state, seat)), seat)
    payload = Act(seat, action.notation(), None if auto else "c")
    return table.apply_payload(table.version + 1, payload)


def _wire(frame: dict[str, Any]) -> dict[str, Any]:
    """A frame as a client reads it: encoded and decoded."""
    data: dict[str, Any] = json.loads(dumps(frame))
    return data


def _update(table: Table, entry: Entry, seat: int | None) -> dict[str, Any]:
    lobby = lobby_dict(table, [True] * len(table.seats))
    return _wire(update_frame(table, entry, seat, lobby=lobby, timer=None))


def _sync(table: Table, seat: int | None) -> dict[str, Any]:
    connected = [True] * len(table.seats)
    return _wire(
        sync_frame(
            table,
            seat,
            connected=connected,
            last_version=None,
            token_rejected=False,
            timer=None,
            bots=[],
        )
    )


def _line(message: dict[str, Any]) -> str:
    """A message as English words (every placeholder must be filled)."""
    text = render(message["key"], **words(message["args"], lambda seat: f"Player {seat + 1}"))
    assert "{" not in text, text
    return text


def _check_view(view: dict[str, Any], per_colour: int) -> None:
    """``deciders`` and ``new_pile_slots`` say what the view's own fields imply."""
    if view["result"] is not None:
        assert view["deciders"] == []
    elif view["phase"] == "block_window":
        assert view["deciders"] == view["window_pending"] != []
    else:
        assert view["deciders"] == [view["current"]]
    for colour, slot in enumerate(view["new_pile_slots"]):
        slots = range(colour * per_colour, (colour + 1) * per_colour)
        free = [s for s in slots if not view["piles"][s]]
        assert slot == (free[0] if free else None)


def _check_events(frame: dict[str, Any]) -> int:
    """Each event names its pile by slot, where the view after it has that pile's cards;
    each carries its log line as data. Returns how many piles were checked."""
    view = frame["view"]
    checked = 0
    for event in frame["events"]:
        assert "pile" not in event
        if event["message"] is not None:
            assert event["message"]["key"] in MESSAGES
            _line(event["message"])
        if event["type"] == "CardPlayed":
            pile = view["piles"][event["slot"]]
            # The card is on that pile, unless the same move completed it (R17).
            if event["pile_count"] < SEQUENCE_LENGTH and event is frame["events"][0]:
                assert pile[-1] == event["card"]
                checked += 1
        if event["type"] == "BlockWindowOpened" and view["phase"] == "block_window":
            assert view["window_pile"] == event["slot"]
            assert len(view["piles"][event["slot"]]) == SEQUENCE_LENGTH
            checked += 1
    return checked


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_events_name_piles_by_slot_and_carry_their_lines(seed: int) -> None:
    set_language("en")
    table, _ = _table(2, 4, seed, piles_per_colour=3)
    rng = random.Random(seed)
    checked = 0
    while table.state is not None and not table.state.is_over:
        entry = _step(table, rng)
        for seat in (None, 0, 1):
            frame = _update(table, entry, seat)
            checked += _check_events(frame)
            _check_view(frame["view"], 3)
    assert checked > 10


def test_an_entry_carries_its_own_line() -> None:
    set_language("en")
    table, entries = _table(2, 3, 7)
    sit, start = _update(table, entries[1], None), _update(table, entries[-1], 1)
    assert sit["message"] == {"key": "log.sit", "args": {"player": 1}}
    assert _line(sit["message"]) == "Player 2 takes a seat."
    assert start["message"] == {"key": "log.start", "args": {"game": 1}}
    assert sit["timed_out"] is start["timed_out"] is False
    moved = _update(table, _step(table, random.Random(7)), 0)
    assert moved["message"] is None
    assert moved["timed_out"] is False


def test_a_person_s_automatic_move_is_timed_out_and_a_bot_s_is_not() -> None:
    table, _ = _table(1, 2, 11)  # seat 0 a person, seat 1 a bot
    rng = random.Random(11)
    seen = {True: 0, False: 0}
    while table.state is not None and not table.state.is_over and min(seen.values()) < 3:
        entry = _step(table, rng, auto=True)
        frame = _update(table, entry, 0)
        person = entry.seat == 0
        assert frame["timed_out"] is person
        assert (frame["message"] is not None) is person
        seen[person] += 1
    assert min(seen.values()) >= 3


def test_sync_frames_carry_the_slots_and_whether_hints_are_offered() -> None:
    practice, _ = _table(1, 3, 5, piles_per_colour=3)
    sync = _sync(practice, 0)
    assert sync["slots"] == [{"colour": c, "index": i} for c in (0, 1) for i in range(3)]
    assert len(sync["slots"]) == len(sync["view"]["piles"])
    assert sync["hints"] is True  # a person alone with bots: a practice game
    assert _sync(practice, None)["hints"] is False
    _check_view(sync["view"], 3)
    together, _ = _table(2, 3, 5)
    assert _sync(together, 0)["hints"] is False
    lobby = Table(TableRow("u", 0.0, "public", Settings(player_count=2).to_dict()))
    assert _sync(lobby, None)["slots"] is None


@pytest.mark.parametrize("seed", [3, 4])
def test_the_action_table_names_the_slot_a_play_goes_on(seed: int) -> None:
    """A play's slot (or, for a new pile, the view's new_pile_slots of its colour) is the
    pile the engine puts the card on."""
    table, _ = _table(2, 2, seed, piles_per_colour=2)
    rng = random.Random(seed)
    checked = 0
    for _ in range(60):
        state = table.state
        if state is None or state.is_over:
            break
        seat = state.deciders()[0]
        sync = _sync(table, seat)
        view, actions = sync["view"], sync["action_table"]
        for action_id in view["legal_action_ids"]:
            fields = actions[action_id]
            if fields["type"] != "play":
                continue
            assert fields["colour"] == kind_colour(fields["kind"])
            slot = fields["slot"]
            if slot is None:
                slot = view["new_pile_slots"][fields["colour"]]
            trial = state.clone()
            action = action_space(2, 2).action(action_id, seat)
            apply_in_place(trial, seat, action)
            grown = [s for s, pile in enumerate(trial.piles) if len(pile) > len(state.piles[s])]
            if grown:  # a completed pile goes to the pool at once when nobody is asked
                assert grown == [slot]
                assert CARD_KIND[trial.piles[slot][-1]] == fields["kind"]
                checked += 1
        _step(table, rng)
    assert checked > 5


def test_the_catalog_serves_the_engine_s_and_the_server_s_vocabularies() -> None:
    with TestClient(create_app(FAST, storage=MemoryStorage())) as client:
        served = client.get("/api/catalog").json()
    assert served["ops"] == [op.value for op in Op]
    assert served["seat_kinds"] == [kind.value for kind in SeatKind]
    assert served["table_statuses"] == [status.value for status in TableStatus]
    assert served["timer_kinds"] == [kind.value for kind in TimerKind]
    assert served["phases"] == ["playing", "block_window", "over"]
    assert served["events"]["CardPlayed"] == [
        "seat",
        "card",
        "from_discard",
        "colour",
        "slot",
        "pile_count",
    ]


@pytest.mark.parametrize("player_count", [2, 4])
def test_an_entry_made_once_for_everyone_is_what_each_viewer_hears(player_count: int) -> None:
    """``EntryViews`` (made once per broadcast, sharing what is the same for everyone)
    gives each viewer its own rendering of the entry: a draw's cards and a Block
    answer only to whom they belong (R35, R29); ``whole`` only for an entry with
    nothing to hide."""
    table, entries = _table(player_count, player_count, seed=23)
    rng = random.Random(23)
    while table.state is not None and not table.state.is_over and len(entries) < 400:
        entries.append(_step(table, rng))
    wholes = 0
    for entry in entries:
        for event in entry.events:  # what EntryViews relies on: one copy for the others
            spectators = event_for(event, None)
            for seat in range(player_count):
                seen = event_for(event, seat)
                assert seen is event or seen == spectators
        views = EntryViews(table, entry)
        own = {seat: table_entry(table, entry, seat) for seat in (None, *range(player_count))}
        assert {seat: views.of(seat) for seat in own} == own
        if views.whole is not None:
            wholes += 1
            assert all(view == views.whole for view in own.values())
        else:
            assert any(view != own[None] for view in own.values())
    assert 20 < wholes < len(entries) - 20


@pytest.mark.parametrize("player_count", [2, 3, 5])
def test_the_view_changes_every_viewer_shares_are_found_once(player_count: int) -> None:
    """Every view of one position agrees on PUBLIC_VIEW_FIELDS (only the viewer's seat,
    hand, hidden cards, Block answer and legal actions differ, R35), so the shared
    changes found once and each viewer's own give each viewer its whole change."""
    table, _ = _table(player_count, player_count, seed=31)
    rng = random.Random(31)
    viewers = (None, *range(player_count))
    shared_fields = 0
    for _ in range(250):
        state = table.state
        if state is None or state.is_over:
            break
        before = {seat: observe(state, seat) for seat in viewers}
        entry = _step(table, rng)
        assert table.state is not None
        after = {seat: observe(table.state, seat) for seat in viewers}
        for name in PUBLIC_VIEW_FIELDS:
            assert len({repr(getattr(view, name)) for view in after.values()}) == 1, name
        public = public_view_changes(table, before[None], after[None])
        shared_fields += len(public)
        for seat in viewers:
            whole = view_changes(table, before[seat], after[seat])
            assert view_changes(table, before[seat], after[seat], public) == whole, entry
    assert shared_fields > 250
