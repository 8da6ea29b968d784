"""Storage in dictionaries: the same contract as the databases, gone with the process."""

from __future__ import annotations

import asyncio
import concurrent.futures
import dataclasses
import json
import time
from collections.abc import Mapping
from typing import Any

from .records import ListingCursor, LogEntry, StorageConflictError, TableRow

__all__ = ["MemoryStorage"]


class MemoryStorage:
    """Storage in dictionaries: same contract as SQLite, gone with the process."""

    def __init__(self) -> None:
        self._rows: dict[str, TableRow] = {}
        self._entries: dict[str, list[LogEntry]] = {}

    def create_table(self, row: TableRow) -> None:
        """Store a new table."""
        if row.table_id in self._rows:
            raise StorageConflictError(f"table {row.table_id} exists")
        self._rows[row.table_id] = dataclasses.replace(row, updated_at=row.created_at)
        self._entries[row.table_id] = []

    def append(
        self, table_id: str, entry: LogEntry, *, status: str, summary: Mapping[str, Any] | None
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
            row,
            status=status,
            summary=row.summary if summary is None else dict(summary),
            version=entry.version,
            updated_at=max(row.updated_at, time.time()),
        )

    def submit(
        self, table_id: str, entry: LogEntry, *, status: str, summary: Mapping[str, Any] | None
    ) -> concurrent.futures.Future[None]:
        """Append at once and return the finished future."""
        future: concurrent.futures.Future[None] = concurrent.futures.Future()
        self._append_into(future, table_id, entry, status=status, summary=summary)
        return future

    def commit_async(
        self, table_id: str, entry: LogEntry, *, status: str, summary: Mapping[str, Any] | None
    ) -> asyncio.Future[None]:
        """Append at once and return the finished future (on the running loop)."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._append_into(future, table_id, entry, status=status, summary=summary)
        return future

    def _append_into(
        self,
        future: concurrent.futures.Future[None] | asyncio.Future[None],
        table_id: str,
        entry: LogEntry,
        *,
        status: str,
        summary: Mapping[str, Any] | None,
    ) -> None:
        """Append at once; the future finishes with the outcome (an error handed to it)."""
        try:
            self.append(table_id, entry, status=status, summary=summary)
        except Exception as error:  # handed to the waiter
            future.set_exception(error)
        else:
            future.set_result(None)

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

    def listed_tables(
        self, *, since: float, limit: int, before: ListingCursor | None = None
    ) -> list[TableRow]:
        """One page of the public list (see :meth:`Storage.listed_tables`)."""
        rows = [
            row
            for row in self._rows.values()
            if row.visibility == "public"
            and row.status != "over"
            and row.updated_at >= since
            and (before is None or before.after(row))
        ]
        rows.sort(key=lambda row: (row.updated_at, row.table_id), reverse=True)
        return rows[:limit]

    def close(self) -> None:
        """Nothing to release."""
