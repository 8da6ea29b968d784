"""The seats accounts hold, whose turn each is, and the push subscriptions and notices
that tell them."""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Mapping

from sequence_stacks.server.store.sql import SqlDatabase

from .records import SEAT_COLUMNS, PushSubscription, SeatLink, seat_of

__all__ = ["Notices", "SeatLinks"]


class SeatLinks:
    """The seats accounts hold (part of :class:`AccountStore`)."""

    _sql: SqlDatabase

    def link_seat(self, link: SeatLink) -> bool:
        """Remember that an account holds a seat; False when that seat is linked already."""
        with self._sql.transaction() as run:
            inserted: int = run(
                f"INSERT INTO account_seats ({SEAT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (table_id, token_hash) DO NOTHING",
                (*dataclasses.astuple(link)[:5], int(link.my_turn), link.deadline),
            ).rowcount
        return inserted == 1

    def seats_of(self, account_id: str) -> list[SeatLink]:
        """Every seat an account holds or held, newest first."""
        return self._sql.all(
            f"SELECT {SEAT_COLUMNS} FROM account_seats WHERE account_id = ? "
            "ORDER BY joined_at DESC",
            (account_id,),
            seat_of,
        )

    def seats_at(self, table_id: str) -> list[SeatLink]:
        """Every account seat of a table."""
        return self._sql.all(
            f"SELECT {SEAT_COLUMNS} FROM account_seats WHERE table_id = ?", (table_id,), seat_of
        )

    def set_turns(self, table_id: str, turns: Mapping[str, tuple[bool, float | None]]) -> None:
        """Per token hash at a table: whether it is that player's decision, and until when."""
        with self._sql.transaction() as run:
            for token_hash, (mine, deadline) in turns.items():
                run(
                    "UPDATE account_seats SET my_turn = ?, deadline = ? "
                    "WHERE table_id = ? AND token_hash = ?",
                    (int(mine), deadline, table_id, token_hash),
                )

    def my_turn_count(self, account_id: str) -> int:
        """How many of an account's games wait for it."""
        found = self._sql.one(
            "SELECT COUNT(*) FROM account_seats WHERE account_id = ? AND my_turn = 1",
            (account_id,),
            lambda row: int(row[0]),
        )
        return found or 0


class Notices:
    """Push subscriptions and the notices sent (part of :class:`AccountStore`)."""

    _sql: SqlDatabase

    def add_push(self, subscription: PushSubscription) -> None:
        """Keep (or move to this account) a browser's push subscription."""
        self._sql.write(
            "INSERT INTO push_subscriptions VALUES (?, ?, ?, ?) ON CONFLICT (endpoint) "
            "DO UPDATE SET account_id = excluded.account_id, keys = excluded.keys",
            (
                subscription.endpoint,
                subscription.account_id,
                json.dumps(dict(subscription.keys)),
                time.time(),
            ),
        )

    def pushes_of(self, account_id: str) -> list[PushSubscription]:
        """An account's push subscriptions."""
        return self._sql.all(
            "SELECT endpoint, account_id, keys FROM push_subscriptions WHERE account_id = ?",
            (account_id,),
            lambda row: PushSubscription(row[0], row[1], json.loads(row[2])),
        )

    def remove_push(self, endpoint: str, account_id: str | None = None) -> None:
        """Forget a push subscription (gone at the push service, or turned off)."""
        if account_id is None:
            self._sql.write("DELETE FROM push_subscriptions WHERE endpoint = ?", (endpoint,))
        else:
            self._sql.write(
                "DELETE FROM push_subscriptions WHERE endpoint = ? AND account_id = ?",
                (endpoint, account_id),
            )

    def mark_sent(self, account_id: str, notice: str) -> bool:
        """Note a notice as sent; False when it was already (by any worker)."""
        return (
            self._sql.write(
                "INSERT INTO notices_sent VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                (account_id, notice, time.time()),
            )
            == 1
        )
