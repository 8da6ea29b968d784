"""Bots by name: the registry the CLI, simulators and servers pick players from."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from .base import Bot
from .expert import make_expert
from .greedy import GreedyBot
from .heuristic import HeuristicBot
from .ismcts import IsmctsBot
from .random_bot import RandomBot

__all__ = ["BOT_NAMES", "describe_bots", "make_bot"]

_FACTORIES: Final[dict[str, tuple[Callable[..., Bot], str]]] = {
    "random": (RandomBot, "plays a uniformly random legal action (a baseline)"),
    "greedy": (
        GreedyBot,
        "one-step heuristic: completes sequences, steals chips from the leader, "
        "blocks winning completions, discards its least useful card",
    ),
    "heuristic": (
        HeuristicBot,
        "plans its whole turn (discard-pile tops included), prices piles it leaves open "
        "to the next players, steals chips from the leader, saves Blocks for winning "
        "completions",
    ),
    "ismcts": (
        IsmctsBot,
        "information-set Monte Carlo search over its best turn plans: 48/players resampled deals, "
        "each plan and the opponents' replies played out on every deal, the next turn "
        "valued as a win probability; Block answers searched the same way",
    ),
    "expert": (
        make_expert,
        "ISMCTS searching twice as long (twice the deals and work cap): the longest "
        "thinker: as strong as ismcts against heuristic, a little stronger than ismcts "
        "head to head (docs/bots.md)",
    ),
}

BOT_NAMES: Final[tuple[str, ...]] = tuple(_FACTORIES)


def make_bot(name: str, *, seed: int | None = None) -> Bot:
    """Return a new bot by registry name, with its own RNG seeded by ``seed``.

    Raises ValueError, listing the known names, for an unknown name.
    """
    given: object = name  # callers (servers, config files) may pass anything
    entry = _FACTORIES.get(name.strip().lower()) if isinstance(given, str) else None
    if entry is None:
        raise ValueError(f"unknown bot {name!r}; known bots: {', '.join(BOT_NAMES)}")
    factory, _ = entry
    return factory(seed=seed)


def describe_bots() -> dict[str, str]:
    """Return a one-line description of every registered bot, by name."""
    return {name: description for name, (_, description) in _FACTORIES.items()}
