"""Ratings (#26): OpenSkill (Plackett-Luce) per account and player-count group, with
its uncertainty, over finished games; bots play at fixed published ratings, so a
player can be rated against bots too (those games are marked as such).

A game is *rated* when every seat is an account's or a bot the table seated (a guest,
or a bot standing in for someone who left for good, makes it unrated); its places come
from the game's standings (the winner first, then more chips, then more sequences
completed; equal keys share a place). Every finished game of an account is kept in its
history, rated or not. A game is recorded once, by the worker that owns the table,
and the database refuses it a second time.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections.abc import Mapping, Sequence
from typing import Any, Final

from openskill.models import PlackettLuce

from sequence_stacks.server.play import TableNews, TableStatus
from sequence_stacks.server.store import AccountStore, GameResult, Rating

__all__ = [
    "BOT_RATINGS",
    "GROUPS",
    "MODEL",
    "GameRecorder",
    "Seated",
    "group_of",
    "places_of",
    "rate",
    "record_game",
]

log = logging.getLogger("sequence_stacks.server")

MODEL: Final = PlackettLuce()
# The groups players are rated in, by the number of seats.
GROUPS: Final = ("2", "3-4", "5-6")
# The bots' fixed, published ratings (mu, sigma): the strength order of the bots
# (docs/server.md, Ratings); they never change with a game.
BOT_RATINGS: Final[Mapping[str, tuple[float, float]]] = {
    "random": (15.0, 1.0),
    "greedy": (25.0, 1.0),
    "heuristic": (29.0, 1.0),
    "ismcts": (31.0, 1.0),
}


def group_of(players: int) -> str:
    """The rating group of a game of ``players`` seats."""
    return "2" if players == 2 else "3-4" if players <= 4 else "5-6"


@dataclasses.dataclass(frozen=True, slots=True)
class Seated:
    """Who sat in one seat of a finished game: an account, a table bot, or neither."""

    seat: int
    account_id: str | None = None
    bot: str | None = None


def places_of(standings: Sequence[Mapping[str, Any]]) -> dict[int, int]:
    """Each seat's place (1 = best) from a game's standings; equal keys share one."""

    def key(entry: Mapping[str, Any]) -> tuple[bool, int, int]:
        return (not entry["winner"], -sum(entry["chips"]), -int(entry["completed"]))

    keys = [key(entry) for entry in standings]
    return {
        int(entry["seat"]): 1 + sum(other < keys[index] for other in keys)
        for index, entry in enumerate(standings)
    }


def rate(
    seated: Sequence[Seated],
    places: Mapping[int, int],
    current: Mapping[str, tuple[float, float]],
) -> dict[str, tuple[float, float]]:
    """The new (mu, sigma) of every account of a rated game: one OpenSkill update of
    every seat at once, ranked by place, bots at their fixed ratings."""
    teams = []
    for entry in seated:
        if entry.account_id is not None:
            mu, sigma = current.get(entry.account_id, (MODEL.mu, MODEL.sigma))
        else:
            mu, sigma = BOT_RATINGS[entry.bot or "greedy"]
        teams.append([MODEL.rating(mu=mu, sigma=sigma)])
    updated = MODEL.rate(teams, ranks=[float(places[entry.seat]) for entry in seated])
    return {
        entry.account_id: (team[0].mu, team[0].sigma)
        for entry, team in zip(seated, updated, strict=True)
        if entry.account_id is not None
    }


def seated_of(news: TableNews, accounts_by_hash: Mapping[str, str]) -> list[Seated]:
    """Who sat where at the game's end: accounts by their seat's token hash."""
    return [
        Seated(
            seat,
            accounts_by_hash.get(owner) if owner is not None else None,
            news.bots[seat],
        )
        for seat, owner in enumerate(news.owners)
    ]


async def record_game(store: AccountStore, news: TableNews) -> bool:
    """Record a finished game for every account that played it (rated or not); False
    when no account played it or it was recorded already."""
    if news.standings is None:
        return False
    links = await asyncio.to_thread(store.seats_at, news.table_id)
    seated = seated_of(news, {link.token_hash: link.account_id for link in links})
    accounts: list[Seated] = []
    for entry in seated:
        if entry.account_id is not None and all(
            entry.account_id != other.account_id for other in accounts
        ):
            accounts.append(entry)
    if not accounts:
        return False
    rated = len(accounts) == sum(entry.account_id is not None for entry in seated) and all(
        entry.account_id is not None or entry.bot is not None for entry in seated
    )
    places = places_of(news.standings)
    players = len(seated)
    group = group_of(players)
    with_bots = any(entry.bot is not None for entry in seated)
    winners = {int(entry["seat"]) for entry in news.standings if entry["winner"]}
    now = time.time()

    def results(current: Mapping[tuple[str, str], Rating]) -> list[GameResult]:
        before = {account_id: (found.mu, found.sigma) for (account_id, _), found in current.items()}
        after = rate(seated, places, before) if rated else {}
        return [
            GameResult(
                table_id=news.table_id,
                game=news.game,
                account_id=entry.account_id,
                seat=entry.seat,
                place=places[entry.seat],
                won=entry.seat in winners,
                players=players,
                group=group,
                with_bots=with_bots,
                rated=rated,
                mu=after[entry.account_id][0] if rated else None,
                sigma=after[entry.account_id][1] if rated else None,
                finished_at=now,
            )
            for entry in accounts
            if entry.account_id is not None
        ]

    pairs = [(entry.account_id, group) for entry in accounts if entry.account_id is not None]
    return await asyncio.to_thread(store.record_game, news.table_id, news.game, results, pairs)


class GameRecorder:
    """A table watcher that records every finished game once (results and ratings)."""

    def __init__(self, store: AccountStore) -> None:
        self.store = store
        self._seen: set[tuple[str, int]] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    def watches(self, *, turn_based: bool, status: TableStatus) -> bool:
        """Tables whose game is over (its standings are recorded)."""
        return status == TableStatus.OVER

    def changed(self, news: TableNews) -> None:
        """A game that just ended is recorded in a task of its own."""
        if news.standings is None or (news.table_id, news.game) in self._seen:
            return
        self._seen.add((news.table_id, news.game))
        task = asyncio.ensure_future(self._record(news))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _record(self, news: TableNews) -> None:
        try:
            await record_game(self.store, news)
        except Exception:
            log.exception("table %s: game %d not recorded", news.table_id, news.game)
            self._seen.discard((news.table_id, news.game))

    async def drain(self) -> None:
        """Wait for the recordings under way (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
