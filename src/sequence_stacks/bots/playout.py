"""ISMCTS playouts: a plan or a Block answer played out on one deal, the opponents'
turns after it, and the value where the searching seat's next turn starts.

On a deal (a :func:`~sequence_stacks.engine.resample` of the searching seat's view) the
plan's plays and discard are played, Block windows answered by the heuristic's rule
from each asked seat's own view of the deal (R29); then every opponent's turn up to the
seat's next one, each by the heuristic planner from that opponent's own view of the
deal, and the position is valued there by the :class:`~.leaf.LeafValue`. A game that
ends on the way scores 1 (won), 0 (lost) or 1/players (no winner). Each playout also
returns its work: the positions it scored (``Evaluator.evaluate`` calls), which caps a
search (docs/bots.md, "The work cap").
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Final

from sequence_stacks.engine import Action, ActionType, Phase, State, legal_action_ids, observe

# The compiled function itself (the public name is typed for callers; compiled, this
# import is a native call: README, "The compiled engine").
from sequence_stacks.engine.play import apply_in_place

from .heuristic import Evaluator, Planner
from .leaf import LeafValue
from .plans import PLANNER_NODES, Plan, answer_by_rule, finish_turn

__all__ = ["PLAYOUT_CAP", "Rollout"]

# Actions of the other seats a playout plays at most per round before it stops and
# values the position (a turn can cycle once a colour's chips run out).
PLAYOUT_CAP: Final = 400


@dataclasses.dataclass(frozen=True, slots=True)
class Rollout:
    """How a search plays its deals out and values them.

    Attributes:
        leaf: values the position where the searching seat's turn starts.
        opponent_nodes: the node budget of each opponent's planner in a playout.
        horizon: rounds played before the leaf: 1 values the seat's next turn; 2 plays
            that turn too by the planner (and the opponents' after it) and values the
            one after.
    """

    leaf: LeafValue
    opponent_nodes: int = PLANNER_NODES
    horizon: int = 1

    def play(
        self,
        deal: State,
        *,
        seat: int,
        plan: Plan,
        actions: Sequence[Action],
        evaluator: Evaluator,
    ) -> tuple[float, int]:
        """Play ``plan`` and the opponents' turns on ``deal``; value the next turn.

        Returns the value and the positions the playout scored (its work)."""
        state = deal.clone()
        turn = state.turn_count
        played = 0
        work = -evaluator.calls
        for action_id in plan.ids:
            if state.is_over or state.current != seat or state.phase != Phase.PLAYING:
                break
            if state.turn_count != turn or action_id not in legal_action_ids(state, seat):
                break
            action = actions[action_id]
            played += action.type == ActionType.PLAY
            apply_in_place(state, seat, action, checked=False)
            answer_by_rule(state)
        if not state.is_over and state.current == seat and state.turn_count == turn:
            played += finish_turn(state, seat, Planner(evaluator, seat, state.settings))
        work += evaluator.calls
        value, nodes = self.to_next_turn(state, seat=seat, evaluator=evaluator, played=played)
        return value, work + nodes

    def to_next_turn(
        self,
        state: State,
        *,
        seat: int,
        evaluator: Evaluator,
        played: int,
    ) -> tuple[float, int]:
        """Play every other seat's turn on ``state`` (changed in place) up to the start of
        ``seat``'s next one (with a longer ``horizon``, that turn by the planner and the
        others' again) and value it there (by :attr:`leaf`); ``played``: the cards
        ``seat`` laid in the turn just played.

        Returns the value and the positions scored on the way (the work)."""
        work = -evaluator.calls
        steps = 0
        planner: Planner | None = None
        planner_turn = -1
        opponent_played = 0
        rounds = 1
        while not state.is_over:
            if state.phase == Phase.PLAYING and state.current == seat:
                if rounds >= self.horizon:
                    break
                rounds += 1
                own = Planner(Evaluator.from_view(observe(state, seat)), seat, state.settings)
                played = finish_turn(state, seat, own)
                work += own.evaluator.calls
                continue
            steps += 1
            if steps > PLAYOUT_CAP * self.horizon:
                break
            if state.phase == Phase.BLOCK_WINDOW:
                answer_by_rule(state)
                continue
            mover = state.current
            if planner is None or planner_turn != state.turn_count:
                if planner is not None:
                    work += planner.evaluator.calls
                judge = Evaluator.from_view(observe(state, mover))
                planner = Planner(judge, mover, state.settings, node_budget=self.opponent_nodes)
                planner_turn, opponent_played = state.turn_count, 0
            planner.nodes = 0
            _, best = planner.best(state, opponent_played)
            action = planner.table[best[0]]
            opponent_played += action.type == ActionType.PLAY
            apply_in_place(state, mover, action, checked=False)
        if planner is not None:
            work += planner.evaluator.calls
        result = state.result
        if result is not None:
            work += evaluator.calls
            if result.winner is None:
                return 1.0 / state.player_count, work
            return (1.0 if result.winner == seat else 0.0), work
        value = self.leaf(state, seat, evaluator, played)
        return value, work + evaluator.calls
