"""Errors the engine raises; each names the RULES.md id it enforces (R37)."""

from __future__ import annotations

import enum
import reprlib
from collections.abc import Mapping
from typing import Final

__all__ = [
    "ILLEGAL_PARAMS",
    "EngineError",
    "IllegalActionError",
    "IllegalCode",
    "NotationError",
    "PositionError",
    "RecordError",
    "SettingsError",
    "shown",
]

_SHORT: Final = reprlib.Repr()
_SHORT.maxlevel = 2
_SHORT.maxstring = 40
_SHORT.maxother = 40
_SHORT.maxlong = 40


class EngineError(Exception):
    """Base class of every error the engine raises."""


class IllegalCode(enum.StrEnum):
    """Why an action was refused, as a stable machine code (:class:`IllegalActionError`).

    Each code has one message ``illegal.<code>`` for players (``sequence_stacks.i18n``)
    whose placeholders are the code's :data:`ILLEGAL_PARAMS`.
    """

    NOT_AN_ACTION = "not_an_action"
    MALFORMED_ACTION = "malformed_action"
    NOT_A_SEAT = "not_a_seat"
    NO_SUCH_SEAT = "no_such_seat"
    GAME_OVER = "game_over"
    NO_BLOCK_WINDOW = "no_block_window"
    WINDOW_OPEN = "window_open"
    OWN_SEQUENCE = "own_sequence"
    ALREADY_ANSWERED = "already_answered"
    NO_BLOCK_CARD = "no_block_card"
    NOT_YOUR_TURN = "not_your_turn"
    HAND_NOT_EMPTY = "hand_not_empty"
    NOTHING_TO_DISCARD = "nothing_to_discard"
    NO_SUCH_PILE = "no_such_pile"
    NOT_ON_DISCARD_TOP = "not_on_discard_top"
    NO_SUCH_CARD = "no_such_card"
    NEW_PILE_NEEDS_ONE = "new_pile_needs_one"
    NO_FREE_PILE = "no_free_pile"
    PILE_EMPTY = "pile_empty"
    PILE_NEEDS = "pile_needs"
    NOT_AN_OPPONENT = "not_an_opponent"
    DISCARD_EMPTY = "discard_empty"
    NO_CHIP = "no_chip"
    STEAL_CANNOT_WIN = "steal_cannot_win"


# The data each refusal carries, by name (the conventions of ``i18n.words``): ``player``
# and ``victim`` a seat in the game, ``seat`` a number that names no seat of it, ``kind``
# a card kind's index, ``pile`` (colour, index within the colour), ``colour`` a colour's
# index; ``count`` and ``rank`` are numbers.
ILLEGAL_PARAMS: Final[Mapping[IllegalCode, frozenset[str]]] = {
    code: frozenset(names)
    for code, names in {
        IllegalCode.NOT_AN_ACTION: (),
        IllegalCode.MALFORMED_ACTION: (),
        IllegalCode.NOT_A_SEAT: (),
        IllegalCode.NO_SUCH_SEAT: ("seat",),
        IllegalCode.GAME_OVER: (),
        IllegalCode.NO_BLOCK_WINDOW: (),
        IllegalCode.WINDOW_OPEN: (),
        IllegalCode.OWN_SEQUENCE: (),
        IllegalCode.ALREADY_ANSWERED: (),
        IllegalCode.NO_BLOCK_CARD: (),
        IllegalCode.NOT_YOUR_TURN: ("player",),
        IllegalCode.HAND_NOT_EMPTY: (),
        IllegalCode.NOTHING_TO_DISCARD: ("kind",),
        IllegalCode.NO_SUCH_PILE: ("pile", "colour", "count"),
        IllegalCode.NOT_ON_DISCARD_TOP: ("kind",),
        IllegalCode.NO_SUCH_CARD: ("kind",),
        IllegalCode.NEW_PILE_NEEDS_ONE: (),
        IllegalCode.NO_FREE_PILE: ("colour", "count"),
        IllegalCode.PILE_EMPTY: ("pile",),
        IllegalCode.PILE_NEEDS: ("pile", "rank", "colour"),
        IllegalCode.NOT_AN_OPPONENT: ("seat",),
        IllegalCode.DISCARD_EMPTY: ("victim",),
        IllegalCode.NO_CHIP: ("victim", "colour"),
        IllegalCode.STEAL_CANNOT_WIN: (),
    }.items()
}


class IllegalActionError(EngineError):
    """An action was refused; nothing changed (R37).

    Attributes:
        rule_id: the RULES.md id the action breaks, e.g. ``"R15"``.
        reason: a plain-language explanation (English, for developers and the CLI).
        code: why, as a stable machine code.
        params: the refusal's data by name (:data:`ILLEGAL_PARAMS` of ``code``): seats,
            kind indexes, piles, colours and numbers, never words.
    """

    def __init__(
        self,
        rule_id: str,
        reason: str,
        *,
        code: IllegalCode,
        params: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(f"{rule_id}: {reason}")
        self.rule_id = rule_id
        self.reason = reason
        self.code = code
        self.params: dict[str, object] = dict(params or {})


class NotationError(EngineError, ValueError):
    """Text that should name a card or an action could not be parsed (R37)."""

    rule_id = "R37"


class SettingsError(EngineError, ValueError):
    """A settings value or option name was refused (R40)."""


class PositionError(EngineError, ValueError):
    """A position file is malformed or inconsistent (R39)."""


class RecordError(EngineError, ValueError):
    """A game record is malformed or does not replay (R41)."""


def shown(value: object) -> str:
    """Quote a value from outside in an error message: short, whatever it holds.

    Long text and numbers are cut, deep or long lists and objects abridged, so a
    message stays one readable line even for a hostile file.
    """
    try:
        return _SHORT.repr(value)
    except (ValueError, RecursionError):  # an int past the digit limit, a deep nest
        return f"<{type(value).__name__} too large to show>"
