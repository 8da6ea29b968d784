"""``python -m sequence_stacks.tui``: the same as ``sequence-stacks play``."""

from .command import main_play

raise SystemExit(main_play())
