"""Players that see only what their seat may see (STYLE principle 3).

A bot is anything with a ``name`` and a ``choose(view) -> Action`` method
(:class:`Bot`); it receives :func:`~sequence_stacks.engine.observe` views only, never a
``State``. Get one by name with :func:`make_bot`; :data:`BOT_NAMES` and
:func:`describe_bots` list them. Each bot owns a ``random.Random(seed)``, so the same
seed and the same views give the same choices.
"""

from .base import Bot, legal_actions_of
from .greedy import GreedyBot
from .heuristic import HeuristicBot
from .ismcts import IsmctsBot
from .random_bot import RandomBot
from .registry import BOT_NAMES, describe_bots, make_bot

__all__ = [
    "BOT_NAMES",
    "Bot",
    "GreedyBot",
    "HeuristicBot",
    "IsmctsBot",
    "RandomBot",
    "describe_bots",
    "legal_actions_of",
    "make_bot",
]
