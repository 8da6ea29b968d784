"""The Starlette application: lobby HTTP API, one WebSocket per table, static client.

Handlers only decode, call the :class:`~.service.TableService`, and encode.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import hashlib
import json
import math
import os
import socket
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any, Final
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from sequence_stacks.engine import EngineError, IllegalActionError, Settings
from sequence_stacks.engine.catalog import catalog
from sequence_stacks.i18n import LANGUAGES, messages_json, negotiate
from sequence_stacks.i18n.languages import from_accept_language
from sequence_stacks.i18n.rulebook import rule_book

from .config import ServerSettings
from .protocol import COMMAND_TYPES, decode, dumps, loads, refused_frame
from .service import LISTING_PAGE, TableService
from .storage import ListingCursor, Storage, StorageUnavailableError, open_storage
from .table import Refusal
from .tutorial import LESSONS, try_move, tutorial_dict
from .vocabulary import server_vocabulary

__all__ = ["STATIC_DIR", "create_app"]

STATIC_DIR: Final = Path(__file__).parent / "static"
SEND_QUEUE_LIMIT: Final = 1000
TOKEN_HEADER: Final = "x-seat-token"
_STATUS: Final = {
    "not_found": 404,
    "table_full": 409,
    "game_running": 409,
    "game_started": 409,
    "name_taken": 409,
    "too_large": 413,
    "rate_limited": 429,
    "bad_origin": 403,
    "unavailable": 503,
    "elsewhere": 503,  # another worker owns the table (docs/deploy.md, Routing)
}
# Address buckets kept at most; idle (full) buckets are dropped beyond it.
_ADDRESS_LIMIT: Final = 10_000
_SECURITY_HEADERS: Final = {"Cache-Control": "no-store"}
# Every HTTP response (pages, API, static files, errors) carries these: no inline
# script or style, nothing from another origin, no framing (docs/server.md, Security).
CONTENT_SECURITY_POLICY: Final = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "font-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
        # The browser itself refuses any string handed to the HTML parser or to eval.
        "require-trusted-types-for 'script'",
        "trusted-types 'none'",
    )
)
_ALWAYS_HEADERS: Final = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
)


def create_app(
    settings: ServerSettings | None = None, *, storage: Storage | None = None
) -> Starlette:
    """Build the web application; ``storage`` defaults to the settings' database."""
    config = settings or ServerSettings()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = storage if storage is not None else open_storage(config.database)
        service = _make_service(store, config)
        app.state.service = service
        await service.start()
        if config.freeze_heap:
            gc.collect()
            gc.freeze()
        try:
            yield
        finally:
            await service.close()
            if storage is None:
                store.close()

    routes = [
        Route("/", _page("index.html")),
        Route("/t/{table_id}", _table_page("table.html")),
        Route("/replay/{table_id}/{game:int}", _table_page("replay.html")),
        Route("/learn", _page("tutorial.html")),
        Route("/api/health", _health),
        Route("/api/catalog", _catalog),
        Route("/api/messages", _messages),
        Route("/api/languages", _languages),
        Route("/api/rules", _rules),
        Route("/api/tables", _list_tables, methods=["GET"]),
        Route("/api/tables", _create_table, methods=["POST"]),
        Route("/api/play", _play_now, methods=["POST"]),
        Route("/api/tables/{table_id}", _get_table),
        Route("/api/tables/{table_id}/seats", _sit, methods=["POST"]),
        Route("/api/tables/{table_id}/games/{game:int}", _replay),
        Route("/api/tutorial", _tutorial),
        Route("/api/tutorial/{lesson:int}", _tutorial_move, methods=["POST"]),
        WebSocketRoute("/ws/{table_id}", _socket),
        Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={StorageUnavailableError: _unavailable},
        middleware=[
            Middleware(_SecurityHeaders),
            Middleware(_CheckOrigin, allowed=config.allowed_origins),
            Middleware(_KeepRawSend),
        ],
    )
    app.state.settings = config
    app.state.limits = _AddressLimits(config)
    return app


