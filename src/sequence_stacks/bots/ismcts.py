"""The ISMCTS bot: single-observer information-set Monte Carlo tree search.

Each iteration deals the cards the bot cannot see at random (a *determinization*,
:func:`~sequence_stacks.engine.resample` of the bot's own view), then walks one shared
tree of engine action ids from the root: the seat deciding at a node is
``state.current_player()`` (the turn owner, or each asked opponent of a Block window,
R29), and it picks the child that maximises its own component of the mean returns
vector plus a UCB bonus. Since the legal actions differ between determinizations, each
child counts how often it was *available* and that count replaces the parent's visit
count in the bonus (the subset-armed bandit of Cowling, Powley and Whitehouse, 2012).

The root searches the ``candidates`` best actions of the heuristic planner, and the tree
grows ``max_depth`` decisions deep within the bot's own turn (one by default). At a leaf,
an open Block window is answered by a greedy-lite default policy, then the rest of the
turn is valued by the heuristic planner on that determinization (or the ended turn by its
evaluator), squashed into [-1, 1]; a finished game scores its real returns. With
``look_ahead=True`` the leaf instead plays the turn out and the opponents' next turns by
greedy-lite, and scores the start of the bot's next turn (measured weaker; off).

The RNG is injected (``seed``), so with the default iteration budget the bot plays
identically for the same seed and view. ``time_budget_s`` adds a wall-clock limit
(then choices depend on the machine's speed).
"""

from __future__ import annotations

import math
import random
import time
from typing import Final

from sequence_stacks.engine import (
    Action,
    ActionSpace,
    ActionType,
    Kind,
    State,
    View,
    action_space,
    apply_in_place,
    kind_rank,
    legal_action_ids,
    resample,
)

from .base import legal_actions_of
from .heuristic import Evaluator, Planner, chips_needed, should_block

__all__ = ["DEFAULT_ITERATIONS", "IsmctsBot"]

DEFAULT_ITERATIONS: Final = 300
DEFAULT_CANDIDATES: Final = 4
DEFAULT_MAX_DEPTH: Final = 1
_EXPLORATION: Final = 0.25
_EVAL_SCALE: Final = 40.0
_LEAF_NODES: Final = 100
_CANDIDATE_NODES: Final = 300
_ROLLOUT_CAP: Final = 300

# Rollout codes per action id: what greedy-lite needs to know without decoding.
_OTHER: Final = 0
_PLAY: Final = 1
_DISCARD: Final = 2
_STEAL_CHIP: Final = 3
_SKIP: Final = 4
_BLOCK: Final = 5
_PASS: Final = 6


class _Node:
    """One tree node: statistics of the action that led here, and its children."""

    __slots__ = ("available", "children", "totals", "visits")

    def __init__(self, player_count: int) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.available = 0
        self.totals = [0.0] * player_count


class _Codes:
    """Per action space and seat: (code, kind, from_discard, slot offset) per id."""

    def __init__(self, space: ActionSpace, seat: int) -> None:
        self.table = space.actions_of(seat)
        self.rows: list[tuple[int, int, bool, int]] = []
        for action in self.table:
            kind = -1 if action.kind is None else int(action.kind)
            pile = -1 if action.pile is None else action.pile
            self.rows.append((_code(action), kind, action.from_discard, pile))


def _code(action: Action) -> int:
    return {
        ActionType.PLAY: _PLAY,
        ActionType.DISCARD: _DISCARD,
        ActionType.STEAL_CHIP: _STEAL_CHIP,
        ActionType.SKIP: _SKIP,
        ActionType.BLOCK: _BLOCK,
        ActionType.PASS: _PASS,
    }.get(action.type, _OTHER)


_DISCARD_KEEP: Final = {
    Kind.BLOCK: 50.0,
    Kind.SCHIP: 45.0,
    Kind.SKIP: 20.0,
    Kind.SCARD: 15.0,
    Kind.REV: 5.0,
}


