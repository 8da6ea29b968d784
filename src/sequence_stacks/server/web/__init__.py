"""The web room: HTTP pages and API, the table sockets, the static client.

Its face is :func:`web_app`, the Starlette application around a table service that
the composition root (``server/app.py``) makes and starts in the lifespan it passes,
and :class:`Rooms`, the accounts and notifications the composition root gives it.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from sequence_stacks.server.config import ServerSettings
from sequence_stacks.server.play import Refusal, RefusalCode
from sequence_stacks.server.store import StorageUnavailableError

from .accounts_api import ACCOUNT_ROUTES
from .api import ROUTES
from .local import device_assets, device_routes
from .middleware import CONTENT_SECURITY_POLICY, CheckOrigin, KeepRawSend, SecurityHeaders
from .pages import STATIC_DIR, page, reader_language, table_page
from .responses import error_response
from .rooms import Rooms
from .socket import table_socket
from .transport import AddressLimits

__all__ = ["CONTENT_SECURITY_POLICY", "STATIC_DIR", "Rooms", "reader_language", "web_app"]

Lifespan = Callable[[Starlette], AbstractAsyncContextManager[Any]]
# The pages a one-time code or link opens: a second device, a seat moved here, an
# address verified, e-mails stopped.
_CODE_PAGES = ("/link", "/move", "/verify", "/unsubscribe/{token}")


def web_app(config: ServerSettings, lifespan: Lifespan) -> Starlette:
    """The application: its routes, its middleware, its limits; ``lifespan`` sets
    ``app.state.service`` (the table service) while it runs."""
    routes: list[BaseRoute] = [
        Route("/", page("index.html")),
        Route("/t/{table_id}", table_page("table.html")),
        Route("/replay/{table_id}/{game:int}", table_page("replay.html")),
        Route("/review/{table_id}/{game:int}", table_page("review.html")),
        Route("/learn", page("tutorial.html")),
        # Accounts (#26): each page's words and data come from the API.
        Route("/account", page("account.html")),
        Route("/games", page("games.html")),
        Route("/leaderboard", page("leaderboard.html")),
        Route("/players/{account_id}", page("player.html")),
        *(Route(path, page("code.html")) for path in _CODE_PAGES),
        *(
            Route(path, handler, methods=list(methods))
            for path, handler, methods in (*ROUTES, *ACCOUNT_ROUTES)
        ),
        *device_routes(),
        WebSocketRoute("/ws/{table_id}", table_socket),
        Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={StorageUnavailableError: _unavailable},
        middleware=[
            Middleware(SecurityHeaders),
            Middleware(CheckOrigin, allowed=config.allowed_origins),
            Middleware(KeepRawSend),
        ],
    )
    app.state.settings = config
    app.state.device = device_assets(config.runtime_dir, config.release)
    app.state.limits = AddressLimits(config)
    return app


async def _unavailable(request: Request, error: Exception) -> Response:
    """A request that needed the database while it cannot be reached: 503, one line."""
    refusal = Refusal(RefusalCode.UNAVAILABLE, "the database cannot be reached; try again shortly")
    return error_response(refusal)
