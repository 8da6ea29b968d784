"""Actions: structured values, a short text notation, and stable integer ids.

Notation (see docs/records.md):

=====================  ==============================================================
``B3>1``               play a blue 3 from the hand on blue pile 1 (piles count from 1)
``BW>new``             start a new blue pile with a blue wild
``^R2>2``              play the top of one's own discard pile (``^``) on red pile 2
``SKIP`` ``REV``       Skip, Reverse (``^SKIP`` from the discard top)
``SCARD>p2``           Steal-a-Card from seat 2's discard pile
``SCHIP>p2:R``         Steal-a-Chip: take a red chip from seat 2
``discard B3``         end the turn by discarding a blue 3 from the hand
``end``                end the turn with an empty hand (R19)
``block`` ``pass``     answer a Block window (R29)
=====================  ==============================================================

Integer ids form one fixed action space per (player count, piles per colour); victims
are encoded relative to the acting seat so the space is the same for every seat.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
from typing import Final

from .cards import COLOUR_LETTERS, KIND_COUNT, Kind, kind_colour, kind_from_text, kind_text
from .errors import NotationError, shown

__all__ = [
    "Action",
    "ActionSpace",
    "ActionType",
    "action_space",
    "parse_action",
]


class ActionType(enum.IntEnum):
    """What an action does."""

    PASS = 0
    BLOCK = 1
    END = 2
    DISCARD = 3
    PLAY = 4
    SKIP = 5
    REVERSE = 6
    STEAL_CARD = 7
    STEAL_CHIP = 8


@dataclasses.dataclass(frozen=True, slots=True)
class Action:
    """One decision of one seat.

    Attributes:
        type: what the action does.
        kind: the card kind played or discarded (None for pass, block, end).
        from_discard: True when the card is the top of the actor's own discard pile.
        pile: for PLAY, the pile index within the card's colour, or None for a new pile.
        victim: the opponent's seat for Steal-a-Card and Steal-a-Chip.
        colour: the chip colour for Steal-a-Chip (0 blue, 1 red).
    """

    type: ActionType
    kind: Kind | None = None
    from_discard: bool = False
    pile: int | None = None
    victim: int | None = None
    colour: int | None = None

    def __str__(self) -> str:
        return self.notation()

    def notation(self) -> str:
        """Return the action's short text form, which :func:`parse_action` reads back."""
        kind_type = self.type
        if kind_type in _PLAIN_WORDS:
            return _PLAIN_WORDS[kind_type]
        assert self.kind is not None
        if kind_type == ActionType.DISCARD:
            return f"discard {kind_text(self.kind)}"
        text = ("^" if self.from_discard else "") + kind_text(self.kind)
        if kind_type == ActionType.PLAY:
            return f"{text}>{'new' if self.pile is None else self.pile + 1}"
        if kind_type == ActionType.STEAL_CARD:
            return f"{text}>p{self.victim}"
        if kind_type == ActionType.STEAL_CHIP:
            letter = COLOUR_LETTERS[self.colour] if self.colour in (0, 1) else f"?{self.colour}"
            return f"{text}>p{self.victim}:{letter}"
        return text

    @classmethod
    def parse(cls, text: str) -> Action:
        """Parse an action's notation; see :func:`parse_action`."""
        return parse_action(text)


_PLAIN_WORDS: Final = {ActionType.PASS: "pass", ActionType.BLOCK: "block", ActionType.END: "end"}
_WORD_ACTIONS: Final = {word: Action(kind) for kind, word in _PLAIN_WORDS.items()}
_KIND_TYPES: Final = {
    Kind.SKIP: ActionType.SKIP,
    Kind.REV: ActionType.REVERSE,
    Kind.SCARD: ActionType.STEAL_CARD,
    Kind.SCHIP: ActionType.STEAL_CHIP,
}


def parse_action(text: str) -> Action:
    """Parse the notation of an action; raise NotationError (R37) if it is malformed."""
    if not isinstance(text, str):
        raise NotationError(f"an action must be text, not {type(text).__name__}")
    cleaned = text.strip()
    lowered = cleaned.lower()
    if lowered in _WORD_ACTIONS:
        return _WORD_ACTIONS[lowered]
    try:
        if lowered.startswith("discard "):
            return Action(ActionType.DISCARD, kind_from_text(cleaned[8:]))
        return _parse_card_action(cleaned)
    except ValueError as error:
        raise NotationError(f"cannot read action {shown(text)}: {error} (R37)") from None


def _parse_card_action(text: str) -> Action:
    from_discard = text.startswith("^")
    body = text[1:] if from_discard else text
    kind_part, _, target = body.partition(">")
    kind = kind_from_text(kind_part)
    if kind == Kind.BLOCK:
        raise ValueError("a Block is only played by answering 'block' in a Block window")
    if kind < 12:
        return Action(ActionType.PLAY, kind, from_discard, pile=_parse_pile(target))
    action_type = _KIND_TYPES[kind]
    if action_type in (ActionType.SKIP, ActionType.REVERSE):
        if target:
            raise ValueError(f"{kind_text(kind)} takes no target")
        return Action(action_type, kind, from_discard)
    victim_part, _, colour_part = target.partition(":")
    victim = _parse_seat(victim_part)
    if action_type == ActionType.STEAL_CARD:
        if colour_part:
            raise ValueError("SCARD takes a seat only, e.g. SCARD>p2")
        return Action(action_type, kind, from_discard, victim=victim)
    return Action(action_type, kind, from_discard, victim=victim, colour=_parse_colour(colour_part))


