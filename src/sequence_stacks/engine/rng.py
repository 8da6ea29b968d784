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


def shuffle_with(rng: random.Random, items: list[int]) -> None:
    """Fisher-Yates shuffle ``items`` in place with ``rng``: for each index from the
    last down to 1, swap with a uniform index at most it, drawn by rejection sampling
    from ``getrandbits`` (the permutation ``rng.shuffle`` gives on Python 3.11)."""
    getrandbits = rng.getrandbits
    for index in range(len(items) - 1, 0, -1):
        bound = index + 1
        bits = bound.bit_length()
        other = getrandbits(bits)
        while other >= bound:
            other = getrandbits(bits)
        items[index], items[other] = items[other], items[index]


def seeded_shuffle(seed: Seed, shuffle_index: int, items: list[int]) -> None:
    """Shuffle ``items`` in place as shuffle number ``shuffle_index`` of game ``seed``."""
    shuffle_with(random.Random(f"{seed}/{shuffle_index}"), items)
