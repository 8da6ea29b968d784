"""The expert bot: full games at every table size, through the engine and the terminal."""

import io
import json
import random
from collections.abc import Callable
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from sequence_stacks.bots import IsmctsBot, make_bot
from sequence_stacks.bots.expert import EXPERT_OPTIONS, make_expert
from sequence_stacks.bots.ismcts import default_iterations
from sequence_stacks.cli import main
from sequence_stacks.engine import (
    GameRecord,
    Settings,
    State,
    View,
    legal_action_ids,
    new_game,
    observe,
    resample,
)
from sequence_stacks.sim import play_game


@pytest.mark.parametrize("player_count", [2, 3, 4, 5, 6])
def test_the_expert_plays_whole_games_at_every_table_size(player_count: int) -> None:
    """One expert (a small search: its strength is measured in docs/bots.md) against
    heuristic bots, to the end of the game (R31, R33)."""
    bots = [make_bot("heuristic", seed=seat) for seat in range(player_count)]
    bots[player_count // 2] = make_expert(seed=7, iterations=3, candidates=3)
    state, record = play_game(Settings(player_count=player_count), 40 + player_count, bots)
    assert state.is_over
    assert record.meta["bots"][player_count // 2] == "expert"
    assert record.replay() == state


def test_the_registry_makes_the_expert_with_its_measured_options() -> None:
    bot = make_bot("expert", seed=3)
    assert isinstance(bot, IsmctsBot)
    assert bot.name == "expert"
    for option, value in EXPERT_OPTIONS.items():
        assert getattr(bot, option) == value


def test_the_expert_plays_a_game_in_the_terminal(tmp_path: Path) -> None:
    record_path = tmp_path / "game.json"
    out = io.StringIO()
    with redirect_stdout(out):
        status = main(
            [
                "watch",
                "--players",
                "2",
                "--bots",
                "expert,heuristic",
                "--seed",
                "5",
                "--delay",
                "0",
                "--option",
                "max_turns=12",
                "--record",
                str(record_path),
            ]
        )
    assert status == 0
    record = GameRecord.from_dict(json.loads(record_path.read_text(encoding="utf-8")))
    assert record.meta["bots"] == ["expert", "heuristic"]
    assert record.replay().is_over
    assert "Player 1" in out.getvalue()


def test_budget_scale_multiplies_the_default_deals_of_every_search() -> None:
    """A search's deals are ``budget_scale`` times the default (the work cap lifted so
    only the deal count stops it)."""
    state = new_game(Settings(player_count=2), 11)
    seat = state.current
    view = observe(state, seat)
    plan = [legal_action_ids(state, seat)[0]]
    base = default_iterations(2)
    for scale in (0.5, 2.0):
        bot = IsmctsBot(seed=1, work_limit=10**9, budget_scale=scale)
        (stats,) = bot.compare(view, [plan])
        assert len(stats.values) == round(base * scale)


def test_budget_scale_must_be_positive() -> None:
    with pytest.raises(ValueError, match="budget_scale"):
        IsmctsBot(budget_scale=0.0)


def test_a_dealer_draws_every_deal_and_the_default_is_resample() -> None:
    """``dealer`` (for measuring bounds, docs/bots.md) draws each of a search's deals;
    one that resamples the view as the bot does plays the default bot's game exactly,
    and one that hands over the true position is asked for every deal."""
    settings = Settings(player_count=2)

    def digest(dealer: Callable[[View, random.Random], State] | None) -> str | None:
        bots = [
            IsmctsBot(seed=5, iterations=4, candidates=3, dealer=dealer),
            make_bot("heuristic", seed=6),
        ]
        return play_game(settings, 12, bots)[1].digest

    def resampled(view: View, rng: random.Random) -> State:
        assert view.seat is not None
        return resample(view, view.seat, rng)

    assert digest(resampled) == digest(None)
    state = new_game(settings, 11)
    seat = state.current
    asked: list[int] = []

    def true_position(view: View, rng: random.Random) -> State:
        assert view == observe(state, seat)
        asked.append(view.turn_count)
        return state.clone()

    bot = IsmctsBot(seed=1, work_limit=10**9, iterations=6, dealer=true_position)
    (stats,) = bot.compare(observe(state, seat), [[legal_action_ids(state, seat)[0]]])
    assert len(asked) == len(stats.values) == 6
