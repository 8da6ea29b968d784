"""What the web room is given besides the table service: the accounts and
notifications rooms, made at the composition root (``app.state.rooms``), and the
session cookie it reads and writes for them."""

from __future__ import annotations

import dataclasses
import re
from typing import Final

from starlette.requests import HTTPConnection, Request
from starlette.responses import Response

from sequence_stacks.server.accounts import Accounts, GameRecorder, SeatBook, Site
from sequence_stacks.server.config import ServerSettings
from sequence_stacks.server.notify import Mailer, Notifier, Pusher

__all__ = [
    "SESSION_COOKIE",
    "Rooms",
    "device_label",
    "end_session_cookie",
    "rooms",
    "session_cookie",
    "set_session_cookie",
    "site_of",
]

SESSION_COOKIE: Final = "session"
_SESSION_SECONDS: Final = 180 * 86400


@dataclasses.dataclass(frozen=True, slots=True)
class Rooms:
    """The accounts and notifications of this server."""

    accounts: Accounts
    seats: SeatBook
    notifier: Notifier
    recorder: GameRecorder
    mailer: Mailer | None
    pusher: Pusher | None


def rooms(connection: HTTPConnection) -> Rooms:
    """The rooms the composition root made for this application."""
    found: Rooms = connection.app.state.rooms
    return found


def _settings(connection: HTTPConnection) -> ServerSettings:
    found: ServerSettings = connection.app.state.settings
    return found


def site_of(request: Request) -> Site:
    """The site passkeys are made for: the public URL's host, else the request's."""
    public = _settings(request).public_url.rstrip("/")
    if public:
        host = public.split("://", 1)[1]
        return Site(host.split(":")[0], (public,))
    host = request.headers.get("host", "localhost")
    return Site(host.split(":")[0], (f"{request.url.scheme}://{host}",))


def _secure(request: Request) -> bool:
    public = _settings(request).public_url
    return public.startswith("https://") or request.url.scheme == "https"


def session_cookie(connection: HTTPConnection) -> str | None:
    """The session cookie's value, if the request has one."""
    return connection.cookies.get(SESSION_COOKIE)


def set_session_cookie(response: Response, request: Request, value: str) -> None:
    """A new session: HttpOnly (no script reads it), SameSite=Lax (no other site's
    request carries it, but a link from an e-mail does), Secure over HTTPS."""
    response.set_cookie(
        SESSION_COOKIE,
        value,
        max_age=_SESSION_SECONDS,
        path="/",
        httponly=True,
        samesite="lax",
        secure=_secure(request),
    )


def end_session_cookie(response: Response, request: Request) -> None:
    """Forget the session cookie."""
    response.delete_cookie(
        SESSION_COOKIE, path="/", httponly=True, samesite="lax", secure=_secure(request)
    )


_BROWSERS: Final = (
    ("Edg/", "Edge"),
    ("OPR/", "Opera"),
    ("Firefox/", "Firefox"),
    ("Chrome/", "Chrome"),
    ("Safari/", "Safari"),
)
_SYSTEMS: Final = (
    ("Android", "Android"),
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("Windows", "Windows"),
    ("Mac OS", "macOS"),
    ("CrOS", "ChromeOS"),
    ("Linux", "Linux"),
)


def device_label(request: Request) -> str:
    """A device as its owner knows it: "Chrome · Android" (product names only)."""
    agent = request.headers.get("user-agent", "")[:400]
    browser = next((name for mark, name in _BROWSERS if mark in agent), "")
    system = next((name for mark, name in _SYSTEMS if mark in agent), "")
    label = " · ".join(part for part in (browser, system) if part)
    return re.sub(r"[^\w ·.-]", "", label) or "?"
