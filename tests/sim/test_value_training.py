"""The win-chance pipeline end to end on a small run: self-play positions -> training ->
model file -> loading -> predictions (the shipped model is made the same way, bigger)."""

import json
import math
from pathlib import Path

import numpy as np
import pytest

from sequence_stacks.bots.winchance import WinChanceModel, feature_names
from sequence_stacks.engine import Settings, new_game, observe
from sequence_stacks.sim.value_data import (
    SHARD_GAMES,
    Positions,
    load_positions,
    play_positions,
    split_of,
    write_shards,
)
from sequence_stacks.sim.value_figure import reliability_figure
from sequence_stacks.sim.value_fit import TrainConfig, calibration, log_loss, predict, train_network
from sequence_stacks.sim.value_run import Progress, report_markdown, run_pipeline


def test_positions_are_labelled_by_who_won_and_split_by_game() -> None:
    settings = Settings(player_count=3)
    rows, labels, starts, leaves = play_positions(settings, seed=1, game=0, with_leaf=True)
    assert len(rows) == len(labels) == len(starts) == len(leaves) > 30
    assert {len(row) for row in rows} == {len(feature_names(3))}
    assert set(labels) <= {0.0, 1.0, 1 / 3}
    # every recorded moment holds one row per seat, and one seat wins
    assert sum(labels) == pytest.approx(len(labels) / 3)
    assert any(starts)
    assert all(math.isnan(leaf) != start for leaf, start in zip(leaves, starts, strict=True))
    assert [split_of(game) for game in (0, 1, 2, 19, 20, 21)] == [
        "test",
        "validation",
        "train",
        "train",
        "test",
        "validation",
    ]
    again = play_positions(settings, seed=1, game=0, with_leaf=True)
    assert again[0] == rows  # a game is the same every time


def test_training_learns_a_signal_and_stops_on_validation() -> None:
    rng = np.random.default_rng(0)
    width = len(feature_names(2))

    def positions(count: int, first_game: int) -> Positions:
        x = np.zeros((count, width), np.float32)
        x[:, :8] = rng.normal(size=(count, 8))
        p = 1 / (1 + np.exp(-(2 * x[:, 0] - x[:, 3] * x[:, 4])))
        y = (rng.random(count) < p).astype(np.float32)
        games = np.arange(first_game, first_game + count, dtype=np.int32)
        return Positions(x, y, games, np.zeros(count, bool), np.full(count, np.nan, np.float32))

    train, validation = positions(6000, 0), positions(1500, 10_000)
    epochs: list[float] = []
    network, history = train_network(
        2,
        train,
        validation,
        TrainConfig(hidden=(16,), epochs=8, batch=256, weight_decay=1e-4),
        on_epoch=lambda _, __, loss: epochs.append(loss),
    )
    assert len(history) == len(epochs) >= 2
    predicted = predict(network, validation.features)
    assert log_loss(predicted, validation.labels) < 0.55  # knowing nothing: 0.693
    assert calibration(predicted, validation.labels).ece < 0.08


def test_the_whole_pipeline_makes_a_model_that_loads_and_predicts(tmp_path: Path) -> None:
    model_path = tmp_path / "model.json"
    stages: list[tuple[int, str]] = []
    report = run_pipeline(
        tmp_path / "work",
        model_path,
        counts=[2],
        games={2: 30},
        seed=3,
        config=TrainConfig(hidden=(8,), epochs=2),
        progress=Progress(stage=lambda count, what: stages.append((count, what))),
    )
    assert stages == [(2, "positions"), (2, "training"), (2, "measuring")]
    measured = report["counts"]["2"]
    assert measured["games"] == SHARD_GAMES  # rounded up to a whole shard
    assert 0.0 < measured["model_all"]["log_loss"] < 1.0
    assert measured["leaf_turn_start"]["count"] == measured["model_turn_start"]["count"] > 0
    assert "| 2 |" in report_markdown(report)
    model = WinChanceModel.load(model_path)
    assert sorted(model.networks) == [2]
    view = observe(new_game(Settings(player_count=2), 8), 1)
    assert 0.0 < model.chance(view) < 1.0
    saved = json.loads((tmp_path / "work" / "report.json").read_text(encoding="utf-8"))
    assert saved["counts"]["2"]["model_all"] == measured["model_all"]
    figure = reliability_figure(report)
    assert [axes.get_title() for axes in figure.axes] == ["2 players"]
    assert figure.get_suptitle()
    assert (tmp_path / "work" / "reliability.png").read_bytes().startswith(b"\x89PNG")

    # resuming: the shards and the network are kept, nothing is played or trained again
    stages.clear()
    written = list(write_shards(tmp_path / "work" / "positions", 2, games=30, seed=3))
    assert written == []
    again = run_pipeline(
        tmp_path / "work",
        model_path,
        counts=[2],
        games={2: 30},
        seed=3,
        config=TrainConfig(hidden=(8,), epochs=2),
        progress=Progress(stage=lambda count, what: stages.append((count, what))),
    )
    assert stages == [(2, "positions"), (2, "measuring")]
    assert again["counts"] == report["counts"]
    assert len(load_positions(tmp_path / "work" / "positions", 2)) == measured["positions"]
