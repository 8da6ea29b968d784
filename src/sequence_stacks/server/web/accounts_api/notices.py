"""Push subscriptions and unsubscribe links."""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import Response

from sequence_stacks.server.accounts import NoticeKind, prefs_of
from sequence_stacks.server.play import Refusal, RefusalCode
from sequence_stacks.server.store import PushSubscription
from sequence_stacks.server.web.api import _answering, _body
from sequence_stacks.server.web.responses import json_response
from sequence_stacks.server.web.rooms import rooms

from .common import Endpoint, Subscription, signed_in

__all__ = ["push_key", "subscribe", "unsubscribe", "unsubscribe_push"]


async def push_key(request: Request) -> Response:
    """The server's VAPID public key (null: no push messages here)."""
    pusher = rooms(request).pusher
    return json_response({"key": pusher.public_key if pusher is not None else None})


@_answering
async def subscribe(request: Request) -> Response:
    """Keep this browser's push subscription for the account."""
    account = await signed_in(request)
    body = await _body(request, Subscription)
    if not body.endpoint.startswith("https://") and not _local(body.endpoint):
        raise Refusal(RefusalCode.BAD_REQUEST, "a push endpoint is an https:// URL")
    keys = {"p256dh": body.keys.p256dh, "auth": body.keys.auth}
    subscription = PushSubscription(body.endpoint, account.account_id, keys)
    await asyncio.to_thread(rooms(request).accounts.store.add_push, subscription)
    return json_response({"subscribed": True}, status=201)


def _local(endpoint: str) -> bool:
    """A push service on this machine (tests)."""
    return endpoint.startswith(("http://127.0.0.1:", "http://localhost:"))


@_answering
async def unsubscribe_push(request: Request) -> Response:
    """Forget this browser's push subscription."""
    account = await signed_in(request)
    body = await _body(request, Endpoint)
    await asyncio.to_thread(
        rooms(request).accounts.store.remove_push, body.endpoint, account.account_id
    )
    return json_response({"subscribed": False})


@_answering
async def unsubscribe(request: Request) -> Response:
    """Stop e-mails of one kind (``?kind=``) or all, by an e-mail's link alone."""
    kind = request.query_params.get("kind")
    if kind is not None and kind not in set(NoticeKind) and kind != "all":
        raise Refusal(RefusalCode.BAD_REQUEST, "kind is turn, window, over or all")
    account = await rooms(request).accounts.unsubscribe(request.path_params["token"], kind)
    return json_response({"prefs": prefs_of(account), "language": account.language})
