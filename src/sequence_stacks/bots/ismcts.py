"""The ISMCTS bot: information-set Monte Carlo search over whole-turn plans.

At the first decision of a turn the bot lists the distinct ways its turn could go
(*plans*: the plays in order and the discard that ends it, R14) and keeps the
``candidates`` best by the heuristic's score. Each deal gives the cards it cannot see at
random (:func:`~sequence_stacks.engine.resample` of its own view) and plays every
candidate out on that same deal to the bot's next turn (opponents played by the
heuristic planner from their own views of the deal, Block windows by the heuristic's
rule, R29), where the position is valued by the ``leaf`` strategy (:class:`LeafValue`;
by default :class:`HeuristicLeaf`). With two players the candidates race: one clearly
behind the heuristic's first plan plays no more deals. The first plan is played unless
another did better on the same deals by more than ``z`` standard errors of the paired
difference; the rest of a chosen plan is followed while the view is as expected. A
Block window in which the bot holds a Block is searched the same way (a chip that would
win is always blocked). How each part works, why, and how it was tuned: docs/bots.md,
"``ismcts``". The parts live beside it: :mod:`.plans` (a turn's plans, one played on a
deal), :mod:`.playout` (a deal played on and valued) and :mod:`.leaf` (the values).

The RNG is injected (``seed``): the same seed and the same views give the same choices.
``time_budget_s`` adds an optional wall-clock limit (then choices depend on the machine).
"""

from __future__ import annotations

import dataclasses
import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Final, TypeVar

from sequence_stacks.engine import (
    Action,
    Phase,
    State,
    View,
    action_space,
    resample,
)

# The compiled function itself (the public name is typed for callers; compiled, this
# import is a native call: README, "The compiled engine").
from sequence_stacks.engine.play import apply_in_place

from .base import answer_window, legal_actions_of
from .heuristic import Evaluator, should_block, window_chip_needs
from .leaf import LEAF_FEATURES, HeuristicLeaf, LeafValue, leaf_features
from .plans import (
    BLOCK,
    PASS,
    PLANNER_NODES,
    Plan,
    enumerate_plans,
    play_unblocked,
    signature,
    view_signature,
)
from .playout import Rollout
from .weights import DEFAULT_WEIGHTS, Weights

__all__ = [
    "LEAF_FEATURES",
    "BlockSearch",
    "HeuristicLeaf",
    "IsmctsBot",
    "LeafValue",
    "PlanStats",
    "Search",
    "default_candidates",
    "default_iterations",
    "default_race",
    "default_work_limit",
    "leaf_features",
]

# Deals per search by default: 48 / players (24 with two players without racing). A
# playout plays one turn per opponent, so a search costs about the same at every size.
_ITERATION_WORK: Final = 48
# A search stops dealing (after at least two deals) before its playouts would score more
# than this many positions (Evaluator.evaluate calls, most of a playout's time), per
# table size. Counted, not timed, so the choice stays a function of the seed and the
# view (how the caps were set: docs/bots.md, "Tuning history").
_WORK_LIMIT: Final = {2: 24_000, 3: 16_000, 4: 15_000, 5: 12_000, 6: 10_000}
# Racing (two players by default): from the _RACE_FROM-th deal on, a candidate that is
# behind the heuristic's first plan by a standard error or more of the paired difference
# is dropped and plays no more deals, so the deals go to the candidates still in the race.
# The deals and the work cap of a racing search, per table size.
_RACE_FROM: Final = 8
_RACE_ITERATIONS: Final = {2: 48}
_RACE_WORK_LIMIT: Final = {2: 36_000}
# Candidate plans searched by default: the heuristic's eight best with two players, five
# with more (every candidate costs a playout per deal).
_CANDIDATES: Final = {2: 8}
_CANDIDATES_MANY: Final = 5
DEFAULT_Z: Final = 2.0
_SURE_WIN: Final = 500_000.0


_T = TypeVar("_T")


@dataclasses.dataclass(slots=True)
class PlanStats:
    """A searched candidate plan and its playout values (one per determinization it
    played: a plan dropped from a race has those of the first deals only)."""

    ids: tuple[int, ...]
    heuristic_score: float
    values: list[float]

    @property
    def mean(self) -> float:
        """The mean playout value (an estimated win probability)."""
        return statistics.fmean(self.values) if self.values else 0.0


@dataclasses.dataclass(slots=True)
class BlockSearch:
    """What one Block-window decision found: the answer and the playout values of
    blocking and of passing on the same deals (empty when nothing was searched)."""

    chosen_block: bool
    block_values: list[float]
    pass_values: list[float]


