"""How long the post-game review takes: CPU seconds for games of about 200 actions.

Run: ``python -m benchmarks.review_speed [--players 2,4] [--games 3] [--actions 200]``.

For each player count it plays heuristic games until it has ``--games`` of at least
``--actions`` actions (a game longer than that is cut at the turn where it passes
``--actions``, as a record of a game still being played would be), then times
``review_record`` for seat 0 (the graph, the moments, every decision of seat 0 searched
by the ``expert``) on one core (process CPU time), and prints the seconds per review,
the decisions searched and the time per decision. The issue's budget is 30 s of one
core for a 200-action game (docs/bots.md, "Review").
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from sequence_stacks.bots import make_bot
from sequence_stacks.bots.review import review_record
from sequence_stacks.engine import GameRecord, Settings
from sequence_stacks.sim import play_game


def long_games(players: int, games: int, actions: int, seed: int) -> list[GameRecord]:
    """Heuristic games of at least ``actions`` actions, cut to about that many."""
    found: list[GameRecord] = []
    index = 0
    while len(found) < games:
        bots = [make_bot("heuristic", seed=seed + index * 10 + s) for s in range(players)]
        _, record = play_game(Settings(player_count=players), seed + index, bots)
        index += 1
        if len(record.actions) >= actions:
            found.append(GameRecord(record.settings, record.seed, record.actions[:actions]))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", default="2,4", help="player counts (default 2,4)")
    parser.add_argument("--games", type=int, default=3, help="games per count (default 3)")
    parser.add_argument("--actions", type=int, default=200, help="actions a game (200)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rows = []
    for players in (int(p) for p in args.players.split(",")):
        for record in long_games(players, args.games, args.actions, args.seed):
            start = time.process_time()
            review = review_record(record, seat=0)
            seconds = time.process_time() - start
            searched = len(review.decisions)
            rows.append(
                {
                    "players": players,
                    "actions": len(record.actions),
                    "decisions": searched,
                    "seconds": round(seconds, 2),
                    "ms_per_decision": round(1000 * seconds / max(1, searched), 1),
                }
            )
            print(json.dumps(rows[-1]), flush=True)
    worst = max(row["seconds"] for row in rows)
    median = statistics.median(row["seconds"] for row in rows)
    print(f"median {median:.1f} s, worst {worst:.1f} s of one core per review (budget 30 s)")


if __name__ == "__main__":
    main()
