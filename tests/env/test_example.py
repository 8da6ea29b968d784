"""The training example runs, learns something measurable and writes its plot."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_masked_policy.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_masked_policy", EXAMPLE)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_training_example_runs_and_plots(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    example = _load()
    out = tmp_path / "curve.png"
    argv = ["--players", "2", "--episodes", "40", "--eval-games", "10", "--out", str(out)]
    assert example.main(argv) == 0
    printed = capsys.readouterr().out
    assert "untrained: win rate" in printed
    assert "improvement: win rate" in printed
    assert out.read_bytes().startswith(b"\x89PNG")


def test_a_trained_policy_beats_the_untrained_one_on_fixed_seeds() -> None:
    example = _load()
    game = example.SequenceStacksEnv(player_count=2, opponents="random")
    policy = example.LinearPolicy.for_env(game, 0)
    before, _ = example.evaluate(game, policy, 30)
    example.train(game, policy, seconds=0.0, episodes=100, learning_rate=0.05)
    after, _ = example.evaluate(game, policy, 30)
    assert after > before
