"""Train a masked linear softmax policy with REINFORCE against random bots (numpy only).

Run (needs the ``rl`` extra; about two minutes of one CPU core by default)::

    python examples/train_masked_policy.py [--players 4] [--seconds 120] [--out curve.png]

The learner sits at seat 0 of the Gymnasium environment ``SequenceStacksEnv`` against
``random`` bots. Its policy scores each action linearly from the encoded observation
(scaled to [0, 1] by the encoder's bounds, plus a constant), keeps only the legal
actions (``info["action_mask"]``) and samples from their softmax. After each game it
takes one REINFORCE step on the game's return (+1 win, -1/(n-1) loss, 0 no winner)
minus a running baseline. Before and after training it plays ``--eval-games`` games on
fixed seeds, untrained (a uniform choice among legal actions) and trained, prints both
win rates, and plots the learning curve to ``--out`` if matplotlib is installed.
``--episodes`` replaces the time budget with a fixed number of games (reproducible).
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from sequence_stacks.env import encoder_for
from sequence_stacks.env.gym_env import SequenceStacksEnv

Matrix = npt.NDArray[np.float64]
EVAL_SEED_BASE = 1_000_000  # evaluation games use seeds no training game uses


@dataclass
class LinearPolicy:
    """Logits ``weights @ features``; illegal actions get probability 0."""

    weights: Matrix
    scale: Matrix
    rng: np.random.Generator

    @classmethod
    def for_env(cls, game: SequenceStacksEnv, seed: int) -> LinearPolicy:
        """Return an untrained policy (all weights 0: uniform over legal actions)."""
        encoder = encoder_for(game.settings)
        scale = 1.0 / np.clip(encoder.high.astype(np.float64), 1.0, 1000.0)  # unlimited: 1000
        weights = np.zeros((encoder.action_count, encoder.size + 1))
        return cls(weights, scale, np.random.default_rng(seed))

    def features(self, observation: npt.NDArray[np.float32]) -> Matrix:
        """Return the scaled observation with a constant 1 appended."""
        features = np.empty(self.scale.size + 1)
        features[:-1] = observation * self.scale
        features[-1] = 1.0
        return features

    def probabilities(self, features: Matrix, mask: npt.NDArray[np.int8]) -> Matrix:
        """Return the softmax of the legal actions' logits (0 for illegal ones)."""
        logits: Matrix = self.weights @ features
        logits[mask == 0] = -np.inf
        logits -= logits.max()
        weights = np.exp(logits)
        probabilities: Matrix = weights / weights.sum()
        return probabilities

    def act(self, features: Matrix, mask: npt.NDArray[np.int8]) -> tuple[int, Matrix]:
        """Sample an action; return it and its probability vector."""
        probabilities = self.probabilities(features, mask)
        return int(self.rng.choice(probabilities.size, p=probabilities)), probabilities


@dataclass
class Curve:
    """Training returns and wins, one entry per game."""

    returns: list[float] = field(default_factory=list)
    wins: list[bool] = field(default_factory=list)

    def blocks(self, size: int) -> tuple[list[int], list[float], list[float]]:
        """Return (games played, mean return, win rate) for each block of ``size`` games."""
        ends = list(range(size, len(self.returns) + 1, size))
        means = [float(np.mean(self.returns[end - size : end])) for end in ends]
        rates = [float(np.mean(self.wins[end - size : end])) for end in ends]
        return ends, means, rates


def play_game(
    game: SequenceStacksEnv, policy: LinearPolicy, seed: int
) -> tuple[float, list[Matrix], list[Matrix]]:
    """Play one game; return the learner's return, features and score gradients."""
    observation, info = game.reset(seed=seed)
    features_seen: list[Matrix] = []
    gradients: list[Matrix] = []
    while True:
        features = policy.features(observation)
        action, probabilities = policy.act(features, info["action_mask"])
        gradient = -probabilities  # d log pi(action) / d logits = onehot - probabilities
        gradient[action] += 1.0
        features_seen.append(features)
        gradients.append(gradient)
        observation, reward, terminated, truncated, info = game.step(action)
        if terminated or truncated:
            return float(reward), features_seen, gradients


