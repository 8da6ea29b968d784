"""Hints in practice games (#15): the heuristic bot's choice for a player's own view.

A hint is computed from :func:`~sequence_stacks.engine.observe` of the asking seat, as
any bot's move is: never from other hands, the draw pile's order or the seed (R36).
"""

from __future__ import annotations

from sequence_stacks.bots import HeuristicBot
from sequence_stacks.engine import Action, View

__all__ = ["hint_bot", "suggestion"]


def hint_bot(seed: int) -> HeuristicBot:
    """The bot that gives hints, seeded so the same view gives the same hint."""
    return HeuristicBot(seed=seed)


def suggestion(view: View, *, seed: int) -> Action:
    """The hint for the view's seat: what the heuristic bot would do in its place."""
    return hint_bot(seed).choose(view)
