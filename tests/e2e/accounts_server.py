"""A server in this process for the account browser tests (#26): uvicorn in a thread on
``localhost`` (a passkey's site must be a host name, not an address), on a SQLite file,
with a clock the test moves by hours and days, and the event loop it runs on kept so
the test can tell the tables that the clock moved."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import uvicorn
from starlette.types import ASGIApp, Receive, Scope, Send

from sequence_stacks.server import ServerSettings, SqliteStorage, create_app
from support.server_process import free_port

__all__ = ["LiveServer", "live_server"]


class _LoopCatcher:
    """Keeps the event loop the app runs on (its lifespan is the first thing it sees)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.loop: asyncio.AbstractEventLoop | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        self.loop = asyncio.get_running_loop()
        await self.app(scope, receive, send)


@dataclasses.dataclass
class LiveServer:
    """The running server: its URL, app, storage, and the clock's shift (seconds)."""

    url: str
    app: Any
    storage: SqliteStorage
    catcher: _LoopCatcher
    shift: float = 0.0

    def clock(self) -> float:
        return time.monotonic() + self.shift

    def later(self, hours: float) -> None:
        """Move the tables' clock on; every table's runner looks at its plans again."""
        self.shift += hours * 3600
        loop = self.catcher.loop
        assert loop is not None
        loop.call_soon_threadsafe(self.app.state.service.clock_moved)

    def settle(self, table_id: str, timeout: float = 10.0) -> None:
        """Wait until the table has nothing due now (its bots have moved, a window whose
        time is up has closed)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            runtime = self.app.state.service.tables.current(table_id)
            plans = list(runtime.schedule.plans.values()) if runtime is not None else []
            if (
                runtime is not None
                and not runtime.lock.locked()
                and plans
                and all(plan.due > self.clock() for plan in plans)
            ):
                return
            time.sleep(0.02)
        raise AssertionError(f"table {table_id} did not settle in {timeout} s")

    def call(self, coroutine: Any) -> Any:
        """Run a coroutine on the server's loop and wait for its result."""
        loop = self.catcher.loop
        assert loop is not None
        return asyncio.run_coroutine_threadsafe(coroutine, loop).result(timeout=30)


@contextlib.contextmanager
def live_server(folder: Path, settings: ServerSettings) -> Iterator[LiveServer]:
    port = free_port()
    storage = SqliteStorage(str(folder / "accounts.sqlite3"))
    live = LiveServer(f"http://localhost:{port}", None, storage, _LoopCatcher(None))  # type: ignore[arg-type]
    app = create_app(dataclasses.replace(settings, port=port), storage=storage, clock=live.clock)
    live.app = app
    live.catcher.app = app
    config = uvicorn.Config(
        live.catcher, host="127.0.0.1", port=port, ws="websockets-sansio", log_level="warning"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive(), "uvicorn stopped while starting"
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    try:
        yield live
    finally:
        server.should_exit = True
        thread.join(timeout=20)
        storage.close()
