"""Reinforcement-learning adapters (Gymnasium, PettingZoo, OpenSpiel)."""

__all__: list[str] = []
