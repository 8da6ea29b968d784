"""Typed, frozen events: every change to a game is one (STYLE principle 6).

Events that carry private content (the cards a seat drew, a seat's answer in a Block
window) are redacted by :func:`event_for` for every seat that may not see it (R35, R36).
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Any

from .state import EndReason

__all__ = [
    "BlockAnswered",
    "BlockWindowOpened",
    "CardPlayed",
    "CardStolen",
    "CardsDrawn",
    "ChipStolen",
    "ChipTaken",
    "Discarded",
    "DrawReason",
    "Event",
    "GameEnded",
    "PileBlocked",
    "PileCompleted",
    "Reshuffled",
    "ReversePlayed",
    "SkipPlayed",
    "TurnEnded",
    "TurnSkipped",
    "TurnStarted",
    "event_for",
    "event_to_dict",
]


class DrawReason(enum.StrEnum):
    """Why a seat drew: the deal (R6), the refill at a turn's start (R13), or an
    emptied hand (R18)."""

    DEAL = "deal"
    REFILL = "refill"
    EMPTY_HAND = "empty-hand"


@dataclasses.dataclass(frozen=True, slots=True)
class TurnStarted:
    """A seat's turn began (R13); ``turn_number`` counts turns taken, from 1."""

    seat: int
    turn_number: int


@dataclasses.dataclass(frozen=True, slots=True)
class TurnSkipped:
    """A seat lost its turn to a Skip (R23, R26)."""

    seat: int


@dataclasses.dataclass(frozen=True, slots=True)
class Reshuffled:
    """The pool was shuffled into a new draw pile (R22)."""

    shuffle_index: int
    card_count: int


@dataclasses.dataclass(frozen=True, slots=True)
class CardsDrawn:
    """A seat drew cards (R13, R18); ``cards`` is empty in other seats' copies (R35)."""

    seat: int
    count: int
    cards: tuple[int, ...]
    reason: DrawReason


@dataclasses.dataclass(frozen=True, slots=True)
class CardPlayed:
    """A number or wild card went on a sequence pile (R15, R16)."""

    seat: int
    card: int
    from_discard: bool
    colour: int
    pile: int
    pile_count: int


@dataclasses.dataclass(frozen=True, slots=True)
class SkipPlayed:
    """A Skip was played (R23); ``pending_skips`` is the count now waiting (R26)."""

    seat: int
    card: int
    from_discard: bool
    pending_skips: int


@dataclasses.dataclass(frozen=True, slots=True)
class ReversePlayed:
    """A Reverse was played (R24); ``direction`` is now +1 (left) or -1 (R27)."""

    seat: int
    card: int
    from_discard: bool
    direction: int


@dataclasses.dataclass(frozen=True, slots=True)
class CardStolen:
    """Steal-a-Card took ``stolen`` from ``victim``'s discard pile (R25); public."""

    seat: int
    card: int
    from_discard: bool
    victim: int
    stolen: int


@dataclasses.dataclass(frozen=True, slots=True)
class ChipStolen:
    """Steal-a-Chip took a chip of ``colour`` from ``victim`` (R28)."""

    seat: int
    card: int
    from_discard: bool
    victim: int
    colour: int


@dataclasses.dataclass(frozen=True, slots=True)
class BlockWindowOpened:
    """A pile was completed; every seat in ``asked`` must answer block or pass (R29)."""

    completer: int
    colour: int
    pile: int
    asked: tuple[int, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class BlockAnswered:
    """A seat answered the Block window; ``blocked`` is None in others' copies (R29)."""

    seat: int
    blocked: bool | None


@dataclasses.dataclass(frozen=True, slots=True)
class PileBlocked:
    """``blocker`` spent ``card`` and the completed pile went to the pool, no chip (R29)."""

    blocker: int
    card: int
    colour: int
    pile: int
    cards: tuple[int, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class PileCompleted:
    """The completed pile went to the pool unblocked (R17)."""

    seat: int
    colour: int
    pile: int
    cards: tuple[int, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class ChipTaken:
    """The completer took a chip (R17); ``taken`` is False when the supply was empty."""

    seat: int
    colour: int
    taken: bool


@dataclasses.dataclass(frozen=True, slots=True)
class Discarded:
    """A seat discarded a card from the hand, ending the turn (R19)."""

    seat: int
    card: int


@dataclasses.dataclass(frozen=True, slots=True)
class TurnEnded:
    """A seat's turn ended (R19); ``discarded`` is False for an empty-hand end."""

    seat: int
    discarded: bool


@dataclasses.dataclass(frozen=True, slots=True)
class GameEnded:
    """The game ended (R31, R33, N17); ``returns`` as in :class:`~.state.Result`."""

    reason: EndReason
    winner: int | None
    returns: tuple[float, ...]


Event = (
    TurnStarted
    | TurnSkipped
    | Reshuffled
    | CardsDrawn
    | CardPlayed
    | SkipPlayed
    | ReversePlayed
    | CardStolen
    | ChipStolen
    | BlockWindowOpened
    | BlockAnswered
    | PileBlocked
    | PileCompleted
    | ChipTaken
    | Discarded
    | TurnEnded
    | GameEnded
)


def event_for(event: Event, seat: int | None) -> Event:
    """Return the copy of ``event`` that ``seat`` may see (None: a spectator)."""
    # Made directly, not by dataclasses.replace (a generic walk over the fields): every
    # frame a server sends a seat asks this of every event of the entry.
    if isinstance(event, CardsDrawn) and event.seat != seat and event.cards:
        return CardsDrawn(event.seat, event.count, (), event.reason)
    if isinstance(event, BlockAnswered) and event.seat != seat and event.blocked is not None:
        return BlockAnswered(event.seat, None)
    return event


def event_to_dict(event: Event) -> dict[str, Any]:
    """Return an event as JSON-ready data with its type name under ``"type"``."""
    data: dict[str, Any] = {"type": type(event).__name__}
    for field in dataclasses.fields(event):
        value = getattr(event, field.name)
        if isinstance(value, tuple):
            value = list(value)
        elif isinstance(value, enum.Enum):
            value = value.value
        data[field.name] = value
    return data
