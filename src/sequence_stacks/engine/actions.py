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
from typing import Final, final

from .cards import (
    COLOUR_LETTERS,
    COLOURED_KINDS,
    COLOURS,
    KIND_COUNT,
    Kind,
    kind_colour,
    kind_from_text,
    kind_text,
)
from .compiling import given, python_class
from .errors import IllegalActionError, IllegalCode, NotationError, shown

__all__ = [
    "BLOCK_ID",
    "DISCARD_BASE",
    "END_ID",
    "PASS_ID",
    "Action",
    "ActionSpace",
    "ActionType",
    "action_space",
    "parse_action",
]

# The first ids of every action space (the same for every seat and table size).
PASS_ID: Final = 0
BLOCK_ID: Final = 1
END_ID: Final = 2
DISCARD_BASE: Final = 3  # discarding a card of kind k is DISCARD_BASE + k
_COLOURED: Final = len(COLOURED_KINDS)


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


@python_class  # it refuses badly typed fields itself (R37), see compiling.py
@dataclasses.dataclass(frozen=True, slots=True)
class Action:
    """One decision of one seat; always well formed (its fields fit its type).

    Building one whose fields do not fit (a Play without a coloured card, a Discard
    from the discard pile, a field its type does not use ...) raises
    IllegalActionError (R37, ``malformed_action``). Whether it is legal in a game
    (its pile and victim exist, the card is held ...) is :func:`~.rules.check`'s.

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

    def __post_init__(self) -> None:
        kind = given(self, "kind")  # built by callers that may not be type-checked
        if type(kind) is int and 0 <= kind < KIND_COUNT:  # a kind's index: the kind itself
            object.__setattr__(self, "kind", Kind(kind))
        problem = _shape_problem(self)
        if problem is not None:
            raise IllegalActionError(
                "R37",
                f"not a well-formed action: {problem}",
                code=IllegalCode.MALFORMED_ACTION,
            )

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
            assert self.colour is not None
            return f"{text}>p{self.victim}:{COLOUR_LETTERS[self.colour]}"
        return text


_CARD_KIND_OF_TYPE: Final = {
    ActionType.SKIP: Kind.SKIP,
    ActionType.REVERSE: Kind.REV,
    ActionType.STEAL_CARD: Kind.SCARD,
    ActionType.STEAL_CHIP: Kind.SCHIP,
}
_NO_CARD: Final = frozenset({ActionType.PASS, ActionType.BLOCK, ActionType.END})


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _shape_problem(action: Action) -> str | None:
    """What makes ``action``'s fields not fit its type, or None when they fit (R37)."""
    problem = _field_problem(action)
    if problem is not None:
        return problem
    action_type = action.type
    kind = action.kind
    if action_type in _NO_CARD:
        used = (kind, action.pile, action.victim, action.colour)
        if action.from_discard or any(v is not None for v in used):
            return f"{action_type.name.lower()} names no card, pile, seat or colour"
        return None
    if kind is None:
        return f"{action_type.name.lower()} names a card kind"
    if action_type in (ActionType.DISCARD, ActionType.PLAY):
        return _card_move_problem(action)
    return _action_card_problem(action)


def _field_problem(action: Action) -> str | None:
    """Fields of the wrong type (hand-built actions from untyped callers)."""
    action_type, kind, from_discard, *numbers = (
        given(action, name) for name in ("type", "kind", "from_discard", "pile", "victim", "colour")
    )
    if not isinstance(action_type, ActionType):
        return "its type is not an ActionType"
    if kind is not None and type(kind) is not Kind:
        return f"kind must be a card kind 0-{KIND_COUNT - 1}"
    if not isinstance(from_discard, bool):
        return "from_discard must be True or False"
    if not all(v is None or _is_int(v) for v in numbers):
        return "pile, victim and colour are whole numbers or None"
    return None


