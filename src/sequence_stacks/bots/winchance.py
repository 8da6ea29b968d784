"""The win-chance model: P(a seat wins | what that seat may see), learned from self-play.

:func:`view_features` turns one seat's :class:`~sequence_stacks.engine.View` into a
fixed list of numbers (:func:`feature_names`): every player's chips and what they still
need (R31), hand and discard sizes, discard tops and whether they fit the piles, the
piles' lengths, the chip supply, the viewer's own hand and what it could lay, the cards
the viewer has not seen, and where the turn and any Block window stand. It reads the
view only, so no hidden card can reach it (R36).

:class:`WinChanceModel` holds one small network per player count (ReLU layers, a
logistic output), trained by ``sequence-stacks train-value`` (docs/bots.md) and shipped
in the package (``bots/data/winchance.json``). It runs in pure Python, one view at a
time (no numpy needed to play, in a browser's Pyodide too); ``sequence_stacks.sim``
evaluates the same weights with numpy in batches for training and reports, and a test
holds the two to the same numbers.
"""

from __future__ import annotations

import base64
import dataclasses
import functools
import itertools
import json
import math
import struct
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from sequence_stacks.engine import (
    CARD_KIND,
    Kind,
    Phase,
    Settings,
    View,
    chips_needed,
    deck_for,
    kind_colour,
    kind_rank,
)

from .fileformat import check_format

__all__ = [
    "FEATURE_VERSION",
    "MODEL_FORMAT",
    "MODEL_VERSION",
    "Layer",
    "Network",
    "WinChanceModel",
    "decode_floats",
    "default_model",
    "encode_floats",
    "feature_names",
    "final_chance",
    "view_features",
]

MODEL_FORMAT: Final = "sequence-stacks/win-chance"
MODEL_VERSION: Final = 1
# Bumped whenever view_features changes meaning: a model file names the version its
# weights were trained for, and loading refuses another.
FEATURE_VERSION: Final = 1
_KINDS: Final = len(Kind)
_NEED_BUCKETS: Final = 5
# Discard-top categories: none, completes a pile now, fits a pile now, one card away,
# further, a wild, then the five action kinds.
_TOP_NAMES: Final = ("none", "completes", "fits", "next", "far", "wild")
_ACTION_NAMES: Final = ("skip", "reverse", "steal_card", "block", "steal_chip")
_TOP_COUNT: Final = len(_TOP_NAMES) + len(_ACTION_NAMES)
_PILE_LENGTHS: Final = 4  # piles of 1-4 cards are counted per colour (5 completes)


def feature_names(player_count: int) -> tuple[str, ...]:
    """The names of :func:`view_features`' numbers for a table of ``player_count`` seats,
    in order (players are named by their place after the viewer: ``p0`` is the viewer,
    ``p1`` the next seat to its left, ...)."""
    names: list[str] = []
    for rel in range(player_count):
        player = f"p{rel}"
        names += [f"{player}.need={count}" for count in range(1, _NEED_BUCKETS + 1)]
        names += [f"{player}.short_blue", f"{player}.short_red"]
        names += [f"{player}.hand", f"{player}.known", f"{player}.discards"]
        names += [f"{player}.top={name}" for name in (*_TOP_NAMES, *_ACTION_NAMES)]
        names += [f"{player}.moves_in={order}" for order in range(player_count)]
    for colour in ("blue", "red"):
        names += [f"piles.{colour}.len={length}" for length in range(1, _PILE_LENGTHS + 1)]
        names += [f"piles.{colour}.free", f"supply.{colour}", f"supply.{colour}.empty"]
        names += [f"mine.{colour}.completes", f"mine.{colour}.extends"]
    names += [f"hand.{kind.name}" for kind in Kind]
    names += [f"unseen.{kind.name}" for kind in Kind]
    names += ["mine.fits_now", "unseen", "draw", "pool"]
    names += ["phase.window", "turn.played", "turn.skips", "turn.count"]
    names += [f"window.completer=p{rel}" for rel in range(player_count)]
    names += ["window.blue", "window.red", "window.chip_wins", "window.to_answer"]
    return tuple(names)


@functools.cache
def _deck_counts(player_count: int, reverses: bool) -> tuple[int, ...]:
    counts = [0] * _KINDS
    for card in deck_for(player_count, keep_two_player_reverses=reverses):
        counts[CARD_KIND[card]] += 1
    return tuple(counts)


def _pile_needs(view: View) -> list[int]:
    """Per pile slot, the rank the pile needs next (1 for a free slot; 6 never fits)."""
    return [len(pile) + 1 for pile in view.piles]


