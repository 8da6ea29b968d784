"""Training and measuring the win-chance model (numpy only; docs/bots.md).

:func:`train_network` fits one player count's network (ReLU layers, a logistic output)
by minibatch Adam on the cross-entropy of the positions' labels, standardising the
inputs on the training rows and folding that into the first layer, so the network reads
raw :func:`~sequence_stacks.bots.winchance.view_features`. Validation games stop it
early (the best epoch is kept). A checkpoint after every epoch lets a stopped run go on
where it was.

:func:`predict` evaluates a :class:`~sequence_stacks.bots.winchance.Network` on many rows
at once with numpy (the same numbers as its pure-Python ``logit``, tested);
:func:`calibration` measures predictions against outcomes: log loss, the reliability
table and the expected calibration error.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from sequence_stacks.bots.winchance import Layer, Network, feature_names

from .value_config import TrainConfig
from .value_data import Positions

__all__ = [
    "Calibration",
    "TrainConfig",
    "calibration",
    "log_loss",
    "predict",
    "train_network",
]

# Training as `train-value` does it by default.
DEFAULT_CONFIG: Final = TrainConfig()

Array = npt.NDArray[np.float32]
Floats = npt.NDArray[np.float64]
_STD_FLOOR: Final = 0.1
_CLIP: Final = 1e-7
_BINS: Final = 10


@dataclasses.dataclass(slots=True)
class _Params:
    weights: list[Array]
    biases: list[Array]

    def arrays(self) -> list[Array]:
        return [*self.weights, *self.biases]

    def copy(self) -> _Params:
        return _Params([w.copy() for w in self.weights], [b.copy() for b in self.biases])


def _init(sizes: Sequence[int], rng: np.random.Generator) -> _Params:
    weights = [
        rng.normal(0.0, math.sqrt(2.0 / fan_in), (fan_in, fan_out)).astype(np.float32)
        for fan_in, fan_out in itertools.pairwise(sizes)
    ]
    biases = [np.zeros(fan_out, np.float32) for fan_out in sizes[1:]]
    return _Params(weights, biases)


def _moments(x: Array) -> tuple[Array, Array]:
    """Each column's mean and standard deviation (at least ``_STD_FLOOR``), summed in
    float64 a block of rows at a time."""
    total = np.zeros(x.shape[1])
    squares = np.zeros(x.shape[1])
    for start in range(0, len(x), 65_536):
        block = x[start : start + 65_536].astype(np.float64)
        total += block.sum(axis=0)
        squares += (block * block).sum(axis=0)
    count = max(1, len(x))
    mean = total / count
    std = np.sqrt(np.maximum(squares / count - mean * mean, 0.0))
    return mean.astype(np.float32), np.maximum(std, _STD_FLOOR).astype(np.float32)


def _forward(params: _Params, x: Array) -> tuple[Array, list[Array]]:
    """The logits of rows ``x`` and each layer's input (for the gradients)."""
    inputs = [x]
    h = x
    last = len(params.weights) - 1
    for index, (w, b) in enumerate(zip(params.weights, params.biases, strict=True)):
        h = h @ w + b
        if index < last:
            h = np.maximum(h, 0.0)
            inputs.append(h)
    return h[:, 0], inputs


def _gradients(
    params: _Params, x: Array, y: Array, weight_decay: float
) -> tuple[float, list[Array]]:
    logits, inputs = _forward(params, x)
    p = 1.0 / (1.0 + np.exp(-np.clip(logits, -40.0, 40.0)))
    loss = float(np.mean(np.logaddexp(0.0, logits) - y * logits))
    delta = ((p - y) / len(y))[:, None]
    grads_w: list[Array] = [np.empty(0, np.float32)] * len(params.weights)
    grads_b: list[Array] = [np.empty(0, np.float32)] * len(params.weights)
    for index in range(len(params.weights) - 1, -1, -1):
        grads_w[index] = inputs[index].T @ delta + weight_decay * params.weights[index]
        grads_b[index] = delta.sum(axis=0)
        if index:
            delta = (delta @ params.weights[index].T) * (inputs[index] > 0.0)
    return loss, [*grads_w, *grads_b]


def _mean_loss(params: _Params, x: Array, y: Array) -> float:
    total = 0.0
    for start in range(0, len(y), 65_536):
        logits, _ = _forward(params, x[start : start + 65_536])
        part = y[start : start + 65_536]
        total += float(np.sum(np.logaddexp(0.0, logits) - part * logits))
    return total / max(1, len(y))


