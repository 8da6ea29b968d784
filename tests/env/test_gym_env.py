"""The Gymnasium environment: Gymnasium's own checker, seeding, masks, rewards, bots."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from sequence_stacks.engine import Phase, Settings, legal_action_ids, observe
from sequence_stacks.env import register_envs
from sequence_stacks.env.gym_env import ENV_ID, SequenceStacksEnv


def _play_episode(game: SequenceStacksEnv, seed: int, rng: np.random.Generator) -> float:
    _, info = game.reset(seed=seed)
    while True:
        legal = np.flatnonzero(info["action_mask"])
        _, reward, terminated, truncated, info = game.step(int(rng.choice(legal)))
        if terminated or truncated:
            return reward


def test_gymnasium_check_env_on_the_registered_env() -> None:
    register_envs()
    game = gymnasium.make(ENV_ID, render_mode="ansi")
    check_env(game.unwrapped)  # unwrapped, as check_env asks; its spec checks render modes


@pytest.mark.parametrize("opponents", ["greedy", ("random", "greedy")])
def test_gymnasium_check_env_with_other_opponents(opponents: str | tuple[str, ...]) -> None:
    player_count = 4 if isinstance(opponents, str) else 3
    check_env(
        SequenceStacksEnv(player_count=player_count, opponents=opponents, seat=None),
        skip_render_check=True,
    )


def test_same_seed_same_episode() -> None:
    a, b = SequenceStacksEnv(opponents="greedy"), SequenceStacksEnv(opponents="greedy")
    rng_a, rng_b = np.random.default_rng(1), np.random.default_rng(1)
    assert _play_episode(a, 42, rng_a) == _play_episode(b, 42, rng_b)
    assert a.game_seed == b.game_seed
    obs_a, _ = a.reset(seed=7)
    obs_b, _ = b.reset(seed=8)
    assert a.game_seed != b.game_seed
    assert not np.array_equal(obs_a, obs_b)


def test_mask_and_observation_are_the_learning_seats() -> None:
    game = SequenceStacksEnv(player_count=3, seat=1)
    obs, info = game.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(40):
        state = game._state
        assert state is not None
        assert state.current_player() == 1
        assert np.flatnonzero(info["action_mask"]).tolist() == legal_action_ids(state, 1)
        assert np.array_equal(obs, game._encoder.encode(observe(state, 1)))
        legal = np.flatnonzero(info["action_mask"])
        obs, _, terminated, _, info = game.step(int(rng.choice(legal)))
        if terminated:
            break


def test_the_reward_is_the_seats_return() -> None:
    game = SequenceStacksEnv(player_count=2, opponents="random")
    rng = np.random.default_rng(0)
    rewards = set()
    for seed in range(15):
        reward = _play_episode(game, seed, rng)
        assert game._state is not None
        result = game._state.result
        assert result is not None
        assert reward == result.returns[game.seat]
        rewards.add(reward)
    assert rewards >= {1.0, -1.0} or rewards >= {1.0, 0.0} or rewards >= {-1.0, 0.0}


def test_an_illegal_action_ends_the_episode_with_the_illegal_reward() -> None:
    game = SequenceStacksEnv(illegal_reward=-2.5)
    _, info = game.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = game.step(illegal)
    assert (reward, terminated, truncated) == (-2.5, True, False)
    assert info["illegal_action"].startswith("R")
    assert not info["action_mask"].any()
    with pytest.raises(RuntimeError, match="reset"):
        game.step(0)
    _, info = game.reset(seed=0)
    _, reward, terminated, _, info = game.step(10_000)
    assert (reward, terminated) == (-2.5, True)
    assert info["illegal_action"].startswith("R37")


def test_the_learner_answers_block_windows() -> None:
    game = SequenceStacksEnv(player_count=4, opponents="greedy")
    rng = np.random.default_rng(9)
    for seed in range(40):
        _, info = game.reset(seed=seed)
        terminated = False
        while not terminated:
            state = game._state
            assert state is not None
            if state.phase == Phase.BLOCK_WINDOW:
                assert state.window_pending[0] == game.seat
                assert set(np.flatnonzero(info["action_mask"])) <= {0, 1}
                return
            legal = np.flatnonzero(info["action_mask"])
            _, _, terminated, _, info = game.step(int(rng.choice(legal)))
    pytest.fail("the learner was never asked in a Block window in 40 games")


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="known bots"):
        SequenceStacksEnv(opponents="nobody")
    with pytest.raises(ValueError, match="opponents are needed"):
        SequenceStacksEnv(player_count=3, opponents=["random"])
    with pytest.raises(ValueError, match="seat"):
        SequenceStacksEnv(player_count=3, seat=3)
    with pytest.raises(ValueError, match="render_mode"):
        SequenceStacksEnv(render_mode="human")


def test_render_shows_the_learning_seats_hand() -> None:
    game = SequenceStacksEnv(settings=Settings(player_count=2), render_mode="ansi")
    game.reset(seed=5)
    text = game.render()
    assert text is not None
    assert "seat 0: hand 5 [" in text
    assert "seat 1: hand 5," in text
