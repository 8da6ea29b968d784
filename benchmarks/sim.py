"""Simulation throughput: games/s of `simulate` on 1 and 2 processes vs the bare engine.

Run: ``python -m benchmarks.sim [--players 4] [--games 400] [--bots random] [--json]``.

Three figures for the same player count and bots: the bare engine loop of
``benchmarks/engine.py`` (uniformly random legal play, no bots, no rows), and the
simulator (:func:`sequence_stacks.sim.run_tasks`: bots deciding from views, events
tallied into one results row per game, rows written to a CSV file) on 1 and on 2
worker processes. Printed with the ratios sim(1)/engine and sim(2)/sim(1) (2.0 would
be perfectly linear scaling) and the calibration ratio of benchmarks/engine.py.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.engine import calibration_ops_per_s, random_play
from sequence_stacks.engine import Settings
from sequence_stacks.sim import ResultsWriter, SimConfig, run_tasks, tasks_of


def simulate_games_per_s(config: SimConfig, workers: int) -> float:
    """Play every game of ``config`` on ``workers`` processes; return games per second.

    The time includes starting the worker processes (spawn), as a real run pays it.
    """
    with tempfile.TemporaryDirectory() as folder, ResultsWriter(Path(folder) / "b.csv") as writer:
        start = time.perf_counter()
        stats = run_tasks(tasks_of([config]), writer, workers=workers, batch_size=8)
        seconds = time.perf_counter() - start
    return stats.played / seconds


def measure(players: int, games: int, bots: list[str], seed: int) -> dict[str, float]:
    """Return the engine's and the simulator's games/s and their ratios."""
    calibration = calibration_ops_per_s()
    _, seconds, _ = random_play(players, games, seed)
    engine = games / seconds
    config = SimConfig(Settings(player_count=players), tuple(bots), games, seed)
    single = simulate_games_per_s(config, 1)
    double = simulate_games_per_s(config, 2)
    return {
        "calibration_ops_per_s": calibration,
        "engine_games_per_s": engine,
        "sim_1_process_games_per_s": single,
        "sim_2_processes_games_per_s": double,
        "ratio_sim1_to_engine": single / engine,
        "ratio_sim2_to_sim1": double / single,
    }


def main(argv: list[str] | None = None) -> int:
    """Print the figures (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--bots", default="random", help="comma-separated bot names")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print JSON only")
    args = parser.parse_args(argv)
    figures = measure(args.players, args.games, args.bots.split(","), args.seed)
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(
        f"Python {sys.version.split()[0]}, {args.players} players, {args.games} games, "
        f"bots {args.bots}"
    )
    for name, value in figures.items():
        print(f"  {name:30} {value:>14,.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
