"""The greedy bot's heuristics on rigged positions, and its strength against random."""

import pytest

from sequence_stacks.bots import GreedyBot
from sequence_stacks.engine import (
    Action,
    Settings,
    State,
    action_space,
    observe,
)
from sequence_stacks.sim import selfplay, summarize

from .rigging import Cards, rig


def _choice(state: State, seat: int | None = None) -> Action:
    acting = state.current_player() if seat is None else seat
    assert acting is not None
    view = observe(state, acting)
    action = GreedyBot(seed=0).choose(view)
    space = action_space(state.player_count, 2)
    assert space.id_of(action, acting) in view.legal_action_ids
    return action


# --- Block windows (R29) ----------------------------------------------------------------


def _window(completer_chips: tuple[int, int], my_chips: tuple[int, int]) -> State:
    cards = Cards(2)
    return rig(
        cards,
        hands={0: cards("R1", "R1", "R2"), 1: cards("BLOCK", "R3", "R4")},
        piles={0: cards("B1", "B2", "B3", "B4", "B5")},
        chips=[completer_chips, my_chips],
        window=(0, 0),
    )


def test_greedy_blocks_a_winning_completion() -> None:
    # Seat 0 holds 1 blue and 3 red: the blue chip would win (R31); seat 1 leads.
    assert _choice(_window((1, 3), (2, 2)), seat=1).notation() == "block"


def test_greedy_blocks_the_leader() -> None:
    assert _choice(_window((1, 1), (0, 0)), seat=1).notation() == "block"


def test_greedy_saves_its_block_when_the_completer_does_not_lead() -> None:
    assert _choice(_window((0, 0), (1, 0)), seat=1).notation() == "pass"
    assert _choice(_window((1, 0), (1, 0)), seat=1).notation() == "pass"


def test_greedy_passes_without_a_block() -> None:
    cards = Cards(3)
    state = rig(
        cards,
        player_count=3,
        hands={0: cards("R1"), 1: cards("R2"), 2: cards("BLOCK")},
        piles={0: cards("B1", "B2", "B3", "B4", "BW")},
        chips=[(2, 2), (0, 0), (0, 0)],
        window=(0, 0),
    )
    assert _choice(state, seat=1).notation() == "pass"
    assert _choice(state, seat=2).notation() == "block"


# --- plays ------------------------------------------------------------------------------


def test_greedy_completes_with_a_number_rather_than_a_wild() -> None:
    cards = Cards(2)
    state = rig(
        cards,
        hands={0: cards("BW", "B5", "R3"), 1: cards("R1")},
        piles={0: cards("B1", "B2", "B3", "B4")},
    )
    assert _choice(state).notation() == "B5>1"


def test_greedy_completes_from_the_discard_top_when_equivalent() -> None:
    cards = Cards(2)
    state = rig(
        cards,
        hands={0: cards("B5", "R3", "R4"), 1: cards("R1")},
        piles={0: cards("B1", "B2", "B3", "B4")},
        discards={0: cards("B5")},
    )
    assert _choice(state).notation() == "^B5>1"


def test_greedy_plays_the_winning_completion_first() -> None:
    cards = Cards(2)
    state = rig(
        cards,
        hands={0: cards("B5", "R5", "SCHIP"), 1: cards("R1")},
        piles={0: cards("B1", "B2", "B3", "B4"), 2: cards("R1", "R2", "R3", "R4")},
        chips=[(2, 1), (1, 0)],
    )
    assert _choice(state).notation() == "R5>1"  # red makes 2 of each colour: a win


def test_greedy_keeps_a_wild_when_a_number_fits() -> None:
    cards = Cards(2)
    state = rig(
        cards,
        hands={0: cards("BW", "B3", "R5"), 1: cards("R1")},
        piles={0: cards("B1", "B2")},
    )
    assert _choice(state).notation() == "B3>1"


def test_greedy_does_not_waste_a_wild_without_a_follow_up() -> None:
    cards = Cards(2)
    state = rig(
        cards,
        hands={0: cards("BW", "R5", "R5"), 1: cards("R1")},
        piles={0: cards("B1", "B2", "B3")},
    )
    assert _choice(state).notation() == "discard R5"


def test_greedy_spends_a_wild_that_leads_to_a_completion() -> None:
    cards = Cards(2)
    state = rig(
        cards,
        hands={0: cards("BW", "B4", "B5"), 1: cards("R1")},
        piles={0: cards("B1", "B2")},
    )
    assert _choice(state).notation() == "BW>1"


