"""A seated player's command made into the log entry it asks for: refused when it was
decided on a table that has moved on (``stale``, saying what changed), else prepared
by the table (which refuses what it does not allow)."""

from __future__ import annotations

import dataclasses
import enum
import itertools
from collections.abc import Callable, Iterable
from typing import assert_never

from sequence_stacks.bots import BOT_NAMES
from sequence_stacks.engine import Phase
from sequence_stacks.engine.events import (
    BlockWindowOpened,
    PileBlocked,
    PileCompleted,
    TurnStarted,
)

from . import commands
from .commands import Command
from .entries import Act, LogPayload, Op, SeatKind
from .refusals import Refusal, RefusalCode
from .table import Entry, Table

__all__ = ["Stale", "prepare_command", "stale_reason"]


class Stale(enum.StrEnum):
    """What changed since the version a stale command was decided on, as its refusal
    tells it (``refused.stale.<value>``, docs/protocol.md)."""

    TIMED_OUT = "timed_out"  # the server moved for the seat when its time ran out
    GAME_OVER = "game_over"
    GAME_STARTED = "game_started"
    WINDOW_CLOSED = "window_closed"  # a Block window it saw open is over
    TURN_OVER = "turn_over"  # it was the seat's turn and is not now
    CHANGED = "changed"  # anything else, or older than the history kept


def prepare_command(
    table: Table, command: Command, seat: int, *, seed: Callable[[], int], bot: str
) -> LogPayload:
    """The entry ``seat``'s command asks for, with its sender and id (``seed()`` for a
    game it starts, ``bot`` for seats bots take); raise Refusal."""
    _require_fresh(table, command, seat)
    match command:
        case commands.Act(action=action):
            act = table.prepare_act(seat, action)
            return Act(act.seat, act.action, command.id, act.parsed)
        case commands.AddBot(seat=target, bot=chosen):
            added = table.prepare_add_bot(target, chosen or bot, BOT_NAMES)
            return dataclasses.replace(added, client=command.id, by=seat)
        case commands.RemoveBot(seat=target):
            removed = table.prepare_remove_bot(target)
            return dataclasses.replace(removed, client=command.id, by=seat)
        case commands.Start():
            started = table.prepare_start(seed(), bot)
            return dataclasses.replace(started, client=command.id, by=seat)
        case commands.Leave():
            return dataclasses.replace(table.prepare_leave(seat, bot), client=command.id)
        case _:
            assert_never(command)


def _require_fresh(table: Table, command: Command, seat: int) -> None:
    """Refuse a command decided on a version that is not the table's any more
    (docs/protocol.md): the current one, or, for a Block-window answer, one at or
    after the window opened (other seats' answers do not change the question)."""
    seen = command.version
    if seen == table.version:
        return
    state = table.state
    if (
        isinstance(command, commands.Act)
        and state is not None
        and state.phase == Phase.BLOCK_WINDOW
        and seat in state.window_pending
        and table.window_version <= seen <= table.version
    ):
        return
    why = stale_reason(table, seen, seat)
    raise Refusal(
        RefusalCode.STALE,
        f"the table is at version {table.version}; you saw {seen} ({why})",
        detail={"key": f"refused.stale.{why}", "args": {}},
    )


def stale_reason(table: Table, version: int, seat: int) -> Stale:  # noqa: PLR0911 - one a reason
    """What changed since ``version``, the last one a seat's client saw.

    The history's versions follow each other (``Table.apply_payload``), so the entries
    after ``version`` are its last ``table.version - version``: found by counting, not
    by reading a history of thousands of entries at every stale command."""
    history = table.history
    count = table.version - version
    if count <= 0 or count > len(history):
        return Stale.CHANGED  # older than the history kept: say nothing precise
    newer = history[len(history) - count :]
    human = table.seats[seat].kind == SeatKind.HUMAN
    if human and any(e.op == Op.ACT and e.auto and e.seat == seat for e in newer):
        return Stale.TIMED_OUT
    if any(e.op == Op.START for e in newer):
        return Stale.GAME_STARTED
    state = table.state
    if state is None:
        return Stale.CHANGED
    if state.is_over:
        return Stale.GAME_OVER
    seen_window = _open_window(_saw(history, count))
    if seen_window and (state.phase != Phase.BLOCK_WINDOW or table.window_version != seen_window):
        return Stale.WINDOW_CLOSED
    if _turn_of(_saw(history, count)) == seat and state.current_player() != seat:
        return Stale.TURN_OVER
    return Stale.CHANGED


def _saw(history: list[Entry], newer: int) -> Iterable[Entry]:
    """The entries a client had seen, newest first: all but the ``newer`` last ones."""
    return itertools.islice(reversed(history), newer, None)


def _turn_of(newest_first: Iterable[Entry]) -> int | None:
    """The seat whose turn the last TurnStarted in the entries began, else None."""
    for entry in newest_first:
        for event in reversed(entry.events):
            if isinstance(event, TurnStarted):
                return int(event.seat)
    return None


def _open_window(newest_first: Iterable[Entry]) -> int:
    """The version of the entry that opened the Block window still open after the
    entries, else 0 (none opened, or it was blocked or completed since)."""
    for entry in newest_first:
        for event in reversed(entry.events):
            if isinstance(event, PileBlocked | PileCompleted):
                return 0
            if isinstance(event, BlockWindowOpened):
                return entry.version
    return 0
