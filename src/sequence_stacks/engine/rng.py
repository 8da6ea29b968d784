"""Seeded shuffles that give the same order on every machine (R7, R22, R41).

A game's randomness is its seed plus a shuffle counter held in the state: shuffle
number ``k`` of a game seeded ``s`` draws from ``random.Random("s/k")`` (string seeds
are hashed with SHA-512, stable across platforms), using only ``getrandbits`` so the
result does not depend on how a Python version implements ``shuffle``.
"""

from __future__ import annotations

import random

__all__ = ["Seed", "seeded_shuffle", "shuffle_with"]

Seed = int | str


def _below(rng: random.Random, bound: int) -> int:
    """Return a uniform integer in ``[0, bound)`` by rejection sampling."""
    bits = bound.bit_length()
    value = rng.getrandbits(bits)
    while value >= bound:
        value = rng.getrandbits(bits)
    return value


def shuffle_with(rng: random.Random, items: list[int]) -> None:
    """Fisher-Yates shuffle ``items`` in place with ``rng``."""
    for index in range(len(items) - 1, 0, -1):
        other = _below(rng, index + 1)
        items[index], items[other] = items[other], items[index]


def seeded_shuffle(seed: Seed, shuffle_index: int, items: list[int]) -> None:
    """Shuffle ``items`` in place as shuffle number ``shuffle_index`` of game ``seed``."""
    shuffle_with(random.Random(f"{seed}/{shuffle_index}"), items)
