"""What the subcommands share: errors with exit codes, input files, settings, output."""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
import textwrap
from pathlib import Path
from typing import Any, Final, TypeVar

from rich.console import Console
from rich.text import Text

from sequence_stacks.bots import BOT_NAMES, describe_bots
from sequence_stacks.engine import Settings, SettingsError
from sequence_stacks.i18n import render

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_ILLEGAL",
    "EXIT_OK",
    "CliError",
    "add_game_options",
    "add_option_arg",
    "bot_list",
    "bots_help",
    "comma_numbers",
    "make_console",
    "number_list",
    "print_json",
    "read_json",
    "settings_from_args",
    "source_name",
    "styled",
    "write_json",
]

EXIT_OK: Final = 0
EXIT_ILLEGAL: Final = 1
EXIT_BAD_INPUT: Final = 2
_Number = TypeVar("_Number", int, float)
_MAX_DIGITS: Final = 4300  # CPython's default int_max_str_digits: no JSON number is longer


class CliError(Exception):
    """A user mistake: printed as one line on stderr, never as a traceback."""

    def __init__(self, message: str, exit_code: int = EXIT_BAD_INPUT) -> None:
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code


def bot_list(text: str) -> list[str]:
    """Parse ``greedy,random`` into bot names (an argparse ``type``)."""
    names = [name.strip().lower() for name in text.split(",")]
    unknown = [name for name in names if name not in BOT_NAMES]
    if not names or unknown:
        raise argparse.ArgumentTypeError(
            f"unknown bot(s) {', '.join(map(repr, unknown))}; known bots: {', '.join(BOT_NAMES)}"
        )
    return names


