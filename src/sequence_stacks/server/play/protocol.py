"""The wire format: the frames a client receives, each rendered for one viewer.

Every frame a client receives is rendered here for one viewer (a seat, or None for a
spectator) from engine views and redacted events, so nothing a viewer may not see can
reach it (R34-R36). See docs/protocol.md.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from collections.abc import Mapping, Sequence
from typing import Any, Final, assert_never

from sequence_stacks.engine import (
    Action,
    Event,
    GameRecord,
    Replay,
    Settings,
    View,
    action_space,
    event_for,
    observe,
    observe_seats,
)
from sequence_stacks.engine.catalog import (
    action_fields,
    event_fields,
    pile_slots,
    seat_action_fields,
)
from sequence_stacks.engine.events import CardPlayed, ChipStolen, ChipTaken, TurnEnded
from sequence_stacks.i18n import event_message

from .entries import Op, SeatKind
from .hints import offers_hints
from .refusals import Refusal
from .schedule import Timer
from .seats import Tally, count_event, standings
from .table import ANSWERS, CATCH_UP_LIMIT, LOG_LIMIT, Entry, Table

__all__ = [
    "EntryViews",
    "ack_frame",
    "chat_frame",
    "entry_dict",
    "event_dict",
    "hint_frame",
    "lobby_dict",
    "presence_frame",
    "refused_frame",
    "replay_frame",
    "stand_in_summary",
    "sync_frame",
    "timer_dict",
    "update_frame",
    "view_changes",
    "view_data",
    "view_dict",
]


def refused_frame(refusal: Refusal, client_id: object, version: int) -> dict[str, Any]:
    """The frame telling the acting client why its request changed nothing (R37)."""
    return {
        "type": "error" if refusal.code.is_error else "refused",
        "id": client_id if isinstance(client_id, str) else None,
        "code": refusal.code,
        "rule": refusal.rule_id,
        "reason": refusal.reason,
        "detail": None if refusal.detail is None else dict(refusal.detail),
        "version": version,
    }


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
        # The table's own options (#24): its pace and its friendly name, if it has one.
        "options": table.options.to_dict(),
    }


_VIEW_FIELDS: Final = tuple(field.name for field in dataclasses.fields(View))
# What differs between the views of one position (R35): the viewer's seat, hand, the
# hidden cards it may not see, its own Block answer and its legal actions. Every other
# field is the same for every viewer (a test holds the engine to it).
PRIVATE_VIEW_FIELDS: Final = ("seat", "hand", "hidden_epochs", "my_answer", "legal_action_ids")
PUBLIC_VIEW_FIELDS: Final = tuple(f for f in _VIEW_FIELDS if f not in PRIVATE_VIEW_FIELDS)


def view_dict(table: Table, viewer: int | None) -> dict[str, Any] | None:
    """The viewer's view of the current game (a spectator has no hand), or None.

    Encodes to the same JSON as ``observe(state, viewer).to_dict()`` (a test keeps
    them equal), built faster: the field names and the settings dict are computed
    once, and the view's tuples are left as they are (JSON arrays either way).
    """
    return view_dicts(table, [viewer])[viewer]


def view_dicts(
    table: Table, viewers: Sequence[int | None]
) -> dict[int | None, dict[str, Any] | None]:
    """:func:`view_dict` of several viewers, the fields everyone sees computed once
    (``observe_seats``)."""
    return {
        viewer: None if view is None else view_data(table, view)
        for viewer, view in observed(table, viewers).items()
    }


def observed(table: Table, viewers: Sequence[int | None]) -> dict[int | None, View | None]:
    """Each viewer's view of the current game (``observe_seats``), or None."""
    state = table.state
    if state is None:
        return dict.fromkeys(viewers)
    return dict(zip(viewers, observe_seats(state, list(viewers)), strict=True))


def view_data(table: Table, view: View) -> dict[str, Any]:
    """A view as :func:`view_dict` writes it."""
    data = {name: getattr(view, name) for name in _VIEW_FIELDS}
    data["settings"] = table.settings_dict
    data["phase"] = view.phase.key
    result = view.result
    if result is not None:
        data["result"] = result.to_dict()
    return data


