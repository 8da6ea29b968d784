"""The JSON API: the lobby (tables listed, created, seats taken, "Play now"), a
table's public facts and replays, the tutorial, and the documents clients cache (the
catalog, the messages, the languages, the rule book). Handlers decode, call the
table service, and encode; a refusal is answered with its HTTP status."""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Awaitable, Callable
from typing import Any, Final, TypeVar

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from sequence_stacks.engine import EngineError, IllegalActionError, Settings
from sequence_stacks.engine.catalog import catalog, pile_slots
from sequence_stacks.i18n import LANGUAGES, messages_json
from sequence_stacks.i18n.rulebook import player_rules, rule_book
from sequence_stacks.server.accounts import Channel, NoticeKind
from sequence_stacks.server.play import LISTING_PAGE, Refusal, RefusalCode, TableService
from sequence_stacks.server.play.commands import decode_body
from sequence_stacks.server.play.tutorial import LESSONS, try_move, tutorial_dict
from sequence_stacks.server.play.vocabulary import server_vocabulary
from sequence_stacks.server.review import RETRY_AFTER, Reviews, ReviewState
from sequence_stacks.server.store import Account, ListingCursor

from .pages import VARY, reader_language
from .responses import cached, error_response, frozen, json_response
from .rooms import rooms, session_cookie
from .transport import AddressLimits

__all__ = ["ROUTES", "TOKEN_HEADER"]

TOKEN_HEADER: Final = "x-seat-token"
Handler = Callable[[Request], Awaitable[Response]]
_Body = TypeVar("_Body", bound=msgspec.Struct)


def _answering(handler: Handler) -> Handler:
    """A handler whose refusals become their JSON answers."""

    @functools.wraps(handler)
    async def answer(request: Request) -> Response:
        try:
            return await handler(request)
        except Refusal as refusal:
            return error_response(refusal)

    return answer


def _service(request: Request) -> TableService:
    service: TableService = request.app.state.service
    return service


# --- request bodies ---------------------------------------------------------------------


class NewTable(msgspec.Struct, frozen=True):
    """``POST /api/tables``: ``turn_hours`` makes it a turn-based table (#26)."""

    options: dict[str, Any] = {}
    visibility: str = "public"
    pace: str | None = None
    turn_hours: int | None = None


class PlayNow(msgspec.Struct, frozen=True):
    """``POST /api/play``."""

    name: str
    players: int = Settings().player_count
    pace: str | None = None


class TakeSeat(msgspec.Struct, frozen=True):
    """``POST /api/tables/{id}/seats``."""

    name: str
    seat: int | None = None


class TryMove(msgspec.Struct, frozen=True):
    """``POST /api/tutorial/{lesson}``."""

    action_id: int


async def _body(request: Request, kind: type[_Body]) -> _Body:
    """The request's JSON body as ``kind``, refused (413) past the size limit: by its
    declared ``Content-Length`` before reading anything, else as soon as the bytes read
    pass it."""
    limit = request.app.state.settings.max_message_bytes
    too_large = Refusal(RefusalCode.TOO_LARGE, f"a request body may be at most {limit} bytes")
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
    body = decode_body(b"".join(chunks), kind)
    assert isinstance(body, kind)
    return body


def _limit(request: Request, kind: str) -> None:
    limits: AddressLimits = request.app.state.limits
    address = request.client.host if request.client is not None else "unknown"
    wait = limits.take(kind, address)
    if wait:
        raise Refusal(
            RefusalCode.RATE_LIMITED,
            f"too many requests; try again in {math.ceil(wait)} s",
            retry_after=math.ceil(wait),
        )


def _whole(text: str | None, name: str, low: int, high: int) -> int | None:
    """A query parameter that is a whole number from ``low`` to ``high``, or None."""
    if text is None:
        return None
    if not (text.isascii() and text.isdigit() and len(text) <= 9 and low <= int(text) <= high):
        raise Refusal(
            RefusalCode.BAD_REQUEST, f"'{name}' must be a whole number from {low} to {high}"
        )
    return int(text)


# --- the lobby --------------------------------------------------------------------------


@_answering
async def list_tables(request: Request) -> Response:
    """``GET /api/tables?limit=&before=``: one page of the public list."""
    limit = _whole(request.query_params.get("limit"), "limit", 1, LISTING_PAGE)
    before_text = request.query_params.get("before")
    try:
        before = None if before_text is None else ListingCursor.parse(before_text)
    except ValueError:
        raise Refusal(RefusalCode.BAD_REQUEST, "'before' is the 'next' of a listing page") from None
    return json_response(
        _service(request).public_tables(limit=limit or LISTING_PAGE, before=before)
    )


