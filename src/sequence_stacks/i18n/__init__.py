"""Words for players: every message in one place, filled in from data.

The engine speaks rule ids and fields; clients turn those into sentences here (the
terminal) or from the same templates served as JSON (the browser).
"""

from __future__ import annotations

from .languages import DEFAULT_LANGUAGE, LANGUAGES, negotiate
from .messages import MESSAGES, Message
from .render import (
    COLOUR_KEYS,
    card_name,
    colour_name,
    coloured,
    current_language,
    event_line,
    event_message,
    kind_name,
    pile_name,
    placeholders,
    refusal_message,
    render,
    set_language,
    words,
)
from .translations import messages_json, translation

__all__ = [
    "COLOUR_KEYS",
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "MESSAGES",
    "Message",
    "card_name",
    "colour_name",
    "coloured",
    "current_language",
    "event_line",
    "event_message",
    "kind_name",
    "messages_json",
    "negotiate",
    "pile_name",
    "placeholders",
    "refusal_message",
    "render",
    "set_language",
    "translation",
    "words",
]
