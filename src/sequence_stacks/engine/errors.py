"""Errors the engine raises; each names the RULES.md id it enforces (R37)."""

from __future__ import annotations

__all__ = [
    "EngineError",
    "IllegalActionError",
    "NotationError",
    "PositionError",
    "RecordError",
    "SettingsError",
]


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