@_answering
async def create_table(request: Request) -> Response:
    """``POST /api/tables {options, visibility}``: a new table's id and link."""
    _limit(request, "create")
    body = await _body(request, NewTable)
    table_id = await _service(request).create_table(
        body.options, visibility=body.visibility, pace=body.pace, turn_hours=body.turn_hours
    )
    return json_response({"id": table_id, "url": f"/t/{table_id}"}, status=201)


@_answering
async def play_now(request: Request) -> Response:
    """``POST /api/play {name, players}``: a table with bots, the asker seated, the game
    started (#15, "Play now"); answered like a seat: its table, seat and token."""
    _limit(request, "create")
    _limit(request, "sit")
    body = await _body(request, PlayNow)
    account = await _account(request)
    name = account.name if account is not None else body.name
    table_id, seat, token = await _service(request).play_now(name, body.players, pace=body.pace)
    if account is not None:
        await rooms(request).seats.link(account, table_id, token)
    answer = {"id": table_id, "url": f"/t/{table_id}", "seat": seat, "token": token}
    return json_response(answer, status=201)


@_answering
async def get_table(request: Request) -> Response:
    """``GET /api/tables/{id}``: a table's public facts."""
    return json_response(await _service(request).lobby(request.path_params["table_id"]))


@_answering
async def sit(request: Request) -> Response:
    """``POST /api/tables/{id}/seats {name, seat?}``: the seat taken and its secret token."""
    _limit(request, "sit")
    body = await _body(request, TakeSeat)
    table_id = request.path_params["table_id"]
    account = await _account(request)
    if account is None:
        seat, token = await _service(request).sit(table_id, body.name, body.seat)
        return json_response({"seat": seat, "token": token}, status=201)
    # A signed-in player sits as their account: its name, its standing Block answer,
    # and the seat is theirs on every device (#26); one seat a table.
    await _not_seated_yet(request, account, table_id)
    seat, token = await _service(request).sit(
        table_id, account.name, body.seat, never_block=account.never_block
    )
    await rooms(request).seats.link(account, table_id, token)
    return json_response({"seat": seat, "token": token}, status=201)


async def _account(request: Request) -> Account | None:
    """The signed-in account of the request, if any."""
    found = await rooms(request).accounts.signed_in(session_cookie(request))
    return None if found is None else found[0]


async def _not_seated_yet(request: Request, account: Account, table_id: str) -> None:
    """Refused when the account holds a seat at this table already."""
    try:
        token = await rooms(request).seats.token(account, table_id)
    except Refusal:
        return
    if await _service(request).seat_of_token(table_id, token) is not None:
        raise Refusal(
            RefusalCode.NAME_TAKEN,
            "you already have a seat at this table",
            detail={"key": "account.seated_already", "args": {}},
        )


@_answering
async def replay(request: Request) -> Response:
    """``GET /api/tables/{id}/games/{game}?step=``: one step of a game."""
    step = _whole(request.query_params.get("step"), "step", 0, 10**9)
    data = await _service(request).replay(
        request.path_params["table_id"],
        request.path_params["game"],
        step,
        request.headers.get(TOKEN_HEADER),
    )
    return json_response(data)


@_answering
async def review(request: Request) -> Response:
    """``GET /api/tables/{id}/games/{game}/review`` (#27): the game's review for whoever
    asks: a seat's own review to the holder of that seat's token now, the spectators'
    to anyone else; 202 while it is computed (ask again after ``retry_after`` s)."""
    table_id, game = request.path_params["table_id"], request.path_params["game"]
    seat = await _service(request).review_viewer(table_id, game, request.headers.get(TOKEN_HEADER))
    reviews: Reviews | None = getattr(request.app.state, "reviews", None)
    if reviews is None:
        raise Refusal(RefusalCode.NOT_FOUND, "this server makes no reviews")
    answer = await reviews.answer(table_id, game, seat)
    if answer.state == ReviewState.COMPUTING:
        return json_response({"state": answer.state, "retry_after": RETRY_AFTER}, status=202)
    if answer.review is None:
        raise Refusal(RefusalCode.NOT_FOUND, "this game has no review")
    data = json.loads(answer.review)
    slots = pile_slots(int(data["piles_per_colour"]))
    return json_response(
        {"state": answer.state, "viewer": answer.viewer, "slots": slots, "review": data}
    )


