"""The random bot: a uniform choice among the legal actions."""

from __future__ import annotations

import random

from sequence_stacks.engine import Action, View, action_space

__all__ = ["RandomBot"]


class RandomBot:
    """Picks uniformly among the legal action ids of its view (a baseline)."""

    def __init__(self, *, seed: int | None = None) -> None:
        self.name = "random"
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Action:
        """Return a uniformly random legal action of ``view``'s seat."""
        if view.seat is None or not view.legal_action_ids:
            raise ValueError("the view has no legal action to choose from (R38)")
        action_id = self.rng.choice(view.legal_action_ids)
        settings = view.settings
        space = action_space(settings.player_count, settings.piles_per_colour)
        return space.action(action_id, view.seat)
