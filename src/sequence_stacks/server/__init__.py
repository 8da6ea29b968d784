"""Web play: HTTP lobby, WebSocket tables, SQLite storage and the browser client.

``create_app(settings)`` builds the Starlette application; ``sequence-stacks serve``
(:func:`add_serve_parser`, :func:`run_serve`) runs it on uvicorn. See docs/server.md
and docs/protocol.md.
"""

from .app import create_app
from .config import ServerSettings
from .serve import add_serve_parser, run_serve
from .service import TableService
from .storage import MemoryStorage, SqliteStorage, Storage

__all__ = [
    "MemoryStorage",
    "ServerSettings",
    "SqliteStorage",
    "Storage",
    "TableService",
    "add_serve_parser",
    "create_app",
    "run_serve",
]