def view_changes(
    table: Table, before: View, after: View, public: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The fields of ``after`` that differ from ``before``, as :func:`view_data` writes
    them: compared on the views themselves, so no dict of the whole view is made.

    ``public`` is what :func:`public_view_changes` found for another viewer of the same
    two positions (the same for all): then only the viewer's own fields are compared.
    """
    if public is not None:
        # The viewer's own fields need no rewriting (settings, phase, result are public).
        return {**public, **_differing(before, after, PRIVATE_VIEW_FIELDS)}
    return public_view_changes(table, before, after, _VIEW_FIELDS)


def public_view_changes(
    table: Table, before: View, after: View, names: tuple[str, ...] = PUBLIC_VIEW_FIELDS
) -> dict[str, Any]:
    """The fields ``names`` (by default those every viewer shares) of ``after`` that
    differ from ``before``, as :func:`view_data` writes them."""
    changes = _differing(before, after, names)
    if "settings" in changes:
        changes["settings"] = table.settings_dict
    if "phase" in changes:
        changes["phase"] = after.phase.key
    if "result" in changes:
        result = after.result
        changes["result"] = None if result is None else result.to_dict()
    return changes


def _differing(before: View, after: View, names: tuple[str, ...]) -> dict[str, Any]:
    """The fields ``names`` of ``after`` that differ from ``before``, as they are."""
    changes: dict[str, Any] = {}
    for name in names:
        value = getattr(after, name)
        if value != getattr(before, name):
            changes[name] = value
    return changes


def action_table(table: Table, viewer: int | None) -> list[str] | None:
    """Notation of every action id for the viewer's seat (what a script may send)."""
    if viewer is None:
        return None
    settings = table.settings
    return _notation_table(settings.player_count, settings.piles_per_colour, viewer)


def action_field_table(table: Table, viewer: int | None) -> list[dict[str, Any]] | None:
    """Every action id of the viewer's seat as fields (type, kind, source, pile, victim,
    colour): what a client draws legal actions from, without parsing notation."""
    if viewer is None:
        return None
    settings = table.settings
    return _field_table(settings.player_count, settings.piles_per_colour, viewer)


# A seat's action tables depend on the table's size alone: made once, shared by every
# game's first frame (they are encoded, never changed).
@functools.lru_cache(maxsize=128)
def _notation_table(player_count: int, piles_per_colour: int, seat: int) -> list[str]:
    space = action_space(player_count, piles_per_colour)
    return [action.notation() for action in space.actions_of(seat)]


@functools.lru_cache(maxsize=128)
def _field_table(player_count: int, piles_per_colour: int, seat: int) -> list[dict[str, Any]]:
    return seat_action_fields(player_count, piles_per_colour, seat)


def entry_dict(
    entry: Entry,
    viewer: int | None,
    *,
    piles_per_colour: int,
    timed_out: bool = False,
    full: bool = False,
    with_events: bool = True,
) -> dict[str, Any]:
    """One entry as ``viewer`` may see it: events redacted, Block answers hidden (R29).

    ``message`` is the entry's own log line as data (a seat taken, a game begun, a move
    made for a player whose time ran out: ``timed_out``); each event carries its own.
    ``full`` skips the redaction: only for replays of finished games. ``with_events``
    False leaves the events out (:class:`EntryViews` puts them in).
    """
    action = entry.action
    notation: str | None = None
    fields: dict[str, Any] | None = None
    if action is not None:
        if action.type in ANSWERS and entry.seat != viewer and not full:
            notation = "answer"
        else:
            notation, fields = _action_shown(action, piles_per_colour)
    events = (
        [
            event_dict(event if full else event_for(event, viewer), piles_per_colour)
            for event in entry.events
        ]
        if with_events
        else []
    )
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


@functools.lru_cache(maxsize=4096)
def _action_shown(action: Action, piles_per_colour: int) -> tuple[str, dict[str, Any]]:
    """An action's notation and fields, made once and shared by every frame that
    carries it (the dict is never to be changed)."""
    return action.notation(), action_fields(action, piles_per_colour)


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
    action of a seat a person holds). A Block-window answer is not one: a window's end
    answers "pass" for everyone who gave no answer, as R29 has it (docs/rules-notes.md N19)."""
    seat = entry.seat
    action = entry.action
    return (
        entry.op is Op.ACT
        and entry.auto
        and seat is not None
        and action is not None
        and action.type not in ANSWERS
        and table.seats[seat].kind is SeatKind.HUMAN
    )


def _table_entry(table: Table, entry: Entry, viewer: int | None) -> dict[str, Any]:
    """An entry of ``table``'s log as ``viewer`` hears of it."""
    per_colour = table.settings.piles_per_colour
    timed_out = _timed_out(table, entry)
    return entry_dict(entry, viewer, piles_per_colour=per_colour, timed_out=timed_out)


