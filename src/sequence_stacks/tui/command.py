"""``sequence-stacks play``: its arguments, and starting a game from them."""

from __future__ import annotations

import argparse
import hashlib
import os
import secrets
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from sequence_stacks.bots import BOT_NAMES, make_bot
from sequence_stacks.engine import EngineError, GameRecord, RecordError, Settings
from sequence_stacks.i18n import LANGUAGES, negotiate, set_language
from sequence_stacks.i18n.languages import from_environment

from .cells import use_terminal_widths
from .session import HUMAN, BotPlayer, GameSession, SeatSpec, load_record, seats_from_record

__all__ = [
    "LANG_HELP",
    "add_play_parser",
    "build_session",
    "choose_language",
    "configure_play_parser",
    "main_play",
    "run_play",
]

PROG = "sequence-stacks play"
DEFAULT_SAVE = "sequence-stacks-save.json"
_DESCRIPTION = """\
Play Sequence Stacks in the terminal against bots, or with friends at one keyboard
(hotseat: --humans 2 or more). --plain gives a line-by-line mode for dumb terminals
and screen readers.
"""
_EPILOG = """\
examples:
  sequence-stacks play                              you and three greedy bots
  sequence-stacks play --players 3 --bots random,greedy --seed 7
  sequence-stacks play --players 2 --humans 2       hotseat: two humans, one keyboard
  sequence-stacks play --plain -o max_turns=200     line mode for screen readers
  sequence-stacks play --load sequence-stacks-save.json

In the game press ? for the keys and the rule book (docs/terminal.md).
"""
LANG_HELP = (
    "the game's language: "
    + ", ".join(f"{code} ({name})" for code, name in LANGUAGES.items())
    + "; without it, the locale environment (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), "
    "else English; an unknown code is English"
)


def choose_language(code: str | None) -> str:
    """Speak ``--lang CODE``, else the locale environment's language, else English (an
    unknown code is English, quietly); return the language chosen."""
    return set_language(negotiate(code) if code else from_environment(os.environ) or "en")


