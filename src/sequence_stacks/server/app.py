"""The composition root of the web server: the storage a setting names, the gate that
says which tables this process may act on, the table service, and the web application
around it. Nothing else in the server chooses between the concrete storages."""

from __future__ import annotations

import contextlib
import gc
import os
import socket
from collections.abc import AsyncIterator
from typing import Final

from starlette.applications import Starlette

from .config import ServerSettings
from .play import Gate, OpenGate, TableService
from .review import Reviews
from .store import MemoryReviews, MemoryStorage, ReviewBook, ReviewStore, SqliteStorage, Storage
from .web import STATIC_DIR, web_app

__all__ = ["STATIC_DIR", "create_app", "is_postgres_url", "open_reviews", "open_storage"]

_POSTGRES: Final = ("postgresql://", "postgres://")
GC_THRESHOLD: Final = 50_000


def is_postgres_url(database: str) -> bool:
    """True when a database setting names a PostgreSQL database."""
    return database.startswith(_POSTGRES)


def open_storage(database: str) -> Storage:
    """Open the storage a settings string names: a ``postgresql://`` URL, a SQLite
    path, or ``memory``.

    Raises StorageUnavailableError (PostgreSQL not reachable), StorageVersionError,
    ValueError (a malformed setting) or sqlite3.Error / OSError (a bad file).
    """
    if database in {"memory", ":memory:"}:
        return MemoryStorage()
    if is_postgres_url(database):
        try:
            from .store.postgres import PostgresStorage  # noqa: PLC0415 - psycopg only when used
        except ImportError:
            raise ValueError(
                "PostgreSQL storage needs psycopg: pip install 'sequence-stacks[postgres]'"
            ) from None
        return PostgresStorage(database)
    return SqliteStorage(database)


def make_gate(storage: Storage, config: ServerSettings) -> Gate:
    """The gate of this process: on PostgreSQL, tables owned through advisory locks,
    so that several workers may share the database (docs/deploy.md); else all."""
    url = getattr(storage, "url", None)
    if not isinstance(url, str) or not is_postgres_url(url):
        return OpenGate()
    from .play.cluster import OwnershipGate  # noqa: PLC0415 - psycopg only when used
    from .play.ownership import Ownership  # noqa: PLC0415

    ownership = Ownership(url, config.worker or f"{socket.gethostname()}:{os.getpid()}")
    return OwnershipGate(ownership, config)


def open_reviews(storage: Storage) -> ReviewBook:
    """Where the reviews of a storage's games are kept: its own database (in memory for
    the in-memory storage)."""
    if isinstance(storage, SqliteStorage):
        return ReviewStore.sqlite(storage.path)
    url = getattr(storage, "url", None)
    if isinstance(url, str) and is_postgres_url(url):
        return ReviewStore.for_postgres(url)
    return MemoryReviews()


def create_app(
    settings: ServerSettings | None = None, *, storage: Storage | None = None
) -> Starlette:
    """Build the web application; ``storage`` defaults to the settings' database."""
    config = settings or ServerSettings()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = storage if storage is not None else open_storage(config.database)
        service = TableService(store, config, gate=make_gate(store, config))
        app.state.service = service
        reviews = Reviews(open_reviews(store), service)
        app.state.reviews = reviews
        await service.start()
        if config.freeze_heap:
            gc.collect()
            gc.freeze()
            # A table's game makes few reference cycles: collect the young generation
            # after this many new container objects, not 700 (docs/server.md, Load).
            gc.set_threshold(GC_THRESHOLD, 20, 100)
        try:
            yield
        finally:
            await reviews.close()
            await service.close()
            if storage is None:
                store.close()

    return web_app(config, lifespan)