class EntryViews:
    """One entry as each viewer of a broadcast hears of it, made once: what is the same
    for every viewer (the entry's fields, each event with nothing to hide) is made
    once and shared; a draw's cards and a Block answer are rendered per viewer (R35,
    R29). ``whole`` is the entry itself when nothing in it differs between viewers.

    An event with something to hide is rendered twice at most: whole, for the viewers
    it hides nothing from, and as every other viewer sees it (the engine's
    ``event_for`` gives them all the same copy; a test holds it to that).
    """

    def __init__(self, table: Table, entry: Entry) -> None:
        self.entry = entry
        self.per_colour = per_colour = table.settings.piles_per_colour
        self.timed_out = timed_out = _timed_out(table, entry)
        action = entry.action
        self.hidden = action is not None and action.type in ANSWERS
        # Per event: its whole rendering, and None or what the others see of it.
        self.events: list[tuple[dict[str, Any], dict[str, Any] | None]] = []
        private = False
        for event in entry.events:
            redacted = event_for(event, None)
            if redacted is event:
                self.events.append((event_dict(event, per_colour), None))
            else:
                private = True
                self.events.append(
                    (event_dict(event, per_colour), event_dict(redacted, per_colour))
                )
        self.whole: dict[str, Any] | None = None
        self._fields: dict[int | None, dict[str, Any]] = {}
        if not self.hidden and not private:
            self.whole = entry_dict(entry, None, piles_per_colour=per_colour, timed_out=timed_out)

    def of(self, viewer: int | None) -> dict[str, Any]:
        """The entry as ``viewer`` hears of it (shared: never to be changed)."""
        if self.whole is not None:
            return self.whole
        entry = self.entry
        # The entry's own fields: one rendering, or two when the action is a Block
        # answer (shown to whoever gave it, "answer" to everyone else).
        own = self.hidden and viewer == entry.seat
        key = entry.seat if own else None
        fields = self._fields.get(key)
        if fields is None:
            fields = self._fields[key] = entry_dict(
                entry,
                key,
                piles_per_colour=self.per_colour,
                timed_out=self.timed_out,
                with_events=False,
            )
        found = dict(fields)
        found["events"] = [
            whole if others is None or event_for(event, viewer) is event else others
            for (whole, others), event in zip(self.events, entry.events, strict=True)
        ]
        return found


def ack_frame(client_id: str, version: int, *, duplicate: bool = False) -> dict[str, Any]:
    """The frame telling the sender its command was committed as ``version``."""
    frame: dict[str, Any] = {"type": "ack", "id": client_id, "version": version}
    if duplicate:
        frame["duplicate"] = True
    return frame


def chat_frame(seat: int, phrase: str) -> dict[str, Any]:
    """A quick-chat phrase a seat said, for everyone at the table."""
    return {"type": "chat", "seat": seat, "phrase": phrase}


