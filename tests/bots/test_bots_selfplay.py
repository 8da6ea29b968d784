"""The sim runner the bots are measured with: play_game, selfplay and the statistics."""

import pytest

from sequence_stacks.bots import make_bot
from sequence_stacks.engine import (
    Action,
    ActionType,
    EndReason,
    Event,
    GameRecord,
    Settings,
    View,
    position_digest,
)
from sequence_stacks.sim import (
    BotError,
    GameRow,
    Rate,
    iter_selfplay,
    play_game,
    seat_bots,
    selfplay,
    summarize,
    wilson_interval,
)


def test_play_game_returns_a_record_that_replays() -> None:
    seen: list[Event] = []
    bots = [make_bot("greedy", seed=1), make_bot("random", seed=2), make_bot("greedy", seed=3)]
    state, record = play_game(Settings(player_count=3), 12, bots, on_event=seen.append)
    assert state.is_over
    assert record.result == state.result
    assert record.digest == position_digest(state)
    assert record.meta["bots"] == ["greedy", "random", "greedy"]
    assert GameRecord.from_dict(record.to_dict()).replay() == state
    assert type(seen[0]).__name__ == "CardsDrawn"
    assert type(seen[-1]).__name__ == "GameEnded"


def test_play_game_events_are_the_same_with_or_without_a_hook() -> None:
    def play(hook: bool) -> GameRecord:
        bots = [make_bot("random", seed=5), make_bot("random", seed=6)]
        sink: list[Event] = []
        return play_game(Settings(player_count=2), 3, bots, on_event=sink.append if hook else None)[
            1
        ]

    assert play(True) == play(False)


def test_play_game_needs_one_bot_per_seat() -> None:
    with pytest.raises(ValueError, match="3 seats need 3 bots"):
        play_game(Settings(player_count=3), 1, [make_bot("random")])


class _Stubborn:
    """A broken bot: always ends its turn, held cards or not."""

    name = "stubborn"

    def choose(self, view: View) -> Action:
        return Action(ActionType.END)


def test_play_game_reports_a_bot_that_breaks_the_rules() -> None:
    with pytest.raises(BotError, match=r"bot 'stubborn' at seat 0 chose end.*R19"):
        play_game(Settings(player_count=2), 1, [_Stubborn(), make_bot("random")])


def test_play_game_stops_a_runaway_game() -> None:
    bots = [make_bot("greedy", seed=0), make_bot("greedy", seed=1)]
    with pytest.raises(BotError, match="passed 5 actions"):
        play_game(Settings(player_count=2), 1, bots, max_actions=5)


def test_seat_bots_cycle_and_rotate() -> None:
    assert seat_bots(["a", "b"], 4, 0) == ("a", "b", "a", "b")
    assert seat_bots(["a", "b"], 4, 1) == ("b", "a", "b", "a")
    assert seat_bots(["a", "b", "c"], 2, 2) == ("c", "a")
    with pytest.raises(ValueError, match="at least one bot"):
        seat_bots([], 2, 0)


def test_selfplay_rotates_seats_over_shared_deals() -> None:
    pairs = list(iter_selfplay(Settings(player_count=2), ["greedy", "random"], games=4, seed=10))
    rows = [row for row, _ in pairs]
    assert [row.bots for row in rows] == [("greedy", "random"), ("random", "greedy")] * 2
    assert [row.seed for row in rows] == [10, 10, 11, 11]
    for row, record in pairs:
        assert record.meta["bots"] == list(row.bots)
        assert record.meta["game_index"] == row.index
        assert len(record.actions) == row.action_count
        final = record.replay()
        assert final.turn_count == row.turns
        assert final.result is not None
        assert (final.result.reason, final.result.winner) == (row.reason, row.winner)


def test_selfplay_is_reproducible() -> None:
    settings = Settings(player_count=3)
    assert selfplay(settings, ["random"], games=3, seed=4) == selfplay(
        settings, ["random"], games=3, seed=4
    )


def test_selfplay_refuses_unknown_bots_before_playing() -> None:
    with pytest.raises(ValueError, match="unknown bot 'nobody'"):
        selfplay(Settings(player_count=2), ["greedy", "nobody"], games=1)


def _row(index: int, bots: tuple[str, ...], winner: int | None, turns: int) -> GameRow:
    reason = EndReason.WIN if winner is not None else EndReason.STALEMATE
    return GameRow(index, 0, bots, reason, winner, turns, turns * 3)


def test_summarize_counts_seats_bots_and_endings() -> None:
    rows = [
        _row(0, ("greedy", "random"), 0, 10),
        _row(1, ("random", "greedy"), 1, 20),
        _row(2, ("greedy", "random"), None, 30),
        _row(3, ("random", "greedy"), 0, 41),
    ]
    summary = summarize(rows, 2)
    assert summary.games == 4
    assert summary.seats == (Rate(2, 4), Rate(1, 4))
    assert summary.bots == {"greedy": Rate(2, 4), "random": Rate(1, 4)}
    assert (summary.wins, summary.stalemates, summary.max_turns) == (3, 1, 0)
    assert summary.mean_turns == pytest.approx(25.25)
    assert summary.median_turns == 25.0
    assert rows[3].winner_bot == "random"
    assert rows[2].winner_bot is None
    data = summary.to_dict()
    assert data["bots"]["greedy"]["rate"] == 0.5
    assert data["seats"][1]["ci95"] == list(Rate(1, 4).interval)


def test_wilson_interval() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4)
    assert high == pytest.approx(0.7634, abs=1e-4)
    low, high = wilson_interval(0, 20)
    assert low == 0.0
    assert high == pytest.approx(0.1611, abs=1e-4)
    assert wilson_interval(20, 20)[1] == 1.0
