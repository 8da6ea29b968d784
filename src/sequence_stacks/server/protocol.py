"""The wire format: decoding client messages and rendering per-viewer frames.

Every frame a client receives is rendered here for one viewer (a seat, or None for a
spectator) from engine views and redacted events, so nothing a viewer may not see can
reach it (R34-R36). See docs/protocol.md.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import json
import math
from collections.abc import Mapping, Sequence
from typing import Any, Final, assert_never

from sequence_stacks.engine import (
    Event,
    GameRecord,
    Replay,
    Settings,
    View,
    action_space,
    event_for,
    observe,
)
from sequence_stacks.engine.catalog import (
    action_fields,
    event_fields,
    pile_slots,
    seat_action_fields,
)
from sequence_stacks.i18n import event_message

from .entries import Op, SeatKind
from .hints import offers_hints
from .scheduler import Timer
from .table import ANSWERS, CATCH_UP_LIMIT, LOG_LIMIT, Entry, Refusal, Table, Tally, standings

__all__ = [
    "CHAT_PHRASES",
    "CLIENT_TYPES",
    "COMMAND_TYPES",
    "ack_frame",
    "chat_frame",
    "decode",
    "dumps",
    "entry_dict",
    "event_dict",
    "hint_frame",
    "loads",
    "lobby_dict",
    "presence_frame",
    "refused_frame",
    "replay_frame",
    "sync_frame",
    "timer_dict",
    "update_frame",
    "view_dict",
]

# Messages that change a table: they carry a client id and the version the client saw.
COMMAND_TYPES: Final = frozenset({"act", "add_bot", "remove_bot", "start", "leave"})
CLIENT_TYPES: Final = COMMAND_TYPES | {"hello", "ping", "sync", "chat", "hint"}
# Quick chat (#15): a fixed set of phrases and emotes, each worded by every reader's
# client in their own language (messages chat.<phrase>); no free text, so nothing to
# moderate at a game for ages 7 and up.
CHAT_PHRASES: Final = (
    "hello",
    "good_luck",
    "nice",
    "well_played",
    "oops",
    "thinking",
    "thanks",
    "good_game",
    "happy",
    "surprised",
    "sad",
)
CLIENT_ID_LIMIT: Final = 64


def loads(text: str | bytes) -> Any:
    """Parse client JSON strictly: no NaN or Infinity (not JSON), no number that
    overflows a float, no integer too long to read; raise Refusal ("bad_json")."""
    try:
        return json.loads(text, parse_constant=_no_constant, parse_float=_finite_float)
    except (ValueError, RecursionError):  # JSONDecodeError, bad UTF-8, 4,300+ digits
        raise Refusal("bad_json", "the message is not valid JSON") from None


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not JSON")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is out of range")
    return value


def decode(text: str) -> dict[str, Any]:
    """Parse one client message; raise Refusal ("bad_json", "unknown_type", "bad_request")."""
    message = loads(text)
    if not isinstance(message, dict):
        raise Refusal("bad_request", "a message is a JSON object with a 'type'")
    kind = message.get("type")
    if not isinstance(kind, str) or kind not in CLIENT_TYPES:
        shown = kind if isinstance(kind, str | None) else type(kind).__name__
        raise Refusal("unknown_type", f"unknown message type {shown!r}"[:120])
    if kind in COMMAND_TYPES:
        client_id = message.get("id")
        if not isinstance(client_id, str) or not 0 < len(client_id) <= CLIENT_ID_LIMIT:
            raise Refusal("bad_request", f"a {kind} message needs an 'id' string (1-64 chars)")
        if not _is_int(message.get("version")):
            raise Refusal("bad_request", f"a {kind} message needs the 'version' it expects")
    for key in ("seat", "last_version"):
        if message.get(key) is not None and not _is_int(message[key]):
            raise Refusal("bad_request", f"'{key}' must be a whole number")
    if kind == "chat" and message.get("phrase") not in CHAT_PHRASES:
        raise Refusal("bad_request", "a chat message's 'phrase' is one of the quick-chat phrases")
    stamp = message.get("t")
    if kind == "ping" and not (stamp is None or _is_number(stamp) or _is_short_text(stamp)):
        raise Refusal("bad_request", "a ping's 't' is a number or a short text, echoed back")
    return message


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _is_short_text(value: object) -> bool:
    return isinstance(value, str) and len(value) <= CLIENT_ID_LIMIT


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def refused_frame(refusal: Refusal, client_id: object, version: int) -> dict[str, Any]:
    """The frame telling the acting client why its request changed nothing (R37)."""
    return {
        "type": "refused" if refusal.code not in _ERROR_CODES else "error",
        "id": client_id if isinstance(client_id, str) else None,
        "code": refusal.code,
        "rule": refusal.rule_id,
        "reason": refusal.reason,
        "detail": None if refusal.detail is None else dict(refusal.detail),
        "version": version,
    }


_ERROR_CODES: Final = frozenset(
    {"bad_json", "unknown_type", "too_large", "rate_limited", "hello_first", "not_found"}
)


def lobby_dict(table: Table, connected: Sequence[bool]) -> dict[str, Any]:
    """The table's public facts: seats, status, settings and the last result."""
    state = table.state
    result = state.result if state is not None else None
    return {
        "id": table.table_id,
        "visibility": table.visibility,
        "status": table.status,
        "game": table.game_no,
        "settings": table.settings_dict,
        "seats": [
            {"seat": index, **seat.public(), "connected": connected[index]}
            for index, seat in enumerate(table.seats)
        ],
        "result": None if result is None else result.to_dict(),
        "standings": table.standings(),
    }


