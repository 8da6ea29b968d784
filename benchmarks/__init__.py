"""Performance benchmarks for the engine, bots and simulator."""

from __future__ import annotations

import argparse

__all__ = ["documented_parser"]


def documented_parser(doc: str | None) -> argparse.ArgumentParser:
    """A benchmark's argument parser whose ``--help`` is its module docstring: the first
    paragraph as the description, the rest (usage examples, what is measured) after the
    options, as written."""
    head, _, rest = (doc or "").partition("\n\n")
    return argparse.ArgumentParser(
        description=head or None,
        epilog=rest or None,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