def _make_service(store: Storage, config: ServerSettings) -> TableService:
    """The table service; on PostgreSQL one that owns its tables through advisory
    locks, so that several workers may share the database (docs/deploy.md)."""
    url = getattr(store, "url", None)
    if not isinstance(url, str) or not url.startswith(("postgresql://", "postgres://")):
        return TableService(store, config)
    from .cluster import ClusteredTableService  # noqa: PLC0415 - psycopg only when used
    from .ownership import Ownership  # noqa: PLC0415

    ownership = Ownership(url, config.worker or f"{socket.gethostname()}:{os.getpid()}")
    return ClusteredTableService(store, config, ownership)


def _page(name: str, status: int = 200) -> Callable[[Request], Awaitable[Response]]:
    """A page in the reader's language: ``<html lang>`` set before any script runs."""
    template = (STATIC_DIR / name).read_text(encoding="utf-8")
    if _HTML_LANG not in template:
        raise ValueError(f"{name} must start its <html> with {_HTML_LANG}")
    pages = {code: template.replace(_HTML_LANG, f'<html lang="{code}"', 1) for code in LANGUAGES}

    async def page(request: Request) -> Response:
        language = reader_language(request)
        headers = {**_SECURITY_HEADERS, "Content-Language": language, "Vary": _VARY}
        return HTMLResponse(pages[language], status_code=status, headers=headers)

    return page


def _table_page(name: str) -> Callable[[Request], Awaitable[Response]]:
    """A page of one table (play or replay); a link to no table gets the "no such
    table" page with a way back to the lobby, as a 404."""
    page, missing = _page(name), _page("missing.html", status=404)

    async def table_page(request: Request) -> Response:
        try:
            table_id = request.path_params["table_id"]
            exists = await asyncio.to_thread(_service(request).storage.table, table_id) is not None
        except StorageUnavailableError:
            exists = True  # the page itself will say what is wrong when it asks
        return await (page if exists else missing)(request)

    return table_page


_HTML_LANG: Final = '<html lang="en"'
_VARY: Final = "Cookie, Accept-Language"
LANGUAGE_COOKIE: Final = "lang"


def reader_language(request: Request) -> str:
    """The language a page or a catalog is for: ``?lang=``, else the language menu's
    cookie, else ``Accept-Language``, else English (unknown codes are ignored)."""
    return negotiate(
        request.query_params.get("lang"),
        request.cookies.get(LANGUAGE_COOKIE),
        from_accept_language(request.headers.get("accept-language")),
    )


def _service(request: Request | WebSocket) -> TableService:
    service: TableService = request.app.state.service
    return service


def _error(refusal: Refusal) -> JSONResponse:
    """A refusal as a JSON response with its HTTP status."""
    status = _STATUS.get(refusal.code, 400)
    body = {"code": refusal.code, "reason": refusal.reason, "rule": refusal.rule_id}
    headers = dict(_SECURITY_HEADERS)
    if refusal.retry_after is not None:
        headers["Retry-After"] = str(refusal.retry_after)
    return JSONResponse(body, status_code=status, headers=headers)


async def _unavailable(request: Request, error: Exception) -> Response:
    """A request that needed the database while it cannot be reached: 503, one line."""
    return _error(Refusal("unavailable", "the database cannot be reached; try again shortly"))


def _json(data: object, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status, headers=_SECURITY_HEADERS)


async def _body(request: Request) -> Mapping[str, Any]:
    """The request's JSON object, refused (413) past the size limit: by its declared
    ``Content-Length`` before reading anything, else as soon as the bytes read pass it."""
    limit = request.app.state.settings.max_message_bytes
    too_large = Refusal("too_large", f"a request body may be at most {limit} bytes")
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared[:12]) > limit):
        raise too_large
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise too_large
        chunks.append(chunk)
    data = loads(b"".join(chunks) or b"{}")
    if not isinstance(data, dict):
        raise Refusal("bad_request", "the request body is a JSON object")
    return data


async def _health(request: Request) -> Response:
    """Whether this process takes work (a proxy's health check), and, for a worker
    on PostgreSQL, its name and how many tables it owns; 503 while starting or
    stopping."""
    health = getattr(_service(request), "health", None)
    if health is None:
        return _json({"ok": True})
    body: dict[str, Any] = health()
    return _json(body, status=200 if body["ready"] else 503)


async def _catalog(request: Request) -> Response:
    """The engine's vocabulary (card kinds, colours, action types, event fields, rule
    ids): the same for every table of this release, so clients may cache it."""
    return _cached(request, _CATALOG)


