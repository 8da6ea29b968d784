"""Storage: every table is a row plus an append-only log of versioned entries.

The room's public face: the records and the :class:`Storage` protocol
(:mod:`.records`), and the three storages, :class:`MemoryStorage` (tests),
:class:`SqliteStorage` (the embedded default) and, imported only where a
``postgresql://`` URL asks for it, ``store.postgres.PostgresStorage``. Which one a
server uses is decided at the composition root (``server/app.py``, ``open_storage``).
"""

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
from .sqlite import SqliteStorage

__all__ = [
    "ListingCursor",
    "LogEntry",
    "MemoryStorage",
    "SqliteStorage",
    "Storage",
    "StorageConflictError",
    "StorageUnavailableError",
    "StorageVersionError",
    "TableRow",
]
