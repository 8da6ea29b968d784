"""Positions for the win-chance model: heuristic self-play, each position seen by one seat.

:func:`play_positions` plays one game of ``heuristic`` bots (each decision, with a small
chance, a random legal action instead, so that the positions are more varied than four
copies of one policy make them) and records positions along the way:

- at the first decision of every turn, every seat's view (so the model meets each seat
  as it waits and as it starts its own turn);
- at any other decision, with probability ``sample_rate``, every seat's view (mid-turn
  positions and Block windows, for the review's per-action chances).

Each position is :func:`~sequence_stacks.bots.winchance.view_features` of
``observe(state, seat)`` (never the state: no hidden card reaches the features), and its
label is whether that seat won the game (``1/players`` each when nobody won). Games are
split by index: every tenth (index 0 mod 10) is held out for testing and every tenth
after it (1 mod 10) for validation; in the test games the turn-start positions of the
player to move also get the ``ismcts`` bot's current leaf value
(:class:`~sequence_stacks.bots.leaf.HeuristicLeaf`), so the two can be compared on the
same positions.

:func:`write_shards` plays the games of one player count in shards of
``SHARD_GAMES`` games, each written to its own ``.npz`` file as it finishes: a run that
is stopped resumes where it left off (finished shards are kept, the rest is played).
"""

from __future__ import annotations

import dataclasses
import os
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

from sequence_stacks.bots import HeuristicBot
from sequence_stacks.bots.heuristic import Evaluator
from sequence_stacks.bots.leaf import HeuristicLeaf
from sequence_stacks.bots.winchance import feature_names, view_features
from sequence_stacks.engine import (
    Phase,
    Settings,
    State,
    View,
    action_space,
    apply_in_place,
    new_game,
    observe,
    resample,
)

__all__ = [
    "SHARD_GAMES",
    "TEST_REST",
    "VALIDATION_REST",
    "Positions",
    "load_positions",
    "play_positions",
    "shard_path",
    "split_of",
    "write_shards",
]

SHARD_GAMES: Final = 100
_EPSILON: Final = 0.02
_SAMPLE_RATE: Final = 0.1
_MAX_ACTIONS: Final = 20_000
FloatArray = npt.NDArray[np.float32]


# Games held out by index: index mod 10 is 0 for the test games, 1 for validation.
TEST_REST: Final = 0
VALIDATION_REST: Final = 1


def split_of(game: int) -> str:
    """``"test"``, ``"validation"`` or ``"train"``: the part game ``game`` belongs to."""
    rest = game % 10
    return "test" if rest == TEST_REST else "validation" if rest == VALIDATION_REST else "train"


@dataclasses.dataclass(slots=True)
class Positions:
    """Recorded positions (one row each) of some games of one player count.

    Attributes:
        features: ``[N, D]`` float32, the seat's view features.
        labels: ``[N]`` float32, 1 if the seat won, 0 if not, ``1/players`` if nobody won.
        games: ``[N]`` int32, the game index (the split is by game).
        turn_start: ``[N]`` bool, the seat is about to move at its turn's start.
        leaf: ``[N]`` float32, the ``ismcts`` leaf value there (test games), else NaN.
    """

    features: FloatArray
    labels: FloatArray
    games: npt.NDArray[np.int32]
    turn_start: npt.NDArray[np.bool_]
    leaf: FloatArray

    def __len__(self) -> int:
        return len(self.labels)

    def where(self, mask: npt.NDArray[np.bool_]) -> Positions:
        """The rows where ``mask`` is true."""
        return Positions(
            self.features[mask],
            self.labels[mask],
            self.games[mask],
            self.turn_start[mask],
            self.leaf[mask],
        )

    def part(self, name: str) -> Positions:
        """The rows of the games of one split part (``train``, ``validation``, ``test``)."""
        rest = self.games % 10
        if name == "test":
            return self.where(rest == TEST_REST)
        if name == "validation":
            return self.where(rest == VALIDATION_REST)
        return self.where((rest != TEST_REST) & (rest != VALIDATION_REST))


def _game_seed(seed: int, player_count: int, game: int) -> str:
    return f"win-chance/{seed}/{player_count}/{game}"