@dataclasses.dataclass(slots=True)
class _State:
    """Everything a checkpoint holds."""

    params: _Params
    best: _Params
    moments: list[Array]
    squares: list[Array]
    step: int
    epoch: int
    best_loss: float
    stale: int
    learning_rate: float
    history: list[dict[str, float]]


def _save_checkpoint(path: Path, state: _State, mean: Array, std: Array) -> None:
    arrays: dict[str, Array] = {"mean": mean, "std": std}
    for name, group in (
        ("p", state.params.arrays()),
        ("b", state.best.arrays()),
        ("m", state.moments),
        ("v", state.squares),
    ):
        for index, array in enumerate(group):
            arrays[f"{name}{index}"] = array
    meta = {
        "step": state.step,
        "epoch": state.epoch,
        "best_loss": state.best_loss,
        "stale": state.stale,
        "learning_rate": state.learning_rate,
        "history": state.history,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".partial.npz")
    arrays_and_meta: dict[str, Any] = {"meta": np.array(json.dumps(meta)), **arrays}
    np.savez(partial, **arrays_and_meta)
    os.replace(partial, path)


def _load_checkpoint(path: Path, layers: int) -> tuple[_State, Array, Array]:
    with np.load(path) as data:
        meta = json.loads(str(data["meta"]))

        def group(name: str) -> list[Array]:
            return [data[f"{name}{index}"] for index in range(2 * layers)]

        params, best = group("p"), group("b")
        state = _State(
            _Params(params[:layers], params[layers:]),
            _Params(best[:layers], best[layers:]),
            group("m"),
            group("v"),
            int(meta["step"]),
            int(meta["epoch"]),
            float(meta["best_loss"]),
            int(meta["stale"]),
            float(meta["learning_rate"]),
            list(meta["history"]),
        )
        return state, data["mean"], data["std"]


def train_network(
    player_count: int,
    train: Positions,
    validation: Positions,
    config: TrainConfig = DEFAULT_CONFIG,
    *,
    checkpoint: Path | None = None,
    on_step: Callable[[int, int], None] | None = None,
    on_epoch: Callable[[int, float, float], None] | None = None,
) -> tuple[Network, list[dict[str, float]]]:
    """Fit a network to ``train``, stopping early on ``validation``'s log loss; return it
    (inputs raw features) and the per-epoch history. ``checkpoint``: a file to resume
    from and save to after every epoch. ``on_step(done, total)`` hears of each batch of
    the epoch, ``on_epoch(epoch, train_loss, validation_loss)`` of each epoch."""
    width = len(feature_names(player_count))
    if train.features.shape[1] != width:
        raise ValueError(f"{player_count}-player rows need {width} features")
    layers = len(config.hidden) + 1
    x = train.features.astype(np.float32)  # a copy: standardised in place below
    y = train.labels.astype(np.float32)
    xv = validation.features.astype(np.float32)
    yv = validation.labels.astype(np.float32)
    if checkpoint is not None and checkpoint.exists():
        state, mean, std = _load_checkpoint(checkpoint, layers)
    else:
        mean, std = _moments(x)
        params = _init([width, *config.hidden, 1], np.random.default_rng(config.seed))
        zeros = [np.zeros_like(a) for a in params.arrays()]
        state = _State(
            params,
            params.copy(),
            zeros,
            [z.copy() for z in zeros],
            0,
            0,
            math.inf,
            0,
            config.learning_rate,
            [],
        )
    x -= mean
    x /= std
    xv -= mean
    xv /= std
    while state.epoch < config.epochs and state.stale < config.patience:
        train_loss = _epoch(state, x, y, config, on_step)
        loss = _mean_loss(state.params, xv, yv)
        state.epoch += 1
        state.history.append({"epoch": state.epoch, "train": train_loss, "validation": loss})
        if loss < state.best_loss - 1e-5:
            state.best, state.best_loss, state.stale = state.params.copy(), loss, 0
        else:
            state.stale += 1
            state.learning_rate /= 2.0
        if checkpoint is not None:
            _save_checkpoint(checkpoint, state, mean, std)
        if on_epoch is not None:
            on_epoch(state.epoch, train_loss, loss)
    return _export(player_count, state.best, mean, std), state.history


