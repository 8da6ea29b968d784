"""The argument parser of `sequence-stacks` and :func:`main`, which runs a subcommand."""

from __future__ import annotations

import argparse
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
from .review import add_review_parser, run_review
from .simulate import add_report_parser, add_simulate_parser, run_report, run_simulate
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


def _add(
    commands: argparse._SubParsersAction[argparse.ArgumentParser],
    name: str,
    run: Command,
    *,
    summary: str,
    description: str,
    examples: str,
) -> argparse.ArgumentParser:
    parser = commands.add_parser(
        name,
        help=summary,
        description=description,
        epilog="examples:\n" + examples,
        formatter_class=_formatter,
    )
    parser.set_defaults(run=run)
    return parser


def _add_watch(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = _add(
        commands,
        "watch",
        run_watch,
        summary="watch bots play one game, told in words",
        description=(
            "Play one bot-vs-bot game and print it as it happens, as a spectator sees it\n"
            "(add --reveal to see the cards each player draws), then a table of chips."
        ),
        examples=(
            "  sequence-stacks watch\n"
            "  sequence-stacks watch --players 3 --bots greedy,random --seed 7 --delay 0\n"
            "  sequence-stacks watch --players 2 --option max_turns=300 --record game.json\n\n"
            + bots_help()
        ),
    )
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


def _add_selfplay(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = _add(
        commands,
        "selfplay",
        run_selfplay,
        summary="play many bot-vs-bot games and summarize them",
        description=(
            "Play N games between named bots and print win rates by seat and by bot (with\n"
            "95% Wilson intervals), how games ended (R31, R33), game lengths and speed.\n"
            "The bot list cycles over the seats and rotates by one seat each game; the games\n"
            "of one rotation share a deal, so every bot plays every seat on the same cards."
        ),
        examples=(
            "  sequence-stacks selfplay --games 200 --players 2 --bots greedy,random\n"
            "  sequence-stacks selfplay --games 50 --players 4 --json\n"
            "  sequence-stacks selfplay --games 10 --records games/ --quiet\n\n" + bots_help()
        ),
    )
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


def _add_simulate(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = _add(
        commands,
        "simulate",
        run_simulate,
        summary="play many games across processes into a results file",
        description=(
            "Play N games per config (player counts x --vary values) between named bots,\n"
            "rotating the bots over the seats, on several processes. Each finished game is\n"
            "one row of the results file (CSV, or Parquet for .parquet). Ctrl-C stops and\n"
            "keeps the finished games; --resume plays only the missing ones. The rows are\n"
            "the same whatever the number of workers (game i depends on its config and i)."
        ),
        examples=(
            "  sequence-stacks simulate --players 2 --bots heuristic,greedy --games 1000\n"
            "  sequence-stacks simulate --players 2,3,4,5,6 --bots greedy --games 500 \\\n"
            "      --vary chip_supply=20,unlimited --out balance.parquet\n"
            "  sequence-stacks simulate --games 2000 --out big.csv --resume\n"
            "  sequence-stacks simulate --backend ray --address auto --games 100000\n\n"
            + bots_help()
        ),
    )
    add_simulate_parser(parser, bot_list)


def _add_report(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = _add(
        commands,
        "report",
        run_report,
        summary="statistics, plots and an HTML page from a results file",
        description=(
            "Read a results file of `simulate` and write into --out: report.html (one\n"
            "self-contained, script-free page, figures embedded), the figures as PNGs\n"
            "and summary.json: win rates with Wilson intervals per bot and seat, endings,\n"
            "game lengths, chips and Blocks, action cards and winning, per config and per\n"
            "player count (nothing pooled across player counts); OpenSkill ratings. Every\n"
            "figure is titled, with its legend outside the data."
        ),
        examples=(
            "  sequence-stacks report results.csv --out report/\n"
            "  sequence-stacks report a.csv b.parquet --out report/ --json"
        ),
    )
    add_report_parser(parser)


def _add_dossier(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = _add(
        commands,
        "dossier",
        run_dossier_command,
        summary="a design dossier: a variant's qualities measured with intervals, one page",
        description=DOSSIER_DESCRIPTION,
        examples=DOSSIER_EXAMPLES,
    )
    add_dossier_parser(parser)


def _add_replay(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = _add(
        commands,
        "replay",
        run_replay,
        summary="verify a game record, or print it step by step",
        description=(
            "Replay a game record: every action must be legal, and the final result and\n"
            "digest must match the record (R41). Prints 'ok: ...' and exits 0, or explains\n"
            "what is wrong and exits 2. --step prints every action and event in words."
        ),
        examples=(
            "  sequence-stacks replay game.json\n"
            "  sequence-stacks replay game.json --step\n"
            "  sequence-stacks replay game.json --step --seat 1   # only what seat 1 saw"
        ),
    )
    parser.add_argument("record", metavar="RECORD", help="record file (JSON), or - for stdin")
    parser.add_argument("--step", action="store_true", help="print every action and event")
    parser.add_argument(
        "--seat",
        type=int,
        metavar="N",
        help="with --step, show only what seat N could see (others' draws and answers hidden)",
    )


def _add_positions(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    legal = _add(
        commands,
        "legal",
        run_legal,
        summary="list the legal actions in a position",
        description=(
            "List the legal actions of every seat that may act now, one per line in action\n"
            "notation ('seat 2: B3>1'). In a Block window every asked seat is listed."
        ),
        examples="  sequence-stacks legal pos.json\n  sequence-stacks legal pos.json --json",
    )
    legal.add_argument("position", metavar="POSITION", help="position file (JSON), or -")
    legal.add_argument("--json", action="store_true", help="print {deciders, actions, ids} as JSON")
    apply = _add(
        commands,
        "apply",
        run_apply,
        summary="apply an action to a position",
        description=(
            "Apply one action (in notation: B3>1, BW>new, ^R2>2, SKIP, SCARD>p2, SCHIP>p2:R,\n"
            "'discard B3', end, block, pass) and print the new position and the events as\n"
            "JSON. An illegal action prints 'illegal (RULE): reason' on stderr and exits 1."
        ),
        examples=(
            '  sequence-stacks apply pos.json "B1>new"\n'
            '  sequence-stacks apply pos.json "discard R4"\n'
            "  sequence-stacks apply pos.json block --seat 2"
        ),
    )
    apply.add_argument("position", metavar="POSITION", help="position file (JSON), or -")
    apply.add_argument("action", metavar="ACTION", help="the action in notation")
    apply.add_argument(
        "--seat", type=int, metavar="N", help="the acting seat (default: the one seat to act)"
    )
    new = _add(
        commands,
        "new-position",
        run_new_position,
        summary="print a fresh game's position as JSON",
        description="Shuffle and deal a new game and print its position (for legal/apply).",
        examples="  sequence-stacks new-position --players 2 --seed 5 > pos.json",
    )
    add_game_options(new, seed_help="shuffle seed (default 0)")
    rules = _add(
        commands,
        "rules",
        run_rules,
        summary="print the variant options and their defaults",
        description="Print every variant option with its default and the rule it switches.",
        examples="  sequence-stacks rules\n  sequence-stacks watch --option chip_supply=unlimited",
    )
    rules.add_argument("--json", action="store_true", help="print the options as JSON")


def _add_learning(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The post-game review and the win-chance model it uses (#27)."""
    from . import review, train_value  # noqa: PLC0415 - their texts live beside their code

    add_review_parser(
        _add(
            commands,
            "review",
            run_review,
            summary="review a finished game: win chances, turning points, mistakes",
            description=review.DESCRIPTION,
            examples=review.EXAMPLES,
        )
    )
    add_train_value_parser(
        _add(
            commands,
            "train-value",
            run_train_value,
            summary="make the win-chance model from self-play (resumable)",
            description=train_value.DESCRIPTION,
            examples=train_value.EXAMPLES,
        )
    )


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
    _add_watch(commands)
    _add_selfplay(commands)
    _add_simulate(commands)
    _add_report(commands)
    _add_dossier(commands)
    _add_replay(commands)
    _add_positions(commands)
    _add_learning(commands)
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
