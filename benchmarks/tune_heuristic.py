"""Tune the heuristic's weights by self-play against the ``heuristic`` bot itself.

Run: ``python -m benchmarks.tune_heuristic --players 2 --games 2000 --rounds 2
--log FILE`` (``--workers 2`` by default). A candidate set of weights
(:class:`~sequence_stacks.bots.weights.Weights`) plays ``--games`` games against the
default heuristic: with two players the candidate and the default swap seats on one
deal; with more, one candidate seat against default seats, every seat in turn on one
deal. Every candidate plays the same deals and bot seeds (common random numbers), so
two candidates are compared on equal luck.

The search is coordinate descent: in each round, every weight in turn is tried at
each of its steps (``STEPS``: a weight times 0.5 and 1.5, an integer one up and down)
from the best weights so far, and a step is kept when it wins more games than the
best so far did on the same deals by more than ``--margin`` games per thousand. The
result of every evaluation goes to ``--log`` as a JSON line (the weights that differ
from the default, games, wins), so a rerun with the same log plays only what it has
not played. The best weights and their rate are printed at the end; confirm them on
other deals (``--confirm N --seed S``) before believing them: a screen keeps some
steps by luck.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import multiprocessing
import time
from pathlib import Path
from typing import Any

from sequence_stacks.bots.heuristic import HeuristicBot
from sequence_stacks.bots.weights import DEFAULT_WEIGHTS, Weights
from sequence_stacks.engine import Settings
from sequence_stacks.sim import play_game
from sequence_stacks.sim.dossier.intervals import wilson

# The weights tuned per player count (the two-player-only weights are left out of the
# larger tables' search, and the larger tables' of the two-player search).
_TWO_ONLY = {"opp_linear", "keep_skip_two", "keep_rev_two", "winning_chip_two", "block_need_two"}
_MULTI_ONLY = {"opp_linear_multi", "keep_skip", "keep_rev", "block_need"}


def steps(weights: Weights, name: str) -> list[Weights]:
    """The candidates one step from ``weights`` along the weight ``name``."""
    value = getattr(weights, name)
    if isinstance(value, int):
        values: list[Any] = [value - 1, value + 1]
    elif value == 0:
        values = [5.0, -5.0]
    else:
        values = [round(value * 0.5, 4), round(value * 1.5, 4)]
    return [dataclasses.replace(weights, **{name: v}) for v in values]


def tunable(players: int) -> list[str]:
    """The names of the weights that matter at a table of ``players``."""
    skip = _MULTI_ONLY if players == 2 else _TWO_ONLY
    return [f.name for f in dataclasses.fields(Weights) if f.name not in skip]


def _game(task: tuple[dict[str, Any], int, int, int]) -> int:
    """Play game ``game`` of a run; 1 when the candidate seat won."""
    changed, players, seed, game = task
    candidate = dataclasses.replace(DEFAULT_WEIGHTS, **changed)
    deal, seat = divmod(game, players)
    bots = [
        HeuristicBot(
            seed=seed * 100_000 + game * 10 + s,
            weights=candidate if s == seat else DEFAULT_WEIGHTS,
        )
        for s in range(players)
    ]
    state, _ = play_game(Settings(player_count=players), f"{seed}-{deal}", bots)
    result = state.result
    return int(result is not None and result.winner == seat)


class Tuner:
    """Evaluations of weights, remembered in a log file."""

    def __init__(self, args: argparse.Namespace, pool: Any) -> None:
        self.args = args
        self.pool = pool
        self.known: dict[str, int] = {}
        self.log: Path = args.log
        if self.log.exists():
            for line in self.log.read_text().splitlines():
                row = json.loads(line)
                if (row["players"], row["games"], row["seed"]) == (
                    args.players,
                    args.games,
                    args.seed,
                ):
                    self.known[_key(row["changed"])] = row["wins"]

    def wins(self, weights: Weights) -> int:
        """How many of the run's games ``weights`` wins against the default."""
        changed = weights.changed()
        key = _key(changed)
        if key not in self.known:
            args = self.args
            tasks = [(changed, args.players, args.seed, g) for g in range(args.games)]
            started = time.perf_counter()
            wins = sum(self.pool.imap_unordered(_game, tasks, chunksize=25))
            self.known[key] = wins
            row = {
                "players": args.players,
                "games": args.games,
                "seed": args.seed,
                "changed": changed,
                "wins": wins,
            }
            with self.log.open("a") as out:
                out.write(json.dumps(row) + "\n")
            print(
                f"  {wins / args.games:6.1%}  {_short(changed)}  "
                f"({time.perf_counter() - started:.0f} s)",
                flush=True,
            )
        return self.known[key]


def _key(changed: dict[str, Any]) -> str:
    return json.dumps(changed, sort_keys=True)


def _short(changed: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in sorted(changed.items())) or "(default)"


def _interval(wins: int, games: int) -> str:
    estimate = wilson(wins, games)
    return f"{wins / games:.1%} [{estimate.low:.1%}, {estimate.high:.1%}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2, help="table size (default 2)")
    parser.add_argument("--games", type=int, default=2000, help="games an evaluation")
    parser.add_argument("--seed", type=int, default=1, help="the deals' seed (default 1)")
    parser.add_argument("--rounds", type=int, default=2, help="coordinate passes")
    parser.add_argument("--margin", type=float, default=5.0, help="games per 1000 to keep")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--log", type=Path, required=True, help="evaluations, JSON lines")
    parser.add_argument("--start", type=str, default="{}", help="JSON of starting weights")
    parser.add_argument(
        "--confirm",
        type=int,
        default=0,
        help="only play the --start weights over this many games (no search)",
    )
    args = parser.parse_args()
    start = dataclasses.replace(DEFAULT_WEIGHTS, **json.loads(args.start))
    with multiprocessing.Pool(args.workers) as pool:
        if args.confirm:
            args.games = args.confirm
            wins = Tuner(args, pool).wins(start)
            print(f"{_short(start.changed())}: {_interval(wins, args.games)}")
            return
        tuner = Tuner(args, pool)
        best = start
        best_wins = tuner.wins(best)
        margin = math.ceil(args.margin * args.games / 1000)
        for round_ in range(args.rounds):
            print(f"round {round_ + 1}: from {_interval(best_wins, args.games)}", flush=True)
            moved = False
            for name in tunable(args.players):
                for candidate in steps(best, name):
                    wins = tuner.wins(candidate)
                    if wins > best_wins + margin:
                        best, best_wins, moved = candidate, wins, True
                        print(f"  kept {name}={getattr(best, name)}", flush=True)
                        break
            if not moved:
                break
    print(f"best: {json.dumps(best.changed())}")
    print(f"won {_interval(best_wins, args.games)} of the screen's games")


if __name__ == "__main__":
    main()
