"""The terminal's cell widths: Rich, corrected by :func:`use_terminal_widths`, counts every
character of the six languages as the C library's ``wcwidth`` does (what tmux and most
terminals use), so Textual's layout is the one the terminal shows (#14)."""

from __future__ import annotations

import ctypes
import ctypes.util
import locale
from collections.abc import Iterator
from typing import Any

import pytest
from rich.cells import cell_len

from sequence_stacks.i18n import LANGUAGES, MESSAGES, placeholders, render, set_language
from sequence_stacks.tui.cells import use_terminal_widths

_BLOCKS = {
    "Devanagari": range(0x0900, 0x0980),
    "Armenian": range(0x0531, 0x058B),
    "Hangul syllables": range(0xAC00, 0xAC00 + 400),
    "Hangul jamo": range(0x1100, 0x1200),
    "Latin": range(0x0020, 0x0250),
}


@pytest.fixture(scope="module")
def wcwidth() -> Iterator[Any]:
    name = ctypes.util.find_library("c")
    if name is None:
        pytest.skip("no C library to ask")
    function = ctypes.CDLL(name).wcwidth
    function.restype = ctypes.c_int
    before = locale.setlocale(locale.LC_CTYPE)
    try:
        locale.setlocale(locale.LC_CTYPE, "C.UTF-8")
    except locale.Error:
        pytest.skip("no C.UTF-8 locale")
    yield function
    locale.setlocale(locale.LC_CTYPE, before)


def _terminal_cells(wcwidth: Any, text: str) -> int:
    return sum(max(0, wcwidth(ctypes.c_wchar(character))) for character in text)


@pytest.mark.parametrize("block", sorted(_BLOCKS))
def test_every_character_takes_the_cells_the_terminal_gives_it(wcwidth: Any, block: str) -> None:
    use_terminal_widths()
    for codepoint in _BLOCKS[block]:
        character = chr(codepoint)
        if wcwidth(ctypes.c_wchar(character)) >= 0:
            assert cell_len(character) == _terminal_cells(wcwidth, character), hex(codepoint)


def test_every_terminal_message_measures_as_the_terminal_does(
    wcwidth: Any,
) -> None:
    use_terminal_widths()
    try:
        for language in LANGUAGES:
            set_language(language)
            for key, message in MESSAGES.items():
                if not key.startswith(("term.", "log.", "seat.", "card.", "pile.")):
                    continue
                text = render(key, **dict.fromkeys(placeholders(message.text), 1))
                assert cell_len(text) == _terminal_cells(wcwidth, text), (language, key)
    finally:
        set_language("en")