def hint_frame(version: int, action_id: int, why: Mapping[str, Any]) -> dict[str, Any]:
    """A hint (#15, #27), for the asking connection alone: the action id the hint bot
    suggests for the asker's seat at table ``version`` and why (``{key, args}``)."""
    return {"type": "hint", "version": version, "action_id": action_id, "why": dict(why)}


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
    notation: bool = False,
) -> dict[str, Any]:
    """Everything a connection needs to draw the table: the entries it missed since
    ``last_version`` when they are still kept, else the current game's log (``reset``);
    with ``notation`` (a script asked in its hello) the seat's actions in notation."""
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
        "actions": action_table(table, seat) if playing and notation else None,
        "action_table": action_field_table(table, seat) if playing else None,
        "slots": pile_slots(table.settings.piles_per_colour) if playing else None,
        "hints": offers_hints(table, seat),
        "bots": list(bots),
        "reset": reset,
        "entries": [_table_entry(table, entry, seat) for entry in missed],
        "timer": timer_dict(timer),
    }


_COMPUTE: Final[Any] = object()  # update_frame works the view out itself


def update_frame(
    table: Table,
    entry: Entry,
    seat: int | None,
    *,
    lobby: Mapping[str, Any] | None,
    timer: Mapping[str, Any] | None,
    view: Mapping[str, Any] | None = _COMPUTE,
    changes: Mapping[str, Any] | None = None,
    notation: bool = False,
    views: EntryViews | None = None,
) -> dict[str, Any]:
    """One entry as ``seat`` hears of it, with the view and the countdown after it and
    whether hints are offered to ``seat`` (and, when a game starts, the action table,
    the piles' slots and, with ``notation``, the actions in notation).

    ``views`` is the entry made once for all viewers of the broadcast, if it is.
    Only what changed (docs/protocol.md): ``lobby`` is None when the table's public
    facts are as the last update had them (the frame then has no ``table``), and
    ``changes`` (the view's fields that differ from the seat's view one version
    before) is sent as ``view_changes`` instead of the whole ``view``.
    """
    frame: dict[str, Any] = {
        "type": "update",
        **(_table_entry(table, entry, seat) if views is None else views.of(seat)),
        "hints": offers_hints(table, seat),
        "timer": timer,
    }
    if lobby is not None:
        frame["table"] = lobby
    if changes is not None:
        frame["view_changes"] = changes
    else:
        frame["view"] = view_dict(table, seat) if view is _COMPUTE else view
    if entry.op == Op.START:
        frame["actions"] = action_table(table, seat) if notation else None
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
                count_event(tallies, event)
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


# --- what a stand-in bot did (#24) ------------------------------------------------------


def stand_in_summary(table: Table, seat: int) -> list[dict[str, Any]]:
    """What the bot that stood in for ``seat`` did, for its player back at the table:
    counted from the public events of the entries since the seat was last replaced, as
    messages (``away.*``, each ``{key, args}``: the turns it finished first, then only
    what happened). Called right after the reclaim entry is applied."""
    since = 0
    for index in range(len(table.history) - 1, -1, -1):
        entry = table.history[index]
        if entry.op is Op.REPLACE and entry.seat == seat:
            since = index + 1
            break
    game = table.game_no
    tally = Tally()
    counts = {"turns": 0, "played": 0, "chips": 0, "lost": 0}
    for entry in table.history[since:]:
        if entry.game != game:
            continue
        for event in entry.events:
            tally.count(event, seat)
            if isinstance(event, TurnEnded) and event.seat == seat:
                counts["turns"] += 1
            elif isinstance(event, CardPlayed) and event.seat == seat:
                counts["played"] += 1
            elif isinstance(event, ChipTaken) and event.seat == seat and event.taken:
                counts["chips"] += 1
            elif isinstance(event, ChipStolen) and event.victim == seat:
                counts["lost"] += 1
    shown = {
        "played": counts["played"],
        "completed": tally.completed,
        "chips": counts["chips"],
        "stole_cards": tally.cards_stolen,
        "stole_chips": tally.chips_stolen,
        "blocked": tally.blocks,
        "lost": counts["lost"],
    }
    turns = counts["turns"]
    lines = [_message("away.turns", {"count": turns}) if turns else _message("away.no_turns", {})]
    lines += [_message(f"away.{name}", {"count": count}) for name, count in shown.items() if count]
    return lines