class _Rollout:
    """The greedy-lite default policy: complete, extend, steal, else a cheap discard."""

    def __init__(self, state: State, rng: random.Random) -> None:
        settings = state.settings
        space = action_space(settings.player_count, settings.piles_per_colour)
        self.codes = [_Codes(space, seat) for seat in range(settings.player_count)]
        self.per_colour = settings.piles_per_colour
        self.rng = rng

    def choose(self, state: State, seat: int, ids: list[int]) -> int:
        """Return the id greedy-lite picks among the legal ``ids`` of ``seat``."""
        rows = self.codes[seat].rows
        if state.phase == 1:
            return self._answer(state, seat, ids, rows)
        best_id = -1
        best = 0.0
        discards: list[int] = []
        for action_id in ids:
            code, kind, from_discard, pile = rows[action_id]
            if code == _PLAY:
                score = self._play_score(state, kind, pile) + (0.5 if from_discard else 0.0)
            elif code == _STEAL_CHIP:
                score = 60.0
            elif code == _SKIP and state.player_count == 2:
                score = 40.0
            else:
                if code == _DISCARD:
                    discards.append(action_id)
                continue
            if score > best:
                best, best_id = score, action_id
        if best_id >= 0:
            return best_id
        if not discards:
            return ids[0]
        return self._discard(state, discards, rows)

    def _play_score(self, state: State, kind: int, pile: int) -> float:
        colour = kind // 6
        count = 0 if pile < 0 else len(state.piles[colour * self.per_colour + pile])
        if count == 4:
            supply = state.supply
            has_chip = state.settings.chip_supply is None or supply[colour] > 0
            return 100.0 if has_chip else 0.0
        if kind_rank(kind) == 0:
            return 0.0
        return 5.0 if count == 3 else 10.0 + count

    def _discard(
        self, state: State, discards: list[int], rows: list[tuple[int, int, bool, int]]
    ) -> int:
        best_id = discards[0]
        best = math.inf
        for action_id in discards:
            kind = rows[action_id][1]
            if kind >= 12:
                keep = _DISCARD_KEEP[Kind(kind)]
            elif kind_rank(kind) == 0:
                keep = 40.0
            else:
                keep = self.rng.random() * 10.0
            if keep < best:
                best, best_id = keep, action_id
        return best_id

    def _answer(
        self, state: State, seat: int, ids: list[int], rows: list[tuple[int, int, bool, int]]
    ) -> int:
        block = next((i for i in ids if rows[i][0] == _BLOCK), -1)
        if block >= 0:
            colour = state.window_slot // self.per_colour
            chips = state.chips[state.window_completer][:]
            chips[colour] += 1
            if chips_needed(chips, state.settings) == 0:
                return block
        return next(i for i in ids if rows[i][0] == _PASS)


