"""What every storage shares: a table's row, its log entries, the listing cursor, the
errors, and the :class:`Storage` protocol the table service is written against.

Both databases (``sqlite.py``, ``postgres.py``) and the in-memory store import this
module and nothing of each other; the composition root (``server/app.py``) picks one.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import dataclasses
import json
import math
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

__all__ = [
    "ListingCursor",
    "LogEntry",
    "Storage",
    "StorageConflictError",
    "StorageUnavailableError",
    "StorageVersionError",
    "TableRow",
    "json_text",
    "record_of",
    "record_values",
    "row_of",
    "row_values",
]

_Record = TypeVar("_Record", bound="DataclassInstance")


class StorageConflictError(Exception):
    """An entry with that version already exists (two writers raced for one table)."""


class StorageUnavailableError(Exception):
    """The database cannot be reached (or was lost): nothing was stored or read."""


class StorageVersionError(Exception):
    """The database was written by a newer release (its schema is unknown here)."""


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
        updated_at: Unix time of the last entry (``created_at`` before the first).
        options: the table's own options as JSON data (its pace, its friendly name:
            ``play.options.TableOptions``); ``{}`` for a table stored before they were.
    """

    table_id: str
    created_at: float
    visibility: str
    settings: Mapping[str, Any]
    status: str = "lobby"
    summary: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    version: int = 0
    updated_at: float = 0.0
    options: Mapping[str, Any] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass(frozen=True, slots=True)
class ListingCursor:
    """Where a page of the public list ended: the last row's ``updated_at`` and id."""

    updated_at: float
    table_id: str

    def text(self) -> str:
        """The cursor as the lobby API passes it (``?before=``)."""
        return f"{self.updated_at!r}~{self.table_id}"

    @classmethod
    def parse(cls, text: str) -> ListingCursor:
        """Read :meth:`text` back; raise ValueError if it is not one."""
        stamp, tilde, table_id = text.partition("~")
        value = float(stamp)
        if not tilde or not table_id or len(table_id) > 64 or not math.isfinite(value):
            raise ValueError(f"not a listing cursor: {text[:80]!r}")
        return cls(value, table_id)

    def after(self, row: TableRow) -> bool:
        """True when ``row`` comes after the cursor in the list's order."""
        return (row.updated_at, row.table_id) < (self.updated_at, self.table_id)


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
        self, table_id: str, entry: LogEntry, *, status: str, summary: Mapping[str, Any] | None
    ) -> None:
        """Commit one entry and the new summary (None: unchanged) atomically, durably,
        before returning.

        Raises StorageConflictError if the version is not exactly one past the last.
        """
        ...

    def submit(
        self, table_id: str, entry: LogEntry, *, status: str, summary: Mapping[str, Any] | None
    ) -> concurrent.futures.Future[None]:
        """Queue :meth:`append`; the future completes only once the entry is committed.

        Entries submitted in order for one table are committed in that order. The
        future carries StorageConflictError (or the database's error) on failure.
        """
        ...

    def commit_async(
        self, table_id: str, entry: LogEntry, *, status: str, summary: Mapping[str, Any] | None
    ) -> asyncio.Future[None]:
        """:meth:`submit` from the running event loop: the future completes on that loop,
        only once the entry is committed (what the table service awaits)."""
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

    def listed_tables(
        self, *, since: float, limit: int, before: ListingCursor | None = None
    ) -> list[TableRow]:
        """The public list, one page: public tables not over, changed at or after
        ``since``, most recently changed first, at most ``limit``, after ``before``."""
        ...

    def close(self) -> None:
        """Release the database."""
        ...


def _same(value: Any) -> Any:
    return value


def record_values(record: DataclassInstance, **write: Callable[[Any], Any]) -> tuple[Any, ...]:
    """A record's fields as a row's columns, in the fields' order; ``write`` turns the
    named fields into what the database keeps (a flag into 0/1, a mapping into JSON)."""
    fields = dataclasses.fields(record)
    _known(fields, write)
    return tuple(write.get(field.name, _same)(getattr(record, field.name)) for field in fields)


def record_of(cls: type[_Record], row: Sequence[Any], **read: Callable[[Any], Any]) -> _Record:
    """A record from a row's columns in its fields' order (ValueError for another count);
    ``read`` turns the named columns back into their fields' values."""
    fields = dataclasses.fields(cls)
    _known(fields, read)
    columns = zip(fields, row, strict=True)
    return cls(**{field.name: read.get(field.name, _same)(value) for field, value in columns})


def _known(fields: tuple[dataclasses.Field[Any], ...], converters: Mapping[str, object]) -> None:
    """Refuse a converter for a field the record does not have (a misspelt name would
    leave its column unconverted, silently)."""
    unknown = set(converters).difference(field.name for field in fields)
    if unknown:
        raise TypeError(f"no field {sorted(unknown)[0]!r} to convert")


def json_text(data: Mapping[str, Any]) -> str:
    """A mapping as the JSON text a database column keeps."""
    return json.dumps(dict(data))


def row_values(row: TableRow) -> tuple[Any, ...]:
    """A new table's row as the values of an ``INSERT`` in the column order both databases use
    (table_id, created_at, visibility, settings, status, summary, version, updated_at,
    options)
    (settings and summary as JSON text; ``updated_at`` starts at ``created_at``)."""
    new = dataclasses.replace(row, updated_at=row.created_at)
    return record_values(new, settings=json_text, summary=json_text, options=json_text)


def row_of(found: tuple[Any, ...], load: Callable[[Any], Any]) -> TableRow:
    """A table's row from a database's columns in :func:`row_values`' order, ``load``
    turning a JSON column (text in SQLite, parsed in PostgreSQL) into data."""
    return record_of(TableRow, found, settings=load, summary=load, options=load)