def play_positions(
    settings: Settings,
    *,
    seed: int,
    game: int,
    with_leaf: bool,
    epsilon: float = _EPSILON,
    sample_rate: float = _SAMPLE_RATE,
) -> tuple[list[list[float]], list[float], list[bool], list[float]]:
    """Play game ``game`` of a run and return its rows: features, labels, whether the
    seat was about to start its turn, and the leaf value there (NaN unless
    ``with_leaf``)."""
    count = settings.player_count
    rng = random.Random(_game_seed(seed, count, game))
    bots = [HeuristicBot(seed=rng.randrange(2**31)) for _ in range(count)]
    table = action_space(count, settings.piles_per_colour)
    state = new_game(settings, _game_seed(seed, count, game))
    rows: list[list[float]] = []
    seats: list[int] = []
    starts: list[bool] = []
    leaves: list[float] = []
    leaf = HeuristicLeaf()
    actions = 0
    while not state.is_over and actions < _MAX_ACTIONS:
        mover = state.current_player()
        assert mover is not None
        at_start = state.phase == Phase.PLAYING and state.turn_actions == 0
        if at_start or rng.random() < sample_rate:
            for seat in range(count):
                view = observe(state, seat)
                rows.append(view_features(view))
                seats.append(seat)
                starts.append(at_start and seat == mover)
                leaves.append(
                    _leaf_value(leaf, view, rng)
                    if with_leaf and at_start and seat == mover
                    else np.nan
                )
        view = observe(state, mover)
        if state.phase == Phase.PLAYING and rng.random() < epsilon:
            action = table.actions_of(mover)[rng.choice(view.legal_action_ids)]
        else:
            action = bots[mover].choose(view)
        apply_in_place(state, mover, action, checked=False)
        actions += 1
    labels = _labels(state, seats)
    return rows, labels, starts, leaves


def _leaf_value(leaf: HeuristicLeaf, view: View, rng: random.Random) -> float:
    """The ``ismcts`` leaf value of a turn start, as the bot computes it: the planner's
    score on a deal of the unseen cards, made a probability."""
    assert view.seat is not None
    state = resample(view, view.seat, rng)
    return leaf(state, view.seat, Evaluator.from_view(view), 0)


def _labels(state: State, seats: list[int]) -> list[float]:
    result = state.result
    count = state.player_count
    if result is None or result.winner is None:
        return [1.0 / count] * len(seats)
    return [1.0 if seat == result.winner else 0.0 for seat in seats]


def shard_path(folder: Path, player_count: int, shard: int) -> Path:
    """Where shard ``shard`` of a player count's positions is written."""
    return folder / f"{player_count}p" / f"shard-{shard:05d}.npz"


def _play_shard(settings: Settings, seed: int, shard: int) -> Positions:
    features: list[list[float]] = []
    labels: list[float] = []
    games: list[int] = []
    starts: list[bool] = []
    leaves: list[float] = []
    for game in range(shard * SHARD_GAMES, (shard + 1) * SHARD_GAMES):
        rows, game_labels, game_starts, game_leaves = play_positions(
            settings, seed=seed, game=game, with_leaf=split_of(game) == "test"
        )
        features += rows
        labels += game_labels
        games += [game] * len(rows)
        starts += game_starts
        leaves += game_leaves
    width = len(feature_names(settings.player_count))
    return Positions(
        np.array(features, np.float32).reshape(-1, width),
        np.array(labels, np.float32),
        np.array(games, np.int32),
        np.array(starts, np.bool_),
        np.array(leaves, np.float32),
    )


def _save(positions: Positions, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".partial.npz")
    np.savez_compressed(
        partial,
        features=positions.features,
        labels=positions.labels,
        games=positions.games,
        turn_start=positions.turn_start,
        leaf=positions.leaf,
    )
    os.replace(partial, path)


def write_shards(
    folder: Path,
    player_count: int,
    *,
    games: int,
    seed: int,
    on_shard: Callable[[int], None] | None = None,
) -> Iterator[int]:
    """Play the missing shards of ``games`` games (rounded up to whole shards) of a
    player count into ``folder``; yield each shard's number as it is written (``on_shard``
    also hears of the shards already there)."""
    settings = Settings(player_count=player_count)
    for shard in range(-(-games // SHARD_GAMES)):
        path = shard_path(folder, player_count, shard)
        if path.exists():
            if on_shard is not None:
                on_shard(shard)
            continue
        _save(_play_shard(settings, seed, shard), path)
        yield shard


def load_positions(folder: Path, player_count: int, *, games: int | None = None) -> Positions:
    """Read the shards of a player count (the first ``games`` games' worth if given)."""
    paths = sorted((folder / f"{player_count}p").glob("shard-*[0-9].npz"))
    if games is not None:
        paths = paths[: -(-games // SHARD_GAMES)]
    if not paths:
        raise FileNotFoundError(f"no {player_count}-player positions in {folder}")
    parts = []
    for path in paths:
        with np.load(path) as data:
            parts.append(
                Positions(
                    data["features"],
                    data["labels"],
                    data["games"],
                    data["turn_start"],
                    data["leaf"],
                )
            )
    return Positions(
        np.concatenate([p.features for p in parts]),
        np.concatenate([p.labels for p in parts]),
        np.concatenate([p.games for p in parts]),
        np.concatenate([p.turn_start for p in parts]),
        np.concatenate([p.leaf for p in parts]),
    )
