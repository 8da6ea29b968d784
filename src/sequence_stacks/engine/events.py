"""Typed, frozen events: every change to a game is one (STYLE principle 6).

Events that carry private content (the cards a seat drew, a seat's answer in a Block
window) are redacted by :func:`event_for` for every seat that may not see it (R35, R36).
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Any, Final

from .cards import COLOUR_NAMES, card_text
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
    "describe_event",
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
    if isinstance(event, CardsDrawn) and event.seat != seat and event.cards:
        return dataclasses.replace(event, cards=())
    if isinstance(event, BlockAnswered) and event.seat != seat and event.blocked is not None:
        return dataclasses.replace(event, blocked=None)
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


_REASONS: Final = {
    DrawReason.DEAL: "was dealt",
    DrawReason.REFILL: "drew",
    DrawReason.EMPTY_HAND: "emptied the hand and drew",
}


def _player(seat: int) -> str:
    return f"Player {seat}"


def _from(from_discard: bool) -> str:
    return " from the discard pile" if from_discard else ""


def describe_event(event: Event) -> str:  # noqa: PLR0911 - one short sentence per event type
    """Return one plain-language sentence for a game log."""
    if isinstance(event, TurnStarted):
        return f"{_player(event.seat)}'s turn (turn {event.turn_number})."
    if isinstance(event, TurnSkipped):
        return f"{_player(event.seat)} is skipped."
    if isinstance(event, Reshuffled):
        return f"The pool ({event.card_count} cards) is shuffled into a new draw pile."
    if isinstance(event, CardsDrawn):
        shown = f": {', '.join(map(card_text, event.cards))}" if event.cards else ""
        plural = "card" if event.count == 1 else "cards"
        return f"{_player(event.seat)} {_REASONS[event.reason]} {event.count} {plural}{shown}."
    if isinstance(event, CardPlayed):
        where = f"{COLOUR_NAMES[event.colour]} pile {event.pile + 1}"
        return (
            f"{_player(event.seat)} plays {card_text(event.card)}{_from(event.from_discard)} "
            f"on {where} (now {event.pile_count})."
        )
    if isinstance(event, SkipPlayed | ReversePlayed):
        name = "a Skip" if isinstance(event, SkipPlayed) else "a Reverse"
        return f"{_player(event.seat)} plays {name}{_from(event.from_discard)}."
    if isinstance(event, CardStolen):
        return (
            f"{_player(event.seat)} steals {card_text(event.stolen)} from "
            f"{_player(event.victim)}'s discard pile."
        )
    if isinstance(event, ChipStolen):
        colour = COLOUR_NAMES[event.colour]
        return f"{_player(event.seat)} steals a {colour} chip from {_player(event.victim)}."
    return _describe_late(event)


def _describe_late(event: Event) -> str:  # noqa: PLR0911 - one short sentence per event type
    if isinstance(event, BlockWindowOpened):
        colour = COLOUR_NAMES[event.colour]
        return f"{_player(event.completer)} completes a {colour} sequence; opponents may block."
    if isinstance(event, BlockAnswered):
        answer = {None: "answers", True: "answers block", False: "answers pass"}[event.blocked]
        return f"{_player(event.seat)} {answer}."
    if isinstance(event, PileBlocked):
        return (
            f"{_player(event.blocker)} blocks! The {COLOUR_NAMES[event.colour]} sequence is lost."
        )
    if isinstance(event, PileCompleted):
        return f"The {COLOUR_NAMES[event.colour]} sequence goes to the pool."
    if isinstance(event, ChipTaken):
        colour = COLOUR_NAMES[event.colour]
        if event.taken:
            return f"{_player(event.seat)} takes a {colour} chip."
        return f"No {colour} chip is left in the supply for {_player(event.seat)}."
    if isinstance(event, Discarded):
        return f"{_player(event.seat)} discards {card_text(event.card)}."
    if isinstance(event, TurnEnded):
        return "" if event.discarded else f"{_player(event.seat)} ends the turn with no cards."
    if isinstance(event, GameEnded):
        if event.winner is not None:
            return f"{_player(event.winner)} wins!"
        return f"The game ends with no winner ({event.reason.replace('_', ' ')})."
    raise TypeError(f"not an event: {event!r}")
