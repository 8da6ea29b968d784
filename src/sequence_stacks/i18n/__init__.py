"""Words for players: every message in one place, filled in from data.

The engine speaks rule ids and fields; clients turn those into sentences here (the
terminal) or from the same templates served as JSON (the browser).
"""

from __future__ import annotations

from .messages import MESSAGES, Message
from .render import (
    card_name,
    colour_name,
    event_line,
    event_message,
    kind_name,
    messages_json,
    placeholders,
    render,
    words,
)

__all__ = [
    "MESSAGES",
    "Message",
    "card_name",
    "colour_name",
    "event_line",
    "event_message",
    "kind_name",
    "messages_json",
    "placeholders",
    "render",
    "words",
]