async def _messages(request: Request) -> Response:
    """Every message template players read, in the reader's language (docs/protocol.md,
    Words)."""
    return _cached(request, _messages_of(reader_language(request)), vary=_VARY)


@functools.cache
def _messages_of(language: str) -> tuple[bytes, str]:
    return _frozen({"language": language, "messages": messages_json(language)})


async def _languages(request: Request) -> Response:
    """The languages of the language menu, each named in itself, and the reader's."""
    languages = [{"code": code, "name": name} for code, name in LANGUAGES.items()]
    return _json({"languages": languages, "current": reader_language(request)})


async def _rules(request: Request) -> Response:
    """The rule book of the in-game help in the reader's language (English while it has
    none), as blocks of text runs (``sequence_stacks.i18n.rulebook``)."""
    return _cached(request, _rules_of(reader_language(request)), vary=_VARY)


@functools.cache
def _rules_of(language: str) -> tuple[bytes, str]:
    return _frozen(rule_book(language))


def _cached(request: Request, body: tuple[bytes, str], *, vary: str | None = None) -> Response:
    content, etag = body
    headers = {"ETag": etag, "Cache-Control": "public, max-age=300"}
    if vary is not None:
        headers["Vary"] = vary
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    return Response(content, media_type="application/json", headers=headers)


def _frozen(data: object) -> tuple[bytes, str]:
    content = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()
    return content, '"' + hashlib.sha256(content).hexdigest()[:20] + '"'


_CATALOG: Final = _frozen(catalog() | server_vocabulary())


async def _list_tables(request: Request) -> Response:
    try:
        limit = _whole(request.query_params.get("limit"), "limit", 1, LISTING_PAGE)
        before_text = request.query_params.get("before")
        try:
            before = None if before_text is None else ListingCursor.parse(before_text)
        except ValueError:
            raise Refusal("bad_request", "'before' is the 'next' of a listing page") from None
    except Refusal as refusal:
        return _error(refusal)
    return _json(_service(request).public_tables(limit=limit or LISTING_PAGE, before=before))


def _whole(text: str | None, name: str, low: int, high: int) -> int | None:
    """A query parameter that is a whole number from ``low`` to ``high``, or None."""
    if text is None:
        return None
    if not (text.isascii() and text.isdigit() and len(text) <= 9 and low <= int(text) <= high):
        raise Refusal("bad_request", f"'{name}' must be a whole number from {low} to {high}")
    return int(text)


async def _create_table(request: Request) -> Response:
    try:
        _limit(request, "create")
        data = await _body(request)
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise Refusal("bad_request", "'options' is a JSON object of variant options")
        table_id = await _service(request).create_table(
            options, visibility=str(data.get("visibility", "public"))
        )
    except Refusal as refusal:
        return _error(refusal)
    return _json({"id": table_id, "url": f"/t/{table_id}"}, status=201)


async def _play_now(request: Request) -> Response:
    """``POST /api/play {name, players}``: a table with bots, the asker seated, the game
    started (#15, "Play now"); answered like a seat: its table, seat and token."""
    try:
        _limit(request, "create")
        _limit(request, "sit")
        data = await _body(request)
        name = data.get("name")
        if not isinstance(name, str):
            raise Refusal("bad_request", "a display 'name' is needed")
        players = data.get("players", Settings().player_count)
        if not isinstance(players, int) or isinstance(players, bool):
            raise Refusal("bad_request", "'players' is a whole number of seats")
        table_id, seat, token = await _service(request).play_now(name, players)
    except Refusal as refusal:
        return _error(refusal)
    body = {"id": table_id, "url": f"/t/{table_id}", "seat": seat, "token": token}
    return _json(body, status=201)


async def _get_table(request: Request) -> Response:
    try:
        return _json(await _service(request).lobby(request.path_params["table_id"]))
    except Refusal as refusal:
        return _error(refusal)


async def _sit(request: Request) -> Response:
    try:
        _limit(request, "sit")
        data = await _body(request)
        seat = data.get("seat")
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
            raise Refusal("bad_request", "'seat' must be a seat number")
        name = data.get("name")
        if not isinstance(name, str):
            raise Refusal("bad_request", "a display 'name' is needed")
        seat_index, token = await _service(request).sit(request.path_params["table_id"], name, seat)
    except Refusal as refusal:
        return _error(refusal)
    return _json({"seat": seat_index, "token": token}, status=201)


