"""Hints in practice games (#15, #27): the expert bot's choice for a player's own view,
and why, in one sentence.

A hint is computed from :func:`~sequence_stacks.engine.observe` of the asking seat, as
any bot's move is: never from other hands, the draw pile's order or the seed (R36). The
expert searches at the plain ``ismcts`` budget here (a hint answers in a fraction of a
second; docs/bots.md), and :func:`~sequence_stacks.bots.explain.explain` gives the
reason as a message key and its arguments (``hint.reason.*``), worded by the browser.
"""

from __future__ import annotations

from typing import Any, Final

from sequence_stacks.bots import IsmctsBot
from sequence_stacks.bots.expert import make_expert
from sequence_stacks.bots.explain import explain
from sequence_stacks.engine import Action, View

from .table import Table

__all__ = ["HINT_BUDGET_SCALE", "HINT_TIME_S", "hint_bot", "offers_hints", "reason", "suggestion"]

# The hint's search: the plain ismcts budget (the expert's is twice it) and a hard cap
# on the wall clock for a busy server (then the hint depends on the machine's speed).
HINT_BUDGET_SCALE: Final = 1.0
HINT_TIME_S: Final = 1.0


def hint_bot(seed: int) -> IsmctsBot:
    """The bot that gives hints, seeded so the same view gives the same hint."""
    return make_expert(seed=seed, budget_scale=HINT_BUDGET_SCALE, time_budget_s=HINT_TIME_S)


def suggestion(view: View, *, seed: int) -> Action:
    """The hint for the view's seat: what the hint bot would do in its place."""
    return hint_bot(seed).choose(view)


def reason(view: View, action: Action) -> dict[str, Any]:
    """Why ``action`` is the hint in ``view``: ``{"key", "args"}`` (a ``hint.reason.*``
    message and its data arguments: seats, a card kind, a pile as [colour, index])."""
    found = explain(view, action).to_dict()
    return {"key": found["key"], "args": found["args"]}


def offers_hints(table: Table, seat: int | None) -> bool:
    """Hints are for practice (#15): for a seated player whose every other seat is a bot."""
    return seat is not None and table.is_practice_for(seat)