@dataclasses.dataclass(slots=True)
class Search:
    """What one search found: the candidates (heuristic's first first) and the choice."""

    plans: list[PlanStats]
    chosen: int
    iterations: int


def default_iterations(player_count: int, *, race: bool = False) -> int:
    """The default number of deals per search at a table of ``player_count`` seats
    (``race``: of a racing search)."""
    plain = max(1, round(_ITERATION_WORK / player_count))
    return _RACE_ITERATIONS.get(player_count, plain) if race else plain


def default_race(player_count: int) -> bool:
    """Whether the search races its candidates by default at a table of that size."""
    return player_count in _RACE_ITERATIONS


def default_candidates(player_count: int) -> int:
    """The default number of candidate plans searched at a table of that size."""
    return _CANDIDATES.get(player_count, _CANDIDATES_MANY)


def default_work_limit(player_count: int, *, race: bool = False) -> int:
    """The default cap on positions scored per search at a table of that size
    (``race``: of a racing search)."""
    plain = _WORK_LIMIT[min(max(player_count, 2), 6)]
    return _RACE_WORK_LIMIT.get(player_count, plain) if race else plain


class IsmctsBot:
    """Information-set Monte Carlo search over turn plans (see the module docstring).

    Args:
        seed: seeds the bot's RNG (the deals it imagines).
        iterations: determinizations per search; every candidate plays out on each.
            None (the default): :func:`default_iterations` of the table's size.
        time_budget_s: an optional wall-clock limit per search, in seconds.
        candidates: how many of the heuristic's best plans are searched. None (the
            default): :func:`default_candidates` of the table's size.
        z: how many standard errors better than the heuristic's first plan another
            candidate must be to be chosen.
        work_limit: positions the playouts of one search may score: after at least two
            deals, no deal is started that would pass it at the average cost of the
            deals played so far. None (the default):
            :func:`default_work_limit` of the table's size.
        leaf: how a playout values the position where the bot's next turn starts
            (:class:`LeafValue`). None (the default): :class:`HeuristicLeaf`, the
            learned two-player model where it applies.
        block_search: search Block windows (both answers played out on the same deals,
            :meth:`decide_block`); False answers them by the heuristic's rule alone.
        race: drop, from the eighth deal on, candidates a standard error or more behind
            the heuristic's first plan, so the deals go to the rest (then the default
            deals and work cap are those of a racing search). None (the default):
            :func:`default_race` of the table's size (two players).
        budget_scale: multiplies the default deals and work cap (those not given as
            ``iterations`` and ``work_limit``) of every search: 2.0 searches twice as
            long at every table size.
        opponent_nodes: the node budget of each opponent's planner in a playout.
        horizon: rounds a playout plays before its leaf value (:class:`Rollout`).
        weights: the heuristic's weights (bots/weights.py) for ranking its own plans and
            its unsearched Block answers; the playouts and the leaf keep the defaults.
        dealer: how deals are drawn, ``dealer(view, rng)``; None: ``resample`` of the
            bot's own view (another is for measurement: docs/bots.md, "The expert").
    """

    def __init__(
        self,
        *,
        seed: int | None = None,
        iterations: int | None = None,
        time_budget_s: float | None = None,
        candidates: int | None = None,
        z: float = DEFAULT_Z,
        work_limit: int | None = None,
        leaf: LeafValue | None = None,
        block_search: bool = True,
        race: bool | None = None,
        budget_scale: float = 1.0,
        opponent_nodes: int = PLANNER_NODES,
        horizon: int = 1,
        weights: Weights = DEFAULT_WEIGHTS,
        dealer: Callable[[View, random.Random], State] | None = None,
    ) -> None:
        if iterations is not None and iterations < 1:
            raise ValueError("iterations must be at least 1")
        if candidates is not None and candidates < 1:
            raise ValueError("candidates must be at least 1")
        if work_limit is not None and work_limit < 1:
            raise ValueError("work_limit must be at least 1")
        if not budget_scale > 0.0:
            raise ValueError("budget_scale must be positive")
        self.name = "ismcts"
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.time_budget_s = time_budget_s
        self.candidate_count = candidates
        self.z = z
        self.work_limit = work_limit
        self.block_search = block_search
        self.race = race
        self.budget_scale = budget_scale
        self.weights = weights
        self.dealer = dealer
        if leaf is None:
            leaf = HeuristicLeaf()
        self.rollout = Rollout(leaf, opponent_nodes=opponent_nodes, horizon=horizon)
        self._pending: list[int] = []
        self._expected: list[tuple[object, ...]] = []

    @property
    def leaf(self) -> LeafValue:
        """How the playouts value the position where the bot's next turn starts."""
        return self.rollout.leaf

    # --- choosing ------------------------------------------------------------------

    def choose(self, view: View) -> Action:
        """Answer a Block window by the heuristic's rule; otherwise follow the current
        plan while the view is as expected, else search for a new one."""
        if view.phase == Phase.BLOCK_WINDOW:
            return answer_window(view, lambda asked: self.decide_block(asked).chosen_block)
        legal = legal_actions_of(view)
        assert view.seat is not None
        if view.turn_actions == 0:  # a turn's first decision: an earlier plan is done
            self._pending = []
        if len(legal) == 1:
            self._pending = []
            return legal[0][1]
        table = action_space(view.settings.player_count, view.settings.piles_per_colour)
        actions = table.actions_of(view.seat)
        if (
            self._pending
            and self._expected
            and self._expected[0] == view_signature(view)
            and self._pending[0] in view.legal_action_ids
        ):
            self._expected.pop(0)
            return actions[self._pending.pop(0)]
        result = self.search(view)
        plan = result.plans[result.chosen].ids
        self._follow(view, plan)
        return actions[self._pending.pop(0)]

    def _follow(self, view: View, plan: tuple[int, ...]) -> None:
        """Adopt ``plan`` and the signatures the bot's views should show along it."""
        assert view.seat is not None
        seat = view.seat
        state = resample(view, seat, random.Random(0))  # only own and public cards used
        table = action_space(view.settings.player_count, view.settings.piles_per_colour)
        actions = table.actions_of(seat)
        self._pending = list(plan)
        self._expected = []
        for action_id in plan[:-1]:
            if play_unblocked(state, seat, actions[action_id]):
                break  # a draw (R18): search again then
            self._expected.append(signature(state, seat))
        del self._pending[len(self._expected) + 1 :]

    # --- Block windows (R29) --------------------------------------------------------

    def decide_block(self, view: View) -> BlockSearch:
        """Whether to Block the completion in ``view``'s open window (the bot holds a
        Block). A chip that would win is always blocked; otherwise, with ``block_search``,
        both answers are played out on the same deals up to the bot's next turn and the
        heuristic's rule is overruled only when the other answer is better by ``z``
        standard errors; without it, the rule decides."""
        rule = should_block(view, self.weights)
        needs = window_chip_needs(view)  # None: no chip to take (R17), nothing to stop
        if not self.block_search or needs is None or needs[1] == 0:
            return BlockSearch(rule, [], [])
        assert view.seat is not None
        seat = view.seat
        evaluator = Evaluator.from_view(view)
        answers = (rule, not rule)  # the rule's answer first: it stands unless beaten

        def playout(deal: State, blocks: bool) -> tuple[float, int]:
            state = deal.clone()
            apply_in_place(state, seat, BLOCK if blocks else PASS, checked=False)
            return self.rollout.to_next_turn(state, seat=seat, evaluator=evaluator, played=0)

        values, _ = self._sample(view, None, answers, playout, race=False)
        by_answer = dict(zip(answers, values, strict=True))
        return BlockSearch(answers[_pick(values, self.z)], by_answer[True], by_answer[False])

    # --- searching -----------------------------------------------------------------

    def search(self, view: View) -> Search:
        """Search the candidate plans from ``view`` (the bot's turn, playing phase)."""
        assert view.seat is not None
        seat = view.seat
        settings = view.settings
        actions = action_space(settings.player_count, settings.piles_per_colour).actions_of(seat)
        evaluator = Evaluator.from_view(view)
        # The playouts score with the defaults (the leaf is fitted to them); the bot's own
        # candidates are ranked with its weights: one evaluator when they are the same.
        weights = self.weights
        ranker = evaluator if weights == DEFAULT_WEIGHTS else Evaluator.from_view(view, weights)
        first = self._deal(view)
        count = self.candidate_count or default_candidates(settings.player_count)
        plans = enumerate_plans(first, seat, actions, ranker)[:count]
        if len(plans) == 1 or plans[0].score >= _SURE_WIN:
            return Search([PlanStats(plan.ids, plan.score, []) for plan in plans], 0, 0)

        rollout = self.rollout

        def playout(deal: State, plan: Plan) -> tuple[float, int]:
            return rollout.play(deal, seat=seat, plan=plan, actions=actions, evaluator=evaluator)

        race = default_race(settings.player_count) if self.race is None else self.race
        values, done = self._sample(view, first, plans, playout, race=race)
        stats = [PlanStats(p.ids, p.score, v) for p, v in zip(plans, values, strict=True)]
        return Search(stats, _pick(values, self.z), done)

    def compare(self, view: View, plans: Sequence[Sequence[int]]) -> list[PlanStats]:
        """Play the given plans (action ids from ``view``, its seat's turn) out on the
        same deals, as :meth:`search` plays its candidates (without racing); return
        their values in order. A plan may be one first action: the planner plays the
        rest of the turn (how a review prices a move the bot did not choose)."""
        assert view.seat is not None
        seat = view.seat
        settings = view.settings
        actions = action_space(settings.player_count, settings.piles_per_colour).actions_of(seat)
        evaluator = Evaluator.from_view(view)
        options = [Plan(0.0, tuple(ids)) for ids in plans]

        rollout = self.rollout

        def playout(deal: State, plan: Plan) -> tuple[float, int]:
            return rollout.play(deal, seat=seat, plan=plan, actions=actions, evaluator=evaluator)

        values, _ = self._sample(view, None, options, playout, race=False)
        return [PlanStats(p.ids, p.score, v) for p, v in zip(options, values, strict=True)]

    def _sample(
        self,
        view: View,
        first: State | None,
        options: Sequence[_T],
        playout: Callable[[State, _T], tuple[float, int]],
        *,
        race: bool,
    ) -> tuple[list[list[float]], int]:
        """Play every option out on each of a search's deals (``first``, if given, is the
        first deal); return each option's values, one per deal it played, and the deals.

        The budget: ``iterations`` deals; after at least two, no deal is started that
        would take the work (positions scored) past ``work_limit`` at the average cost
        per playout so far, nor any once ``time_budget_s`` has passed. ``race``: from
        the ``_RACE_FROM``-th deal on, an option a standard error or more behind the first
        (the paired difference over the deals it played) plays no more deals; its values
        stop there (a prefix of the deals), and the search ends when only the first is
        left."""
        player_count = view.settings.player_count
        scale = self.budget_scale
        iterations = self.iterations or max(
            2, round(default_iterations(player_count, race=race) * scale)
        )
        work_limit = self.work_limit or max(
            1, round(default_work_limit(player_count, race=race) * scale)
        )
        deadline = None if self.time_budget_s is None else time.perf_counter() + self.time_budget_s
        values: list[list[float]] = [[] for _ in options]
        running = list(range(len(options)))
        done = work = playouts = 0
        for index in range(iterations):
            deal = first if index == 0 and first is not None else self._deal(view)
            for option in running:
                value, nodes = playout(deal, options[option])
                values[option].append(value)
                work += nodes
            playouts += len(running)
            done += 1
            if race and done >= _RACE_FROM:
                running = [i for i in running if i == 0 or not _behind(values[i], values[0])]
                if len(running) == 1:
                    break
            # The next deal would pass the cap at the average cost per playout so far
            # (without racing exactly the average cost per deal: integer operands).
            if done >= 2 and work + work * len(running) / playouts > work_limit:
                break
            if deadline is not None and done >= 2 and time.perf_counter() >= deadline:
                break
        return values, done

    def _deal(self, view: View) -> State:
        """A determinization: the cards the bot cannot see dealt again (R35, R36)."""
        assert view.seat is not None
        if self.dealer is not None:  # a bound's dealer (docs/bots.md), never a bot's
            return self.dealer(view, self.rng)
        return resample(view, view.seat, self.rng)


def _pick(values: list[list[float]], z: float) -> int:
    """The first option (the heuristic's choice), unless another beats it clearly on
    the same deals: by more than ``z`` standard errors of the paired difference."""
    best, best_gain = 0, 0.0
    base = values[0]
    for index in range(1, len(values)):
        gain, error = _paired(values[index], base)
        if gain > best_gain and gain > z * error:
            best, best_gain = index, gain
    return best


def _paired(values: list[float], base: list[float]) -> tuple[float, float]:
    """The mean and standard error of ``values`` minus ``base`` over the deals both
    played (``values`` may stop early: a raced-out option's deals are a prefix)."""
    diffs = [a - b for a, b in zip(values, base, strict=False)]
    gain = statistics.fmean(diffs)
    error = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.inf
    return gain, error


def _behind(values: list[float], base: list[float]) -> bool:
    """Whether an option is out of the race: a standard error or more behind the first
    (an option that never differed from the first is out too: it cannot be chosen)."""
    gain, error = _paired(values, base)
    return gain + error <= 0.0