class _Scorer:
    """Scores cut-off playouts for every seat, in [-1, 1] like the real returns.

    The searching seat's heuristic score (:class:`Evaluator`), relative to the root
    position's, is squashed by tanh; the other seats share its opposite (a paranoid
    reading, exact for two players). A finished game scores its real returns.
    """

    def __init__(self, view: View, state: State) -> None:
        assert view.seat is not None
        self.seat = view.seat
        self.evaluator = Evaluator.from_view(view)
        self.baseline = self.evaluator.evaluate(state, None, 0)
        self.start_baseline = self.evaluator.evaluate_start(state, 0)
        # One planner per decision: its memo holds no hidden card (hands of other
        # seats and the draw never enter a plan's key or score), so leaves share it.
        self.planner = Planner(self.evaluator, self.seat, state.settings, node_budget=_LEAF_NODES)

    def planned(self, state: State, played: int) -> list[float]:
        """The returns vector of the best plan for the rest of the searching seat's turn
        (the heuristic bot's turn planner, on this determinization)."""
        planner = self.planner
        planner.nodes = 0
        score = planner.search(state, played) - self.baseline
        return self._spread(math.tanh(score / _EVAL_SCALE), state.player_count)

    def finish_turn(self, state: State, *, me: int, turn: int) -> int:
        """Play the rest of ``me``'s turn by the planner's best plan; return cards played."""
        planner = self.planner
        table = planner.table
        played = 0
        while state.phase != 2 and state.turn_count == turn:
            if state.phase == 1:
                _pass_all(state)
                continue
            planner.nodes = 0
            _, best = planner.best(state, played)
            action = table[best[0]]
            played += action.type == ActionType.PLAY
            apply_in_place(state, me, action, checked=False)
        return played

    def next_turn(self, state: State, played: int) -> list[float]:
        """The returns vector once the other seats have played their turns: chips, the
        cards this seat played in its turn, and the hand it starts its next turn with."""
        result = state.result
        if result is not None:
            return list(result.returns)
        score = self.evaluator.evaluate_start(state, played) - self.start_baseline
        return self._spread(math.tanh(score / _EVAL_SCALE), state.player_count)

    def _spread(self, mine: float, count: int) -> list[float]:
        others = -mine / (count - 1)
        return [mine if seat == self.seat else others for seat in range(count)]

    def returns(self, state: State, played: int) -> list[float]:
        """The returns vector of a finished or cut-off playout (``played``: cards the
        searching seat laid on piles in it)."""
        result = state.result
        if result is not None:
            return list(result.returns)
        score = self.evaluator.evaluate_after_turn(state, played) - self.baseline
        mine = math.tanh(score / _EVAL_SCALE)
        count = state.player_count
        others = -mine / (count - 1)
        return [mine if seat == self.seat else others for seat in range(count)]