async def _replay(request: Request) -> Response:
    try:
        step = _whole(request.query_params.get("step"), "step", 0, 10**9)
        data = await _service(request).replay(
            request.path_params["table_id"],
            request.path_params["game"],
            step,
            request.headers.get(TOKEN_HEADER),
        )
    except Refusal as refusal:
        return _error(refusal)
    return _json(data)


async def _tutorial(request: Request) -> Response:
    """The tutorial's lessons (#15): words' keys, rules and the learner's view of each
    prepared position, and the learner's action table."""
    return _cached(request, _TUTORIAL)


async def _tutorial_move(request: Request) -> Response:
    """``POST /api/tutorial/{lesson} {action_id}``: the lesson's position and the move,
    applied by the engine (nothing stored): whether it was the awaited move, the events
    and the view after it; an illegal move is refused as at a table, with its detail."""
    index = request.path_params["lesson"]
    try:
        data = await _body(request)
        action_id = data.get("action_id")
        if not 0 <= index < len(LESSONS):
            raise Refusal("not_found", f"there is no lesson {index}")
        if not isinstance(action_id, int) or isinstance(action_id, bool):
            raise Refusal("bad_request", "'action_id' is the id of an action of your seat")
        tried = try_move(index, action_id)
    except Refusal as refusal:
        return _error(refusal)
    except IllegalActionError as error:
        body = {"code": "illegal", "reason": error.reason, "rule": error.rule_id}
        detail = {"key": f"illegal.{error.code.value}", "args": dict(error.params)}
        return _json(body | {"detail": detail}, status=400)
    except (IndexError, ValueError, EngineError):
        return _error(Refusal("bad_request", "'action_id' is the id of an action of your seat"))
    return _json({"expected": tried.expected, "events": tried.events, "view": tried.view})


_TUTORIAL: Final = _frozen(tutorial_dict())


