"""What ``train-value`` is told before anything is trained: numpy-free, so the command
line (every ``sequence-stacks`` command's parser) loads without the ``sim`` extra."""

from __future__ import annotations

import dataclasses
from typing import Final

__all__ = ["DEFAULT_GAMES", "TrainConfig"]

# Games per player count: about 1.5-2.5 million positions each (a larger table gives
# more positions per game, so fewer games).
DEFAULT_GAMES: Final = {2: 20_000, 3: 12_000, 4: 8_000, 5: 6_000, 6: 5_000}


@dataclasses.dataclass(frozen=True, slots=True)
class TrainConfig:
    """How a network is trained.

    Attributes:
        hidden: the widths of the hidden layers.
        epochs: at most this many passes over the training rows.
        batch: rows per Adam step.
        learning_rate: Adam's step size (halved after an epoch that did not improve).
        weight_decay: L2 penalty on the weights (not the biases).
        patience: stop after this many epochs without a better validation loss.
        seed: the initial weights and the order of the rows.
    """

    hidden: tuple[int, ...] = (64,)
    epochs: int = 15
    batch: int = 1024
    learning_rate: float = 2e-3
    weight_decay: float = 2e-3
    patience: int = 3
    seed: int = 0
