"""RULES §5, action cards: Skip, Reverse, Steal-a-Card, Steal-a-Chip, Block (R23-R30)."""

from __future__ import annotations

import pytest

from sequence_stacks.engine import (
    Settings,
    State,
    deck_for,
    legal_action_ids,
)
from sequence_stacks.engine.events import (
    BlockWindowOpened,
    CardsDrawn,
    CardStolen,
    ChipStolen,
    ChipTaken,
    PileBlocked,
    PileCompleted,
    ReversePlayed,
    TurnSkipped,
    TurnStarted,
)

from .helpers import act, assert_refused, kinds, legal_texts, rig, run

_FULL_BLUE = ["B1", "B2", "B3", "B4"]
_TWO = Settings(player_count=2)


# --- R23 Skip ---------------------------------------------------------------------------


def test_r23_skip_makes_the_next_player_lose_their_turn() -> None:
    state = rig(hands={0: ["SKIP", "B3"], 1: ["R2"]})
    turn_before = state.turn_count
    state = run(state, (0, "SKIP"))
    assert state.pending_skips == 1
    assert state.current == 0  # resolves when the turn passes (R26)
    state, events = act(state, 0, "discard B3")
    assert TurnSkipped(1) in events
    assert state.current == 2
    assert kinds(state.hands[1]) == ["R2"]  # no refill, no play
    assert state.turn_count == turn_before + 1
    assert not any(isinstance(e, CardsDrawn) and e.seat == 1 for e in events)
    assert state.pending_skips == 0


def test_r23_skip_from_the_discard_top() -> None:
    state = rig(hands={0: ["B3"]}, discards={0: ["SKIP"]})
    state = run(state, (0, "^SKIP"), (0, "discard B3"))
    assert state.current == 2
    assert kinds(state.discards[0]) == ["B3"]


# --- R24 Reverse ------------------------------------------------------------------------


def test_r24_reverse_flips_the_direction_at_once() -> None:
    state = rig(hands={0: ["REV", "B3"]})
    state, events = act(state, 0, "REV")
    assert state.direction == -1
    assert any(isinstance(e, ReversePlayed) and e.direction == -1 for e in events)
    state, _ = act(state, 0, "discard B3")
    assert state.current == 3


def test_r24_no_reverse_in_a_two_player_deck() -> None:
    state = rig(_TWO)
    assert "REV" not in kinds(state.cards_in_play())
    assert len(deck_for(2)) == 112


# --- R25 Steal-a-Card -------------------------------------------------------------------


def test_r25_steal_a_card_takes_the_top_of_the_named_opponents_discard() -> None:
    state = rig(hands={0: ["SCARD", "B3"]}, discards={2: ["R1", "B4"], 1: ["R5"]})
    stolen = state.discards[2][-1]
    state, events = act(state, 0, "SCARD>p2")
    assert kinds(state.hands[0]) == ["B3", "B4"]
    assert state.hands[0][-1] == stolen
    assert kinds(state.discards[2]) == ["R1"]
    assert kinds(state.discards[1]) == ["R5"]
    assert kinds(state.special) == ["SCARD"]
    assert any(isinstance(e, CardStolen) and e.victim == 2 and e.stolen == stolen for e in events)


def test_r25_steal_a_card_names_an_opponent() -> None:
    state = rig(hands={0: ["SCARD", "B3"]}, discards={0: ["R1"], 1: ["R5"]})
    assert_refused(state, 0, "SCARD>p0", "R25")
    assert_refused(state, 0, "SCARD>p7", "R25")
    assert {t for t in legal_texts(state, 0) if t.startswith("SCARD")} == {"SCARD>p1"}


# --- R26 when Skips resolve -------------------------------------------------------------


def test_r26_two_player_skip_gives_another_turn_starting_with_a_refill() -> None:
    state = rig(_TWO, hands={0: ["SKIP", "R3", "B3"], 1: ["R2"]})
    turn_before = state.turn_count
    state = run(state, (0, "SKIP"))
    state, events = act(state, 0, "discard R3")
    assert TurnSkipped(1) in events
    assert TurnStarted(0, turn_before + 1) in events
    assert state.current == 0
    assert len(state.hands[0]) == 5  # R13 refill: B3 plus four drawn
    assert any(isinstance(e, CardsDrawn) and e.seat == 0 and e.reason == "refill" for e in events)
    assert kinds(state.hands[1]) == ["R2"]


def test_r26_two_skips_pass_over_two_players() -> None:
    state = rig(hands={0: ["SKIP", "SKIP", "B3"], 1: ["R1"], 2: ["R2"]})
    state = run(state, (0, "SKIP"), (0, "SKIP"))
    assert state.pending_skips == 2
    state, events = act(state, 0, "discard B3")
    assert [e.seat for e in events if isinstance(e, TurnSkipped)] == [1, 2]
    assert state.current == 3
    assert kinds(state.hands[1]) == ["R1"]
    assert kinds(state.hands[2]) == ["R2"]


