"""The accounts' JSON API (#26): signing up and in with a passkey, devices, the
profile, e-mail, notification preferences, "My games", seats claimed or moved to
another device, push subscriptions, unsubscribe links, public profiles and the
leaderboard. Handlers decode, call the accounts and notifications rooms, encode.

What a page of one account shows (its e-mail address above all) is answered only to
that account's own session; a player's public profile has a name, an avatar, ratings
and finished games, nothing else.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, Final

import msgspec
import segno
from starlette.requests import Request
from starlette.responses import Response

from sequence_stacks.server.accounts import (
    AVATARS,
    BOT_RATINGS,
    GROUPS,
    NoticeKind,
    prefs_of,
)
from sequence_stacks.server.notify import say
from sequence_stacks.server.play import Refusal, RefusalCode, TableService
from sequence_stacks.server.store import Account, PushSubscription

from .api import TOKEN_HEADER, _answering, _body, _limit
from .responses import json_response
from .rooms import (
    device_label,
    end_session_cookie,
    rooms,
    session_cookie,
    set_session_cookie,
    site_of,
)

__all__ = ["ACCOUNT_ROUTES", "own_account", "public_player"]

Handler = Callable[[Request], Awaitable[Response]]
_HISTORY: Final = 50
_LEADERS: Final = 100


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


def _qr(url: str) -> str:
    """A QR code of ``url`` as an SVG data URI (an ``<img>`` shows it)."""
    uri: str = segno.make(url, error="m").svg_data_uri(scale=5, border=2)
    return uri


def _link_base(request: Request) -> str:
    public: str = request.app.state.settings.public_url.rstrip("/")
    return public or f"{request.url.scheme}://{request.headers.get('host', 'localhost')}"


def _service(request: Request) -> TableService:
    service: TableService = request.app.state.service
    return service


async def _me(request: Request) -> Account:
    account, _ = await rooms(request).accounts.require(session_cookie(request))
    return account


def _signed(data: dict[str, Any], request: Request, cookie: str, status: int = 200) -> Response:
    response = json_response(data, status=status)
    set_session_cookie(response, request, cookie)
    return response


# --- signing up and in ------------------------------------------------------------------


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
    return _signed({"account": own_account(done.account)}, request, done.cookie, status)


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
    mailer = rooms(request).mailer
    if found is not None and mailer is not None and found[0].email:
        account, code = found
        url = f"{_link_base(request)}/link#{code}"
        language = account.language
        lines = [
            say(language, "mail.hello", name=account.name),
            say(language, "mail.recover", url=url),
        ]
        subject = say(language, "mail.recover_subject")
        await mailer.send(found[0].email, language=language, subject=subject, lines=lines)
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


# --- the account's own pages ------------------------------------------------------------


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
    account = await _me(request)
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
    account = await _me(request)
    body = await _body(request, Prefs)
    changed = await rooms(request).accounts.set_prefs(account, body.prefs)
    return json_response({"account": own_account(changed)})


@_answering
async def update_email(request: Request) -> Response:
    """An address set (a link to verify it sent) or removed."""
    account = await _me(request)
    body = await _body(request, Email)
    code = await rooms(request).accounts.set_email(account, body.email or None)
    mailer = rooms(request).mailer
    if code is not None and mailer is not None:
        url = f"{_link_base(request)}/verify#{code}"
        language = account.language
        lines = [
            say(language, "mail.hello", name=account.name),
            say(language, "mail.verify", url=url),
        ]
        subject = say(language, "mail.verify_subject")
        await mailer.send(body.email.strip(), language=language, subject=subject, lines=lines)
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
    account = await _me(request)
    code = await rooms(request).accounts.device_code(account)
    url = f"{_link_base(request)}/link#{code}"
    return json_response({"code": code, "url": url, "qr": _qr(url)}, status=201)


@_answering
async def end_session(request: Request) -> Response:
    """One of the account's devices signed out."""
    account = await _me(request)
    await rooms(request).accounts.end_session(account, request.path_params["session"])
    return json_response({"ended": True})


@_answering
async def remove_passkey(request: Request) -> Response:
    """One of the account's passkeys removed."""
    account = await _me(request)
    await rooms(request).accounts.remove_passkey(account, request.path_params["credential"])
    return json_response({"removed": True})


@_answering
async def my_games(request: Request) -> Response:
    """Every table of the account, those where it is awaited first."""
    account = await _me(request)
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


# --- seats ------------------------------------------------------------------------------


@_answering
async def seat_token(request: Request) -> Response:
    """The seat token of the account's seat at a table (for this device to play it);
    404 for a table where the account holds none."""
    account = await _me(request)
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
    if await _service(request).seat_of_token(table_id, token) is None:
        raise Refusal(RefusalCode.NOT_SEATED, "that token holds no seat at this table")
    return table_id, token


@_answering
async def claim(request: Request) -> Response:
    """A guest's seat (its token) becomes the signed-in account's."""
    account = await _me(request)
    table_id, token = await _held_token(request)
    await rooms(request).seats.link(account, table_id, token)
    return json_response({"claimed": True})


@_answering
async def move_code(request: Request) -> Response:
    """A one-time code (and link, and QR code) that moves a seat to another device."""
    table_id, token = await _held_token(request)
    code = await rooms(request).seats.move_code(table_id, token)
    url = f"{_link_base(request)}/move#{code}"
    return json_response({"code": code, "url": url, "qr": _qr(url)}, status=201)


