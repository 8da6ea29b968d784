"""Notices in the reader's language: the same message templates the pages use,
filled in for one language at a time (a server speaks many at once)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from babel.numbers import format_decimal

from sequence_stacks.i18n import MESSAGES, negotiate, translation

__all__ = ["say", "table_words"]


def say(language: str, key: str, /, **args: Any) -> str:
    """Message ``key`` in ``language`` (English when unknown), its placeholders filled."""
    language = negotiate(language)
    count_name = MESSAGES[key].count
    count = args.get(count_name) if count_name else None
    text = translation(language).text(key, count if isinstance(count, int) else None)
    shown = {
        name: format_decimal(value, locale=language)
        if isinstance(value, int | float) and not isinstance(value, bool)
        else value
        for name, value in args.items()
    }
    return text.format_map(shown)


def table_words(language: str, options: Mapping[str, Any]) -> str:
    """A table's friendly name ("Owl table") in ``language``."""
    name = options.get("name")
    animal = name.get("animal") if isinstance(name, Mapping) else None
    if not isinstance(animal, str) or f"animal.{animal}" not in MESSAGES:
        return say(language, "notice.a_table")
    return say(language, "table.named", animal=say(language, f"animal.{animal}"))
