"""Fit the `ismcts` bot's value curve: win probability from the planner's turn-start score.

Run: ``python -m benchmarks.fit_ismcts_value --players 2 --games 150``.

Plays ``--games`` heuristic self-play games; at the first decision of every turn it
records the score the heuristic planner finds for the player about to move (the value
`ismcts` gives the start of its next turn) and whether that player went on to win. It
then fits ``P(win) = 1 / (1 + exp(-(score + offset) / scale))`` by logistic regression
(Newton's method; scores clipped to the central band where positions are not decided)
and prints ``offset`` and ``scale`` with a table of observed and fitted win rates by
score band. The fitted pairs live in ``bots/ismcts.py`` (``_VALUE_CURVE``).
"""

from __future__ import annotations

import argparse
import itertools
import math
import random

from sequence_stacks.bots import make_bot
from sequence_stacks.bots.heuristic import Evaluator, Planner
from sequence_stacks.engine import Settings, apply_in_place, new_game, observe, resample

_LOW, _HIGH = -3000.0, 0.0
_BANDS = (-3000, -2000, -1500, -1200, -900, -700, -500, 0)


def collect(players: int, games: int, seed: int) -> list[tuple[float, float]]:
    """Return (turn-start planner score, 1.0 if that player won else 0.0) pairs."""
    settings = Settings(player_count=players)
    rng = random.Random(seed)
    rows: list[tuple[float, float]] = []
    for game in range(games):
        bots = [make_bot("heuristic", seed=seed + game * 10 + s) for s in range(players)]
        state = new_game(settings, seed * 100_000 + game)
        scores: list[tuple[int, float]] = []
        while not state.is_over:
            seat = state.current_player()
            assert seat is not None
            view = observe(state, seat)
            if state.phase == 0 and state.turn_actions == 0:
                planner = Planner(Evaluator.from_view(view), seat, settings, node_budget=150)
                scores.append((seat, planner.search(resample(view, seat, rng), 0)))
            apply_in_place(state, seat, bots[seat].choose(view))
        assert state.result is not None
        winner = state.result.winner
        rows.extend((score, 1.0 if winner == seat else 0.0) for seat, score in scores)
    return rows


def fit(rows: list[tuple[float, float]]) -> tuple[float, float]:
    """Logistic regression of the outcome on the clipped score; return (offset, scale)."""
    data = [(min(_HIGH, max(_LOW, score)) / 1000.0, won) for score, won in rows]
    a = b = 0.0
    for _ in range(100):
        g0 = g1 = h00 = h01 = h11 = 0.0
        for x, y in data:
            p = 1.0 / (1.0 + math.exp(-(a + b * x)))
            w = p * (1.0 - p) + 1e-12
            g0 += y - p
            g1 += (y - p) * x
            h00 += w
            h01 += w * x
            h11 += w * x * x
        det = h00 * h11 - h01 * h01
        step_a = (h11 * g0 - h01 * g1) / det
        step_b = (h00 * g1 - h01 * g0) / det
        a, b = a + step_a, b + step_b
        if abs(step_a) + abs(step_b) < 1e-9:
            break
    scale = 1000.0 / b
    return a * scale, scale


def main(argv: list[str] | None = None) -> int:
    """Collect, fit and print the curve with observed vs fitted win rates by band."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--seed", type=int, default=9)
    args = parser.parse_args(argv)
    rows = collect(args.players, args.games, args.seed)
    offset, scale = fit(rows)
    print(f"{len(rows)} turn starts; offset {offset:.0f}, scale {scale:.0f}")
    print("score band | turns | won | fitted")
    for low, high in itertools.pairwise(_BANDS):
        band = [(s, y) for s, y in rows if low <= s < high]
        if band:
            won = sum(y for _, y in band) / len(band)
            fitted = sum(1.0 / (1.0 + math.exp(-(s + offset) / scale)) for s, _ in band)
            print(f"{low} .. {high} | {len(band)} | {won:.3f} | {fitted / len(band):.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
