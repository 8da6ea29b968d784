"""Storage: every table is a row plus an append-only log of versioned entries.

A table's whole life (seats taken, bots added, games started with their secret seeds,
every accepted action) is its log; replaying the log rebuilds the table exactly (R41).
:class:`SqliteStorage` is the real one (WAL, one transaction per entry);
:class:`MemoryStorage` has the same behaviour for tests.
"""

from __future__ import annotations

import dataclasses
import json
import sqlite3
import threading
import time
from collections.abc import Mapping
from typing import Any, Final, Protocol

__all__ = [
    "LogEntry",
    "MemoryStorage",
    "SqliteStorage",
    "Storage",
    "StorageConflictError",
    "TableRow",
    "open_storage",
]

SCHEMA_VERSION: Final = 1


class StorageConflictError(Exception):
    """An entry with that version already exists (two writers raced for one table)."""


@dataclasses.dataclass(frozen=True, slots=True)
class TableRow:
    """A table's fixed facts and its current summary (for listing without replay).

    Attributes:
        table_id: the random id in the join link.
        created_at: Unix time the table was created.
        visibility: "public" (listed, anyone may watch) or "unlisted" (link only).
        settings: the engine settings as JSON data (R40).
        status: "lobby", "playing" or "over".
        summary: public facts for the lobby list (seat names, game number).
        version: the version of the last entry.
    """

    table_id: str
    created_at: float
    visibility: str
    settings: Mapping[str, Any]
    status: str = "lobby"
    summary: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    version: int = 0


@dataclasses.dataclass(frozen=True, slots=True)
class LogEntry:
    """One committed change of a table: ``version`` counts from 1 without gaps."""

    version: int
    payload: Mapping[str, Any]


class Storage(Protocol):
    """What the table service needs from a database."""

    def create_table(self, row: TableRow) -> None:
        """Store a new table (version 0, no entries)."""
        ...

    def append(
        self, table_id: str, entry: LogEntry, *, status: str, summary: Mapping[str, Any]
    ) -> None:
        """Commit one entry and the new summary atomically, durably, before returning.

        Raises StorageConflictError if the version is not exactly one past the last.
        """
        ...

    def table(self, table_id: str) -> TableRow | None:
        """Return a table's row, or None."""
        ...

    def entries(self, table_id: str) -> list[LogEntry]:
        """Return every entry of a table in version order."""
        ...

    def tables(self, *, status: str | None = None, visibility: str | None = None) -> list[TableRow]:
        """Return table rows, newest first, optionally filtered."""
        ...

    def close(self) -> None:
        """Release the database."""
        ...


class MemoryStorage:
    """Storage in dictionaries: same contract as SQLite, gone with the process."""

    def __init__(self) -> None:
        self._rows: dict[str, TableRow] = {}
        self._entries: dict[str, list[LogEntry]] = {}

    def create_table(self, row: TableRow) -> None:
        """Store a new table."""
        if row.table_id in self._rows:
            raise StorageConflictError(f"table {row.table_id} exists")
        self._rows[row.table_id] = row
        self._entries[row.table_id] = []

    def append(
        self, table_id: str, entry: LogEntry, *, status: str, summary: Mapping[str, Any]
    ) -> None:
        """Append one entry (a JSON round trip, as SQLite would store it)."""
        row = self._rows[table_id]
        if entry.version != row.version + 1:
            raise StorageConflictError(
                f"table {table_id}: version {entry.version} after {row.version}"
            )
        payload = json.loads(json.dumps(entry.payload))
        self._entries[table_id].append(LogEntry(entry.version, payload))
        self._rows[table_id] = dataclasses.replace(
            row, status=status, summary=dict(summary), version=entry.version
        )

    def table(self, table_id: str) -> TableRow | None:
        """Return a table's row, or None."""
        return self._rows.get(table_id)

    def entries(self, table_id: str) -> list[LogEntry]:
        """Return every entry of a table."""
        return list(self._entries.get(table_id, []))

    def tables(self, *, status: str | None = None, visibility: str | None = None) -> list[TableRow]:
        """Return matching rows, newest first."""
        rows = [
            row
            for row in self._rows.values()
            if (status is None or row.status == status)
            and (visibility is None or row.visibility == visibility)
        ]
        return sorted(rows, key=lambda row: row.created_at, reverse=True)

    def close(self) -> None:
        """Nothing to release."""


