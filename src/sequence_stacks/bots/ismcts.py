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
win is always blocked). Two-player deals may be weighted by one inference
(``inference``). How each part works, why, and how it was tuned: docs/bots.md,
"``ismcts``".

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
from typing import Final, Protocol, TypeVar

from sequence_stacks.engine import (
    CARD_COLOUR,
    CARD_KIND,
    COLOURS,
    Action,
    ActionType,
    Kind,
    Phase,
    Settings,
    State,
    View,
    action_space,
    chips_needed,
    hand_has,
    kind_rank,
    legal_action_ids,
    observe,
    pass_window,
    resample,
)

# The compiled function itself (the public name is typed for callers; compiled, this
# import is a native call: README, "The compiled engine").
from sequence_stacks.engine.play import apply_in_place

from .base import answer_window, legal_actions_of
from .heuristic import (
    CONTINUING,
    PLAYED_CREDIT,
    Evaluator,
    Planner,
    plan_key,
    should_block,
    window_chip_needs,
)

__all__ = [
    "LEAF_FEATURES",
    "BlockSearch",
    "HeuristicLeaf",
    "IsmctsBot",
    "LeafValue",
    "PlanStats",
    "Search",
    "could_complete",
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
DEFAULT_REDEAL: Final = 30
_PLAN_NODES: Final = 400
_PLANNER_NODES: Final = 150
_PLAYOUT_CAP: Final = 400
_SURE_WIN: Final = 500_000.0
# Logistic value of the planner's score at the start of a turn, per player count:
# P(win) = 1 / (1 + exp(-(score + offset) / scale)); counts without a curve use the
# nearest one (fitted by benchmarks/fit_ismcts_value.py; docs/bots.md). Two players use
# it only for win conditions other than the default, or with HeuristicLeaf(learned=False).
_VALUE_CURVE: Final = {2: (950.0, 300.0), 4: (435.0, 575.0)}
# Names of the features of the learned leaf value, in the order of its weights.
LEAF_FEATURES: Final = (
    "bias",
    "score",
    *(f"need={count}" for count in range(1, 6)),
    *(f"opponent_need={count}" for count in range(1, 6)),
    "wilds",
    "blocks",
    "blocks_when_close",
    "steal_chips",
    "skips",
)
# Two players, default win condition: P(win) = 1 / (1 + exp(-w . leaf_features)), the
# weights w fitted by `python -m benchmarks.fit_ismcts_value --players 2 --games 1000
# --seed 11 12` (docs/bots.md).
_LEARNED_2P: Final = (
    0.493,  # bias
    0.843,  # score
    *(0.984, 0.47, 0.092, -0.336, -0.717),  # need=1..5
    *(-0.622, -0.279, 0.13, 0.492, 0.77),  # opponent_need=1..5
    0.201,  # wilds
    0.066,  # blocks
    0.593,  # blocks_when_close
    0.606,  # steal_chips
    0.139,  # skips
)


_T = TypeVar("_T")
_PASS: Final = Action(ActionType.PASS)
_BLOCK: Final = Action(ActionType.BLOCK)

# (turn, previous seat, pile lengths, its discard top, the chip supply) at a turn's start.
_Constraint = tuple[int, int, tuple[int, ...], int | None, tuple[int, int] | None]


@dataclasses.dataclass(frozen=True, slots=True)
class _Plan:
    """One way the turn could go: the action ids in order and the heuristic's score.

    A plan may stop where the hand empties and five cards are drawn (R18): what
    follows depends on the draw and is played by the planner.
    """

    score: float
    ids: tuple[int, ...]


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


def _signature(state: State, seat: int) -> tuple[object, ...]:
    """What the bot compares to tell whether its plan is still on course."""
    return (
        tuple(sorted(CARD_KIND[card] for card in state.hands[seat])),
        tuple(len(pile) for pile in state.piles),
        tuple(len(pile) for pile in state.discards),
        tuple(tuple(chips) for chips in state.chips),
        state.turn_count,
        state.phase,
    )


def _view_signature(view: View) -> tuple[object, ...]:
    return (
        tuple(sorted(CARD_KIND[card] for card in view.hand or ())),
        tuple(len(pile) for pile in view.piles),
        tuple(len(pile) for pile in view.discards),
        tuple(tuple(chips) for chips in view.chips),
        view.turn_count,
        view.phase,
    )


def could_complete(
    cards: Sequence[int], lengths: Sequence[int], supply: Sequence[int] | None, settings: Settings
) -> bool:
    """Whether ``cards`` could complete, this turn, a pile of ``lengths`` holding two or
    more cards, of a colour whose chips are not used up (R15-R17)."""
    per_colour = settings.piles_per_colour
    for colour in COLOURS:
        if supply is not None and supply[colour] == 0:
            continue
        counts = [0] * 6  # per rank 1-5, then the wilds
        for card in cards:
            if CARD_COLOUR[card] == colour:
                counts[CARD_KIND[card] % 6] += 1
        wilds = counts[5]
        for length in lengths[colour * per_colour : (colour + 1) * per_colour]:
            if length < 2:
                continue
            missing = sum(1 for rank in range(length + 1, 6) if counts[rank - 1] == 0)
            if missing <= wilds:
                return True
    return False


def _enumerate_plans(
    state: State, seat: int, table: Sequence[Action], evaluator: Evaluator
) -> list[_Plan]:
    """Every distinct way the turn could go from ``state`` (bounded), scored by the
    heuristic's evaluator, best first. Nobody blocks in these plans (R29)."""
    plans: list[_Plan] = []
    seen: set[tuple[object, ...]] = set()
    nodes = 0

    def walk(node: State, path: tuple[int, ...], played: int) -> None:
        nonlocal nodes
        if node.is_over or node.current != seat or node.phase != Phase.PLAYING:
            plans.append(_Plan(evaluator.evaluate(node, None, played), path))
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
                plans.append(_Plan(score, step))
            elif action.type not in CONTINUING:
                plans.append(_Plan(evaluator.evaluate(node, None, played), step))
            elif nodes < _PLAN_NODES:
                child = node.clone()
                drew = _play_unblocked(child, seat, action)
                now = played + (action.type == ActionType.PLAY)
                playing = child.phase == Phase.PLAYING
                if drew and child.current == seat and playing and not child.is_over:
                    plans.append(_Plan(evaluator.evaluate(child, None, now), step))
                else:
                    walk(child, step, now)

    walk(state, (), 0)
    plans.sort(key=lambda plan: -plan.score)
    return plans


def _play_unblocked(state: State, seat: int, action: Action) -> bool:
    """Play ``seat``'s legal ``action`` on ``state`` as the plans assume, every asked
    seat passing a Block window it opens (R29); return whether the hand emptied and
    ``seat`` drew a new one (R18), which the plan cannot foresee."""
    before = len(state.hands[seat])
    apply_in_place(state, seat, action, checked=False)
    pass_window(state)
    kept = action.from_discard or action.type == ActionType.STEAL_CARD
    return len(state.hands[seat]) > before - (0 if kept else 1)


def _answer_window(state: State) -> None:
    """Every asked seat answers by the heuristic's rule from its own view of the deal."""
    while state.phase == Phase.BLOCK_WINDOW:
        asked = state.current_player()
        assert asked is not None
        view = observe(state, asked)
        block = hand_has(state, asked, Kind.BLOCK) and should_block(view)
        apply_in_place(state, asked, _BLOCK if block else _PASS, checked=False)


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
        inference: re-deal hands in which the last player could have completed a pile.
        work_limit: positions the playouts of one search may score: after at least two
            deals, no deal is started that would pass it at the average cost of the
            deals played so far. None (the default):
            :func:`default_work_limit` of the table's size.
        value: ``"learned"`` (the two-player model where it applies) or ``"curve"``:
            how the default ``leaf`` turns the planner's score into a win probability.
        leaf: how a playout values the position where the bot's next turn starts
            (:class:`LeafValue`). None (the default): :class:`HeuristicLeaf` of ``value``.
        block_search: search Block windows (both answers played out on the same deals,
            :meth:`decide_block`); False answers them by the heuristic's rule alone.
        race: drop, from the eighth deal on, candidates a standard error or more behind
            the heuristic's first plan, so the deals go to the rest (then the default
            deals and work cap are those of a racing search). None (the default):
            :func:`default_race` of the table's size (two players).
        budget_scale: multiplies the default deals and work cap (those not given as
            ``iterations`` and ``work_limit``) of every search: 2.0 searches twice as
            long at every table size.
    """

    def __init__(
        self,
        *,
        seed: int | None = None,
        iterations: int | None = None,
        time_budget_s: float | None = None,
        candidates: int | None = None,
        z: float = DEFAULT_Z,
        inference: bool = False,
        work_limit: int | None = None,
        leaf: LeafValue | None = None,
        block_search: bool = True,
        race: bool | None = None,
        budget_scale: float = 1.0,
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
        self.inference = inference
        self.work_limit = work_limit
        self.block_search = block_search
        self.race = race
        self.budget_scale = budget_scale
        self.leaf: LeafValue = HeuristicLeaf() if leaf is None else leaf
        self._pending: list[int] = []
        self._expected: list[tuple[object, ...]] = []
        self._constraint: _Constraint | None = None
        self._last_turn = -2

    # --- choosing ------------------------------------------------------------------

    def choose(self, view: View) -> Action:
        """Answer a Block window by the heuristic's rule; otherwise follow the current
        plan while the view is as expected, else search for a new one."""
        if view.phase == Phase.BLOCK_WINDOW:
            return answer_window(view, lambda asked: self.decide_block(asked).chosen_block)
        legal = legal_actions_of(view)
        assert view.seat is not None
        self._note_turn_start(view)
        if len(legal) == 1:
            self._pending = []
            return legal[0][1]
        table = action_space(view.settings.player_count, view.settings.piles_per_colour)
        actions = table.actions_of(view.seat)
        if (
            self._pending
            and self._expected
            and self._expected[0] == _view_signature(view)
            and self._pending[0] in view.legal_action_ids
        ):
            self._expected.pop(0)
            return actions[self._pending.pop(0)]
        result = self.search(view)
        plan = result.plans[result.chosen].ids
        self._follow(view, plan)
        return actions[self._pending.pop(0)]

    def _note_turn_start(self, view: View) -> None:
        """At a turn's first decision, remember what the previous player left (for the
        inference), unless the previous turn was the bot's own (a Skip, R26)."""
        if view.turn_actions != 0:
            return
        assert view.seat is not None
        count = view.settings.player_count
        previous = (view.seat - view.direction) % count
        own_again = view.turn_count == self._last_turn + 1
        self._last_turn = view.turn_count
        self._pending = []
        if own_again or count != 2:
            self._constraint = None
            return
        tops = view.discards[previous]
        self._constraint = (
            view.turn_count,
            previous,
            tuple(len(pile) for pile in view.piles),
            tops[-1] if tops else None,
            view.supply,
        )

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
            if _play_unblocked(state, seat, actions[action_id]):
                break  # a draw (R18): search again then
            self._expected.append(_signature(state, seat))
        del self._pending[len(self._expected) + 1 :]

    # --- Block windows (R29) --------------------------------------------------------

    def decide_block(self, view: View) -> BlockSearch:
        """Whether to Block the completion in ``view``'s open window (the bot holds a
        Block). A chip that would win is always blocked; otherwise, with ``block_search``,
        both answers are played out on the same deals up to the bot's next turn and the
        heuristic's rule is overruled only when the other answer is better by ``z``
        standard errors; without it, the rule decides."""
        rule = should_block(view)
        needs = window_chip_needs(view)  # None: no chip to take (R17), nothing to stop
        if not self.block_search or needs is None or needs[1] == 0:
            return BlockSearch(rule, [], [])
        assert view.seat is not None
        seat = view.seat
        evaluator = Evaluator.from_view(view)
        answers = (rule, not rule)  # the rule's answer first: it stands unless beaten

        def playout(deal: State, blocks: bool) -> tuple[float, int]:
            state = deal.clone()
            apply_in_place(state, seat, _BLOCK if blocks else _PASS, checked=False)
            return self._to_next_turn(state, seat=seat, evaluator=evaluator, played=0)

        values, _ = self._sample(view, None, answers, playout, race=False)
        by_answer = dict(zip(answers, values, strict=True))
        return BlockSearch(answers[self._pick(values)], by_answer[True], by_answer[False])

    # --- searching -----------------------------------------------------------------

    def search(self, view: View) -> Search:
        """Search the candidate plans from ``view`` (the bot's turn, playing phase)."""
        assert view.seat is not None
        seat = view.seat
        settings = view.settings
        actions = action_space(settings.player_count, settings.piles_per_colour).actions_of(seat)
        evaluator = Evaluator.from_view(view)
        first = self._deal(view)
        count = self.candidate_count or default_candidates(settings.player_count)
        plans = _enumerate_plans(first, seat, actions, evaluator)[:count]
        if len(plans) == 1 or plans[0].score >= _SURE_WIN:
            return Search([PlanStats(plan.ids, plan.score, []) for plan in plans], 0, 0)

        def playout(deal: State, plan: _Plan) -> tuple[float, int]:
            return self._playout(deal, seat=seat, plan=plan, actions=actions, evaluator=evaluator)

        race = default_race(settings.player_count) if self.race is None else self.race
        values, done = self._sample(view, first, plans, playout, race=race)
        stats = [PlanStats(p.ids, p.score, v) for p, v in zip(plans, values, strict=True)]
        return Search(stats, self._pick(values), done)

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
        options = [_Plan(0.0, tuple(ids)) for ids in plans]

        def playout(deal: State, plan: _Plan) -> tuple[float, int]:
            return self._playout(deal, seat=seat, plan=plan, actions=actions, evaluator=evaluator)

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

    def _pick(self, values: list[list[float]]) -> int:
        """The first option (the heuristic's choice), unless another beats it clearly on
        the same deals: by more than ``z`` standard errors of the paired difference."""
        best, best_gain = 0, 0.0
        base = values[0]
        for index in range(1, len(values)):
            gain, error = _paired(values[index], base)
            if gain > best_gain and gain > self.z * error:
                best, best_gain = index, gain
        return best

    def _deal(self, view: View) -> State:
        """A determinization, re-dealt while it contradicts the inference."""
        assert view.seat is not None
        state = resample(view, view.seat, self.rng)
        constraint = self._constraint
        if not self.inference or constraint is None or constraint[0] != view.turn_count:
            return state
        _, previous, lengths, top, supply = constraint
        for _ in range(DEFAULT_REDEAL):
            cards = list(state.hands[previous])
            if top is not None:
                cards.append(top)
            if not could_complete(cards, lengths, supply, view.settings):
                break
            state = resample(view, view.seat, self.rng)
        return state

    def _playout(
        self,
        deal: State,
        *,
        seat: int,
        plan: _Plan,
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
            _answer_window(state)
        if not state.is_over and state.current == seat and state.turn_count == turn:
            played += _finish_turn(state, seat, Planner(evaluator, seat, state.settings))
        work += evaluator.calls
        value, nodes = self._to_next_turn(state, seat=seat, evaluator=evaluator, played=played)
        return value, work + nodes

    def _to_next_turn(
        self,
        state: State,
        *,
        seat: int,
        evaluator: Evaluator,
        played: int,
    ) -> tuple[float, int]:
        """Play every other seat's turn on ``state`` (changed in place) up to the start of
        ``seat``'s next one and value it there (by :attr:`leaf`); ``played``: the cards
        ``seat`` laid in the turn just played.

        Returns the value and the positions scored on the way (the work)."""
        work = -evaluator.calls
        steps = 0
        planner: Planner | None = None
        planner_turn = -1
        opponent_played = 0
        while not state.is_over and not (state.phase == Phase.PLAYING and state.current == seat):
            steps += 1
            if steps > _PLAYOUT_CAP:
                break
            if state.phase == Phase.BLOCK_WINDOW:
                _answer_window(state)
                continue
            mover = state.current
            if planner is None or planner_turn != state.turn_count:
                if planner is not None:
                    work += planner.evaluator.calls
                own = Evaluator.from_view(observe(state, mover))
                planner = Planner(own, mover, state.settings, node_budget=_PLANNER_NODES)
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


class LeafValue(Protocol):
    """How an ISMCTS playout values a running position where the searching seat's turn
    starts: its probability of winning, from 0 to 1."""

    def __call__(self, state: State, seat: int, evaluator: Evaluator, played: int) -> float:
        """Value ``state`` for ``seat``. ``evaluator`` scores positions from the bot's
        own view (its calls are the search's work); ``played``: the cards ``seat`` laid
        in the turn it played in this playout."""
        ...


@dataclasses.dataclass(frozen=True, slots=True)
class HeuristicLeaf:
    """The default :class:`LeafValue`: the best score the heuristic planner finds for
    the turn (with the planner's credit for the cards laid in the turn before), as a
    win probability: the learned two-player model (:func:`leaf_features`) where it
    applies and ``learned`` is true, else a logistic curve of the score."""

    learned: bool = True

    def __call__(self, state: State, seat: int, evaluator: Evaluator, played: int) -> float:
        planner = Planner(evaluator, seat, state.settings, node_budget=_PLANNER_NODES)
        score = planner.search(state, 0) + PLAYED_CREDIT * played
        return self.probability(state, seat, score)

    def probability(self, state: State, seat: int, score: float) -> float:
        """The win probability of ``seat`` at the start of its turn in ``state``, from
        the planner's ``score``: the learned model where one applies, else the curve."""
        settings = state.settings
        if (
            self.learned
            and settings.player_count == 2
            and settings.chips_to_win == 5
            and settings.min_each_colour == 2
        ):
            features = leaf_features(state, seat, score)
            logit = math.fsum(w * x for w, x in zip(_LEARNED_2P, features, strict=True))
        else:
            offset, scale = _curve(settings.player_count)
            logit = (score + offset) / scale
        return 1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, logit))))


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


