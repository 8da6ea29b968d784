"""Many bot-vs-bot games: per-game rows and their summary statistics."""

from __future__ import annotations

import dataclasses
import math
import statistics
from collections.abc import Iterator, Sequence
from typing import Any, Final

from sequence_stacks.bots import make_bot
from sequence_stacks.engine import EndReason, GameRecord, Settings

from .play import play_game

__all__ = [
    "GameRow",
    "Rate",
    "Summary",
    "iter_selfplay",
    "seat_bots",
    "selfplay",
    "summarize",
    "wilson_interval",
]

_Z_95: Final = 1.959963984540054


@dataclasses.dataclass(frozen=True, slots=True)
class GameRow:
    """One finished game of a selfplay run.

    Attributes:
        index: the game's position in the run, from 0.
        seed: the game's shuffle seed.
        bots: the bot name at each seat.
        reason: why the game ended (R31, R33, N17).
        winner: the winning seat, or None.
        turns: turns taken (R33).
        action_count: actions taken by all seats, Block answers included.
    """

    index: int
    seed: int
    bots: tuple[str, ...]
    reason: EndReason
    winner: int | None
    turns: int
    action_count: int

    @property
    def winner_bot(self) -> str | None:
        """The name of the winning seat's bot, or None."""
        return None if self.winner is None else self.bots[self.winner]


def seat_bots(bot_names: Sequence[str], player_count: int, game_index: int) -> tuple[str, ...]:
    """The bot at each seat in game ``game_index``: the list cycles over the seats and
    rotates by one seat each game, so every bot plays every seat."""
    if not bot_names:
        raise ValueError("name at least one bot")
    count = len(bot_names)
    return tuple(bot_names[(seat + game_index) % count] for seat in range(player_count))


def game_seed(seed: int, game_index: int, rotation: int) -> int:
    """The shuffle seed of a game: each round of ``rotation`` games shares one deal."""
    return seed + game_index // rotation


def iter_selfplay(
    settings: Settings, bot_names: Sequence[str], *, games: int, seed: int = 0
) -> Iterator[tuple[GameRow, GameRecord]]:
    """Play ``games`` games and yield each one's row and record as it finishes.

    Games come in rounds of ``len(bot_names)``: the games of a round share one deal
    (seed) and rotate the bots by one seat each, which makes comparisons fairer.
    Bot seeds are derived from the game seed and the seat, so a run is reproducible.
    """
    for name in bot_names:
        make_bot(name)  # refuse unknown names before playing anything
    rotation = len(bot_names)
    for index in range(games):
        names = seat_bots(bot_names, settings.player_count, index)
        shuffle_seed = game_seed(seed, index, rotation)
        bots = [
            make_bot(name, seed=shuffle_seed * 64 + seat * 8 + index % rotation)
            for seat, name in enumerate(names)
        ]
        state, record = play_game(settings, shuffle_seed, bots, meta={"game_index": index})
        assert state.result is not None
        row = GameRow(
            index=index,
            seed=shuffle_seed,
            bots=names,
            reason=state.result.reason,
            winner=state.result.winner,
            turns=state.turn_count,
            action_count=len(record.actions),
        )
        yield row, record


def selfplay(
    settings: Settings, bot_names: Sequence[str], *, games: int, seed: int = 0
) -> list[GameRow]:
    """Play ``games`` games (see :func:`iter_selfplay`) and return their rows."""
    return [row for row, _ in iter_selfplay(settings, bot_names, games=games, seed=seed)]


def wilson_interval(successes: int, trials: int, z: float = _Z_95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default); (0, 1) for no trials."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclasses.dataclass(frozen=True, slots=True)
class Rate:
    """Wins out of games played (by a seat, or by a bot over all seats it held)."""

    wins: int
    played: int

    @property
    def rate(self) -> float:
        """The win rate, 0.0 when nothing was played."""
        return self.wins / self.played if self.played else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of the win rate."""
        return wilson_interval(self.wins, self.played)

    def to_dict(self) -> dict[str, Any]:
        """Return the rate as JSON-ready data."""
        low, high = self.interval
        return {"wins": self.wins, "played": self.played, "rate": self.rate, "ci95": [low, high]}


@dataclasses.dataclass(frozen=True, slots=True)
class Summary:
    """What a selfplay run shows: win rates by seat and by bot, endings and lengths.

    A bot's ``played`` counts the seats it held, so with one bot per seat its rate is
    the share of games it won, and the fair share is ``1 / player_count``.
    """

    games: int
    player_count: int
    seats: tuple[Rate, ...]
    bots: dict[str, Rate]
    wins: int
    stalemates: int
    max_turns: int
    mean_turns: float
    median_turns: float

    def to_dict(self) -> dict[str, Any]:
        """Return the summary as JSON-ready data."""
        return {
            "games": self.games,
            "player_count": self.player_count,
            "seats": [rate.to_dict() for rate in self.seats],
            "bots": {name: rate.to_dict() for name, rate in self.bots.items()},
            "wins": self.wins,
            "stalemates": self.stalemates,
            "max_turns": self.max_turns,
            "mean_turns": self.mean_turns,
            "median_turns": self.median_turns,
        }


def summarize(rows: Sequence[GameRow], player_count: int) -> Summary:
    """Summarize the rows of a selfplay run."""
    seat_wins = [0] * player_count
    bot_wins: dict[str, int] = {}
    bot_seats: dict[str, int] = {}
    for row in rows:
        for name in row.bots:
            bot_seats[name] = bot_seats.get(name, 0) + 1
            bot_wins.setdefault(name, 0)
        if row.winner is not None:
            seat_wins[row.winner] += 1
            bot_wins[row.bots[row.winner]] += 1
    turns = [row.turns for row in rows]
    reasons = [row.reason for row in rows]
    return Summary(
        games=len(rows),
        player_count=player_count,
        seats=tuple(Rate(wins, len(rows)) for wins in seat_wins),
        bots={name: Rate(bot_wins[name], bot_seats[name]) for name in bot_seats},
        wins=reasons.count(EndReason.WIN),
        stalemates=reasons.count(EndReason.STALEMATE),
        max_turns=reasons.count(EndReason.MAX_TURNS),
        mean_turns=statistics.fmean(turns) if turns else 0.0,
        median_turns=float(statistics.median(turns)) if turns else 0.0,
    )
