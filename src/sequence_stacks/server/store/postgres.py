"""PostgreSQL storage: the same contract as :class:`~.sqlite.SqliteStorage`, for
several server processes (or machines) sharing one database.

Chosen by a URL database setting (``--db postgresql://user@host/db``). Writes go to one
writer thread with its own connection (:class:`~.writer.GroupWriter`, as SQLite's), which
commits every job waiting in its queue in one transaction (group commit: one WAL flush
for many tables' actions) and completes the jobs' futures only after COMMIT returned.
Reads use a second connection. A lost connection fails the jobs and reads in flight
with :class:`StorageUnavailableError` and is opened again for the next one, so a
server never acts without its database.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any, Final, TypeVar

import psycopg
from psycopg import errors as pg_errors
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from .accounts import account_schema
from .records import (
    ListingCursor,
    LogEntry,
    StorageConflictError,
    StorageUnavailableError,
    StorageVersionError,
    TableRow,
    row_of,
    row_values,
)
from .reviews import review_schema
from .writer import GroupCommitted, GroupWriter, Job

__all__ = ["POSTGRES_SCHEMA_VERSION", "PostgresStorage", "describe", "migrate_postgres"]

POSTGRES_SCHEMA_VERSION: Final = 4
CONNECT_TIMEOUT: Final = 5  # seconds to reach the server before giving up
# Held (for its transaction) by whoever migrates, so two workers starting at once
# never run one step twice. Any constant works; this one spells "seqstack".
_MIGRATION_LOCK: Final = 0x7365717374616B

# Each step takes the database from the version before it to its own, in one
# transaction; ``schema_version`` holds the version reached (SQLite: user_version).
_MIGRATIONS: Final[tuple[tuple[int, str], ...]] = (
    (
        1,
        """
        CREATE TABLE tables (
            table_id   TEXT COLLATE "C" PRIMARY KEY,
            created_at DOUBLE PRECISION NOT NULL,
            visibility TEXT NOT NULL,
            settings   JSON NOT NULL,
            status     TEXT NOT NULL,
            summary    JSON NOT NULL,
            version    INTEGER NOT NULL,
            updated_at DOUBLE PRECISION NOT NULL
        );
        CREATE TABLE log (
            table_id   TEXT COLLATE "C" NOT NULL REFERENCES tables(table_id),
            version    INTEGER NOT NULL,
            payload    JSON NOT NULL,
            created_at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (table_id, version)
        );
        CREATE INDEX tables_by_status ON tables(status, visibility);
        CREATE INDEX tables_listed ON tables(updated_at DESC, table_id DESC)
            WHERE visibility = 'public' AND status <> 'over';
        """,
    ),
    (
        # A table's own options (its pace, its friendly name), as JSON (#24).
        2,
        "ALTER TABLE tables ADD COLUMN options JSON NOT NULL DEFAULT '{}';",
    ),
    # Accounts, passkeys, sessions, seats they hold, notices, results, ratings (#26).
    (3, account_schema("DOUBLE PRECISION")),
    # Each finished game's reviews, one per viewer (#27).
    (4, review_schema("DOUBLE PRECISION", 'TEXT COLLATE "C"')),
)
_COLUMNS: Final = (
    "table_id, created_at, visibility, settings, status, summary, version, updated_at, options"
)
_LISTED_WHERE: Final = (
    "FROM tables WHERE visibility = 'public' AND status <> 'over' AND updated_at >= %s"
)
_LISTED: Final = (
    f"SELECT {_COLUMNS} {_LISTED_WHERE} ORDER BY updated_at DESC, table_id DESC LIMIT %s"
)
_LISTED_AFTER: Final = (
    f"SELECT {_COLUMNS} {_LISTED_WHERE} AND (updated_at, table_id) < (%s, %s) "
    "ORDER BY updated_at DESC, table_id DESC LIMIT %s"
)

_T = TypeVar("_T")


def describe(url: str) -> str:
    """The URL as ``postgresql://user@host:port/db``: no password, fit for a log line."""
    try:
        parts = conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "postgresql://(unreadable URL)"
    user = f"{parts['user']}@" if parts.get("user") else ""
    port = f":{parts['port']}" if parts.get("port") else ""
    return f"postgresql://{user}{parts.get('host', '')}{port}/{parts.get('dbname', '')}"


