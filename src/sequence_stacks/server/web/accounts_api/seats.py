"""Seats an account holds: the token of a seat it holds, claiming a seat, moving a seat
to another device by a code."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from sequence_stacks.server.play import Refusal, RefusalCode
from sequence_stacks.server.web.api import TOKEN_HEADER, _answering, _body, _limit
from sequence_stacks.server.web.responses import json_response
from sequence_stacks.server.web.rooms import rooms

from .common import Code, link_base, qr_code, signed_in, table_service

__all__ = ["claim", "move_code", "redeem_move", "seat_token"]


@_answering
async def seat_token(request: Request) -> Response:
    """The seat token of the account's seat at a table (for this device to play it);
    404 for a table where the account holds none."""
    account = await signed_in(request)
    table_id = request.path_params["table_id"]
    token = await rooms(request).seats.token(account, table_id)
    return json_response({"token": token})


async def _held_token(request: Request) -> tuple[str, str]:
    """The table and the seat token the request carries, refused unless it holds a
    seat there now."""
    table_id = request.path_params["table_id"]
    token = request.headers.get(TOKEN_HEADER, "")
    if not token or len(token) > 100:
        raise Refusal(RefusalCode.NOT_SEATED, "send the seat's token")
    if await table_service(request).seat_of_token(table_id, token) is None:
        raise Refusal(RefusalCode.NOT_SEATED, "that token holds no seat at this table")
    return table_id, token


@_answering
async def claim(request: Request) -> Response:
    """A guest's seat (its token) becomes the signed-in account's."""
    account = await signed_in(request)
    table_id, token = await _held_token(request)
    await rooms(request).seats.link(account, table_id, token)
    return json_response({"claimed": True})


@_answering
async def move_code(request: Request) -> Response:
    """A one-time code (and link, and QR code) that moves a seat to another device."""
    table_id, token = await _held_token(request)
    code = await rooms(request).seats.move_code(table_id, token)
    url = f"{link_base(request)}/move#{code}"
    return json_response({"code": code, "url": url, "qr": qr_code(url)}, status=201)


@_answering
async def redeem_move(request: Request) -> Response:
    """The table and seat token a move code carries (used up)."""
    _limit(request, "signin")
    body = await _body(request, Code)
    table_id, token = await rooms(request).seats.redeem_move(body.code)
    return json_response({"id": table_id, "url": f"/t/{table_id}", "token": token})
