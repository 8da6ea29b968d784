"""A metric's values and how they combine (:class:`Measure`), with the helpers every
metric of :mod:`.metrics` builds its measure with."""

from __future__ import annotations

import dataclasses
import enum
import statistics
from collections.abc import Callable, Sequence

from .intervals import (
    Estimate,
    Method,
    bootstrap,
    bootstrap_difference,
    newcombe_difference,
    wilson,
)
from .traces import GameTrace

__all__ = [
    "Measure",
    "Statistic",
    "mean_measure",
    "player_count",
    "rate_measure",
    "spread_of",
]


class Statistic(enum.StrEnum):
    """How a measure combines its per-game values."""

    RATE = "rate"  # values are 0/1: the share of games
    MEAN = "mean"
    SPREAD = "spread"  # values are winning seats (-1: none): best minus worst seat rate


@dataclasses.dataclass(frozen=True, slots=True)
class Measure:
    """One value per game and how they combine; the figure is
    ``offset + scale * statistic(values)``."""

    values: tuple[float, ...]
    statistic: Statistic
    offset: float = 0.0
    scale: float = 1.0
    seats: int = 0

    @property
    def games(self) -> int:
        """The number of games (or seat-games) the figure rests on."""
        return len(self.values)

    def _combine(self) -> Callable[[Sequence[float]], float]:
        if self.statistic == Statistic.SPREAD:
            return spread_of(self.seats)
        return statistics.fmean

    def estimate(self, seed: str) -> Estimate:
        """The figure with its 95% interval (Wilson for a rate, else the bootstrap
        seeded by ``seed``)."""
        if not self.values:
            return Estimate(0.0, 0.0, 0.0, 0, Method.NONE)
        if self.statistic == Statistic.RATE:
            raw = wilson(round(sum(self.values)), len(self.values))
        else:
            raw = bootstrap(self.values, seed, self._combine())
        return raw.map(self.offset, self.scale)

    def difference(self, baseline: Measure, seed: str) -> Estimate:
        """This figure minus ``baseline``'s (the same metric in another variant), with a
        95% interval: Newcombe's for rates, else the bootstrap seeded by ``seed``."""
        if self.statistic == Statistic.RATE:
            raw = newcombe_difference(
                round(sum(self.values)),
                len(self.values),
                round(sum(baseline.values)),
                len(baseline.values),
            )
        else:
            raw = bootstrap_difference(self.values, baseline.values, seed, self._combine())
        return raw.map(0.0, self.scale)


def spread_of(seats: int) -> Callable[[Sequence[float]], float]:
    def spread(winners: Sequence[float]) -> float:
        counts = [0] * seats
        for winner in winners:
            if winner >= 0:
                counts[int(winner)] += 1
        return (max(counts) - min(counts)) / len(winners)

    return spread


def rate_measure(flags: Sequence[bool], offset: float = 0.0, scale: float = 1.0) -> Measure:
    return Measure(tuple(float(flag) for flag in flags), Statistic.RATE, offset, scale)


def mean_measure(values: Sequence[float]) -> Measure:
    return Measure(tuple(float(value) for value in values), Statistic.MEAN)


def player_count(traces: Sequence[GameTrace]) -> int:
    counts = {trace.player_count for trace in traces}
    if len(counts) != 1:
        raise ValueError(f"a measure needs games of one player count, not {sorted(counts)}")
    return counts.pop()
