"""The batched environment: same games as K single environments, autoreset, seeds, no
leaks (R34-R36) and refused input that changes nothing (R37)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sequence_stacks.engine import (
    CARD_KIND,
    IllegalActionError,
    Phase,
    Settings,
    State,
    new_game,
    observe,
    resample,
)
from sequence_stacks.env import BatchEncoder, SequenceStacksVectorEnv, VectorActionError
from sequence_stacks.env.encoding import encoder_for
from sequence_stacks.env.pettingzoo_env import raw_env

from .helpers import permute_hidden, play, positions

PLAYER_COUNTS = [2, 3, 4, 5, 6]


def _random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row of ``masks``."""
    return np.array([rng.choice(np.flatnonzero(row)) for row in masks], np.int64)


Encoded = tuple[np.ndarray, np.ndarray, list[list[int]]]


def _encode(batch: BatchEncoder, states: list[State], seats: list[int]) -> Encoded:
    observations = np.full((len(states), batch.size), -7.0, np.float32)
    masks = np.full((len(states), batch.action_count), 3, np.int8)
    legal = batch.encode(states, seats, observations, masks)
    return observations, masks, legal


# --- the batched encoding is the single-game encoding -------------------------------


@pytest.mark.parametrize("player_count", PLAYER_COUNTS)
@pytest.mark.parametrize("piles_per_colour", [1, 2, 3, 4])
def test_batched_rows_equal_the_encoding_of_each_view(
    player_count: int, piles_per_colour: int
) -> None:
    settings = Settings(player_count=player_count, piles_per_colour=piles_per_colour)
    encoder = encoder_for(settings)
    rng = random.Random(player_count * 10 + piles_per_colour)
    states: list[State] = []
    seats: list[int] = []
    for seed in range(4):
        for state in positions(settings, seed, every=3):
            decider = state.current_player()
            states.append(state)
            seats.append(rng.randrange(player_count) if decider is None else decider)
            states.append(state)  # another seat's row, which has no legal action
            seats.append(rng.randrange(player_count))
    observations, masks, legal = _encode(BatchEncoder(settings), states, seats)
    phases = {state.phase for state in states}
    assert phases == set(Phase)  # playing, Block windows and finished games are covered
    for row, (state, seat) in enumerate(zip(states, seats, strict=True)):
        view = observe(state, seat)
        assert np.array_equal(observations[row], encoder.encode(view)), row
        assert np.array_equal(masks[row], encoder.mask(view)), row
        assert legal[row] == list(view.legal_action_ids)


def test_batched_rows_equal_with_unlimited_chips_and_options() -> None:
    settings = Settings(player_count=3, chip_supply=None, two_player_reverses=True)
    encoder = encoder_for(settings)
    states = [state for seed in range(3) for state in positions(settings, seed, every=4)]
    seats = [state.current_player() or 0 for state in states]
    observations, _, _ = _encode(BatchEncoder(settings), states, seats)
    for row, (state, seat) in enumerate(zip(states, seats, strict=True)):
        assert np.array_equal(observations[row], encoder.encode(observe(state, seat)))


# --- the same games as K single environments ---------------------------------------


def _check_rows(raws: list[Any], observations: np.ndarray, info: dict[str, Any]) -> None:
    for index, raw in enumerate(raws):
        agent = raw.agent_selection
        expected = raw.observe(agent)
        assert info["seat"][index] == raw.possible_agents.index(agent)
        assert np.array_equal(observations[index], expected["observation"])
        assert np.array_equal(info["action_mask"][index], expected["action_mask"])


@pytest.mark.parametrize(
    ("player_count", "max_cycles", "steps", "copy"),
    [(2, None, 600, True), (3, None, 900, False), (4, 3, 60, True), (6, 2, 60, False)],
)
def test_steps_like_independent_raw_envs(
    player_count: int, max_cycles: int | None, steps: int, copy: bool
) -> None:
    games = 3
    max_steps = None if max_cycles is None else max_cycles * player_count
    vector = SequenceStacksVectorEnv(
        games, player_count=player_count, max_steps=max_steps, copy=copy
    )
    raws = [raw_env(player_count=player_count, max_cycles=max_cycles) for _ in range(games)]
    observations, info = vector.reset(seed=40)
    for index, raw in enumerate(raws):
        raw.reset(seed=40 + index)
    rng = np.random.default_rng(player_count)
    ended = 0
    for _ in range(steps):
        _check_rows(raws, observations, info)
        actions = _random_actions(info["action_mask"], rng)
        observations, rewards, terminations, truncations, info = vector.step(actions)
        for index, raw in enumerate(raws):
            raw.step(int(actions[index]))
            terminated = all(raw.terminations.values())
            truncated = all(raw.truncations.values()) and not terminated
            assert (terminations[index], truncations[index]) == (terminated, truncated)
            assert rewards[index].tolist() == [raw.rewards[a] for a in raw.possible_agents]
            if terminated or truncated:
                finals = info["final_obs"][index]
                for seat, agent in enumerate(raw.possible_agents):
                    assert np.array_equal(finals[seat], raw.observe(agent)["observation"])
                raw.reset()  # the next game of the slot: seeds from the slot's generator
                ended += 1
    assert ended >= 2


