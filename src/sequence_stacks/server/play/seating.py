"""What a table's seats allow: who holds which seat, and the seat changes prepared
before they are stored (validated, with nothing changed; refused with a
:class:`~.refusals.Refusal`). Part of :class:`~.table.Table`."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from sequence_stacks.engine import State

from .entries import AddBot, Leave, Reclaim, RemoveBot, Replace, SeatKind, Sit, TableStatus
from .options import TableOptions
from .refusals import Refusal, RefusalCode
from .seats import Seat, clean_name, same_name

__all__ = ["Seating"]


class Seating:
    """The seat rules of a :class:`~.table.Table` (which owns the attributes below)."""

    seats: list[Seat]
    options: TableOptions
    state: State | None

    if TYPE_CHECKING:

        @property
        def status(self) -> TableStatus:
            """See :attr:`.table.Table.status`."""
            ...

    # --- who holds which seat ---------------------------------------------------------

    def seat_of(self, token_hash: str | None) -> int | None:
        """Return the seat a human token hash holds now, or None."""
        if token_hash is None:
            return None
        for index, seat in enumerate(self.seats):
            if seat.kind == SeatKind.HUMAN and seat.token_hash == token_hash:
                return index
        return None

    def holders(self) -> dict[str | None, int]:
        """Every human seat by the token hash that holds it now."""
        return {
            seat.token_hash: index
            for index, seat in enumerate(self.seats)
            if seat.kind == SeatKind.HUMAN and seat.token_hash is not None
        }

    def claim_of(self, token_hash: str) -> int | None:
        """Return the seat a bot holds for the player of this token hash, or None.

        Such a seat was handed to a bot because its player was away (``replace``),
        not given up (``leave``), and its game is still running or just over.
        """
        if self.state is None:
            return None
        for index, seat in enumerate(self.seats):
            if seat.kind == SeatKind.BOT and seat.away_hash == token_hash:
                return index
        return None

    def _never_blocks(self, seat: int) -> bool:
        """True for a person at a turn-based table whose standing answer is "never block"."""
        found = self.seats[seat] if 0 <= seat < len(self.seats) else None
        return (
            self.options.turn_based
            and found is not None
            and found.kind == SeatKind.HUMAN
            and found.never_block
        )

    def is_practice_for(self, seat: int) -> bool:
        """True when ``seat`` plays alone against bots (every other seat is a bot):
        a practice game, where hints are offered (#15)."""
        return all(s.kind == SeatKind.BOT for i, s in enumerate(self.seats) if i != seat)

    # --- preparing seat changes ---------------------------------------------------------

    def prepare_sit(
        self, name: str, seat: int | None, token_hash: str, *, never_block: bool = False
    ) -> Sit:
        """Take an empty seat (the first one when ``seat`` is None) before a game;
        ``never_block`` is the player's standing answer, kept at turn-based tables only."""
        clean = clean_name(name)
        self._require_between_games("take a seat")
        chosen = self._empty_seat(seat)
        taken = (other.name for other in self.seats if other.kind != SeatKind.EMPTY)
        if any(same_name(clean, other) for other in taken):
            raise Refusal(
                RefusalCode.NAME_TAKEN, f"someone at this table is already called {clean!r}"
            )
        standing = True if never_block and self.options.turn_based else None
        return Sit(chosen, clean, token_hash, standing)

    def prepare_leave(self, seat: int, bot: str) -> Leave:
        """Leave a seat: empty between games, a bot takes it over during one."""
        self._require_seat_kind(seat, SeatKind.HUMAN, "only a seated player can leave")
        return Leave(seat, bot)

    def prepare_add_bot(self, seat: int | None, bot: str, bot_names: Iterable[str]) -> AddBot:
        """Put a bot of strength ``bot`` in an empty seat before a game."""
        if bot not in set(bot_names):
            raise Refusal(RefusalCode.BAD_REQUEST, f"unknown bot {bot!r}")
        self._require_between_games("add a bot")
        return AddBot(self._empty_seat(seat), bot)

    def _empty_seat(self, seat: int | None) -> int:
        if seat is None:
            seat = next((i for i, s in enumerate(self.seats) if s.kind == SeatKind.EMPTY), None)
            if seat is None:
                raise Refusal(RefusalCode.TABLE_FULL, "every seat is taken")
        self._require_seat_kind(seat, SeatKind.EMPTY, "that seat is not empty")
        return seat

    def prepare_remove_bot(self, seat: int) -> RemoveBot:
        """Take a bot out of its seat before a game."""
        self._require_between_games("remove a bot")
        self._require_seat_kind(seat, SeatKind.BOT, "there is no bot in that seat")
        return RemoveBot(seat)

    def prepare_replace(self, seat: int, bot: str) -> Replace:
        """Hand an absent player's seat to a bot during a game (grace period over)."""
        if self.status != TableStatus.PLAYING:
            raise Refusal(RefusalCode.BAD_REQUEST, "seats are only handed to bots during a game")
        self._require_seat_kind(seat, SeatKind.HUMAN, "only a player's seat can go to a bot")
        return Replace(seat, bot)

    def prepare_reclaim(self, seat: int) -> Reclaim:
        """Give a seat back from its stand-in bot to the player who was away."""
        if not 0 <= seat < len(self.seats) or self.seats[seat].away_hash is None:
            raise Refusal(RefusalCode.BAD_REQUEST, "no player can take that seat back")
        self._require_seat_kind(seat, SeatKind.BOT, "that seat is not held by a bot")
        return Reclaim(seat)

    def _require_between_games(self, what: str) -> None:
        if self.status == TableStatus.PLAYING:
            raise Refusal(RefusalCode.GAME_RUNNING, f"cannot {what} while a game is being played")

    def _require_seat_kind(self, seat: int, kind: SeatKind, reason: str) -> None:
        if not 0 <= seat < len(self.seats):
            raise Refusal(RefusalCode.BAD_REQUEST, f"there is no seat {seat} at this table")
        if self.seats[seat].kind != kind:
            raise Refusal(RefusalCode.BAD_REQUEST, reason)
