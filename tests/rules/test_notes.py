"""How the engine settles what RULES.md leaves open: rulings N1-N13 of docs/rules-notes.md."""

from __future__ import annotations

import random

import pytest

from sequence_stacks.engine import (
    ActionType,
    Kind,
    Settings,
    State,
    deck_for,
    event_for,
    new_game,
    observe,
    resample,
)
from sequence_stacks.engine.events import (
    BlockAnswered,
    CardPlayed,
    CardsDrawn,
    PileBlocked,
    ReversePlayed,
)
from sequence_stacks.engine.rng import seeded_shuffle
from sequence_stacks.engine.state import BLOCKED, PASSED

from .helpers import (
    act,
    assert_malformed,
    assert_refused,
    kinds,
    legal_texts,
    pass_window,
    rig,
    run,
)

_FULL_BLUE = ["B1", "B2", "B3", "B4"]


def test_n1_the_first_card_of_the_kind_in_hand_order_is_used() -> None:
    state = rig(hands={0: ["B3#20", "R1", "B3#18", "B3#19"]}, piles={0: ["B1", "B2"]})
    after, events = act(state, 0, "B3>1")
    assert after.piles[0][-1] == 20
    assert CardPlayed(0, 20, False, 0, 0, 3) in events
    after, _ = act(state, 0, "discard B3")
    assert after.discards[0] == [20]
    assert after.hands[0][1:] == [18, 19]


def test_n2_a_new_pile_goes_in_the_lowest_free_slot_of_its_colour() -> None:
    state = rig(hands={0: ["B1", "R1", "B1"]}, piles={1: ["B1"], 2: ["R1"]})
    state, _ = act(state, 0, "B1>new")
    assert kinds(state.piles[0]) == ["B1"]
    state, events = act(state, 0, "R1>new")
    assert kinds(state.piles[3]) == ["R1"]
    assert any(isinstance(e, CardPlayed) and (e.colour, e.pile) == (1, 1) for e in events)


def test_n3_empty_hand_draw_after_block_window() -> None:
    state = rig(hands={0: ["B5"]}, piles={0: _FULL_BLUE})
    state, events = act(state, 0, "B5>1")
    assert state.hands[0] == []  # the window is open: no draw yet
    assert not any(isinstance(e, CardsDrawn) for e in events)
    state = run(state, (1, "pass"), (2, "pass"))
    state, events = act(state, 3, "pass")
    names = [type(e).__name__ for e in events]
    assert names.index("ChipTaken") < names.index("CardsDrawn")
    assert len(state.hands[0]) == 5
    assert state.current == 0


def test_n3_empty_hand_draw_after_a_blocked_completion() -> None:
    state = rig(hands={0: ["B5"], 2: ["BLOCK", "R1"]}, piles={0: _FULL_BLUE})
    state = run(state, (0, "B5>1"), (1, "pass"), (2, "block"))
    assert state.hands[0] == []
    state, events = act(state, 3, "pass")
    assert any(isinstance(e, PileBlocked) for e in events)
    assert len(state.hands[0]) == 5


def test_n3_a_player_who_wins_with_their_last_card_draws_nothing() -> None:
    state = rig(hands={0: ["B5"]}, piles={0: _FULL_BLUE}, chips={0: (2, 2)})
    draw_before = list(state.draw)
    state = pass_window(run(state, (0, "B5>1")))
    assert state.is_over
    assert state.hands[0] == []
    assert state.draw == draw_before


def test_n4_no_refill_an_empty_hand_draws_a_full_hand_at_the_start() -> None:
    settings = Settings(refill_at_turn_start=False, hand_size=4)
    state = rig(settings, hands={0: ["B3"], 1: [], 2: ["R1"]})
    state, events = act(state, 0, "discard B3")
    assert len(state.hands[1]) == 4
    assert any(isinstance(e, CardsDrawn) and e.reason == "empty-hand" for e in events)
    state, _ = act(state, 1, f"discard {kinds(state.hands[1])[0]}")
    assert kinds(state.hands[2]) == ["R1"]  # not empty: no draw


# --- N5 Block answers -------------------------------------------------------------------


def _window(blockers: tuple[int, ...]) -> State:
    hands = {seat: ["BLOCK", "R1"] for seat in blockers}
    state = rig(hands={0: ["B5", "R3"], **hands}, piles={0: _FULL_BLUE})
    state, _ = act(state, 0, "B5>1")
    return state


def test_n5_answers_may_come_in_any_order_current_player_is_the_first_unanswered() -> None:
    state = _window((1, 3))
    state, _ = act(state, 3, "block")
    assert state.deciders() == (1, 2)
    assert state.current_player() == 1
    state, _ = act(state, 1, "pass")
    assert state.current_player() == 2
    state, _ = act(state, 2, "pass")
    assert kinds(state.hands[3]) == ["R1"]


