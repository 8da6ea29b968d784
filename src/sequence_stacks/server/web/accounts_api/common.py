"""The accounts API's request bodies, what pages are told of an account, and the
small steps every handler takes (the signed-in account, a session cookie set)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import msgspec
import segno
from starlette.requests import Request
from starlette.responses import Response

from sequence_stacks.server.accounts import AVATARS, prefs_of
from sequence_stacks.server.notify import say
from sequence_stacks.server.play import TableService
from sequence_stacks.server.store import Account
from sequence_stacks.server.web.responses import json_response
from sequence_stacks.server.web.rooms import rooms, session_cookie, set_session_cookie

__all__ = [
    "Answer",
    "Code",
    "Email",
    "Endpoint",
    "Handler",
    "Keys",
    "Prefs",
    "Profile",
    "SignUp",
    "Subscription",
    "link_base",
    "mail_link",
    "own_account",
    "public_player",
    "qr_code",
    "signed_answer",
    "signed_in",
    "table_service",
]


Handler = Callable[[Request], Awaitable[Response]]


# --- request bodies -------------------------------------------------------------------


class SignUp(msgspec.Struct, frozen=True):
    """``POST /api/accounts/signup/options``."""

    name: str
    avatar: str = AVATARS[0]
    language: str = "en"


class Answer(msgspec.Struct, frozen=True):
    """A passkey's answer (``PublicKeyCredential.toJSON()``)."""

    credential: dict[str, Any]


class Code(msgspec.Struct, frozen=True):
    """A one-time code, typed or from a link."""

    code: str


class Email(msgspec.Struct, frozen=True):
    """An e-mail address (empty: remove it)."""

    email: str = ""


class Profile(msgspec.Struct, frozen=True):
    """``PUT /api/me/profile``."""

    name: str
    avatar: str
    language: str
    never_block: bool = False


class Prefs(msgspec.Struct, frozen=True):
    """``PUT /api/me/notifications``: per kind, per channel, on or off."""

    prefs: dict[str, dict[str, bool]]


class Keys(msgspec.Struct, frozen=True):
    """A push subscription's keys."""

    p256dh: str
    auth: str


class Subscription(msgspec.Struct, frozen=True):
    """``POST /api/me/push``: a browser's push subscription."""

    endpoint: str
    keys: Keys


class Endpoint(msgspec.Struct, frozen=True):
    """``DELETE /api/me/push``."""

    endpoint: str


# --- what pages are told ----------------------------------------------------------------


def public_player(account: Account) -> dict[str, Any]:
    """What anyone may know of a player: id, name, avatar."""
    return {"id": account.account_id, "name": account.name, "avatar": account.avatar}


def own_account(account: Account) -> dict[str, Any]:
    """What the account's own pages show (to its own session only)."""
    return public_player(account) | {
        "language": account.language,
        "never_block": account.never_block,
        "email": account.email,
        "email_verified": account.email_verified,
        "prefs": prefs_of(account),
    }


def qr_code(url: str) -> str:
    """A QR code of ``url`` as an SVG data URI (an ``<img>`` shows it)."""
    uri: str = segno.make(url, error="m").svg_data_uri(scale=5, border=2)
    return uri


def link_base(request: Request) -> str:
    public: str = request.app.state.settings.public_url.rstrip("/")
    return public or f"{request.url.scheme}://{request.headers.get('host', 'localhost')}"


def table_service(request: Request) -> TableService:
    service: TableService = request.app.state.service
    return service


async def signed_in(request: Request) -> Account:
    account, _ = await rooms(request).accounts.require(session_cookie(request))
    return account


async def mail_link(
    request: Request, account: Account, address: str, link: str, *, message: str, subject: str
) -> None:
    """E-mail ``link`` to ``address`` in the account's language: a greeting, then the
    message ``message`` (with the link) under the message ``subject``; nothing is sent
    without a mailer."""
    mailer = rooms(request).mailer
    if mailer is None:
        return
    language = account.language
    lines = [say(language, "mail.hello", name=account.name), say(language, message, url=link)]
    title = say(language, subject)
    await mailer.send(address, language=language, subject=title, lines=lines)


def signed_answer(
    data: dict[str, Any], request: Request, cookie: str, status: int = 200
) -> Response:
    response = json_response(data, status=status)
    set_session_cookie(response, request, cookie)
    return response
