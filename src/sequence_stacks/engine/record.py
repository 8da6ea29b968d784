"""Game records: settings, seed and the actions taken; they replay exactly (R40, R41)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from typing import Any, Final

from .actions import Action, parse_action
from .errors import EngineError, IllegalActionError, RecordError, shown
from .events import Event
from .fields import FieldError
from .position import header_dict, position_digest, read_header, result_from_data
from .rng import Seed
from .rules import apply_in_place, new_game
from .settings import Settings
from .state import Result, State

__all__ = ["RECORD_FORMAT", "GameRecord", "Replay"]

RECORD_FORMAT: Final = "sequence-stacks/record"
RECORD_VERSION: Final = 1
_RECORD_KEYS: Final = (
    "format",
    "version",
    "settings",
    "seed",
    "actions",
    "result",
    "digest",
    "meta",
)


@dataclasses.dataclass(frozen=True, slots=True)
class GameRecord:
    """Everything needed to reproduce one game (R41).

    Attributes:
        settings: the variant options (R40).
        seed: the shuffle seed.
        actions: ``(seat, action)`` pairs in the order they were accepted.
        result: how the game ended, or None if it was unfinished when saved.
        digest: the final position's digest, checked on replay when present.
        meta: free-form JSON data (player names, dates, bot names).
    """

    settings: Settings
    seed: Seed
    actions: tuple[tuple[int, Action], ...] = ()
    result: Result | None = None
    digest: str | None = None
    meta: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """Return the record as JSON-ready data (actions as ``"seat notation"``)."""
        result = self.result
        return {
            **header_dict(RECORD_FORMAT, RECORD_VERSION, self.settings, self.seed),
            "actions": [f"{seat} {action.notation()}" for seat, action in self.actions],
            "result": None if result is None else result.to_dict(),
            "digest": self.digest,
            "meta": dict(self.meta),
        }

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        """Parse a record; raise RecordError saying what is malformed."""
        settings, seed = read_header(
            data,
            RecordError,
            noun="record",
            title="a game record",
            format_=RECORD_FORMAT,
            version=RECORD_VERSION,
            known=_RECORD_KEYS,
        )
        raw_actions = data.get("actions", [])
        if not isinstance(raw_actions, list):
            raise RecordError("'actions' must be a list of strings like '0 B1>new'")
        actions = tuple(_parse_entry(index, entry) for index, entry in enumerate(raw_actions))
        return cls(
            settings=settings,
            seed=seed,
            actions=actions,
            result=_parse_result(data.get("result")),
            digest=_optional_str(data.get("digest"), "digest"),
            meta=_parse_meta(data.get("meta")),
        )

    def replay(self) -> State:
        """Replay every action and return the final state; verify result and digest."""
        replay = Replay(self)
        for _ in replay:
            pass
        return replay.checked_state()


class Replay:
    """Step through a record one action at a time, with each step's events.

    Iterating yields ``(index, seat, action, events)``; ``state`` is the position after
    the last step taken.
    """

    def __init__(self, record: GameRecord) -> None:
        self.record = record
        self.start_events: list[Event] = []
        self.state = new_game(record.settings, record.seed, self.start_events)

    def __iter__(self) -> Iterator[tuple[int, int, Action, list[Event]]]:
        for index, (seat, action) in enumerate(self.record.actions):
            events: list[Event] = []
            try:
                apply_in_place(self.state, seat, action, events)
            except IllegalActionError as error:
                raise RecordError(
                    f"action {index} ({seat} {action}) is illegal: {error.rule_id}: {error.reason}"
                ) from None
            yield index, seat, action, events

    def checked_state(self) -> State:
        """The state once every step is taken, checked against the record's result and
        digest (when it has them): a RecordError says which does not match."""
        final = self.state
        result = self.record.result
        if result is not None and final.result != result:
            raise RecordError(f"the record says {result} but replaying gives {final.result}")
        if self.record.digest is not None and position_digest(final) != self.record.digest:
            raise RecordError("the replayed final position does not match the record's digest")
        return final


def _parse_entry(index: int, entry: Any) -> tuple[int, Action]:
    if not isinstance(entry, str):
        raise RecordError(f"action {index} must be a string like '0 B1>new', not {shown(entry)}")
    seat_text, _, notation = entry.strip().partition(" ")
    if not (seat_text.isascii() and seat_text.isdigit()):
        raise RecordError(f"action {index} {shown(entry)} must start with the acting seat")
    if len(seat_text) > 2:  # R5: at most 6 seats; int() of a huge number would fail
        raise RecordError(f"action {index} {shown(entry)}: there is no seat {shown(seat_text)}")
    try:
        return int(seat_text), parse_action(notation)
    except EngineError as error:
        raise RecordError(f"action {index}: {error}") from None


def _parse_result(value: Any) -> Result | None:
    if value is None:
        return None
    try:
        return result_from_data(value)
    except FieldError as error:
        raise RecordError(f"malformed result: {error}") from None


def _parse_meta(value: Any) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise RecordError(f"'meta' must be a JSON object or null, not {type(value).__name__}")
    return dict(value)


def _optional_str(value: Any, name: str) -> str | None:
    if value is not None and not isinstance(value, str):
        raise RecordError(f"{name} must be a string or null, not {shown(value)}")
    return value