def _action_card_problem(action: Action) -> str | None:
    """The shape of a Skip, a Reverse and the steals (R23-R28)."""
    action_type = action.type
    card_kind = _CARD_KIND_OF_TYPE[action_type]
    if action.kind != card_kind:
        return f"{action_type.name.lower()} plays a {kind_text(card_kind)}"
    if action.pile is not None:
        return "only a play names a pile"
    steals = action_type in (ActionType.STEAL_CARD, ActionType.STEAL_CHIP)
    if (action.victim is not None) != steals:
        return "a steal, and only a steal, names a victim seat"
    if (action.colour is not None) != (action_type == ActionType.STEAL_CHIP):
        return "a Steal-a-Chip, and only it, names a chip colour"
    if action.colour is not None and action.colour not in COLOURS:
        return "a chip colour is 0 (blue) or 1 (red)"
    return None


def _card_move_problem(action: Action) -> str | None:
    """The shape of a discard (R19) and of a play on a pile (R15, R16)."""
    assert action.kind is not None
    if action.victim is not None or action.colour is not None:
        return "only a steal names a victim seat or a chip colour"
    if action.type == ActionType.DISCARD:
        if action.from_discard or action.pile is not None:
            return "a discard goes from the hand to the discard pile"
        return None
    if kind_colour(action.kind) < 0:
        return "only number and wild cards are played on a pile"
    if action.pile is not None and action.pile < 0:
        return "a pile index counts from 0"
    return None


_PLAIN_WORDS: Final = {ActionType.PASS: "pass", ActionType.BLOCK: "block", ActionType.END: "end"}
_WORD_ACTIONS: Final = {word: Action(kind) for kind, word in _PLAIN_WORDS.items()}
_KIND_TYPES: Final = {
    Kind.SKIP: ActionType.SKIP,
    Kind.REV: ActionType.REVERSE,
    Kind.SCARD: ActionType.STEAL_CARD,
    Kind.SCHIP: ActionType.STEAL_CHIP,
}


def parse_action(text: object) -> Action:
    """Parse the notation of an action; raise NotationError (R37) if it is malformed or
    not text at all."""
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
    if kind_colour(kind) >= 0:
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


@final
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
        self.discard_base = DISCARD_BASE
        self.play_base = DISCARD_BASE + KIND_COUNT
        self.skip_base = self.play_base + 2 * _COLOURED * self.targets_per_kind
        self.reverse_base = self.skip_base + 2
        self.steal_card_base = self.reverse_base + 2
        self.steal_chip_base = self.steal_card_base + 2 * (player_count - 1)
        self.size = self.steal_chip_base + 4 * (player_count - 1)
        self._by_seat = tuple(self._table(seat) for seat in range(player_count))
        self._ids = tuple({action: index for index, action in enumerate(t)} for t in self._by_seat)

    def _table(self, seat: int) -> tuple[Action, ...]:
        # PASS_ID, BLOCK_ID, END_ID, then DISCARD_BASE + kind.
        table: list[Action] = [_WORD_ACTIONS["pass"], _WORD_ACTIONS["block"], _WORD_ACTIONS["end"]]
        table += [Action(ActionType.DISCARD, Kind(k)) for k in range(KIND_COUNT)]
        piles: tuple[int | None, ...] = (*range(self.piles_per_colour), None)
        for source in (False, True):
            table += [
                Action(ActionType.PLAY, Kind(k), source, pile=p)
                for k in COLOURED_KINDS
                for p in piles
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

    def id_of(self, action: Action, seat: int) -> int:
        """Return the id of a structured action for this seat; raise if it has none."""
        action_id = self._ids[seat].get(action)
        if action_id is None:
            raise NotationError(f"action {action} has no id for seat {seat} in this game (R37)")
        return action_id

    def play_id(self, from_discard: bool, kind: int, target: int) -> int:
        """Return the id of playing a coloured kind on pile ``target`` (P means new)."""
        return (
            self.play_base
            + ((_COLOURED if from_discard else 0) + kind) * self.targets_per_kind
            + target
        )


@functools.lru_cache(maxsize=64)
def action_space(player_count: int, piles_per_colour: int) -> ActionSpace:
    """Return the shared action space for a player count and piles per colour."""
    return ActionSpace(player_count, piles_per_colour)
