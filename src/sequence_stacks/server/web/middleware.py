"""ASGI middleware: the security headers of every response, the origin check of
every request that changes state, and the server's own ``send`` kept for sockets."""

from __future__ import annotations

from typing import Final
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from sequence_stacks.server.play import Refusal, RefusalCode

from .responses import error_response
from .transport import RAW_SEND

__all__ = [
    "CONTENT_SECURITY_POLICY",
    "SITE_DIRECTIVES",
    "CheckOrigin",
    "KeepRawSend",
    "SecurityHeaders",
]

# What every page's policy holds: no inline script or style, nothing from another
# origin, no framing; the browser itself refuses any string handed to the HTML parser
# or to eval (Trusted Types: each policy names the one Trusted Types policy it allows).
SITE_DIRECTIVES: Final = (
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
    "require-trusted-types-for 'script'",
)
# Every HTTP response (pages, API, static files, errors) carries this one (docs/server.md,
# Security): its one Trusted Types policy makes nothing but the service worker's own URL
# (#26).
CONTENT_SECURITY_POLICY: Final = "; ".join((*SITE_DIRECTIVES, "trusted-types service-worker"))
_ALWAYS_HEADERS: Final = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
)
_STATE_CHANGING: Final = frozenset({"POST", "PUT", "PATCH", "DELETE"})


class SecurityHeaders:
    """Add the security headers to every HTTP response (a response that sets one of
    them itself, such as a page with its own policy, keeps its own)."""

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


class CheckOrigin:
    """A request that changes state (POST, PUT, PATCH, DELETE) or opens a table socket
    must come from the server's own origin or an allowed one.

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
            refusal = Refusal(
                RefusalCode.BAD_ORIGIN, "requests from another web site are not accepted"
            )
            await error_response(refusal)(scope, receive, send)
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


class KeepRawSend:
    """Keep the server's own ``send`` of a WebSocket in its scope (for
    :class:`~.transport.DirectWriter`)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            scope[RAW_SEND] = send
        await self.app(scope, receive, send)
