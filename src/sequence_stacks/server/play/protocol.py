"""The wire format: the frames a client receives, each rendered for one viewer.

Every frame a client receives is rendered here for one viewer (a seat, or None for a
spectator) from engine views and redacted events, so nothing a viewer may not see can
reach it (R34-R36). See docs/protocol.md.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any, Final

from sequence_stacks.engine import GameRecord, Replay, Settings, observe
from sequence_stacks.engine.catalog import pile_slots
from sequence_stacks.engine.events import CardPlayed, ChipStolen, ChipTaken, TurnEnded

from .entries import Op
from .hints import offers_hints
from .refusals import Refusal
from .schedule import Timer
from .seats import Tally, count_event, standings
from .table import CATCH_UP_LIMIT, LOG_LIMIT, Entry, Table
from .viewdata import (
    EntryViews,
    action_field_table,
    action_table,
    entry_dict,
    message_data,
    table_entry,
    view_dict,
)

__all__ = [
    "ack_frame",
    "chat_frame",
    "hint_frame",
    "lobby_dict",
    "presence_frame",
    "refused_frame",
    "replay_frame",
    "stand_in_summary",
    "sync_frame",
    "timer_dict",
    "update_frame",
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
        "entries": [table_entry(table, entry, seat) for entry in missed],
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
        **(table_entry(table, entry, seat) if views is None else views.of(seat)),
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
    lines = [
        message_data("away.turns", {"count": turns}) if turns else message_data("away.no_turns", {})
    ]
    lines += [
        message_data(f"away.{name}", {"count": count}) for name, count in shown.items() if count
    ]
    return lines
