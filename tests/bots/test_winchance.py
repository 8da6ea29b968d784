"""The win-chance model: its features read a view only, the shipped file loads and
predicts in pure Python, and numpy gives the same numbers."""

import json
import math
import random
from pathlib import Path

import numpy as np
import pytest

from sequence_stacks.bots import make_bot
from sequence_stacks.bots.winchance import (
    FEATURE_VERSION,
    Layer,
    Network,
    WinChanceModel,
    decode_floats,
    default_model,
    encode_floats,
    feature_names,
    final_chance,
    view_features,
)
from sequence_stacks.engine import (
    Settings,
    State,
    View,
    apply_in_place,
    new_game,
    observe,
    resample,
)
from sequence_stacks.sim.value_fit import predict


def _views(player_count: int, seed: int, every: int = 3) -> list[View]:
    """Views of every seat at every ``every``-th decision of a heuristic game."""
    state = new_game(Settings(player_count=player_count), seed)
    bots = [make_bot("heuristic", seed=seed * 10 + s) for s in range(player_count)]
    views: list[View] = []
    step = 0
    while not state.is_over:
        seat = state.current_player()
        assert seat is not None
        if step % every == 0:
            views += [observe(state, other) for other in range(player_count)]
        apply_in_place(state, seat, bots[seat].choose(observe(state, seat)))
        step += 1
    return views


@pytest.mark.parametrize("player_count", [2, 3, 4, 5, 6])
def test_features_match_their_names_at_every_table_size(player_count: int) -> None:
    names = feature_names(player_count)
    assert len(set(names)) == len(names)
    views = _views(player_count, 3)
    assert views
    rows = [view_features(view) for view in views]
    assert {len(row) for row in rows} == {len(names)}
    assert all(math.isfinite(x) for row in rows for x in row)
    # the features tell positions apart (they are not constant)
    assert len({tuple(row) for row in rows}) > len(rows) // 4


def test_features_are_the_same_whatever_the_hidden_cards() -> None:
    """Two games the seat cannot tell apart (every card it cannot see dealt anew) give
    the same features: only the view is read (R36)."""
    rng = random.Random(5)
    for view in _views(3, 8, every=7):
        assert view.seat is not None
        other: State = resample(view, view.seat, rng)
        again = observe(other, view.seat)
        assert view_features(again) == view_features(view)


def test_a_spectator_has_no_win_chance() -> None:
    with pytest.raises(ValueError, match="spectator"):
        view_features(observe(new_game(Settings(player_count=2), 1), None))


def test_the_shipped_model_loads_and_predicts_in_pure_python() -> None:
    model = default_model()
    assert sorted(model.networks) == [2, 3, 4, 5, 6]
    for count in range(2, 7):
        view = observe(new_game(Settings(player_count=count), 4), 0)
        chance = model.chance(view)
        assert 0.0 < chance < 1.0
        # at the deal nobody is far ahead: near the fair share
        assert abs(chance - 1 / count) < 0.25


def test_numpy_and_pure_python_give_the_same_numbers() -> None:
    model = default_model()
    for count in (2, 4, 6):
        views = _views(count, 11, every=5)[:60]
        rows = np.array([view_features(view) for view in views])
        network = model.network(count)
        batch = predict(network, rows)
        one_by_one = [model.chance(view) for view in views]
        assert np.allclose(batch, one_by_one, rtol=0.0, atol=1e-9)
        assert len(set(np.round(batch, 6))) > 5  # the predictions differ between views


def test_the_model_favours_the_eventual_winner() -> None:
    """Late in heuristic games the winner's chance (from its own view) is higher than
    the others' on average: the model reads the position, not noise."""
    model = default_model()
    winner_chances: list[float] = []
    other_chances: list[float] = []
    for seed in range(12):
        state = new_game(Settings(player_count=2), 500 + seed)
        bots = [make_bot("heuristic", seed=seed * 2 + s) for s in range(2)]
        late: list[tuple[float, float]] = []
        while not state.is_over:
            seat = state.current_player()
            assert seat is not None
            late.append((model.chance(observe(state, 0)), model.chance(observe(state, 1))))
            apply_in_place(state, seat, bots[seat].choose(observe(state, seat)))
        result = state.result
        assert result is not None
        if result.winner is None:
            continue
        for pair in late[-len(late) // 4 :]:
            winner_chances.append(pair[result.winner])
            other_chances.append(pair[1 - result.winner])
    assert np.mean(winner_chances) > np.mean(other_chances) + 0.1


def test_a_finished_game_has_a_certain_chance() -> None:
    state = new_game(Settings(player_count=2), 2)
    bots = [make_bot("greedy", seed=1), make_bot("greedy", seed=2)]
    while not state.is_over:
        seat = state.current_player()
        assert seat is not None
        apply_in_place(state, seat, bots[seat].choose(observe(state, seat)))
    result = state.result
    assert result is not None
    for seat in range(2):
        view = observe(state, seat)
        expected = 0.5 if result.winner is None else float(seat == result.winner)
        assert final_chance(view) == expected == default_model().chance(view)


@pytest.mark.parametrize(
    ("dtype", "numpy_type"), [("float16", np.float16), ("float32", np.float32)]
)
def test_weights_round_trip_exactly(dtype: str, numpy_type: type[np.floating]) -> None:
    values = [0.1, -2.5, 3.0e-3, 1234.5678]
    decoded = decode_floats(encode_floats(values, dtype), dtype)
    assert decoded == [float(numpy_type(v)) for v in values]
    assert decoded != values  # rounded to the packed precision
    with pytest.raises(ValueError, match="multiple of"):
        decode_floats("AAA=", "float32")


def _tiny_network(count: int) -> Network:
    width = len(feature_names(count))
    rng = random.Random(count)
    rows = tuple(
        tuple(float(np.float16(rng.uniform(-1, 1))) for _ in range(3)) for _ in range(width)
    )
    first = Layer(rows, (0.5, -0.25, 0.0))
    last = Layer(((1.0,), (-1.0,), (0.5,)), (0.125,))
    return Network(count, feature_names(count), (first, last))


def test_a_model_file_round_trips_and_refuses_what_does_not_fit(tmp_path: Path) -> None:
    model = WinChanceModel({2: _tiny_network(2), 3: _tiny_network(3)}, {"note": "test"})
    path = tmp_path / "model.json"
    model.save(path)
    loaded = WinChanceModel.load(path)
    assert loaded == model
    view = observe(new_game(Settings(player_count=3), 1), 2)
    assert loaded.chance(view) == model.chance(view)
    with pytest.raises(ValueError, match="no 4-player network"):
        loaded.chance(observe(new_game(Settings(player_count=4), 1), 0))
    data = json.loads(path.read_text(encoding="utf-8"))
    with pytest.raises(ValueError, match="train it again"):
        WinChanceModel.from_dict({**data, "feature_version": FEATURE_VERSION + 1})
    with pytest.raises(ValueError, match="not a win-chance model"):
        WinChanceModel.from_dict({"format": "something else"})
    data["networks"][0]["features"] = data["networks"][0]["features"][::-1]
    with pytest.raises(ValueError, match="other features"):
        WinChanceModel.from_dict(data)
