"""The heuristic bot: plans its whole turn, then scores where the turn would leave it.

Each decision rebuilds a full state from the bot's own view (:func:`resample`: hidden
cards dealt at random, which only matters if the bot's hand empties mid-plan, R18) and
searches the sequences of plays it could make this turn, discard-pile tops included
(R14: once a top is played the card beneath is playable, so plays are ordered to
unlock it). Each way of stopping is scored with the best discard by :func:`evaluate`:

- chips: its own chips needed to win, and a convex threat for each opponent, so a
  Steal-a-Chip goes to the leader and a completion that wins is taken at once;
- feeding: a pile left at three or four cards is priced by the chance that the
  opponents who play before its next turn can complete it (their known discard tops,
  else the unseen cards that fit), weighted by what that chip is worth to them;
- cards: played cards keep the hand flowing; wilds, Blocks and Steal-a-Chips are kept;
  a discard is chosen so that the new top is useful and a useful top is not buried;
  Skip (an extra turn with two players) and Reverse change who plays next.

Every number of the score and of the Block rule (R29, :func:`should_block`) is a field
of :class:`~.weights.Weights`; the bot plays with ``DEFAULT_WEIGHTS`` unless given others.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Sequence
from typing import Final

from sequence_stacks.engine import (
    CARD_KIND,
    Action,
    ActionType,
    Kind,
    Phase,
    Settings,
    State,
    View,
    action_space,
    chips_needed,
    deck_for,
    kind_colour,
    kind_rank,
    legal_action_ids,
    pass_window,
    resample,
)

# The compiled function itself (the public name is typed for callers; compiled, this
# import is a native call: README, "The compiled engine").
from sequence_stacks.engine.play import apply_in_place

from .base import answer_window, legal_actions_of
from .weights import DEFAULT_WEIGHTS, WIN, Weights

__all__ = [
    "CONTINUING",
    "PLAYED_CREDIT",
    "Evaluator",
    "HeuristicBot",
    "Planner",
    "plan_key",
    "should_block",
    "stacks_on",
    "window_chip_needs",
]

# What each card laid on a sequence pile in a turn is worth to the default weights (cards
# keep flowing, R13); the search's leaf adds it (bots/leaf.py).
PLAYED_CREDIT: Final = DEFAULT_WEIGHTS.played
# Card values by weights, then by table size and pile lengths (a few thousand keys in
# practice; shared by every evaluator of those weights, cleared if it ever grows past
# the bound).
_CARD_VALUES: Final[dict[Weights, dict[tuple[int, ...], list[float]]]] = {}
_CARD_VALUES_MAX: Final = 100_000
# The action types after which the turn goes on (a discard or a pass ends it, R19).
CONTINUING: Final = frozenset(
    {
        ActionType.PLAY,
        ActionType.SKIP,
        ActionType.REVERSE,
        ActionType.STEAL_CARD,
        ActionType.STEAL_CHIP,
    }
)


@dataclasses.dataclass(slots=True)
class Evaluator:
    """Scores positions for one seat; built once per decision from its view.

    Attributes:
        seat: the seat whose point of view is scored.
        unseen: per card kind, the cards that seat cannot see (others' hands, draw).
        unseen_total: how many cards that is.
        calls: how many positions it has scored (a measure of search work).
        weights: the numbers of the score (bots/weights.py; the ``heuristic`` bot's
            by default).

    What a score is built from depends on few facts of a position (the pile lengths,
    the chips, the discard tops), so those parts are remembered (the card values for
    every evaluator, the rest per evaluator: ``unseen`` is fixed once built): the scores
    are the same, only cheaper.
    """

    seat: int
    settings: Settings
    unseen: list[int]
    unseen_total: int
    calls: int = 0
    weights: Weights = DEFAULT_WEIGHTS
    _card_values: dict[tuple[int, ...], list[float]] = dataclasses.field(
        default_factory=dict, repr=False, compare=False
    )
    _chip_scores: dict[tuple[int, ...], float] = dataclasses.field(
        default_factory=dict, repr=False, compare=False
    )
    _chances: dict[tuple[int, int, int], float] = dataclasses.field(
        default_factory=dict, repr=False, compare=False
    )
    _worths: dict[tuple[int, int, int], float] = dataclasses.field(
        default_factory=dict, repr=False, compare=False
    )

    @classmethod
    def from_view(cls, view: View, weights: Weights = DEFAULT_WEIGHTS) -> Evaluator:
        """Count the cards ``view``'s seat cannot see, by kind; score with ``weights``."""
        assert view.seat is not None
        seen: set[int] = set(view.hand or ())
        for zone in (view.piles, view.discards, view.known_cards):
            for cards in zone:
                seen.update(cards)
        seen.update(view.special)
        seen.update(view.pool)
        settings = view.settings
        unseen = [0] * len(Kind)
        deck = deck_for(
            settings.player_count, keep_two_player_reverses=settings.two_player_reverses
        )
        for card in deck:
            if card not in seen:
                unseen[CARD_KIND[card]] += 1
        values = _CARD_VALUES.get(weights)
        if values is None:
            values = _CARD_VALUES[weights] = {}
        return cls(view.seat, settings, unseen, max(1, sum(unseen)), 0, weights, values)

    def fit_chance(self, kinds: Sequence[int], cards: int) -> float:
        """The chance that ``cards`` unseen cards hold at least one of ``kinds``."""
        share = sum(self.unseen[k] for k in kinds) / self.unseen_total
        return 1.0 - (1.0 - min(1.0, share)) ** cards

    def evaluate(self, state: State, discard_kind: int | None, played: int) -> float:
        """Score ``state`` for the seat as its turn ends by discarding ``discard_kind``.

        ``played`` counts the cards the seat has played this turn.
        """
        self.calls += 1
        if state.is_over:
            result = state.result
            assert result is not None
            return WIN if result.winner == self.seat else -WIN
        return (
            self._chip_score(state)
            + self.weights.played * played
            + self._hand_score(state, discard_kind)
            - self.feeding(state)
        )

    def _chip_score(self, state: State) -> float:
        key = tuple(itertools.chain.from_iterable(state.chips))
        known = self._chip_scores.get(key)
        if known is None:
            known = self._chip_scores[key] = self._chip_score_of(state)
        return known

    def _chip_score_of(self, state: State) -> float:
        settings = self.settings
        weights = self.weights
        score = -weights.need * chips_needed(settings, state.chips[self.seat])
        score += weights.own_chip * sum(state.chips[self.seat])
        count = state.player_count
        for other, chips in enumerate(state.chips):
            if other != self.seat:
                score -= weights.threat(chips_needed(settings, chips), count)
        return score

    def _hand_score(self, state: State, discard_kind: int | None) -> float:
        seat = self.seat
        values = self._values_of(state)
        kinds = [CARD_KIND[card] for card in state.hands[seat]]
        if discard_kind is not None:
            kinds.remove(discard_kind)
        score = 0.0
        counts = [0] * len(values)
        for kind in kinds:
            counts[kind] += 1
            score += values[kind] / counts[kind]
        own = state.discards[seat]
        old_top = CARD_KIND[own[-1]] if own else None
        weights = self.weights
        if discard_kind is not None:
            score += weights.discard_new * values[discard_kind]
            if old_top is not None:
                score -= weights.discard_old * values[old_top]
                if stacks_on(discard_kind, old_top):
                    score += weights.stack_bonus
        elif old_top is not None:
            score += weights.keep_top * values[old_top]
        return score

    def _values_of(self, state: State) -> list[float]:
        """What holding one card of each kind is worth with ``state``'s piles."""
        key = (state.player_count, *map(len, state.piles))
        known = self._card_values
        values = known.get(key)
        if values is None:
            if len(known) >= _CARD_VALUES_MAX:
                known.clear()
            weights = self.weights
            values = known[key] = [_card_value(state, kind, weights) for kind in range(len(Kind))]
        return values

    def feeding(self, state: State) -> float:
        """The expected chip value opponents get from piles this turn leaves open."""
        return self._feeding_by(state, _next_players(state, self.seat))

    def _feeding_by(self, state: State, order: list[int]) -> float:
        if not order:
            return -self.weights.extra_turn
        supply = state.supply
        unlimited = self.settings.chip_supply is None
        per_colour = self.settings.piles_per_colour
        loss = 0.0
        for slot, pile in enumerate(state.piles):
            count = len(pile)
            colour = slot // per_colour
            if count < 3 or not (unlimited or supply[colour] > 0):
                continue
            survive = 1.0
            for other in order:
                top_pile = state.discards[other]
                top = CARD_KIND[top_pile[-1]] if top_pile else -1
                chance = self._chances.get((top, colour, count))
                if chance is None:
                    chance = self._chances[top, colour, count] = self._completion_chance(
                        top, colour, count
                    )
                blue, red = state.chips[other]
                worth = self._worths.get((blue, red, colour))
                if worth is None:
                    worth = self._worths[blue, red, colour] = self._chip_worth(blue, red, colour)
                loss += survive * chance * worth
                survive *= 1.0 - chance
        return loss

    def _completion_chance(self, top: int, colour: int, count: int) -> float:
        """The chance that a seat whose discard top is of kind ``top`` (-1: none)
        completes a pile of ``colour`` holding ``count`` cards."""
        wild = colour * 6 + 5
        five = colour * 6 + 4
        four = colour * 6 + 3
        hand = self.settings.hand_size
        if count == 4:
            if top in (five, wild):
                return 1.0
            return self.fit_chance((five, wild), hand)
        first = 1.0 if top in (four, wild) else self.fit_chance((four, wild), hand)
        return self.weights.second_step * first * self.fit_chance((five, wild), hand)

    def _chip_worth(self, blue: int, red: int, colour: int) -> float:
        """What a chip of ``colour`` is worth to a seat holding ``blue`` and ``red``."""
        settings = self.settings
        weights = self.weights
        count = settings.player_count
        before = chips_needed(settings, (blue, red))
        gained = [blue, red]
        gained[colour] += 1
        after = chips_needed(settings, gained)
        if after == 0:
            return 0.5 * WIN / 100.0 * (weights.winning_chip_two if count == 2 else 1.0)
        return weights.threat(after, count) - weights.threat(before, count)


def stacks_on(kind: int, top: int) -> bool:
    """True when ``kind`` can be played just before ``top`` (same colour, one lower;
    a wild counts as one lower than a 1)."""
    return kind_colour(kind) == kind_colour(top) >= 0 and kind_rank(kind) == kind_rank(top) - 1


def _distance(state: State, kind: int) -> int:
    """How many cards must go on some pile of the kind's colour before it fits."""
    per_colour = state.settings.piles_per_colour
    colour = kind // 6
    rank = kind_rank(kind)
    best = rank  # on a new pile
    free = False
    for pile in state.piles[colour * per_colour : (colour + 1) * per_colour]:
        count = len(pile)
        if count == 0:
            free = True
        elif count < rank:
            best = min(best, rank - count - 1)
    if free:
        best = min(best, rank - 1)
    return best


def _card_value(state: State, kind: int, weights: Weights) -> float:
    """What holding one card of ``kind`` is worth (a second one of a kind counts half,
    a third a third: :meth:`Evaluator._hand_score`)."""
    if kind_colour(kind) < 0:  # an action card
        return weights.keep(kind, state.player_count == 2)
    if kind_rank(kind) == 0:
        return weights.keep_wild
    return max(0.0, weights.card_base - weights.card_step * _distance(state, kind))


def _next_players(state: State, seat: int) -> list[int]:
    """The opponents who play, in order, before ``seat``'s next turn (R20, R26)."""
    count = state.player_count
    first = (seat + state.direction * (state.pending_skips + 1)) % count
    return _players_from(state, first, seat)


def _players_from(state: State, first: int, seat: int) -> list[int]:
    """The seats from ``first`` on, in the direction of play, up to ``seat``."""
    count = state.player_count
    direction = state.direction
    order: list[int] = []
    current = first
    while current != seat and len(order) < count:
        order.append(current)
        current = (current + direction) % count
    return order


def window_chip_needs(view: View) -> tuple[int, int] | None:
    """The chips the completer in ``view``'s open window needs to win (R31) before and
    after the chip its completion takes (R17); None without a window, or when that
    colour's supply is empty and the completion takes no chip."""
    completer = view.window_completer
    slot = view.window_pile
    if completer is None or slot is None:
        return None
    settings = view.settings
    colour = slot // settings.piles_per_colour
    if view.supply is not None and view.supply[colour] == 0:
        return None
    chips = list(view.chips[completer])
    chips[colour] += 1
    return chips_needed(settings, view.chips[completer]), chips_needed(settings, chips)


def should_block(view: View, weights: Weights = DEFAULT_WEIGHTS) -> bool:
    """R29: whether to spend a Block on the completion in ``view``'s open window.

    Always when the chip would win; with two players when the chip leaves the completer
    ``weights.block_need_two`` chips or fewer from winning; with more, within
    ``weights.block_need`` chips when the completer leads (or a spare Block is held).
    """
    needs = window_chip_needs(view)
    completer = view.window_completer
    if needs is None or completer is None or view.hand is None:
        return False
    settings = view.settings
    before, need = needs
    if need == 0:
        return True
    if need == before:
        return False
    if settings.player_count == 2:
        return need <= weights.block_need_two
    blocks = sum(1 for card in view.hand if CARD_KIND[card] == Kind.BLOCK)
    others = [chips_needed(settings, c) for s, c in enumerate(view.chips) if s != completer]
    return need <= weights.block_need and (need <= min(others) or blocks >= 2)


class Planner:
    """Depth-first search over one seat's plays this turn (bounded, memoised)."""

    def __init__(
        self, evaluator: Evaluator, seat: int, settings: Settings, *, node_budget: int = 300
    ) -> None:
        self.evaluator = evaluator
        self.node_budget = node_budget
        self.seat = seat
        self.space = action_space(settings.player_count, settings.piles_per_colour)
        self.table = self.space.actions_of(seat)
        self.memo: dict[tuple[object, ...], float] = {}
        self.nodes = 0

    def scores(self, state: State, played: int) -> list[tuple[float, int]]:
        """The best score reachable after each legal action, as ``(score, id)`` pairs."""
        ids = legal_action_ids(state, self.seat)
        return [(self._value_of(state, action_id, played), action_id) for action_id in ids]

    def best(self, state: State, played: int) -> tuple[float, list[int]]:
        """The best score reachable and the action ids that reach it first."""
        scored = self.scores(state, played)
        top = max(score for score, _ in scored)
        return top, [action_id for score, action_id in scored if score == top]

    def _value_of(self, state: State, action_id: int, played: int) -> float:
        action = self.table[action_id]
        if action.type == ActionType.DISCARD:
            return self.evaluator.evaluate(state, int(action.kind or 0), played)
        if action.type == ActionType.END:
            return self.evaluator.evaluate(state, None, played)
        child = state.clone()
        apply_in_place(child, self.seat, action, checked=False)
        pass_window(child)
        return self._search(child, played + (action.type == ActionType.PLAY))

    def search(self, state: State, played: int) -> float:
        """The best score this seat can reach from ``state`` by the end of its turn."""
        return self._search(state, played)

    def _search(self, state: State, played: int) -> float:
        if state.is_over or state.current != self.seat:
            return self.evaluator.evaluate(state, None, played)
        key = _key(state, self.seat, played)
        known = self.memo.get(key)
        if known is not None:
            return known
        self.nodes += 1
        best = -2 * WIN
        for action_id in legal_action_ids(state, self.seat):
            action = self.table[action_id]
            if action.type not in CONTINUING and action.type != ActionType.DISCARD:
                score = self.evaluator.evaluate(state, None, played)
            elif action.type == ActionType.DISCARD:
                score = self.evaluator.evaluate(state, int(action.kind or 0), played)
            elif self.nodes >= self.node_budget:
                continue
            else:
                score = self._value_of(state, action_id, played)
            best = max(best, score)
        self.memo[key] = best
        return best


def plan_key(state: State, seat: int, played: int) -> tuple[object, ...]:
    """The memo key of a position in ``seat``'s own turn: everything a plan's score
    depends on (hand kinds, pile lengths, discard piles, chips, skips, direction)."""
    return _key(state, seat, played)


def _key(state: State, seat: int, played: int) -> tuple[object, ...]:
    per_colour = state.settings.piles_per_colour
    lengths = list(map(len, state.piles))
    return (
        tuple(sorted(map(CARD_KIND.__getitem__, state.hands[seat]))),
        (tuple(sorted(lengths[:per_colour])), tuple(sorted(lengths[per_colour:]))),
        len(state.discards[seat]),
        tuple(map(len, state.discards)),
        tuple(map(tuple, state.chips)),
        state.pending_skips,
        state.direction,
        played,
    )


class HeuristicBot:
    """A turn-planning heuristic player (see the module docstring)."""

    def __init__(self, *, seed: int | None = None, weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.name = "heuristic"
        self.rng = random.Random(seed)
        self.weights = weights

    def wants_block(self, view: View) -> bool:
        """R29: this bot's answer to a Block window (:func:`should_block`)."""
        return should_block(view, self.weights)

    def choose(self, view: View) -> Action:
        """Return the first action of the best-scoring plan for this turn."""
        if view.phase == Phase.BLOCK_WINDOW:
            return answer_window(view, self.wants_block)
        legal = legal_actions_of(view)
        if len(legal) == 1:
            return legal[0][1]
        assert view.seat is not None
        state = resample(view, view.seat, self.rng)
        planner = Planner(Evaluator.from_view(view, self.weights), view.seat, view.settings)
        _, best = planner.best(state, 0)
        action_id = best[0] if len(best) == 1 else self.rng.choice(best)
        return planner.table[action_id]