def evaluate(game: SequenceStacksEnv, policy: LinearPolicy, games: int) -> tuple[float, float]:
    """Return (win rate, mean return) over ``games`` games on fixed seeds."""
    results = [play_game(game, policy, EVAL_SEED_BASE + index)[0] for index in range(games)]
    return float(np.mean([r == 1.0 for r in results])), float(np.mean(results))


def train(
    game: SequenceStacksEnv,
    policy: LinearPolicy,
    *,
    seconds: float,
    episodes: int | None,
    learning_rate: float,
) -> Curve:
    """Run REINFORCE with a running-mean baseline until the budget is spent."""
    curve = Curve()
    baseline = 0.0
    deadline = time.perf_counter() + seconds
    episode = 0
    while (episode < episodes) if episodes is not None else (time.perf_counter() < deadline):
        reward, features, gradients = play_game(game, policy, episode)
        advantage = reward - baseline
        baseline += 0.01 * (reward - baseline)
        policy.weights += learning_rate * advantage * (np.array(gradients).T @ np.array(features))
        curve.returns.append(reward)
        curve.wins.append(reward == 1.0)
        episode += 1
        if episode % 500 == 0:
            _, means, rates = curve.blocks(500)
            print(
                f"  {episode:6} games: last 500 mean return {means[-1]:+.3f}, wins {rates[-1]:.1%}"
            )
    return curve


def plot(curve: Curve, baseline_rate: float, path: str, block: int) -> bool:
    """Save the learning curve as a PNG; return False if matplotlib is missing."""
    try:
        import matplotlib as mpl  # noqa: PLC0415 - optional

        mpl.use("Agg")
        import matplotlib.pyplot as plt  # noqa: PLC0415 - optional
    except ImportError:
        return False
    ends, means, rates = curve.blocks(block)
    figure, axis = plt.subplots(figsize=(7, 4))
    axis.plot(ends, rates, label=f"win rate (blocks of {block} games)")
    axis.plot(ends, means, label="mean return")
    axis.axhline(baseline_rate, linestyle="--", color="grey", label="untrained win rate")
    axis.set_xlabel("training games")
    axis.set_ylim(-0.5, 1.0)
    axis.set_title("Masked linear policy (REINFORCE) against random bots")
    axis.legend(loc="lower right")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
    return True


def main(argv: list[str] | None = None) -> int:
    """Train, evaluate before and after, print the improvement and plot the curve."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=120.0, help="training time budget")
    parser.add_argument("--episodes", type=int, default=None, help="train this many games")
    parser.add_argument("--learning-rate", type=float, default=0.05)
    parser.add_argument("--eval-games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="learning_curve.png")
    args = parser.parse_args(argv)

    game = SequenceStacksEnv(player_count=args.players, opponents="random")
    policy = LinearPolicy.for_env(game, args.seed)
    before_rate, before_return = evaluate(game, policy, args.eval_games)
    print(f"untrained: win rate {before_rate:.1%}, mean return {before_return:+.3f}")
    start = time.perf_counter()
    curve = train(
        game,
        policy,
        seconds=args.seconds,
        episodes=args.episodes,
        learning_rate=args.learning_rate,
    )
    spent = time.perf_counter() - start
    after_rate, after_return = evaluate(game, policy, args.eval_games)
    print(f"trained on {len(curve.returns)} games in {spent:.0f} s")
    print(f"trained:   win rate {after_rate:.1%}, mean return {after_return:+.3f}")
    print(
        f"improvement: win rate {after_rate - before_rate:+.1%}, "
        f"mean return {after_return - before_return:+.3f} (same {args.eval_games} seeds)"
    )
    block = max(1, min(200, len(curve.returns) // 20))
    if plot(curve, before_rate, args.out, block):
        print(f"learning curve: {args.out}")
    else:
        print("matplotlib is not installed: no plot")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
