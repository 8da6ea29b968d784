"""The PettingZoo AEC environment: PettingZoo's own API and seed tests, max cycles,
Block windows, rewards and illegal actions."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from gymnasium import spaces
from pettingzoo.test import api_test, seed_test

from sequence_stacks.engine import (
    IllegalActionError,
    NotationError,
    Phase,
    Settings,
    legal_action_ids,
    observe,
)
from sequence_stacks.env.pettingzoo_env import env, raw_env

# PettingZoo's api_test warns that a Dict observation space "probably should be" a Box
# or Discrete, and that a dict observation "is not a NumPy array", unless the env's name
# is in its hard-coded list of its own classic games, which use the same
# {"observation", "action_mask"} convention as this environment.
API_TEST_WARNINGS = [
    "ignore:Observation space for each agent probably should be:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning",
]


def _mask_action(game: Any, rng: np.random.Generator) -> int | None:
    observation, _, termination, truncation, _ = game.last()
    if termination or truncation:
        return None
    legal = np.flatnonzero(observation["action_mask"])
    return int(legal[rng.integers(len(legal))])


@pytest.mark.filterwarnings(*API_TEST_WARNINGS)
@pytest.mark.parametrize("player_count", [2, 3, 4, 6])
def test_pettingzoo_api_test(player_count: int) -> None:
    api_test(env(player_count=player_count), num_cycles=1000)


@pytest.mark.filterwarnings(*API_TEST_WARNINGS)
def test_pettingzoo_api_test_on_the_raw_env() -> None:
    api_test(raw_env(), num_cycles=1000)


def test_pettingzoo_seed_test() -> None:
    seed_test(env, num_cycles=500)


def test_same_seed_same_game_and_seeds_reach_the_engine() -> None:
    rng_a, rng_b = np.random.default_rng(3), np.random.default_rng(3)
    a, b = env(), env()
    a.reset(seed=123)
    b.reset(seed=123)
    assert a.unwrapped.game_seed == b.unwrapped.game_seed == 123
    trail_a, trail_b = [], []
    for _ in range(300):
        if not a.agents:
            break
        trail_a.append(a.agent_selection)
        trail_b.append(b.agent_selection)
        a.step(_mask_action(a, rng_a))
        b.step(_mask_action(b, rng_b))
    assert trail_a == trail_b
    a.reset(seed=124)
    b.reset(seed=123)
    assert not np.array_equal(
        a.observe("player_0")["observation"], b.observe("player_0")["observation"]
    )


def test_plain_reset_after_a_seeded_one_replays() -> None:
    a, b = raw_env(), raw_env()
    a.reset(seed=9)
    b.reset(seed=9)
    a.reset()
    b.reset()
    assert a.game_seed == b.game_seed != 9


def test_max_cycles_truncates_every_agent_after_that_many_rounds() -> None:
    game = env(player_count=4, max_cycles=3)
    game.reset(seed=1)
    rng = np.random.default_rng(0)
    live_steps = 0
    dead_steps: list[str] = []
    for agent in game.agent_iter():
        _, reward, termination, truncation, _ = game.last()
        if termination or truncation:
            assert truncation
            assert not termination
            assert reward == 0
            dead_steps.append(agent)
            game.step(None)
        else:
            live_steps += 1
            game.step(_mask_action(game, rng))
    assert live_steps == 3 * 4
    assert sorted(dead_steps) == [f"player_{seat}" for seat in range(4)]
    assert game.agents == []


def test_without_max_cycles_a_game_runs_to_its_end_and_pays_the_returns() -> None:
    game = env(player_count=3)
    rng = np.random.default_rng(5)
    for seed in range(30):
        game.reset(seed=seed)
        final: dict[str, float] = {}
        for agent in game.agent_iter():
            _, reward, termination, truncation, _ = game.last()
            if termination or truncation:
                assert termination
                assert not truncation
                final[agent] = reward
            game.step(_mask_action(game, rng))
        result = game.unwrapped._state.result
        assert result is not None
        assert final == {f"player_{s}": result.returns[s] for s in range(3)}
        if result.winner is not None:
            assert final[f"player_{result.winner}"] == 1.0
            return
    pytest.fail("no random 3-player game was won in 30 seeds")


def test_agent_selection_follows_block_windows() -> None:
    game = raw_env(player_count=4)
    rng = np.random.default_rng(2)
    windows = 0
    for seed in range(20):
        game.reset(seed=seed)
        while game.agents and windows < 5:
            state = game._state
            assert state is not None
            if state.phase == Phase.BLOCK_WINDOW:
                windows += 1
                asked = state.window_pending[0]
                assert game.agent_selection == f"player_{asked}"
                mask = game.observe(game.agent_selection)["action_mask"]
                assert set(np.flatnonzero(mask)) <= {0, 1}
                # Other asked seats get a zero mask until they are selected.
                for other in state.window_pending[1:]:
                    assert not game.observe(f"player_{other}")["action_mask"].any()
            elif not game.terminations[game.agent_selection]:
                assert game.agent_selection == f"player_{state.current}"
            game.step(_mask_action(game, rng))
    assert windows == 5


def test_observation_and_mask_are_the_selected_seats_view() -> None:
    game = raw_env(player_count=4)
    game.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(50):
        agent = game.agent_selection
        seat = int(agent.split("_")[1])
        observation = game.observe(agent)
        assert game._state is not None
        view = observe(game._state, seat)
        assert np.array_equal(observation["observation"], game._encoder.encode(view))
        legal = legal_action_ids(game._state, seat)
        assert np.flatnonzero(observation["action_mask"]).tolist() == legal
        game.step(_mask_action(game, rng))


def _illegal_id(game: Any) -> int:
    mask = game.observe(game.agent_selection)["action_mask"]
    return int(np.flatnonzero(mask == 0)[0])


def test_an_illegal_action_ends_the_game_with_minus_one_for_the_offender() -> None:
    game = env(player_count=4)
    game.reset(seed=8)
    offender = game.agent_selection
    game.step(_illegal_id(game))
    assert all(game.terminations.values())
    rewards = {}
    for agent in game.agent_iter():
        _, reward, termination, truncation, _ = game.last()
        assert termination or truncation
        rewards[agent] = reward
        game.step(None)
    assert rewards[offender] == -1
    assert all(reward == 0 for agent, reward in rewards.items() if agent != offender)


def test_the_raw_env_refuses_an_illegal_action_naming_the_rule() -> None:
    game = raw_env()
    game.reset(seed=8)
    before = game.observe(game.agent_selection)["observation"]
    with pytest.raises(IllegalActionError) as info:
        game.step(1)  # "block" outside a Block window
    assert info.value.rule_id == "R29"
    assert np.array_equal(before, game.observe(game.agent_selection)["observation"])
    with pytest.raises(NotationError, match="outside"):
        game.step(10_000)
    with pytest.raises(ValueError, match="must act"):
        game.step(None)


def test_out_of_range_actions_are_caught_by_the_wrapper() -> None:
    game = env()
    game.reset(seed=1)
    with pytest.raises(AssertionError, match="action space"):
        game.step(10_000)


def test_render_ansi_shows_the_public_table() -> None:
    game = env(render_mode="ansi", settings=Settings(player_count=3))
    game.reset(seed=2)
    text = game.render()
    assert isinstance(text, str)
    assert "seat 2: hand 5" in text
    assert "[" not in text  # a spectator's view: no hand shown
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(render_mode="human")


def test_spaces_are_shared_and_sized() -> None:
    game = raw_env(player_count=5)
    space = game.observation_space("player_0")
    assert space is game.observation_space("player_0")
    assert isinstance(space, spaces.Dict)
    assert space["observation"].shape == (99 + 62 * 5 + 28,)
    actions = game.action_space("player_4")
    assert isinstance(actions, spaces.Discrete)
    assert (int(actions.n),) == space["action_mask"].shape
