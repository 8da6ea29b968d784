"""The `simulate` and `report` subcommands: many games across processes, and their report."""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
from pathlib import Path

from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from sequence_stacks.engine import OPTION_RULES, Settings, SettingsError
from sequence_stacks.sim import (
    ResultsWriter,
    Row,
    SimConfig,
    has_pyarrow,
    is_parquet,
    read_results,
    row_key,
    run_tasks,
    tasks_of,
    write_report,
)

from .common import CliError, add_option_arg, make_console, number_list, print_json

__all__ = [
    "add_backend_args",
    "add_report_parser",
    "add_simulate_parser",
    "player_counts_arg",
    "run_report",
    "run_simulate",
    "vary_arg",
]


def player_counts_arg(text: str) -> list[int]:
    """Parse ``2,3,4`` into player counts (an argparse ``type``)."""
    return number_list(
        text,
        option="--players",
        example="2,3,4",
        low=2,
        high=6,
        bounds="player counts must be 2-6 (R5)",
    )


def vary_arg(text: str) -> tuple[str, list[str]]:
    """Parse ``option=v1,v2`` into the option and its values (an argparse ``type``)."""
    name, sep, values = text.partition("=")
    name = name.strip().replace("-", "_")
    if not sep or not values.strip():
        raise argparse.ArgumentTypeError(f"--vary takes option=v1,v2, not {text!r}")
    if name not in OPTION_RULES or name == "player_count":
        raise argparse.ArgumentTypeError(
            f"unknown option {name!r} to vary (use --players for player counts)"
        )
    return name, [value.strip() for value in values.split(",")]


def add_simulate_parser(parser: argparse.ArgumentParser, bot_list: object) -> None:
    """Add the `simulate` options to its subparser."""
    parser.add_argument(
        "--players",
        type=player_counts_arg,
        default=[4],
        metavar="N[,N...]",
        help="player count(s), 2-6; several make one config each (default 4)",
    )
    parser.add_argument(
        "--bots",
        type=bot_list,  # type: ignore[arg-type]  # argparse accepts any callable
        default=["greedy"],
        metavar="LIST",
        help="comma-separated bot names cycling over the seats, rotated each game",
    )
    parser.add_argument(
        "--games", type=int, default=100, metavar="N", help="games per config (default 100)"
    )
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="base seed (0)")
    add_option_arg(parser, "a variant option for every config (repeatable; see `rules`)")
    parser.add_argument(
        "--vary",
        action="append",
        type=vary_arg,
        default=[],
        metavar="NAME=V1,V2",
        help="sweep an option: one config per value (repeatable: all combinations)",
    )
    parser.add_argument(
        "--out",
        default="results.csv",
        metavar="FILE",
        help="results file: .csv (default results.csv) or .parquet (needs pyarrow)",
    )
    parser.add_argument(
        "--resume", action="store_true", help="keep FILE's rows and play only the missing games"
    )
    parser.add_argument("--records", metavar="DIR", help="also save every game's record in DIR")
    add_backend_args(parser, local="local")
    parser.add_argument("--quiet", action="store_true", help="no progress bar or summary")


def add_backend_args(parser: argparse.ArgumentParser, *, local: str) -> None:
    """Add --workers, --backend (``local``, the name of worker processes here, or
    ``ray``) and --address to a subcommand that plays many games."""
    parser.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        metavar="N",
        help="worker processes (default: the CPU count; 1 plays in this process)",
    )
    parser.add_argument(
        "--backend",
        choices=(local, "ray"),
        default=local,
        help=f"{local}: worker processes here (default); ray: a Ray cluster (the ray extra)",
    )
    parser.add_argument(
        "--address",
        default=None,
        metavar="ADDR",
        help="with --backend ray: the cluster address (default: start a local Ray)",
    )


def add_report_parser(parser: argparse.ArgumentParser) -> None:
    """Add the `report` options to its subparser."""
    parser.add_argument(
        "results",
        metavar="RESULTS",
        nargs="+",
        help="results file(s) (.csv or .parquet); rows of the same game are counted once",
    )
    parser.add_argument(
        "--out", default="report", metavar="DIR", help="output folder (default ./report)"
    )
    parser.add_argument(
        "--title",
        default="Sequence Stacks balance",
        help="the page title (default: Sequence Stacks balance)",
    )
    parser.add_argument("--json", action="store_true", help="also print the summary as JSON")