def test_r26_two_skips_with_two_players_pass_over_both_seats() -> None:
    # Each Skip passes over one more player: seat 1, then seat 0; seat 1 plays next.
    state = rig(_TWO, hands={0: ["SKIP", "SKIP", "B3"]})
    state = run(state, (0, "SKIP"), (0, "SKIP"))
    state, events = act(state, 0, "discard B3")
    assert [e.seat for e in events if isinstance(e, TurnSkipped)] == [1, 0]
    assert state.current == 1


@pytest.mark.parametrize("order", [("SKIP", "REV"), ("REV", "SKIP")])
def test_r26_skip_and_reverse_use_the_direction_in_force_when_the_turn_passes(
    order: tuple[str, str],
) -> None:
    state = rig(hands={0: ["SKIP", "REV", "B3"], 3: ["R3"]})
    state = run(state, *((0, text) for text in order))
    state, events = act(state, 0, "discard B3")
    assert [e.seat for e in events if isinstance(e, TurnSkipped)] == [3]
    assert state.current == 2
    assert state.direction == -1
    assert kinds(state.hands[3]) == ["R3"]


def test_r26_a_skipped_player_does_nothing() -> None:
    state = rig(hands={0: ["SKIP", "B3"], 1: []})
    state = run(state, (0, "SKIP"), (0, "discard B3"))
    assert state.hands[1] == []
    assert 1 not in state.deciders()
    assert legal_action_ids(state, 1) == []
    assert_refused(state, 1, "end", "R20")


# --- R27 direction ----------------------------------------------------------------------


def test_r27_direction_starts_left() -> None:
    state = rig()
    assert state.direction == 1


def test_r27_two_reverses_in_one_turn_cancel() -> None:
    state = rig(hands={0: ["REV", "REV", "B3"]})
    state = run(state, (0, "REV"), (0, "REV"))
    assert state.direction == 1
    state, _ = act(state, 0, "discard B3")
    assert state.current == 1


def test_r27_reverse_persists_into_later_turns() -> None:
    state = rig(hands={0: ["REV", "B3"]})
    state = run(state, (0, "REV"), (0, "discard B3"))
    state, _ = act(state, 3, f"discard {kinds(state.hands[3])[0]}")
    assert state.current == 2


# --- R28 Steal-a-Chip -------------------------------------------------------------------


def test_r28_steal_a_chip_takes_the_named_colour_from_the_named_opponent() -> None:
    state = rig(hands={0: ["SCHIP", "B3"]}, chips={2: (1, 1), 3: (0, 2)})
    supply = list(state.supply)
    state, events = act(state, 0, "SCHIP>p2:R")
    assert state.chips[0] == [0, 1]
    assert state.chips[2] == [1, 0]
    assert state.chips[3] == [0, 2]
    assert state.supply == supply
    assert any(isinstance(e, ChipStolen) and (e.victim, e.colour) == (2, 1) for e in events)
    choices = legal_texts(rig(hands={0: ["SCHIP"]}, chips={2: (1, 1), 3: (0, 2)}), 0)
    assert {t for t in choices if t.startswith("SCHIP")} == {
        "SCHIP>p2:B",
        "SCHIP>p2:R",
        "SCHIP>p3:R",
    }


def test_r28_steal_a_chip_cannot_take_the_winning_chip() -> None:
    state = rig(hands={0: ["SCHIP", "B3"]}, chips={0: (4, 1), 1: (1, 1)})
    reason = assert_refused(state, 0, "SCHIP>p1:R", "R28")
    assert "cannot be used to win" in reason
    assert {t for t in legal_texts(state, 0) if t.startswith("SCHIP")} == {"SCHIP>p1:B"}
    state, _ = act(state, 0, "SCHIP>p1:B")
    assert state.chips[0] == [5, 1]
    assert not state.is_over


def test_r28_steal_a_chip_needs_an_opponent_with_a_chip() -> None:
    state = rig(hands={0: ["SCHIP", "B3"]}, chips={0: (1, 1)})
    assert_refused(state, 0, "SCHIP>p1:B", "R30")
    assert_refused(state, 0, "SCHIP>p0:B", "R28")  # not an opponent
    assert not any(t.startswith("SCHIP") for t in legal_texts(state, 0))


# --- R29 Block --------------------------------------------------------------------------


def _completed(hands: dict[int, list[str]], direction: int = 1) -> State:
    """Seat 0 lays B5 on a blue 1-4; the Block window is open."""
    state = rig(hands={0: ["B5", "R3", "R4"], **hands}, piles={0: _FULL_BLUE}, direction=direction)
    state, events = act(state, 0, "B5>1")
    assert any(isinstance(e, BlockWindowOpened) for e in events)
    return state


def test_r29_every_opponent_is_asked_in_turn_order_block_or_not() -> None:
    state = _completed({2: ["BLOCK", "R1"]})
    assert state.deciders() == (1, 2, 3)
    assert state.current_player() == 1
    assert legal_texts(state, 1) == {"pass"}
    assert legal_texts(state, 2) == {"pass", "block"}
    assert legal_texts(state, 3) == {"pass"}
    assert legal_action_ids(state, 0) == []