def _parse_pile(target: str) -> int | None:
    if target.lower() == "new":
        return None
    number = _parse_number(target, "pile")
    if number is None or number < 1:
        raise ValueError(f"pile {shown(target)} must be 'new' or a pile number from 1, e.g. B3>1")
    return number - 1


def _parse_seat(text: str) -> int:
    number = _parse_number(text[1:], "seat") if text[:1].lower() == "p" else None
    if number is None:
        raise ValueError(f"seat {shown(text)} must look like p2")
    return number


def _parse_number(text: str, what: str) -> int | None:
    """Read ASCII digits (None if ``text`` is not that); refuse numbers no game has."""
    if not (text.isascii() and text.isdigit()):
        return None
    if len(text) > 6:  # R5, R9: seats and piles are single digits; int() of a huge one fails
        raise ValueError(f"{what} number {shown(text)} is far too large")
    return int(text)


def _parse_colour(text: str) -> int:
    letter = text.upper()
    if letter not in COLOUR_LETTERS:
        raise ValueError(f"chip colour {shown(text)} must be B or R")
    return COLOUR_LETTERS.index(letter)


KindIds = list[tuple[int, ...]]


class ActionSpace:
    """The fixed integer action space for a player count and piles per colour.

    Layout: 0 pass, 1 block, 2 end, 3-19 discard by kind, then play (source x coloured
    kind x target), Skip (source), Reverse (source), Steal-a-Card (source x victim
    offset), Steal-a-Chip (source x victim offset x colour). A victim offset ``o`` means
    the seat ``(actor + o) % player_count``.
    """

    def __init__(self, player_count: int, piles_per_colour: int) -> None:
        self.player_count = player_count
        self.piles_per_colour = piles_per_colour
        self.targets_per_kind = piles_per_colour + 1
        self.play_base = 3 + KIND_COUNT
        self.skip_base = self.play_base + 2 * 12 * self.targets_per_kind
        self.reverse_base = self.skip_base + 2
        self.steal_card_base = self.reverse_base + 2
        self.steal_chip_base = self.steal_card_base + 2 * (player_count - 1)
        self.size = self.steal_chip_base + 4 * (player_count - 1)
        self._by_seat = tuple(self._table(seat) for seat in range(player_count))
        self._ids = tuple({action: index for index, action in enumerate(t)} for t in self._by_seat)
        # Filled by the legality module: pile-length shape -> ids per kind (hand, top).
        self.shape_cache: dict[tuple[int, ...], tuple[KindIds, KindIds]] = {}

    def _table(self, seat: int) -> tuple[Action, ...]:
        table: list[Action] = [_WORD_ACTIONS["pass"], _WORD_ACTIONS["block"], _WORD_ACTIONS["end"]]
        table += [Action(ActionType.DISCARD, Kind(k)) for k in range(KIND_COUNT)]
        piles: tuple[int | None, ...] = (*range(self.piles_per_colour), None)
        for source in (False, True):
            table += [
                Action(ActionType.PLAY, Kind(k), source, pile=p) for k in range(12) for p in piles
            ]
        for action_type, kind in ((ActionType.SKIP, Kind.SKIP), (ActionType.REVERSE, Kind.REV)):
            table += [Action(action_type, kind, source) for source in (False, True)]
        victims = [(seat + offset) % self.player_count for offset in range(1, self.player_count)]
        for source in (False, True):
            table += [Action(ActionType.STEAL_CARD, Kind.SCARD, source, victim=v) for v in victims]
        for source in (False, True):
            table += [
                Action(ActionType.STEAL_CHIP, Kind.SCHIP, source, victim=v, colour=c)
                for v in victims
                for c in (0, 1)
            ]
        return tuple(table)

    def action(self, action_id: int, seat: int) -> Action:
        """Return the structured action with this id for this seat."""
        if not 0 <= action_id < self.size:
            raise NotationError(f"action id {action_id} is outside 0-{self.size - 1} (R37)")
        return self._by_seat[seat][action_id]

    def actions_of(self, seat: int) -> tuple[Action, ...]:
        """Return the whole table of structured actions for one seat, indexed by id."""
        return self._by_seat[seat]

    def has(self, action: Action, seat: int) -> bool:
        """Return True if ``action`` is one of this seat's actions (no stray fields)."""
        return action in self._ids[seat]

    def id_of(self, action: Action, seat: int) -> int:
        """Return the id of a structured action for this seat; raise if it has none."""
        action_id = self._ids[seat].get(action)
        if action_id is None:
            raise NotationError(f"action {action} has no id for seat {seat} in this game (R37)")
        return action_id

    def play_id(self, from_discard: bool, kind: int, target: int) -> int:
        """Return the id of playing a coloured kind on pile ``target`` (P means new)."""
        return (
            self.play_base + ((12 if from_discard else 0) + kind) * self.targets_per_kind + target
        )


@functools.lru_cache(maxsize=64)
def action_space(player_count: int, piles_per_colour: int) -> ActionSpace:
    """Return the shared action space for a player count and piles per colour."""
    return ActionSpace(player_count, piles_per_colour)


def colour_of(action: Action) -> int:
    """Return the colour a PLAY action's card belongs to."""
    assert action.kind is not None
    return kind_colour(action.kind)
