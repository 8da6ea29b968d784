"""Accounts in the database: players, their passkeys and sessions, one-time codes, the
seats they hold, their push subscriptions, the notices sent to them, their finished
games and their ratings (#26).

One SQL implementation for both databases (:class:`AccountStore`, on a
:class:`~..sql.SqlDatabase` that knows which dialect it speaks): its tables are created
by the same schema step as the tables' own (SQLite schema 4, PostgreSQL schema 3:
:func:`account_schema`). The in-memory storage keeps its accounts in an in-memory SQLite
database, so every storage runs the same statements. Calls block (a database round
trip): the async callers run them in a thread.

The store is one face over parts by job, each a module of its own: :mod:`.codes`
(server keys, challenges, one-time codes), :mod:`.identities` (accounts, passkeys,
sessions), :mod:`.seats` (seats held, push subscriptions, notices) and :mod:`.ratings`
(results and ratings); the rows they read and write are in :mod:`.records`.
"""

from __future__ import annotations

import sqlite3

from sequence_stacks.server.store.sql import SqlDatabase

from .codes import Codes
from .identities import Identities, Sessions
from .ratings import Results
from .schema import account_schema
from .seats import Notices, SeatLinks

__all__ = ["AccountStore", "account_schema"]


class AccountStore(Codes, Identities, Sessions, SeatLinks, Notices, Results):
    """The account tables of one database (see the module's docstring).

    Every method is one transaction of its :class:`~..sql.SqlDatabase` (one connection,
    serialised by a lock); SQLite's connection waits for the table writer's
    transactions (``busy_timeout``), and PostgreSQL's locks the rows a rating update
    reads (``FOR UPDATE``).
    """

    def __init__(self, sql: SqlDatabase) -> None:
        self._sql = sql

    @classmethod
    def sqlite(cls, path: str) -> AccountStore:
        """The accounts of a SQLite database file (already migrated by its storage)."""
        return cls(SqlDatabase.sqlite(path, foreign_keys=True))

    @classmethod
    def memory(cls) -> AccountStore:
        """Accounts in an in-memory SQLite database, gone with the process."""
        db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        db.executescript(account_schema("REAL"))  # the tables of accounts alone
        return cls(SqlDatabase(lambda: db, postgres=False))

    @classmethod
    def for_postgres(cls, url: str) -> AccountStore:
        """The accounts of a PostgreSQL database (already migrated by its storage)."""
        return cls(SqlDatabase.postgresql(url))

    @property
    def postgres(self) -> bool:
        """True when the database is PostgreSQL."""
        return self._sql.postgres

    def close(self) -> None:
        """Release the connection."""
        self._sql.close()
