"""The server's own closed vocabularies as data, for clients that must not spell them.

``/api/catalog`` serves the engine's catalog (:func:`~sequence_stacks.engine.catalog.catalog`)
merged with this: the values of the server's enums, so that the browser names every
value it compares by a constant generated from them (``static/vocabulary.js``), never by
a string literal of its own.
"""

from __future__ import annotations

from .entries import Op, SeatKind, TableStatus
from .options import Pace
from .prepare import Stale
from .refusals import RefusalCode
from .schedule import TimerKind

__all__ = ["server_vocabulary"]


def server_vocabulary() -> dict[str, list[str]]:
    """Each server vocabulary's values, as they travel in frames and answers."""
    return {
        "ops": [op.value for op in Op],
        "seat_kinds": [kind.value for kind in SeatKind],
        "table_statuses": [status.value for status in TableStatus],
        "timer_kinds": [kind.value for kind in TimerKind],
        "refusal_codes": [code.value for code in RefusalCode],
        "stale_reasons": [reason.value for reason in Stale],
        "paces": [pace.value for pace in Pace],
    }
