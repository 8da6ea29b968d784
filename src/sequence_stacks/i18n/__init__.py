"""Words for players: every message in one place, filled in from data.

The engine speaks rule ids and fields; clients turn those into sentences here (the
terminal) or from the same templates served as JSON (the browser).
"""

from __future__ import annotations

from .languages import DEFAULT_LANGUAGE, LANGUAGES, negotiate
from .messages import MESSAGES, Message
from .render import (
    card_name,
    colour_name,
    current_language,
    event_line,
    event_message,
    kind_name,
    placeholders,
    render,
    set_language,
    words,
)
from .translations import messages_json, translation

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "MESSAGES",
    "Message",
    "card_name",
    "colour_name",
    "current_language",
    "event_line",
    "event_message",
    "kind_name",
    "messages_json",
    "negotiate",
    "placeholders",
    "render",
    "set_language",
    "translation",
    "words",
]
