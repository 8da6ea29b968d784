"""Tier-2 tests: golden recorded games that must replay to the same digest (R41)."""
