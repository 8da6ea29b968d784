"""The argument parser of `sequence-stacks` and :func:`main`, which runs a subcommand."""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from collections.abc import Callable, Sequence
from typing import Final

from sequence_stacks import ENGINE_BUILD, __version__
from sequence_stacks.server import add_serve_parser
from sequence_stacks.tui import add_play_parser
from sequence_stacks.tui.command import LANG_HELP

from .common import EXIT_BAD_INPUT, CliError, add_game_options, bot_list, bots_help
from .dossier import DOSSIER_DESCRIPTION, DOSSIER_EXAMPLES, add_dossier_parser, run_dossier_command
from .games import run_selfplay, run_watch
from .positions import run_apply, run_legal, run_new_position, run_rules
from .replay import run_replay
from .review import DESCRIPTION as REVIEW_DESCRIPTION
from .review import EXAMPLES as REVIEW_EXAMPLES
from .review import add_review_parser, run_review
from .simulate import add_report_parser, add_simulate_parser, run_report, run_simulate
from .train_value import DESCRIPTION as TRAIN_VALUE_DESCRIPTION
from .train_value import EXAMPLES as TRAIN_VALUE_EXAMPLES
from .train_value import add_train_value_parser, run_train_value

__all__ = ["build_parser", "main"]

Command = Callable[[argparse.Namespace], int]

_DESCRIPTION: Final = """\
Sequence Stacks: play in the browser (serve) or in the terminal (play), watch bots
play, run many bot-vs-bot games, replay recorded games, and inspect or change single
positions. Rules follow RULES.md (rule ids R1-R41); variant options are set with
--option NAME=VALUE (list them with `rules`).
"""

_EPILOG: Final = """\
examples:
  sequence-stacks serve                      # play in the browser at http://127.0.0.1:8000/
  sequence-stacks play --players 3 --bots greedy   # play in the terminal against bots
  sequence-stacks watch --players 3 --bots greedy,random --seed 7
  sequence-stacks selfplay --games 200 --players 2 --bots greedy,random
  sequence-stacks simulate --players 2,4 --bots heuristic,greedy --games 1000
  sequence-stacks report results.csv --out report/
  sequence-stacks dossier --players 2,4 --vary hand_size=5,4 --out dossier/
  sequence-stacks replay game.json --step --seat 1
  sequence-stacks new-position --players 2 --seed 5 > pos.json
  sequence-stacks legal pos.json
  sequence-stacks apply pos.json "B1>new"
  sequence-stacks rules

Positions and records are JSON files (docs/records.md); POSITION and RECORD may also
be `-` for stdin. Run `sequence-stacks COMMAND --help` for each command's options.

exit status: 0 ok, 1 illegal action (apply), 2 bad input (unreadable or malformed
file, unknown option or bot, bad argument). Errors are one line on stderr.
"""


def _formatter(prog: str) -> argparse.HelpFormatter:
    return argparse.RawDescriptionHelpFormatter(prog, max_help_position=32)


