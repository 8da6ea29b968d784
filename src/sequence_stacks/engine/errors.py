"""Errors the engine raises; each names the RULES.md id it enforces (R37)."""

from __future__ import annotations

import reprlib
from typing import Final

__all__ = [
    "EngineError",
    "IllegalActionError",
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


class IllegalActionError(EngineError):
    """An action was refused; nothing changed (R37).

    Attributes:
        rule_id: the RULES.md id the action breaks, e.g. ``"R15"``.
        reason: a plain-language explanation.
    """

    def __init__(self, rule_id: str, reason: str) -> None:
        super().__init__(f"{rule_id}: {reason}")
        self.rule_id = rule_id
        self.reason = reason


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