def comma_numbers(text: str, kind: type[_Number], refusal: str) -> list[_Number]:
    """Parse ``2,3,4`` (blank parts skipped) as numbers of ``kind`` for an argparse
    ``type``; ``refusal`` is the error when a part is not one."""
    try:
        return [kind(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(refusal) from None


def number_list(
    text: str, *, option: str, example: str, low: int, high: int, bounds: str
) -> list[int]:
    """Parse ``2,3,4`` into whole numbers from ``low`` to ``high`` (for an argparse
    ``type``); ``bounds`` is the refusal when one is outside them."""
    numbers = comma_numbers(text, int, f"{option} takes numbers like {example}, not {text!r}")
    if not numbers or any(not low <= number <= high for number in numbers):
        raise argparse.ArgumentTypeError(bounds)
    return numbers


def bots_help() -> str:
    """The bot names and descriptions, for help epilogs."""
    lines = ["bots:"]
    for name, text in describe_bots().items():
        lines += textwrap.wrap(
            text, width=78, initial_indent=f"  {name:11}", subsequent_indent=" " * 13
        )
    return "\n".join(lines)


def add_game_options(parser: argparse.ArgumentParser, *, seed_help: str) -> None:
    """Add --players, --seed and --option to a subcommand."""
    parser.add_argument(
        "--players", type=int, default=4, metavar="N", help="number of players, 2-6 (default 4)"
    )
    parser.add_argument("--seed", type=int, default=None, metavar="S", help=seed_help)
    add_option_arg(parser, "a variant option, e.g. -o max_turns=500 (repeatable; see `rules`)")


def add_option_arg(parser: argparse.ArgumentParser, help_text: str) -> None:
    """Add the repeatable ``-o/--option NAME=VALUE`` (a variant option) to a subcommand."""
    parser.add_argument(
        "-o", "--option", action="append", default=[], metavar="NAME=VALUE", help=help_text
    )


def settings_from_args(args: argparse.Namespace) -> Settings:
    """Build validated settings from --players and --option."""
    options: list[str] = args.option
    for option in options:
        if option.partition("=")[0].strip().replace("-", "_") == "player_count":
            raise CliError("give the number of players with --players, not --option")
    try:
        return Settings.from_options(options, player_count=args.players)
    except SettingsError as error:
        raise CliError(str(error)) from None


def source_name(source: str) -> str:
    """How messages name where a position or record came from."""
    if source == "-":
        return "on stdin"
    if source.lstrip().startswith("{"):
        return "(inline JSON)"
    return repr(source)


def read_json(source: str, what: str) -> Any:
    """Read JSON from a file path, from ``-`` (stdin), or inline text starting with ``{``.

    Anything unreadable (not UTF-8, not JSON, nested too deeply, a number too long or not
    finite) is a CliError naming ``what`` and the source, never a traceback.
    """
    name = source_name(source)
    if source != "-" and source.lstrip().startswith("{"):
        text = source
    else:
        text = _decode(_read_bytes(source, what), what, name)
    return _parse_json(text, what, name)


def _read_bytes(source: str, what: str) -> bytes | str:
    if source == "-":
        stream = getattr(sys.stdin, "buffer", None)  # tests may swap in a text stream
        return stream.read() if stream is not None else sys.stdin.read()
    try:
        return Path(source).read_bytes()
    except OSError as error:
        reason = error.strerror or error
        raise CliError(f"cannot read {what} {source_name(source)}: {reason}") from None


def _decode(data: bytes | str, what: str, name: str) -> str:
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8-sig")  # a byte-order mark, as some editors write, is fine
    except UnicodeDecodeError as error:
        byte = data[error.start]
        raise CliError(
            f"{what} {name} is not UTF-8 text (byte 0x{byte:02x} at offset {error.start}); "
            "positions and records are UTF-8 JSON"
        ) from None


class _BadNumberError(ValueError):
    """A JSON number the reader refuses (raised from json's hooks)."""


def _parse_int(text: str) -> int:
    limit = min(_MAX_DIGITS, sys.get_int_max_str_digits() or _MAX_DIGITS)
    digits = len(text.lstrip("-"))
    if digits > limit:
        raise _BadNumberError(f"a number of {digits} digits (at most {limit} are read)")
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        cut = text if len(text) <= 20 else f"{text[:20]}..."
        raise _BadNumberError(f"the number {cut}, too large to read")
    return value


def _refuse_constant(text: str) -> float:
    raise _BadNumberError(f"{text}, which is not a JSON number")


def _parse_json(text: str, what: str, name: str) -> Any:
    try:
        return json.loads(
            text,
            parse_int=_parse_int,
            parse_float=_parse_float,
            parse_constant=_refuse_constant,
        )
    except _BadNumberError as error:
        raise CliError(f"{what} {name} holds {error}") from None
    except json.JSONDecodeError as error:
        raise CliError(f"{what} {name} is not valid JSON: {error}") from None
    except RecursionError:
        raise CliError(
            f"{what} {name} nests arrays or objects too deeply to read (a {what} needs "
            "only a few levels)"
        ) from None


def write_json(path: Path, data: Any) -> None:
    """Write JSON to a file, turning I/O failures into a CliError."""
    try:
        path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    except OSError as error:
        raise CliError(f"cannot write {str(path)!r}: {error.strerror or error}") from None


def print_json(data: Any) -> None:
    """Print JSON to stdout (plain, never through rich)."""
    print(json.dumps(data, indent=2))


def styled(line: str) -> Text:
    """A log line with colours: the colour words (blue, red) and the players' names, in
    the language the line is in."""
    text = Text(line)
    for word, style in ((render("colour.blue"), "bold blue"), (render("colour.red"), "bold red")):
        text.highlight_words([word], style)
    number = re.escape(render("seat.numbered", number=0)).replace("0", r"\d+")
    text.highlight_regex(number, "bold")
    return text


def make_console(*, stderr: bool = False) -> Console:
    """A console on stdout (or stderr) that colours only what :func:`styled` marks."""
    return Console(stderr=stderr, highlight=False, soft_wrap=True)