class _TokenBucket:
    """A rate limit: ``rate`` takes a second on average, bursts of ``burst``."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        self._refill()
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def wait(self) -> float:
        """Seconds until the next take succeeds."""
        return max(0.0, (1 - self.tokens) / self.rate)

    def is_full(self) -> bool:
        """True when the bucket has recovered its whole burst (its owner is idle)."""
        self._refill()
        return self.tokens >= self.burst

    def _refill(self) -> None:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now


class _AddressLimits:
    """Token buckets per client address and kind of request (tables created, seats
    taken), so one client cannot fill the database or the lobby (docs/server.md)."""

    def __init__(self, settings: ServerSettings) -> None:
        self.rates = {
            "create": (settings.create_per_minute / 60, settings.create_burst),
            "sit": (settings.sit_per_minute / 60, settings.sit_burst),
        }
        self.buckets: dict[tuple[str, str], _TokenBucket] = {}

    def take(self, kind: str, address: str) -> float:
        """Take one request of ``kind``; 0.0 if allowed, else seconds to wait."""
        key = (kind, address)
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) >= _ADDRESS_LIMIT:
                self._prune()
            bucket = self.buckets[key] = _TokenBucket(*self.rates[kind])
        return 0.0 if bucket.take() else bucket.wait()

    def _prune(self) -> None:
        for key in [key for key, bucket in self.buckets.items() if bucket.is_full()]:
            del self.buckets[key]


def _limit(request: Request, kind: str) -> None:
    limits: _AddressLimits = request.app.state.limits
    address = request.client.host if request.client is not None else "unknown"
    wait = limits.take(kind, address)
    if wait:
        refusal = Refusal("rate_limited", f"too many requests; try again in {math.ceil(wait)} s")
        refusal.retry_after = math.ceil(wait)
        raise refusal


class _Connection:
    """One WebSocket: a queue of outgoing frames drained by a writer task.

    The writer takes every frame waiting in the queue at once (an action's ack and the
    update that follows it, say) and, when the socket is served by uvicorn's
    ``websockets`` protocol, frames them all and hands them to the transport in one
    write (see :class:`_DirectWriter`); otherwise it sends them one by one through
    ASGI.
    """

    def __init__(self, websocket: WebSocket, direct: _DirectWriter | None = None) -> None:
        self.websocket = websocket
        self.direct = direct
        self.seat: int | None = None
        self.token_hash: str | None = None
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.overflowed = False
        self.close_code = (1013, "too far behind; reconnect")

    def kick(self, code: int, reason: str) -> None:
        """Close the socket once the queued frames are out (the table moved away)."""
        if not self.overflowed:
            self.overflowed = True
            self.close_code = (code, reason)
            self.queue.put_nowait(None)

    def send(self, frame: Mapping[str, Any]) -> None:
        self.send_text(dumps(frame))

    def send_text(self, text: str) -> None:
        if self.overflowed:
            return
        if self.queue.qsize() >= SEND_QUEUE_LIMIT:
            self.overflowed = True  # a client this far behind is dropped; it will resync
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(text)

    async def write(self) -> None:
        queue = self.queue
        while True:
            batch = [await queue.get()]
            while not queue.empty():
                batch.append(queue.get_nowait())
            texts = [text for text in batch if text is not None]
            if texts and not (self.direct is not None and self.direct.write(texts)):
                for text in texts:
                    await self.websocket.send_text(text)
            if len(texts) < len(batch):
                await self.websocket.close(code=self.close_code[0], reason=self.close_code[1])
                return


class _DirectWriter:
    """Frames text messages with the connection's own ``websockets`` protocol object
    and writes them to the transport in one call, skipping the per-message ASGI path
    (Starlette's wrappers, uvicorn's ``send``, a transport write per frame).

    Only used when the ASGI ``send`` is a method of uvicorn's
    ``WebSocketsSansIOProtocol`` (``serve`` selects that implementation); anything
    else, and any socket that is closing or paused for flow control, takes the plain
    ASGI path. Frames are the same bytes either way (permessage-deflate included).
    """

    def __init__(self, protocol: Any) -> None:
        self.protocol = protocol

    @classmethod
    def of(cls, send: object) -> _DirectWriter | None:
        protocol = getattr(send, "__self__", None)
        if type(protocol).__name__ != "WebSocketsSansIOProtocol":
            return None
        if not all(hasattr(protocol, name) for name in _DIRECT_ATTRIBUTES):
            return None
        return cls(protocol)

    def write(self, texts: list[str]) -> bool:
        """Send ``texts`` as one write; False (nothing sent) if the ASGI path must."""
        protocol = self.protocol
        conn = protocol.conn
        if (
            protocol.close_sent
            or protocol.disconnected
            or not protocol.handshake_complete
            or not protocol.writable.is_set()
            or conn.state.name != "OPEN"
        ):
            return False
        for text in texts:
            conn.send_text(text.encode())
        protocol.transport.write(b"".join(conn.data_to_send()))
        return True


_DIRECT_ATTRIBUTES: Final = (
    "conn",
    "transport",
    "close_sent",
    "disconnected",
    "handshake_complete",
    "writable",
)
_RAW_SEND: Final = "sequence_stacks.raw_send"


class _SecurityHeaders:
    """ASGI middleware: add the security headers to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(n, v) for n, v in _ALWAYS_HEADERS if n not in names]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


_STATE_CHANGING: Final = frozenset({"POST", "PUT", "PATCH", "DELETE"})


