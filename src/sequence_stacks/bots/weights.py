"""The numbers the heuristic's judgement is made of, as one record.

:class:`Weights` holds every constant of the heuristic's score (``bots/heuristic.py``)
and of its Block rule (R29). ``DEFAULT_WEIGHTS`` are the hand-set values the
``heuristic`` bot has always played with; another record changes how a seat values
its position and nothing else (the rules, the search and its budget are the same).
``benchmarks/tune_heuristic.py`` searches for better ones by self-play; none measured
better (docs/bots.md, "Tuning the heuristic's weights").
"""

from __future__ import annotations

import dataclasses
from typing import Final

from sequence_stacks.engine import Kind

__all__ = ["DEFAULT_WEIGHTS", "WIN", "Weights"]

# A won game's score (a lost one's is minus this).
WIN: Final = 1_000_000.0


@dataclasses.dataclass(frozen=True, slots=True)
class Weights:
    """Every number of the heuristic's score; the defaults are the ``heuristic`` bot's.

    Attributes (a score is in "points": 100 is one chip the seat still needs):
        need: each chip the seat still needs to win (R31), subtracted.
        own_chip: each chip the seat holds, added (a tie-break towards more chips).
        played: each card the seat laid on a pile this turn (cards flow, R13).
        extra_turn: the seat plays again before anyone else (Skip with two players, R26).
        opp_linear / opp_linear_multi: an opponent's threat per chip it has towards
            winning, with two players / with more.
        opp_convex / convex_decay: the part of the threat that grows as the opponent
            nears the win (``opp_convex * convex_decay ** (need - 1)``).
        keep_*: holding an action card (``_two``: with two players) or a wild.
        card_base / card_step: a coloured card in hand is worth ``card_base`` less
            ``card_step`` for each card that must go on a pile before it fits.
        discard_new / discard_old: the share of the discard's value kept as the new
            top of the seat's discard pile, and of the old top's value lost under it.
        stack_bonus: a discard one below the old top of its colour (it can be played
            back in order, R14).
        keep_top: the share of the old top's value when the seat does not discard.
        second_step: the chance factor for an opponent completing a pile at three cards
            (it needs two fitting cards).
        winning_chip_two: how many times a winning chip's price is weighed with two
            players (a seat must not leave one to its opponent).
        block_need_two / block_need: the Block rule: with two players, block a chip that
            leaves the completer this many chips or fewer from winning; with more, this
            many or fewer when the completer leads (or a spare Block is held).
    """

    need: float = 100.0
    own_chip: float = 2.0
    played: float = 14.0
    extra_turn: float = 45.0
    opp_linear: float = 100.0
    opp_linear_multi: float = 35.0
    opp_convex: float = 200.0
    convex_decay: float = 0.5
    keep_skip: float = 10.0
    keep_skip_two: float = 22.0
    keep_rev: float = 6.0
    keep_rev_two: float = 0.0
    keep_scard: float = 10.0
    keep_block: float = 30.0
    keep_schip: float = 28.0
    keep_wild: float = 26.0
    card_base: float = 12.0
    card_step: float = 3.0
    discard_new: float = 0.5
    discard_old: float = 0.4
    stack_bonus: float = 6.0
    keep_top: float = 0.1
    second_step: float = 0.6
    winning_chip_two: float = 3.0
    block_need_two: int = 3
    block_need: int = 2

    def threat(self, need: int, player_count: int) -> float:
        """How dangerous an opponent ``need`` chips from winning is (grows faster near 0)."""
        if need <= 0:
            return WIN
        linear = self.opp_linear if player_count == 2 else self.opp_linear_multi
        return linear * (10 - need) + self.opp_convex * self.convex_decay ** (need - 1)

    def keep(self, kind: int, two_players: bool) -> float:
        """What holding one action card of ``kind`` is worth."""
        if kind == Kind.SKIP:
            return self.keep_skip_two if two_players else self.keep_skip
        if kind == Kind.REV:
            return self.keep_rev_two if two_players else self.keep_rev
        if kind == Kind.SCARD:
            return self.keep_scard
        if kind == Kind.BLOCK:
            return self.keep_block
        return self.keep_schip

    def changed(self) -> dict[str, float]:
        """The fields that differ from the defaults, by name."""
        base = Weights()
        return {
            field.name: getattr(self, field.name)
            for field in dataclasses.fields(self)
            if getattr(self, field.name) != getattr(base, field.name)
        }


DEFAULT_WEIGHTS: Final = Weights()
