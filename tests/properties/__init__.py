"""Tier-3 tests: Hypothesis properties and a stateful machine over random legal play."""