def _configs(args: argparse.Namespace) -> list[SimConfig]:
    games: int = args.games
    if games < 1:
        raise CliError("--games must be at least 1")
    options: list[str] = args.option
    sweeps: list[tuple[str, list[str]]] = args.vary
    names = [name for name, _ in sweeps]
    choices = [[f"{name}={value}" for value in values] for name, values in sweeps]
    configs: list[SimConfig] = []
    for players in args.players:
        for combination in itertools.product(*choices) if names else [()]:
            try:
                settings = Settings.from_options([*options, *combination], player_count=players)
            except SettingsError as error:
                raise CliError(str(error)) from None
            configs.append(SimConfig(settings, tuple(args.bots), games, args.seed))
    return configs


def run_simulate(args: argparse.Namespace) -> int:
    """Play every config's games, writing one row per game."""
    configs = _configs(args)
    out = Path(args.out)
    if is_parquet(out) and not has_pyarrow():
        raise CliError("a .parquet results file needs pyarrow: pip install 'sequence-stacks[sim]'")
    workers: int = args.workers
    if workers < 1:
        raise CliError("--workers must be at least 1")
    if args.backend == "ray" and args.records:
        raise CliError("--records is only available with the local backend")
    try:
        writer = ResultsWriter(out, resume=args.resume)
    except OSError as error:
        raise CliError(f"cannot open {str(out)!r}: {error.strerror or error}") from None
    with writer:
        tasks = tasks_of(configs, writer.done_keys())
        skipped = sum(config.games for config in configs) - len(tasks)
        progress = _progress(args.quiet)
        with progress:
            bar = progress.add_task("simulate", total=len(tasks))

            def advance(_: Row) -> None:
                progress.advance(bar)

            if args.backend == "ray":
                from sequence_stacks.sim.ray_backend import run_ray  # noqa: PLC0415

                stats = run_ray(tasks, writer, address=args.address, on_row=advance)
            else:
                stats = run_tasks(
                    tasks, writer, workers=workers, records_dir=args.records, on_row=advance
                )
    if not args.quiet:
        rate = stats.played / stats.seconds if stats.seconds > 0 else 0.0
        state = "interrupted" if stats.interrupted else "done"
        make_console(stderr=True).print(
            f"simulate {state}: {stats.played} games played ({rate:.1f} games/s), "
            f"{skipped} already in {out}; {len(configs)} config(s)"
        )
    return 130 if stats.interrupted else 0


class _GamesPerSecond(ProgressColumn):
    """The recent rate of finished games."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("-- games/s" if speed is None else f"{speed:.1f} games/s")


def _progress(quiet: bool) -> Progress:
    return Progress(
        TextColumn("simulate"),
        BarColumn(),
        MofNCompleteColumn(),
        _GamesPerSecond(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=make_console(stderr=True),
        transient=False,
        disable=quiet or not sys.stderr.isatty(),
    )


def run_report(args: argparse.Namespace) -> int:
    """Write the balance report of one or more results files."""
    rows: dict[tuple[str, int], Row] = {}
    for text in args.results:
        path = Path(text)
        if not path.exists():
            raise CliError(f"no results file {str(path)!r}")
        try:
            rows.update((row_key(row), row) for row in read_results(path))
        except (OSError, ValueError, KeyError) as error:
            raise CliError(f"cannot read results {str(path)!r}: {error}") from None
    if not rows:
        raise CliError(f"{', '.join(args.results)} hold(s) no games")
    try:
        page = write_report(list(rows.values()), Path(args.out), title=args.title)
    except ModuleNotFoundError as error:
        raise CliError(
            f"report needs {error.name or 'matplotlib'}: pip install 'sequence-stacks[sim]'"
        ) from None
    if args.json:
        print_json(_load_summary(Path(args.out)))
    else:
        print(f"report: {page} ({len(rows)} games)")
    return 0


def _load_summary(folder: Path) -> object:
    return json.loads((folder / "summary.json").read_text(encoding="utf-8"))
