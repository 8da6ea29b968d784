"""The OpenSpiel game: pyspiel's random simulation test, observers, resampling, ISMCTS."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip(
    "pyspiel",
    reason="open_spiel is not installed (pip install 'sequence-stacks[rl]'); "
    "its wheels cover CPython 3.11 on x86_64/aarch64 Linux and arm64 macOS",
)
ismcts = pytest.importorskip("open_spiel.python.algorithms.ismcts")
mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")

from sequence_stacks.engine import CARD_KIND, Settings, kind_text, observe  # noqa: E402
from sequence_stacks.env import encoder_for  # noqa: E402
from sequence_stacks.env.openspiel_game import (  # noqa: E402
    GAME_NAME,
    SequenceStacksState,
    settings_from_params,
)


def _play(state: Any, steps: int, rng: np.random.Generator) -> Any:
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize(
    "params",
    [
        {},
        {"players": 2},
        {"players": 3, "piles_per_colour": 1},
        {"players": 6, "chip_supply": -1},
    ],
)
def test_pyspiel_random_sim_test(params: dict[str, Any]) -> None:
    game = pyspiel.load_game(GAME_NAME, params)
    # serialize=False: serialising a SAMPLED_STOCHASTIC game saves the game's RNG state,
    # which OpenSpiel's Python-game bridge does not expose (GetRNGState unimplemented).
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_game_info_follows_the_settings() -> None:
    game = pyspiel.load_game(GAME_NAME, {"players": 3, "max_turns": 300})
    assert game.num_players() == 3
    settings = settings_from_params({"players": 3, "max_turns": 300})
    encoder = encoder_for(settings)
    assert game.num_distinct_actions() == encoder.action_count
    assert game.observation_tensor_shape() == [encoder.size]
    assert game.min_utility() == -0.5
    assert game.max_utility() == 1.0
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC


def test_parameters_cover_every_variant_option() -> None:
    names = set(pyspiel.load_game(GAME_NAME).get_parameters())
    options = {field.name for field in dataclasses.fields(Settings)} - {"player_count"}
    assert names == options | {"players", "seed"}
    changed = settings_from_params({"players": 5, "chip_supply": -1, "max_turn_actions": 50})
    assert changed == Settings(player_count=5, chip_supply=None, max_turn_actions=50)


def test_max_game_length_bounds_every_turn() -> None:
    game = pyspiel.load_game(GAME_NAME, {"players": 3, "max_turns": 100})
    assert game.max_game_length() == 100 * ((500 + 1) * 3 + 1)


def test_a_state_round_trips_through_serialize() -> None:
    game = pyspiel.load_game(GAME_NAME)
    state = _play(game.new_initial_state(), 60, np.random.default_rng(1))
    copy = game.deserialize_state(state.serialize())
    assert str(copy) == str(state)
    assert copy.history() == state.history()
    assert copy.legal_actions() == state.legal_actions()


def test_the_seed_parameter_and_seeded_states_deal_reproducibly() -> None:
    first = pyspiel.load_game(GAME_NAME, {"seed": 5}).new_initial_state()
    again = pyspiel.load_game(GAME_NAME, {"seed": 5}).new_initial_state()
    other = pyspiel.load_game(GAME_NAME, {"seed": 6}).new_initial_state()
    assert str(first) == str(again) != str(other)
    game = pyspiel.load_game(GAME_NAME)
    assert str(game.new_initial_state_for_seed(11)) == str(game.new_initial_state_for_seed(11))


def test_observation_tensor_is_the_encoders() -> None:
    game = pyspiel.load_game(GAME_NAME)
    state = _play(game.new_initial_state(), 40, np.random.default_rng(2))
    encoder = encoder_for(game.settings)
    engine_state = state.engine_state
    for player in range(4):
        expected = encoder.encode(observe(engine_state, player))
        assert np.array_equal(np.asarray(state.observation_tensor(player), np.float32), expected)


def test_public_observer_hides_the_hand() -> None:
    game = pyspiel.load_game(GAME_NAME)
    state = _play(game.new_initial_state(), 25, np.random.default_rng(3))
    public = game.make_py_observer(
        pyspiel.IIGObservationType(
            perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
        )
    )
    public.set_from(state, 0)
    private = game.make_py_observer()
    private.set_from(state, 0)
    assert not public.dict["hand"].any()
    assert private.dict["hand"].sum() == len(state.engine_state.hands[0])
    total = private.dict["unseen_kinds"] + private.dict["hand"]
    assert np.array_equal(public.dict["unseen_kinds"], total)
    assert "[" not in public.string_from(state, 0)
    with pytest.raises(ValueError, match="every seat"):
        game.make_py_observer(
            pyspiel.IIGObservationType(
                perfect_recall=False,
                public_info=True,
                private_info=pyspiel.PrivateInfoType.ALL_PLAYERS,
            )
        )


def test_information_state_shows_own_draws_but_not_others() -> None:
    game = pyspiel.load_game(GAME_NAME)
    state = game.new_initial_state()
    engine_state = state.engine_state
    text_0 = state.information_state_string(0)
    text_1 = state.information_state_string(1)
    own = ", ".join(f"{kind_text(CARD_KIND[c])}#{c}" for c in engine_state.hands[0])
    assert own in text_0
    assert own not in text_1
    assert "Player 0 was dealt 5 cards." in text_1


def test_resample_from_infostate_keeps_what_the_player_knows() -> None:
    game = pyspiel.load_game(GAME_NAME, {"players": 3})
    state = _play(game.new_initial_state(), 80, np.random.default_rng(4))
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    player = state.current_player()
    hidden_changed = False
    for _ in range(5):
        sample = state.resample_from_infostate(player, sampler)
        assert isinstance(sample, SequenceStacksState)
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.observation_tensor(player) == state.observation_tensor(player)
        assert sample.legal_actions() == state.legal_actions()
        assert sample.history() == state.history()
        others = [sample.engine_state.hands[s] for s in range(3) if s != player]
        truth = [state.engine_state.hands[s] for s in range(3) if s != player]
        hidden_changed |= others != truth
        _play(sample, 30, np.random.default_rng(5))  # a sampled world plays on
    assert hidden_changed


def test_openspiel_ismcts_bot_plays_a_few_moves() -> None:
    game = pyspiel.load_game(GAME_NAME, {"players": 3})
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(
        game=game,
        uct_c=2.0,
        evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng),
        max_simulations=8,
        random_state=rng,
    )
    state = game.new_initial_state()
    for _ in range(6):
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert len(state.history()) == 6