_VIEW_FIELDS: Final = tuple(field.name for field in dataclasses.fields(View))


def view_dict(table: Table, viewer: int | None) -> dict[str, Any] | None:
    """The viewer's view of the current game (a spectator has no hand), or None.

    Encodes to the same JSON as ``observe(state, viewer).to_dict()`` (a test keeps
    them equal), built faster: the field names and the settings dict are computed
    once, and the view's tuples are left as they are (JSON arrays either way).
    """
    if table.state is None:
        return None
    view = observe(table.state, viewer)
    data = {name: getattr(view, name) for name in _VIEW_FIELDS}
    data["settings"] = table.settings_dict
    data["phase"] = view.phase.key
    result = view.result
    if result is not None:
        data["result"] = result.to_dict()
    return data


def action_table(table: Table, viewer: int | None) -> list[str] | None:
    """Notation of every action id for the viewer's seat (what a script may send)."""
    if viewer is None:
        return None
    settings = table.settings
    space = action_space(settings.player_count, settings.piles_per_colour)
    return [action.notation() for action in space.actions_of(viewer)]


def action_field_table(table: Table, viewer: int | None) -> list[dict[str, Any]] | None:
    """Every action id of the viewer's seat as fields (type, kind, source, pile, victim,
    colour): what a client draws legal actions from, without parsing notation."""
    if viewer is None:
        return None
    settings = table.settings
    return seat_action_fields(settings.player_count, settings.piles_per_colour, viewer)


def entry_dict(
    entry: Entry,
    viewer: int | None,
    *,
    piles_per_colour: int,
    timed_out: bool = False,
    full: bool = False,
) -> dict[str, Any]:
    """One entry as ``viewer`` may see it: events redacted, Block answers hidden (R29).

    ``message`` is the entry's own log line as data (a seat taken, a game begun, a move
    made for a player whose time ran out: ``timed_out``); each event carries its own.
    ``full`` skips the redaction: only for replays of finished games.
    """
    action = entry.action
    notation: str | None = None
    fields: dict[str, Any] | None = None
    if action is not None:
        hidden = action.type in ANSWERS and entry.seat != viewer and not full
        notation = "answer" if hidden else action.notation()
        fields = None if hidden else action_fields(action, piles_per_colour)
    events = [
        event_dict(event if full else event_for(event, viewer), piles_per_colour)
        for event in entry.events
    ]
    return {
        "version": entry.version,
        "op": entry.op.value,
        "seat": entry.seat,
        "game": entry.game,
        "action": notation,
        "action_fields": fields,
        "auto": entry.auto,
        "timed_out": timed_out,
        "message": _entry_message(entry, timed_out=timed_out),
        "events": events,
    }


