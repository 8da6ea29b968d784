"""The rule book in a reader's language, as structured blocks a client renders as text.

The rule books live in ``rules/<lang>.md`` (``en.md`` is RULES.md); a language without
its own file reads English. They use a small Markdown subset, parsed here: ``#``/``##``/
``###`` headings, paragraphs, ``-`` lists (nested by indentation, an item going on over
indented lines), ``|`` tables (the first row the header, the ``---`` row skipped) and,
inline, ``**bold**`` and ```code```. Each piece of text is a run ``{text, bold, code}``,
so the browser puts it in the page as text and never through an HTML parser.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any, Final

from .languages import DEFAULT_LANGUAGE, LANGUAGES

__all__ = [
    "PLAYER_RULES_DIR",
    "RULES_DIR",
    "parse",
    "player_rules",
    "player_rules_path",
    "rule_book",
    "rules_path",
]

RULES_DIR: Final = Path(__file__).parent / "rules"
# The rules for players (#24): the whole game in plain words, with no rule ids, option
# names or notes for developers; what the browser's "Rules" opens one tap past its
# one-screen summary.
PLAYER_RULES_DIR: Final = RULES_DIR / "players"

Run = dict[str, Any]
Block = dict[str, Any]

_HEADING: Final = re.compile(r"^(#{1,3})\s+(.*)$")
_ITEM: Final = re.compile(r"^(\s*)[-*]\s+(.*)$")
_TABLE_RULE: Final = re.compile(r"^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?$")
_INLINE: Final = re.compile(r"(\*\*|`[^`]*`)")


def _in_language(folder: Path, language: str) -> Path:
    """The file of ``folder`` a reader of ``language`` gets: its own, else English."""
    if language in LANGUAGES:
        path = folder / f"{language}.md"
        if path.is_file():
            return path
    return folder / f"{DEFAULT_LANGUAGE}.md"


def _blocks(path: Path) -> dict[str, Any]:
    """``{language, blocks}`` of a rules file; ``language`` is the one the text is in."""
    return {"language": path.stem, "blocks": parse(path.read_text(encoding="utf-8"))}


def rules_path(language: str) -> Path:
    """The rule book a reader of ``language`` gets: its own file, else English."""
    return _in_language(RULES_DIR, language)


@functools.cache
def rule_book(language: str) -> dict[str, Any]:
    """``{language, blocks}``: the rule book for ``language``; ``language`` is the one
    the text is in (English when the language has no rule book yet)."""
    return _blocks(rules_path(language))


def player_rules_path(language: str) -> Path:
    """The rules for players a reader of ``language`` gets: its own file, else English."""
    return _in_language(PLAYER_RULES_DIR, language)


@functools.cache
def player_rules(language: str) -> dict[str, Any]:
    """``{language, blocks}``: the rules for players in ``language`` (as :func:`rule_book`)."""
    return _blocks(player_rules_path(language))


def runs(text: str) -> list[Run]:
    """Inline text as runs: ``**`` toggles bold, a backtick span is code (kept verbatim)."""
    found: list[Run] = []
    bold = False
    for piece in _INLINE.split(text):
        if piece == "**":
            bold = not bold
            continue
        if not piece:
            continue
        code = len(piece) >= 2 and piece.startswith("`") and piece.endswith("`")
        content = piece[1:-1] if code else piece
        if not content:
            continue
        last = found[-1] if found else None
        if last is not None and not code and not last["code"] and last["bold"] == bold:
            last["text"] += content
        else:
            found.append({"text": content, "bold": bold, "code": code})
    return found


def _cells(line: str) -> list[str]:
    inner = line.strip()
    inner = inner.removeprefix("|").removesuffix("|")
    return [cell.strip() for cell in inner.split("|")]


class _Parser:
    def __init__(self) -> None:
        self.blocks: list[Block] = []
        self.paragraph: list[str] = []
        # The open list: (indentation, item) from the outermost to the innermost.
        self.stack: list[tuple[int, dict[str, Any]]] = []
        self.item_text: dict[int, list[str]] = {}
        self.table: Block | None = None

    def flush_paragraph(self) -> None:
        if self.paragraph:
            self.blocks.append({"type": "p", "runs": runs(" ".join(self.paragraph))})
            self.paragraph = []

    def close_list(self) -> None:
        self.stack = []

    def close_table(self) -> None:
        self.table = None

    def close_all(self) -> None:
        self.flush_paragraph()
        self.close_list()
        self.close_table()

    def item(self, indent: int, text: str) -> None:
        self.flush_paragraph()
        self.close_table()
        new: dict[str, Any] = {"runs": [], "items": []}
        self.item_text[id(new)] = [text]
        while self.stack and self.stack[-1][0] >= indent:
            self.stack.pop()
        if self.stack:
            self.stack[-1][1]["items"].append(new)
        else:
            top = self.blocks[-1] if self.blocks else None
            if top is None or top["type"] != "ul":
                top = {"type": "ul", "items": []}
                self.blocks.append(top)
            top["items"].append(new)
        self.stack.append((indent, new))

    def continuation(self, text: str) -> bool:
        """An indented line going on with the innermost list item; False if no list."""
        if not self.stack:
            return False
        self.item_text[id(self.stack[-1][1])].append(text)
        return True

    def row(self, line: str) -> None:
        self.flush_paragraph()
        self.close_list()
        if _TABLE_RULE.match(line.strip()):
            return
        cells = [runs(cell) for cell in _cells(line)]
        if self.table is None:
            self.table = {"type": "table", "header": cells, "rows": []}
            self.blocks.append(self.table)
        else:
            self.table["rows"].append(cells)

    def finish(self) -> list[Block]:
        self.close_all()
        for block in self.blocks:
            if block["type"] == "ul":
                self._fill(block["items"])
        return self.blocks

    def _fill(self, items: list[dict[str, Any]]) -> None:
        for item in items:
            item["runs"] = runs(" ".join(self.item_text.pop(id(item))))
            self._fill(item["items"])


def parse(text: str) -> list[Block]:
    """The blocks of a rule book: ``h1``/``h2``/``h3`` and ``p`` with ``runs``, ``ul``
    with ``items`` (each ``{runs, items}``), ``table`` with ``header`` and ``rows``
    (lists of cells, each a list of runs)."""
    parser = _Parser()
    blank = False
    for raw in text.splitlines():
        line = raw.rstrip()
        if not line.strip():
            parser.flush_paragraph()
            parser.close_table()
            blank = True
            continue
        heading = _HEADING.match(line)
        item = _ITEM.match(line)
        if heading:
            parser.close_all()
            level = len(heading.group(1))
            parser.blocks.append({"type": f"h{level}", "runs": runs(heading.group(2).strip())})
        elif line.lstrip().startswith("|"):
            parser.row(line)
        elif item:
            parser.item(len(item.group(1)), item.group(2).strip())
        elif line.startswith((" ", "\t")) and parser.continuation(line.strip()):
            pass
        else:
            if blank or not parser.paragraph:
                parser.close_list()
                parser.close_table()
            parser.paragraph.append(line.strip())
        blank = False
    return parser.finish()
