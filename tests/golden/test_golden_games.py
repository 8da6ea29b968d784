"""Golden games: recorded games must replay to the same digest and result (R41).

Each record in ``records/`` names in ``meta.covers`` the features its game shows; the
tests replay it and check every claim from the replayed events, so the golden set cannot
silently lose coverage. If a deliberate engine change alters these games, regenerate
them with ``python -m tests.golden.make_golden`` and review the diff.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sequence_stacks.engine import (
    Action,
    ActionType,
    DrawReason,
    Event,
    GameRecord,
    Replay,
    Settings,
    State,
    position_digest,
    validate_state,
)
from sequence_stacks.engine.events import (
    BlockAnswered,
    BlockWindowOpened,
    CardPlayed,
    CardsDrawn,
    CardStolen,
    ChipStolen,
    ChipTaken,
    GameEnded,
    PileBlocked,
    Reshuffled,
    ReversePlayed,
    SkipPlayed,
    TurnSkipped,
    TurnStarted,
)

from . import make_golden

RECORDS_DIR = Path(__file__).resolve().parent / "records"
RECORD_PATHS = sorted(RECORDS_DIR.glob("*.json"))
REGENERATE = "if the engine change is deliberate, run `python -m tests.golden.make_golden`"

# What the golden set as a whole must show (the brief of the golden tier).
REQUIRED_COVERAGE = frozenset(
    {
        "skip",
        "reverse",
        "steal_card",
        "steal_chip",
        "block",
        "reshuffle",
        "stalemate",
        "max_turns",
        "win",
        "two_players",
        "six_players",
        "variant",
    }
)


@dataclasses.dataclass(frozen=True)
class Played:
    """A replayed record: its actions, every event (deal included) and the end state."""

    record: GameRecord
    actions: tuple[tuple[int, Action], ...]
    events: tuple[Event, ...]
    final: State

    def has(self, kind: type[Any], test: Callable[[Any], bool] = lambda _: True) -> bool:
        """True if some event is a ``kind`` for which ``test`` holds."""
        return any(isinstance(event, kind) and test(event) for event in self.events)

    @property
    def player_count(self) -> int:
        """The record's player count."""
        return self.record.settings.player_count


def replay(path: Path) -> Played:
    """Load and replay a record, checking conservation after every action (R39)."""
    record = GameRecord.from_dict(json.loads(path.read_text(encoding="utf-8")))
    steps = Replay(record)
    events: list[Event] = list(steps.start_events)
    for _, _, _, step_events in steps:
        validate_state(steps.state)
        events.extend(step_events)
    return Played(record, record.actions, tuple(events), steps.state)


# --- the coverage tags and how the replayed events prove them --------------------------


def _two_blockers(played: Played) -> bool:
    """Some Block window had two seats answer block, and the first of them in turn
    order spent the Block card (R29, N5)."""
    asked: tuple[int, ...] = ()
    blockers: set[int] = set()
    for event in played.events:
        if isinstance(event, BlockWindowOpened):
            asked, blockers = event.asked, set()
        elif isinstance(event, BlockAnswered) and event.blocked:
            blockers.add(event.seat)
        elif isinstance(event, PileBlocked) and len(blockers) >= 2:
            first = next(seat for seat in asked if seat in blockers)
            return event.blocker == first
    return False


def _skip_another_turn(played: Played) -> bool:
    """With two players, a Skip's player starts the next turn too (R26)."""
    turns = [event for event in played.events if isinstance(event, SkipPlayed | TurnStarted)]
    return played.player_count == 2 and any(
        isinstance(first, SkipPlayed) and isinstance(then, TurnStarted) and then.seat == first.seat
        for first, then in itertools.pairwise(turns)
    )


def _steal_chip_win(played: Played) -> bool:
    """The game ended on a Steal-a-Chip by the winner (N10)."""
    events = played.events
    return (
        len(events) >= 2
        and isinstance(events[-1], GameEnded)
        and isinstance(events[-2], ChipStolen)
        and events[-1].winner == events[-2].seat
    )


def _variant(played: Played) -> bool:
    """Some option other than the player count differs from its default (R40)."""
    defaults = Settings(player_count=played.player_count)
    return any(
        getattr(played.record.settings, field.name) != getattr(defaults, field.name)
        for field in dataclasses.fields(Settings)
    )


def _ended(reason: str) -> Callable[[Played], bool]:
    return lambda played: played.final.result is not None and played.final.result.reason == reason


