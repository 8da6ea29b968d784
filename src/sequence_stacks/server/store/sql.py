"""One connection to a SQLite or PostgreSQL database, one transaction at a time: what
the account and review tables share (:class:`SqlDatabase`).

Statements are written once with ``?`` marks; on PostgreSQL they become ``%s``. The
connection opens on first use and again after it broke; a database that cannot be
reached raises :class:`~.records.StorageUnavailableError`. Calls block: the async
callers run them in a thread.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Protocol, TypeVar

from .records import StorageUnavailableError

__all__ = ["Cursor", "SqlDatabase", "Tx"]

_T = TypeVar("_T")


class Cursor(Protocol):
    """What a statement returns (sqlite3's and psycopg's cursors both are one)."""

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    @property
    def rowcount(self) -> int: ...


class Tx(Protocol):
    """Runs one statement inside the open transaction."""

    def __call__(self, sql: str, values: Sequence[Any] = ()) -> Cursor: ...


class SqlDatabase:
    """One connection, serialised by a lock; every :meth:`transaction` is one
    transaction on it (SQLite: ``BEGIN IMMEDIATE`` for a write, so it waits for the
    table writer through ``busy_timeout``)."""

    def __init__(
        self,
        connect: Callable[[], Any],
        *,
        postgres: bool,
        unavailable: tuple[type[BaseException], ...] = (),
    ) -> None:
        self._connect = connect
        self.postgres = postgres
        self._unavailable = unavailable
        self._db: Any = None
        self._lock = threading.Lock()

    @classmethod
    def sqlite(cls, path: str, *, foreign_keys: bool = False) -> SqlDatabase:
        """A SQLite database file (already migrated by its storage)."""

        def connect() -> sqlite3.Connection:
            db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            db.execute("PRAGMA busy_timeout=10000")
            if foreign_keys:
                db.execute("PRAGMA foreign_keys=ON")
            return db

        return cls(connect, postgres=False)

    @classmethod
    def postgresql(cls, url: str) -> SqlDatabase:
        """A PostgreSQL database (already migrated by its storage)."""
        import psycopg  # noqa: PLC0415 - only with PostgreSQL

        return cls(
            lambda: psycopg.connect(url, autocommit=True, connect_timeout=5),
            postgres=True,
            unavailable=(psycopg.OperationalError,),
        )

    def _connection(self) -> Any:
        db = self._db
        if db is None or getattr(db, "closed", False) or getattr(db, "broken", False):
            self._db = db = self._connect()
        return db

    @contextmanager
    def transaction(self, *, write: bool = True) -> Iterator[Tx]:
        """One transaction: committed when the block ends, rolled back when it raises."""
        with self._lock:
            try:
                db = self._connection()
                if self.postgres:
                    with db.transaction():

                        def run_pg(sql: str, values: Sequence[Any] = ()) -> Cursor:
                            cursor: Cursor = db.execute(sql.replace("?", "%s"), tuple(values))
                            return cursor

                        yield run_pg
                    return
                db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                try:

                    def run_sqlite(sql: str, values: Sequence[Any] = ()) -> Cursor:
                        cursor: Cursor = db.execute(sql, tuple(values))
                        return cursor

                    yield run_sqlite
                except BaseException:
                    db.execute("ROLLBACK")
                    raise
                db.execute("COMMIT")
            except self._unavailable as error:
                self._db = None
                raise StorageUnavailableError(str(error).splitlines()[0]) from None

    def one(self, sql: str, values: Sequence[Any], make: Callable[[Any], _T]) -> _T | None:
        """The first row a query finds, made into a value; None when it finds none."""
        with self.transaction(write=False) as run:
            found = run(sql, values).fetchone()
        return None if found is None else make(found)

    def all(self, sql: str, values: Sequence[Any], make: Callable[[Any], _T]) -> list[_T]:
        """Every row a query finds, each made into a value."""
        with self.transaction(write=False) as run:
            return [make(row) for row in run(sql, values).fetchall()]

    def write(self, sql: str, values: Sequence[Any]) -> int:
        """Run one statement in its own transaction; how many rows it changed."""
        with self.transaction() as run:
            return run(sql, values).rowcount

    def close(self) -> None:
        """Release the connection (a later call opens another)."""
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None
