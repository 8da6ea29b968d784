"""95% intervals for the dossier: Wilson for rates, the bootstrap for everything else.

Every interval here is reproducible: a bootstrap draws its resamples from a
``random.Random`` seeded with a string that names the figure (``"2026/p4/turns"``),
never from the global generator.
"""

from __future__ import annotations

import dataclasses
import enum
import math
import random
import statistics
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from sequence_stacks.sim.selfplay import wilson_interval

__all__ = [
    "RESAMPLES",
    "Estimate",
    "Method",
    "bootstrap",
    "bootstrap_difference",
    "chi_square_uniform_p",
    "newcombe_difference",
    "wilson",
]

RESAMPLES: Final = 1000
_Z_95: Final = 1.959963984540054

Statistic = Callable[[Sequence[float]], float]


class Method(enum.StrEnum):
    """How an interval was found."""

    WILSON = "Wilson score"
    BOOTSTRAP = "bootstrap percentile"
    NEWCOMBE = "Newcombe (Wilson) difference"
    NONE = "none"


@dataclasses.dataclass(frozen=True, slots=True)
class Estimate:
    """A figure with its 95% interval and the number of observations it rests on."""

    value: float
    low: float
    high: float
    n: int
    method: Method

    def excludes(self, point: float) -> bool:
        """True when ``point`` lies outside the interval (a measurable difference)."""
        return not self.low <= point <= self.high

    def map(self, offset: float, scale: float) -> Estimate:
        """The estimate of ``offset + scale * x`` (a negative scale swaps the ends)."""
        ends = sorted((offset + scale * self.low, offset + scale * self.high))
        return dataclasses.replace(
            self, value=offset + scale * self.value, low=ends[0], high=ends[1]
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "value": self.value,
            "ci95": [self.low, self.high],
            "n": self.n,
            "method": self.method.value,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Estimate:
        """Read :meth:`to_dict` data back."""
        low, high = data["ci95"]
        return cls(data["value"], low, high, data["n"], Method(data["method"]))


def wilson(successes: int, trials: int) -> Estimate:
    """A rate with its Wilson interval (0 with (0, 1) for no trials)."""
    low, high = wilson_interval(successes, trials)
    value = successes / trials if trials else 0.0
    return Estimate(value, low, high, trials, Method.WILSON)


def bootstrap(
    values: Sequence[float],
    seed: str,
    statistic: Statistic = statistics.fmean,
    resamples: int = RESAMPLES,
) -> Estimate:
    """``statistic`` of ``values`` with a percentile bootstrap interval."""
    if not values:
        return Estimate(0.0, 0.0, 0.0, 0, Method.NONE)
    rng = random.Random(seed)
    count = len(values)
    draws = sorted(statistic(rng.choices(values, k=count)) for _ in range(resamples))
    return Estimate(statistic(values), *_percentiles(draws), count, Method.BOOTSTRAP)


def bootstrap_difference(
    values: Sequence[float],
    baseline: Sequence[float],
    seed: str,
    statistic: Statistic = statistics.fmean,
    resamples: int = RESAMPLES,
) -> Estimate:
    """``statistic(values) - statistic(baseline)`` for two independent samples, with a
    percentile bootstrap interval (each sample resampled on its own)."""
    if not values or not baseline:
        return Estimate(0.0, 0.0, 0.0, 0, Method.NONE)
    rng = random.Random(seed)
    draws = sorted(
        statistic(rng.choices(values, k=len(values)))
        - statistic(rng.choices(baseline, k=len(baseline)))
        for _ in range(resamples)
    )
    value = statistic(values) - statistic(baseline)
    return Estimate(value, *_percentiles(draws), len(values) + len(baseline), Method.BOOTSTRAP)


def _percentiles(draws: Sequence[float]) -> tuple[float, float]:
    last = len(draws) - 1
    return draws[round(0.025 * last)], draws[round(0.975 * last)]


def newcombe_difference(successes: int, trials: int, base: int, base_trials: int) -> Estimate:
    """The difference of two independent rates, ``successes/trials - base/base_trials``,
    with Newcombe's hybrid score interval (method 10, from the two Wilson intervals)."""
    if not trials or not base_trials:
        return Estimate(0.0, 0.0, 0.0, 0, Method.NONE)
    p1, p2 = successes / trials, base / base_trials
    l1, u1 = wilson_interval(successes, trials)
    l2, u2 = wilson_interval(base, base_trials)
    difference = p1 - p2
    low = difference - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = difference + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return Estimate(difference, low, high, trials + base_trials, Method.NEWCOMBE)


def chi_square_uniform_p(counts: Sequence[int]) -> float:
    """The p-value of Pearson's test that ``counts`` come from equal shares (1.0 with
    fewer than two categories or no counts)."""
    total = sum(counts)
    if len(counts) < 2 or total == 0:
        return 1.0
    expected = total / len(counts)
    statistic = sum((count - expected) ** 2 / expected for count in counts)
    return _chi_square_survival(statistic, len(counts) - 1)


def _chi_square_survival(x: float, dof: int) -> float:
    """P(X >= x) for a chi-square variable: the regularized upper gamma Q(dof/2, x/2)."""
    a, z = dof / 2, x / 2
    if z <= 0:
        return 1.0
    if z < a + 1:  # the series of the lower function converges fast here
        term = total = 1 / a
        k = a
        while term > total * 1e-15:
            k += 1
            term *= z / k
            total += term
        return max(0.0, 1 - total * math.exp(-z + a * math.log(z) - math.lgamma(a)))
    # Lentz's continued fraction of the upper function
    b = z + 1 - a
    c = 1 / 1e-300
    d = 1 / b
    h = d
    for i in range(1, 500):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1 / (d if abs(d) > 1e-300 else 1e-300)
        c = b + an / c
        c = c if abs(c) > 1e-300 else 1e-300
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return min(1.0, math.exp(-z + a * math.log(z) - math.lgamma(a)) * h)
