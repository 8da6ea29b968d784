"""The whole win-chance pipeline: positions -> networks -> model file -> measurements.

:func:`run_pipeline` is what ``sequence-stacks train-value`` runs, in a work folder that
keeps every step's output, so a stopped run resumes where it left off:

- ``positions/<N>p/shard-*.npz``: the self-play positions (:mod:`.value_data`);
- ``checkpoints/<N>p.npz``: the training state after every epoch (:mod:`.value_fit`);
- ``networks/<N>p.json``: each trained network (a count whose file is there is done);
- the model file (all the networks, :class:`~sequence_stacks.bots.winchance.WinChanceModel`)
  and ``report.json`` / ``report.md``: log loss, expected calibration error and the
  reliability tables on the held-out test games, against the ``ismcts`` leaf curve.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from sequence_stacks.bots.winchance import Network, WinChanceModel

from .value_config import DEFAULT_GAMES, TrainConfig
from .value_data import SHARD_GAMES, Positions, load_positions, write_shards
from .value_figure import reliability_figure
from .value_fit import Calibration, calibration, predict, train_network

__all__ = ["DEFAULT_GAMES", "Progress", "report_markdown", "run_pipeline"]


@dataclasses.dataclass(slots=True)
class Progress:
    """Callbacks the pipeline reports to (a progress bar, a log); each may be None.

    Attributes:
        stage: ``(player_count, what)`` as a stage starts: ``"positions"``,
            ``"training"``, ``"measuring"``.
        advance: ``(done, total)`` within the stage (shards, or batches of an epoch).
        epoch: ``(player_count, epoch, train_loss, validation_loss)``.
    """

    stage: Callable[[int, str], None] | None = None
    advance: Callable[[int, int], None] | None = None
    epoch: Callable[[int, int, float, float], None] | None = None


def _network_path(folder: Path, count: int) -> Path:
    return folder / "networks" / f"{count}p.json"


def _positions(folder: Path, count: int, games: int, seed: int, progress: Progress) -> Positions:
    if progress.stage:
        progress.stage(count, "positions")
    shards = -(-games // SHARD_GAMES)
    done = 0

    def tick(_: int) -> None:
        nonlocal done
        done += 1
        if progress.advance:
            progress.advance(done, shards)

    for _ in write_shards(folder / "positions", count, games=games, seed=seed, on_shard=tick):
        tick(0)
    return load_positions(folder / "positions", count, games=games)


def _train(
    folder: Path, count: int, positions: Positions, config: TrainConfig, progress: Progress
) -> Network:
    path = _network_path(folder, count)
    if path.exists():
        return Network.from_dict(json.loads(path.read_text(encoding="utf-8")))
    if progress.stage:
        progress.stage(count, "training")

    def epoch(number: int, train_loss: float, validation_loss: float) -> None:
        if progress.epoch:
            progress.epoch(count, number, train_loss, validation_loss)

    network, _ = train_network(
        count,
        positions.part("train"),
        positions.part("validation"),
        config,
        checkpoint=folder / "checkpoints" / f"{count}p.npz",
        on_step=progress.advance,
        on_epoch=epoch,
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(network.to_dict()) + "\n", encoding="utf-8")
    return network


def _measure(network: Network, positions: Positions) -> dict[str, Any]:
    """The test games' measurements: every position, and the turn starts of the player
    to move (where the ``ismcts`` leaf value is defined) for the model and the leaf."""
    test = positions.part("test")
    starts = test.where(test.turn_start & ~np.isnan(test.leaf))
    base = float(np.mean(positions.part("train").labels))
    measured: dict[str, Calibration] = {
        "model_all": calibration(predict(network, test.features), test.labels),
        "base_rate_all": calibration(np.full(len(test), base), test.labels),
        "model_turn_start": calibration(predict(network, starts.features), starts.labels),
        "leaf_turn_start": calibration(starts.leaf, starts.labels),
    }
    return {
        "games": len(np.unique(positions.games)),
        "positions": len(positions),
        "train_positions": len(positions.part("train")),
        "test_games": len(np.unique(test.games)),
        **{name: value.to_dict() for name, value in measured.items()},
    }


def run_pipeline(
    folder: Path,
    model_path: Path,
    *,
    counts: Sequence[int],
    games: Mapping[int, int],
    seed: int,
    config: TrainConfig,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Make (or finish making) the positions, networks, model file and report of the
    given player counts in ``folder``; return the report (also written there)."""
    progress = progress or Progress()
    networks: dict[int, Network] = {}
    report: dict[str, Any] = {"seed": seed, "config": dataclasses.asdict(config), "counts": {}}
    for count in counts:
        positions = _positions(folder, count, games[count], seed, progress)
        networks[count] = _train(folder, count, positions, config, progress)
        if progress.stage:
            progress.stage(count, "measuring")
        report["counts"][str(count)] = _measure(networks[count], positions)
    meta = {
        "trained": datetime.date.today().isoformat(),
        "seed": seed,
        "hidden": list(config.hidden),
        "games": {str(count): games[count] for count in counts},
        "command": "sequence-stacks train-value",
    }
    WinChanceModel(networks, meta).save(model_path)
    (folder / "report.json").write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    (folder / "report.md").write_text(report_markdown(report), encoding="utf-8")
    reliability_figure(report).savefig(folder / "reliability.png", dpi=90)
    return report


def report_markdown(report: Mapping[str, Any]) -> str:
    """The report as Markdown tables (docs/bots.md)."""
    lines = [
        "| players | test positions | model log loss | base rate | model ECE | turn starts "
        "| model log loss | leaf log loss | model ECE | leaf ECE |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for count, data in report["counts"].items():
        model, base = data["model_all"], data["base_rate_all"]
        start, leaf = data["model_turn_start"], data["leaf_turn_start"]
        lines.append(
            f"| {count} | {model['count']:,} | {model['log_loss']:.4f} | {base['log_loss']:.4f} "
            f"| {100 * model['ece']:.2f} | {start['count']:,} | {start['log_loss']:.4f} "
            f"| {leaf['log_loss']:.4f} | {100 * start['ece']:.2f} | {100 * leaf['ece']:.2f} |"
        )
    for count, data in report["counts"].items():
        lines += ["", f"Reliability, {count} players, turn starts of the player to move:", ""]
        lines += [
            "| predicted | positions | model: predicted | observed | leaf: positions "
            "| predicted | observed |",
            "|---|---|---|---|---|---|---|",
        ]
        model_bins = {b["low"]: b for b in data["model_turn_start"]["bins"]}
        leaf_bins = {b["low"]: b for b in data["leaf_turn_start"]["bins"]}
        for low in sorted(set(model_bins) | set(leaf_bins)):
            a, b = model_bins.get(low), leaf_bins.get(low)
            lines.append(
                f"| {low:.1f}-{low + 0.1:.1f} | "
                + (
                    f"{a['count']:,} | {100 * a['predicted']:.1f}% | {100 * a['observed']:.1f}%"
                    if a
                    else "0 | | "
                )
                + " | "
                + (
                    f"{b['count']:,} | {100 * b['predicted']:.1f}% | {100 * b['observed']:.1f}% |"
                    if b
                    else "0 | | |"
                )
            )
    return "\n".join(lines) + "\n"
