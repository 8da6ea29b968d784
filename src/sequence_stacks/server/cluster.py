"""The table service of one worker among several on one PostgreSQL database (#17).

:class:`ClusteredTableService` is the :class:`~.service.TableService` with one rule
added: a worker loads a table, runs its bots and timers and applies its changes only
while it **owns** it (:class:`~.ownership.Ownership`, a session-level advisory lock).

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

from .config import ServerSettings
from .entries import LogPayload, TableStatus
from .ownership import Ownership
from .protocol import lobby_dict, replay_frame
from .service import Subscriber, TableService, _Runtime, hash_token
from .storage import Storage, StorageConflictError, StorageUnavailableError
from .table import Entry, Refusal, Table

__all__ = ["ELSEWHERE", "ClusteredTableService"]

log = logging.getLogger("sequence_stacks.server")

ELSEWHERE: Final = "elsewhere"
MIN_HOLD: Final = 3.0  # seconds a worker keeps a table before honouring a release request
RELEASED_QUIET: Final = 10.0  # seconds a worker's sweep leaves a table it gave up alone
_MOVED: Final = "another worker is taking this table; reconnecting"


def _elsewhere(table_id: str) -> Refusal:
    refusal = Refusal(ELSEWHERE, f"table {table_id} is held by another worker; try again")
    refusal.retry_after = 1
    return refusal


class ClusteredTableService(TableService):
    """A :class:`TableService` that acts only on the tables its worker owns."""

    def __init__(self, storage: Storage, settings: ServerSettings, ownership: Ownership) -> None:
        super().__init__(storage, settings)
        self.ownership = ownership
        self._acquired_at: dict[str, float] = {}
        self._released_at: dict[str, float] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.ready = False
        self._stopping = False  # handing over: no table is taken any more
        self._releasing: set[str] = set()  # tables being given up
        self._drops: set[asyncio.Task[None]] = set()
        ownership.on_lost = self.lost
        ownership.on_release = self.release_requested

    # --- life cycle -----------------------------------------------------------------

    async def start(self) -> None:
        """Start the lock heartbeat, take over orphaned tables, then keep doing so."""
        self._loop = asyncio.get_running_loop()
        self.ownership.start()
        await self.adopt()
        self._sweeper = asyncio.create_task(self._sweep(), name="adopt-orphans")
        self.ready = True

    async def close(self) -> None:
        """Stop every runner, then end the lock session: every table is free at once."""
        self.ready = False
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        for table_id in list(self._runtimes):
            await self.drop(table_id, release=False)
        await super().close()
        await asyncio.to_thread(self.ownership.close)

    def health(self) -> dict[str, Any]:
        """The health endpoint's body: whether this worker takes work, what it owns."""
        return {
            "ok": self.ready,
            "ready": self.ready,
            "worker": self.ownership.worker,
            "tables": len(self.ownership.held),
        }

    # --- ownership ----------------------------------------------------------------

    async def adopt(self) -> list[str]:
        """Take every playing table no worker holds; return the ones taken."""
        now = time.monotonic()
        try:
            rows = await asyncio.to_thread(self.storage.tables, status=TableStatus.PLAYING)
        except StorageUnavailableError:
            return []
        taken: list[str] = []
        for row in rows:
            table_id = row.table_id
            if self.ownership.holds(table_id) or self._stopping:
                continue
            if now - self._released_at.get(table_id, -RELEASED_QUIET) < RELEASED_QUIET:
                continue
            try:
                if not await asyncio.to_thread(self.ownership.try_acquire, table_id):
                    continue
                await self._load_owned(table_id)
            except (StorageUnavailableError, Refusal):
                continue
            log.warning("table %s: taken over by worker %s", table_id, self.ownership.worker)
            taken.append(table_id)
        return taken

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(self.settings.adopt_interval)
            try:
                await self.adopt()
            except Exception:
                log.exception("worker %s: taking over tables failed", self.ownership.worker)

    async def _load_owned(self, table_id: str) -> _Runtime:
        self._acquired_at[table_id] = time.monotonic()
        try:
            return await TableService._runtime(self, table_id)
        except BaseException:
            await asyncio.to_thread(self.ownership.release, table_id)
            raise

    async def _runtime(self, table_id: str) -> _Runtime:
        """The table's runtime, loaded only once this worker holds its lock."""
        if self.ownership.holds(table_id):
            if table_id in self._runtimes:
                return await TableService._runtime(self, table_id)
            if not self._stopping and table_id not in self._releasing:
                return await self._load_owned(table_id)
        if table_id in self._runtimes:  # lost meanwhile: never act on it again
            await self.drop(table_id, release=False)
        if self._stopping or table_id in self._releasing:
            raise _elsewhere(table_id)
        try:
            owned = await asyncio.to_thread(self.ownership.try_acquire, table_id)
        except StorageUnavailableError:
            raise Refusal("unavailable", "the database cannot be reached; try again") from None
        if not owned:
            await asyncio.to_thread(self.ownership.request_release, table_id)
            raise _elsewhere(table_id)
        return await self._load_owned(table_id)

    async def drop(self, table_id: str, *, release: bool = True) -> None:
        """Stop the table's runner, forget it, with ``release`` give its lock up, then
        close its sockets (1012): their reconnections find the table free."""
        if release:
            self._releasing.add(table_id)  # no reload between forgetting and unlocking
        try:
            subscribers = await self._unload(table_id)
            if release:
                self._released_at[table_id] = time.monotonic()
                await asyncio.to_thread(self.ownership.release, table_id)
        finally:
            self._releasing.discard(table_id)
        for subscriber in subscribers:
            kick = getattr(subscriber, "kick", None)
            if kick is not None:
                kick(1012, _MOVED)
        log.warning("table %s: dropped by worker %s", table_id, self.ownership.worker)

    async def _unload(self, table_id: str) -> list[Subscriber]:
        """Stop the table's runner and forget it; return the sockets it had."""
        self._acquired_at.pop(table_id, None)
        runtime = self._runtimes.get(table_id)
        if runtime is None:
            return []
        if runtime.task is not None:
            runtime.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await runtime.task
        async with runtime.lock:  # a command's commit under way finishes first
            if self._runtimes.get(table_id) is runtime:
                del self._runtimes[table_id]
            subscribers = list(runtime.subscribers)
            runtime.subscribers.clear()
        return subscribers

    async def hand_over(self) -> None:
        """Graceful shutdown, before the sockets close: take no table any more, and
        give every owned table up (runner stopped, lock released, sockets told 1012),
        so the other workers take them at once."""
        self.ready = False
        self._stopping = True
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        tables = list(self._runtimes)
        for table_id in tables:
            await self.drop(table_id, release=True)
        log.warning(
            "worker %s: stopping; handed %d tables over", self.ownership.worker, len(tables)
        )

    def lost(self, table_ids: set[str]) -> None:
        """From the heartbeat thread: the lock session died with these tables."""
        if self._loop is not None:
            for table_id in table_ids:
                self._loop.call_soon_threadsafe(self._spawn_drop, table_id, False)

    def release_requested(self, table_id: str) -> None:
        """From the heartbeat thread: another worker's players want this table."""
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._handoff, table_id)

    def _handoff(self, table_id: str) -> None:
        held_since = self._acquired_at.get(table_id)
        if held_since is not None and time.monotonic() - held_since < MIN_HOLD:
            return  # just taken: a second request will follow if the proxy means it
        log.info("table %s: handed off on request by worker %s", table_id, self.ownership.worker)
        self._spawn_drop(table_id, True)

    def _spawn_drop(self, table_id: str, release: bool) -> None:
        if not self._closed:
            task = asyncio.ensure_future(self.drop(table_id, release=release))
            self._drops.add(task)
            task.add_done_callback(self._drops.discard)

    # --- the pipeline's fence -----------------------------------------------------

    async def _commit(
        self,
        runtime: _Runtime,
        payload: LogPayload,
        *,
        ack: tuple[Subscriber, str] | None = None,
    ) -> Entry:
        table_id = runtime.table.table_id
        if not self.ownership.holds(table_id) or self._runtimes.get(table_id) is not runtime:
            raise _elsewhere(table_id)
        try:
            return await super()._commit(runtime, payload, ack=ack)
        except StorageConflictError:
            # Another worker wrote this version: it owns the table now, not this one.
            log.error("table %s: another worker committed first; dropping", table_id)
            self._spawn_drop(table_id, False)
            raise _elsewhere(table_id) from None

    # --- reads that need no ownership ---------------------------------------------

    async def lobby(self, table_id: str) -> dict[str, Any]:
        """A table's public facts: from memory if owned here, else from the database."""
        if self.ownership.holds(table_id) and table_id in self._runtimes:
            return await super().lobby(table_id)
        table = await self._read(table_id)
        return lobby_dict(table, [False] * len(table.seats))

    async def replay(
        self, table_id: str, game: int, step: int | None, token: str | None
    ) -> dict[str, Any]:
        """One step of a game, read from the database when the table is owned elsewhere."""
        if self.ownership.holds(table_id) and table_id in self._runtimes:
            return await super().replay(table_id, game, step, token)
        table = await self._read(table_id)
        if not 1 <= game <= table.game_no:
            raise Refusal("not_found", f"there is no game {game} at this table")
        seat = table.seat_of(hash_token(token)) if token else None
        record = table.games[game - 1].record(table.settings)
        over = game < table.game_no or table.status == TableStatus.OVER
        total = len(record.actions)
        chosen = total if step is None else max(0, min(step, total))
        return replay_frame(record, table.settings, chosen, seat, over=over)

    async def _read(self, table_id: str) -> Table:
        def rebuild() -> Table | None:
            row = self.storage.table(table_id)
            return None if row is None else Table.rebuild(row, self.storage.entries(table_id))

        try:
            table = await asyncio.to_thread(rebuild)
        except StorageUnavailableError:
            raise Refusal("unavailable", "the database cannot be reached; try again") from None
        if table is None:
            raise Refusal("not_found", f"there is no table {table_id!r}")
        return table
