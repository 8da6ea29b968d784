"""Shared pytest configuration: the `--run-slow` switch and Hypothesis profiles."""

import os

import pytest
from hypothesis import settings

settings.register_profile("default", max_examples=100, deadline=None)
settings.register_profile("ci", max_examples=100, deadline=None, derandomize=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def pytest_addoption(parser: pytest.Parser) -> None:
    """Add `--run-slow`, which runs the tests marked `slow`."""
    parser.addoption(
        "--run-slow",
        action="store_true",
        default=False,
        help="also run tests marked slow (long-running soak tests)",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip tests marked `slow` unless `--run-slow` was given."""
    if config.getoption("--run-slow"):
        return
    skip_slow = pytest.mark.skip(
        reason="slow test: run with --run-slow (e.g. `./scripts/test --run-slow`)"
    )
    for item in items:
        if item.get_closest_marker("slow") is not None:
            item.add_marker(skip_slow)