def test_greedy_does_not_complete_when_no_chip_is_left() -> None:
    # With the blue supply empty a completion only recycles the pool; no chip, no play.
    cards = Cards(2)
    state = rig(
        cards,
        hands={0: cards("B5", "R4", "R4"), 1: cards("R1")},
        piles={0: cards("B1", "B2", "B3", "B4")},
        chips=[(10, 0), (10, 0)],
        supply=(0, 20),
    )
    assert _choice(state).type.name == "DISCARD"


def test_greedy_steals_a_chip_from_the_leader() -> None:
    cards = Cards(3)
    state = rig(
        cards,
        player_count=3,
        hands={0: cards("SCHIP", "R4", "R4"), 1: cards("R1"), 2: cards("R2")},
        chips=[(3, 0), (1, 0), (1, 1)],
    )
    # Seat 2 is the closer opponent, and a red chip is the one seat 0 lacks (R31).
    assert _choice(state).notation() == "SCHIP>p2:R"


def test_greedy_skips_for_another_turn_with_two_players() -> None:
    cards = Cards(2)
    state = rig(cards, hands={0: cards("SKIP", "R4", "R4"), 1: cards("R1")})
    assert _choice(state).notation() == "SKIP"


def test_greedy_skips_a_player_close_to_winning() -> None:
    cards = Cards(3)
    hands = {0: cards("SKIP", "R4", "R4"), 1: cards("R1"), 2: cards("R2")}
    close = rig(cards, player_count=3, hands=hands, chips=[(0, 0), (2, 1), (0, 0)])
    assert _choice(close).notation() == "SKIP"
    far = rig(cards, player_count=3, hands=hands, chips=[(1, 0), (1, 0), (1, 0)])
    assert _choice(far).notation() != "SKIP"


def test_greedy_steals_a_useful_discard_top() -> None:
    cards = Cards(2)
    state = rig(
        cards,
        hands={0: cards("SCARD", "R4", "R4"), 1: cards("R1")},
        piles={0: cards("B1", "B2")},
        discards={1: cards("B3")},
    )
    assert _choice(state).notation() == "SCARD>p1"


def test_greedy_leaves_a_useless_discard_top() -> None:
    cards = Cards(2)
    state = rig(
        cards,
        hands={0: cards("SCARD", "R4", "R4"), 1: cards("R1")},
        discards={1: cards("B5")},
    )
    assert _choice(state).type.name == "DISCARD"


# --- discards (R19) ---------------------------------------------------------------------


def test_greedy_discards_its_least_useful_card() -> None:
    cards = Cards(2)
    state = rig(
        cards,
        hands={0: cards("BLOCK", "BW", "R5", "SCHIP", "B4"), 1: cards("R1")},
        piles={0: cards("B1", "B2")},
    )
    assert _choice(state).notation() == "discard R5"  # the farthest from playable


def test_greedy_discards_a_card_that_stacks_on_its_discard_top() -> None:
    cards = Cards(2)
    state = rig(
        cards,
        hands={0: cards("R4", "B4", "BLOCK"), 1: cards("R1")},
        discards={0: cards("R5")},
    )
    assert _choice(state).notation() == "discard R4"  # R4 can be played before the R5


def test_greedy_ends_an_empty_handed_turn() -> None:
    cards = Cards(2)
    state = rig(cards, hands={0: [], 1: cards("R1")}, discards={0: cards("B5")})
    assert _choice(state).notation() == "end"


# --- strength ---------------------------------------------------------------------------


def test_greedy_beats_random_in_two_player_games() -> None:
    rows = selfplay(Settings(player_count=2), ["greedy", "random"], games=200, seed=2024)
    summary = summarize(rows, 2)
    greedy = summary.bots["greedy"]
    assert greedy.played == 200
    assert greedy.rate > 0.6
    low, _ = greedy.interval
    assert low > 0.5


@pytest.mark.parametrize("player_count", [3, 4])
def test_greedy_beats_random_at_bigger_tables(player_count: int) -> None:
    rows = selfplay(Settings(player_count=player_count), ["greedy", "random"], games=20, seed=5)
    summary = summarize(rows, player_count)
    assert summary.bots["greedy"].wins > 2 * summary.bots["random"].wins
