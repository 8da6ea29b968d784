"""The expert bot: the strongest level (docs/bots.md, "expert").

It is the ``ismcts`` search (:class:`~sequence_stacks.bots.ismcts.IsmctsBot`) with the
options that measured strongest, under its own name. The learned win-chance model
(:mod:`.winchance`) was tried as its leaf value and as its policy and measured weaker
than the search's own leaf (docs/bots.md says how much): the model serves the review
and the graphs, where it is calibrated, not the search.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Final

from sequence_stacks.engine import State, observe

from .heuristic import Evaluator
from .ismcts import IsmctsBot
from .winchance import WinChanceModel, default_model

__all__ = ["EXPERT_OPTIONS", "ModelLeaf", "make_expert"]

# The options of IsmctsBot the expert plays with (measured in docs/bots.md): twice the
# default deals and work cap, the one setting that measured stronger than plain ismcts.
EXPERT_OPTIONS: Final[dict[str, Any]] = {"budget_scale": 2.0}


@dataclasses.dataclass(frozen=True, slots=True)
class ModelLeaf:
    """A :class:`~sequence_stacks.bots.leaf.LeafValue`: the win-chance model's
    P(win) of the seat's own view of the playout's position (measured as a leaf in
    docs/bots.md; not the expert's default)."""

    model: WinChanceModel = dataclasses.field(default_factory=default_model)

    def __call__(self, state: State, seat: int, evaluator: Evaluator, played: int) -> float:
        return self.model.chance(observe(state, seat))


def make_expert(*, seed: int | None = None, **options: Any) -> IsmctsBot:
    """The ``expert`` bot; ``options`` (IsmctsBot's) override its own, e.g. a smaller
    search for tests."""
    bot = IsmctsBot(seed=seed, **{**EXPERT_OPTIONS, **options})
    bot.name = "expert"
    return bot
