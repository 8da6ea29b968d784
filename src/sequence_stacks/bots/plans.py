"""Turn plans for the search bots: every way a turn could go, and playing one on a deal.

A *plan* is the action ids of one seat's turn in order, ending with the discard that
ends it (R14), scored by the heuristic's :class:`~.heuristic.Evaluator`. The ISMCTS bot
(:mod:`.ismcts`) lists them with :func:`enumerate_plans`, plays them out on its deals
(:mod:`.playout`) and follows the chosen one while its view shows what the plan expects
(:func:`signature`, :func:`view_signature`). How they are used: docs/bots.md, "ismcts".
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Final

from sequence_stacks.engine import (
    CARD_KIND,
    Action,
    ActionType,
    Kind,
    Phase,
    State,
    View,
    hand_has,
    legal_action_ids,
    observe,
    pass_window,
)

# The compiled function itself (the public name is typed for callers; compiled, this
# import is a native call: README, "The compiled engine").
from sequence_stacks.engine.play import apply_in_place

from .heuristic import CONTINUING, Evaluator, Planner, plan_key, should_block

__all__ = [
    "BLOCK",
    "PASS",
    "PLANNER_NODES",
    "Plan",
    "answer_by_rule",
    "enumerate_plans",
    "finish_turn",
    "play_unblocked",
    "signature",
    "view_signature",
]

# Nodes of a plan listing (the turn's plans) and of a planner's turn inside a playout.
PLAN_NODES: Final = 400
PLANNER_NODES: Final = 150
PASS: Final = Action(ActionType.PASS)
BLOCK: Final = Action(ActionType.BLOCK)


@dataclasses.dataclass(frozen=True, slots=True)
class Plan:
    """One way the turn could go: the action ids in order and the heuristic's score.

    A plan may stop where the hand empties and five cards are drawn (R18): what
    follows depends on the draw and is played by the planner.
    """

    score: float
    ids: tuple[int, ...]


def signature(state: State, seat: int) -> tuple[object, ...]:
    """What the bot compares to tell whether its plan is still on course."""
    return (
        tuple(sorted(CARD_KIND[card] for card in state.hands[seat])),
        tuple(len(pile) for pile in state.piles),
        tuple(len(pile) for pile in state.discards),
        tuple(tuple(chips) for chips in state.chips),
        state.turn_count,
        state.phase,
    )


def view_signature(view: View) -> tuple[object, ...]:
    return (
        tuple(sorted(CARD_KIND[card] for card in view.hand or ())),
        tuple(len(pile) for pile in view.piles),
        tuple(len(pile) for pile in view.discards),
        tuple(tuple(chips) for chips in view.chips),
        view.turn_count,
        view.phase,
    )


def enumerate_plans(
    state: State, seat: int, table: Sequence[Action], evaluator: Evaluator
) -> list[Plan]:
    """Every distinct way the turn could go from ``state`` (bounded), scored by the
    heuristic's evaluator, best first. Nobody blocks in these plans (R29)."""
    plans: list[Plan] = []
    seen: set[tuple[object, ...]] = set()
    nodes = 0

    def walk(node: State, path: tuple[int, ...], played: int) -> None:
        nonlocal nodes
        if node.is_over or node.current != seat or node.phase != Phase.PLAYING:
            plans.append(Plan(evaluator.evaluate(node, None, played), path))
            return
        key = plan_key(node, seat, played)
        if key in seen:
            return
        seen.add(key)
        nodes += 1
        for action_id in legal_action_ids(node, seat):
            action = table[action_id]
            step = (*path, action_id)
            if action.type == ActionType.DISCARD:
                score = evaluator.evaluate(node, int(action.kind or 0), played)
                plans.append(Plan(score, step))
            elif action.type not in CONTINUING:
                plans.append(Plan(evaluator.evaluate(node, None, played), step))
            elif nodes < PLAN_NODES:
                child = node.clone()
                drew = play_unblocked(child, seat, action)
                now = played + (action.type == ActionType.PLAY)
                playing = child.phase == Phase.PLAYING
                if drew and child.current == seat and playing and not child.is_over:
                    plans.append(Plan(evaluator.evaluate(child, None, now), step))
                else:
                    walk(child, step, now)

    walk(state, (), 0)
    plans.sort(key=lambda plan: -plan.score)
    return plans


def play_unblocked(state: State, seat: int, action: Action) -> bool:
    """Play ``seat``'s legal ``action`` on ``state`` as the plans assume, every asked
    seat passing a Block window it opens (R29); return whether the hand emptied and
    ``seat`` drew a new one (R18), which the plan cannot foresee."""
    before = len(state.hands[seat])
    apply_in_place(state, seat, action, checked=False)
    pass_window(state)
    kept = action.from_discard or action.type == ActionType.STEAL_CARD
    return len(state.hands[seat]) > before - (0 if kept else 1)


def answer_by_rule(state: State) -> None:
    """Every asked seat answers by the heuristic's rule from its own view of the deal."""
    while state.phase == Phase.BLOCK_WINDOW:
        asked = state.current_player()
        assert asked is not None
        view = observe(state, asked)
        block = hand_has(state, asked, Kind.BLOCK) and should_block(view)
        apply_in_place(state, asked, BLOCK if block else PASS, checked=False)


def finish_turn(state: State, seat: int, planner: Planner) -> int:
    """Play the rest of ``seat``'s turn by the planner; return the cards it laid."""
    turn = state.turn_count
    played = 0
    planner.node_budget = PLANNER_NODES
    while not state.is_over and state.current == seat and state.turn_count == turn:
        if state.phase == Phase.BLOCK_WINDOW:
            answer_by_rule(state)
            continue
        planner.nodes = 0
        _, best = planner.best(state, played)
        action = planner.table[best[0]]
        played += action.type == ActionType.PLAY
        apply_in_place(state, seat, action, checked=False)
        answer_by_rule(state)
    return played
