"""The ismcts bot's leaf value: the learned two-player model and the fitted curves."""

import math

import pytest

from sequence_stacks.bots import GreedyBot, IsmctsBot
from sequence_stacks.bots.heuristic import Evaluator
from sequence_stacks.bots.ismcts import LEAF_FEATURES, HeuristicLeaf, leaf_features
from sequence_stacks.engine import Settings, State
from sequence_stacks.sim import play_game

from .rigging import Cards, rig


def _position(hand: tuple[str, ...], chips: list[tuple[int, int]], player_count: int = 2) -> State:
    cards = Cards(player_count)
    hands = {seat: cards("B3") for seat in range(1, player_count)}
    hands[0] = cards(*hand)
    return rig(cards, player_count=player_count, hands=hands, chips=chips)


def _named(state: State, score: float = -1000.0) -> dict[str, float]:
    values = leaf_features(state, 0, score)
    assert len(values) == len(LEAF_FEATURES)
    return dict(zip(LEAF_FEATURES, values, strict=True))


def test_leaf_features_read_chips_needed_and_the_cards_in_hand() -> None:
    # R31: five chips, at least two of each colour. Seat 0 holds 3 blue, 1 red: needs 1.
    state = _position(("BW", "RW", "BLOCK", "SCHIP", "SKIP"), [(3, 1), (0, 0)])
    named = _named(state)
    assert named["bias"] == 1.0
    assert named["score"] == -1.0
    assert [named[f"need={n}"] for n in range(1, 6)] == [1.0, 0.0, 0.0, 0.0, 0.0]
    assert [named[f"opponent_need={n}"] for n in range(1, 6)] == [0.0, 0.0, 0.0, 0.0, 1.0]
    assert named["wilds"] == 2.0
    assert named["blocks"] == 1.0
    assert named["blocks_when_close"] == 0.0  # the opponent needs five
    assert named["steal_chips"] == 1.0
    assert named["skips"] == 1.0


def test_leaf_features_count_blocks_again_when_the_opponent_is_close() -> None:
    state = _position(("BLOCK", "BLOCK", "B1", "R1", "R2"), [(0, 0), (2, 1)])
    named = _named(state)
    assert named["opponent_need=2"] == 1.0
    assert named["blocks"] == named["blocks_when_close"] == 2.0
    assert named["wilds"] == named["steal_chips"] == named["skips"] == 0.0


def test_leaf_features_clip_the_score_to_the_undecided_band() -> None:
    state = _position(("B1", "B2", "B3", "B4", "R1"), [(0, 0), (0, 0)])
    assert _named(state, -9000.0)["score"] == -3.0
    assert _named(state, 400.0)["score"] == 0.0


def _value(bot: IsmctsBot, state: State, score: float = -1000.0) -> float:
    assert isinstance(bot.leaf, HeuristicLeaf)
    return bot.leaf.probability(state, 0, score)


def test_learned_value_rises_with_own_chips_and_falls_with_the_opponents() -> None:
    bot = IsmctsBot(seed=0)
    hand = ("B1", "B2", "R3", "R4", "B5")
    even = _value(bot, _position(hand, [(1, 1), (1, 1)]))
    ahead = _value(bot, _position(hand, [(2, 2), (1, 1)]))
    behind = _value(bot, _position(hand, [(1, 1), (2, 2)]))
    assert 0.0 < behind < even < ahead < 1.0
    # A better planner score is worth more, everything else equal.
    state = _position(hand, [(1, 1), (1, 1)])
    assert _value(bot, state, -1500.0) < _value(bot, state, -800.0)


def test_learned_value_prices_a_held_steal_a_chip() -> None:
    bot = IsmctsBot(seed=0)
    plain = _position(("B1", "B2", "R3", "R4", "B5"), [(1, 0), (1, 1)])
    steal = _position(("B1", "B2", "R3", "R4", "SCHIP"), [(1, 0), (1, 1)])
    assert _value(bot, steal) > _value(bot, plain)


def test_the_curve_is_used_where_no_model_was_fitted_or_when_asked() -> None:
    hand = ("B1", "B2", "R3", "R4", "B5")
    expected = 1.0 / (1.0 + math.exp(-(-1000.0 + 950.0) / 300.0))
    two = _position(hand, [(1, 1), (0, 2)])
    curve = HeuristicLeaf(learned=False)
    assert _value(IsmctsBot(seed=0, leaf=curve), two) == pytest.approx(expected)
    assert _value(IsmctsBot(seed=0), two) != pytest.approx(expected)
    four = _position(hand, [(1, 1), (0, 2), (0, 0), (0, 0)], player_count=4)
    four_curve = 1.0 / (1.0 + math.exp(-(-1000.0 + 435.0) / 575.0))  # fitted for four
    assert _value(IsmctsBot(seed=0), four) == pytest.approx(four_curve)


def test_the_leaf_evaluation_is_an_injected_strategy() -> None:
    """ISMCTS values its playouts' leaves with whatever ``leaf`` it is given; the default
    is the heuristic's evaluation (HeuristicLeaf, learned where fitted)."""
    assert IsmctsBot(seed=0).leaf == HeuristicLeaf(learned=True)
    seen: list[tuple[int, int]] = []

    def leaf(state: State, seat: int, evaluator: Evaluator, played: int) -> float:
        seen.append((seat, state.current))
        return 0.5

    bot = IsmctsBot(seed=3, iterations=2, candidates=3, leaf=leaf)
    settings = Settings(player_count=2)
    state, _ = play_game(settings, 5, [bot, GreedyBot(seed=1)], max_actions=60_000)
    assert state.is_over
    assert seen
    assert all(seat == 0 and current == 0 for seat, current in seen)  # its own turn starts