@_answering
async def health(request: Request) -> Response:
    """Whether this process takes work (a proxy's health check), and, for a worker
    on PostgreSQL, its name and how many tables it owns; 503 while starting or
    stopping."""
    body = _service(request).health()
    return json_response(body, status=200 if body["ready"] else 503)


# --- the tutorial -----------------------------------------------------------------------

_TUTORIAL: Final = frozen(tutorial_dict())


async def tutorial(request: Request) -> Response:
    """The tutorial's lessons (#15): words' keys, rules and the learner's view of each
    prepared position, and the learner's action table."""
    return cached(request, _TUTORIAL)


@_answering
async def tutorial_move(request: Request) -> Response:
    """``POST /api/tutorial/{lesson} {action_id}``: the lesson's position and the move,
    applied by the engine (nothing stored): whether it was the awaited move, the events
    and the view after it, and after another move why the awaited one (``why``,
    ``{key, args}``, or null); an illegal move is refused as at a table, with its detail."""
    index = request.path_params["lesson"]
    body = await _body(request, TryMove)
    if not 0 <= index < len(LESSONS):
        raise Refusal(RefusalCode.NOT_FOUND, f"there is no lesson {index}")
    try:
        tried = try_move(index, body.action_id)
    except IllegalActionError as error:
        detail = {"key": f"illegal.{error.code.value}", "args": dict(error.params)}
        raise Refusal(RefusalCode.ILLEGAL, error.reason, error.rule_id, detail=detail) from None
    except (IndexError, ValueError, EngineError):
        raise Refusal(
            RefusalCode.BAD_REQUEST, "'action_id' is the id of an action of your seat"
        ) from None
    return json_response(
        {"expected": tried.expected, "events": tried.events, "view": tried.view, "why": tried.why}
    )


# --- documents clients cache ------------------------------------------------------------

_CATALOG: Final = frozen(
    catalog()
    | server_vocabulary()
    | {
        "notice_kinds": [kind.value for kind in NoticeKind],
        "notice_channels": [channel.value for channel in Channel],
    }
)


async def catalog_document(request: Request) -> Response:
    """The engine's vocabulary (card kinds, colours, action types, event fields, rule
    ids): the same for every table of this release, so clients may cache it."""
    return cached(request, _CATALOG)


async def messages(request: Request) -> Response:
    """Every message template players read, in the reader's language (docs/protocol.md,
    Words)."""
    return cached(request, _messages_of(reader_language(request)), vary=VARY)


@functools.cache
def _messages_of(language: str) -> tuple[bytes, str]:
    return frozen({"language": language, "messages": messages_json(language)})


async def languages(request: Request) -> Response:
    """The languages of the language menu, each named in itself, and the reader's."""
    known = [{"code": code, "name": name} for code, name in LANGUAGES.items()]
    return json_response({"languages": known, "current": reader_language(request)})


async def rules(request: Request) -> Response:
    """The rule book of the in-game help in the reader's language (English while it has
    none), as blocks of text runs (``sequence_stacks.i18n.rulebook``)."""
    return cached(request, _rules_of(reader_language(request)), vary=VARY)


@functools.cache
def _rules_of(language: str) -> tuple[bytes, str]:
    return frozen(rule_book(language))


async def rules_for_players(request: Request) -> Response:
    """The rules for players (#24) in the reader's language: the game in plain words, the
    full rules behind the help's one-screen summary (no rule ids, no option names)."""
    return cached(request, _player_rules_of(reader_language(request)), vary=VARY)


@functools.cache
def _player_rules_of(language: str) -> tuple[bytes, str]:
    return frozen(player_rules(language))


# Each route: its path, its handler and the methods it answers.
ROUTES: Final[tuple[tuple[str, Handler, tuple[str, ...]], ...]] = (
    ("/api/health", health, ("GET",)),
    ("/api/catalog", catalog_document, ("GET",)),
    ("/api/messages", messages, ("GET",)),
    ("/api/languages", languages, ("GET",)),
    ("/api/rules", rules, ("GET",)),
    ("/api/rules/players", rules_for_players, ("GET",)),
    ("/api/tables", list_tables, ("GET",)),
    ("/api/tables", create_table, ("POST",)),
    ("/api/play", play_now, ("POST",)),
    ("/api/tables/{table_id}", get_table, ("GET",)),
    ("/api/tables/{table_id}/seats", sit, ("POST",)),
    ("/api/tables/{table_id}/games/{game:int}", replay, ("GET",)),
    ("/api/tables/{table_id}/games/{game:int}/review", review, ("GET",)),
    ("/api/tutorial", tutorial, ("GET",)),
    ("/api/tutorial/{lesson:int}", tutorial_move, ("POST",)),
)