# --- autoreset (same step) ------------------------------------------------------------


def test_a_finished_game_is_replaced_in_the_same_step() -> None:
    settings = Settings(player_count=2)
    encoder = encoder_for(settings)
    vector = SequenceStacksVectorEnv(4, settings=settings)
    observations, info = vector.reset(seed=1)
    rng = np.random.default_rng(0)
    for _ in range(2000):
        before = [vector.state(index) for index in range(4)]
        observations, rewards, terminations, _, info = vector.step(
            _random_actions(info["action_mask"], rng)
        )
        assert info["action_mask"].any(axis=1).all()  # every slot waits for a decision
        if terminations.any():
            break
    else:
        pytest.fail("no game ended in 2000 steps")
    index = int(np.flatnonzero(terminations)[0])
    assert info["_final_obs"].tolist() == terminations.tolist()
    finals = info["final_obs"][index]
    assert finals.shape == (2, encoder.size)
    final_info = info["final_info"]
    assert final_info["_winner"][index]
    assert final_info["length"][index] > 0
    winner = int(final_info["winner"][index])
    for seat in range(2):
        pieces = encoder.split(finals[seat])
        assert pieces["phase"].tolist() == [0, 0, 1]
        if winner >= 0:
            assert (seat + int(pieces["winner"].argmax())) % 2 == winner
    if winner >= 0:
        assert rewards[index].tolist() == [1.0 if s == winner else -1.0 for s in range(2)]
    # The slot holds the next game of its seed sequence, and its first observation.
    seed = random.Random(1 + index).getrandbits(63)
    assert final_info["game_seed"][index] == 1 + index
    assert vector.game_seeds[index] == seed
    assert vector.state(index) == new_game(settings, seed)
    first = observe(new_game(settings, seed), new_game(settings, seed).current)
    assert np.array_equal(observations[index], encoder.encode(first))
    assert vector.step_counts[index] == 0
    # The games that did not end went on.
    for other in np.flatnonzero(~terminations):
        assert vector.state(int(other)) != before[int(other)]


def test_max_steps_truncates_every_game_with_zero_rewards() -> None:
    vector = SequenceStacksVectorEnv(3, player_count=4, max_steps=2)
    _, info = vector.reset(seed=5)
    rng = np.random.default_rng(5)
    _, rewards, terminations, truncations, info = vector.step(
        _random_actions(info["action_mask"], rng)
    )
    assert not truncations.any()
    assert "final_obs" not in info
    _, rewards, terminations, truncations, info = vector.step(
        _random_actions(info["action_mask"], rng)
    )
    assert truncations.all()
    assert not terminations.any()
    assert not rewards.any()
    assert info["final_info"]["winner"].tolist() == [-1, -1, -1]
    assert info["final_info"]["length"].tolist() == [2, 2, 2]
    assert vector.step_counts == [0, 0, 0]


# --- seeds ----------------------------------------------------------------------------


def _run(vector: SequenceStacksVectorEnv, seed: object, steps: int) -> list[np.ndarray]:
    observations, info = vector.reset(seed=seed)  # type: ignore[arg-type]
    rng = np.random.default_rng(9)
    seen = [observations]
    for _ in range(steps):
        observations, rewards, _, _, info = vector.step(_random_actions(info["action_mask"], rng))
        seen += [observations, rewards, info["seat"]]
    return seen


def test_same_seed_same_games() -> None:
    runs = [_run(SequenceStacksVectorEnv(5, max_steps=30), 11, 70) for _ in range(2)]
    for a, b in zip(*runs, strict=True):
        assert np.array_equal(a, b)
    other = _run(SequenceStacksVectorEnv(5, max_steps=30), 12, 70)
    assert not np.array_equal(runs[0][0], other[0])


def test_reset_seeds_each_game() -> None:
    vector = SequenceStacksVectorEnv(3)
    vector.reset(seed=100)
    assert vector.game_seeds == [100, 101, 102]
    assert vector.state(1) == new_game(Settings(), 101)
    vector.reset(seed=[7, 8, 9])
    assert vector.game_seeds == [7, 8, 9]
    vector.reset()  # each slot's next seed comes from the generator its seed started
    assert vector.game_seeds == [random.Random(s).getrandbits(63) for s in (7, 8, 9)]
    with pytest.raises(ValueError, match="one seed per game: 3, got 2"):
        vector.reset(seed=[1, 2])