def test_n5_an_answer_is_secret_during_the_window() -> None:
    blocked, events = act(_window((2,)), 2, "block")
    passed, _ = act(_window((2,)), 2, "pass")
    for seat in (None, 0, 1, 3):
        assert observe(blocked, seat) == observe(passed, seat)
    assert observe(blocked, 2).my_answer is True
    assert observe(passed, 2).my_answer is False
    answer = next(e for e in events if isinstance(e, BlockAnswered))
    assert event_for(answer, 2) == BlockAnswered(2, True)
    for seat in (None, 0, 1, 3):
        assert event_for(answer, seat) == BlockAnswered(2, None)


def test_n5_only_the_spent_block_becomes_public() -> None:
    # Seat 1 spends; whether seat 3 also answered block stays private after the window.
    both = run(_window((1, 3)), (1, "block"), (2, "pass"), (3, "block"))
    one = run(_window((1, 3)), (1, "block"), (2, "pass"), (3, "pass"))
    assert kinds(both.hands[3]) == ["BLOCK", "R1"]
    for seat in (None, 0, 1, 2):
        assert observe(both, seat) == observe(one, seat)


def test_n6_two_player_reverse_is_played_and_does_nothing() -> None:
    settings = Settings(player_count=2, two_player_reverses=True)
    state = new_game(settings, 1)
    assert sum(1 for card in state.cards_in_play() if card in range(107, 110)) == 3
    state = rig(settings, hands={0: ["REV", "REV", "B3"]})
    state, events = act(state, 0, "REV")
    assert any(isinstance(e, ReversePlayed) and e.direction == 1 for e in events)
    assert state.direction == 1
    assert kinds(state.special) == ["REV"]
    state = run(state, (0, "REV"), (0, "discard B3"))
    assert state.current == 1


def test_n7_skipped_seats_are_not_marked_in_a_stalemate_round() -> None:
    starved = Settings(player_count=3)
    hands = {0: ["SKIP", "R3", "R4"], 1: ["B3", "B4"], 2: ["R1", "R2"]}
    state = rig(starved, hands=hands, rest="special")
    state = run(state, (0, "SKIP"), (0, "discard R3"))
    assert state.current == 2
    assert state.stall_mask == 0b101  # seat 1 was skipped; seat 2's turn has begun
    state = run(state, (2, "discard R1"))
    assert state.stall_mask == 0b101
    state = run(state, (0, "discard R4"))
    assert not state.is_over
    assert state.stall_mask == 0b111  # seat 1's turn has begun: a play would still save it
    state = run(state, (1, "discard B3"))
    assert state.result is not None
    assert state.result.reason == "stalemate"


def test_n7_a_seat_is_marked_from_the_start_of_its_turn_until_it_plays_to_a_pile() -> None:
    hands = {0: ["R3"], 1: ["B1", "B3", "SKIP"], 2: ["R1", "R2"]}
    state = rig(Settings(player_count=3), hands=hands, rest="special")
    assert state.stall_mask == 0b001
    state = run(state, (0, "discard R3"))
    assert state.stall_mask == 0b011
    state = run(state, (1, "SKIP"))  # an action card is not a card played to a pile
    assert state.stall_mask == 0b011
    state = run(state, (1, "B1>new"))
    assert state.stall_mask == 0  # the play unmarks everyone, the player included
    state = run(state, (1, "discard B3"))
    assert state.current == 0
    assert state.stall_mask == 0b001  # seat 2 was skipped: it had no turn, no mark
    state = run(state, (0, "end"))
    assert state.stall_mask == 0b011


def test_n7_a_turn_ending_with_cards_to_draw_clears_the_marks() -> None:
    hands = {0: ["R3"], 1: ["B3"] * 5}
    state = rig(Settings(player_count=3), hands=hands, pool=["RW"], rest="special")
    state.stall_mask = 0b110
    state = run(state, (0, "discard R3"))
    assert state.stall_mask == 0


def test_n8_max_turns_counts_turns_taken_not_skipped() -> None:
    state = rig(Settings(max_turns=2), hands={0: ["SKIP", "B3"]})
    state = run(state, (0, "SKIP"), (0, "discard B3"))
    assert not state.is_over
    assert state.current == 2
    assert state.turn_count == 2
    state = run(state, (2, f"discard {kinds(state.hands[2])[0]}"))
    assert state.result is not None
    assert state.result.reason == "max_turns"


