"""Sequence Stacks: rules engine, bots and adapters for the card game."""

from typing import Final

from ._native import EngineBuild, select_engine

__version__ = "0.1.0"

# Decided before any engine module is imported: the compiled engine, or its Python
# source (README, "The compiled engine"). ``ENGINE_BUILD.reason`` says which, and why.
ENGINE_BUILD: Final[EngineBuild] = select_engine()

__all__ = ["ENGINE_BUILD", "EngineBuild", "__version__"]
