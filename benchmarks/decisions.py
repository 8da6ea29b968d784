"""Per-decision time of the bots: median, 95th percentile and maximum.

Run: ``python -m benchmarks.decisions [--players 2] [--games 10] [--bots ismcts,heuristic]``.

Plays ``--games`` games with the bots cycling over the seats (rotated each game, as in
``simulate``) and times every decision that had more than one legal action.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable

from sequence_stacks.bots import Bot, make_bot
from sequence_stacks.engine import Action, Settings, View
from sequence_stacks.sim import play_game, seat_bots


class Timed:
    """Wraps a bot and records how long each real choice (more than one legal action)
    takes, by ``clock`` (wall time by default; benchmarks/ismcts_speed.py passes CPU
    time)."""

    def __init__(
        self, bot: Bot, sink: list[float], clock: Callable[[], float] = time.perf_counter
    ) -> None:
        self.bot = bot
        self.name = bot.name
        self.sink = sink
        self.clock = clock

    def choose(self, view: View) -> Action:
        start = self.clock()
        action = self.bot.choose(view)
        if len(view.legal_action_ids) > 1:
            self.sink.append(self.clock() - start)
        return action


def decision_times(
    names: list[str],
    players: int,
    games: int,
    seed: int,
    clock: Callable[[], float] = time.perf_counter,
) -> dict[str, dict[str, float]]:
    """Return, per bot name, the decision count and median / p95 / max milliseconds,
    and the count and median of the decisions that took 1 ms or more (for ``ismcts``
    and ``expert``: the searches; the rest of a turn follows the searched plan)."""
    times: dict[str, list[float]] = {name: [] for name in names}
    settings = Settings(player_count=players)
    for index in range(games):
        seats = seat_bots(names, players, index)
        bots = [
            Timed(make_bot(name, seed=seed * 1000 + index * 8 + s), times[name], clock)
            for s, name in enumerate(seats)
        ]
        play_game(settings, seed + index, bots)
    figures: dict[str, dict[str, float]] = {}
    for name, values in times.items():
        values.sort()
        if values:
            slow = [value for value in values if value >= 0.001]
            figures[name] = {
                "decisions": float(len(values)),
                "median_ms": 1000 * statistics.median(values),
                "p95_ms": 1000 * values[int(0.95 * (len(values) - 1))],
                "max_ms": 1000 * values[-1],
                "over_1ms": float(len(slow)),
                "over_1ms_median_ms": 1000 * statistics.median(slow) if slow else 0.0,
            }
    return figures


def main(argv: list[str] | None = None) -> int:
    """Print the decision times per bot as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--bots", default="ismcts,heuristic")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="time by this process's CPU time (one core, whatever else runs) not the wall clock",
    )
    args = parser.parse_args(argv)
    clock = time.process_time if args.cpu else time.perf_counter
    figures = decision_times(args.bots.split(","), args.players, args.games, args.seed, clock)
    print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
