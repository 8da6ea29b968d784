"""Storage: every table is a row plus an append-only log of versioned entries.

The room's public face: the records and the :class:`Storage` protocol
(:mod:`.records`), and the three storages, :class:`MemoryStorage` (tests),
:class:`SqliteStorage` (the embedded default) and, imported only where a
``postgresql://`` URL asks for it, ``store.postgres.PostgresStorage``; and the
accounts of each (:class:`AccountStore`, one SQL implementation for both databases).
Which one a server uses is decided at the composition root (``server/app.py``, ``open_storage``).
The post-game reviews (#27) are kept beside the tables: :class:`ReviewStore` (SQLite and
PostgreSQL) and :class:`MemoryReviews`, both a :class:`ReviewBook`.
"""

from .accounts import AccountStore
from .accounts.records import (
    Account,
    Credential,
    GameResult,
    PushSubscription,
    Rating,
    SeatLink,
    SessionRow,
)
from .memory import MemoryStorage
from .records import (
    ListingCursor,
    LogEntry,
    Storage,
    StorageConflictError,
    StorageUnavailableError,
    StorageVersionError,
    TableRow,
)
from .reviews import MemoryReviews, ReviewBook, ReviewStore
from .sqlite import SqliteStorage

__all__ = [
    "Account",
    "AccountStore",
    "Credential",
    "GameResult",
    "ListingCursor",
    "LogEntry",
    "MemoryReviews",
    "MemoryStorage",
    "PushSubscription",
    "Rating",
    "ReviewBook",
    "ReviewStore",
    "SeatLink",
    "SessionRow",
    "SqliteStorage",
    "Storage",
    "StorageConflictError",
    "StorageUnavailableError",
    "StorageVersionError",
    "TableRow",
]