COVERAGE: dict[str, Callable[[Played], bool]] = {
    "win": _ended("win"),
    "stalemate": _ended("stalemate"),
    "max_turns": _ended("max_turns"),
    "two_players": lambda p: p.player_count == 2,
    "six_players": lambda p: p.player_count == 6,
    "variant": _variant,
    "skip": lambda p: p.has(SkipPlayed) and p.has(TurnSkipped),
    "skip_another_turn": _skip_another_turn,
    "reverse": lambda p: p.player_count > 2 and p.has(ReversePlayed),
    "reverse_no_effect": lambda p: (
        p.player_count == 2 and p.has(ReversePlayed, lambda e: e.direction == 1)
    ),
    "steal_card": lambda p: p.has(CardStolen),
    "steal_chip": lambda p: p.has(ChipStolen),
    "steal_chip_win": _steal_chip_win,
    "block": lambda p: p.has(PileBlocked),
    "two_blockers": _two_blockers,
    "reshuffle": lambda p: p.has(Reshuffled),
    "supply_empty": lambda p: p.has(ChipTaken, lambda e: not e.taken),
    "from_discard": lambda p: p.has(CardPlayed, lambda e: e.from_discard),
    "empty_hand_draw": lambda p: p.has(
        CardsDrawn, lambda e: e.reason == DrawReason.EMPTY_HAND and e.count
    ),
    "end_action": lambda p: any(action.type == ActionType.END for _, action in p.actions),
}


# --- the tests -----------------------------------------------------------------------


def test_there_are_golden_records() -> None:
    """At least ten records, small enough to keep in the repository."""
    assert len(RECORD_PATHS) >= 10
    assert sum(path.stat().st_size for path in RECORD_PATHS) < 1_000_000


@pytest.mark.parametrize("path", RECORD_PATHS, ids=lambda path: path.stem)
def test_golden_record_replays_to_its_digest_and_result(path: Path) -> None:
    """R41: the record replays to the same final position and result."""
    data = json.loads(path.read_text(encoding="utf-8"))
    record = GameRecord.from_dict(data)
    assert record.to_dict() == data, "the record is not in canonical GameRecord form"
    assert record.digest is not None
    assert record.result is not None
    played = replay(path)
    assert position_digest(played.final) == record.digest, REGENERATE
    assert played.final.result == record.result, REGENERATE
    assert record.replay() == played.final


@pytest.mark.parametrize("path", RECORD_PATHS, ids=lambda path: path.stem)
def test_golden_record_shows_what_it_covers(path: Path) -> None:
    """Every feature named in ``meta.covers`` really happens in the replayed game."""
    played = replay(path)
    meta = played.record.meta
    assert meta["name"] == path.stem
    assert meta["description"]
    covers = meta["covers"]
    assert covers, "a golden record must say what it covers"
    unknown = set(covers) - set(COVERAGE)
    assert not unknown, f"unknown coverage tags {sorted(unknown)}"
    missing = [tag for tag in covers if not COVERAGE[tag](played)]
    assert not missing, f"{path.name} claims {missing} but the replay does not show it"


@pytest.mark.parametrize("path", RECORD_PATHS, ids=lambda path: path.stem)
def test_golden_record_names_its_variant_options(path: Path) -> None:
    """``meta.variant`` lists exactly the options off their defaults (R40)."""
    record = GameRecord.from_dict(json.loads(path.read_text(encoding="utf-8")))
    settings = record.settings.to_dict()
    defaults = Settings(player_count=record.settings.player_count).to_dict()
    named = dict(option.split("=", 1) for option in record.meta["variant"])
    assert named == {
        name: str(value)
        for name, value in settings.items()
        if name != "player_count" and value != defaults[name]
    }


def test_golden_set_covers_every_required_feature() -> None:
    """Together the records cover every action card, every ending, 2 and 6 players and
    a non-default variant, each proven by a replay."""
    shown: set[str] = set()
    for path in RECORD_PATHS:
        played = replay(path)
        shown.update(tag for tag in played.record.meta["covers"] if COVERAGE[tag](played))
    assert shown >= REQUIRED_COVERAGE, f"not covered: {sorted(REQUIRED_COVERAGE - shown)}"


def test_records_match_the_generator_specs() -> None:
    """Every spec of make_golden.py has its record, with its settings and claims."""
    specs = {spec.name: spec for spec in make_golden.SPECS}
    assert sorted(specs) == sorted(path.stem for path in RECORD_PATHS)
    for path in RECORD_PATHS:
        record = GameRecord.from_dict(json.loads(path.read_text(encoding="utf-8")))
        spec = specs[path.stem]
        assert record.settings == spec.settings, REGENERATE
        assert record.meta["covers"] == list(spec.covers), REGENERATE
