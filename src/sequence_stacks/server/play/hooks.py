"""What the play room tells the rest of the server about its tables: after every
change it commits and every time a seat's connections come or go, the :class:`TableNews`
of the table, to a :class:`TableWatcher` the composition root passes in (accounts and
notifications watch tables through it; the play room imports neither).

The news is public facts plus who holds each seat (token hashes, never the tokens) and
whose decision it is now; it carries nothing of a hand.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Protocol

from sequence_stacks.engine import Phase

from .entries import SeatKind, TableStatus
from .runtime import Runtime
from .schedule import Timer, TimerKind, asks_people
from .seats import Seat

__all__ = ["NoWatcher", "TableNews", "TableWatcher", "news_of", "watched"]


@dataclasses.dataclass(frozen=True, slots=True)
class TableNews:
    """A table as it is now, for those who watch tables from outside the play room.

    Attributes:
        table_id, game, status, turn_based, turn_hours: the table's facts.
        turn: the game's turn count (a new turn, a new number).
        window: the version that opened the Block window open now, else None.
        awaited: the seats whose decision the table waits for now: the turn's person,
            or in a window every asked person who may block ("ask me"), holder or not.
        deadline_in: seconds until the turn's or the window's time is up, else None.
        connected: per seat, whether a connection holds it now.
        owners: per seat, the token hash of the person it belongs to (a bot standing in
            keeps its player's), else None.
        bots: per seat, the bot's strength for a seat the table gave a bot, else None
            (a bot standing in for a person is neither an owner's nor a table bot).
        standings: a finished game's ranking (``Table.standings``), else None.
    """

    table_id: str
    game: int
    status: TableStatus
    turn_based: bool
    turn_hours: int | None
    turn: int
    window: int | None
    awaited: tuple[int, ...]
    deadline_in: float | None
    connected: tuple[bool, ...]
    owners: tuple[str | None, ...]
    bots: tuple[str | None, ...]
    standings: list[dict[str, Any]] | None


class TableWatcher(Protocol):
    """Told of every table's news (on the process that owns the table); must not block:
    anything slow is its own task."""

    def watches(self, *, turn_based: bool, status: TableStatus) -> bool:
        """Whether this watcher wants the news of a table like this at all: asked before
        the news is made, so a move nobody watches (a live game's, most of them) costs
        no news."""
        ...

    def changed(self, news: TableNews) -> None:
        """A table changed, or a seat's connections came or went."""
        ...


class NoWatcher:
    """Nobody watches (the default)."""

    def watches(self, *, turn_based: bool, status: TableStatus) -> bool:
        """No table."""
        return False

    def changed(self, news: TableNews) -> None:
        """Nothing to do."""


def _table_bot(seat: Seat) -> bool:
    """A bot the table seated (not one standing in for a person who left or is away)."""
    return seat.kind == SeatKind.BOT and (seat.label or {}).get("key") == "seat.bot"


def watched(watcher: TableWatcher, runtime: Runtime) -> bool:
    """Whether ``watcher`` wants the news of this loaded table now."""
    table = runtime.table
    return watcher.watches(turn_based=table.options.turn_based, status=table.status)


def news_of(runtime: Runtime, timer: Timer | None) -> TableNews:
    """The news of a loaded table now, ``timer`` its schedule's countdown now."""
    table = runtime.table
    state = table.state
    window: int | None = None
    awaited: tuple[int, ...] = ()
    if state is not None and not state.is_over:
        if state.phase == Phase.BLOCK_WINDOW:
            window = table.window_version
            people = asks_people(table)
            awaited = tuple(
                seat
                for seat in state.window_pending
                if people
                and table.seats[seat].kind == SeatKind.HUMAN
                and not table.seats[seat].never_block
            )
        elif table.seats[state.current].kind == SeatKind.HUMAN:
            awaited = (state.current,)
    deadline = None
    if timer is not None and (timer.kind == TimerKind.BLOCK or awaited):
        deadline = timer.remaining_ms / 1000
    seats = table.seats
    return TableNews(
        table_id=table.table_id,
        game=table.game_no,
        status=table.status,
        turn_based=table.options.turn_based,
        turn_hours=table.options.turn_hours,
        turn=state.turn_count if state is not None else 0,
        window=window,
        awaited=awaited,
        deadline_in=deadline,
        connected=tuple(runtime.present()),
        owners=tuple(
            seat.token_hash if seat.kind == SeatKind.HUMAN else seat.away_hash for seat in seats
        ),
        bots=tuple(seat.bot if _table_bot(seat) else None for seat in seats),
        standings=table.standings() if table.status == TableStatus.OVER else None,
    )