class _CheckOrigin:
    """ASGI middleware: a request that changes state (POST, PUT, PATCH, DELETE) or
    opens a table socket must come from the server's own origin or an allowed one.

    Browsers send ``Origin`` with every such request, so a page of another site
    (a cross-origin ``text/plain`` POST, a WebSocket opened from its script) is
    refused with 403. A request with no ``Origin`` does not come from a browser's
    page (curl, the test clients, a bot script) and is let through.
    """

    def __init__(self, app: ASGIApp, allowed: tuple[str, ...] = ()) -> None:
        self.app = app
        self.allowed = frozenset(origin.rstrip("/").lower() for origin in allowed)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        checked = scope["type"] == "websocket" or (
            scope["type"] == "http" and scope["method"] in _STATE_CHANGING
        )
        if checked and not self.trusted(scope):
            if scope["type"] == "websocket":
                await receive()  # the handshake's websocket.connect
                await send({"type": "websocket.close", "code": 1008, "reason": "bad origin"})
                return
            refusal = Refusal("bad_origin", "requests from another web site are not accepted")
            await _error(refusal)(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def trusted(self, scope: Scope) -> bool:
        """True when the request has no Origin, or the server's own or an allowed one."""
        headers = dict(scope.get("headers", []))
        origin = headers.get(b"origin")
        if origin is None:
            return True
        text = origin.decode("latin-1").strip().lower()
        if text in self.allowed:
            return True
        host = headers.get(b"host", b"").decode("latin-1").strip().lower()
        parts = urlsplit(text)
        return bool(host) and parts.scheme in ("http", "https") and parts.netloc == host


class _KeepRawSend:
    """ASGI middleware: keep the server's own ``send`` of a WebSocket in its scope."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            scope[_RAW_SEND] = send
        await self.app(scope, receive, send)


async def _socket(websocket: WebSocket) -> None:
    settings: ServerSettings = websocket.app.state.settings
    service = _service(websocket)
    table_id = websocket.path_params["table_id"]
    await websocket.accept()
    connection = _Connection(websocket, _DirectWriter.of(websocket.scope.get(_RAW_SEND)))
    writer = asyncio.create_task(connection.write())
    try:
        await _read(websocket, connection, service, table_id, settings)
    except WebSocketDisconnect:
        pass
    finally:
        await service.leave(table_id, connection)
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await writer


async def _read(
    websocket: WebSocket,
    connection: _Connection,
    service: TableService,
    table_id: str,
    settings: ServerSettings,
) -> None:
    bucket = _TokenBucket(settings.rate_per_second, settings.rate_burst)
    # Turned-away messages are forgiven at the same rate: a client that floods past its
    # burst again and again within a few seconds is cut off, one that bursts now and
    # then over a long life is not.
    patience = _TokenBucket(settings.rate_per_second, settings.rate_burst)
    greeted = False
    silence = 3 * settings.heartbeat_interval
    while True:
        try:
            async with asyncio.timeout(silence):  # a timer, not a task, per message
                message = await websocket.receive()
        except TimeoutError:
            await _close(connection, 1001, "no heartbeat")
            return
        if message["type"] == "websocket.disconnect":
            return
        text = message.get("text")
        if text is None:
            raw = message.get("bytes") or b""
            text = raw.decode("utf-8", "replace")
        if len(text.encode()) > settings.max_message_bytes:
            refusal = Refusal(
                "too_large", f"messages may be at most {settings.max_message_bytes} bytes"
            )
            connection.send(refused_frame(refusal, None, -1))
            await _close(connection, 1009, "message too large")
            return
        if not bucket.take():
            if not patience.take():  # more than rate_burst turned away, net of forgiveness
                await _close(connection, 1008, "rate limit")
                return
            connection.send(
                refused_frame(Refusal("rate_limited", "too many messages; slow down"), None, -1)
            )
            continue
        greeted = await _dispatch(connection, service, table_id, text, greeted)


async def _dispatch(
    connection: _Connection, service: TableService, table_id: str, text: str, greeted: bool
) -> bool:
    message: dict[str, Any] = {}
    try:
        message = decode(text)
        kind = message["type"]
        if kind == "ping":
            connection.send({"type": "pong", "t": message.get("t")})
        elif kind == "hello":
            token = message.get("token")
            await service.hello(
                table_id,
                connection,
                token if isinstance(token, str) else None,
                message.get("last_version"),
            )
            return True
        elif not greeted:
            raise Refusal("hello_first", "send a hello message first")
        elif kind == "sync":
            await service.sync(table_id, connection, message.get("last_version"))
        elif kind in COMMAND_TYPES:
            await service.command(table_id, connection, message)
        elif kind == "chat":
            await service.chat(table_id, connection, message["phrase"])
        elif kind == "hint":
            await service.hint(table_id, connection)
    except Refusal as refusal:
        connection.send(refused_frame(refusal, message.get("id"), -1))
        if refusal.code == "elsewhere":  # another worker owns the table: retry later
            connection.kick(1013, "the table is moving between workers; try again")
    except StorageUnavailableError:
        cut_off = Refusal("unavailable", "the database cannot be reached; try again shortly")
        connection.send(refused_frame(cut_off, message.get("id"), -1))
    return greeted


async def _close(connection: _Connection, code: int, reason: str) -> None:
    # Let queued frames (such as the error saying why) go out first.
    for _ in range(50):
        if connection.queue.empty():
            break
        await asyncio.sleep(0.01)
    with contextlib.suppress(Exception):
        await connection.websocket.close(code=code, reason=reason)
