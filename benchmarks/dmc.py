"""Deep Monte-Carlo (DMC, as in DouZero) against the heuristic bot: does a learned policy
get anywhere near the expert? (#27, docs/bots.md "A learned policy").

Run: ``python -m benchmarks.dmc --minutes 60 --out dmc/`` (two players by default).

One seat learns, the other is ``heuristic``, seats alternating game by game. The learner
scores every action of its seat's action space with one small network,
``Q(observation) -> P(win | observation, action)`` for each action id (the encoder of
``sequence_stacks.env``: the seat's view only, R35/R36), and plays the legal action of
highest score, or a random legal one with probability epsilon while learning. Every
decision with more than one legal action is kept with the game's result (1 won, 0 not);
the network is fitted to them by log loss on the action taken (a Monte-Carlo target: no
bootstrapping, DouZero's choice for long games with sparse rewards). Games are played by
worker processes with the current weights, a round at a time; the main process trains
between rounds.

Every ``--eval-every`` games the greedy policy (epsilon 0) plays ``--eval-games`` games
against ``heuristic`` on fixed seeds (the same deals each time, seats rotated): its win
rate with a 95% Wilson interval is printed and written to ``OUT/progress.jsonl``; the
weights go to ``OUT/weights.npz`` (``--resume`` starts from them).

This is a screen, not a product: the bot is not registered and nothing in the package
reads its weights.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import multiprocessing
import random
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from sequence_stacks.bots import make_bot
from sequence_stacks.engine import Action, Settings, View, action_space
from sequence_stacks.env.encoding import encoder_for
from sequence_stacks.sim import play_game
from sequence_stacks.sim.dossier.intervals import wilson

Weights = list[np.ndarray]


class QNet:
    """A ReLU network with one logistic output per action id, trained with Adam."""

    def __init__(self, sizes: Sequence[int], seed: int) -> None:
        rng = np.random.default_rng(seed)
        self.params: Weights = []
        for fan_in, fan_out in itertools.pairwise(sizes):
            self.params.append(
                (rng.standard_normal((fan_in, fan_out)) * math.sqrt(2.0 / fan_in)).astype(
                    np.float32
                )
            )
            self.params.append(np.zeros(fan_out, dtype=np.float32))
        self.m = [np.zeros_like(p) for p in self.params]
        self.v = [np.zeros_like(p) for p in self.params]
        self.t = 0

    def step(self, x: np.ndarray, actions: np.ndarray, won: np.ndarray, lr: float) -> float:
        """One Adam step of log loss on the logits of the actions taken; the loss (the
        gradients as ``sequence_stacks.sim.value_fit``'s, on one column a row)."""
        out, inputs = _layers(self.params, x)
        rows = np.arange(len(actions))
        chosen = out[rows, actions]
        p = 1.0 / (1.0 + np.exp(-np.clip(chosen, -40.0, 40.0)))
        loss = float(np.mean(np.logaddexp(0.0, chosen) - won * chosen))
        delta = np.zeros_like(out)
        delta[rows, actions] = (p - won) / len(actions)
        layers = len(inputs)
        grads: Weights = [np.empty(0)] * len(self.params)
        for i in reversed(range(layers)):
            grads[2 * i] = inputs[i].T @ delta
            grads[2 * i + 1] = delta.sum(axis=0)
            if i:
                delta = (delta @ self.params[2 * i].T) * (inputs[i] > 0.0)
        self.t += 1
        b1, b2 = 0.9, 0.999
        for k, grad in enumerate(grads):
            self.m[k] = b1 * self.m[k] + (1 - b1) * grad
            self.v[k] = b2 * self.v[k] + (1 - b2) * grad * grad
            m_hat = self.m[k] / (1 - b1**self.t)
            v_hat = self.v[k] / (1 - b2**self.t)
            self.params[k] -= (lr * m_hat / (np.sqrt(v_hat) + 1e-8)).astype(np.float32)
        return loss


def _layers(params: Weights, x: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    """The logits of rows ``x`` and each layer's input (for the gradients)."""
    inputs = [x]
    h = x
    last = len(params) // 2 - 1
    for i in range(last + 1):
        h = h @ params[2 * i] + params[2 * i + 1]
        if i < last:
            h = np.maximum(h, 0.0)
            inputs.append(h)
    return h, inputs


def forward(params: Weights, x: np.ndarray) -> np.ndarray:
    """The logits of rows ``x``: one per action id."""
    return _layers(params, x)[0]


class DmcBot:
    """Plays the legal action of highest learned win chance (epsilon: a random one)."""

    name = "dmc"

    def __init__(
        self, params: Weights, settings: Settings, epsilon: float, seed: int, guide: float = 0.0
    ) -> None:
        self.params = params
        # While learning, a share ``guide`` of decisions is the heuristic's own: the games
        # then reach positions a strong player reaches, and wins to learn from.
        self.guide = guide
        self.teacher = make_bot("heuristic", seed=seed) if guide > 0 else None
        self.encoder = encoder_for(settings)
        high = np.asarray(self.encoder.high, dtype=np.float32)
        self.scale = np.where(high > 0, 1.0 / np.maximum(high, 1e-9), 1.0).astype(np.float32)
        self.space = action_space(settings.player_count, settings.piles_per_colour)
        self.epsilon = epsilon
        self.rng = random.Random(seed)
        self.observations: list[np.ndarray] = []
        self.actions: list[int] = []

    def choose(self, view: View) -> Action:
        assert view.seat is not None
        legal = list(view.legal_action_ids)
        table = self.space.actions_of(view.seat)
        if len(legal) == 1:
            return table[legal[0]]
        obs = self.encoder.encode(view) * self.scale
        draw = self.rng.random()
        if self.teacher is not None and draw < self.guide:
            chosen = self.space.id_of(self.teacher.choose(view), view.seat)
        elif self.epsilon and draw < self.guide + self.epsilon:
            chosen = self.rng.choice(legal)
        else:
            scores = forward(self.params, obs[None, :])[0]
            chosen = legal[int(np.argmax(scores[legal]))]
        self.observations.append(obs)
        self.actions.append(chosen)
        return table[chosen]


def play_round(job: tuple[Weights, int, int, float, int, int, float]) -> dict[str, Any]:
    """Play ``games`` learner-against-heuristic games; the decisions and results."""
    params, players, first_game, epsilon, games, base_seed, guide = job
    settings = Settings(player_count=players)
    obs: list[np.ndarray] = []
    acts: list[int] = []
    won: list[float] = []
    wins = 0
    for game in range(first_game, first_game + games):
        learner_seat = game % players
        learner = DmcBot(params, settings, epsilon, seed=base_seed * 1_000_003 + game, guide=guide)
        bots: list[Any] = [
            learner if seat == learner_seat else make_bot("heuristic", seed=game * 10 + seat)
            for seat in range(players)
        ]
        state, _ = play_game(settings, f"{base_seed}-{game}", bots)
        result = state.result
        win = result is not None and result.winner == learner_seat
        wins += win
        obs.extend(learner.observations)
        acts.extend(learner.actions)
        won.extend([float(win)] * len(learner.actions))
    return {
        "obs": np.asarray(obs, dtype=np.float32),
        "acts": np.asarray(acts, dtype=np.int64),
        "won": np.asarray(won, dtype=np.float32),
        "wins": wins,
        "games": games,
    }


def evaluate(pool: Any, params: Weights, players: int, games: int, workers: int) -> int:
    """Greedy games on fixed seeds (seed 777): how many the learner won."""
    share = math.ceil(games / workers)
    jobs = [
        (params, players, start, 0.0, min(share, games - start), 777, 0.0)
        for start in range(0, games, share)
    ]
    return sum(part["wins"] for part in pool.map(play_round, jobs))


class Replay:
    """The last ``size`` decisions played: observation, action id, 1 if that game was won."""

    def __init__(self, size: int, width: int) -> None:
        self.obs = np.zeros((size, width), dtype=np.float32)
        self.acts = np.zeros(size, dtype=np.int64)
        self.won = np.zeros(size, dtype=np.float32)
        self.size = size
        self.filled = self.cursor = 0

    def add(self, part: dict[str, Any]) -> None:
        count = min(len(part["acts"]), self.size)
        idx = np.arange(self.cursor, self.cursor + count) % self.size
        self.obs[idx] = part["obs"][-count:]
        self.acts[idx] = part["acts"][-count:]
        self.won[idx] = part["won"][-count:]
        self.cursor = (self.cursor + count) % self.size
        self.filled = min(self.size, self.filled + count)

    def train(
        self, net: QNet, rng: np.random.Generator, steps: int, batch: int, lr: float
    ) -> float:
        """``steps`` Adam steps on random batches; their mean loss."""
        losses = []
        for _ in range(steps):
            pick = rng.integers(0, self.filled, size=min(batch, self.filled))
            losses.append(net.step(self.obs[pick], self.acts[pick], self.won[pick], lr))
        return float(np.mean(losses))


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--minutes", type=float, default=60.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--round-games", type=int, default=64, help="games per worker a round")
    parser.add_argument("--hidden", default="256,256")
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--batch", type=int, default=512)
    parser.add_argument("--replay", type=int, default=400_000, help="decisions kept to train on")
    parser.add_argument("--updates", type=int, default=24, help="Adam steps a round")
    parser.add_argument("--epsilon", type=float, default=0.1)
    parser.add_argument(
        "--guide-games",
        type=int,
        default=200_000,
        help="the heuristic's share of the learner's decisions falls from 0.9 to 0 over "
        "these games",
    )
    parser.add_argument("--eval-every", type=int, default=20_000)
    parser.add_argument("--eval-games", type=int, default=1000)
    parser.add_argument("--out", type=Path, default=Path("dmc"))
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    return parser.parse_args()


def _network(args: argparse.Namespace) -> tuple[QNet, int]:
    """A new network, or the saved one with ``--resume``; and the games it has seen."""
    settings = Settings(player_count=args.players)
    space = action_space(args.players, settings.piles_per_colour)
    hidden = [int(h) for h in args.hidden.split(",")]
    sizes = [encoder_for(settings).size, *hidden, len(space.actions_of(0))]
    net = QNet(sizes, args.seed)
    weights_file = args.out / "weights.npz"
    games = 0
    if args.resume and weights_file.exists():
        saved = np.load(weights_file)
        net.params = [saved[f"p{i}"] for i in range(len(net.params))]
        games = int(saved["games"])
    print(f"network {sizes}, {sum(p.size for p in net.params):,} weights; from game {games}")
    return net, games


def _checkpoint(pool: Any, net: QNet, args: argparse.Namespace, games: int, minutes: float) -> str:
    """Evaluate the greedy policy and save the weights; the progress line."""
    wins = evaluate(pool, net.params, args.players, args.eval_games, args.workers)
    estimate = wilson(wins, args.eval_games)
    line = json.dumps(
        {
            "games": games,
            "won": wins,
            "of": args.eval_games,
            "rate": wins / args.eval_games,
            "low": estimate.low,
            "high": estimate.high,
            "minutes": minutes,
        }
    )
    arrays: dict[str, Any] = {f"p{i}": p for i, p in enumerate(net.params)}
    np.savez(args.out / "weights.npz", games=games, **arrays)
    return line


def main() -> None:
    args = _arguments()
    args.out.mkdir(parents=True, exist_ok=True)
    net, games_done = _network(args)
    replay = Replay(args.replay, net.params[0].shape[0])
    rng = np.random.default_rng(args.seed)
    started = time.monotonic()
    deadline = started + args.minutes * 60
    next_eval = games_done
    per_round = args.workers * args.round_games
    context = multiprocessing.get_context("spawn")
    with context.Pool(args.workers) as pool, (args.out / "progress.jsonl").open("a") as log:
        while True:
            if games_done >= next_eval or time.monotonic() >= deadline:
                line = _checkpoint(pool, net, args, games_done, (time.monotonic() - started) / 60)
                print(line, flush=True)
                log.write(line + "\n")
                log.flush()
                next_eval = games_done + args.eval_every
                if time.monotonic() >= deadline:
                    break
            guide = 0.9 * max(0.0, 1 - games_done / args.guide_games) if args.guide_games else 0.0
            jobs = [
                (
                    net.params,
                    args.players,
                    games_done + w * args.round_games,
                    args.epsilon,
                    args.round_games,
                    args.seed,
                    guide,
                )
                for w in range(args.workers)
            ]
            train_wins = 0
            for part in pool.map(play_round, jobs):
                train_wins += part["wins"]
                replay.add(part)
            games_done += per_round
            loss = replay.train(net, rng, args.updates, args.batch, args.lr)
            if (games_done // per_round) % 20 == 0:
                print(
                    f"games {games_done:,}  guide {guide:.2f}  "
                    f"train win {train_wins / per_round:.2f}  loss {loss:.4f}  "
                    f"{(time.monotonic() - started) / 60:.1f} min",
                    flush=True,
                )


if __name__ == "__main__":
    main()
