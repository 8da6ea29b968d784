"""The greedy bot: a one-step heuristic that plays for chips and denies them to others.

Each decision scores every legal action from the bot's view alone and takes the best
(ties broken by the bot's own RNG). In short:

- complete a sequence whenever it can, with a number card rather than a wild and
  with the discard-pile top rather than the same kind from the hand; but never when
  the supply has no chip of that colour left (that only recycles the pool);
- extend piles with number cards; spend a wild only when it leads to a completion
  this turn (or empties the hand, which draws five new cards, R18); do not leave a
  pile at four cards unless it can finish it itself;
- play Steal-a-Chip whenever it is legal (on the seat closest to winning), Steal-a-Card
  when the top it takes is useful, Skip when it gives another turn (2 players) or the
  skipped seat is close to winning, Reverse to turn play away from such a seat;
- in a Block window, block only a completion that would win or that comes from the
  leader; otherwise pass and save the Block;
- end the turn by discarding the least useful card: never a Block or a wild if
  avoidable, preferring cards far from playable and cards that stack in a playable
  order on its own discard pile.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Final

from sequence_stacks.engine import (
    CARD_KIND,
    Action,
    ActionType,
    Kind,
    Phase,
    Settings,
    View,
    chips_needed,
    kind_colour,
    kind_rank,
    meets_win_condition,
)

from .base import answer_window, legal_actions_of
from .heuristic import stacks_on

__all__ = ["GreedyBot"]

_COMPLETE: Final = 1000.0
_WINNING_CHIP: Final = 10_000.0
_EXTEND: Final = 100.0
_CHAIN_STEP: Final = 10.0
_WILD_COST: Final = 50.0
_FROM_DISCARD: Final = 3.0
_EMPTIES_HAND: Final = 40.0
_LAST_CARD: Final = 30.0
_STEAL_CHIP: Final = 400.0
_SKIP_EXTRA_TURN: Final = 350.0
_SKIP_THREAT: Final = 300.0
_STEAL_CARD_PLAYABLE: Final = 300.0
_STEAL_CARD_WILD: Final = 250.0
_STEAL_CARD_ACTION: Final = 200.0
_REVERSE: Final = 250.0
_CLOSE_TO_WIN: Final = 2

_KEEP_ACTION: Final = {Kind.BLOCK: 90.0, Kind.SCHIP: 70.0, Kind.SCARD: 40.0}
_KEEP_WILD: Final = 80.0
_KEEP_NUMBER: Final = 60.0
_KEEP_PER_STEP: Final = 12.0


@dataclasses.dataclass(frozen=True, slots=True)
class _Table:
    """What the greedy bot reads off its view, computed once per decision."""

    view: View
    seat: int
    per_colour: int
    hand_counts: tuple[int, ...]
    top_kind: int
    under_top_kind: int
    pile_counts: tuple[int, ...]
    needed: tuple[int, ...]

    @property
    def settings(self) -> Settings:
        return self.view.settings

    @property
    def hand_size(self) -> int:
        return sum(self.hand_counts)

    def piles_of(self, colour: int) -> tuple[int, ...]:
        """Card counts of the piles of one colour (0 for a free slot)."""
        start = colour * self.per_colour
        return self.pile_counts[start : start + self.per_colour]


def _read(view: View) -> _Table:
    assert view.seat is not None
    assert view.hand is not None
    counts = [0] * len(Kind)
    for card in view.hand:
        counts[CARD_KIND[card]] += 1
    own = view.discards[view.seat]
    return _Table(
        view=view,
        seat=view.seat,
        per_colour=view.settings.piles_per_colour,
        hand_counts=tuple(counts),
        top_kind=CARD_KIND[own[-1]] if own else -1,
        under_top_kind=CARD_KIND[own[-2]] if len(own) > 1 else -1,
        pile_counts=tuple(len(pile) for pile in view.piles),
        needed=tuple(chips_needed(view.settings, chips) for chips in view.chips),
    )


# --- chips: who is close to winning (R31) ---------------------------------------------


def _with_chip(chips: tuple[int, int], colour: int, delta: int) -> tuple[int, int]:
    return (chips[0] + delta, chips[1]) if colour == 0 else (chips[0], chips[1] + delta)


def _chip_available(view: View, colour: int) -> bool:
    return view.supply is None or view.supply[colour] > 0


def _leads(table: _Table, seat: int) -> bool:
    """True when ``seat`` is strictly closer to winning than every other seat."""
    mine = table.needed[seat]
    return all(mine < other for s, other in enumerate(table.needed) if s != seat)


def _would_win(table: _Table, seat: int, colour: int) -> bool:
    """True when one more chip of ``colour`` would make ``seat`` win (R31)."""
    if not _chip_available(table.view, colour):
        return False
    return meets_win_condition(table.settings, _with_chip(table.view.chips[seat], colour, 1))


# --- the Block window (R29) -------------------------------------------------------------


def _should_block(table: _Table) -> bool:
    view = table.view
    completer = view.window_completer
    slot = view.window_pile
    if completer is None or slot is None:
        return False
    colour = slot // table.per_colour
    return _would_win(table, completer, colour) or _leads(table, completer)


# --- scoring the actions of a turn ------------------------------------------------------


def _chain(table: _Table, colour: int, count: int, hand_counts: list[int], top: int) -> int:
    """How many number cards of ``colour`` could follow, in order, on a pile of ``count``."""
    length = 0
    top_free = True
    while count + length < 5:
        kind = colour * 6 + count + length  # the number count + length + 1
        if hand_counts[kind] > 0:
            pass
        elif top_free and top == kind:
            top_free = False
        else:
            break
        length += 1
    return length


def _score_play(table: _Table, action: Action) -> float | None:
    assert action.kind is not None
    kind = int(action.kind)
    colour = kind // 6
    is_wild = kind_rank(kind) == 0
    count = 0 if action.pile is None else table.piles_of(colour)[action.pile]
    new_count = count + 1
    hand_after = list(table.hand_counts)
    if action.from_discard:
        top_after = table.under_top_kind
        bonus = _FROM_DISCARD
    else:
        hand_after[kind] -= 1
        top_after = table.top_kind
        bonus = _EMPTIES_HAND if table.hand_size == 1 else 0.0
    chip_left = _chip_available(table.view, colour)
    if new_count == 5:
        if not chip_left:
            return None
        return _score_completion(table, colour, is_wild) + bonus
    chain = _chain(table, colour, new_count, hand_after, top_after)
    reach = new_count + chain
    wild_after = hand_after[colour * 6 + 5] > 0 or top_after == colour * 6 + 5
    can_finish = chip_left and (reach == 5 or (reach == 4 and wild_after))
    empties_hand = not action.from_discard and table.hand_size == 1
    if is_wild and not can_finish:
        return _LAST_CARD if empties_hand else None
    if new_count == 4 and not can_finish:
        return _LAST_CARD if empties_hand else None
    cost = _WILD_COST if is_wild else 0.0
    return _EXTEND + _CHAIN_STEP * chain - cost + bonus


def _score_completion(table: _Table, colour: int, is_wild: bool) -> float:
    score = _COMPLETE + (_WINNING_CHIP if _would_win(table, table.seat, colour) else 0.0)
    return score - (_WILD_COST if is_wild else 0.0)


def _score_steal_chip(table: _Table, action: Action) -> float:
    assert action.victim is not None
    assert action.colour is not None
    settings = table.settings
    victim = action.victim
    mine = table.view.chips[table.seat]
    theirs = table.view.chips[victim]
    my_gain = table.needed[table.seat] - chips_needed(settings, _with_chip(mine, action.colour, 1))
    their_loss = (
        chips_needed(settings, _with_chip(theirs, action.colour, -1)) - table.needed[victim]
    )
    return _STEAL_CHIP + 40.0 * (my_gain + their_loss) - 5.0 * table.needed[victim]


def _score_steal_card(table: _Table, action: Action) -> float | None:
    assert action.victim is not None
    stolen = CARD_KIND[table.view.discards[action.victim][-1]]
    bonus = (_FROM_DISCARD if action.from_discard else 0.0) - table.needed[action.victim]
    if kind_colour(stolen) >= 0:
        if kind_rank(stolen) == 0:
            return _STEAL_CARD_WILD + bonus
        if _distance(table, kind_colour(stolen), kind_rank(stolen)) == 0:
            return _STEAL_CARD_PLAYABLE + bonus
        return None
    if stolen in (Kind.BLOCK, Kind.SCHIP) or (stolen == Kind.SKIP and _two_players(table)):
        return _STEAL_CARD_ACTION + bonus
    return None


def _two_players(table: _Table) -> bool:
    return table.settings.player_count == 2


def _next_seat(table: _Table, direction: int) -> int:
    """The seat whose turn comes next if play goes in ``direction`` (R20, R26)."""
    view = table.view
    steps = view.pending_skips + 1
    return (table.seat + direction * steps) % view.settings.player_count


def _score_skip(table: _Table, action: Action) -> float | None:
    bonus = _FROM_DISCARD if action.from_discard else 0.0
    if _two_players(table):
        return _SKIP_EXTRA_TURN + bonus
    target = _next_seat(table, table.view.direction)
    if table.needed[target] <= _CLOSE_TO_WIN or _leads(table, target):
        return _SKIP_THREAT - 10.0 * table.needed[target] + bonus
    return None


def _score_reverse(table: _Table, action: Action) -> float | None:
    if _two_players(table):
        return None  # R30: no effect with two players
    direction = table.view.direction
    ahead = table.needed[_next_seat(table, direction)]
    behind = table.needed[_next_seat(table, -direction)]
    if ahead < behind and ahead <= _CLOSE_TO_WIN + 1:
        return _REVERSE + (_FROM_DISCARD if action.from_discard else 0.0)
    return None


def _score(table: _Table, action: Action) -> float | None:
    """Score a turn action; None means "not worth doing" (discard and end score None)."""
    kind = action.type
    if kind == ActionType.PLAY:
        return _score_play(table, action)
    if kind == ActionType.STEAL_CHIP:
        return _score_steal_chip(table, action)
    if kind == ActionType.STEAL_CARD:
        return _score_steal_card(table, action)
    if kind == ActionType.SKIP:
        return _score_skip(table, action)
    if kind == ActionType.REVERSE:
        return _score_reverse(table, action)
    return None


# --- ending the turn (R19) --------------------------------------------------------------


def _distance(table: _Table, colour: int, rank: int) -> int:
    """How many cards must go on a pile of ``colour`` before a ``rank`` fits (0: now)."""
    piles = table.piles_of(colour)
    gaps = [rank - count - 1 for count in piles if 0 < count < rank]
    has_free_slot = any(count == 0 for count in piles)
    gaps.append(rank - 1 if has_free_slot else rank)
    return min(gaps)


def _keep_value(table: _Table, kind: int) -> float:
    """How much the bot wants to keep a card of ``kind`` in its hand."""
    if kind_colour(kind) < 0:  # an action card
        if kind == Kind.SKIP:
            return 60.0 if _two_players(table) else 30.0
        if kind == Kind.REV:
            return 0.0 if _two_players(table) else 25.0
        return _KEEP_ACTION[Kind(kind)]
    rank = kind_rank(kind)
    if rank == 0:
        return _KEEP_WILD
    value = _KEEP_NUMBER - _KEEP_PER_STEP * _distance(table, kind_colour(kind), rank)
    if table.hand_counts[kind] > 1:
        value -= 15.0  # a spare copy
    return value


def _discard_cost(table: _Table, kind: int) -> float:
    """The cost of discarding a card of ``kind`` onto the bot's own discard pile."""
    cost = _keep_value(table, kind)
    top = table.top_kind
    if top < 0:
        return cost
    if stacks_on(kind, top):
        cost -= 20.0  # it can be played before the card it covers
    elif kind_colour(top) >= 0 and (
        kind_rank(top) == 0 or _distance(table, kind_colour(top), kind_rank(top)) <= 1
    ):
        cost += 10.0  # it would bury a useful top
    return cost


