"""Hints in practice games (#15): the heuristic bot's choice for a player's own view.

A hint is computed from :func:`~sequence_stacks.engine.observe` of the asking seat, as
any bot's move is: never from other hands, the draw pile's order or the seed (R36).
"""

from __future__ import annotations

from sequence_stacks.bots import HeuristicBot
from sequence_stacks.engine import Action, View

from .table import Table

__all__ = ["hint_bot", "offers_hints", "suggestion"]


def hint_bot(seed: int) -> HeuristicBot:
    """The bot that gives hints, seeded so the same view gives the same hint."""
    return HeuristicBot(seed=seed)


def suggestion(view: View, *, seed: int) -> Action:
    """The hint for the view's seat: what the heuristic bot would do in its place."""
    return hint_bot(seed).choose(view)


def offers_hints(table: Table, seat: int | None) -> bool:
    """Hints are for practice (#15): for a seated player whose every other seat is a bot."""
    return seat is not None and table.is_practice_for(seat)
