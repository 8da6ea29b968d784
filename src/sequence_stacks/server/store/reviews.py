"""The post-game reviews a server computed (#27): one row per (table, game, viewer).

A row holds one viewer's review of one finished game as its JSON text (docs/records.md,
"Review"): a seat's (``viewer`` the seat, from 0) or the spectators' (``viewer`` -1).
Reviews are written once, when computed, and read as they are; the tables' own log is
never touched. :class:`ReviewStore` is one SQL implementation for SQLite and
PostgreSQL (the table is made by each database's migrations: :func:`review_schema`),
and :class:`MemoryReviews` keeps them in a dict for the in-memory storage.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Protocol

from .sql import SqlDatabase

__all__ = ["MemoryReviews", "ReviewBook", "ReviewStore", "review_schema"]


def review_schema(real: str, key: str = "TEXT") -> str:
    """The statement that adds the reviews table (``real``: the database's float type,
    ``key``: the type of the tables' ids)."""
    return f"""
    CREATE TABLE reviews (
        table_id   {key} NOT NULL REFERENCES tables(table_id),
        game       INTEGER NOT NULL,
        viewer     INTEGER NOT NULL,
        review     TEXT NOT NULL,
        created_at {real} NOT NULL,
        PRIMARY KEY (table_id, game, viewer)
    );
    """


class ReviewBook(Protocol):
    """Where reviews are kept (blocking calls: the server runs them in a thread)."""

    def save(self, table_id: str, game: int, reviews: Mapping[int, str], now: float) -> None:
        """Keep a game's reviews, by viewer (a review already there stays as it is)."""
        ...

    def load(self, table_id: str, game: int, viewer: int) -> str | None:
        """One viewer's review of a game, or None when there is none."""
        ...

    def viewers(self, table_id: str, game: int) -> list[int]:
        """The viewers a game has reviews for (empty: not reviewed yet)."""
        ...

    def close(self) -> None:
        """Let go of the database (a later call opens it again)."""
        ...


class MemoryReviews:
    """Reviews in a dict, gone with the process (the in-memory storage's)."""

    def __init__(self) -> None:
        self._rows: dict[tuple[str, int, int], str] = {}
        self._lock = threading.Lock()

    def save(self, table_id: str, game: int, reviews: Mapping[int, str], now: float) -> None:
        """See :class:`ReviewBook`."""
        with self._lock:
            for viewer, review in reviews.items():
                self._rows.setdefault((table_id, game, viewer), review)

    def load(self, table_id: str, game: int, viewer: int) -> str | None:
        """See :class:`ReviewBook`."""
        with self._lock:
            return self._rows.get((table_id, game, viewer))

    def viewers(self, table_id: str, game: int) -> list[int]:
        """See :class:`ReviewBook`."""
        with self._lock:
            return sorted(v for (t, g, v) in self._rows if (t, g) == (table_id, game))

    def close(self) -> None:
        """Nothing to let go of."""


class ReviewStore:
    """The reviews table of one SQLite or PostgreSQL database (migrated by its
    storage); every call is one transaction of its :class:`~.sql.SqlDatabase`."""

    def __init__(self, sql: SqlDatabase) -> None:
        self._sql = sql

    @classmethod
    def sqlite(cls, path: str) -> ReviewStore:
        """The reviews of a SQLite database file."""
        return cls(SqlDatabase.sqlite(path))

    @classmethod
    def for_postgres(cls, url: str) -> ReviewStore:
        """The reviews of a PostgreSQL database."""
        return cls(SqlDatabase.postgresql(url))

    def save(self, table_id: str, game: int, reviews: Mapping[int, str], now: float) -> None:
        """See :class:`ReviewBook`."""
        with self._sql.transaction() as run:
            for viewer, review in reviews.items():
                run(
                    "INSERT INTO reviews VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                    (table_id, game, viewer, review, now),
                )

    def load(self, table_id: str, game: int, viewer: int) -> str | None:
        """See :class:`ReviewBook`."""
        return self._sql.one(
            "SELECT review FROM reviews WHERE table_id = ? AND game = ? AND viewer = ?",
            (table_id, game, viewer),
            lambda row: str(row[0]),
        )

    def viewers(self, table_id: str, game: int) -> list[int]:
        """See :class:`ReviewBook`."""
        return self._sql.all(
            "SELECT viewer FROM reviews WHERE table_id = ? AND game = ? ORDER BY viewer",
            (table_id, game),
            lambda row: int(row[0]),
        )

    def close(self) -> None:
        """Close the connection (a later call opens another)."""
        self._sql.close()
