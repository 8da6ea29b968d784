"""Table ownership among workers sharing one PostgreSQL database (#17).

A worker owns a table while it holds the table's **session-level advisory lock** on
its own dedicated connection (:class:`Ownership`). PostgreSQL releases every such
lock when that session ends, so a worker that dies (SIGKILL, a lost machine, a cut
network once the server notices) gives up all its tables at once, and no in-memory
guess is ever trusted: a worker acts on a table only while ``pg_try_advisory_lock``
granted it to this session and the session still answers.

The connection also listens for **release requests** (``NOTIFY`` on
:data:`RELEASE_CHANNEL`): a worker that the proxy sends a table's players to while
another worker still owns it asks that owner to let go (docs/deploy.md, Routing).

Nothing here is fast-path: the lock is taken once when a worker loads a table, and a
heartbeat thread checks the session every :data:`CHECK_INTERVAL` seconds.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import threading
from collections.abc import Callable
from typing import Any, Final

import psycopg
from psycopg.conninfo import make_conninfo

from sequence_stacks.server.store import StorageUnavailableError

__all__ = ["CHECK_INTERVAL", "RELEASE_CHANNEL", "Ownership", "table_key"]

log = logging.getLogger("sequence_stacks.server")

CHECK_INTERVAL: Final = 0.5  # seconds between checks that the lock session is alive
RELEASE_CHANNEL: Final = "sequence_stacks_release"


def table_key(table_id: str) -> int:
    """The advisory lock key of a table: the first 8 bytes of its SHA-256, signed.

    Every worker computes the same key; a collision (two tables, one key) only makes
    them share an owner, never gives a table two."""
    digest = hashlib.sha256(b"sequence-stacks table " + table_id.encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


class Ownership:
    """The advisory locks this worker holds, on one dedicated connection.

    ``on_lost(table_ids)`` (an attribute: the service sets it) is called (from the
    heartbeat thread) when the session is found dead: every lock went with it.
    ``on_release(table_id)`` is called when another worker asks for a table this one
    holds. Both must hand the work to the event loop
    (``loop.call_soon_threadsafe``) and return at once.
    """

    def __init__(
        self,
        url: str,
        worker: str,
        *,
        check_interval: float = CHECK_INTERVAL,
    ) -> None:
        self.worker = worker
        self._conninfo = make_conninfo(
            url,
            connect_timeout="5",
            application_name=f"sequence-stacks-locks {worker}"[:63],
            keepalives="1",
            keepalives_idle="5",
            keepalives_interval="2",
            keepalives_count="2",
        )
        self.on_lost: Callable[[set[str]], None] = lambda tables: None
        self.on_release: Callable[[str], None] = lambda table_id: None
        self._interval = check_interval
        self._lock = threading.Lock()
        self._db: psycopg.Connection[Any] | None = None
        self._held: set[str] = set()
        self._stop = threading.Event()
        self.paused = threading.Event()  # tests: stop noticing a dead session
        self._thread: threading.Thread | None = None
        with self._lock:
            self._connection()

    # --- the connection ---------------------------------------------------------------

    def _connection(self) -> psycopg.Connection[Any]:
        """The lock session (under ``_lock``), opened again after a loss (holding nothing)."""
        if self._db is None or self._db.closed or self._db.broken:
            try:
                self._db = psycopg.connect(self._conninfo, autocommit=True)
            except psycopg.Error as error:
                self._db = None
                raise StorageUnavailableError(f"cannot open the lock session: {error}") from None
            self._db.execute(f"LISTEN {RELEASE_CHANNEL}")
        return self._db

    @property
    def backend_pid(self) -> int | None:
        """The PostgreSQL process of the lock session (tests end it to fake a death)."""
        with self._lock:
            return None if self._db is None or self._db.closed else self._db.info.backend_pid

    def start(self) -> None:
        """Start the heartbeat thread."""
        self._thread = threading.Thread(target=self._beat, name="ownership", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop the heartbeat and end the session: every table is released at once."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        with self._lock:
            self._held.clear()
            if self._db is not None:
                # Unlock before closing: the server frees a closed session's locks only
                # once its backend has exited, which another worker may beat.
                with contextlib.suppress(psycopg.Error):
                    self._db.execute("SELECT pg_advisory_unlock_all()")
                self._db.close()
                self._db = None

    # --- locks --------------------------------------------------------------------

    def holds(self, table_id: str) -> bool:
        """True while this worker holds the table (as of the last heartbeat)."""
        return table_id in self._held

    @property
    def held(self) -> frozenset[str]:
        """The tables this worker holds."""
        return frozenset(self._held)

    def try_acquire(self, table_id: str) -> bool:
        """Take the table's lock if no session holds it; True if this worker holds it."""
        with self._lock:
            if table_id in self._held:
                return True
            try:
                found = (
                    self._connection()
                    .execute("SELECT pg_try_advisory_lock(%s)", (table_key(table_id),))
                    .fetchone()
                )
            except psycopg.OperationalError as error:
                self._lost_locked(str(error))
                raise StorageUnavailableError(f"lost the lock session: {error}") from None
            if found is not None and found[0]:
                self._held.add(table_id)
                log.info("table %s: owned by worker %s", table_id, self.worker)
                return True
            return False

    def release(self, table_id: str) -> None:
        """Give the table up (its runner must be stopped already)."""
        with self._lock:
            if table_id not in self._held:
                return
            self._held.discard(table_id)
            try:
                if self._db is not None and not self._db.closed:
                    self._db.execute("SELECT pg_advisory_unlock(%s)", (table_key(table_id),))
            except psycopg.OperationalError as error:
                self._lost_locked(str(error))
            log.info("table %s: released by worker %s", table_id, self.worker)

    def request_release(self, table_id: str) -> None:
        """Ask whichever worker holds the table to let it go."""
        with self._lock:
            try:
                self._connection().execute("SELECT pg_notify(%s, %s)", (RELEASE_CHANNEL, table_id))
            except psycopg.OperationalError as error:
                self._lost_locked(str(error))

    # --- the heartbeat ------------------------------------------------------------

    def _beat(self) -> None:
        while not self._stop.wait(self._interval):
            if self.paused.is_set():
                continue
            released: list[str] = []
            with self._lock:
                try:
                    db = self._connection()
                    db.execute("SELECT 1")
                    released = [n.payload for n in db.notifies(timeout=0, stop_after=100)]
                except psycopg.Error as error:
                    self._lost_locked(str(error))
                except StorageUnavailableError:
                    pass  # the database is down: nothing is held; try again next beat
            for table_id in released:
                if table_id in self._held:
                    self.on_release(table_id)

    def _lost_locked(self, why: str) -> None:
        """Under ``_lock``: the session is gone, and every lock with it."""
        lost = set(self._held)
        self._held.clear()
        if self._db is not None:
            self._db.close()
            self._db = None
        if lost:
            log.error(
                "worker %s: lock session lost (%s); dropping %d tables",
                self.worker,
                why,
                len(lost),
            )
            self.on_lost(lost)