_SCHEMA: Final = """
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
"""


class SqliteStorage:
    """SQLite in WAL mode; each entry is one transaction, committed before it returns.

    ``synchronous=NORMAL`` (the default here) survives a killed server process, which is
    what a game needs; pass ``synchronous="FULL"`` to survive power loss too.
    """

    def __init__(self, path: str, *, synchronous: str = "NORMAL") -> None:
        if synchronous not in {"OFF", "NORMAL", "FULL", "EXTRA"}:
            raise ValueError(f"synchronous must be OFF, NORMAL, FULL or EXTRA, not {synchronous!r}")
        self.path = path
        # One connection, used from the event loop's thread (and the thread that built it).
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._lock = threading.Lock()
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={synchronous}")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.execute("PRAGMA busy_timeout=5000")
        with self._lock:
            self._db.executescript(_SCHEMA)
            self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    def create_table(self, row: TableRow) -> None:
        """Insert a new table row."""
        with self._lock:
            try:
                self._db.execute(
                    "INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (
                        row.table_id,
                        row.created_at,
                        row.visibility,
                        json.dumps(dict(row.settings)),
                        row.status,
                        json.dumps(dict(row.summary)),
                        row.version,
                    ),
                )
            except sqlite3.IntegrityError as error:
                raise StorageConflictError(str(error)) from None

    def append(
        self, table_id: str, entry: LogEntry, *, status: str, summary: Mapping[str, Any]
    ) -> None:
        """Insert the entry and update the row in one committed transaction."""
        payload = json.dumps(dict(entry.payload), separators=(",", ":"))
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                updated = self._db.execute(
                    "UPDATE tables SET status = ?, summary = ?, version = ? "
                    "WHERE table_id = ? AND version = ?",
                    (status, json.dumps(dict(summary)), entry.version, table_id, entry.version - 1),
                ).rowcount
                if updated != 1:
                    raise StorageConflictError(
                        f"table {table_id}: version {entry.version} does not follow the last"
                    )
                self._db.execute(
                    "INSERT INTO log VALUES (?, ?, ?, ?)",
                    (table_id, entry.version, payload, time.time()),
                )
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def table(self, table_id: str) -> TableRow | None:
        """Return a table's row, or None."""
        with self._lock:
            found = self._db.execute(
                "SELECT * FROM tables WHERE table_id = ?", (table_id,)
            ).fetchone()
        return None if found is None else _row(found)

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
            "SELECT * FROM tables WHERE (? IS NULL OR status = ?) AND (? IS NULL OR visibility = ?)"
        )
        with self._lock:
            found = self._db.execute(
                query + " ORDER BY created_at DESC", (status, status, visibility, visibility)
            ).fetchall()
        return [_row(item) for item in found]

    def close(self) -> None:
        """Close the connection (the WAL is checkpointed by SQLite)."""
        with self._lock:
            self._db.close()


def _row(found: tuple[Any, ...]) -> TableRow:
    table_id, created_at, visibility, settings, status, summary, version = found
    return TableRow(
        table_id=table_id,
        created_at=created_at,
        visibility=visibility,
        settings=json.loads(settings),
        status=status,
        summary=json.loads(summary),
        version=version,
    )


def open_storage(database: str) -> Storage:
    """Open the storage a settings string names: a SQLite path, or ``memory``."""
    if database == "memory":
        return MemoryStorage()
    return SqliteStorage(database)