def test_r29_turn_order_follows_the_direction() -> None:
    state = _completed({}, direction=-1)
    assert state.deciders() == (3, 2, 1)
    assert state.current_player() == 3


def test_r29_the_first_blocker_in_turn_order_spends_the_others_keep_theirs() -> None:
    state = _completed({1: ["BLOCK", "R1"], 3: ["BLOCK", "R2"]})
    pile = list(state.piles[0])
    block_1 = state.hands[1][0]
    state = run(state, (3, "block"), (2, "pass"))
    state, events = act(state, 1, "block")
    assert PileBlocked(1, block_1, 0, 0, tuple(pile)) in events
    assert kinds(state.hands[1]) == ["R1"]
    assert kinds(state.hands[3]) == ["BLOCK", "R2"]
    assert state.special == [block_1]
    assert state.pool == pile
    assert state.chips[0] == [0, 0]
    assert not any(isinstance(e, ChipTaken | PileCompleted) for e in events)


def test_r29_with_the_direction_reversed_the_first_blocker_is_the_other_one() -> None:
    state = _completed({1: ["BLOCK", "R1"], 3: ["BLOCK", "R2"]}, direction=-1)
    state = run(state, (1, "block"), (2, "pass"), (3, "block"))
    assert kinds(state.hands[3]) == ["R2"]
    assert kinds(state.hands[1]) == ["BLOCK", "R1"]


def test_r29_a_later_blocker_spends_when_earlier_seats_pass() -> None:
    state = _completed({1: ["BLOCK", "R1"], 3: ["BLOCK", "R2"]})
    state = run(state, (1, "pass"), (2, "pass"), (3, "block"))
    assert kinds(state.hands[1]) == ["BLOCK", "R1"]
    assert kinds(state.hands[3]) == ["R2"]


def test_r29_a_block_is_played_from_the_hand_only() -> None:
    state = rig(hands={0: ["B5", "R3"], 1: ["R1"]}, discards={1: ["BLOCK"]}, piles={0: _FULL_BLUE})
    state, _ = act(state, 0, "B5>1")
    assert legal_texts(state, 1) == {"pass"}
    reason = assert_refused(state, 1, "block", "R29")
    assert "hand" in reason


def test_r29_the_blocker_draws_nothing_and_refills_next_turn() -> None:
    state = _completed({1: ["BLOCK"]})
    state = run(state, (1, "block"), (2, "pass"), (3, "pass"))
    assert state.hands[1] == []
    state, events = act(state, 0, "discard R3")
    assert state.current == 1
    assert len(state.hands[1]) == 5
    assert any(isinstance(e, CardsDrawn) and e.seat == 1 and e.reason == "refill" for e in events)


def test_r29_the_completers_turn_goes_on_after_the_window() -> None:
    state = _completed({2: ["BLOCK", "R1"]})
    state = run(state, (1, "pass"), (2, "block"), (3, "pass"))
    assert state.deciders() == (0,)
    assert kinds(state.hands[0]) == ["R3", "R4"]
    state, _ = act(state, 0, "discard R3")
    assert state.current == 1


def test_r29_a_player_cannot_block_their_own_sequence() -> None:
    state = _completed({0: ["B5", "BLOCK", "R3"]})
    assert kinds(state.hands[0]) == ["BLOCK", "R3"]
    reason = assert_refused(state, 0, "block", "R29")
    assert "own" in reason
    assert_refused(state, 0, "pass", "R29")


def test_r29_a_block_cannot_be_blocked() -> None:
    state = _completed({1: ["BLOCK", "R1"], 2: ["BLOCK", "R2"]})
    state = run(state, (1, "block"), (2, "pass"), (3, "pass"))
    assert state.deciders() == (0,)
    assert kinds(state.hands[2]) == ["BLOCK", "R2"]


def test_r29_nothing_else_is_played_while_the_window_is_open() -> None:
    state = _completed({1: ["B1", "R1"]})
    assert_refused(state, 0, "discard R3", "R29")
    assert_refused(state, 1, "B1>new", "R29")
    state, _ = act(state, 1, "pass")
    reason = assert_refused(state, 1, "pass", "R29")
    assert "already answered" in reason


# --- R30 impossible action cards --------------------------------------------------------


def test_r30_steal_a_card_without_a_discard_to_take_cannot_be_played() -> None:
    state = rig(hands={0: ["SCARD", "B3"]})
    assert_refused(state, 0, "SCARD>p1", "R30")
    assert not any(t.startswith("SCARD") for t in legal_texts(state, 0))
    assert "discard SCARD" in legal_texts(state, 0)


def test_r30_two_player_reverse_kept_has_no_effect() -> None:
    settings = Settings(player_count=2, two_player_reverses=True)
    deck = deck_for(2, keep_two_player_reverses=True)
    assert len(deck) == 115
    state = rig(settings, hands={0: ["REV", "B3"]})
    assert "REV" in legal_texts(state, 0)
    state, _ = act(state, 0, "REV")
    assert state.direction == 1
    assert kinds(state.special) == ["REV"]
    state, _ = act(state, 0, "discard B3")
    assert state.current == 1