def _top_category(kind: int, needs: Sequence[int], per_colour: int) -> int:
    """The discard-top category of a card of ``kind`` (see ``_TOP_NAMES``)."""
    rank = kind_rank(kind)
    if rank < 0:  # an action card: its own category, in Kind's order
        return len(_TOP_NAMES) + (kind - Kind.SKIP)
    if rank == 0:  # a wild
        return _TOP_NAMES.index("wild")
    colour = kind_colour(kind)
    best = 9
    for need in needs[colour * per_colour : (colour + 1) * per_colour]:
        if need == rank:
            return 1 if rank == 5 else 2
        if need < rank:
            best = min(best, rank - need)
    return 3 if best == 1 else 4


def _reach(counts: Sequence[int], colour: int, length: int) -> int:
    """How long a pile of ``length`` cards of ``colour`` could grow from ``counts``
    (cards per kind), wilds filling the gaps (R15, R16)."""
    wilds = counts[colour * 6 + 5]
    reached = length
    while reached < 5:
        if counts[colour * 6 + reached] > 0:
            reached += 1
        elif wilds > 0:
            wilds -= 1
            reached += 1
        else:
            break
    return reached


def _seen_counts(view: View) -> list[int]:
    """Per kind, the cards ``view``'s seat can see (its hand, every public zone)."""
    seen = [0] * _KINDS
    kinds = CARD_KIND
    cards: list[int] = list(view.hand or ())
    own = set(cards)
    for zone in (view.piles, view.discards):
        for pile in zone:
            cards += pile
    for held in view.known_cards:
        cards += [card for card in held if card not in own]
    cards += view.special
    cards += view.pool
    for card in cards:
        seen[kinds[card]] += 1
    return seen


