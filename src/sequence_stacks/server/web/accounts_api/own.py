"""The account's own pages: its profile, preferences, e-mail, devices, passkeys, games
and the badge of games waiting for it (answered to its own session only)."""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import Response

from sequence_stacks.server.accounts import AVATARS
from sequence_stacks.server.web.api import _answering, _body, _limit
from sequence_stacks.server.web.responses import json_response
from sequence_stacks.server.web.rooms import rooms, session_cookie

from .common import (
    Code,
    Email,
    Prefs,
    Profile,
    link_base,
    mail_link,
    own_account,
    public_player,
    qr_code,
    signed_in,
)

__all__ = [
    "badge",
    "device_code",
    "end_session",
    "me",
    "my_games",
    "remove_passkey",
    "update_email",
    "update_prefs",
    "update_profile",
    "verify_email",
]


@_answering
async def me(request: Request) -> Response:
    """The account, its devices and passkeys (its own session only)."""
    account, session = await rooms(request).accounts.require(session_cookie(request))
    devices = await rooms(request).accounts.devices(account)
    pusher = rooms(request).pusher
    return json_response(
        {
            "account": own_account(account),
            "sessions": [
                {
                    "id": row.session_hash,
                    "label": row.label,
                    "created_at": row.created_at,
                    "seen_at": row.seen_at,
                    "this": row.session_hash == session.session_hash,
                }
                for row in devices.sessions
            ],
            "passkeys": [
                {"id": key.credential_id, "label": key.label, "created_at": key.created_at}
                for key in devices.passkeys
            ],
            "avatars": list(AVATARS),
            "push_key": pusher.public_key if pusher is not None else None,
            "email_sending": rooms(request).mailer is not None,
        }
    )


@_answering
async def update_profile(request: Request) -> Response:
    """The profile changed."""
    account = await signed_in(request)
    body = await _body(request, Profile)
    changed = await rooms(request).accounts.update_profile(
        account,
        name=body.name,
        avatar=body.avatar,
        language=body.language,
        never_block=body.never_block,
    )
    return json_response({"account": own_account(changed)})


@_answering
async def update_prefs(request: Request) -> Response:
    """Notices turned on or off."""
    account = await signed_in(request)
    body = await _body(request, Prefs)
    changed = await rooms(request).accounts.set_prefs(account, body.prefs)
    return json_response({"account": own_account(changed)})


@_answering
async def update_email(request: Request) -> Response:
    """An address set (a link to verify it sent) or removed."""
    account = await signed_in(request)
    body = await _body(request, Email)
    code = await rooms(request).accounts.set_email(account, body.email or None)
    if code is not None:
        link = f"{link_base(request)}/verify#{code}"
        await mail_link(
            request,
            account,
            body.email.strip(),
            link,
            message="mail.verify",
            subject="mail.verify_subject",
        )
    changed = await rooms(request).accounts.account(account.account_id)
    return json_response({"account": own_account(changed), "sent": code is not None})


@_answering
async def verify_email(request: Request) -> Response:
    """The address a code was sent to, verified (no sign-in needed)."""
    _limit(request, "signin")
    body = await _body(request, Code)
    await rooms(request).accounts.verify_email(body.code)
    return json_response({"verified": True})


@_answering
async def device_code(request: Request) -> Response:
    """A one-time code (and its link and QR code) to add another device."""
    account = await signed_in(request)
    code = await rooms(request).accounts.device_code(account)
    url = f"{link_base(request)}/link#{code}"
    return json_response({"code": code, "url": url, "qr": qr_code(url)}, status=201)


@_answering
async def end_session(request: Request) -> Response:
    """One of the account's devices signed out."""
    account = await signed_in(request)
    await rooms(request).accounts.end_session(account, request.path_params["session"])
    return json_response({"ended": True})


@_answering
async def remove_passkey(request: Request) -> Response:
    """One of the account's passkeys removed."""
    account = await signed_in(request)
    await rooms(request).accounts.remove_passkey(account, request.path_params["credential"])
    return json_response({"removed": True})


@_answering
async def my_games(request: Request) -> Response:
    """Every table of the account, those where it is awaited first."""
    account = await signed_in(request)
    return json_response({"games": await rooms(request).seats.my_games(account)})


@_answering
async def badge(request: Request) -> Response:
    """How many games wait for the reader (0 when signed out); with ``?table=``, also
    whether the reader's account holds a seat at that table (so a page asks for the
    seat's token only when there is one)."""
    found = await rooms(request).accounts.signed_in(session_cookie(request))
    if found is None:
        return json_response({"signed_in": False, "my_turn": 0})
    account = found[0]
    store = rooms(request).accounts.store
    count = await asyncio.to_thread(store.my_turn_count, account.account_id)
    answer = {"signed_in": True, "my_turn": count, "player": public_player(account)}
    table_id = request.query_params.get("table")
    if table_id is not None:
        links = await asyncio.to_thread(store.seats_of, account.account_id)
        answer["seated_here"] = any(link.table_id == table_id for link in links)
    return json_response(answer)
