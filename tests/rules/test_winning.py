"""RULES §6, winning and the end of the game: the win, when it is checked, stalemate and
the turn limit (R31-R33)."""

from __future__ import annotations

import pytest

from sequence_stacks.engine import EndReason, Result, Settings, State, legal_action_ids, new_game
from sequence_stacks.engine.events import GameEnded

from .helpers import act, assert_refused, kinds, pass_window, rig, run

_FULL_BLUE = ["B1", "B2", "B3", "B4"]
_FULL_RED = ["R1", "R2", "R3", "R4"]


def _two_completions(chips: tuple[int, int], settings: Settings | None = None) -> State:
    return rig(
        settings,
        hands={0: ["B5", "R5", "R3"]},
        piles={0: _FULL_BLUE, 2: _FULL_RED},
        chips={0: chips},
    )


def _complete(state: State, text: str) -> State:
    return pass_window(run(state, (0, text)))


# --- R31 the win ------------------------------------------------------------------------


def test_r31_five_chips_with_two_of_each_colour_win() -> None:
    state = _complete(_two_completions((2, 2)), "B5>1")
    assert state.is_over
    assert state.result == Result(EndReason.WIN, 0, (1.0, -1 / 3, -1 / 3, -1 / 3))
    assert sum(state.result.returns) == pytest.approx(0.0)


def test_r31_four_blue_and_one_red_is_not_a_win() -> None:
    state = _complete(_two_completions((3, 1)), "B5>1")
    assert state.chips[0] == [4, 1]
    assert not state.is_over
    assert state.result is None
    state = _complete(state, "R5>1")  # the next red chip wins
    assert state.chips[0] == [4, 2]
    assert state.result is not None
    assert state.result.winner == 0


def test_r31_five_of_one_colour_is_not_a_win() -> None:
    state = _complete(_two_completions((4, 0)), "B5>1")
    assert state.chips[0] == [5, 0]
    assert not state.is_over


def test_r31_chips_to_win_and_min_each_colour_options() -> None:
    three_any = Settings(chips_to_win=3, min_each_colour=0)
    state = _complete(_two_completions((2, 0), three_any), "B5>1")
    assert state.result is not None
    assert state.result.winner == 0

    six_three = Settings(chips_to_win=6, min_each_colour=3)
    state = _complete(_two_completions((3, 2), six_three), "B5>1")
    assert state.chips[0] == [4, 2]
    assert not state.is_over
    state = _complete(state, "R5>1")
    assert state.chips[0] == [4, 3]
    assert state.is_over


def test_r31_two_player_returns_vector() -> None:
    settings = Settings(player_count=2)
    state = _complete(_two_completions((2, 2), settings), "B5>1")
    assert state.result == Result(EndReason.WIN, 0, (1.0, -1.0))


# --- R32 when the win is checked --------------------------------------------------------


def test_r32_the_game_ends_at_once_mid_turn() -> None:
    state = run(_two_completions((2, 2)), (0, "B5>1"), (1, "pass"), (2, "pass"))
    state, events = act(state, 3, "pass")
    assert GameEnded(EndReason.WIN, 0, (1.0, -1 / 3, -1 / 3, -1 / 3)) in events
    assert state.is_over
    assert state.deciders() == ()
    assert state.current_player() is None
    assert kinds(state.hands[0]) == ["R5", "R3"]  # never discarded
    assert all(legal_action_ids(state, seat) == [] for seat in range(4))
    reason = assert_refused(state, 0, "discard R3", "R32")
    assert "over" in reason
    assert_refused(state, 0, "R5>1", "R32")
    assert_refused(state, 1, "pass", "R32")


def test_r32_no_win_when_the_supply_gives_no_chip() -> None:
    state = rig(
        hands={0: ["R5", "R3"]}, piles={2: _FULL_RED}, chips={0: (3, 1), 1: (0, 10), 2: (0, 9)}
    )
    assert state.supply == [17, 0]
    state = _complete(state, "R5>1")
    assert state.chips[0] == [3, 1]
    assert not state.is_over


def test_r32_a_blocked_completion_gives_no_win() -> None:
    state = rig(
        hands={0: ["B5", "R3"], 1: ["BLOCK", "R1"]}, piles={0: _FULL_BLUE}, chips={0: (1, 3)}
    )
    state = run(state, (0, "B5>1"), (1, "block"), (2, "pass"), (3, "pass"))
    assert state.chips[0] == [1, 3]
    assert not state.is_over


# --- R33 stalemate and the turn limit ---------------------------------------------------


def _starved(
    hands: dict[int, list[str]],
    *,
    players: int = 3,
    piles: dict[int, list[str]] | None = None,
) -> State:
    """Nothing left to draw: draw pile and pool are empty (three players unless told)."""
    return rig(Settings(player_count=players), hands=hands, piles=piles, rest="special")