@functools.lru_cache(maxsize=1024)
def event_dict(event: Event, piles_per_colour: int) -> dict[str, Any]:
    """An event (already redacted for its viewer) as fields, its pile as a slot, and its
    log line as data: ``message`` is ``{key, args}`` (None for an event with no line).

    Made once per event and shared by every frame that carries it (most events read
    the same for every viewer): the dict is never to be changed.
    """
    data = event_fields(event, piles_per_colour)
    found = event_message(event)
    data["message"] = None if found is None else _message(*found)
    return data


def _message(key: str, args: dict[str, Any]) -> dict[str, Any]:
    return {"key": key, "args": args}


def _entry_message(entry: Entry, *, timed_out: bool) -> dict[str, Any] | None:
    """An entry's own log line: the seat it changed, the game it began, or that the
    move it holds was made for a player whose time ran out."""
    op = entry.op
    match op:
        case Op.SIT | Op.LEAVE | Op.ADD_BOT | Op.REMOVE_BOT | Op.REPLACE | Op.RECLAIM:
            return (
                None if entry.seat is None else _message(f"log.{op.value}", {"player": entry.seat})
            )
        case Op.START:
            return _message("log.start", {"game": entry.game})
        case Op.ACT:
            return _message("log.timed_out", {"player": entry.seat}) if timed_out else None
        case _:
            assert_never(op)


def _timed_out(table: Table, entry: Entry) -> bool:
    """True for a move the server made for a person whose time ran out (an automatic
    action of a seat a person holds)."""
    seat = entry.seat
    return (
        entry.op is Op.ACT
        and entry.auto
        and seat is not None
        and table.seats[seat].kind is SeatKind.HUMAN
    )


def _table_entry(table: Table, entry: Entry, viewer: int | None) -> dict[str, Any]:
    """An entry of ``table``'s log as ``viewer`` hears of it."""
    per_colour = table.settings.piles_per_colour
    timed_out = _timed_out(table, entry)
    return entry_dict(entry, viewer, piles_per_colour=per_colour, timed_out=timed_out)


_ENCODER: Final = json.JSONEncoder(separators=(",", ":"), check_circular=False, allow_nan=False)


def dumps(frame: Mapping[str, Any]) -> str:
    """Encode a frame compactly (frames are trees of plain data: no cycle check).

    NaN and Infinity are not JSON: a frame holding one raises ValueError rather than
    reaching a client.
    """
    return _ENCODER.encode(frame)


def ack_frame(client_id: str, version: int, *, duplicate: bool = False) -> dict[str, Any]:
    """The frame telling the sender its command was committed as ``version``."""
    frame: dict[str, Any] = {"type": "ack", "id": client_id, "version": version}
    if duplicate:
        frame["duplicate"] = True
    return frame


def chat_frame(seat: int, phrase: str) -> dict[str, Any]:
    """A quick-chat phrase a seat said, for everyone at the table."""
    return {"type": "chat", "seat": seat, "phrase": phrase}


def hint_frame(version: int, action_id: int) -> dict[str, Any]:
    """A hint (#15), for the asking connection alone: the action id the heuristic bot
    suggests for the asker's seat at table ``version``."""
    return {"type": "hint", "version": version, "action_id": action_id}


def presence_frame(connected: Sequence[bool]) -> dict[str, Any]:
    """Which seats have a connection now."""
    return {"type": "presence", "connected": list(connected)}


def timer_dict(timer: Timer | None) -> dict[str, Any] | None:
    """A countdown as clients get it (docs/protocol.md), or None."""
    if timer is None:
        return None
    return {
        "kind": timer.kind.value,
        "seats": list(timer.seats),
        "remaining_ms": timer.remaining_ms,
    }


