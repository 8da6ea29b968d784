"""The gate of one worker among several on one PostgreSQL database (#17).

:class:`OwnershipGate` lets the table service load a table, run its bots and timers
and apply its changes only while this worker **owns** it (:class:`~.ownership.Ownership`,
a session-level advisory lock).

- A command, a hello or a seat taken for a table nobody owns takes the lock and loads
  the table from the log (a Block window then open gets a fresh full time, as after a
  restart). For a table another live worker owns it is refused with the code
  ``elsewhere`` (WebSocket close 1013, HTTP 503 with ``Retry-After``), and that owner
  is asked to let the table go, so the worker the proxy now routes to gets it on the
  client's retry (docs/deploy.md, Routing).
- Reading a table's lobby facts or a replay needs no ownership: a worker that does not
  own the table reads it from the database.
- Every few seconds (``adopt_interval``) each worker takes the lock of any playing
  table nobody holds: the tables of a dead worker are taken over (their bots and
  timers run again) even before any player comes back.
- A worker that loses a table (its lock session died, or it released the table on
  request or at shutdown) stops the table's runner, forgets it and closes its sockets
  with 1012 at once; the clients reconnect through the proxy to the new owner.
- Before each commit the service checks it still holds the table; the storage's
  version check (``version = v - 1``) is the last fence: of two workers that both
  believe they own a table, only one can commit a version.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any, Final

from sequence_stacks.server.config import ServerSettings
from sequence_stacks.server.store import StorageUnavailableError

from .gate import TableHost
from .ownership import Ownership
from .refusals import Refusal, RefusalCode

__all__ = ["OwnershipGate", "elsewhere"]

log = logging.getLogger("sequence_stacks.server")

MIN_HOLD: Final = 3.0  # seconds a worker keeps a table before honouring a release request
RELEASED_QUIET: Final = 10.0  # seconds a worker's sweep leaves a table it gave up alone


def elsewhere(table_id: str) -> Refusal:
    """The refusal of a request for a table another worker holds."""
    return Refusal(
        RefusalCode.ELSEWHERE,
        f"table {table_id} is held by another worker; try again",
        retry_after=1,
    )


class OwnershipGate:
    """The tables this worker owns among several (see the module's docstring)."""

    def __init__(self, ownership: Ownership, settings: ServerSettings) -> None:
        self.ownership = ownership
        self.settings = settings
        self.ready = False
        self._host: TableHost | None = None
        self._acquired_at: dict[str, float] = {}
        self._released_at: dict[str, float] = {}
        self._releasing: set[str] = set()  # tables being given up: never loaded meanwhile
        self._stopping = False  # handing over: no table is taken any more
        self._sweeper: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        ownership.on_lost = self._lost
        ownership.on_release = self._release_requested

    def bind(self, host: TableHost) -> None:
        """The service's tables, to load what is taken and drop what is lost."""
        self._host = host

    @property
    def host(self) -> TableHost:
        """The bound tables (:meth:`bind` comes first)."""
        assert self._host is not None, "bind the gate to the service's tables first"
        return self._host

    # --- life cycle -----------------------------------------------------------------

    async def start(self) -> None:
        """Start the lock heartbeat, take over orphaned tables, then keep doing so."""
        self._loop = asyncio.get_running_loop()
        self.ownership.start()
        await self.adopt()
        self._sweeper = asyncio.create_task(self._sweep(), name="adopt-orphans")
        self.ready = True

    async def close(self) -> None:
        """Stop taking tables and drop those held; the lock session ends afterwards,
        which frees every table at once."""
        self.ready = False
        await self._stop_sweeper()
        for table_id in self.host.loaded():
            await self.host.drop(table_id, release=False)
        await asyncio.to_thread(self.ownership.close)

    def health(self) -> dict[str, Any]:
        """The health endpoint's body: whether this worker takes work, what it owns."""
        return {
            "ok": self.ready,
            "ready": self.ready,
            "worker": self.ownership.worker,
            "tables": len(self.ownership.held),
        }

    async def hand_over(self) -> None:
        """Graceful shutdown, before the sockets close: take no table any more, and
        give every owned table up (runner stopped, lock released, sockets told 1012),
        so the other workers take them at once."""
        self.ready = False
        self._stopping = True
        await self._stop_sweeper()
        tables = self.host.loaded()
        for table_id in tables:
            await self._give_up(table_id)
        log.warning(
            "worker %s: stopping; handed %d tables over", self.ownership.worker, len(tables)
        )

    async def _stop_sweeper(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
            self._sweeper = None

    # --- the gate -------------------------------------------------------------------

    async def acquire(self, table_id: str) -> None:
        """Take the table's lock (if not held); refuse with ``elsewhere`` if another
        worker holds it (and ask that worker to let it go)."""
        if self._stopping or table_id in self._releasing:
            raise elsewhere(table_id)
        if not self.ownership.holds(table_id):
            try:
                owned = await asyncio.to_thread(self.ownership.try_acquire, table_id)
            except StorageUnavailableError:
                raise Refusal(
                    RefusalCode.UNAVAILABLE, "the database cannot be reached; try again"
                ) from None
            if not owned:
                await asyncio.to_thread(self.ownership.request_release, table_id)
                raise elsewhere(table_id)
        self._acquired_at[table_id] = time.monotonic()

    async def release(self, table_id: str) -> None:
        """Give the table's lock up."""
        self._acquired_at.pop(table_id, None)
        self._released_at[table_id] = time.monotonic()
        await asyncio.to_thread(self.ownership.release, table_id)

    def owns(self, table_id: str) -> bool:
        """True while this worker's lock session holds the table."""
        return self.ownership.holds(table_id)

    def conflict(self, table_id: str) -> Refusal:
        """Another worker committed the table's next version: it owns it now."""
        return elsewhere(table_id)

    # --- taking over, giving up ------------------------------------------------------

    async def adopt(self) -> list[str]:
        """Take every playing table no worker holds; return the ones taken."""
        taken = await self.host.load_playing(self._take_orphan)
        for table_id in taken:
            log.warning("table %s: taken over by worker %s", table_id, self.ownership.worker)
        return taken

    async def _take_orphan(self, table_id: str) -> bool:
        """Take a playing table's lock if nobody holds it (never asking its holder to
        let go), unless this worker gave it up moments ago or is stopping."""
        if self._stopping or self.ownership.holds(table_id):
            return False
        if self.recently_released(table_id):
            return False
        if not await asyncio.to_thread(self.ownership.try_acquire, table_id):
            return False
        self._acquired_at[table_id] = time.monotonic()
        return True

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(self.settings.adopt_interval)
            try:
                await self.adopt()
            except Exception:
                log.exception("worker %s: taking over tables failed", self.ownership.worker)

    def recently_released(self, table_id: str) -> bool:
        """True for a table this worker gave up moments ago (its sweep leaves it alone)."""
        released = self._released_at.get(table_id, -RELEASED_QUIET)
        return time.monotonic() - released < RELEASED_QUIET

    async def _give_up(self, table_id: str) -> None:
        self._releasing.add(table_id)  # no reload between forgetting and unlocking
        try:
            await self.host.drop(table_id, release=True)
        finally:
            self._releasing.discard(table_id)

    def _lost(self, table_ids: set[str]) -> None:
        """From the heartbeat thread: the lock session died with these tables."""
        if self._loop is not None:
            for table_id in table_ids:
                self._loop.call_soon_threadsafe(self._spawn, table_id, False)

    def _release_requested(self, table_id: str) -> None:
        """From the heartbeat thread: another worker's players want this table."""
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._handoff, table_id)

    def _handoff(self, table_id: str) -> None:
        held_since = self._acquired_at.get(table_id)
        if held_since is not None and time.monotonic() - held_since < MIN_HOLD:
            return  # just taken: a second request will follow if the proxy means it
        log.info("table %s: handed off on request by worker %s", table_id, self.ownership.worker)
        self._spawn(table_id, True)

    def _spawn(self, table_id: str, release: bool) -> None:
        task = asyncio.ensure_future(
            self._give_up(table_id) if release else self.host.drop(table_id, release=False)
        )
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
