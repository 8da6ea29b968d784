"""One loaded table: its state, its lock, its connections and its schedule."""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import logging
from collections.abc import Mapping
from typing import Any, Protocol

from sequence_stacks.engine import View

from .entries import SeatKind
from .schedule import Schedule
from .table import Table

__all__ = ["Runtime", "Subscriber", "hash_token"]

log = logging.getLogger("sequence_stacks.server")


class Subscriber(Protocol):
    """A connection watching a table; ``send`` must not block (queue the frame).

    ``token_hash`` is who the connection says it is (set by ``hello``); ``seat`` is
    the seat that token holds *now*, recomputed after every change of the table (a
    seat left, handed to a bot, taken back, taken by someone else), and read for
    nothing but presence: every frame and command asks the table afresh.
    """

    seat: int | None
    token_hash: str | None
    notation: bool  # the actions in notation too (a script asked for them in its hello)

    def send(self, frame: Mapping[str, Any]) -> None:
        """Queue one frame for the client."""
        ...

    def send_text(self, text: str) -> None:
        """Queue one frame already encoded as JSON (shared by many subscribers)."""
        ...

    def kick(self, code: int, reason: str) -> None:
        """Close the connection once its queued frames are out (the table moved away)."""
        ...

    def flush(self) -> None:
        """Write what is queued now (a change's frames are all queued), not at the end
        of the event loop's round; a no-op where frames go out as they are queued."""
        ...


def hash_token(token: str) -> str:
    """Return the stored form of a seat token (only its SHA-256 is ever kept)."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclasses.dataclass(eq=False, slots=True)
class Runtime:
    """One loaded table: its state, its lock, its connections and its schedule.

    Attributes:
        broken: set when a commit failed and the table could not be read back: memory
            may be ahead of the database, so nothing is done here until a reload works.
        chatted, hinted: when each seat last said a quick-chat phrase / asked for a
            hint (clock seconds), for their rate limits.
        retired: set when the table was dropped from this process (another took it).
        waiting: per seat, the connections (and their command ids) whose Block-window
            pass is held for the window's end: they are acknowledged when it is stored.
        views: per seat (None: spectators) the version and the view its connections
            were last sent, so an update sends only the fields that changed.
        lobby_sent: the table's public facts as the last update carried them.
    """

    table: Table
    schedule: Schedule
    lock: asyncio.Lock = dataclasses.field(default_factory=asyncio.Lock)
    subscribers: set[Subscriber] = dataclasses.field(default_factory=set)
    task: asyncio.Task[None] | None = None
    broken: bool = False
    retired: bool = False  # dropped from this process: never to be changed here again
    chatted: dict[int, float] = dataclasses.field(default_factory=dict)
    hinted: dict[int, float] = dataclasses.field(default_factory=dict)
    waiting: dict[int, list[tuple[Subscriber, str]]] = dataclasses.field(default_factory=dict)
    views: dict[int | None, tuple[int, View | None]] = dataclasses.field(default_factory=dict)
    lobby_sent: dict[str, Any] | None = None

    def present(self) -> list[bool]:
        """Per seat, whether a connection holds it now."""
        seats = {sub.seat for sub in self.subscribers}
        return [index in seats for index in range(len(self.table.seats))]

    def connected(self) -> list[bool]:
        """Per seat, whether the table shows a connection holding it: as it is, except
        at a turn-based table, which shows none (when a player opens the game, in a
        Block window above all, must say nothing of their hand: docs/rules-notes.md
        N26)."""
        if self.table.options.turn_based:
            return [False] * len(self.table.seats)
        return self.present()

    def shows_presence(self) -> bool:
        """False at a turn-based table, whose frames tell nobody who comes and goes."""
        return not self.table.options.turn_based

    def join(self, subscriber: Subscriber, token_hash: str | None, seat: int | None) -> None:
        """Watch the table as ``token_hash``, holding ``seat`` (None: a spectator)."""
        self.forget(subscriber)
        subscriber.token_hash = token_hash
        subscriber.seat = seat
        self.subscribers.add(subscriber)
        if seat is not None:
            self.schedule.seat_back(seat)

    def forget(self, subscriber: Subscriber) -> None:
        """Stop watching; the seat's grace period starts if it was its last connection."""
        if subscriber not in self.subscribers:
            return
        self.subscribers.discard(subscriber)
        seat = subscriber.seat
        if seat is not None and not self.present()[seat]:
            self.schedule.seat_left(seat)

    def rebind(self) -> None:
        """Give each connection the seat its token holds now (None: it watches)."""
        table = self.table
        for subscriber in self.subscribers:
            seat = table.seat_of(subscriber.token_hash)
            if seat != subscriber.seat:
                subscriber.seat = seat
                if seat is None:
                    log.info("table %s: a connection lost its seat", table.table_id)

    def alone(self) -> bool:
        """True when one person plays against bots only and nobody else watches:
        every connection holds that one person's seat (a practice game)."""
        humans = [i for i, seat in enumerate(self.table.seats) if seat.kind == SeatKind.HUMAN]
        return len(humans) == 1 and all(sub.seat == humans[0] for sub in self.subscribers)

    def send_all(self, text: str) -> None:
        """Queue one encoded frame for every connection."""
        for subscriber in list(self.subscribers):
            subscriber.send_text(text)

    def flush(self) -> None:
        """Write every connection's queued frames now (see ``Subscriber.flush``)."""
        for subscriber in self.subscribers:
            subscriber.flush()