def sync_frame(
    table: Table,
    seat: int | None,
    *,
    connected: Sequence[bool],
    last_version: int | None,
    token_rejected: bool,
    timer: Timer | None,
    bots: Sequence[str],
) -> dict[str, Any]:
    """Everything a connection needs to draw the table: the entries it missed since
    ``last_version`` when they are still kept, else the current game's log (``reset``)."""
    history = table.history
    missed = None
    if last_version is not None and 0 <= last_version <= table.version:
        count = table.version - last_version
        if count <= min(CATCH_UP_LIMIT, len(history)):
            missed = history[len(history) - count :] if count else []
    reset = missed is None
    if missed is None:
        game = table.game_no
        missed = [entry for entry in history if entry.game == game][-LOG_LIMIT:]
    playing = table.state is not None
    return {
        "type": "sync",
        "version": table.version,
        "you": seat,
        "token_rejected": token_rejected,
        "table": lobby_dict(table, connected),
        "view": view_dict(table, seat),
        "actions": action_table(table, seat) if playing else None,
        "action_table": action_field_table(table, seat) if playing else None,
        "slots": pile_slots(table.settings.piles_per_colour) if playing else None,
        "hints": offers_hints(table, seat),
        "bots": list(bots),
        "reset": reset,
        "entries": [_table_entry(table, entry, seat) for entry in missed],
        "timer": timer_dict(timer),
    }


def update_frame(
    table: Table,
    entry: Entry,
    seat: int | None,
    *,
    lobby: Mapping[str, Any],
    timer: Mapping[str, Any] | None,
) -> dict[str, Any]:
    """One entry as ``seat`` hears of it, with the table, the view and the countdown
    after it, whether hints are offered to ``seat`` (and the action table and the
    piles' slots when a game starts)."""
    frame = {
        "type": "update",
        **_table_entry(table, entry, seat),
        "table": lobby,
        "view": view_dict(table, seat),
        "hints": offers_hints(table, seat),
        "timer": timer,
    }
    if entry.op == Op.START:
        frame["actions"] = action_table(table, seat)
        frame["action_table"] = action_field_table(table, seat)
        frame["slots"] = pile_slots(table.settings.piles_per_colour)
    return frame


def replay_frame(
    record: GameRecord, settings: Settings, step: int, seat: int | None, *, over: bool
) -> dict[str, Any]:
    """The position after the game's first ``step`` actions, with the entry of the
    last of them: as ``seat`` saw it while the game runs, everything once it is over.

    The last step's frame also has every step's seat and events (``moves``, for a move
    list) and, when the game has ended, its ``standings`` (as the table's).
    """
    replay = Replay(record)
    viewer = None if over else seat
    total = len(record.actions)
    per_colour = settings.piles_per_colour
    entry = Entry(0, Op.START, None, 0, None, tuple(replay.start_events))
    moves = [_move(entry, viewer, over, per_colour)]
    tallies = [Tally() for _ in range(settings.player_count)]
    # Exactly ``step`` actions: the position after them, the entry of the last one.
    for _, actor, action, step_events in itertools.islice(replay, step):
        entry = Entry(0, Op.ACT, actor, 0, action, tuple(step_events))
        if step == total:
            moves.append(_move(entry, viewer, over, per_colour))
            for event in step_events:
                for counted, tally in enumerate(tallies):
                    tally.count(event, counted)
    state = replay.state
    frame: dict[str, Any] = {
        "step": step,
        "steps": total,
        "over": over,
        "you": seat,
        "settings": settings.to_dict(),
        "slots": pile_slots(per_colour),
        "view": observe(state, viewer).to_dict(),
        # The full view only once the game is over (R36 protects a running game).
        "entry": entry_dict(entry, viewer, piles_per_colour=per_colour, full=over),
        "hands": [list(hand) for hand in state.hands] if over else None,
    }
    if step == total:
        frame["moves"] = moves
        frame["standings"] = standings(state, tallies)
    return frame


def _move(entry: Entry, viewer: int | None, over: bool, per_colour: int) -> dict[str, Any]:
    """One step of a move list: who acted and its events, as ``entry_dict`` redacts them."""
    shown = entry_dict(entry, viewer, piles_per_colour=per_colour, full=over)
    return {"seat": shown["seat"], "events": shown["events"]}
