"""The heuristic's weights (bots/weights.py): every number of its score and Block rule
(R29) is one field, the defaults are the ``heuristic`` bot's, and other weights reach
the score, the rule and the bots that take them."""

import dataclasses
import itertools
import random

import pytest

from sequence_stacks.bots import IsmctsBot
from sequence_stacks.bots.heuristic import Evaluator, HeuristicBot, should_block
from sequence_stacks.bots.weights import DEFAULT_WEIGHTS, WIN, Weights
from sequence_stacks.engine import ActionType, Settings, View, observe, resample
from sequence_stacks.sim import play_game

from .rigging import Cards, rig


def _window(completer_chips: tuple[int, int]) -> View:
    """Seat 0 has just completed blue pile 0 (R17); seat 1 holds a Block and is asked."""
    cards = Cards(2)
    state = rig(
        cards,
        hands={0: cards("R1", "R4", "B3"), 1: cards("BLOCK", "R2", "R3", "B1", "B2")},
        piles={0: cards("B1", "B2", "B3", "B4", "B5")},
        chips=[completer_chips, (0, 0)],
        window=(0, 0),
    )
    return observe(state, 1)


def _hand_view(*hand: str) -> View:
    """Seat 0 to play, holding ``hand``, nothing on the table."""
    cards = Cards(2)
    state = rig(cards, hands={0: cards(*hand), 1: cards("R1", "R2", "R3", "R4", "R5")})
    return observe(state, 0)


def test_the_defaults_are_one_record_and_name_no_change() -> None:
    assert Weights() == DEFAULT_WEIGHTS
    assert DEFAULT_WEIGHTS.changed() == {}
    changed = dataclasses.replace(DEFAULT_WEIGHTS, keep_block=31.0, block_need=3)
    assert changed.changed() == {"keep_block": 31.0, "block_need": 3}
    with pytest.raises(dataclasses.FrozenInstanceError):
        changed.keep_block = 1.0  # type: ignore[misc]


def test_the_threat_grows_faster_as_an_opponent_nears_the_win() -> None:
    weights = DEFAULT_WEIGHTS
    for players in (2, 4):
        threats = [weights.threat(need, players) for need in range(5, 0, -1)]
        steps = [b - a for a, b in itertools.pairwise(threats)]
        assert all(step > 0 for step in steps)
        assert steps == sorted(steps)  # convex
        assert weights.threat(0, players) == WIN


def test_the_weights_reach_the_score() -> None:
    view = _hand_view("BLOCK", "B1", "R3", "SKIP", "BW")
    assert view.seat is not None
    state = resample(view, view.seat, random.Random(0))  # only the seat's cards are scored
    plain = Evaluator.from_view(view)
    held = Evaluator.from_view(view, dataclasses.replace(DEFAULT_WEIGHTS, keep_block=100.0))
    credit = Evaluator.from_view(view, dataclasses.replace(DEFAULT_WEIGHTS, played=20.0))
    base = plain.evaluate(state, None, 2)
    assert held.evaluate(state, None, 2) - base == pytest.approx(70.0)  # one Block held
    assert credit.evaluate(state, None, 2) - base == pytest.approx(12.0)  # 6 a card, two
    # Card values are remembered per weights: the default evaluator is as it was.
    assert Evaluator.from_view(view).evaluate(state, None, 2) == base


def test_the_block_rule_follows_its_weights() -> None:
    view = _window((0, 0))  # a first chip: the completer would still need four (R31)
    assert not should_block(view)
    eager = dataclasses.replace(DEFAULT_WEIGHTS, block_need_two=4)
    assert should_block(view, eager)
    assert HeuristicBot(seed=0).choose(view).type == ActionType.PASS
    assert HeuristicBot(seed=0, weights=eager).choose(view).type == ActionType.BLOCK
    plain = IsmctsBot(seed=0, block_search=False)
    assert not plain.decide_block(view).chosen_block
    assert IsmctsBot(seed=0, block_search=False, weights=eager).decide_block(view).chosen_block
    # A chip that would win is blocked whatever the weights (R29, R31).
    shy = dataclasses.replace(DEFAULT_WEIGHTS, block_need_two=0)
    assert should_block(_window((1, 3)), shy)


def test_other_weights_play_other_games_and_the_defaults_the_same() -> None:
    settings = Settings(player_count=2)
    other = dataclasses.replace(DEFAULT_WEIGHTS, played=4.0, card_step=6.0)

    def digest(weights: Weights, seed: int) -> str | None:
        bots = [HeuristicBot(seed=1, weights=weights), HeuristicBot(seed=2)]
        return play_game(settings, seed, bots)[1].digest

    def default_digest(seed: int) -> str | None:
        return play_game(settings, seed, [HeuristicBot(seed=1), HeuristicBot(seed=2)])[1].digest

    seeds = range(4)
    assert [digest(DEFAULT_WEIGHTS, s) for s in seeds] == [default_digest(s) for s in seeds]
    assert [digest(other, s) for s in seeds] != [default_digest(s) for s in seeds]