class IsmctsBot:
    """Single-observer ISMCTS over resampled deals (see the module docstring).

    Args:
        seed: seeds the bot's RNG (determinizations and rollouts).
        iterations: the iteration budget of one decision.
        time_budget_s: an optional wall-clock limit per decision, in seconds.
        exploration: the UCB constant (returns lie in [-1, 1]).
    """

    def __init__(
        self,
        *,
        seed: int | None = None,
        iterations: int = DEFAULT_ITERATIONS,
        time_budget_s: float | None = None,
        exploration: float = _EXPLORATION,
        candidates: int = DEFAULT_CANDIDATES,
        max_depth: int = DEFAULT_MAX_DEPTH,
        look_ahead: bool = False,
    ) -> None:
        if iterations < 1:
            raise ValueError("iterations must be at least 1")
        self.name = "ismcts"
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.time_budget_s = time_budget_s
        self.exploration = exploration
        self.candidate_count = candidates
        self.max_depth = max_depth
        self.look_ahead = look_ahead
        self.candidates: set[int] = set()

    def choose(self, view: View) -> Action:
        """Search from ``view`` and return the root action visited most."""
        legal = legal_actions_of(view)
        if len(legal) == 1:
            return legal[0][1]
        if view.phase == "block_window":
            block = should_block(view)
            kind = ActionType.BLOCK if block else ActionType.PASS
            return next(action for _, action in legal if action.type == kind)
        assert view.seat is not None
        root = self.search(view)
        best_id = max(
            (action_id for action_id, _ in legal),
            key=lambda i: _root_key(root.children.get(i), view.seat or 0),
        )
        return dict(legal)[best_id]

    def search(self, view: View) -> _Node:
        """Run the iterations from ``view`` and return the root of the tree."""
        assert view.seat is not None
        seat = view.seat
        count = view.settings.player_count
        root = _Node(count)
        deadline = None if self.time_budget_s is None else time.perf_counter() + self.time_budget_s
        rollout: _Rollout | None = None
        scorer: _Scorer | None = None
        for _ in range(self.iterations):
            state = resample(view, seat, self.rng)
            if rollout is None or scorer is None:
                rollout = _Rollout(state, self.rng)
                scorer = _Scorer(view, state)
                self.candidates = _candidates(scorer, state, self.candidate_count)
            self._iterate(root, state, rollout, scorer)
            if deadline is not None and time.perf_counter() >= deadline:
                break
        return root

    def _iterate(self, root: _Node, state: State, rollout: _Rollout, scorer: _Scorer) -> None:
        """One iteration: select and expand within the searching seat's turn, then score."""
        path = [root]
        node = root
        me = state.current
        turn = state.turn_count
        played = 0
        expanded = False
        while (
            not state.is_over
            and not expanded
            and state.turn_count == turn
            and len(path) <= self.max_depth
        ):
            seat = state.current_player()
            assert seat is not None
            ids = legal_action_ids(state, seat)
            if node is root and self.candidates:
                ids = [i for i in ids if i in self.candidates]
            for action_id in ids:
                child = node.children.get(action_id)
                if child is not None:
                    child.available += 1
            untried = [i for i in ids if i not in node.children]
            if untried:
                action_id = untried[0] if len(untried) == 1 else self.rng.choice(untried)
                child = _Node(state.player_count)
                child.available = 1
                node.children[action_id] = child
                expanded = True
            else:
                action_id = self._select(node, ids, seat)
                child = node.children[action_id]
            action = rollout.codes[seat].table[action_id]
            played += seat == me and action.type == ActionType.PLAY
            apply_in_place(state, seat, action, checked=False)
            node = child
            path.append(node)
        values = self._leaf_values(state, rollout, scorer, me=me, turn=turn, played=played)
        for visited in path:
            visited.visits += 1
            totals = visited.totals
            for index, value in enumerate(values):
                totals[index] += value

    def _leaf_values(
        self, state: State, rollout: _Rollout, scorer: _Scorer, *, me: int, turn: int, played: int
    ) -> list[float]:
        """Score a leaf: an open Block window is answered by greedy-lite; then the rest of
        the turn is planned (heuristic planner) or the finished turn is scored."""
        while state.phase == 1:
            seat = state.current_player()
            assert seat is not None
            action_id = rollout.choose(state, seat, legal_action_ids(state, seat))
            apply_in_place(state, seat, rollout.codes[seat].table[action_id], checked=False)
        if not self.look_ahead:
            if state.phase == 0 and state.current == me and state.turn_count == turn:
                return scorer.planned(state, played)
            return scorer.returns(state, played)
        played += scorer.finish_turn(state, me=me, turn=turn)
        steps = 0
        while (
            not state.is_over
            and steps < _ROLLOUT_CAP
            and not (state.phase == 0 and state.current == me)
        ):
            seat = state.current_player()
            assert seat is not None
            action_id = rollout.choose(state, seat, legal_action_ids(state, seat))
            apply_in_place(state, seat, rollout.codes[seat].table[action_id], checked=False)
            steps += 1
        return scorer.next_turn(state, played)

    def _select(self, node: _Node, ids: list[int], seat: int) -> int:
        best_id = ids[0]
        best = -math.inf
        constant = self.exploration
        for action_id in ids:
            child = node.children[action_id]
            mean = child.totals[seat] / child.visits
            score = mean + constant * math.sqrt(math.log(child.available) / child.visits)
            if score > best:
                best, best_id = score, action_id
        return best_id


def _candidates(scorer: _Scorer, state: State, count: int) -> set[int]:
    """The root actions worth searching: the ``count`` best by the heuristic planner on
    one determinization (ties included); empty (all actions) if ``count`` is 0."""
    if count <= 0:
        return set()
    planner = scorer.planner
    planner.nodes = 0
    planner.node_budget = _CANDIDATE_NODES
    scored = sorted(planner.scores(state, 0), reverse=True)
    planner.node_budget = _LEAF_NODES
    floor = scored[min(count, len(scored)) - 1][0]
    return {action_id for score, action_id in scored if score >= floor}


def _pass_all(state: State) -> None:
    """Answer an open Block window with passes (the planner's own assumption)."""
    while state.phase == 1:
        seat = state.current_player()
        assert seat is not None
        apply_in_place(state, seat, Action(ActionType.PASS), checked=False)


def _root_key(child: _Node | None, seat: int) -> tuple[int, float]:
    if child is None or child.visits == 0:
        return (0, -math.inf)
    return (child.visits, child.totals[seat] / child.visits)