def migrate_postgres(db: psycopg.Connection[Any]) -> int:
    """Bring a database to :data:`POSTGRES_SCHEMA_VERSION`, one committed step at a
    time (``db`` in autocommit mode). Returns the version it was at; a database from
    a newer release is refused."""
    db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    found = _schema_version(db)
    if found > POSTGRES_SCHEMA_VERSION:
        raise StorageVersionError(
            f"the database is at schema {found}; this release reads up to {POSTGRES_SCHEMA_VERSION}"
        )
    for version, script in _MIGRATIONS:
        with db.transaction():
            db.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            if _schema_version(db) >= version:
                continue  # another worker got here first
            db.execute(script.encode())
            db.execute("DELETE FROM schema_version")
            db.execute("INSERT INTO schema_version VALUES (%s)", (version,))
    return found


def _schema_version(db: psycopg.Connection[Any]) -> int:
    found = db.execute("SELECT max(version) FROM schema_version").fetchone()
    return 0 if found is None or found[0] is None else int(found[0])


class PostgresStorage(GroupCommitted):
    """PostgreSQL; every write is committed before its caller hears of it.

    Same threads as SQLite's storage: writes (:meth:`create_table`, :meth:`append`,
    :meth:`submit`) go to one writer thread that group-commits (each job in a
    savepoint, so a refused one rolls back alone) and completes futures only after
    COMMIT; reads share one connection under a lock. The database's own durability
    applies (``synchronous_commit``: on by default, a commit is flushed to its WAL).
    """

    def __init__(self, url: str, *, connect_timeout: int = CONNECT_TIMEOUT) -> None:
        self.url = url
        self.name = describe(url)
        try:
            self._conninfo = make_conninfo(
                url, connect_timeout=str(connect_timeout), application_name="sequence-stacks"
            )
        except psycopg.ProgrammingError as error:
            raise ValueError(f"not a usable PostgreSQL URL: {_first_line(error)}") from None
        writer = self._connect()
        try:
            migrate_postgres(writer)
        except psycopg.Error as error:
            writer.close()
            raise StorageUnavailableError(
                f"cannot prepare {self.name}: {_first_line(error)}"
            ) from None
        except BaseException:
            writer.close()
            raise
        self._writer_db: psycopg.Connection[Any] | None = writer
        self._db: psycopg.Connection[Any] | None = self._connect()
        self._lock = threading.Lock()
        self._writer = GroupWriter[psycopg.Connection[Any]](
            name="postgres-writer",
            begin=self._begin,
            roll_back=self._roll_back,
            failure=self._failure,
            closed=lambda: StorageUnavailableError("the storage is closed"),
        )

    def _connect(self) -> psycopg.Connection[Any]:
        try:
            return psycopg.connect(self._conninfo, autocommit=True)
        except psycopg.Error as error:
            raise StorageUnavailableError(
                f"cannot connect to {self.name}: {_first_line(error)}"
            ) from None

    # --- writing ------------------------------------------------------------------

    def create_table(self, row: TableRow) -> None:
        """Insert a new table row (committed before this returns)."""
        values = row_values(row)

        def insert(db: psycopg.Connection[Any]) -> None:
            try:
                db.execute(
                    f"INSERT INTO tables ({_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
                    values,
                )
            except pg_errors.UniqueViolation as error:
                raise StorageConflictError(_first_line(error)) from None

        self._writer.submit(insert).result()

    def _append_job(
        self, table_id: str, version: int, payload: str, status: str, summary: str | None
    ) -> Job[psycopg.Connection[Any]]:
        """See :meth:`GroupCommitted._append_job`: one statement, whose INSERT reads the
        row its fenced UPDATE moved."""

        def insert(db: psycopg.Connection[Any]) -> None:
            # One statement, one round trip: the row moves to this version only if it
            # was at the one before, and the entry is written only if it moved.
            now = time.time()
            entry_row = (version, payload, now)
            try:
                written = db.execute(
                    "WITH moved AS (UPDATE tables SET status = %s, "
                    "summary = COALESCE(%s::json, summary), version = %s, "
                    "updated_at = GREATEST(updated_at, %s) "
                    "WHERE table_id = %s AND version = %s RETURNING table_id) "
                    "INSERT INTO log SELECT table_id, %s::integer, %s::json, %s::double precision "
                    "FROM moved",
                    (status, summary, version, now, table_id, version - 1, *entry_row),
                ).rowcount
            except pg_errors.UniqueViolation as error:
                raise StorageConflictError(_first_line(error)) from None
            if written != 1:
                raise StorageConflictError(
                    f"table {table_id}: version {version} does not follow the last"
                )

        return insert

    def _writer_connection(self) -> psycopg.Connection[Any]:
        if self._writer_db is None or self._writer_db.closed or self._writer_db.broken:
            self._writer_db = None
            self._writer_db = self._connect()
        return self._writer_db

    def _begin(self) -> psycopg.Connection[Any]:
        """The writer's connection with a transaction begun (opened again if lost)."""
        db = self._writer_connection()
        try:
            db.execute("BEGIN")
        except psycopg.OperationalError:
            # A connection that died while idle (the database restarted): nothing
            # was sent, so a fresh connection may take the group.
            db.close()
            db = self._writer_connection()
            db.execute("BEGIN")
        return db

    def _failure(self, error: Exception) -> Exception:
        """What a failed group's waiters hear: a lost connection committed nothing."""
        if isinstance(error, psycopg.OperationalError):
            return StorageUnavailableError(f"lost {self.name}: {_first_line(error)}")
        return error

    def _roll_back(self, db: psycopg.Connection[Any]) -> None:
        if db.broken or db.closed:
            self._writer_db = None
            return
        try:
            if db.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
                db.execute("ROLLBACK")
        except psycopg.Error:
            db.close()
            self._writer_db = None

    # --- reading ------------------------------------------------------------------

    def _read(self, query: Callable[[psycopg.Connection[Any]], _T]) -> _T:
        """Run a read on the reader connection; a read is safe to run twice, so one
        that meets a dead connection (the database restarted) tries a fresh one."""
        with self._lock:
            for attempt in range(2):
                try:
                    if self._db is None or self._db.closed or self._db.broken:
                        self._db = None
                        self._db = self._connect()
                    return query(self._db)
                except psycopg.OperationalError as error:
                    if self._db is not None and self._db.broken:
                        self._db.close()
                        self._db = None
                    if attempt or self._db is not None:
                        raise StorageUnavailableError(
                            f"lost {self.name}: {_first_line(error)}"
                        ) from None
            raise AssertionError("unreachable")

    def table(self, table_id: str) -> TableRow | None:
        """Return a table's row, or None."""
        found = self._read(
            lambda db: db.execute(
                f"SELECT {_COLUMNS} FROM tables WHERE table_id = %s", (table_id,)
            ).fetchone()
        )
        return None if found is None else row_of(found, _as_is)

    def entries(self, table_id: str) -> list[LogEntry]:
        """Return every entry of a table in version order."""
        found = self._read(
            lambda db: db.execute(
                "SELECT version, payload FROM log WHERE table_id = %s ORDER BY version",
                (table_id,),
            ).fetchall()
        )
        return [LogEntry(version, payload) for version, payload in found]

    def tables(self, *, status: str | None = None, visibility: str | None = None) -> list[TableRow]:
        """Return matching rows, newest first."""
        query = (
            f"SELECT {_COLUMNS} FROM tables WHERE (%s::text IS NULL OR status = %s) "
            "AND (%s::text IS NULL OR visibility = %s) ORDER BY created_at DESC"
        )
        found = self._read(
            lambda db: db.execute(query, (status, status, visibility, visibility)).fetchall()
        )
        return [row_of(item, _as_is) for item in found]

    def listed_tables(
        self, *, since: float, limit: int, before: ListingCursor | None = None
    ) -> list[TableRow]:
        """One page of the public list, read in order from its partial index."""
        values: tuple[Any, ...]
        if before is None:
            query, values = _LISTED, (since, limit)
        else:
            query, values = _LISTED_AFTER, (since, before.updated_at, before.table_id, limit)
        found = self._read(lambda db: db.execute(query, values).fetchall())
        return [row_of(item, _as_is) for item in found]

    def close(self) -> None:
        """Finish queued writes, stop the writer and close the connections."""
        if not self._writer.close():
            return
        with self._lock:
            if self._db is not None:
                self._db.close()
        if self._writer_db is not None:
            self._writer_db.close()


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def _as_is(value: Any) -> Any:
    """A JSON column as psycopg gives it: already parsed."""
    return value
