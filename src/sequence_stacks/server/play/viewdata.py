"""The table as each viewer may see it, as data: views and what changed in them,
log entries and their events (redacted for the viewer, R34-R36), and the action
tables a seat draws its legal actions from. The frames of :mod:`.protocol` are made
of these."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping, Sequence
from typing import Any, Final, assert_never

from sequence_stacks.engine import (
    Action,
    Event,
    View,
    action_space,
    event_for,
    observe_seats,
)
from sequence_stacks.engine.catalog import action_fields, event_fields, seat_action_fields
from sequence_stacks.i18n import event_message

from .entries import Op, SeatKind
from .table import ANSWERS, Entry, Table

__all__ = [
    "PRIVATE_VIEW_FIELDS",
    "PUBLIC_VIEW_FIELDS",
    "EntryViews",
    "action_field_table",
    "action_table",
    "entry_dict",
    "event_dict",
    "message_data",
    "observed",
    "public_view_changes",
    "table_entry",
    "view_changes",
    "view_data",
    "view_dict",
    "view_dicts",
]


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
    data["message"] = None if found is None else message_data(*found)
    return data


def message_data(key: str, args: dict[str, Any]) -> dict[str, Any]:
    return {"key": key, "args": args}


def _entry_message(entry: Entry, *, timed_out: bool) -> dict[str, Any] | None:
    """An entry's own log line: the seat it changed, the game it began, or that the
    move it holds was made for a player whose time ran out."""
    op = entry.op
    match op:
        case Op.SIT | Op.LEAVE | Op.ADD_BOT | Op.REMOVE_BOT | Op.REPLACE | Op.RECLAIM:
            return (
                None
                if entry.seat is None
                else message_data(f"log.{op.value}", {"player": entry.seat})
            )
        case Op.START:
            return message_data("log.start", {"game": entry.game})
        case Op.ACT:
            return message_data("log.timed_out", {"player": entry.seat}) if timed_out else None
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


def table_entry(table: Table, entry: Entry, viewer: int | None) -> dict[str, Any]:
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
