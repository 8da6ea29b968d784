"""Who is likely to win, from what the table can see: the estimate behind drama metrics.

A :class:`WinChance` reads a spectator's :func:`~sequence_stacks.engine.observe` view
(public facts only, R34) and returns each seat's chance of winning. The dossier asks it
at every turn end of every game it traces, so lead changes, comebacks and decisiveness
follow whichever estimate is plugged in. The default, :class:`ChipsWinChance`, looks at
chips only; a learned model of the whole position can replace it without touching the
metrics.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import Final, Protocol

from sequence_stacks.engine import View, chips_needed

__all__ = ["CHIPS_WEIGHT", "ChipsWinChance", "WinChance", "chances_from_needs"]

# Each chip still needed divides a seat's odds by e^0.5: the weight that best predicted
# the winners (highest likelihood, from 0.1 to 2) at the turn ends of heuristic
# self-play at default rules (679 two-player and 243 four-player games: 0.5 and 0.4).
# The dossier shows how well it is calibrated on its own games.
CHIPS_WEIGHT: Final = 0.5


class WinChance(Protocol):
    """Each seat's chance of winning a game, from a spectator's view.

    To plug in another estimate, pass an object with a ``name`` and this call to
    :func:`~sequence_stacks.sim.run_dossier` (``win_chance=``). It travels to the worker
    processes (or Ray tasks) with every batch of games, so it must pickle: a module-level
    class holding its parameters, loading a model file lazily if it needs one.
    """

    @property
    def name(self) -> str:
        """How the dossier names the estimate (``chips``, a model's name)."""

    def __call__(self, view: View) -> tuple[float, ...]:
        """The chance of each seat, in seat order; they sum to 1 (or less, when a game
        may end without a winner)."""
        ...


def chances_from_needs(needs: Sequence[int], weight: float = CHIPS_WEIGHT) -> tuple[float, ...]:
    """Chances proportional to ``exp(-weight * chips still needed)``; a seat that has
    won (needs 0 while the others need more) gets the largest share."""
    if any(need == 0 for need in needs):
        winners = [1.0 if need == 0 else 0.0 for need in needs]
        return tuple(share / sum(winners) for share in winners)
    odds = [math.exp(-weight * need) for need in needs]
    total = sum(odds)
    return tuple(value / total for value in odds)


@dataclasses.dataclass(frozen=True, slots=True)
class ChipsWinChance:
    """The chips-only estimate: seats that need fewer chips (R31) are likelier to win.

    ``weight`` is how much each missing chip counts (:func:`chances_from_needs`).
    """

    weight: float = CHIPS_WEIGHT
    name: str = "chips"

    def __call__(self, view: View) -> tuple[float, ...]:
        """Each seat's chance from the chips it still needs."""
        needs = [chips_needed(view.settings, chips) for chips in view.chips]
        return chances_from_needs(needs, self.weight)
