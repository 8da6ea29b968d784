"""RULES §4, a turn: refill, playing, numbers, wilds, completing, empty hand, ending,
passing, drawing from an empty pile, reshuffle (R13-R22)."""

from __future__ import annotations

from sequence_stacks.engine import (
    CARD_KIND,
    Kind,
    Settings,
)
from sequence_stacks.engine.events import (
    BlockWindowOpened,
    CardsDrawn,
    ChipTaken,
    Reshuffled,
    TurnEnded,
)

from .helpers import act, assert_refused, kinds, legal_texts, pass_window, rig, run

_FULL_BLUE = ["B1", "B2", "B3", "B4"]


# --- R13 start of turn ------------------------------------------------------------------


def test_r13_the_player_refills_to_five_at_the_start_of_the_turn() -> None:
    state = rig(hands={0: ["B3"], 1: ["R2", "R3"]}, draw=["B4", "R5", "RW"])
    state, events = act(state, 0, "discard B3")
    assert state.current == 1
    assert kinds(state.hands[1]) == ["R2", "R3", "RW", "R5", "B4"]
    drawn = [e for e in events if isinstance(e, CardsDrawn)]
    assert [(e.seat, e.count, e.reason) for e in drawn] == [(1, 3, "refill")]


def test_r13_a_full_or_larger_hand_draws_nothing_at_the_start() -> None:
    six = ["R1", "R2", "R3", "R4", "R5", "RW"]
    state = rig(hands={0: ["B3"], 1: six})
    draw_before = len(state.draw)
    state, events = act(state, 0, "discard B3")
    assert kinds(state.hands[1]) == six
    assert len(state.draw) == draw_before
    assert not any(isinstance(e, CardsDrawn) for e in events)


def test_r13_refill_at_turn_start_false_keeps_a_short_hand() -> None:
    settings = Settings(refill_at_turn_start=False)
    state = rig(settings, hands={0: ["B3"], 1: ["R2", "R3"]})
    draw_before = len(state.draw)
    state, _ = act(state, 0, "discard B3")
    assert state.current == 1
    assert kinds(state.hands[1]) == ["R2", "R3"]
    assert len(state.draw) == draw_before


def test_r13_hand_size_option_sets_the_refill() -> None:
    state = rig(Settings(hand_size=7), hands={0: ["B3"], 1: ["R2", "R3"]})
    state, _ = act(state, 0, "discard B3")
    assert len(state.hands[1]) == 7


# --- R14 playing ------------------------------------------------------------------------


def test_r14_any_number_of_cards_in_any_order_then_stop() -> None:
    state = rig(hands={0: ["B1", "R4", "B2", "R1", "B3"]})
    for text in ("R1>new", "B1>new", "B2>1", "B3>1"):
        assert "discard R4" in legal_texts(state, 0)  # stopping is always possible
        state, _ = act(state, 0, text)
    assert kinds(state.piles[0]) == ["B1", "B2", "B3"]
    assert kinds(state.piles[2]) == ["R1"]
    state, _ = act(state, 0, "discard R4")
    assert state.current == 1


def test_r14_playing_is_never_forced() -> None:
    state = rig(hands={0: ["B1", "B2", "B3", "B4", "B5"]})
    assert "B1>new" in legal_texts(state, 0)
    state, _ = act(state, 0, "discard B1")
    assert state.current == 1
    assert all(pile == [] for pile in state.piles)


def test_r14_the_discard_top_then_the_card_beneath_are_playable() -> None:
    state = rig(hands={0: ["R4"]}, discards={0: ["R5", "B2", "B1"]})
    assert "^B2>new" not in legal_texts(state, 0)
    state, _ = act(state, 0, "^B1>new")
    assert kinds(state.discards[0]) == ["R5", "B2"]
    assert "^B2>1" in legal_texts(state, 0)
    state, _ = act(state, 0, "^B2>1")
    assert kinds(state.piles[0]) == ["B1", "B2"]
    assert kinds(state.discards[0]) == ["R5"]
    assert kinds(state.hands[0]) == ["R4"]


def test_r14_a_card_not_held_is_refused() -> None:
    state = rig(hands={0: ["B2", "R3"]}, piles={0: ["B1"]})
    reason = assert_refused(state, 0, "B3>1", "R14")
    assert "B3" in reason
    assert_refused(state, 0, "^B2>1", "R14")  # the discard pile is empty


