"""Signing up and in with a passkey, adding a device, recovering by e-mail, signing out."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from sequence_stacks.server.web.api import _answering, _body, _limit
from sequence_stacks.server.web.responses import json_response
from sequence_stacks.server.web.rooms import (
    device_label,
    end_session_cookie,
    rooms,
    session_cookie,
    site_of,
)

from .common import Answer, Code, Email, SignUp, link_base, mail_link, own_account, signed_answer

__all__ = [
    "link",
    "link_options",
    "recover",
    "sign_in",
    "sign_in_options",
    "sign_out",
    "sign_up",
    "sign_up_options",
]


async def _finished(request: Request, bucket: str, finish: Any, status: int) -> Response:
    """A passkey ceremony's answer checked by ``finish`` (sign-up, sign-in or a new
    device): the account, signed in on this device with a fresh session cookie."""
    _limit(request, bucket)
    body = await _body(request, Answer)
    done = await finish(
        site_of(request),
        body.credential,
        label=device_label(request),
        old_cookie=session_cookie(request),
    )
    return signed_answer({"account": own_account(done.account)}, request, done.cookie, status)


@_answering
async def sign_up_options(request: Request) -> Response:
    """The options to make a new account's passkey (the name checked first)."""
    _limit(request, "signup")
    body = await _body(request, SignUp)
    options = await rooms(request).accounts.begin_sign_up(
        site_of(request), name=body.name, avatar=body.avatar, language=body.language
    )
    return json_response({"options": options})


@_answering
async def sign_up(request: Request) -> Response:
    """The new account, signed in on this device."""
    return await _finished(request, "signup", rooms(request).accounts.finish_sign_up, 201)


@_answering
async def sign_in_options(request: Request) -> Response:
    """The options to sign in with any passkey of this site."""
    _limit(request, "signin")
    options = await rooms(request).accounts.begin_sign_in(site_of(request))
    return json_response({"options": options})


@_answering
async def sign_in(request: Request) -> Response:
    """Signed in: a new session cookie (the old one ended)."""
    return await _finished(request, "signin", rooms(request).accounts.finish_sign_in, 200)


@_answering
async def link_options(request: Request) -> Response:
    """The options to add this device's passkey to the account a code names."""
    _limit(request, "signin")
    body = await _body(request, Code)
    options = await rooms(request).accounts.begin_link(site_of(request), body.code)
    return json_response({"options": options})


@_answering
async def link(request: Request) -> Response:
    """This device's passkey added; signed in."""
    return await _finished(request, "signin", rooms(request).accounts.finish_link, 201)


@_answering
async def recover(request: Request) -> Response:
    """A link to add a device, sent to a verified address; the same answer whether
    or not any account has that address (nobody learns whose it is)."""
    _limit(request, "signin")
    body = await _body(request, Email)
    found = await rooms(request).accounts.recovery_code(body.email)
    if found is not None and found[0].email:
        account, code = found
        link = f"{link_base(request)}/link#{code}"
        await mail_link(
            request,
            account,
            found[0].email,
            link,
            message="mail.recover",
            subject="mail.recover_subject",
        )
    return json_response({"sent": True}, status=202)


@_answering
async def sign_out(request: Request) -> Response:
    """This device signed out."""
    found = await rooms(request).accounts.signed_in(session_cookie(request))
    if found is not None:
        await rooms(request).accounts.sign_out(*found)
    response = json_response({"signed_in": False})
    end_session_cookie(response, request)
    return response