def _stalemated(state: State) -> bool:
    return state.result is not None and state.result.reason == "stalemate"


def test_r33_a_round_without_a_card_played_and_nothing_to_draw_is_a_stalemate() -> None:
    state = _starved({0: ["R3", "R4"], 1: ["B3", "B4"], 2: ["R1", "R2"]})
    state = run(state, (0, "discard R3"), (1, "discard B3"))
    assert not state.is_over
    state, events = act(state, 2, "discard R1")
    assert state.is_over
    assert state.result == Result(EndReason.STALEMATE, None, (0.0, 0.0, 0.0))
    assert GameEnded(EndReason.STALEMATE, None, (0.0, 0.0, 0.0)) in events


def test_r33_a_card_played_to_a_pile_restarts_the_round() -> None:
    state = _starved({0: ["R3", "R4"], 1: ["B1", "B3", "B4"], 2: ["R1", "R2"]})
    state = run(state, (0, "discard R3"), (1, "B1>new"), (1, "discard B3"), (2, "discard R1"))
    state = run(state, (0, "discard R4"))
    assert not state.is_over  # seat 1's turn had a play: the round began after it
    state = run(state, (1, "discard B4"))
    assert _stalemated(state)


def test_r33_the_turn_with_a_play_belongs_to_a_round_with_a_play() -> None:
    """#12.11: seat 0 plays R4 and discards, seats 1 and 2 discard: no stalemate yet."""
    hands = {0: ["R4", "B3", "B4"], 1: ["B3", "B4"], 2: ["R1", "R2"]}
    state = _starved(hands, piles={2: ["R1", "R2", "R3"]})
    state = run(state, (0, "R4>1"), (0, "discard B3"), (1, "discard B3"), (2, "discard R1"))
    assert not state.is_over
    assert state.stall_mask == 0b111  # seat 0 is marked as its play-free turn starts
    state, events = act(state, 0, "discard B4")
    assert state.result == Result(EndReason.STALEMATE, None, (0.0, 0.0, 0.0))
    assert GameEnded(EndReason.STALEMATE, None, (0.0, 0.0, 0.0)) in events


def test_r33_two_players_the_round_after_a_play_needs_both_turns() -> None:
    """2 players; seat 0 ends its next turn with an empty hand and nothing to draw (R19)."""
    state = _starved({0: ["R4", "B3"], 1: ["B3", "B4"]}, players=2, piles={2: ["R1", "R2", "R3"]})
    state = run(state, (0, "R4>1"), (0, "discard B3"), (1, "discard B3"))
    assert not state.is_over
    assert state.hands[0] == []
    state = run(state, (0, "end"))
    assert _stalemated(state)


def test_r33_after_a_reverse_the_player_who_played_to_a_pile_still_needs_a_turn() -> None:
    """R27: seat 0 plays R4 and a Reverse; seats 2 and 1 follow, then seat 0 again."""
    hands = {0: ["R4", "REV", "B3", "B4"], 1: ["B3", "B4"], 2: ["R1", "R2"]}
    state = _starved(hands, piles={2: ["R1", "R2", "R3"]})
    state = run(state, (0, "R4>1"), (0, "REV"), (0, "discard B3"))
    assert state.current == 2
    state = run(state, (2, "discard R1"), (1, "discard B3"))
    assert not state.is_over
    state = run(state, (0, "discard B4"))
    assert _stalemated(state)


def test_r33_a_skipped_player_has_no_turn_so_the_round_waits_for_it() -> None:
    """R26: the round after seat 0's play is seat 2, seat 0, then seat 1 (skipped once)."""
    hands = {0: ["R4", "SKIP", "B3", "B4"], 1: ["B3", "B4"], 2: ["R1", "R2"]}
    state = _starved(hands, piles={2: ["R1", "R2", "R3"]})
    state = run(state, (0, "R4>1"), (0, "SKIP"), (0, "discard B3"))
    assert state.current == 2
    state = run(state, (2, "discard R1"), (0, "discard B4"))
    assert not state.is_over
    state = run(state, (1, "discard B3"))
    assert _stalemated(state)


def test_r33_a_completion_whose_pool_is_drawn_back_is_still_a_play() -> None:
    """R29, R18: seat 1 blocks seat 0's pile, which goes to the pool; seat 0's emptied hand
    draws the whole pool back, so the draw pile and pool are empty again at the turn's end,
    but the turn had a play and the blocker had no turn."""
    hands = {0: ["B5"], 1: ["BLOCK", "R1", "R2"], 2: ["R3", "R4"]}
    state = _starved(hands, piles={0: _FULL_BLUE})
    state = run(state, (0, "B5>1"), (1, "block"), (2, "pass"))
    assert len(state.hands[0]) == 5
    assert not state.draw
    assert not state.pool
    assert state.stall_mask == 0
    state = run(state, (0, f"discard {kinds(state.hands[0])[0]}"))
    state = run(state, (1, "discard R1"), (2, "discard R3"))
    assert not state.is_over
    state = run(state, (0, f"discard {kinds(state.hands[0])[0]}"))
    assert _stalemated(state)


