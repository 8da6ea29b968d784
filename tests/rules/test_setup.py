"""RULES §2, setup: player count, the deal, the first player and the seed (R5-R7)."""

from __future__ import annotations

import pytest

from sequence_stacks.engine import (
    Settings,
    SettingsError,
    new_game,
    position_digest,
)
from sequence_stacks.engine.events import Event, TurnStarted

from .helpers import act, kinds, rig


@pytest.mark.parametrize("player_count", [2, 3, 4, 5, 6])
def test_r5_two_to_six_players_are_accepted(player_count: int) -> None:
    state = new_game(Settings(player_count=player_count), 1)
    assert state.player_count == player_count
    assert len(state.hands) == player_count


@pytest.mark.parametrize("player_count", [-1, 0, 1, 7, 12])
def test_r5_other_player_counts_are_refused_clearly(player_count: int) -> None:
    with pytest.raises(SettingsError, match=rf"player_count={player_count} is outside 2-6 \(R5\)"):
        Settings(player_count=player_count)


@pytest.mark.parametrize("player_count", [2, 4, 6])
def test_r6_five_cards_are_dealt_to_each_player(player_count: int) -> None:
    state = new_game(Settings(player_count=player_count), 9)
    assert [len(hand) for hand in state.hands] == [5] * player_count
    deck_size = 112 if player_count == 2 else 120
    assert len(state.draw) == deck_size - 5 * player_count
    assert state.pool == []
    assert state.special == []
    assert all(pile == [] for pile in state.piles)
    assert all(pile == [] for pile in state.discards)


@pytest.mark.parametrize("hand_size", [1, 3, 7])
def test_r6_hand_size_option_sets_the_deal(hand_size: int) -> None:
    state = new_game(Settings(hand_size=hand_size), 9)
    assert [len(hand) for hand in state.hands] == [hand_size] * 4
    assert len(state.draw) == 120 - 4 * hand_size


def test_r7_seat_zero_starts_and_play_passes_left() -> None:
    events: list[Event] = []
    state = new_game(Settings(), 4, events)
    assert state.current == 0
    assert state.deciders() == (0,)
    assert state.turn_count == 1
    assert TurnStarted(0, 1) in events
    for seat in (0, 1, 2, 3):
        assert state.current == seat
        state, _ = act(state, seat, f"discard {kinds(state.hands[seat])[0]}")
    assert state.current == 0


@pytest.mark.parametrize("first_seat", [1, 2, 3])
def test_r7_first_seat_option_chooses_who_starts(first_seat: int) -> None:
    state = new_game(Settings(first_seat=first_seat), 4)
    assert state.current == first_seat
    assert state.deciders() == (first_seat,)
    state, _ = act(state, first_seat, f"discard {kinds(state.hands[first_seat])[0]}")
    assert state.current == (first_seat + 1) % 4


def test_r7_first_seat_must_be_a_seat() -> None:
    with pytest.raises(SettingsError, match=r"first_seat=3 is outside 0-2 \(R7\)"):
        Settings(player_count=3, first_seat=3)


def test_r7_the_seed_fully_determines_the_shuffle() -> None:
    first = new_game(Settings(), 123)
    again = new_game(Settings(), 123)
    other = new_game(Settings(), 124)
    assert first == again
    assert position_digest(first) == position_digest(again)
    assert first.draw != other.draw
    assert new_game(Settings(), "abc") == new_game(Settings(), "abc")
    assert new_game(Settings(), "abc").draw != new_game(Settings(), "abd").draw


def test_r7_rigged_positions_start_mid_turn_of_the_named_seat() -> None:
    state = rig(current=2)
    assert state.deciders() == (2,)
