"""SQLite storage: the embedded database (WAL; entries are committed in
groups, a checkpointer thread keeps the WAL short).

Every table is a row plus an append-only log of versioned entries: a table's whole life
(seats taken, bots added, games started with their secret seeds, every accepted action)
is its log; replaying the log rebuilds the table exactly (R41).
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from typing import Final

from .accounts import account_schema
from .records import (
    ListingCursor,
    LogEntry,
    StorageConflictError,
    StorageVersionError,
    TableRow,
    row_of,
    row_values,
)
from .reviews import review_schema
from .writer import GroupCommitted, GroupWriter, Job

__all__ = ["SCHEMA_VERSION", "SqliteStorage", "migrate"]

SCHEMA_VERSION: Final = 5
CHECKPOINT_INTERVAL: Final = 0.5  # seconds between passive WAL checkpoints
# Pages in the write-ahead log past which the checkpointer starts it over (16 MiB).
WAL_RESTART_PAGES: Final = 4096
JOURNAL_LIMIT: Final = 64 * 1024 * 1024  # bytes a started-over log file keeps at most
# A table's ``updated_at`` (the public list's order and idleness, in minutes) is moved
# at most this often by moves that change nothing else of its row: each time it moves,
# its row's entries in two indexes are rewritten too (docs/server.md, "Fewer pages").
TOUCH_INTERVAL: Final = 5.0
_TOUCHED_LIMIT: Final = 10_000  # tables remembered so (then forgotten all at once)


# Each step takes the database from the version before it to its own; a new
# database runs them all. ``PRAGMA user_version`` holds the version reached.
_MIGRATIONS: Final[tuple[tuple[int, str], ...]] = (
    (
        1,
        """
        CREATE TABLE IF NOT EXISTS tables (
            table_id   TEXT PRIMARY KEY,
            created_at REAL NOT NULL,
            visibility TEXT NOT NULL,
            settings   TEXT NOT NULL,
            status     TEXT NOT NULL,
            summary    TEXT NOT NULL,
            version    INTEGER NOT NULL
        );
        CREATE TABLE IF NOT EXISTS log (
            table_id   TEXT NOT NULL REFERENCES tables(table_id),
            version    INTEGER NOT NULL,
            payload    TEXT NOT NULL,
            created_at REAL NOT NULL,
            PRIMARY KEY (table_id, version)
        ) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS tables_by_status ON tables(status, visibility);
        """,
    ),
    (
        # The public list: tables by last change, finished and private ones left out
        # of a partial index, so a page costs the same whatever the number of tables.
        2,
        """
        ALTER TABLE tables ADD COLUMN updated_at REAL NOT NULL DEFAULT 0;
        UPDATE tables SET updated_at = COALESCE(
            (SELECT MAX(log.created_at) FROM log WHERE log.table_id = tables.table_id),
            created_at
        );
        CREATE INDEX tables_listed ON tables(updated_at DESC, table_id DESC)
            WHERE visibility = 'public' AND status != 'over';
        """,
    ),
    (
        # A table's own options (its pace, its friendly name), as JSON (#24).
        3,
        "ALTER TABLE tables ADD COLUMN options TEXT NOT NULL DEFAULT '{}';",
    ),
    # Accounts, passkeys, sessions, seats they hold, notices, results, ratings (#26).
    (4, account_schema("REAL")),
    # Each finished game's reviews, one per viewer (#27).
    (5, review_schema("REAL")),
)
_COLUMNS: Final = (
    "table_id, created_at, visibility, settings, status, summary, version, updated_at, options"
)
_MARKS: Final = ", ".join("?" * len(_COLUMNS.split(",")))
_LISTED: Final = (
    f"SELECT {_COLUMNS} FROM tables INDEXED BY tables_listed "
    "WHERE visibility = 'public' AND status != 'over' AND updated_at >= ? "
    "AND (? IS NULL OR updated_at < ? OR (updated_at = ? AND table_id < ?)) "
    "ORDER BY updated_at DESC, table_id DESC LIMIT ?"
)


def migrate(db: sqlite3.Connection) -> int:
    """Bring a database to :data:`SCHEMA_VERSION`, one committed step at a time.

    Returns the version it was at. A database from a newer release is refused.
    """
    found = int(db.execute("PRAGMA user_version").fetchone()[0])
    if found > SCHEMA_VERSION:
        raise StorageVersionError(
            f"the database is at schema {found}; this release reads up to {SCHEMA_VERSION}"
        )
    for version, script in _MIGRATIONS:
        if version > found:
            db.executescript(f"BEGIN IMMEDIATE; {script}; PRAGMA user_version={version}; COMMIT;")
    return found


class SqliteStorage(GroupCommitted):
    """SQLite in WAL mode; every write is committed before its caller hears of it.

    Writes go through a :class:`~.writer.GroupWriter` (the one PostgreSQL's storage
    uses too) on their own connection: it takes every job waiting, runs each in a
    savepoint of one transaction (a refused job rolls back alone), commits the
    transaction, and only then completes the jobs' futures: *group commit*, so many
    tables' actions share one commit, and nothing is acknowledged before it is in the
    database. The table service's entries (:meth:`commit_async`) are committed *inline*,
    on the event loop once its round of ready callbacks has run (a commit here writes
    to the WAL file and does not sync it: cheaper than handing each group to a thread
    and back, #23); writes from other threads (:meth:`create_table`, :meth:`append`,
    :meth:`submit`) go to the writer thread. A checkpointer thread copies the WAL into
    the database file every ``CHECKPOINT_INTERVAL`` (PASSIVE: it never blocks a
    writer), off the event loop. Reads use a third connection.

    ``synchronous=NORMAL`` (the default here) survives a killed server process
    (SIGKILL: a commit is in the WAL file, in the operating system's cache, before the
    future completes), which is what a game needs; pass ``synchronous="FULL"`` to
    survive power loss or an operating-system crash too (an fsync per group commit).
    """

    def __init__(self, path: str, *, synchronous: str = "NORMAL") -> None:
        if synchronous not in {"OFF", "NORMAL", "FULL", "EXTRA"}:
            raise ValueError(f"synchronous must be OFF, NORMAL, FULL or EXTRA, not {synchronous!r}")
        if path == ":memory:" or path.startswith("file:"):
            # Three connections must open the same file: use MemoryStorage for no file.
            raise ValueError(f"SqliteStorage needs a file path, not {path!r}")
        self.path = path
        self.synchronous = synchronous
        # Per table, the status and updated_at this process last wrote to its row.
        self._touched: dict[str, tuple[str, float]] = {}
        self._writer_db = self._connect()
        try:
            migrate(self._writer_db)
        except BaseException:
            self._writer_db.close()
            raise
        # Readers: one connection shared by callers under a lock.
        self._db = self._connect()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._writer = GroupWriter[sqlite3.Connection](
            name="sqlite-writer",
            begin=self._begin,
            roll_back=self._roll_back,
            closed=lambda: sqlite3.ProgrammingError("the storage is closed"),
            inline=True,
        )
        self._checkpointer = threading.Thread(
            target=self._checkpoint_loop, name="sqlite-checkpoint", daemon=True
        )
        self._checkpointer.start()

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute(f"PRAGMA synchronous={self.synchronous}")
        db.execute("PRAGMA foreign_keys=ON")
        db.execute("PRAGMA busy_timeout=5000")
        # The checkpointer thread does this, off the commit path.
        db.execute("PRAGMA wal_autocheckpoint=0")
        db.execute(f"PRAGMA journal_size_limit={JOURNAL_LIMIT}")
        return db

    # --- writing ------------------------------------------------------------------

    def _roll_back(self, db: sqlite3.Connection) -> None:
        self._touched.clear()  # what it says was written may have been rolled back
        _roll_back(db)

    def _begin(self) -> sqlite3.Connection:
        self._writer_db.execute("BEGIN IMMEDIATE")
        return self._writer_db

    def create_table(self, row: TableRow) -> None:
        """Insert a new table row (committed before this returns)."""
        values = row_values(row)

        def insert(db: sqlite3.Connection) -> None:
            try:
                db.execute(f"INSERT INTO tables ({_COLUMNS}) VALUES ({_MARKS})", values)
            except sqlite3.IntegrityError as error:
                raise StorageConflictError(str(error)) from None

        self._writer.submit(insert).result()

    def _append_job(
        self, table_id: str, version: int, payload: str, status: str, summary: str | None
    ) -> Job[sqlite3.Connection]:
        """See :meth:`GroupCommitted._append_job`: an UPDATE fenced by the version
        before, then the INSERT."""

        def insert(db: sqlite3.Connection) -> None:
            now = time.time()
            # (Run under the writer's connection lock, as every job: so is _touched.)
            touched = self._touched.get(table_id)
            if (
                summary is None
                and touched is not None
                and touched[0] == status
                and now - touched[1] < TOUCH_INTERVAL
            ):
                # Only the version moves: the row's status and updated_at stay as they
                # are, and so do their index entries (one page a move, not three).
                updated = db.execute(
                    "UPDATE tables SET version = ? WHERE table_id = ? AND version = ?",
                    (version, table_id, version - 1),
                ).rowcount
                touched = None
            else:
                updated = db.execute(
                    "UPDATE tables SET status = ?, summary = COALESCE(?, summary), version = ?, "
                    "updated_at = MAX(updated_at, ?) WHERE table_id = ? AND version = ?",
                    (status, summary, version, now, table_id, version - 1),
                ).rowcount
                touched = (status, now)
            if updated != 1:
                raise StorageConflictError(
                    f"table {table_id}: version {version} does not follow the last"
                )
            db.execute("INSERT INTO log VALUES (?, ?, ?, ?)", (table_id, version, payload, now))
            if touched is not None:
                if len(self._touched) >= _TOUCHED_LIMIT:
                    self._touched.clear()
                self._touched[table_id] = touched

        return insert

    def _checkpoint_loop(self) -> None:
        """Copy the log back into the database every CHECKPOINT_INTERVAL, beside the
        writer (a passive checkpoint waits for nobody). Under writes that never pause, a
        passive checkpoint never finds the whole log copied when a transaction begins,
        so the log is never started over and grows without end (1.1 GB in 25 s of
        saturated play, every read searching it): once it holds more than
        WAL_RESTART_PAGES pages, the checkpointer takes the writer's turn (no
        transaction of ours runs meanwhile: the event loop waits the few milliseconds it
        takes) and copies what is left, so the next transaction writes the log from its
        start again (the file keeps its size: no pages to allocate again; a file left
        larger than JOURNAL_LIMIT by an older release is cut down to it)."""
        db = self._connect()
        try:
            while not self._stop.wait(CHECKPOINT_INTERVAL):
                try:
                    _, pages, _ = db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
                    if pages > WAL_RESTART_PAGES:
                        self._restart(db)
                except sqlite3.Error:
                    continue  # busy or locked: the next round will do it
        finally:
            db.close()

    def _restart(self, db: sqlite3.Connection) -> None:
        """Copy the rest of the log back with no transaction of ours under way, so the
        next one writes the log from its start."""
        with self._writer.between_transactions(), self._lock:
            db.execute("PRAGMA wal_checkpoint(RESTART)").fetchall()

    # --- reading ------------------------------------------------------------------

    def table(self, table_id: str) -> TableRow | None:
        """Return a table's row, or None."""
        with self._lock:
            found = self._db.execute(
                f"SELECT {_COLUMNS} FROM tables WHERE table_id = ?", (table_id,)
            ).fetchone()
        return None if found is None else row_of(found, json.loads)

    def entries(self, table_id: str) -> list[LogEntry]:
        """Return every entry of a table in version order."""
        with self._lock:
            found = self._db.execute(
                "SELECT version, payload FROM log WHERE table_id = ? ORDER BY version",
                (table_id,),
            ).fetchall()
        return [LogEntry(version, json.loads(payload)) for version, payload in found]

    def tables(self, *, status: str | None = None, visibility: str | None = None) -> list[TableRow]:
        """Return matching rows, newest first."""
        query = (
            f"SELECT {_COLUMNS} FROM tables "
            "WHERE (? IS NULL OR status = ?) AND (? IS NULL OR visibility = ?)"
        )
        with self._lock:
            found = self._db.execute(
                query + " ORDER BY created_at DESC", (status, status, visibility, visibility)
            ).fetchall()
        return [row_of(item, json.loads) for item in found]

    def listed_tables(
        self, *, since: float, limit: int, before: ListingCursor | None = None
    ) -> list[TableRow]:
        """One page of the public list, read through its partial index."""
        stamp = None if before is None else before.updated_at
        last_id = None if before is None else before.table_id
        with self._lock:
            found = self._db.execute(
                _LISTED, (since, stamp, stamp, stamp, last_id, limit)
            ).fetchall()
        return [row_of(item, json.loads) for item in found]

    def close(self) -> None:
        """Finish queued writes, stop the threads, checkpoint and close the connections."""
        if not self._writer.close():
            return
        self._stop.set()
        self._checkpointer.join()
        with self._lock:
            self._db.close()
        self._writer_db.close()  # the last connection: SQLite checkpoints the WAL


def _roll_back(db: sqlite3.Connection) -> None:
    if db.in_transaction:
        db.execute("ROLLBACK")