def test_unseeded_resets_differ() -> None:
    a, b = SequenceStacksVectorEnv(2), SequenceStacksVectorEnv(2)
    a.reset()
    b.reset()
    assert a.game_seeds != b.game_seeds


# --- no leaks (R35, R36) ----------------------------------------------------------------


@given(
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 400),
    player_count=st.sampled_from(PLAYER_COUNTS),
    shuffle_seed=st.integers(0, 2**32),
)
def test_permuting_hidden_cards_leaves_each_row_unchanged(
    seed: int, steps: int, player_count: int, shuffle_seed: int
) -> None:
    settings = Settings(player_count=player_count)
    rng = random.Random(shuffle_seed)
    state = play(settings, seed, steps=steps)
    seats = list(range(player_count))
    permuted = [permute_hidden(state, seat, rng) for seat in seats]
    resampled = [resample(state, seat, rng) for seat in seats]
    batch = BatchEncoder(settings)
    original = _encode(batch, [state] * player_count, seats)
    for others in (permuted, resampled):
        changed = _encode(batch, others, seats)
        assert np.array_equal(original[0], changed[0])
        assert np.array_equal(original[1], changed[1])


def test_permuting_hidden_cards_leaves_the_vector_observations_unchanged() -> None:
    vector = SequenceStacksVectorEnv(8, player_count=4)
    observations, info = vector.reset(seed=3)
    rng = np.random.default_rng(3)
    shuffler = random.Random(3)
    for step in range(150):
        if step % 30 == 0:
            states = [vector.state(index) for index in range(8)]
            seats = info["seat"].tolist()
            hidden = [
                permute_hidden(state, seat, shuffler)
                for state, seat in zip(states, seats, strict=True)
            ]
            assert hidden != states  # something hidden did move
            again, masks, _ = _encode(vector.encoder, hidden, seats)
            assert np.array_equal(again, observations)
            assert np.array_equal(masks, info["action_mask"])
        observations, _, _, _, info = vector.step(_random_actions(info["action_mask"], rng))


def test_the_leak_check_can_fail_when_own_cards_change() -> None:
    settings = Settings()
    state = play(settings, 5, steps=30)
    seat = state.current_player()
    assert seat is not None
    changed = state.clone()
    hand, draw = changed.hands[seat], changed.draw
    index = next(i for i, card in enumerate(draw) if CARD_KIND[card] != CARD_KIND[hand[0]])
    hand[0], draw[index] = draw[index], hand[0]
    batch = BatchEncoder(settings)
    assert not np.array_equal(
        _encode(batch, [state], [seat])[0], _encode(batch, [changed], [seat])[0]
    )


# --- bad input (R37): a clear error, and no game changes ------------------------------


Running = tuple[SequenceStacksVectorEnv, dict[str, Any]]


def _running() -> Running:
    """Five 3-player games, 40 random steps in (the same every time)."""
    vector = SequenceStacksVectorEnv(5, player_count=3)
    _, info = vector.reset(seed=21)
    rng = np.random.default_rng(21)
    for _ in range(40):
        _, _, _, _, info = vector.step(_random_actions(info["action_mask"], rng))
    return vector, info


@pytest.fixture
def running() -> Running:
    return _running()


def _unchanged(vector: SequenceStacksVectorEnv, before: list[State], counts: list[int]) -> None:
    assert [vector.state(index) for index in range(vector.num_envs)] == before
    assert vector.step_counts == counts


def test_an_illegal_action_names_its_game_and_changes_nothing(running: Running) -> None:
    vector, info = running
    before = [vector.state(index) for index in range(5)]
    counts = list(vector.step_counts)
    actions = _random_actions(info["action_mask"], np.random.default_rng(0))
    actions[3] = int(np.flatnonzero(info["action_mask"][3] == 0)[0])
    with pytest.raises(VectorActionError, match=r"^game 3 \(seat \d to decide\): action") as err:
        vector.step(actions)
    assert err.value.index == 3
    assert err.value.seat == info["seat"][3]
    assert err.value.action_id == actions[3]
    assert err.value.rule_id.startswith("R")
    assert isinstance(err.value.__cause__, IllegalActionError)
    assert err.value.code == err.value.__cause__.code
    assert err.value.rule_id == err.value.__cause__.rule_id
    _unchanged(vector, before, counts)
    # The env steps on as one that never saw the refused call.
    actions[3] = int(np.flatnonzero(info["action_mask"][3])[0])
    twin, _ = _running()
    stepped, twin_stepped = vector.step(actions), twin.step(actions)
    for a, b in zip(stepped[:4], twin_stepped[:4], strict=True):
        assert np.array_equal(a, b)