# --- R15 number cards -------------------------------------------------------------------


def test_r15_number_must_follow_pile_count() -> None:
    state = rig(hands={0: ["B4", "B3", "B2"]}, piles={0: ["B1", "B2"]})
    reason = assert_refused(state, 0, "B4>1", "R15")
    assert "needs a 3" in reason
    assert_refused(state, 0, "B2>1", "R15")
    state, _ = act(state, 0, "B3>1")
    state, _ = act(state, 0, "B4>1")
    assert kinds(state.piles[0]) == ["B1", "B2", "B3", "B4"]


def test_r15_only_a_one_starts_a_pile() -> None:
    state = rig(hands={0: ["B2", "B1", "R5"]})
    assert_refused(state, 0, "B2>new", "R15")
    assert_refused(state, 0, "R5>new", "R15")
    assert_refused(state, 0, "B1>1", "R15")  # pile 1 is empty: use "new"
    state, _ = act(state, 0, "B1>new")
    assert kinds(state.piles[0]) == ["B1"]


def test_r15_a_card_never_goes_on_a_pile_of_the_other_colour() -> None:
    # Red pile 1 needs a 2; a blue 2 cannot go there (blue pile 1 is empty).
    state = rig(hands={0: ["B2", "R4"]}, piles={2: ["R1"]})
    assert_refused(state, 0, "B2>1", "R15")
    assert not any(text.startswith("B2>") for text in legal_texts(state, 0))


def test_r15_a_one_cannot_go_on_a_started_pile() -> None:
    state = rig(hands={0: ["B1", "R4"]}, piles={0: ["B1"], 1: ["B1", "B2", "B3"]})
    assert_refused(state, 0, "B1>1", "R15")
    assert_refused(state, 0, "B1>2", "R15")
    assert_refused(state, 0, "B1>new", "R9")


# --- R16 wild cards ---------------------------------------------------------------------


def test_r16_a_wild_starts_a_pile_as_its_one() -> None:
    state = rig(hands={0: ["BW", "B2", "R3"]})
    state = run(state, (0, "BW>new"), (0, "B2>1"))
    assert kinds(state.piles[0]) == ["BW", "B2"]


def test_r16_a_wild_stands_for_a_middle_number() -> None:
    state = rig(hands={0: ["RW", "R3", "B3"]}, piles={2: ["R1"]})
    state = run(state, (0, "RW>1"), (0, "R3>1"))
    assert kinds(state.piles[2]) == ["R1", "RW", "R3"]


def test_r16_a_wild_completes_a_pile() -> None:
    state = rig(hands={0: ["BW", "R3"]}, piles={0: _FULL_BLUE})
    state, events = act(state, 0, "BW>1")
    assert any(isinstance(e, BlockWindowOpened) for e in events)
    state = pass_window(state)
    assert state.chips[0] == [1, 0]
    assert state.piles[0] == []


def test_r16_a_pile_of_only_wilds_completes() -> None:
    state = rig(hands={0: ["BW"] * 5 + ["R3"]})
    state = run(state, (0, "BW>new"), (0, "BW>1"), (0, "BW>1"), (0, "BW>1"))
    assert kinds(state.piles[0]) == ["BW"] * 4
    state = pass_window(run(state, (0, "BW>1")))
    assert state.chips[0] == [1, 0]
    assert kinds(state.pool) == ["BW"] * 5


def test_r16_a_wild_plays_on_its_own_colour_only() -> None:
    state = rig(hands={0: ["RW", "B4"]}, piles={0: ["B1"]})
    legal = legal_texts(state, 0)
    assert "RW>new" in legal
    assert not any(text.startswith("RW>1") for text in legal)
    assert_refused(state, 0, "RW>1", "R15")  # red pile 1 is empty


def test_r16_a_wild_stays_a_wild_through_the_pool_and_back() -> None:
    state = rig(hands={0: ["BW#45"]}, piles={0: _FULL_BLUE}, rest="special")
    state = pass_window(run(state, (0, "BW>1")))
    # The pool was shuffled into the draw pile and drawn: the wild is in the hand, a wild.
    assert 45 in state.hands[0]
    assert CARD_KIND[45] == Kind.BW
    assert sorted(kinds(state.hands[0])) == ["B1", "B2", "B3", "B4", "BW"]


