"""Seats and accounts: an account's seat is taken from any of its devices; a guest's
seat is claimed by an account afterwards, or moved to another device with a one-time
code; "My games" lists every table of the account, those where it is awaited first."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping
from typing import Any, Final

from sequence_stacks.server.play import Refusal, RefusalCode, TableNews, hash_token
from sequence_stacks.server.store import Account, AccountStore, SeatLink, TableRow

from .tokens import Sealer, code_hash, device_code

__all__ = ["MOVE_SECONDS", "SeatBook"]

MOVE_SECONDS: Final = 600.0  # a seat-moving code lasts ten minutes
_STATUS_ORDER: Final = {"playing": 0, "lobby": 1, "over": 2}


def _context(table_id: str, account_id: str) -> str:
    return f"seat|{table_id}|{account_id}"


def _no_seat() -> Refusal:
    return Refusal(RefusalCode.NOT_FOUND, "you hold no seat at that table")


class SeatBook:
    """The seats accounts hold (see the module's docstring)."""

    def __init__(
        self,
        store: AccountStore,
        sealer: Callable[[], Sealer],
        table: Callable[[str], TableRow | None],
    ) -> None:
        self.store = store
        self._sealer = sealer
        self._table = table
        self._turns: dict[str, dict[str, tuple[bool, float | None]]] = {}

    async def link(self, account: Account, table_id: str, token: str) -> None:
        """Remember that ``account`` holds the seat of ``token`` (the caller checked that
        it holds one); refused when another account holds it already."""
        sealed = self._sealer().seal(token, context=_context(table_id, account.account_id))
        link = SeatLink(table_id, hash_token(token), account.account_id, sealed, time.time())
        if await asyncio.to_thread(self.store.link_seat, link):
            return
        links = await asyncio.to_thread(self.store.seats_at, table_id)
        holder = next((x.account_id for x in links if x.token_hash == link.token_hash), None)
        if holder != account.account_id:
            raise Refusal(
                RefusalCode.NAME_TAKEN,
                "that seat belongs to another player's account",
                detail={"key": "account.seat_taken", "args": {}},
            )

    async def token(self, account: Account, table_id: str) -> str:
        """The newest seat token ``account`` holds at ``table_id``; refused (404) when it
        holds none there (another account's table tells nothing)."""
        links = await asyncio.to_thread(self.store.seats_of, account.account_id)
        for found in links:
            if found.table_id == table_id:
                token = self._sealer().open(
                    found.sealed, context=_context(table_id, account.account_id)
                )
                if token is not None:
                    return token
        raise _no_seat()

    async def move_code(self, table_id: str, token: str) -> str:
        """A one-time code that gives the seat of ``token`` to the device that types or
        scans it (the caller checked that the token holds a seat). The token is
        stored sealed under a key made from the code, never readable without it."""
        code = device_code()
        sealed = Sealer.of_code(code).seal(token, context=f"move|{table_id}")
        data = {"table_id": table_id, "sealed": sealed}
        await asyncio.to_thread(
            self.store.put_code, code_hash(code), "seat", None, data, MOVE_SECONDS
        )
        return code

    async def redeem_move(self, code: str) -> tuple[str, str]:
        """The table and seat token a move code carries, used up."""
        found = await asyncio.to_thread(self.store.take_code, code_hash(code), "seat")
        token = None
        if found is not None:
            data = found[1]
            table_id = str(data.get("table_id", ""))
            token = Sealer.of_code(code).open(str(data.get("sealed")), context=f"move|{table_id}")
        if found is None or token is None:
            raise Refusal(
                RefusalCode.CODE_INVALID,
                "that code or link is unknown, used or expired",
                detail={"key": "refused.code_invalid", "args": {}},
            )
        return table_id, token

    # --- what the tables tell --------------------------------------------------------

    async def note_turns(self, news: TableNews) -> None:
        """Keep, per account seat of a turn-based table, whether it is awaited and until
        when (for "My games" and the page's badge); written only when it changes."""
        links = await asyncio.to_thread(self.store.seats_at, news.table_id)
        if not links:
            return
        deadline = None if news.deadline_in is None else time.time() + news.deadline_in
        awaited = {news.owners[seat] for seat in news.awaited}
        turns = {link.token_hash: (link.token_hash in awaited, deadline) for link in links}
        known = self._turns.get(news.table_id, {})
        changed = {
            token_hash: value
            for token_hash, value in turns.items()
            if known.get(token_hash, (None, None))[0] != value[0]
        }
        self._turns[news.table_id] = turns
        if changed:
            await asyncio.to_thread(self.store.set_turns, news.table_id, changed)

    # --- "My games" ---------------------------------------------------------------------

    async def my_games(self, account: Account) -> list[dict[str, Any]]:
        """Every table the account sat at, those awaiting it first, then playing, then
        in the lobby, then over; most recently changed first within each."""
        links = await asyncio.to_thread(self.store.seats_of, account.account_id)
        newest: dict[str, SeatLink] = {}
        for link in links:
            newest.setdefault(link.table_id, link)
        rows = await asyncio.to_thread(lambda: {tid: self._table(tid) for tid in newest})
        games = [_game(link, row) for tid, link in newest.items() if (row := rows[tid]) is not None]
        games.sort(
            key=lambda g: (not g["my_turn"], _STATUS_ORDER.get(g["status"], 3), -g["updated_at"])
        )
        return games


def _game(link: SeatLink, row: TableRow) -> dict[str, Any]:
    options: Mapping[str, Any] = row.options
    return {
        "id": row.table_id,
        "url": f"/t/{row.table_id}",
        "status": row.status,
        "game": row.summary.get("game", 0),
        "players": row.settings.get("player_count"),
        "seats": row.summary.get("seats", []),
        "options": dict(options),
        "my_turn": link.my_turn and row.status == "playing",
        "deadline": link.deadline if link.my_turn else None,
        "updated_at": row.updated_at,
    }
