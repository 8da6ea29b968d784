"""How an ISMCTS playout values the position where the searching seat's next turn
starts (:class:`LeafValue`), and the default: the heuristic planner's score for that turn
as a win probability (:class:`HeuristicLeaf`; fitted to self-play, docs/bots.md, "The
leaf value")."""

from __future__ import annotations

import dataclasses
import math
from typing import Final, Protocol

from sequence_stacks.engine import CARD_KIND, Kind, State, chips_needed, kind_rank

from .heuristic import PLAYED_CREDIT, Evaluator, Planner
from .plans import PLANNER_NODES

__all__ = ["LEAF_FEATURES", "HeuristicLeaf", "LeafValue", "leaf_features"]

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
        planner = Planner(evaluator, seat, state.settings, node_budget=PLANNER_NODES)
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
