"""Storages of each kind for the storage and protocol tiers: the in-memory one and a
fresh PostgreSQL schema (support/postgres.py) on the server scripts/test starts."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Final

from sequence_stacks.server.store import MemoryStorage, Storage
from support.postgres import fresh_database, fresh_schema, server_url

__all__ = ["STORAGE_KINDS", "fresh_database", "fresh_schema", "server_url", "storage_of"]

STORAGE_KINDS: Final = ("memory", "postgresql")


@contextlib.contextmanager
def storage_of(kind: str) -> Iterator[Storage]:
    """A fresh, empty storage of a kind: ``memory`` or ``postgresql`` (its own schema)."""
    if kind == "memory":
        yield MemoryStorage()
        return
    from sequence_stacks.server.store.postgres import PostgresStorage  # noqa: PLC0415

    with fresh_schema() as url:
        store = PostgresStorage(url)
        try:
            yield store
        finally:
            store.close()