@pytest.mark.parametrize(("first_seat", "seed"), [(0, 3), (2, 3), (1, "deal")])
def test_n9_each_seat_from_first_seat_draws_a_whole_hand_from_the_top(
    first_seat: int, seed: int | str
) -> None:
    settings = Settings(first_seat=first_seat, hand_size=4)
    deck = list(deck_for(4))
    seeded_shuffle(seed, 0, deck)
    expected: dict[int, list[int]] = {}
    for offset in range(4):
        expected[(first_seat + offset) % 4] = [deck.pop() for _ in range(4)]
    state = new_game(settings, seed)
    assert state.hands == [expected[seat] for seat in range(4)]
    assert state.draw == deck


def test_n10_steal_chip_can_win_true_lets_a_steal_end_the_game() -> None:
    settings = Settings(steal_chip_can_win=True)
    state = rig(settings, hands={0: ["SCHIP", "B3"]}, chips={0: (4, 1), 1: (0, 1)})
    assert "SCHIP>p1:R" in legal_texts(state, 0)
    state, _ = act(state, 0, "SCHIP>p1:R")
    assert state.result is not None
    assert (state.result.reason, state.result.winner) == ("win", 0)
    assert state.chips[0] == [4, 2]
    assert kinds(state.hands[0]) == ["B3"]


def test_n11_a_stolen_card_is_known_to_everyone_until_it_leaves_the_hand() -> None:
    state = rig(hands={0: ["SCARD", "B3", "R4"]}, discards={2: ["B2"]}, piles={0: ["B1"]})
    stolen = state.discards[2][-1]
    state, _ = act(state, 0, "SCARD>p2")
    for seat in (None, 1, 2, 3):
        view = observe(state, seat)
        assert view.known_cards[0] == (stolen,)
        assert len(view.hidden_epochs[0]) == 2  # B3 and R4 stay hidden
    state, _ = act(state, 0, "B2>1")
    assert observe(state, 1).known_cards[0] == ()


def test_n12_the_turn_ending_discard_comes_from_the_hand_only() -> None:
    state = rig(hands={0: ["B3"]}, discards={0: ["R3"]})
    assert_refused(state, 0, "discard R3", "R19")
    assert_malformed(type=ActionType.DISCARD, kind=Kind.R3, from_discard=True)
    assert_refused(state, 0, "end", "R19")
    assert {t for t in legal_texts(state, 0) if t.startswith(("discard", "end"))} == {"discard B3"}


# --- N13 resample -----------------------------------------------------------------------


def _two_shuffles() -> State:
    """Seat 0 drew across a reshuffle, then passed the turn: hidden cards of two shuffles."""
    pool = ["R1", "R2", "R5", "B1", "B2", "B3", "B4", "B5", "BW", "RW"]
    state = rig(hands={0: ["B1"]}, draw=["R3", "R4"], pool=pool, rest="special")
    state = run(state, (0, "B1>new"))
    state = run(state, (0, f"discard {kinds(state.hands[0])[0]}"))
    assert state.current == 1
    assert state.shuffle_count == 2
    return state


def _epochs(state: State, cards: list[int]) -> list[int]:
    return sorted(state.card_epoch[card] for card in cards)


@pytest.mark.parametrize("rng_seed", range(20))
def test_n13_resample_keeps_public_facts_and_shuffle_epochs(rng_seed: int) -> None:
    state = _two_shuffles()
    seat = 1
    sampled = resample(state, seat, random.Random(rng_seed))
    assert observe(sampled, seat) == observe(state, seat)
    assert sampled.hands[seat] == state.hands[seat]
    for other in (0, 2, 3):
        assert _epochs(sampled, sampled.hands[other]) == _epochs(state, state.hands[other])
    assert all(sampled.card_epoch[card] == 1 for card in sampled.draw)
    assert len(sampled.draw) == len(state.draw) == 7
    hidden = sorted(state.draw + state.hands[0] + state.hands[2] + state.hands[3])
    assert sorted(sampled.draw + sampled.hands[0] + sampled.hands[2] + sampled.hands[3]) == hidden


def test_n13_resample_from_a_view_matches_resample_from_the_state() -> None:
    state = _two_shuffles()
    view = observe(state, 1)
    sampled = resample(view, 1, random.Random(5))
    assert observe(sampled, 1) == view
    with pytest.raises(ValueError, match="cannot be resampled for seat 2"):
        resample(view, 2, random.Random(5))


def test_n13_resample_actually_moves_hidden_cards() -> None:
    state = _two_shuffles()
    samples = {tuple(resample(state, 1, random.Random(k)).hands[2]) for k in range(10)}
    assert len(samples) > 1


def test_n13_resample_hides_other_seats_window_answers() -> None:
    state = rig(hands={0: ["B5", "R3"], 2: ["BLOCK", "R1"]}, piles={0: _FULL_BLUE})
    state = run(state, (0, "B5>1"), (2, "block"))
    assert resample(state, 1, random.Random(1)).window_answers[2] == PASSED
    assert resample(state, 2, random.Random(1)).window_answers[2] == BLOCKED
