"""Cell widths as terminals count them, for Rich and Textual to lay the screen out by.

Rich (15) counts a vowel sign that takes its own space (Unicode category Mc, such as
Devanagari ``ा`` U+093E, ``ि`` U+093F, ``ी`` U+0940) as 0 cells; terminals and tmux,
which ask the C library's ``wcwidth``, give it 1. Textual measures with Rich, so a
Hindi line it thought fitted ran past the edge of a real terminal and lost its end
(the footer's last keys, a box's right border). :func:`use_terminal_widths` makes Rich
count those marks as terminals do; nothing else changes.
"""

from __future__ import annotations

import unicodedata
from functools import cache

import rich.cells
from rich._unicode_data import load  # Rich's own table, which this one corrects

__all__ = ["use_terminal_widths"]

_SPACING_MARK = "Mc"


def use_terminal_widths() -> None:
    """Make Rich (and so Textual) give spacing marks one cell, as terminals do.
    Idempotent; call it before the first thing is drawn."""
    # rich.cells looks its table up by this name on every measure it has not cached.
    if rich.cells.load_cell_table is _terminal_table:  # type: ignore[attr-defined]
        return
    rich.cells.load_cell_table = _terminal_table  # type: ignore[attr-defined]
    rich.cells.get_character_cell_size.cache_clear()
    rich.cells.cached_cell_len.cache_clear()


@cache
def _terminal_table(unicode_version: str = "auto") -> rich.cells.CellTable:
    """Rich's width table with every zero-width range split around its spacing marks,
    which get one cell."""
    table = load(unicode_version)
    widths: list[tuple[int, int, int]] = []
    for start, end, width in table.widths:
        if width:
            widths.append((start, end, width))
            continue
        run_start, run_width = start, _zero_width_cells(start)
        for codepoint in range(start + 1, end + 1):
            cells = _zero_width_cells(codepoint)
            if cells != run_width:
                widths.append((run_start, codepoint - 1, run_width))
                run_start, run_width = codepoint, cells
        widths.append((run_start, end, run_width))
    return table._replace(widths=widths)


def _zero_width_cells(codepoint: int) -> int:
    """What a terminal gives a character Rich calls zero width: one cell for a spacing
    mark, none for the rest (joiners, non-spacing marks)."""
    return 1 if unicodedata.category(chr(codepoint)) == _SPACING_MARK else 0