# --- R17 completing a sequence ----------------------------------------------------------


def test_r17_the_completer_takes_a_chip_of_the_pile_colour() -> None:
    # The lower cards were laid by others; the completer gets the chip.
    state = rig(hands={2: ["R5", "B3"]}, piles={2: ["R1", "R2", "R3", "R4"]}, current=2)
    state, events = act(state, 2, "R5>1")
    assert [e for e in events if isinstance(e, BlockWindowOpened)]
    assert state.chips[2] == [0, 0]  # not before the window closes
    state = pass_window(state)
    assert state.chips[2] == [0, 1]
    assert state.supply == [20, 19]
    assert state.piles[2] == []
    assert len(state.pool) == 5


def test_r17_no_chip_when_the_colour_supply_is_empty() -> None:
    state = rig(hands={0: ["B5", "R3"]}, piles={0: _FULL_BLUE}, chips={1: (10, 0), 2: (10, 0)})
    assert state.supply == [0, 20]
    state, _ = act(state, 0, "B5>1")
    state = run(state, (1, "pass"), (2, "pass"))
    state, events = act(state, 3, "pass")
    assert ChipTaken(0, 0, False) in events
    assert state.chips[0] == [0, 0]
    assert state.supply == [0, 20]
    assert state.piles[0] == []
    assert state.current == 0


def test_r17_chip_supply_option_sets_the_supply() -> None:
    settings = Settings(chip_supply=3)
    state = rig(settings, hands={0: ["B5", "R3"]}, piles={0: _FULL_BLUE}, chips={1: (3, 0)})
    assert state.supply == [0, 3]
    state = pass_window(run(state, (0, "B5>1")))
    assert state.chips[0] == [0, 0]


def test_r17_unlimited_chip_supply_always_gives_a_chip() -> None:
    settings = Settings(chip_supply=None)
    state = rig(settings, hands={0: ["B5", "R3"]}, piles={0: _FULL_BLUE}, chips={1: (40, 0)})
    state = pass_window(run(state, (0, "B5>1")))
    assert state.chips[0] == [1, 0]
    assert state.chips[1] == [40, 0]


# --- R18 empty hand ---------------------------------------------------------------------


def test_r18_an_emptied_hand_draws_five_and_play_goes_on() -> None:
    state = rig(hands={0: ["B1"]}, draw=["R1", "R2", "R3", "R4", "R5", "RW"])
    state, events = act(state, 0, "B1>new")
    assert kinds(state.hands[0]) == ["RW", "R5", "R4", "R3", "R2"]
    drawn = [e for e in events if isinstance(e, CardsDrawn)]
    assert [(e.seat, e.count, e.reason) for e in drawn] == [(0, 5, "empty-hand")]
    assert state.current == 0
    state, _ = act(state, 0, "RW>new")
    assert kinds(state.piles[2]) == ["RW"]


def test_r18_holds_whatever_the_hand_held_at_the_start() -> None:
    state = rig(hands={0: ["B1", "B2"]})
    state, _ = act(state, 0, "B1>new")
    assert len(state.hands[0]) == 1
    state, _ = act(state, 0, "B2>1")
    assert len(state.hands[0]) == 5


def test_r18_an_action_card_emptying_the_hand_draws_too() -> None:
    state = rig(hands={0: ["SKIP"]})
    state, _ = act(state, 0, "SKIP")
    assert len(state.hands[0]) == 5
    assert state.current == 0


def test_r18_the_turn_ending_discard_does_not_draw() -> None:
    state = rig(hands={0: ["B1", "R3"]})
    state = run(state, (0, "B1>new"), (0, "discard R3"))
    assert state.hands[0] == []
    assert state.current == 1


def test_r18_hand_size_option_sets_the_empty_hand_draw() -> None:
    state = rig(Settings(hand_size=3), hands={0: ["B1"]})
    state, _ = act(state, 0, "B1>new")
    assert len(state.hands[0]) == 3


# --- R19 ending the turn ----------------------------------------------------------------


