"""Reading JSON data field by field for positions and records (R37, R39, R41).

Each helper returns the value when it has the expected type and range, and otherwise
raises :class:`FieldError` naming the field (``where``) and saying what was expected,
so a loader can turn any malformed field into one plain sentence.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from .errors import EngineError, shown

__all__ = [
    "FieldError",
    "expect_int",
    "expect_list",
    "expect_number",
    "expect_object",
    "expect_seat",
    "expect_str",
]


class FieldError(EngineError, ValueError):
    """One field of a position or record is missing, of the wrong type or out of range."""


def expect_int(
    value: Any,
    where: str,
    low: int | None = None,
    high: int | None = None,
    *,
    wanted: str | None = None,
) -> int:
    """Return ``value`` if it is a whole number in ``low``-``high`` (JSON ``true`` is not);
    ``wanted`` replaces the message's description of what was expected."""
    if (
        isinstance(value, int)
        and not isinstance(value, bool)
        and (low is None or value >= low)
        and (high is None or value <= high)
    ):
        return value
    if wanted is None:
        wanted = "a whole number"
        if low is not None and high is not None:
            wanted += f" {low}-{high}"
        elif low is not None:
            wanted += f" of at least {low}"
    raise FieldError(f"{where} must be {wanted}, not {shown(value)}")


def expect_seat(value: Any, where: str, player_count: int) -> int:
    """Return ``value`` if it is a seat of a ``player_count``-player game."""
    if isinstance(value, int) and not isinstance(value, bool) and not 0 <= value < player_count:
        raise FieldError(
            f"{where}: there is no seat {shown(value)} in this game (seats 0-{player_count - 1})"
        )
    return expect_int(value, where, 0, player_count - 1)


def expect_number(value: Any, where: str) -> float:
    """Return ``value`` as a float if it is a finite number (not ``true``/``false``)."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        number = float(value) if not isinstance(value, int) or abs(value) < 2**1000 else math.inf
        if math.isfinite(number):
            return number
    raise FieldError(f"{where} must be a finite number, not {shown(value)}")


def expect_str(value: Any, where: str, wanted: str = "text") -> str:
    """Return ``value`` if it is a string; ``wanted`` describes it in the message."""
    if isinstance(value, str):
        return value
    raise FieldError(f"{where} must be {wanted}, not {shown(value)}")


def expect_list(
    value: Any,
    where: str,
    *,
    length: int | None = None,
    most: int | None = None,
    items: str = "entries",
) -> list[Any]:
    """Return ``value`` if it is a list of exactly ``length`` or at most ``most`` items;
    ``items`` names them in the message."""
    if not isinstance(value, list):
        raise FieldError(f"{where} must be a list of {items}, not {shown(value)}")
    if length is not None and len(value) != length:
        raise FieldError(f"{where} must hold {length} {items}, not {len(value)}")
    if most is not None and len(value) > most:
        raise FieldError(f"{where} holds {len(value)} {items}; at most {most} fit")
    return value


def expect_object(
    value: Any,
    where: str,
    *,
    known: Iterable[str] | None = None,
    required: Iterable[str] = (),
) -> Mapping[Any, Any]:
    """Return ``value`` if it is a JSON object with every ``required`` key and, when
    ``known`` is given, no key outside it."""
    if not isinstance(value, Mapping):
        raise FieldError(f"{where} must be a JSON object, not {shown(value)}")
    needed = tuple(required)
    missing = [key for key in needed if key not in value]
    if missing:
        raise FieldError(
            f"{where} has no {', '.join(map(repr, missing))}: it needs "
            f"{', '.join(map(repr, needed))}"
        )
    if known is not None:
        names = tuple(known)
        unknown = [key for key in value if key not in names]
        if unknown:
            listed = ", ".join(shown(key) for key in unknown[:3])
            more = f" (and {len(unknown) - 3} more)" if len(unknown) > 3 else ""
            raise FieldError(
                f"{where} has unknown field(s) {listed}{more}; known fields: {', '.join(names)}"
            )
    return value