def _epoch(
    state: _State,
    x: Array,
    y: Array,
    config: TrainConfig,
    on_step: Callable[[int, int], None] | None,
) -> float:
    """One pass of Adam over the rows in an order fixed by the seed and the epoch."""
    order = np.random.default_rng([config.seed, state.epoch]).permutation(len(y))
    beta1, beta2 = 0.9, 0.999
    total = 0.0
    batches = -(-len(y) // config.batch)
    for index in range(batches):
        rows = order[index * config.batch : (index + 1) * config.batch]
        loss, grads = _gradients(state.params, x[rows], y[rows], config.weight_decay)
        total += loss * len(rows)
        state.step += 1
        correction = math.sqrt(1 - beta2**state.step) / (1 - beta1**state.step)
        for array, grad, m, v in zip(
            state.params.arrays(), grads, state.moments, state.squares, strict=True
        ):
            np.multiply(m, beta1, out=m)
            np.add(m, (1 - beta1) * grad, out=m)
            np.multiply(v, beta2, out=v)
            np.add(v, (1 - beta2) * grad * grad, out=v)
            step = state.learning_rate * correction * m / (np.sqrt(v) + 1e-8)
            np.subtract(array, step, out=array)
        if on_step is not None:
            on_step(index + 1, batches)
    return total / max(1, len(y))


def _export(player_count: int, params: _Params, mean: Array, std: Array) -> Network:
    """The network reading raw features: the standardisation folded into layer one."""
    w0 = params.weights[0].astype(np.float64)
    first = w0 / std.astype(np.float64)[:, None]
    bias = params.biases[0] - (mean.astype(np.float64) / std) @ w0
    weights: list[Floats] = [first, *(w.astype(np.float64) for w in params.weights[1:])]
    biases: list[Floats] = [bias, *(b.astype(np.float64) for b in params.biases[1:])]
    layers = tuple(
        Layer(
            tuple(tuple(float(v) for v in row) for row in w.astype(np.float16)),
            tuple(float(v) for v in b.astype(np.float16)),
        )
        for w, b in zip(weights, biases, strict=True)
    )
    return Network(player_count, feature_names(player_count), layers)


def predict(network: Network, features: npt.ArrayLike) -> Floats:
    """P(win) for every row of ``features`` (numpy; the same as ``network.logit``)."""
    h = np.asarray(features, np.float64)
    last = len(network.layers) - 1
    for index, layer in enumerate(network.layers):
        h = h @ np.array(layer.weights, np.float64) + np.array(layer.bias, np.float64)
        if index < last:
            h = np.maximum(h, 0.0)
    return 1.0 / (1.0 + np.exp(-np.clip(h[:, 0], -40.0, 40.0)))


def log_loss(predicted: npt.ArrayLike, labels: npt.ArrayLike) -> float:
    """The mean cross-entropy of predictions against (possibly fractional) labels."""
    p = np.clip(np.asarray(predicted, np.float64), _CLIP, 1 - _CLIP)
    y = np.asarray(labels, np.float64)
    return float(np.mean(-(y * np.log(p) + (1 - y) * np.log(1 - p))))


@dataclasses.dataclass(frozen=True, slots=True)
class Calibration:
    """How well predictions match outcomes.

    Attributes:
        count: positions measured.
        log_loss: mean cross-entropy (lower is better).
        ece: expected calibration error: the mean over the bins, weighted by their
            positions, of |mean prediction - observed win rate|, as a fraction.
        bins: the reliability table: per bin of predictions ``[low, high)``, its
            positions, mean prediction and observed win rate.
    """

    count: int
    log_loss: float
    ece: float
    bins: tuple[tuple[float, float, int, float, float], ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "count": self.count,
            "log_loss": self.log_loss,
            "ece": self.ece,
            "bins": [
                {"low": lo, "high": hi, "count": n, "predicted": p, "observed": o}
                for lo, hi, n, p, o in self.bins
            ],
        }


def calibration(predicted: npt.ArrayLike, labels: npt.ArrayLike, bins: int = _BINS) -> Calibration:
    """Log loss, reliability table (``bins`` equal-width bins) and ECE of predictions."""
    p = np.asarray(predicted, np.float64)
    y = np.asarray(labels, np.float64)
    index = np.minimum((p * bins).astype(np.int64), bins - 1)
    table = []
    error = 0.0
    for b in range(bins):
        rows = index == b
        n = int(rows.sum())
        if n == 0:
            continue
        mean_p, mean_y = float(p[rows].mean()), float(y[rows].mean())
        table.append((b / bins, (b + 1) / bins, n, mean_p, mean_y))
        error += n * abs(mean_p - mean_y)
    return Calibration(len(p), log_loss(p, y), error / max(1, len(p)), tuple(table))
