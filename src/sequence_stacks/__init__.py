"""Sequence Stacks: rules engine, bots and adapters for the card game."""

__version__ = "0.1.0"

__all__ = ["__version__"]