def test_r19_a_discard_from_the_hand_ends_the_turn() -> None:
    state = rig(hands={0: ["B1", "R3"]})
    state, events = act(state, 0, "discard R3")
    assert kinds(state.discards[0]) == ["R3"]
    assert kinds(state.hands[0]) == ["B1"]
    assert TurnEnded(0, True) in events
    assert state.current == 1


def test_r19_any_card_may_be_discarded_action_cards_too() -> None:
    for kind in ("SKIP", "REV", "SCARD", "BLOCK", "SCHIP"):
        state = rig(hands={0: [kind, "B3"]})
        state, _ = act(state, 0, f"discard {kind}")
        assert kinds(state.discards[0]) == [kind]
        assert state.current == 1
        assert state.pending_skips == 0
        assert state.direction == 1


def test_r19_an_empty_hand_that_can_draw_nothing_ends_without_discarding() -> None:
    state = rig(hands={0: ["B1"]}, rest="special")
    state, _ = act(state, 0, "B1>new")
    assert state.hands[0] == []
    assert "end" in legal_texts(state, 0)
    state, events = act(state, 0, "end")
    assert TurnEnded(0, False) in events
    assert state.discards[0] == []
    assert state.current == 1


def test_r19_end_is_refused_while_holding_cards() -> None:
    state = rig(hands={0: ["B1"]})
    assert_refused(state, 0, "end", "R19")
    assert_refused(state, 0, "discard B2", "R19")


# --- R20 passing ------------------------------------------------------------------------


def test_r20_play_passes_in_the_current_direction() -> None:
    state = rig(hands={0: ["B3"]}, direction=-1)
    state, _ = act(state, 0, "discard B3")
    assert state.current == 3
    state, _ = act(state, 3, f"discard {kinds(state.hands[3])[0]}")
    assert state.current == 2


# --- R21, R22 drawing from an empty pile and the reshuffle ------------------------------


def test_r21_partial_draw_then_reshuffle_then_the_rest() -> None:
    pool = ["R1", "R2", "R3", "R4", "R5", "B1", "B2", "B3", "B4", "B5"]
    state = rig(hands={0: ["BW"]}, draw=["B5#44", "B4#35"], pool=pool, rest="special")
    old_draw = list(reversed(state.draw))
    pool_ids = list(state.pool)
    state, events = act(state, 0, "BW>new")
    assert Reshuffled(1, 10) in events
    drawn = [e for e in events if isinstance(e, CardsDrawn)]
    assert len(drawn) == 1
    assert drawn[0].count == 5
    assert list(drawn[0].cards[:2]) == old_draw  # what was there first
    assert set(drawn[0].cards[2:]) <= set(pool_ids)  # then the rest from the new pile
    assert sorted(state.hands[0] + state.draw) == sorted(old_draw + pool_ids)
    assert len(state.draw) == 7
    assert state.pool == []
    assert state.shuffle_count == 2
    assert all(state.card_epoch[card] == 1 for card in state.draw)


def test_r21_with_nothing_left_the_player_draws_less() -> None:
    state = rig(hands={0: ["B1"]}, draw=["R2", "R3"], rest="special")
    state, events = act(state, 0, "B1>new")
    assert kinds(state.hands[0]) == ["R3", "R2"]
    assert state.draw == []
    assert not any(isinstance(e, Reshuffled) for e in events)


def test_r21_refill_at_turn_start_also_reshuffles() -> None:
    state = rig(hands={0: ["B3"], 1: ["R1"]}, draw=["R2"], pool=["B4", "B5", "BW"], rest="special")
    state, events = act(state, 0, "discard B3")
    assert Reshuffled(1, 3) in events
    assert sorted(kinds(state.hands[1])) == ["B4", "B5", "BW", "R1", "R2"]


def test_r22_action_cards_never_return_to_the_draw_pile() -> None:
    pool = ["B2", "B3", "R2", "R3", "RW", "BW"]
    special = ["SKIP", "REV", "SCARD", "BLOCK", "SCHIP"]
    state = rig(hands={0: ["B1"]}, pool=pool, special=special, rest="special")
    assert state.draw == []
    special_before = list(state.special)
    state, events = act(state, 0, "B1>new")
    assert Reshuffled(1, 6) in events
    assert state.special == special_before
    assert all(CARD_KIND[card] < 12 for card in state.hands[0] + state.draw)