def configure_play_parser(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Add the ``play`` arguments to ``parser`` and return it."""
    parser.add_argument(
        "--players", type=int, default=None, metavar="N", help="number of players, 2-6 (4)"
    )
    parser.add_argument(
        "--humans",
        type=int,
        default=None,
        metavar="N",
        help="human players at this keyboard, as Players 1..N (1); 2+ is hotseat, 0 watches",
    )
    parser.add_argument(
        "--bots",
        default=None,
        metavar="NAMES",
        help=f"comma-separated bots for the other seats, the last repeated "
        f"(greedy); known: {', '.join(BOT_NAMES)}",
    )
    parser.add_argument("--seed", default=None, help="shuffle seed (random if not given)")
    parser.add_argument(
        "-o",
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a variant option, e.g. -o piles_per_colour=1 -o max_turns=200 (repeatable)",
    )
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=0.3,
        metavar="SECONDS",
        help="how long each bot waits before it moves (0.3); + and - change it in play",
    )
    parser.add_argument("--load", type=Path, metavar="FILE", help="resume a saved game")
    parser.add_argument(
        "--save",
        type=Path,
        default=None,
        metavar="FILE",
        help=f"where the save key writes the game (the --load file, else {DEFAULT_SAVE})",
    )
    parser.add_argument(
        "--plain", action="store_true", help="line-by-line mode, no colour or cursor movement"
    )
    parser.add_argument("--lang", default=None, metavar="CODE", help=LANG_HELP)
    return parser


def add_play_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
) -> argparse.ArgumentParser:
    """Add the ``play`` subcommand to a ``sequence-stacks`` parser; return its parser.

    Its handler is set as the ``run`` default: ``args.run(args)`` starts the game.
    """
    parser = subparsers.add_parser(
        "play",
        help="play a game in the terminal against bots (or hotseat)",
        description=_DESCRIPTION,
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    configure_play_parser(parser)
    parser.set_defaults(run=run_play)
    return parser


def main_play(argv: Sequence[str] | None = None) -> int:
    """Run ``sequence-stacks play`` on its own (``python -m sequence_stacks.tui``)."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description=_DESCRIPTION,
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    configure_play_parser(parser)
    try:
        return run_play(parser.parse_args(argv))
    except KeyboardInterrupt:
        return 130


def run_play(args: argparse.Namespace, *, stdin: TextIO | None = None) -> int:
    """Start the game the parsed ``play`` arguments describe; return the exit status."""
    choose_language(getattr(args, "lang", None))
    use_terminal_widths()
    try:
        session = build_session(args)
    except (EngineError, ValueError, OSError) as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return 2
    save_path = args.save or args.load or Path(DEFAULT_SAVE)
    if args.plain:
        from .plain import PlainGame  # noqa: PLC0415 - the plain mode needs no Textual

        game = PlainGame(
            session,
            stdin=stdin or sys.stdin,
            stdout=sys.stdout,
            bot_delay=args.bot_delay,
            save_path=save_path,
        )
        return game.run()
    from .app import PlayApp  # noqa: PLC0415 - import Textual only when it is used

    app = PlayApp(session, bot_delay=args.bot_delay, save_path=save_path)
    status = app.run() or 0
    if app.farewell:  # where q saved the game, once the terminal is back
        print(app.farewell)
    return status


def build_session(args: argparse.Namespace) -> GameSession:
    """Build the session: a new game from the options, or a saved one from ``--load``."""
    if args.load is not None:
        record = load_record(args.load)
        seats = _seats_for_load(args, record)
        try:
            return GameSession.from_record(record, seats, _bots(seats, record.seed))
        except EngineError as error:  # an edited or damaged save: say which file
            raise RecordError(f"{args.load} does not replay as a saved game: {error}") from None
    base = {} if args.players is None else {"player_count": args.players}
    settings = Settings.from_options(args.option, **base)
    seed = _seed(args.seed)
    seats = _seats(settings.player_count, args.humans, args.bots)
    return GameSession(settings, seed, seats, _bots(seats, seed))


def _seed(text: str | None) -> int | str:
    if text is None:
        return secrets.randbelow(1_000_000)
    return int(text) if text.isdigit() else text


def _seats(player_count: int, humans: int | None, bots: str | None) -> list[SeatSpec]:
    human_count = 1 if humans is None else humans
    if not 0 <= human_count <= player_count:
        raise ValueError(f"--humans {human_count}: choose 0-{player_count} for this game")
    names = [name.strip().lower() for name in (bots or "greedy").split(",") if name.strip()]
    unknown = [name for name in names if name not in BOT_NAMES]
    if unknown or not names:
        given = ", ".join(unknown) or repr(bots)
        raise ValueError(f"unknown bot {given}; known bots: {', '.join(BOT_NAMES)}")
    seats = [SeatSpec(HUMAN)] * human_count
    for index in range(player_count - human_count):
        seats.append(SeatSpec(names[min(index, len(names) - 1)]))
    return seats


def _seats_for_load(args: argparse.Namespace, record: GameRecord) -> list[SeatSpec]:
    stored = seats_from_record(record)
    if stored is not None and args.humans is None and args.bots is None:
        return stored
    return _seats(record.settings.player_count, args.humans, args.bots)


def _bots(seats: Sequence[SeatSpec], seed: int | str) -> dict[int, BotPlayer]:
    return {
        seat: make_bot(spec.kind, seed=_bot_seed(seed, seat))
        for seat, spec in enumerate(seats)
        if not spec.is_human
    }


def _bot_seed(seed: int | str, seat: int) -> int:
    """Derive a bot's own seed from the game seed and its seat (stable across runs)."""
    digest = hashlib.sha256(f"{seed}/{seat}".encode()).digest()
    return int.from_bytes(digest[:4], "big")
