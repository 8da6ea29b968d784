"""Who is likely to win, from what each seat can see: the estimate behind drama metrics.

A :class:`WinChance` reads every seat's own :func:`~sequence_stacks.engine.observe`
view (seat ``i``'s cards and the public facts, nothing more: R34) and returns each
seat's chance of winning. The dossier asks it at every turn end of the games its drama
figures come from, so lead changes, comebacks, decisiveness and kingmaking follow
whichever estimate is plugged in:

- :class:`ModelWinChance` (the dossier's default): the learned win-chance model of
  :mod:`sequence_stacks.bots.winchance`, P(seat wins | that seat's view), asked once per
  seat. Each seat's chance is calibrated on its own; as every seat sees a different
  hand, the chances of one turn end need not sum to exactly 1. For a table size the
  model has no network for, it falls back to chips (:meth:`WinChance.for_players`).
- :class:`ChipsWinChance`: chips only (public facts), a fallback and a baseline.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import Final, Protocol

from sequence_stacks.bots.winchance import default_model
from sequence_stacks.engine import View, chips_needed

__all__ = [
    "CHIPS_WEIGHT",
    "ChipsWinChance",
    "ModelWinChance",
    "WinChance",
    "chances_from_needs",
]

# Each chip still needed divides a seat's odds by e^0.5: the weight that best predicted
# the winners (highest likelihood, from 0.1 to 2) at the turn ends of heuristic
# self-play at default rules (679 two-player and 243 four-player games: 0.5 and 0.4).
# The dossier shows how well it is calibrated on its own games.
CHIPS_WEIGHT: Final = 0.5


class WinChance(Protocol):
    """Each seat's chance of winning a game, each from that seat's own view.

    To plug in another estimate, pass an object with a ``name``, :meth:`for_players`
    and this call to :func:`~sequence_stacks.sim.run_dossier` (``win_chance=``). It
    travels to the worker processes (or Ray tasks) with every batch of games, so it must
    pickle: a module-level class holding its parameters, loading a model file lazily.
    """

    @property
    def name(self) -> str:
        """How the dossier names the estimate (``chips``, ``model``)."""

    def for_players(self, player_count: int) -> WinChance:
        """The estimate to use at a table of ``player_count`` seats (itself, or a
        fallback when it cannot judge that table size)."""
        ...

    def __call__(self, views: Sequence[View]) -> tuple[float, ...]:
        """The chance of each seat, in seat order; ``views[i]`` is seat ``i``'s own view
        (``observe(state, i)``) and seat ``i``'s chance reads nothing else."""
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

    ``weight`` is how much each missing chip counts (:func:`chances_from_needs`). Chips
    are public, so every seat's view gives the same chances (the first one is read).
    """

    weight: float = CHIPS_WEIGHT
    name: str = "chips"

    def for_players(self, player_count: int) -> WinChance:
        """Chips judge every table size."""
        del player_count
        return self

    def __call__(self, views: Sequence[View]) -> tuple[float, ...]:
        """Each seat's chance from the chips it still needs."""
        view = views[0]
        needs = [chips_needed(view.settings, chips) for chips in view.chips]
        return chances_from_needs(needs, self.weight)


@dataclasses.dataclass(frozen=True, slots=True)
class ModelWinChance:
    """The learned model's chance for each seat, from that seat's own view
    (:meth:`~sequence_stacks.bots.winchance.WinChanceModel.chance`; the model shipped in
    the package, read once per process). A finished game gives 1 to its winner and 0 to
    the others."""

    name: str = "model"

    def for_players(self, player_count: int) -> WinChance:
        """Itself when the model has a network for the table size, else chips."""
        if player_count in default_model().networks:
            return self
        return ChipsWinChance()

    def __call__(self, views: Sequence[View]) -> tuple[float, ...]:
        """Each seat's P(win | its own view)."""
        model = default_model()
        return tuple(model.chance(view) for view in views)
