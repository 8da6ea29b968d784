"""Web play: HTTP lobby, WebSocket tables, storage and the browser client.

Rooms by job: ``play`` (tables, games, bots, clocks; the table service), ``store``
(the databases), ``web`` (HTTP, sockets, static client), joined at the composition
root, ``app.py``. ``create_app(settings)`` builds the Starlette application;
``sequence-stacks serve`` (:func:`add_serve_parser`, :func:`run_serve`) runs it on
uvicorn. See docs/server.md and docs/protocol.md.
"""

from .app import create_app, open_storage
from .config import ServerSettings
from .play import TableService
from .serve import add_serve_parser, run_serve
from .store import MemoryStorage, SqliteStorage, Storage

__all__ = [
    "MemoryStorage",
    "ServerSettings",
    "SqliteStorage",
    "Storage",
    "TableService",
    "add_serve_parser",
    "create_app",
    "open_storage",
    "run_serve",
]