def test_r33_no_stalemate_while_the_draw_pile_has_cards() -> None:
    state = rig(
        Settings(player_count=3),
        hands={0: ["R3", "R4", "B3", "B4", "B5"], 1: ["B3", "B4", "B5", "BW", "B2"], 2: ["R1"] * 5},
        draw=["RW", "RW"],
        rest="special",
    )
    state = run(state, (0, "discard R3"), (1, "discard B3"), (2, "discard R1"))
    assert not state.is_over
    assert len(state.draw) == 1  # seat 0 drew one of the two
    assert state.stall_mask == 0


def test_r33_no_stalemate_while_the_pool_has_cards() -> None:
    state = rig(
        Settings(player_count=3),
        hands={0: ["R3", "R4"], 1: ["B3", "B4", "B5", "BW", "B2"], 2: ["R1"] * 5},
        pool=["RW"],
        rest="special",
    )
    state = run(state, (0, "discard R3"), (1, "discard B3"), (2, "discard R1"))
    assert not state.is_over


@pytest.mark.parametrize("max_turns", [1, 3])
def test_r33_the_game_ends_with_no_winner_after_max_turns(max_turns: int) -> None:
    state = new_game(Settings(max_turns=max_turns), 5)
    for turn in range(1, max_turns + 1):
        assert not state.is_over
        seat = state.current
        state, events = act(state, seat, f"discard {kinds(state.hands[seat])[0]}")
        assert state.turn_count == turn + (0 if turn == max_turns else 1)
    assert state.is_over
    assert state.result == Result(EndReason.MAX_TURNS, None, (0.0, 0.0, 0.0, 0.0))
    assert GameEnded(EndReason.MAX_TURNS, None, (0.0, 0.0, 0.0, 0.0)) in events


def test_r33_max_turns_default_is_2000() -> None:
    assert Settings().max_turns == 2000
    state = rig(hands={0: ["B3"]}, turn_count=1999)
    state = run(state, (0, "discard B3"))
    assert not state.is_over
    state = run(state, (1, f"discard {kinds(state.hands[1])[0]}"))
    assert state.result is not None
    assert state.result.reason == "max_turns"


# --- N17 a turn that never ends ---------------------------------------------------------


def _endless_turn(limit: int) -> State:
    """Seat 0 holds a whole blue run, blue chips are all gone, and nothing else can be
    drawn: each completion goes to the pool, is reshuffled and drawn straight back."""
    settings = Settings(player_count=2, chip_supply=3, max_turn_actions=limit)
    return rig(
        settings,
        hands={0: ["B1", "B2", "B3", "B4", "B5"], 1: ["R1", "R2"]},
        chips={1: (3, 0)},
        rest="special",
    )


def _play_blue_run(state: State) -> tuple[State, int]:
    """Play the hand's blue cards 1-5 in order, passing each Block window."""
    plays = 0
    for text in ("B1>new", "B2>1", "B3>1", "B4>1", "B5>1"):
        if state.is_over:
            break
        state = pass_window(run(state, (0, text)))
        plays += 1
    return state, plays


def test_n17_a_turn_can_otherwise_loop_without_end() -> None:
    state = _endless_turn(1000)
    for _ in range(5):
        state, _ = _play_blue_run(state)
        assert not state.is_over
        assert state.chips[0] == [0, 0]  # R17: blue supply empty, no chip
        assert sorted(kinds(state.hands[0])) == ["B1", "B2", "B3", "B4", "B5"]
    assert state.turn_count == 1
    assert state.turn_actions == 25


def test_n17_max_turn_actions_ends_the_game_with_no_winner() -> None:
    state = _endless_turn(12)
    total = 0
    while not state.is_over:
        state, plays = _play_blue_run(state)
        total += plays
    assert total == 12
    assert state.result == Result(EndReason.MAX_TURN_ACTIONS, None, (0.0, 0.0))
    assert state.turn_count == 1


def test_n17_block_answers_and_the_discard_do_not_count() -> None:
    state = rig(
        Settings(max_turn_actions=10),
        hands={0: ["B5", "R3"]},
        piles={0: _FULL_BLUE},
    )
    state = pass_window(run(state, (0, "B5>1")))
    assert state.turn_actions == 1
    state, events = act(state, 0, "discard R3")
    assert state.current == 1
    assert state.turn_actions == 0
    assert not any(isinstance(event, GameEnded) for event in events)
