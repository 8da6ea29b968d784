"""Games already played at a table, read back: a replay's steps and a finished game
for its review (#27); from memory where the table is loaded, else from storage."""

from __future__ import annotations

from typing import Any

from sequence_stacks.engine import GameRecord

from .entries import SeatKind, TableStatus
from .protocol import replay_frame
from .refusals import Refusal, RefusalCode
from .runtime import hash_token
from .table import Table
from .tables import Tables

__all__ = ["Archive"]


class Archive:
    """Reads the games of the tables (never changes a table)."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables

    async def replay(
        self, table_id: str, game: int, step: int | None, token: str | None
    ) -> dict[str, Any]:
        """One step of a game: a seat's view while it runs, everything once it is over;
        from memory where the table is loaded, else from storage."""
        runtime = self.tables.current(table_id)
        if runtime is not None:
            async with runtime.lock:
                table = runtime.table
                found = _game(table, game, token)
        else:
            table = await self.tables.read(table_id)
            found = _game(table, game, token)
        record, seat, over = found
        total = len(record.actions)
        chosen = total if step is None else max(0, min(step, total))
        return replay_frame(record, table.settings, chosen, seat, over=over)

    async def finished_game(
        self, table_id: str, game: int
    ) -> tuple[GameRecord, tuple[int, ...]] | None:
        """Game ``game`` of the table and the seats people held in it (a bot standing
        in for an away player keeps that seat a person's), if the game is over."""
        try:
            table = await self._table_now(table_id)
            record, _, over = _game(table, game, None)
        except Refusal:
            return None
        if not over:
            return None
        people = tuple(
            index
            for index, seat in enumerate(table.seats)
            if seat.kind == SeatKind.HUMAN or seat.away_hash is not None
        )
        return record, people

    async def review_viewer(self, table_id: str, game: int, token: str | None) -> int | None:
        """The seat the token holds now at the table (None: a spectator), for game
        ``game``'s review; refused when there is no such game or it is not over."""
        table = await self._table_now(table_id)
        _, seat, over = _game(table, game, token)
        if not over:
            raise Refusal(RefusalCode.GAME_RUNNING, "the game is not over: its review comes after")
        return seat

    async def _table_now(self, table_id: str) -> Table:
        """The table as it is: from memory where it is loaded, else from storage."""
        runtime = self.tables.current(table_id)
        if runtime is None:
            return await self.tables.read(table_id)
        async with runtime.lock:
            return runtime.table


def _game(table: Table, game: int, token: str | None) -> tuple[Any, int | None, bool]:
    """Game ``game``'s record, the seat the token holds, whether the game is over."""
    if not 1 <= game <= table.game_no:
        raise Refusal(RefusalCode.NOT_FOUND, f"there is no game {game} at this table")
    seat = table.seat_of(hash_token(token)) if token else None
    record = table.games[game - 1].record(table.settings)
    over = game < table.game_no or table.status == TableStatus.OVER
    return record, seat, over
