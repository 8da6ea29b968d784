"""Batched environment speed: K games stepped together against the single raw_env loop (#16).

Run: ``python -m benchmarks.vector_env [--players 4] [--envs 256] [--steps 200000] [--cpu]``.

The batched loop samples one uniformly random legal action per game from the returned
masks with numpy, and steps all K games with it; env steps/s counts every game's step
(K per call), observation encoding, masks and autoreset included, after an untimed
warm-up of about one game's length. In the same run, and timed by the same clock, it
times the documented PettingZoo ``raw_env`` loop (one game, mask sampling with
``random.Random``) and the engine's own random play, and prints the ratios. Target
(4 players, K = 256, one core): >= 100,000 env steps/s."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable

import numpy as np

from benchmarks import rl
from sequence_stacks import ENGINE_BUILD
from sequence_stacks.env import SequenceStacksVectorEnv
from sequence_stacks.env.pettingzoo_env import raw_env

TARGET_STEPS_PER_S = 100_000.0
WARMUP_CALLS = 200


def vector_steps_per_s(player_count: int, envs: int, steps: int, *, copy: bool = True) -> float:
    """Time the batched loop (random legal actions from the masks); return env steps/s.

    The games first play ``WARMUP_CALLS`` untimed calls, about one game's length, so the
    timed calls see games at every stage (all K games start together at reset).
    """
    vector = SequenceStacksVectorEnv(envs, player_count=player_count, copy=copy)
    rng = np.random.default_rng(0)
    _, info = vector.reset(seed=0)
    noise = np.empty((envs, vector.action_count), np.float32)
    calls = max(1, steps // envs)
    clock = rl.CLOCK[0]
    start = 0.0
    for call in range(-WARMUP_CALLS, calls):
        if call == 0:
            start = clock()
        # Uniform among the legal actions: the largest of uniform noise times the mask.
        rng.random(dtype=np.float32, out=noise)
        noise *= info["action_mask"]
        _, _, _, _, info = vector.step(noise.argmax(axis=1))
    return calls * envs / (clock() - start)


def measure(players: int, envs: int, steps: int, rounds: int) -> dict[str, tuple[float, float]]:
    """Run every measurement ``rounds`` times, interleaved (so a busy spell on a shared
    machine hits every figure alike); return ``name -> (best rate, calibration rate
    measured just before that run)``."""
    raw_steps = max(1, steps // 4)
    runs: dict[str, Callable[[], float]] = {
        "vector_env_steps_per_s": lambda: vector_steps_per_s(players, envs, steps),
        "vector_env_no_copy_steps_per_s": lambda: vector_steps_per_s(
            players, envs, steps, copy=False
        ),
        "pettingzoo_raw_steps_per_s": lambda: rl.pettingzoo_loop_steps_per_s(
            raw_env(player_count=players), raw_steps
        ),
        "engine_actions_per_s": lambda: rl.engine_actions_per_s(players, steps)[0],
    }
    best = dict.fromkeys(runs, (0.0, 1.0))
    for _ in range(rounds):
        for name, run in runs.items():
            calibration = rl.calibration_ops_per_s(0.15)
            value = run()
            if value > best[name][0]:
                best[name] = (value, calibration)
    return best


def report(figures: dict[str, tuple[float, float]], header: str) -> list[str]:
    """Return the printed lines: each figure, its ratios and the target."""
    raw = figures["pettingzoo_raw_steps_per_s"][0]
    engine = figures["engine_actions_per_s"][0]
    lines = [
        header,
        "best of interleaved runs; ratio = figure / calibration loop run just before it",
    ]
    for name, (value, calibration) in figures.items():
        line = f"  {name:32} {value:>10,.0f}/s   ratio {value / calibration:.3e}"
        if name.startswith("vector"):
            line += f"   x raw_env {value / raw:.2f}   x engine {value / engine:.2f}"
            met = "met" if value >= TARGET_STEPS_PER_S else "NOT met"
            line += f"   target >= {TARGET_STEPS_PER_S:,.0f}: {met}"
        lines.append(line)
    return lines


def main(argv: list[str] | None = None) -> int:
    """Print the batched and single-game figures of one run, with their ratios."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--envs", type=int, default=256, help="games stepped together (K)")
    parser.add_argument("--steps", type=int, default=200_000, help="env steps per run")
    parser.add_argument("--rounds", type=int, default=3, help="runs per figure; the best counts")
    parser.add_argument("--cpu", action="store_true", help="time with process CPU time")
    parser.add_argument("--json", action="store_true", help="print JSON only")
    args = parser.parse_args(argv)
    clock: Callable[[], float] = time.process_time if args.cpu else time.perf_counter
    rl.CLOCK[0] = clock
    figures = measure(args.players, args.envs, args.steps, args.rounds)
    if args.json:
        print(json.dumps({name: rate for name, (rate, _) in figures.items()}, indent=2))
        return 0
    header = (
        f"Python {sys.version.split()[0]}, {args.players} players, K = {args.envs}, "
        f"{args.steps:,} env steps per run, {'process CPU' if args.cpu else 'wall'} time"
    )
    print("\n".join(report(figures, f"{header}\nengine: {ENGINE_BUILD.reason}")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
