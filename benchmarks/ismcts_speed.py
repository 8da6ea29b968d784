"""ISMCTS on the compiled engine: searches per second, and strength at the same time.

Run: ``python benchmarks/engine.py --ismcts GAMES [--budget-scale S]`` (or
``python -m benchmarks.ismcts_speed GAMES``).

1. Search rate: three two-player games of the default ``ismcts`` (its work cap, so the
   compiled and the pure engine make the very same decisions) against ``heuristic``,
   once per engine in its own process; the CPU time of every search with more than one
   legal action is summed (CPU time, so other work on the machine does not count).
2. Strength at the same time: ``GAMES`` two-player games on the compiled engine of
   ISMCTS given S times the default deals and work cap (S: the measured speed-up of
   step 1, so a search takes about the CPU time the pure engine needs for the default
   one) against ``heuristic``, seats alternating, on two worker processes. Its win rate
   with a 95% Wilson interval is printed beside the default's (docs/bots.md: 60.6%).
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from benchmarks.decisions import Timed
from sequence_stacks import ENGINE_BUILD
from sequence_stacks.bots import Bot, make_bot
from sequence_stacks.bots.heuristic import HeuristicBot
from sequence_stacks.bots.ismcts import IsmctsBot, default_iterations, default_work_limit
from sequence_stacks.engine import Settings
from sequence_stacks.sim import play_game

ROOT = Path(__file__).resolve().parents[1]
RATE_GAMES = 3


def search_rate(games: int, seed: int) -> dict[str, float]:
    """Time the default ismcts's decisions in ``games`` games against heuristic."""
    times: list[float] = []
    for index in range(games):
        bots: list[Bot] = [make_bot("ismcts", seed=seed + index), make_bot("heuristic", seed=index)]
        if index % 2:
            bots.reverse()
        timed = [
            Timed(bot, times, time.process_time) if bot.name == "ismcts" else bot for bot in bots
        ]
        play_game(Settings(player_count=2), seed + index, timed)
    searches = [value for value in times if value > 0.01]  # a search, not a plan step
    return {
        "decisions": float(len(times)),
        "searches": float(len(searches)),
        "cpu_s": sum(times),
        "searches_per_s": len(searches) / sum(searches),
        "decisions_per_s": len(times) / sum(times),
        "median_search_ms": 1000 * sorted(searches)[len(searches) // 2],
    }


def _rate_in_process(seed: int, *, pure: bool) -> dict[str, float]:
    env = {**os.environ, "SEQUENCE_STACKS_PURE": "1" if pure else "0"}
    command = [sys.executable, "-m", "benchmarks.ismcts_speed", "rate", str(seed)]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    figures: dict[str, float] = json.loads(done.stdout)
    return figures


def _game(index: int, seed: int, scale: float) -> tuple[int, bool]:
    """One game of the scaled ismcts against heuristic; True if ismcts won."""
    ismcts = IsmctsBot(
        seed=seed * 1000 + index,
        iterations=round(default_iterations(2, race=True) * scale),
        work_limit=round(default_work_limit(2, race=True) * scale),
    )
    bots: list[Bot] = [ismcts, HeuristicBot(seed=seed * 1000 + index + 500)]
    seat = index % 2
    if seat:
        bots.reverse()
    state, _ = play_game(Settings(player_count=2), seed + index, bots)
    return index, state.result is not None and state.result.winner == seat


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if games == 0:
        return (0.0, 1.0)
    rate = wins / games
    centre = (rate + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games))
    return centre - half / (1 + z * z / games), centre + half / (1 + z * z / games)


def run_ismcts(games: int, seed: int, scale: float | None) -> int:
    """Print the search rates of both engines and the win rate at the same time."""
    if not ENGINE_BUILD.compiled:
        print(f"the compiled engine is not in use: {ENGINE_BUILD.reason}", file=sys.stderr)
        return 1
    compiled = _rate_in_process(seed, pure=False)
    pure = _rate_in_process(seed, pure=True)
    speedup = pure["cpu_s"] / compiled["cpu_s"]
    print(f"ISMCTS (default), {RATE_GAMES} two-player games against heuristic, CPU time:")
    for name in ("searches", "searches_per_s", "decisions_per_s", "median_search_ms"):
        print(f"  {name:18} pure {pure[name]:>10.2f}   compiled {compiled[name]:>10.2f}")
    same = pure["decisions"] == compiled["decisions"]
    print(f"  same decisions: {same}; speed-up {speedup:.2f}x")
    scale = speedup if scale is None else scale
    wins = done = 0
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=2) as pool:
        futures = [pool.submit(_game, index, seed, scale) for index in range(games)]
        for future in as_completed(futures):
            done += 1
            wins += future.result()[1]
            elapsed = time.perf_counter() - start
            print(
                f"\r{done}/{games} games, ismcts won {wins} ({elapsed:.0f} s)",
                end="",
                file=sys.stderr,
                flush=True,
            )
    low, high = wilson(wins, games)
    print(file=sys.stderr)
    print(
        f"ISMCTS with {scale:.2f}x the default deals and work cap (compiled engine) "
        f"against heuristic, {games} two-player games: won {wins} = {wins / games:.1%} "
        f"[{low:.1%}, {high:.1%}]"
    )
    return 0


if __name__ == "__main__":
    if sys.argv[1] == "rate":
        print(json.dumps(search_rate(RATE_GAMES, int(sys.argv[2]))))
    else:
        raise SystemExit(run_ismcts(int(sys.argv[1]), 1, None))