def _finish_turn(state: State, seat: int, planner: Planner) -> int:
    """Play the rest of ``seat``'s turn by the planner; return the cards it laid."""
    turn = state.turn_count
    played = 0
    planner.node_budget = _PLANNER_NODES
    while not state.is_over and state.current == seat and state.turn_count == turn:
        if state.phase == Phase.BLOCK_WINDOW:
            _answer_window(state)
            continue
        planner.nodes = 0
        _, best = planner.best(state, played)
        action = planner.table[best[0]]
        played += action.type == ActionType.PLAY
        apply_in_place(state, seat, action, checked=False)
        _answer_window(state)
    return played


def leaf_features(state: State, seat: int, score: float) -> list[float]:
    """The features (``LEAF_FEATURES``) of the learned leaf value of a two-player
    ``state`` at the start of ``seat``'s turn, where the planner scores its turn
    ``score``: the clipped score per 1000, the chips each side still needs (R31, one
    indicator per count 1-5), and the cards in hand the score undervalues (Blocks count
    again when the opponent needs two chips or fewer)."""
    settings = state.settings
    need = min(max(chips_needed(settings, state.chips[seat]), 1), 5)
    other = min(max(chips_needed(settings, state.chips[1 - seat]), 1), 5)
    wilds = blocks = steals = skips = 0
    for card in state.hands[seat]:
        kind = CARD_KIND[card]
        if kind == Kind.BLOCK:
            blocks += 1
        elif kind == Kind.SCHIP:
            steals += 1
        elif kind == Kind.SKIP:
            skips += 1
        elif kind_rank(kind) == 0:
            wilds += 1
    return [
        1.0,
        max(-3000.0, min(0.0, score)) / 1000.0,
        *(float(need == count) for count in range(1, 6)),
        *(float(other == count) for count in range(1, 6)),
        float(wilds),
        float(blocks),
        float(blocks if other <= 2 else 0),
        float(steals),
        float(skips),
    ]


def _curve(player_count: int) -> tuple[float, float]:
    nearest = min(_VALUE_CURVE, key=lambda count: abs(count - player_count))
    return _VALUE_CURVE[nearest]
