"""Reinforcement-learning adapters (Gymnasium, PettingZoo, OpenSpiel); needs the ``rl`` extra.

- :mod:`~sequence_stacks.env.encoding`: the fixed-shape observation of a seat's view and
  the action mask (numpy only; imported here).
- :mod:`~sequence_stacks.env.vector`: :class:`SequenceStacksVectorEnv`, K games stepped
  together into ``[K, D]`` arrays (numpy only; imported here).
- :mod:`~sequence_stacks.env.pettingzoo_env`: ``env()`` / ``raw_env``, every seat an agent.
- :mod:`~sequence_stacks.env.gym_env`: one learning seat against named bots
  (``SequenceStacks-v0``; :func:`register_envs` registers it with Gymnasium).
- :mod:`~sequence_stacks.env.openspiel_game`: ``python_sequence_stacks``, registered with
  pyspiel when imported.

The three adapter modules are imported on demand, since each framework takes a while to
import. See docs/rl.md.
"""

from __future__ import annotations

from .batch_encoding import BatchEncoder
from .encoding import ObservationEncoder, Piece, encoder_for
from .vector import SequenceStacksVectorEnv, VectorActionError

__all__ = [
    "BatchEncoder",
    "ObservationEncoder",
    "Piece",
    "SequenceStacksVectorEnv",
    "VectorActionError",
    "encoder_for",
    "register_envs",
]


def register_envs() -> None:
    """Register ``SequenceStacks-v0`` with Gymnasium (imports gymnasium; safe to repeat)."""
    from .gym_env import register  # noqa: PLC0415 - gymnasium is slow to import

    register()
