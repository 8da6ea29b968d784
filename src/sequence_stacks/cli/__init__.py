"""The `sequence-stacks` command: one command with subcommands.

``watch`` and ``selfplay`` run bots, ``replay`` verifies or tells a recorded game,
``legal``, ``apply`` and ``new-position`` work on single positions, and ``rules``
lists the variant options. :func:`main` returns the exit status: 0 ok, 1 illegal
action, 2 bad input.
"""

from .app import build_parser, main

__all__ = ["build_parser", "main"]