@pytest.mark.parametrize("bad", [-1, 10_000])
def test_an_action_outside_the_space_names_its_game(running: Running, bad: int) -> None:
    vector, info = running
    before = [vector.state(index) for index in range(5)]
    counts = list(vector.step_counts)
    actions = _random_actions(info["action_mask"], np.random.default_rng(0))
    actions[0] = bad
    with pytest.raises(VectorActionError, match=f"^game 0 .*action id {bad} is outside") as err:
        vector.step(actions)
    assert (err.value.rule_id, err.value.code) == ("R37", None)
    _unchanged(vector, before, counts)


@pytest.mark.parametrize(
    "actions",
    [np.zeros(4, np.int64), np.zeros(6, np.int64), np.zeros((5, 1), np.int64), [], 3],
)
def test_the_wrong_number_of_actions_is_refused(running: Running, actions: object) -> None:
    vector, _ = running
    before = [vector.state(index) for index in range(5)]
    counts = list(vector.step_counts)
    with pytest.raises(ValueError, match="one action per game: 5 actions"):
        vector.step(actions)  # type: ignore[arg-type]
    _unchanged(vector, before, counts)


def test_actions_must_be_integers(running: Running) -> None:
    vector, info = running
    actions = _random_actions(info["action_mask"], np.random.default_rng(0)).astype(np.float64)
    with pytest.raises(ValueError, match="integer action ids, not float64"):
        vector.step(actions)


def test_step_needs_a_reset_and_settings_are_checked() -> None:
    with pytest.raises(RuntimeError, match="reset"):
        SequenceStacksVectorEnv(2).step([0, 0])
    for bad in (0, -1, 2.0, True):
        with pytest.raises(ValueError, match="num_envs"):
            SequenceStacksVectorEnv(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_steps"):
        SequenceStacksVectorEnv(2, max_steps=0)


# --- spaces and buffers ---------------------------------------------------------------


def test_spaces_describe_the_batches() -> None:
    vector = SequenceStacksVectorEnv(6, player_count=4)
    observations, info = vector.reset(seed=0)
    assert observations.shape == (6, 375)
    assert observations.dtype == np.float32
    assert info["action_mask"].shape == (6, 114)
    assert info["action_mask"].dtype == np.int8
    assert vector.observation_space.shape == (6, 375)
    assert vector.observation_space.contains(observations)
    assert vector.single_observation_space.shape == (375,)
    assert vector.single_action_space.n == 114
    assert vector.action_space.nvec.tolist() == [114] * 6
    assert vector.metadata["autoreset_mode"] == "SameStep"


def test_copy_false_returns_the_envs_own_buffers() -> None:
    vector = SequenceStacksVectorEnv(3, max_steps=50, copy=False)
    first, info = vector.reset(seed=2)
    rng = np.random.default_rng(2)
    kept = first.copy()
    second, _, _, _, info2 = vector.step(_random_actions(info["action_mask"], rng))
    assert np.shares_memory(second, first)  # the same buffer, overwritten
    assert np.array_equal(first, second)
    assert not np.array_equal(first, kept)
    assert np.shares_memory(info2["action_mask"], info["action_mask"])
    copying = SequenceStacksVectorEnv(3, max_steps=50)
    one, info = copying.reset(seed=2)
    two, *_ = copying.step(_random_actions(info["action_mask"], np.random.default_rng(2)))
    assert not np.shares_memory(one, two)
    assert np.array_equal(two, second)


def test_batch_encoder_refuses_arrays_it_cannot_write_through() -> None:
    settings = Settings()
    batch = BatchEncoder(settings)
    state = new_game(settings, 1)
    masks = np.zeros((2, batch.action_count), np.int8)
    strided = np.zeros((2, 2 * batch.size), np.float32)[:, ::2]
    with pytest.raises(ValueError, match="observations must be C-contiguous"):
        batch.encode([state, state], [0, 1], strided, masks)
    with pytest.raises(
        ValueError, match=r"observations must be a float32 array of shape \(2, 375\)"
    ):
        batch.encode([state, state], [0, 1], np.zeros((2, 375)), masks)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="one seat per state: 2 states, 1 seats"):
        batch.encode([state, state], [0], np.zeros((2, 375), np.float32), masks)
    with pytest.raises(ValueError, match="masks must be a int8 array"):
        batch.encode([state, state], [0, 1], np.zeros((2, 375), np.float32), masks[:1])