@dataclasses.dataclass(frozen=True, slots=True)
class _Subcommand:
    """One subcommand: its name, what runs it, its help texts and its own options."""

    name: str
    run: Command
    summary: str
    description: str
    examples: str
    options: Callable[[argparse.ArgumentParser], None]
    lists_bots: bool = False  # the epilog ends with the bots and what each does

    def add_to(self, commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
        """Add this subcommand's parser to ``commands``."""
        examples = self.examples + ("\n\n" + bots_help() if self.lists_bots else "")
        parser = commands.add_parser(
            self.name,
            help=self.summary,
            description=self.description,
            epilog="examples:\n" + examples,
            formatter_class=_formatter,
        )
        parser.set_defaults(run=self.run)
        self.options(parser)


# --- each subcommand's words and options -----------------------------------------------------

_WATCH: Final = """\
Play one bot-vs-bot game and print it as it happens, as a spectator sees it
(add --reveal to see the cards each player draws), then a table of chips."""

_WATCH_EXAMPLES: Final = """\
  sequence-stacks watch
  sequence-stacks watch --players 3 --bots greedy,random --seed 7 --delay 0
  sequence-stacks watch --players 2 --option max_turns=300 --record game.json"""


def _watch_options(parser: argparse.ArgumentParser) -> None:
    add_game_options(parser, seed_help="shuffle seed (default: a random one, printed)")
    parser.add_argument("--lang", default=None, metavar="CODE", help=LANG_HELP)
    parser.add_argument(
        "--bots",
        type=bot_list,
        default=["greedy"],
        metavar="LIST",
        help="comma-separated bot names, cycling over the seats (default greedy)",
    )
    parser.add_argument(
        "--delay",
        type=float,
        default=None,
        metavar="SECONDS",
        help="pause after each action (default 0.3 on a terminal, else 0)",
    )
    parser.add_argument(
        "--reveal", action="store_true", help="show every drawn card and Block answer"
    )
    parser.add_argument("--record", metavar="FILE", help="save the game record (JSON) to FILE")


_SELFPLAY: Final = """\
Play N games between named bots and print win rates by seat and by bot (with
95% Wilson intervals), how games ended (R31, R33), game lengths and speed.
The bot list cycles over the seats and rotates by one seat each game; the games
of one rotation share a deal, so every bot plays every seat on the same cards."""

_SELFPLAY_EXAMPLES: Final = """\
  sequence-stacks selfplay --games 200 --players 2 --bots greedy,random
  sequence-stacks selfplay --games 50 --players 4 --json
  sequence-stacks selfplay --games 10 --records games/ --quiet"""


def _selfplay_options(parser: argparse.ArgumentParser) -> None:
    add_game_options(parser, seed_help="seed of the first game; game i uses a derived one (0)")
    parser.add_argument(
        "--games", type=int, default=100, metavar="N", help="number of games (default 100)"
    )
    parser.add_argument(
        "--bots",
        type=bot_list,
        default=["greedy", "random"],
        metavar="LIST",
        help="comma-separated bot names, cycling over the seats (default greedy,random)",
    )
    parser.add_argument("--records", metavar="DIR", help="save each game's record in DIR")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")


_SIMULATE: Final = """\
Play N games per config (player counts x --vary values) between named bots,
rotating the bots over the seats, on several processes. Each finished game is
one row of the results file (CSV, or Parquet for .parquet). Ctrl-C stops and
keeps the finished games; --resume plays only the missing ones. The rows are
the same whatever the number of workers (game i depends on its config and i)."""

_SIMULATE_EXAMPLES: Final = """\
  sequence-stacks simulate --players 2 --bots heuristic,greedy --games 1000
  sequence-stacks simulate --players 2,3,4,5,6 --bots greedy --games 500 \\
      --vary chip_supply=20,unlimited --out balance.parquet
  sequence-stacks simulate --games 2000 --out big.csv --resume
  sequence-stacks simulate --backend ray --address auto --games 100000"""

_REPORT: Final = """\
Read a results file of `simulate` and write into --out: report.html (one
self-contained, script-free page, figures embedded), the figures as PNGs
and summary.json: win rates with Wilson intervals per bot and seat, endings,
game lengths, chips and Blocks, action cards and winning, per config and per
player count (nothing pooled across player counts); OpenSkill ratings. Every
figure is titled, with its legend outside the data."""

_REPORT_EXAMPLES: Final = """\
  sequence-stacks report results.csv --out report/
  sequence-stacks report a.csv b.parquet --out report/ --json"""

_REPLAY: Final = """\
Replay a game record: every action must be legal, and the final result and
digest must match the record (R41). Prints 'ok: ...' and exits 0, or explains
what is wrong and exits 2. --step prints every action and event in words."""

_REPLAY_EXAMPLES: Final = """\
  sequence-stacks replay game.json
  sequence-stacks replay game.json --step
  sequence-stacks replay game.json --step --seat 1   # only what seat 1 saw"""


def _replay_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", metavar="RECORD", help="record file (JSON), or - for stdin")
    parser.add_argument("--step", action="store_true", help="print every action and event")
    parser.add_argument(
        "--seat",
        type=int,
        metavar="N",
        help="with --step, show only what seat N could see (others' draws and answers hidden)",
    )


_LEGAL: Final = """\
List the legal actions of every seat that may act now, one per line in action
notation ('seat 2: B3>1'). In a Block window every asked seat is listed."""

_LEGAL_EXAMPLES: Final = """\
  sequence-stacks legal pos.json
  sequence-stacks legal pos.json --json"""


def _legal_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("position", metavar="POSITION", help="position file (JSON), or -")
    parser.add_argument(
        "--json", action="store_true", help="print {deciders, actions, ids} as JSON"
    )


_APPLY: Final = """\
Apply one action (in notation: B3>1, BW>new, ^R2>2, SKIP, SCARD>p2, SCHIP>p2:R,
'discard B3', end, block, pass) and print the new position and the events as
JSON. An illegal action prints 'illegal (RULE): reason' on stderr and exits 1."""

_APPLY_EXAMPLES: Final = """\
  sequence-stacks apply pos.json "B1>new"
  sequence-stacks apply pos.json "discard R4"
  sequence-stacks apply pos.json block --seat 2"""


def _apply_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("position", metavar="POSITION", help="position file (JSON), or -")
    parser.add_argument("action", metavar="ACTION", help="the action in notation")
    parser.add_argument(
        "--seat", type=int, metavar="N", help="the acting seat (default: the one seat to act)"
    )


def _new_position_options(parser: argparse.ArgumentParser) -> None:
    add_game_options(parser, seed_help="shuffle seed (default 0)")


def _rules_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print the options as JSON")


# After `serve` and `play` (each added by its own package), in the order `--help` lists them.
_SUBCOMMANDS: Final = (
    _Subcommand(
        "watch", run_watch, "watch bots play one game, told in words",
        _WATCH, _WATCH_EXAMPLES, _watch_options, lists_bots=True,
    ),
    _Subcommand(
        "selfplay", run_selfplay, "play many bot-vs-bot games and summarize them",
        _SELFPLAY, _SELFPLAY_EXAMPLES, _selfplay_options, lists_bots=True,
    ),
    _Subcommand(
        "simulate", run_simulate, "play many games across processes into a results file",
        _SIMULATE, _SIMULATE_EXAMPLES, lambda parser: add_simulate_parser(parser, bot_list),
        lists_bots=True,
    ),
    _Subcommand(
        "report", run_report, "statistics, plots and an HTML page from a results file",
        _REPORT, _REPORT_EXAMPLES, add_report_parser,
    ),
    _Subcommand(
        "dossier", run_dossier_command,
        "a design dossier: a variant's qualities measured with intervals, one page",
        DOSSIER_DESCRIPTION, DOSSIER_EXAMPLES, add_dossier_parser,
    ),
    _Subcommand(
        "replay", run_replay, "verify a game record, or print it step by step",
        _REPLAY, _REPLAY_EXAMPLES, _replay_options,
    ),
    _Subcommand(
        "legal", run_legal, "list the legal actions in a position",
        _LEGAL, _LEGAL_EXAMPLES, _legal_options,
    ),
    _Subcommand(
        "apply", run_apply, "apply an action to a position",
        _APPLY, _APPLY_EXAMPLES, _apply_options,
    ),
    _Subcommand(
        "new-position", run_new_position, "print a fresh game's position as JSON",
        "Shuffle and deal a new game and print its position (for legal/apply).",
        "  sequence-stacks new-position --players 2 --seed 5 > pos.json", _new_position_options,
    ),
    _Subcommand(
        "rules", run_rules, "print the variant options and their defaults",
        "Print every variant option with its default and the rule it switches.",
        "  sequence-stacks rules\n  sequence-stacks watch --option chip_supply=unlimited",
        _rules_options,
    ),
    # The post-game review and the win-chance model it uses (#27).
    _Subcommand(
        "review", run_review, "review a finished game: win chances, turning points, mistakes",
        REVIEW_DESCRIPTION, REVIEW_EXAMPLES, add_review_parser,
    ),
    _Subcommand(
        "train-value", run_train_value, "make the win-chance model from self-play (resumable)",
        TRAIN_VALUE_DESCRIPTION, TRAIN_VALUE_EXAMPLES, add_train_value_parser,
    ),
)  # fmt: skip


def build_parser() -> argparse.ArgumentParser:
    """Return the parser of the whole command line."""
    parser = argparse.ArgumentParser(
        prog="sequence-stacks",
        description=_DESCRIPTION,
        epilog=_EPILOG,
        formatter_class=_formatter,
    )
    engine = ENGINE_BUILD.reason.replace("%", "%%")  # compiled or pure, and why
    parser.add_argument(
        "--version", action="version", version=f"%(prog)s {__version__}, engine: {engine}"
    )
    commands = parser.add_subparsers(
        title="commands", metavar="COMMAND", dest="command", required=True
    )
    add_serve_parser(commands)
    add_play_parser(commands)
    for subcommand in _SUBCOMMANDS:
        subcommand.add_to(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line and run it; return the process exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # --help, --version and usage errors
        return exit_.code if isinstance(exit_.code, int) else EXIT_BAD_INPUT
    run: Command = args.run
    try:
        return run(args)
    except CliError as error:
        prefix = "" if error.message.startswith("illegal (") else "error: "
        print(f"{prefix}{error.message}", file=sys.stderr)
        return error.exit_code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        _silence_stdout()
        return 0


def _silence_stdout() -> None:
    """After a closed pipe (`... | head`), keep Python from complaining at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
