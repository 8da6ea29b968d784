"""The composition root of the web server: the storage a setting names, the gate that
says which tables this process may act on, the accounts and notifications that watch
the tables, the table service, and the web application around it. Nothing else in the
server chooses between the concrete storages, and only here do the play room's news
reach the accounts and notifications rooms."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import time
from collections.abc import AsyncIterator, Callable
from typing import Final

from starlette.applications import Starlette

from .accounts import Accounts, GameRecorder, SeatBook
from .config import ServerSettings
from .heap import HeapKeeper
from .notify import Mailer, MailSettings, Notifier, Pusher, load_vapid, new_vapid_pem, vapid_of_pem
from .play import Gate, OpenGate, TableNews, TableService, TableStatus, TableWatcher
from .review import Reviews
from .store import (
    AccountStore,
    MemoryReviews,
    MemoryStorage,
    ReviewBook,
    ReviewStore,
    SqliteStorage,
    Storage,
)
from .web import STATIC_DIR, Rooms, web_app

__all__ = [
    "STATIC_DIR",
    "Watchers",
    "create_app",
    "is_postgres_url",
    "open_account_store",
    "open_reviews",
    "open_storage",
]

_POSTGRES: Final = ("postgresql://", "postgres://")


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


def open_account_store(storage: Storage) -> AccountStore:
    """The accounts of the database a storage uses (in memory for the in-memory one)."""
    if isinstance(storage, SqliteStorage):
        return AccountStore.sqlite(storage.path)
    url = getattr(storage, "url", None)
    if isinstance(url, str) and is_postgres_url(url):
        return AccountStore.for_postgres(url)
    return AccountStore.memory()


class Watchers:
    """Several table watchers, each told every table's news in turn."""

    def __init__(self, *watchers: TableWatcher) -> None:
        self.watchers = watchers

    def watches(self, *, turn_based: bool, status: TableStatus) -> bool:
        """Whether any of them wants the news of such a table."""
        return any(
            watcher.watches(turn_based=turn_based, status=status) for watcher in self.watchers
        )

    def changed(self, news: TableNews) -> None:
        """Tell every watcher."""
        for watcher in self.watchers:
            watcher.changed(news)


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
    settings: ServerSettings | None = None,
    *,
    storage: Storage | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> Starlette:
    """Build the web application; ``storage`` defaults to the settings' database,
    ``clock`` (the tables' timers) to the monotonic clock (tests move their own)."""
    config = settings or ServerSettings()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = storage if storage is not None else open_storage(config.database)
        account_store = open_account_store(store)
        accounts = Accounts(account_store)
        await accounts.start()
        seats = SeatBook(account_store, lambda: accounts.sealer, store.table)
        mailer = Mailer(MailSettings(config.smtp_url, config.sender)) if config.smtp_url else None
        # Web Push works with no configuration: with no --vapid-key file, the key is
        # made once and kept in the database, the same for every worker.
        if config.vapid_key:
            vapid = load_vapid(config.vapid_key)
        else:
            pem = await asyncio.to_thread(account_store.server_key, "vapid", new_vapid_pem)
            vapid = vapid_of_pem(pem)
        pusher = Pusher(vapid, subject=f"mailto:{config.sender}")
        notifier = Notifier(
            account_store,
            seats,
            store.table,
            public_url=config.link_base,
            mailer=mailer,
            pusher=pusher,
        )
        recorder = GameRecorder(account_store)
        # Post-game reviews (#27): told of every game's end, they read the game from
        # the table service (set below: the service is made with its watchers).
        reviews = Reviews(
            open_reviews(store), workers=config.review_workers, backlog=config.review_backlog
        )
        service = TableService(
            store,
            config,
            gate=make_gate(store, config),
            clock=clock,
            watcher=Watchers(notifier, recorder, reviews),
        )
        app.state.service = service
        app.state.rooms = Rooms(accounts, seats, notifier, recorder, mailer, pusher)
        reviews.games = service
        app.state.reviews = reviews
        app.state.activity = reviews.busy  # every table message: reviews wait (pacer)
        await service.start()
        heap = HeapKeeper() if config.freeze_heap else None
        if heap is not None:
            heap.start()
        try:
            yield
        finally:
            if heap is not None:
                heap.stop()
            await reviews.close()
            await service.close()
            await notifier.drain()
            await recorder.drain()
            account_store.close()
            if storage is None:
                store.close()

    return web_app(config, lifespan)
