"""RULES §3, where cards are: draw pile, sequence piles, discards, special, pool (R8-R12)."""

from __future__ import annotations

import pytest

from sequence_stacks.engine import (
    Settings,
    action_space,
    legal_actions,
    observe,
)
from sequence_stacks.engine.events import Reshuffled

from .helpers import act, assert_refused, kinds, pass_window, rig, run


def test_r8_the_draw_pile_is_face_down_and_drawn_from_the_top() -> None:
    state = rig(hands={0: ["B3"], 1: ["R2", "R3"]}, draw=["B4", "R5", "RW"])
    view = observe(state, 0)
    assert view.draw_size == len(state.draw)
    assert not hasattr(view, "draw")
    state, _ = act(state, 0, "discard B3")
    # Seat 1 refills three cards from the top (the end of the list).
    assert kinds(state.hands[1]) == ["R2", "R3", "RW", "R5", "B4"]


def test_r9_third_pile_of_a_colour_is_refused() -> None:
    state = rig(hands={0: ["B1", "BW", "R1"]}, piles={0: ["B1"], 1: ["B1", "B2"]})
    reason = assert_refused(state, 0, "B1>new", "R9")
    assert "already 2 blue piles" in reason
    assert_refused(state, 0, "BW>new", "R9")
    # The other colour is unaffected.
    after, _ = act(state, 0, "R1>new")
    assert kinds(after.piles[2]) == ["R1"]


def test_r9_piles_are_shared_by_all_players() -> None:
    state = rig(hands={1: ["B3", "R4"]}, piles={0: ["B1", "B2"]}, current=1)
    state, _ = act(state, 1, "B3>1")
    assert kinds(state.piles[0]) == ["B1", "B2", "B3"]


def test_r9_piles_per_colour_one_allows_a_single_pile_per_colour() -> None:
    settings = Settings(piles_per_colour=1)
    state = rig(settings, hands={0: ["B1", "R1", "B2"]}, piles={0: ["B1"]})
    assert len(state.piles) == 2
    assert_refused(state, 0, "B1>new", "R9")
    assert_refused(state, 0, "B2>2", "R37")  # there is no blue pile 2
    state, _ = act(state, 0, "R1>new")
    assert kinds(state.piles[1]) == ["R1"]


def test_r9_piles_per_colour_three_allows_a_third_pile() -> None:
    settings = Settings(piles_per_colour=3)
    state = rig(settings, hands={0: ["B1", "B1"]}, piles={0: ["B1"], 1: ["B1", "B2"]})
    assert len(state.piles) == 6
    state, _ = act(state, 0, "B1>new")
    assert kinds(state.piles[2]) == ["B1"]
    assert_refused(state, 0, "B1>new", "R9")
    assert action_space(4, 3).size > action_space(4, 2).size


def test_r10_only_the_top_of_ones_own_discard_pile_is_playable() -> None:
    state = rig(hands={0: ["R4"]}, discards={0: ["B1", "B2"]}, piles={0: ["B1"]})
    assert_refused(state, 0, "^B1>new", "R14")
    legal = {action.notation() for action in legal_actions(state, 0)}
    assert "^B2>1" in legal
    assert not any(text.startswith("^B1") for text in legal)


def test_r10_another_seats_discard_top_is_not_playable_by_a_player() -> None:
    # Seat 0's top is B2; seat 1 cannot play it, only its own (empty) discard pile.
    state = rig(hands={1: ["R4"]}, discards={0: ["B2"]}, piles={0: ["B1"]}, current=1)
    assert_refused(state, 1, "^B2>1", "R14")


def test_r10_every_card_in_a_discard_pile_is_public() -> None:
    state = rig(discards={0: ["B1", "SKIP", "R3"]})
    for seat in (None, 1, 2, 3):
        assert kinds(observe(state, seat).discards[0]) == ["B1", "SKIP", "R3"]


@pytest.mark.parametrize(
    ("hand", "text"),
    [(["SKIP"], "SKIP"), (["REV"], "REV"), (["SCARD"], "SCARD>p1"), (["SCHIP"], "SCHIP>p2:B")],
)
def test_r11_played_action_cards_go_to_the_special_pile(hand: list[str], text: str) -> None:
    state = rig(hands={0: [*hand, "B3"]}, discards={1: ["R2"]}, chips={2: (1, 0)})
    after, _ = act(state, 0, text)
    assert kinds(after.special) == hand
    assert after.special[0] == state.hands[0][0]


def test_r12_a_completed_pile_goes_to_the_pool() -> None:
    state = rig(hands={0: ["B5", "R3"]}, piles={0: ["B1", "B2", "B3", "B4"]}, rest="special")
    pile = [*state.piles[0], state.hands[0][0]]
    state, _ = act(state, 0, "B5>1")
    state = pass_window(state)
    assert state.piles[0] == []
    assert state.pool == pile


def test_r12_the_pool_is_the_only_thing_shuffled_back() -> None:
    # One card left to draw; the hand empties, so the pool is shuffled into a new draw pile.
    state = rig(
        hands={0: ["B5"]},
        piles={0: ["B1", "B2", "B3", "B4"]},
        draw=["R1"],
        discards={1: ["R3"]},
        rest="special",
    )
    special_before = list(state.special)
    discards_before = [list(pile) for pile in state.discards]
    completed = [*state.piles[0], state.hands[0][0]]
    state, _ = act(state, 0, "B5>1")
    state = run(state, (1, "pass"), (2, "pass"))
    state, events = act(state, 3, "pass")
    assert Reshuffled(1, 5) in events
    assert state.special == special_before
    assert state.discards == discards_before
    assert kinds(state.hands[0])[0] == "R1"
    assert sorted(state.hands[0][1:] + state.draw) == sorted(completed)
    assert state.pool == []
    assert state.shuffle_count == 2
