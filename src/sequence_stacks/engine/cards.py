"""Cards, card kinds and the deck (RULES R1, R2, R4).

Every physical card has a stable id 0-119. Cards of one *kind* (say, blue 3) are
interchangeable in play; actions name kinds, events name card ids.

Id layout (R4): for colour c (blue 0, red 1) the number n copy k is
``c*52 + (n-1)*9 + k`` (k < 9) and the wild copy k is ``c*52 + 45 + k`` (k < 7);
action cards are 104-106 Skip, 107-109 Reverse, 110-112 Steal-a-Card,
113-115 Block, 116-119 Steal-a-Chip.
"""

from __future__ import annotations

import enum
from typing import Final

from .errors import shown

__all__ = [
    "ACTION_KINDS",
    "BLUE",
    "CARD_COLOUR",
    "CARD_COUNT",
    "CARD_KIND",
    "CARD_RANK",
    "COLOURED_KINDS",
    "COLOURS",
    "COLOUR_NAMES",
    "KIND_COUNT",
    "RED",
    "Kind",
    "card_from_text",
    "card_text",
    "deck_for",
    "kind_colour",
    "kind_from_text",
    "kind_rank",
    "kind_text",
]

BLUE: Final = 0
RED: Final = 1
COLOURS: Final = (BLUE, RED)
COLOUR_NAMES: Final = ("blue", "red")
COLOUR_LETTERS: Final = ("B", "R")
CARD_COUNT: Final = 120


class Kind(enum.IntEnum):
    """A kind of card; the 12 coloured kinds first, then the 5 action kinds."""

    B1 = 0
    B2 = 1
    B3 = 2
    B4 = 3
    B5 = 4
    BW = 5
    R1 = 6
    R2 = 7
    R3 = 8
    R4 = 9
    R5 = 10
    RW = 11
    SKIP = 12
    REV = 13
    SCARD = 14
    BLOCK = 15
    SCHIP = 16


KIND_COUNT: Final = len(Kind)
COLOURED_KINDS: Final = tuple(Kind(i) for i in range(12))
ACTION_KINDS: Final = (Kind.SKIP, Kind.REV, Kind.SCARD, Kind.BLOCK, Kind.SCHIP)

_ACTION_COPIES: Final = (
    (Kind.SKIP, 3),
    (Kind.REV, 3),
    (Kind.SCARD, 3),
    (Kind.BLOCK, 3),
    (Kind.SCHIP, 4),
)
# R2: the 2-player deck keeps 2 Skip, 0 Reverse, 2 Steal-a-Card, 2 Block, 2 Steal-a-Chip.
_TWO_PLAYER_ACTION_COPIES: Final = {
    Kind.SKIP: 2,
    Kind.REV: 0,
    Kind.SCARD: 2,
    Kind.BLOCK: 2,
    Kind.SCHIP: 2,
}

_KIND_TEXT: Final = {kind: kind.name for kind in Kind}
_TEXT_KIND: Final = {kind.name: kind for kind in Kind}


def kind_colour(kind: int) -> int:
    """Return the colour of a coloured kind (0 blue, 1 red), or -1 for an action kind."""
    return kind // 6 if kind < 12 else -1


def kind_rank(kind: int) -> int:
    """Return 1-5 for a number kind, 0 for a wild, -1 for an action kind."""
    if kind >= 12:
        return -1
    rank = kind % 6 + 1
    return 0 if rank == 6 else rank


def _build_tables() -> tuple[tuple[int, ...], dict[int, tuple[int, ...]]]:
    kinds: list[int] = []
    for colour in COLOURS:
        for rank_index in range(5):
            kinds.extend([colour * 6 + rank_index] * 9)
        kinds.extend([colour * 6 + 5] * 7)
    ids_by_action: dict[int, tuple[int, ...]] = {}
    for kind, copies in _ACTION_COPIES:
        start = len(kinds)
        kinds.extend([int(kind)] * copies)
        ids_by_action[int(kind)] = tuple(range(start, start + copies))
    return tuple(kinds), ids_by_action


_TABLES: Final = _build_tables()
CARD_KIND: Final = _TABLES[0]
_ACTION_IDS: Final = _TABLES[1]
CARD_COLOUR: Final = tuple(kind_colour(k) for k in CARD_KIND)
CARD_RANK: Final = tuple(kind_rank(k) for k in CARD_KIND)


def deck_for(player_count: int, *, keep_two_player_reverses: bool = False) -> tuple[int, ...]:
    """Return the ids of the cards in play for a player count (R1, R2).

    With two players the deck is 112 cards (R2); ``keep_two_player_reverses`` keeps the
    three Reverse cards in it (variant ``two_player_reverses``, R30).
    """
    if player_count != 2:
        return tuple(range(CARD_COUNT))
    ids = list(range(104))
    for kind, copies in _TWO_PLAYER_ACTION_COPIES.items():
        kept = 3 if kind == Kind.REV and keep_two_player_reverses else copies
        ids.extend(_ACTION_IDS[int(kind)][:kept])
    return tuple(ids)


def kind_text(kind: int) -> str:
    """Return the notation of a kind: ``B1``-``B5``, ``BW``, ``R1``-``RW``, ``SKIP`` ..."""
    return _KIND_TEXT[Kind(kind)]


def kind_from_text(text: str) -> Kind:
    """Parse a kind's notation (case-insensitive); raise ValueError if unknown."""
    kind = _TEXT_KIND.get(text.strip().upper())
    if kind is None:
        known = ", ".join(_TEXT_KIND)
        raise ValueError(f"unknown card kind {shown(text)}; expected one of {known}")
    return kind


def card_text(card_id: int) -> str:
    """Return the notation of one physical card, its kind and id: ``B3#20``."""
    return f"{kind_text(CARD_KIND[card_id])}#{card_id}"


def card_from_text(text: str) -> int:
    """Parse ``B3#20`` back to the id 20, checking that the kind matches (R4)."""
    kind_part, sep, id_part = text.strip().partition("#")
    if not sep or not (id_part.isascii() and id_part.isdigit()):
        raise ValueError(f"card {shown(text)} is not of the form KIND#ID, e.g. B3#20")
    if len(id_part) > 9 or not 0 <= int(id_part) < CARD_COUNT:  # 9 digits: int() is safe
        raise ValueError(f"card id {shown(id_part)} is outside 0-{CARD_COUNT - 1} (R4)")
    card_id = int(id_part)
    if CARD_KIND[card_id] != kind_from_text(kind_part):
        raise ValueError(f"card {shown(text)}: id {card_id} is a {card_text(card_id)} (R4)")
    return card_id
