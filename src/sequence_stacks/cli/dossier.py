"""The `dossier` subcommand: a rule variant's qualities, measured with intervals."""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Final

from rich.progress import (
    BarColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from sequence_stacks.engine import SettingsError
from sequence_stacks.sim import (
    DossierError,
    DossierSpec,
    Pace,
    Plan,
    PlayerSpec,
    run_dossier,
)

from .common import CliError, add_option_arg, comma_numbers, make_console
from .simulate import add_backend_args, player_counts_arg, vary_arg

__all__ = ["DOSSIER_DESCRIPTION", "DOSSIER_EXAMPLES", "add_dossier_parser", "run_dossier_command"]

DOSSIER_DESCRIPTION: Final = """\
Measure a rule variant the way a designer asks about it, and write one page: fairness
(seat advantage, first-player edge), length (turns, minutes at a stated pace, the wait
between your turns), skill and luck (a ladder of bots, ismcts at doubling budgets),
drama (lead changes, comebacks, when the winner shows, possible kingmaking), what each
action card is worth (restricted play), endings, chips and Blocks. Every figure has a
95% interval, the games it rests on and a sentence for a family at the table; --vary
puts variants side by side with their differences and a verdict.

It times each configuration in a short pilot, then shares the --budget among them.
Output in --out: dossier.html (self-contained, no script), dossier.json (every figure,
with the seeds that reproduce it), dossier.md (the same as Markdown tables), the
figures as PNGs, traces.jsonl (the games) and plan.json. Running again with the same
--out continues a stopped run; --plan FILE replays a dossier's plan (its exact games)
into a new folder."""

DOSSIER_EXAMPLES: Final = """\
  sequence-stacks dossier --out dossier/                  # default rules, 2 and 4 players
  sequence-stacks dossier --players 3 --vary hand_size=5,4 --budget 20m --out hand/
  sequence-stacks dossier --option piles_per_colour=1 --budget 5m --out one-pile/
  sequence-stacks dossier --plan dossier/plan.json --out replay/
  sequence-stacks dossier --backend ray --address auto --budget 1h --out big/"""

_UNITS: Final = {"s": 1, "m": 60, "h": 3600}


def budget_arg(text: str) -> float:
    """Parse ``10m``, ``90s``, ``1h30m`` or plain seconds (an argparse ``type``)."""
    cleaned = text.strip().lower().replace(" ", "")
    try:
        seconds = float(cleaned)
    except ValueError:
        pieces = re.findall(r"(\d+(?:\.\d+)?)([smh])", cleaned)
        if not pieces or "".join(value + unit for value, unit in pieces) != cleaned:
            raise argparse.ArgumentTypeError(
                f"--budget takes a time like 10m, 90s or 1h30m, not {text!r}"
            ) from None
        seconds = sum(float(value) * _UNITS[unit] for value, unit in pieces)
    if not seconds > 0:
        raise argparse.ArgumentTypeError("--budget must be more than nothing")
    return seconds


def _players_list(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    try:
        for name in names:
            PlayerSpec.parse(name)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return names


def _floats(text: str) -> list[float]:
    values = comma_numbers(text, float, f"expected numbers like 0.25,0.5,1, not {text!r}")
    if not values or any(value <= 0 for value in values):
        raise argparse.ArgumentTypeError("the numbers must be positive")
    return values


def add_dossier_parser(parser: argparse.ArgumentParser) -> None:
    """Add the `dossier` options to its subparser."""
    parser.add_argument(
        "--players",
        type=player_counts_arg,
        default=[2, 4],
        metavar="N[,N...]",
        help="player counts, 2-6 (default 2,4)",
    )
    add_option_arg(parser, "a variant option for every game (repeatable; see `rules`)")
    parser.add_argument(
        "--vary",
        type=vary_arg,
        default=None,
        metavar="NAME=A,B",
        help="put variants side by side: one per value, the first is the baseline",
    )
    parser.add_argument(
        "--budget",
        type=budget_arg,
        default=600.0,
        metavar="TIME",
        help="wall-clock time for the whole run: 10m (default), 90s, 1h",
    )
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="base seed (default 0)")
    parser.add_argument(
        "--out", default="dossier", metavar="DIR", help="output folder (default ./dossier)"
    )
    parser.add_argument(
        "--plan",
        metavar="FILE",
        help="replay the plan of another dossier (its plan.json or dossier.json): same games",
    )
    add_backend_args(parser, local="process")
    parser.add_argument(
        "--reference",
        default="heuristic",
        metavar="BOT",
        help="the player at the table, in restricted play and facing ismcts (default heuristic)",
    )
    parser.add_argument(
        "--ladder",
        type=_players_list,
        default=None,
        metavar="LIST",
        help="the skill ladder, weakest first (default random,greedy,heuristic,ismcts)",
    )
    parser.add_argument(
        "--search-budgets",
        type=_floats,
        default=None,
        metavar="X,Y",
        help="ismcts budget scales, each the double of the last (default 0.25,0.5,1)",
    )
    parser.add_argument(
        "--pace",
        type=_floats,
        default=[5.0, 3.0, 8.0],
        metavar="TURN_S,ACTION_S[,WINDOW_S]",
        help="seconds to start a turn, per action and per Block window, for minutes at the "
        "table (default 5,3,8: 8 s is a Block window at the online table's relaxed pace)",
    )
    parser.add_argument("--title", default="Sequence Stacks design dossier", help="the page title")
    parser.add_argument("--quiet", action="store_true", help="no progress bar or summary")


def _spec(args: argparse.Namespace) -> DossierSpec:
    vary = None if args.vary is None else (args.vary[0], tuple(args.vary[1]))
    fields = {
        "players": tuple(args.players),
        "options": tuple(args.option),
        "vary": vary,
        "budget_s": args.budget,
        "seed": args.seed,
        "reference": args.reference,
    }
    if args.ladder is not None:
        fields["ladder"] = tuple(args.ladder)
    if args.search_budgets is not None:
        fields["budgets"] = tuple(args.search_budgets)
    try:
        return DossierSpec(**fields)
    except (ValueError, SettingsError) as error:
        raise CliError(str(error)) from None


def _plan(path: str) -> Plan:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        return Plan.from_dict(data.get("plan", data))
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise CliError(f"cannot read a plan from {path!r}: {error}") from None


class _Bar:
    """The progress of a run on stderr: one bar per phase, its games and time left."""

    def __init__(self, quiet: bool) -> None:
        self.progress = Progress(
            TextColumn("{task.description:>6}"),
            BarColumn(),
            TextColumn("{task.fields[games]}"),
            TimeElapsedColumn(),
            TextColumn("left"),
            TimeRemainingColumn(),
            console=make_console(stderr=True),
            disable=quiet or not sys.stderr.isatty(),
        )
        self.task: TaskID | None = None
        self.done = 0
        self.total = 0

    def phase(self, name: str, *, games: int, work: float) -> None:
        self.done, self.total = 0, games
        self.task = self.progress.add_task(name, total=max(work, 1e-9), games=f"0/{games} games")

    def advance(self, work: float) -> None:
        assert self.task is not None
        self.done += 1
        self.progress.update(self.task, advance=work, games=f"{self.done}/{self.total} games")


def run_dossier_command(args: argparse.Namespace) -> int:
    """Play, measure and write the dossier."""
    if args.workers < 1:
        raise CliError("--workers must be at least 1")
    if len(args.pace) > 3:
        raise CliError("--pace takes up to three numbers: TURN_S,ACTION_S,WINDOW_S")
    plan = _plan(args.plan) if args.plan else None
    spec = plan.spec if plan is not None else _spec(args)
    bar = _Bar(args.quiet)
    try:
        with bar.progress:
            outcome = run_dossier(
                spec,
                Path(args.out),
                plan=plan,
                workers=args.workers,
                backend=args.backend,
                address=args.address,
                progress=bar,
                pace=Pace(*args.pace[:3]),
                title=args.title,
            )
    except DossierError as error:
        raise CliError(str(error)) from None
    except ModuleNotFoundError as error:
        raise CliError(
            f"dossier needs {error.name or 'matplotlib'}: pip install 'sequence-stacks[sim]'"
        ) from None
    console = make_console(stderr=True)
    if outcome.interrupted:
        console.print(
            f"dossier stopped: {outcome.played} games kept in {args.out}; run the same "
            "command again to continue"
        )
        return 130
    if not args.quiet:
        print(f"dossier: {outcome.page} ({outcome.played} games played, {outcome.seconds:.0f} s)")
    return 0