class GreedyBot:
    """A fast one-step heuristic player (see the module docstring)."""

    def __init__(self, *, seed: int | None = None) -> None:
        self.name = "greedy"
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Action:
        """Return the best-scoring legal action of ``view``'s seat."""
        legal = [action for _, action in legal_actions_of(view)]
        table = _read(view)
        if view.phase == Phase.BLOCK_WINDOW:
            return answer_window(view, lambda _: _should_block(table))
        best: list[Action] = []
        best_score = 0.0
        for action in legal:
            score = _score(table, action)
            if score is None or score < best_score:
                continue
            if score > best_score:
                best, best_score = [], score
            best.append(action)
        if best:
            return best[0] if len(best) == 1 else self.rng.choice(best)
        return self._end_turn(table, legal)

    def _end_turn(self, table: _Table, legal: list[Action]) -> Action:
        discards = [a for a in legal if a.type == ActionType.DISCARD]
        if not discards:
            return next(a for a in legal if a.type == ActionType.END)
        costs = [_discard_cost(table, int(a.kind or 0)) for a in discards]
        lowest = min(costs)
        cheapest = [a for a, cost in zip(discards, costs, strict=True) if cost == lowest]
        return cheapest[0] if len(cheapest) == 1 else self.rng.choice(cheapest)
