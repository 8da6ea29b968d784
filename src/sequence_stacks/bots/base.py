"""The bot interface: a player that sees one seat's view and picks one legal action."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from sequence_stacks.engine import Action, ActionType, View, action_space

__all__ = ["Bot", "answer_window", "legal_actions_of"]


class Bot(Protocol):
    """A player that sees only its own seat's :class:`~sequence_stacks.engine.View`.

    Attributes:
        name: the registry name of the bot (``"random"``, ``"greedy"``, ...).
    """

    name: str

    def choose(self, view: View) -> Action:
        """Return one of the actions whose ids are in ``view.legal_action_ids``."""
        ...


def legal_actions_of(view: View) -> list[tuple[int, Action]]:
    """Decode the legal action ids of a seat's view into ``(id, action)`` pairs.

    Raises ValueError for a spectator's view or a seat with nothing to decide.
    """
    if view.seat is None:
        raise ValueError("a spectator's view has no actions to choose from")
    if not view.legal_action_ids:
        raise ValueError(f"seat {view.seat} has no legal action now (R38)")
    settings = view.settings
    table = action_space(settings.player_count, settings.piles_per_colour).actions_of(view.seat)
    return [(action_id, table[action_id]) for action_id in view.legal_action_ids]


def answer_window(view: View, wants_block: Callable[[View], bool]) -> Action:
    """A Block window's answer (R29) for ``view``'s seat: Block when it holds a Block
    and ``wants_block(view)`` (asked only then), else Pass."""
    legal = legal_actions_of(view)
    block = next((action for _, action in legal if action.type == ActionType.BLOCK), None)
    if block is not None and wants_block(view):
        return block
    return next(action for _, action in legal if action.type == ActionType.PASS)
