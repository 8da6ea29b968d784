"""The tables this process has loaded: loading one through the gate (its runner
starts), reading one without loading it, and stopping and forgetting one."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import random
from collections.abc import Awaitable, Callable
from typing import Any, Final

from sequence_stacks.server.config import ServerSettings
from sequence_stacks.server.store import Storage, StorageUnavailableError, TableRow

from .entries import SeatKind, TableStatus
from .gate import Gate
from .refusals import Refusal, RefusalCode
from .runtime import Runtime
from .schedule import Plan, Schedule, Thinker
from .table import Table

__all__ = ["UNAVAILABLE", "PlayContext", "Tables", "unavailable"]

log = logging.getLogger("sequence_stacks.server")

UNAVAILABLE: Final = (
    "the game's database cannot be reached; nothing was done. Try again in a moment."
)
_MOVED: Final = "another worker is taking this table; reconnecting"


def unavailable() -> Refusal:
    """The refusal of anything that needs the database while it cannot be reached."""
    return Refusal(RefusalCode.UNAVAILABLE, UNAVAILABLE)


@dataclasses.dataclass(frozen=True, slots=True)
class PlayContext:
    """What the loaded tables and the pipeline that changes them share.

    Attributes:
        storage: where every table's row and log are kept.
        settings: the server's settings.
        gate: which tables this process may act on.
        clock: the time in seconds (``time.monotonic``; a fake one in tests).
        rng: the source of the bots' seeds.
        thinker: the thread the bots think on.
    """

    storage: Storage
    settings: ServerSettings
    gate: Gate
    clock: Callable[[], float]
    rng: random.Random
    thinker: Thinker


class Tables:
    """The loaded tables of one process, by id (see the module's docstring).

    ``fire`` runs a plan of a table's schedule that fell due (the pipeline's); it is
    given once the pipeline exists (:meth:`set_firer`).
    """

    def __init__(self, context: PlayContext) -> None:
        self.context = context
        self.closed = False
        self._runtimes: dict[str, Runtime] = {}
        self._loading = asyncio.Lock()
        self._fire: Callable[[Runtime, Plan], Any] | None = None
        self._drops: set[asyncio.Task[None]] = set()
        context.gate.bind(self)

    def set_firer(self, fire: Callable[[Runtime, Plan], Any]) -> None:
        """What runs a plan that fell due (the pipeline's ``fire``)."""
        self._fire = fire

    # --- the host a gate drives ---------------------------------------------------

    def loaded(self) -> list[str]:
        """The ids of the tables loaded now."""
        return list(self._runtimes)

    def current(self, table_id: str) -> Runtime | None:
        """The table's runtime if it is loaded here and this process may act on it."""
        runtime = self._runtimes.get(table_id)
        return runtime if runtime is not None and self.context.gate.owns(table_id) else None

    async def get(self, table_id: str) -> Runtime:
        """The table's runtime, loaded through the gate if it is not yet."""
        runtime = self._runtimes.get(table_id)
        if runtime is not None and self.context.gate.owns(table_id):
            return runtime
        if runtime is not None:  # lost meanwhile: never act on it again
            await self.drop(table_id, release=False)
        await self.context.gate.acquire(table_id)
        try:
            return await self.load(table_id)
        except BaseException:
            await self.context.gate.release(table_id)
            raise

    async def load(self, table_id: str) -> Runtime:
        """Load a table (or return it if loaded): rebuilt from its log, with a
        schedule as after a restart (docs/server.md, Restarts), its runner started."""
        async with self._loading:
            runtime = self._runtimes.get(table_id)
            if runtime is not None:
                return runtime
            try:
                row = self.context.storage.table(table_id)
            except StorageUnavailableError:
                raise unavailable() from None
            if row is None:
                raise Refusal(RefusalCode.NOT_FOUND, f"there is no table {table_id!r}")
            runtime = self._runtime(row)
            self._runtimes[table_id] = runtime
            runtime.task = asyncio.create_task(
                runtime.schedule.run(runtime.lock, self._firer(runtime), lambda: self.closed),
                name=f"table-{table_id}",
            )
            return runtime

    def _runtime(self, row: TableRow) -> Runtime:
        context = self.context
        schedule = Schedule(
            context.settings, clock=context.clock, rng=context.rng, thinker=context.thinker
        )
        table = Table.rebuild(row, context.storage.entries(row.table_id))
        humans = [i for i, seat in enumerate(table.seats) if seat.kind == SeatKind.HUMAN]
        schedule.restarted(humans)
        schedule.replan(table)
        return Runtime(table, schedule)

    def _firer(self, runtime: Runtime) -> Callable[[Plan], Any]:
        def fire(plan: Plan) -> Any:
            assert self._fire is not None, "the pipeline sets the firer"
            return self._fire(runtime, plan)

        return fire

    async def load_playing(self, take: Callable[[str], Awaitable[bool]]) -> list[str]:
        """Load every table with a game under way for which ``take(table_id)`` says
        this process may (given up again if it cannot be loaded); return the ids."""
        try:
            rows = await asyncio.to_thread(self.context.storage.tables, status=TableStatus.PLAYING)
        except StorageUnavailableError:
            return []
        taken: list[str] = []
        for row in rows:
            table_id = row.table_id
            if table_id in self._runtimes:
                continue
            try:
                if not await take(table_id):
                    continue
                try:
                    await self.load(table_id)
                except BaseException:
                    await self.context.gate.release(table_id)
                    raise
            except (StorageUnavailableError, Refusal):
                continue
            taken.append(table_id)
        return taken

    async def read(self, table_id: str) -> Table:
        """The table as its log has it, without loading it here (no runner)."""

        storage = self.context.storage

        def rebuild() -> Table | None:
            row = storage.table(table_id)
            return None if row is None else Table.rebuild(row, storage.entries(table_id))

        try:
            table = await asyncio.to_thread(rebuild)
        except StorageUnavailableError:
            raise unavailable() from None
        if table is None:
            raise Refusal(RefusalCode.NOT_FOUND, f"there is no table {table_id!r}")
        return table

    # --- stopping -----------------------------------------------------------------

    async def drop(self, table_id: str, *, release: bool) -> None:
        """Stop the table's runner and forget it, closing its sockets (1012: their
        clients reconnect and find it where it went); with ``release`` give its gate up."""
        await self._unload(table_id)
        if release:
            await self.context.gate.release(table_id)
        log.warning("table %s: dropped", table_id)

    def spawn_drop(self, table_id: str, *, release: bool) -> None:
        """:meth:`drop` in its own task (from a callback that cannot wait)."""
        if not self.closed:
            task = asyncio.ensure_future(self.drop(table_id, release=release))
            self._drops.add(task)
            task.add_done_callback(self._drops.discard)

    async def _unload(self, table_id: str) -> None:
        runtime = self._runtimes.get(table_id)
        if runtime is None:
            return
        if runtime.task is not None:
            runtime.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await runtime.task
        async with runtime.lock:  # a commit under way finishes first
            if self._runtimes.get(table_id) is runtime:
                del self._runtimes[table_id]
            runtime.retired = True
            # Told before any command waiting for the lock is refused: they reconnect.
            for subscriber in runtime.subscribers:
                subscriber.kick(1012, _MOVED)
            runtime.subscribers.clear()

    async def close(self) -> None:
        """Stop every runner (the storage is closed by its owner)."""
        self.closed = True
        tasks = [rt.task for rt in self._runtimes.values() if rt.task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