def view_features(view: View) -> list[float]:
    """The numbers the win-chance model reads for ``view``'s seat (:func:`feature_names`
    of the table's size, in that order). Only what the view shows is read (R34-R36)."""
    seat = view.seat
    if seat is None:
        raise ValueError("a spectator's view has no seat to value")
    settings = view.settings
    count = settings.player_count
    per_colour = settings.piles_per_colour
    needs = _pile_needs(view)
    out: list[float] = []
    order = _play_order(view)
    for rel in range(count):
        other = (seat + rel) % count
        out += _player_features(view, other, needs, order[other])
    hand_counts = [0] * _KINDS
    for card in view.hand or ():
        hand_counts[CARD_KIND[card]] += 1
    mine = list(hand_counts)
    own_top = view.discards[seat]
    if own_top:
        mine[CARD_KIND[own_top[-1]]] += 1
    for colour in (0, 1):
        out += _colour_features(view, colour, mine, per_colour)
    out += [float(c) for c in hand_counts]
    deck = _deck_counts(count, settings.two_player_reverses)
    seen = _seen_counts(view)
    unseen = [deck[k] - seen[k] for k in range(_KINDS)]
    out += [u / 9.0 for u in unseen]
    fits = sum(
        mine[kind]
        for kind in range(12)
        if kind % 6 == 5
        or kind % 6 + 1 in needs[(kind // 6) * per_colour : (kind // 6 + 1) * per_colour]
    )
    out += [fits / 5.0, sum(unseen) / 100.0, view.draw_size / 100.0, len(view.pool) / 50.0]
    out += _turn_features(view, seat, settings)
    return out


def _play_order(view: View) -> list[int]:
    """Per seat, how many seats move before it from the current one (the current: 0),
    in the direction of play (Skips aside, R26-R27)."""
    count = view.settings.player_count
    order = [0] * count
    for step in range(count):
        order[(view.current + view.direction * step) % count] = step
    return order


def _player_features(view: View, other: int, needs: Sequence[int], moves_in: int) -> list[float]:
    settings = view.settings
    count = settings.player_count
    blue, red = view.chips[other]
    need = chips_needed(settings, (blue, red))
    least = settings.min_each_colour
    bucket = min(max(need, 1), _NEED_BUCKETS)
    out = [1.0 if bucket == b else 0.0 for b in range(1, _NEED_BUCKETS + 1)]
    out += [max(0, least - blue) / 2.0, max(0, least - red) / 2.0]
    discards = view.discards[other]
    out += [
        view.hand_sizes[other] / settings.hand_size,
        float(len(view.known_cards[other])),
        min(len(discards), 20) / 10.0,
    ]
    top = [0.0] * _TOP_COUNT
    category = (
        0
        if not discards
        else _top_category(CARD_KIND[discards[-1]], needs, settings.piles_per_colour)
    )
    top[category] = 1.0
    out += top
    out += [1.0 if moves_in == step else 0.0 for step in range(count)]
    return out


def _colour_features(view: View, colour: int, mine: Sequence[int], per_colour: int) -> list[float]:
    lengths = [len(pile) for pile in view.piles[colour * per_colour : (colour + 1) * per_colour]]
    out = [float(lengths.count(length)) for length in range(1, _PILE_LENGTHS + 1)]
    out.append(float(lengths.count(0)))
    supply = view.supply
    if supply is None:
        out += [1.0, 0.0]
    else:
        left = supply[colour]
        out += [min(left, 20) / 20.0, 1.0 if left == 0 else 0.0]
    completes = 0.0
    extends = 0
    for length in lengths:
        reached = _reach(mine, colour, length)
        if reached == 5 and length < 5:
            completes = 1.0
        extends = max(extends, reached - length)
    out += [completes, extends / 5.0]
    return out


def _turn_features(view: View, seat: int, settings: Settings) -> list[float]:
    count = settings.player_count
    window = view.phase == Phase.BLOCK_WINDOW
    out = [
        1.0 if window else 0.0,
        view.turn_actions / 10.0,
        float(view.pending_skips),
        min(view.turn_count, 300) / 100.0,
    ]
    completer = view.window_completer if window else None
    out += [1.0 if completer == (seat + rel) % count else 0.0 for rel in range(count)]
    slot = view.window_pile
    colour = -1 if slot is None or not window else slot // settings.piles_per_colour
    out += [1.0 if colour == 0 else 0.0, 1.0 if colour == 1 else 0.0]
    wins = 0.0
    if completer is not None and colour >= 0:
        chips = list(view.chips[completer])
        chips[colour] += 1
        supply = view.supply
        if (supply is None or supply[colour] > 0) and chips_needed(settings, chips) == 0:
            wins = 1.0
    out += [wins, 1.0 if window and seat in view.window_pending else 0.0]
    return out


def final_chance(view: View) -> float | None:
    """The chance of ``view``'s seat once the game is over: 1 (won), 0 (lost) or a
    share (no winner); None while it runs."""
    result = view.result
    if result is None:
        return None
    if result.winner is None:
        return 1.0 / view.settings.player_count
    return 1.0 if result.winner == view.seat else 0.0


# --- the network ---------------------------------------------------------------------


# How the weights are packed: little-endian IEEE half or single precision (struct's
# "e" and "f"), in base64. Half precision keeps the file small; every reader decodes
# the same values, so pure Python and numpy compute with the very same weights.
_PACKING: Final = {"float16": ("e", 2), "float32": ("f", 4)}


def encode_floats(values: Sequence[float], dtype: str = "float16") -> str:
    """Pack ``values`` little-endian as ``dtype`` (``float16`` or ``float32``), in base64."""
    code, _ = _PACKING[dtype]
    return base64.b64encode(struct.pack(f"<{len(values)}{code}", *values)).decode("ascii")


def decode_floats(text: str, dtype: str = "float16") -> list[float]:
    """Unpack :func:`encode_floats`' text (each value exactly the number it held)."""
    code, size = _PACKING[dtype]
    raw = base64.b64decode(text.encode("ascii"), validate=True)
    if len(raw) % size:
        raise ValueError(f"packed {dtype} data must be a multiple of {size} bytes")
    return list(struct.unpack(f"<{len(raw) // size}{code}", raw))


@dataclasses.dataclass(frozen=True, slots=True)
class Layer:
    """One dense layer: ``weights[i][j]`` from input ``i`` to output ``j``, and ``bias``."""

    weights: tuple[tuple[float, ...], ...]
    bias: tuple[float, ...]

    @property
    def inputs(self) -> int:
        """How many numbers the layer reads."""
        return len(self.weights)

    def to_dict(self, dtype: str = "float16") -> dict[str, Any]:
        """The layer as JSON-ready data (weights row by row, packed as ``dtype``)."""
        flat = [w for row in self.weights for w in row]
        return {
            "inputs": self.inputs,
            "outputs": len(self.bias),
            "dtype": dtype,
            "weights": encode_floats(flat, dtype),
            "bias": encode_floats(self.bias, dtype),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Layer:
        """Read :meth:`to_dict`'s data; raise ValueError when the sizes disagree."""
        inputs, outputs = int(data["inputs"]), int(data["outputs"])
        dtype = str(data.get("dtype", "float32"))
        if dtype not in _PACKING:
            raise ValueError(f"unknown weight type {dtype!r}")
        flat = decode_floats(str(data["weights"]), dtype)
        bias = decode_floats(str(data["bias"]), dtype)
        if len(flat) != inputs * outputs or len(bias) != outputs:
            raise ValueError("a layer's weights do not match its inputs and outputs")
        rows = tuple(tuple(flat[i * outputs : (i + 1) * outputs]) for i in range(inputs))
        return cls(rows, tuple(bias))


@dataclasses.dataclass(frozen=True, slots=True)
class Network:
    """A small network for one player count: ReLU hidden layers and a logistic output.

    Attributes:
        player_count: the table size it was trained for.
        features: the names of its inputs (:func:`feature_names`).
        layers: the dense layers, input first; the last has one output (the logit).
    """

    player_count: int
    features: tuple[str, ...]
    layers: tuple[Layer, ...]

    def logit(self, features: Sequence[float]) -> float:
        """The log-odds of winning for one feature list (pure Python)."""
        first = self.layers[0]
        if len(features) != first.inputs:
            raise ValueError(f"expected {first.inputs} features, got {len(features)}")
        hidden = list(first.bias)
        width = len(hidden)
        for x, row in zip(features, first.weights, strict=True):
            if x != 0.0:  # most features are zero: skip their rows
                for j in range(width):
                    hidden[j] += x * row[j]
        for layer in self.layers[1:]:
            out = list(layer.bias)
            width = len(out)
            for h, row in zip(hidden, layer.weights, strict=True):
                if h > 0.0:  # ReLU: a unit at or below zero adds nothing
                    for j in range(width):
                        out[j] += h * row[j]
            hidden = out
        return hidden[0]

    def to_dict(self) -> dict[str, Any]:
        """The network as JSON-ready data."""
        return {
            "player_count": self.player_count,
            "features": list(self.features),
            "layers": [layer.to_dict() for layer in self.layers],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Network:
        """Read :meth:`to_dict`'s data; raise ValueError if it does not fit together."""
        count = int(data["player_count"])
        features = tuple(str(name) for name in data["features"])
        layers = tuple(Layer.from_dict(layer) for layer in data["layers"])
        if not layers or layers[0].inputs != len(features) or len(layers[-1].bias) != 1:
            raise ValueError(f"the {count}-player network's layers do not fit its features")
        for before, after in itertools.pairwise(layers):
            if len(before.bias) != after.inputs:
                raise ValueError(f"the {count}-player network's layers do not chain")
        if features != feature_names(count):
            raise ValueError(f"the {count}-player network reads other features than this code")
        return cls(count, features, layers)


def _sigmoid(logit: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, logit))))


@dataclasses.dataclass(frozen=True, slots=True)
class WinChanceModel:
    """One :class:`Network` per player count, and how they were made.

    Attributes:
        networks: by player count (2-6).
        meta: free-form facts of the training run (games, positions, date, losses).
    """

    networks: Mapping[int, Network]
    meta: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    def chance(self, view: View) -> float:
        """P(``view``'s seat wins), from that view alone (the result once over)."""
        final = final_chance(view)
        if final is not None:
            return final
        return _sigmoid(self.logit(view))

    def logit(self, view: View) -> float:
        """The network's log-odds for a running game's ``view``."""
        return self.network(view.settings.player_count).logit(view_features(view))

    def network(self, player_count: int) -> Network:
        """The network of a table size; raise ValueError when the model has none."""
        network = self.networks.get(player_count)
        if network is None:
            raise ValueError(f"the win-chance model has no {player_count}-player network")
        return network

    def to_dict(self) -> dict[str, Any]:
        """The model file's JSON data."""
        return {
            "format": MODEL_FORMAT,
            "version": MODEL_VERSION,
            "feature_version": FEATURE_VERSION,
            "meta": dict(self.meta),
            "networks": [self.networks[count].to_dict() for count in sorted(self.networks)],
        }

    @classmethod
    def from_dict(cls, data: Any) -> WinChanceModel:
        """Read a model file's data; raise ValueError saying what does not fit."""
        check_format(data, noun="win-chance model", format_=MODEL_FORMAT, version=MODEL_VERSION)
        if data.get("feature_version") != FEATURE_VERSION:
            raise ValueError(
                f"the model was trained for features version {data.get('feature_version')!r}; "
                f"this code computes version {FEATURE_VERSION}: train it again"
            )
        networks = [Network.from_dict(item) for item in data.get("networks", ())]
        return cls({network.player_count: network for network in networks}, data.get("meta", {}))

    def save(self, path: Path) -> None:
        """Write the model file (JSON)."""
        path.write_text(json.dumps(self.to_dict()) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> WinChanceModel:
        """Read a model file written by :meth:`save`."""
        return cls.from_dict(json.loads(path.read_text(encoding="utf-8")))


@functools.cache
def default_model() -> WinChanceModel:
    """The model shipped in the package (``bots/data/winchance.json``), read once.
    ``importlib.resources`` is imported here, not at the module's top: the page's engine
    (/local, Pyodide) imports the bots with a trimmed standard library and never reads
    the model."""
    from importlib import resources  # noqa: PLC0415

    text = (
        resources.files(__package__ or "sequence_stacks.bots")
        .joinpath("data/winchance.json")
        .read_text(encoding="utf-8")
    )
    return WinChanceModel.from_dict(json.loads(text))
