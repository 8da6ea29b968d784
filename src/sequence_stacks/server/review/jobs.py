"""The work of a review, done in a worker process: a finished game's record in, each
viewer's review out as JSON (docs/records.md, "Review").

A review searches every decision of its viewer (seconds to half a minute of one core,
docs/bots.md), so it runs in a process of its own at a lower priority, never on the
event loop nor on the bots' thinking thread. The functions here are what that process
runs: plain data in and out (a record as its JSON form), nothing of the server's state.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing.queues
import os
from collections.abc import Mapping, Sequence
from typing import Any, Final

from sequence_stacks.bots.review import review_record
from sequence_stacks.engine import GameRecord

from .pacer import worker_started

__all__ = ["SPECTATOR", "lower_priority", "review_game", "start_worker"]

# The viewer key of the review for everyone who holds no seat of the game.
SPECTATOR: Final = -1
_NICENESS: Final = 10


def lower_priority() -> None:
    """A review worker's start: run below the tables (their moves come first).

    On Linux the worker takes the idle scheduling class: it runs only on CPU time the
    server does not want, and a waking server thread preempts it at once (at nice 10
    it still took a tenth of a shared core's time slices, which a burst of moves then
    waited behind: the lock-step p99 of docs/server.md). Elsewhere, or where that is
    refused, it is niced.
    """
    idle = getattr(os, "SCHED_IDLE", None)
    if idle is not None:
        with contextlib.suppress(OSError):
            os.sched_setscheduler(0, idle, os.sched_param(0))
            return
    with contextlib.suppress(OSError):  # not allowed here: the normal priority
        os.nice(_NICENESS)


def start_worker(pids: multiprocessing.queues.SimpleQueue[int] | None = None) -> None:
    """A review worker's start: below the tables' priority, dying with the server, its
    pid told to the server's :class:`~.pacer.Pacer` (through ``pids``)."""
    lower_priority()
    worker_started(pids)


def review_game(record: Mapping[str, Any], seats: Sequence[int]) -> dict[int, str]:
    """The reviews of a finished game: one for each of ``seats`` and the spectators'
    (:data:`SPECTATOR`), each the review's JSON text, by viewer."""
    game = GameRecord.from_dict(record)
    reviews: dict[int, str] = {}
    for viewer in (*seats, SPECTATOR):
        review = review_record(game, seat=None if viewer == SPECTATOR else viewer)
        reviews[viewer] = json.dumps(review.to_dict(), separators=(",", ":"))
    return reviews
