"""Finished games of accounts and their ratings: recorded once per game, read for the
account pages and the leaderboard."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence

from sequence_stacks.server.store.sql import SqlDatabase, Tx

from .records import (
    ACCOUNT_COLUMNS,
    RESULT_COLUMNS,
    Account,
    GameResult,
    Rating,
    account_of,
    result_of,
)

__all__ = ["Results"]


class Results:
    """Game results and ratings (part of :class:`AccountStore`)."""

    _sql: SqlDatabase

    def record_game(
        self,
        table_id: str,
        game: int,
        rate: Callable[[Mapping[tuple[str, str], Rating]], Sequence[GameResult]],
        accounts_and_groups: Sequence[tuple[str, str]],
    ) -> bool:
        """Record a finished game once (False if it was already): read the ratings of
        ``accounts_and_groups`` (locked), let ``rate`` make the results, store them and
        the ratings they carry."""
        with self._sql.transaction() as run:
            first = run(
                "INSERT INTO rated_games VALUES (?, ?) ON CONFLICT DO NOTHING", (table_id, game)
            ).rowcount
            if first != 1:
                return False
            lock = " FOR UPDATE" if self._sql.postgres else ""
            current: dict[tuple[str, str], Rating] = {}
            for account_id, group in accounts_and_groups:
                found = run(
                    "SELECT account_id, grp, mu, sigma, games, wins FROM ratings "
                    f"WHERE account_id = ? AND grp = ?{lock}",
                    (account_id, group),
                ).fetchone()
                if found is not None:
                    current[(account_id, group)] = Rating(*found)
            for result in rate(current):
                _store_result(run, result, current.get((result.account_id, result.group)))
        return True

    def results_of(self, account_id: str, limit: int) -> list[GameResult]:
        """An account's finished games, newest first."""
        return self._sql.all(
            f"SELECT {RESULT_COLUMNS} FROM game_results WHERE account_id = ? "
            "ORDER BY finished_at DESC LIMIT ?",
            (account_id, limit),
            result_of,
        )

    def totals_of(self, account_id: str) -> tuple[int, int]:
        """An account's finished games and wins, all of them."""
        found = self._sql.one(
            "SELECT COUNT(*), COALESCE(SUM(won), 0) FROM game_results WHERE account_id = ?",
            (account_id,),
            lambda row: (int(row[0]), int(row[1])),
        )
        return found or (0, 0)

    def ratings_of(self, account_id: str) -> list[Rating]:
        """An account's ratings, one per player-count group it has played."""
        return self._sql.all(
            "SELECT account_id, grp, mu, sigma, games, wins FROM ratings WHERE account_id = ? "
            "ORDER BY grp",
            (account_id,),
            lambda row: Rating(*row),
        )

    def leaderboard(
        self, group: str, *, language: str | None, limit: int
    ) -> list[tuple[Rating, Account]]:
        """A group's ratings, best first by ``mu - 3 sigma`` (optionally only accounts
        of one language), each with its account."""
        columns = ", ".join(f"a.{name.strip()}" for name in ACCOUNT_COLUMNS.split(","))
        return self._sql.all(
            f"SELECT r.account_id, r.grp, r.mu, r.sigma, r.games, r.wins, {columns} "
            "FROM ratings r JOIN accounts a ON a.account_id = r.account_id "
            "WHERE r.grp = ? AND (CAST(? AS TEXT) IS NULL OR a.language = ?) "
            "ORDER BY r.mu - 3 * r.sigma DESC, r.account_id LIMIT ?",
            (group, language, language, limit),
            lambda row: (Rating(*row[:6]), account_of(row[6:])),
        )


def _store_result(run: Tx, result: GameResult, before: Rating | None) -> None:
    run(
        f"INSERT INTO game_results ({RESULT_COLUMNS}) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            result.table_id,
            result.game,
            result.account_id,
            result.seat,
            result.place,
            int(result.won),
            result.players,
            result.group,
            int(result.with_bots),
            int(result.rated),
            result.mu,
            result.sigma,
            result.finished_at,
        ),
    )
    if not result.rated or result.mu is None or result.sigma is None:
        return
    games = (before.games if before else 0) + 1
    wins = (before.wins if before else 0) + int(result.won)
    run(
        "INSERT INTO ratings VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (account_id, grp) "
        "DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, games = excluded.games, "
        "wins = excluded.wins, updated_at = excluded.updated_at",
        (result.account_id, result.group, result.mu, result.sigma, games, wins, time.time()),
    )
