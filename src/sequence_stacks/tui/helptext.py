"""Help texts: the keys of each mode (from messages) and the rules for players in the
reader's language (``i18n/rules/players/<lang>.md``, as the web page's full rules: plain
words, no rule ids; English where a language has none yet)."""

from __future__ import annotations

from typing import Any, Final

from rich.cells import cell_len

from sequence_stacks.i18n import current_language, render
from sequence_stacks.i18n.rulebook import player_rules, player_rules_path

__all__ = ["plain_commands", "rules_lines", "rules_markdown", "tui_keys"]

# (the keys as pressed, the message saying what they do); "" is a message key for a
# row whose keys are a word ("then").
_TUI_KEYS: Final = (
    ("1-9, 0", "term.help.pick"),
    ("t", "term.help.top"),
    ("←  →  Enter", "term.help.cursor"),
    ("", "term.help.then"),
    ("Escape", "term.help.drop"),
    ("e", "term.help.end"),
    ("b / p", "term.help.block"),
    ("- / +", "term.help.speed"),
    ("s", "term.help.save"),
    ("?  h", "term.help.help"),
    ("q", "term.help.quit"),
)
_PLAIN_COMMANDS: Final = (
    ("term.plain.arg.number", "term.plain.cmd.number"),
    ("term.plain.arg.notation", "term.plain.cmd.notation"),
    ("board", "term.plain.cmd.board"),
    ("moves", "term.plain.cmd.moves"),
    ("log", "term.plain.cmd.log"),
    ("rules", "term.plain.cmd.rules"),
    ("save [FILE]", "term.plain.cmd.save"),
    ("help", "term.plain.cmd.help"),
    ("quit", "term.plain.cmd.quit"),
)


def _table(rows: list[tuple[str, str]]) -> list[str]:
    """Two columns, the first padded by terminal cells (never ``len()``)."""
    width = max(cell_len(left) for left, _ in rows) + 2
    return [left + " " * (width - cell_len(left)) + right for left, right in rows]


def tui_keys() -> str:
    """The Textual interface's keys, in the current language."""
    rows = [(keys or render("term.help.then_key"), render(message)) for keys, message in _TUI_KEYS]
    lines = [render("term.help.keys"), "", *_table(rows), "", render("term.help.marks.legal")]
    return "\n".join(lines) + "\n"


def plain_commands() -> str:
    """The plain mode's commands, in the current language (the commands stay English:
    they are what one types)."""
    rows = [
        (render(left) if left.startswith("term.") else left, render(message))
        for left, message in _PLAIN_COMMANDS
    ]
    return "\n".join([render("term.plain.commands"), "", *_table(rows)]) + "\n"


def rules_markdown() -> str:
    """The rules for players, Markdown, in the current language (English if it has none)."""
    return player_rules_path(current_language()).read_text(encoding="utf-8")


def _runs(runs: list[dict[str, Any]]) -> str:
    return "".join(str(run["text"]) for run in runs)


def rules_lines() -> list[str]:
    """The rules for players in the current language as plain lines: headings, paragraphs,
    ``-`` items indented by depth, table rows with ``|`` between cells."""
    lines: list[str] = []

    def items(found: list[dict[str, Any]], depth: int) -> None:
        for item in found:
            lines.append("  " * depth + "- " + _runs(item["runs"]))
            items(item.get("items", []), depth + 1)

    for block in player_rules(current_language())["blocks"]:
        kind = block["type"]
        if kind.startswith("h"):
            heading = _runs(block["runs"])
            lines.extend(["", heading.upper() if kind == "h1" else heading, ""])
        elif kind == "p":
            lines.extend([_runs(block["runs"]), ""])
        elif kind == "ul":
            items(block["items"], 0)
            lines.append("")
        elif kind == "table":
            rows = [block["header"], *block["rows"]]
            lines.extend(" | ".join(_runs(cell) for cell in row) for row in rows)
            lines.append("")
    return lines
