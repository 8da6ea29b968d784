"""Fit the `ismcts` bot's leaf value: win probability at the start of a turn.

Run: ``python -m benchmarks.fit_ismcts_value --players 2 --games 2000``.

Plays ``--games`` heuristic self-play games; at the first decision of every turn it
records, for the player about to move, the score the heuristic planner finds for the
turn (the score `ismcts` computes at the start of its next turn) and a few facts of the
position, and whether that player went on to win. Games without a winner are left out.
It then fits, by logistic regression (Newton's method), and prints:

- ``curve``: ``P(win) = 1 / (1 + exp(-(score + offset) / scale))`` on the score alone
  (clipped to the band where positions are not decided), with a table of observed and
  fitted win rates by score band (``_VALUE_CURVE`` in ``bots/leaf.py``);
- ``features`` (two players): the clipped score, the chips each side still needs (one
  weight per count 1-5), and the wilds, Blocks (more when the opponent needs two chips
  or fewer), Steal-a-Chips and Skips in hand, printed as the weights the bot uses
  (``_LEARNED_2P``, the features from ``bots.leaf.leaf_features``).

Both are fitted on 70% of the turn starts (split by game) and their mean log-likelihood
on the other 30% is printed, so the two can be compared. Needs numpy (``.[rl]``).
"""

from __future__ import annotations

import argparse
import itertools
import random

import numpy as np

from sequence_stacks.bots import make_bot
from sequence_stacks.bots.heuristic import Evaluator, Planner
from sequence_stacks.bots.leaf import LEAF_FEATURES, leaf_features
from sequence_stacks.engine import Settings, apply_in_place, new_game, observe, resample

_LOW, _HIGH = -3000.0, 0.0
_BANDS = (-3000, -2000, -1500, -1200, -900, -700, -500, 0)


def collect(players: int, games: int, seed: int) -> list[tuple[int, float, list[float], float]]:
    """Return (game, turn-start planner score, leaf features, 1.0 if that player won)
    rows of ``games`` heuristic self-play games (games without a winner left out)."""
    settings = Settings(player_count=players)
    rng = random.Random(seed)
    rows: list[tuple[int, float, list[float], float]] = []
    for game in range(games):
        bots = [make_bot("heuristic", seed=seed + game * 10 + s) for s in range(players)]
        state = new_game(settings, seed * 100_000 + game)
        scores: list[tuple[int, float, list[float]]] = []
        while not state.is_over:
            seat = state.current_player()
            assert seat is not None
            view = observe(state, seat)
            if state.phase == 0 and state.turn_actions == 0:
                planner = Planner(Evaluator.from_view(view), seat, settings, node_budget=150)
                score = planner.search(resample(view, seat, rng), 0)
                facts = leaf_features(state, seat, score) if players == 2 else []
                scores.append((seat, score, facts))
            apply_in_place(state, seat, bots[seat].choose(view))
        assert state.result is not None
        winner = state.result.winner
        if winner is not None:
            rows.extend((game, s, f, 1.0 if winner == seat else 0.0) for seat, s, f in scores)
    return rows


def fit(x: np.ndarray, y: np.ndarray, ridge: float = 1e-3) -> np.ndarray:
    """Logistic regression weights (Newton's method, a little ridge for collinear columns)."""
    weights = np.zeros(x.shape[1])
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-(x @ weights)))
        gradient = x.T @ (y - p) - ridge * weights
        hessian = (x * (p * (1.0 - p))[:, None]).T @ x + ridge * np.eye(len(weights))
        step = np.linalg.solve(hessian, gradient)
        weights += step
        if float(np.abs(step).sum()) < 1e-9:
            break
    return weights


def log_likelihood(x: np.ndarray, y: np.ndarray, weights: np.ndarray) -> float:
    """Mean log-likelihood of outcomes ``y`` under the model."""
    p = np.clip(1.0 / (1.0 + np.exp(-(x @ weights))), 1e-9, 1 - 1e-9)
    return float(np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def main(argv: list[str] | None = None) -> int:
    """Collect, fit and print both models and how well they predict held-out games."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument(
        "--seed", type=int, nargs="+", default=[9], help="one run of --games per seed"
    )
    args = parser.parse_args(argv)
    rows = [row for seed in args.seed for row in collect(args.players, args.games, seed)]
    y = np.array([won for _, _, _, won in rows])
    test = np.array([game % 10 >= 7 for game, _, _, _ in rows])  # by game: 30% held out
    scores = np.array([score for _, score, _, _ in rows])
    curve_x = np.c_[np.ones(len(rows)), np.clip(scores, _LOW, _HIGH) / 1000.0]
    a, b = fit(curve_x, y)
    offset, scale = a / b * 1000.0, 1000.0 / b
    held_out = log_likelihood(curve_x[test], y[test], fit(curve_x[~test], y[~test]))
    print(f"{len(rows)} turn starts of {args.games * len(args.seed)} games")
    print(f"curve: offset {offset:.0f}, scale {scale:.0f}; held-out log-likelihood {held_out:.4f}")
    print("score band | turns | won | fitted")
    for low, high in itertools.pairwise(_BANDS):
        band = (scores >= low) & (scores < high)
        if band.any():
            fitted = 1.0 / (1.0 + np.exp(-(scores[band] + offset) / scale))
            print(f"{low} .. {high} | {band.sum()} | {y[band].mean():.3f} | {fitted.mean():.3f}")
    if args.players == 2:
        x = np.array([facts for _, _, facts, _ in rows])
        held_out = log_likelihood(x[test], y[test], fit(x[~test], y[~test]))
        weights = [round(float(w), 3) for w in fit(x, y)]
        print(f"features: held-out log-likelihood {held_out:.4f}")
        print("_LEARNED_2P weights:")
        for name, weight in zip(LEAF_FEATURES, weights, strict=True):
            print(f"    {weight},  # {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