@_answering
async def redeem_move(request: Request) -> Response:
    """The table and seat token a move code carries (used up)."""
    _limit(request, "signin")
    body = await _body(request, Code)
    table_id, token = await rooms(request).seats.redeem_move(body.code)
    return json_response({"id": table_id, "url": f"/t/{table_id}", "token": token})


# --- push and e-mail ----------------------------------------------------------------------


async def push_key(request: Request) -> Response:
    """The server's VAPID public key (null: no push messages here)."""
    pusher = rooms(request).pusher
    return json_response({"key": pusher.public_key if pusher is not None else None})


@_answering
async def subscribe(request: Request) -> Response:
    """Keep this browser's push subscription for the account."""
    account = await _me(request)
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
    account = await _me(request)
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


# --- public pages ---------------------------------------------------------------------


@_answering
async def player(request: Request) -> Response:
    """A player's public profile: name, avatar, ratings, win rate, finished games."""
    store = rooms(request).accounts.store
    account_id = request.path_params["account_id"]
    account = await asyncio.to_thread(store.account, account_id)
    if account is None:
        raise Refusal(RefusalCode.NOT_FOUND, "there is no such player")
    ratings = await asyncio.to_thread(store.ratings_of, account_id)
    results = await asyncio.to_thread(store.results_of, account_id, _HISTORY)
    games, wins = await asyncio.to_thread(store.totals_of, account_id)
    return json_response(
        {
            "player": public_player(account),
            "games": games,
            "wins": wins,
            "win_rate": wins / games if games else None,
            "ratings": [
                _rating(r.group, r.mu, r.sigma) | {"games": r.games, "wins": r.wins}
                for r in ratings
            ],
            "history": [
                {
                    "table_id": r.table_id,
                    "game": r.game,
                    "replay": f"/replay/{r.table_id}/{r.game}",
                    "place": r.place,
                    "won": r.won,
                    "players": r.players,
                    "group": r.group,
                    "rated": r.rated,
                    "with_bots": r.with_bots,
                    "finished_at": r.finished_at,
                }
                for r in results
            ],
        }
    )


def _rating(group: str, mu: float, sigma: float) -> dict[str, Any]:
    return {"group": group, "mu": mu, "sigma": sigma, "ordinal": mu - 3 * sigma}


@_answering
async def leaderboard(request: Request) -> Response:
    """A group's players best first (``mu - 3 sigma``), overall or of one language,
    with the bots at their fixed ratings, marked as bots."""
    group = request.query_params.get("group", GROUPS[1])
    if group not in GROUPS:
        raise Refusal(RefusalCode.BAD_REQUEST, f"group is one of {', '.join(GROUPS)}")
    language = request.query_params.get("lang") or None
    store = rooms(request).accounts.store
    rows = await asyncio.to_thread(store.leaderboard, group, language=language, limit=_LEADERS)
    return json_response(
        {
            "group": group,
            "groups": list(GROUPS),
            "language": language,
            "players": [
                public_player(account)
                | _rating(group, rating.mu, rating.sigma)
                | {"games": rating.games, "wins": rating.wins}
                for rating, account in rows
            ],
            "bots": [
                {"bot": name} | _rating(group, mu, sigma)
                for name, (mu, sigma) in sorted(BOT_RATINGS.items(), key=lambda b: -b[1][0])
            ],
        }
    )


ACCOUNT_ROUTES: Final[tuple[tuple[str, Handler, tuple[str, ...]], ...]] = (
    ("/api/accounts/signup/options", sign_up_options, ("POST",)),
    ("/api/accounts/signup", sign_up, ("POST",)),
    ("/api/accounts/signin/options", sign_in_options, ("POST",)),
    ("/api/accounts/signin", sign_in, ("POST",)),
    ("/api/accounts/link/options", link_options, ("POST",)),
    ("/api/accounts/link", link, ("POST",)),
    ("/api/accounts/recover", recover, ("POST",)),
    ("/api/accounts/signout", sign_out, ("POST",)),
    ("/api/email/verify", verify_email, ("POST",)),
    ("/api/me", me, ("GET",)),
    ("/api/me/profile", update_profile, ("PUT",)),
    ("/api/me/notifications", update_prefs, ("PUT",)),
    ("/api/me/email", update_email, ("PUT",)),
    ("/api/me/devices/code", device_code, ("POST",)),
    ("/api/me/sessions/{session}", end_session, ("DELETE",)),
    ("/api/me/passkeys/{credential}", remove_passkey, ("DELETE",)),
    ("/api/me/games", my_games, ("GET",)),
    ("/api/me/badge", badge, ("GET",)),
    ("/api/me/seat/{table_id}", seat_token, ("GET",)),
    ("/api/me/push", subscribe, ("POST",)),
    ("/api/me/push", unsubscribe_push, ("DELETE",)),
    ("/api/push/key", push_key, ("GET",)),
    ("/api/tables/{table_id}/claim", claim, ("POST",)),
    ("/api/tables/{table_id}/move", move_code, ("POST",)),
    ("/api/move", redeem_move, ("POST",)),
    ("/api/unsubscribe/{token}", unsubscribe, ("POST",)),
    # A mail program's one-click unsubscribe (RFC 8058) posts to the link itself.
    ("/unsubscribe/{token}", unsubscribe, ("POST",)),
    ("/api/players/{account_id}", player, ("GET",)),
    ("/api/leaderboard", leaderboard, ("GET",)),
)
