"""The `train-value` subcommand: make the win-chance model from self-play (docs/bots.md)."""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Final

from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)

from sequence_stacks.sim.value_config import DEFAULT_GAMES, TrainConfig

from .common import CliError, make_console, number_list
from .simulate import player_counts_arg

__all__ = ["DESCRIPTION", "EXAMPLES", "add_train_value_parser", "run_train_value"]

DESCRIPTION: Final = """\
Make the win-chance model: P(a seat wins | what that seat sees). Plays heuristic
self-play games and records positions from each seat's own view (never a hidden card),
labelled by who won; trains one small network per player count (numpy); writes the
model file and measures it on held-out games against the current ismcts leaf value
(log loss, expected calibration error, reliability tables: report.md, report.json).

Everything is kept in the work folder (--dir): positions in shards, a training
checkpoint after every epoch, each finished network. Run the same command again to
resume a stopped run; delete the folder to start over. The model shipped in the
package (src/sequence_stacks/bots/data/winchance.json) was made with the defaults but
2,300 six-player games (--games 6=2300): 1.0-2.0 million positions per player count,
hours of one core (the self-play games take most of it)."""

EXAMPLES: Final = """\
  sequence-stacks train-value --games 6=2300           # the shipped model, resumable
  sequence-stacks train-value --players 2 --games 2000 --dir /tmp/wc --model wc.json
  sequence-stacks train-value --quick --dir /tmp/wc-smoke   # a small end-to-end run"""


def _counts(text: str) -> list[int]:
    """Parse ``2,3,4`` into player counts, each once, in order (an argparse ``type``)."""
    return sorted(set(player_counts_arg(text)))


def _hidden(text: str) -> tuple[int, ...]:
    widths = number_list(
        text,
        option="--hidden",
        example="64 or 64,32",
        low=1,
        high=1024,
        bounds="hidden layer widths must be 1-1024",
    )
    return tuple(widths)


def _games(text: str) -> dict[int, int]:
    """``N`` (every player count) or ``P=N[,P=N...]`` (those counts; the others keep
    their defaults)."""
    try:
        if "=" not in text:
            return dict.fromkeys(DEFAULT_GAMES, int(text))
        pairs = (part.split("=") for part in text.split(","))
        games = {int(count): int(number) for count, number in pairs}
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--games takes a number or counts like 6=2300,5=4000, not {text!r}"
        ) from None
    if not set(games) <= set(DEFAULT_GAMES):
        raise argparse.ArgumentTypeError("--games: player counts are 2-6")
    return games


def add_train_value_parser(parser: argparse.ArgumentParser) -> None:
    """Add the `train-value` options to its subparser."""
    parser.add_argument(
        "--players",
        type=_counts,
        default=[2, 3, 4, 5, 6],
        metavar="N[,N...]",
        help="player counts to train a network for (default 2,3,4,5,6)",
    )
    parser.add_argument(
        "--games",
        type=_games,
        default={},
        metavar="N|P=N,...",
        help="self-play games per player count: N for every count, or P=N for some "
        "(default: "
        + ", ".join(f"{count}p {games:,}" for count, games in DEFAULT_GAMES.items())
        + "); rounded up to whole shards of 100",
    )
    parser.add_argument(
        "--dir",
        type=Path,
        default=Path("win-chance"),
        metavar="DIR",
        help="work folder: positions, checkpoints, networks, report (default ./win-chance)",
    )
    parser.add_argument(
        "--model",
        type=Path,
        default=None,
        metavar="FILE",
        help="where to write the model file (default DIR/winchance.json)",
    )
    parser.add_argument(
        "--seed", type=int, default=1, metavar="S", help="self-play seed (default 1)"
    )
    parser.add_argument(
        "--hidden",
        type=_hidden,
        default=TrainConfig().hidden,
        metavar="W[,W...]",
        help="hidden layer widths (default " + ",".join(map(str, TrainConfig().hidden)) + ")",
    )
    parser.add_argument(
        "--epochs",
        type=int,
        default=TrainConfig().epochs,
        metavar="E",
        help=f"at most E epochs (default {TrainConfig().epochs})",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a small run to check the pipeline: 200 games per count, 3 epochs",
    )


def run_train_value(args: argparse.Namespace) -> int:
    """Run (or resume) the pipeline with a progress bar; print the report's tables."""
    try:  # numpy: the sim extra, loaded only by the command that trains
        from sequence_stacks.sim.value_run import Progress as Callbacks  # noqa: PLC0415
        from sequence_stacks.sim.value_run import report_markdown, run_pipeline  # noqa: PLC0415
    except ModuleNotFoundError as error:
        raise CliError(
            f"train-value needs {error.name or 'numpy'}: pip install 'sequence-stacks[sim]'"
        ) from error
    counts: list[int] = args.players
    quick = dict.fromkeys(DEFAULT_GAMES, 200) if args.quick else {}
    games = {count: {**DEFAULT_GAMES, **quick, **args.games}[count] for count in counts}
    if min(games.values()) < 10:
        raise CliError("--games must be at least 10 (a tenth of the games is held out for testing)")
    epochs = 3 if args.quick else args.epochs
    if epochs < 1:
        raise CliError("--epochs must be at least 1")
    folder: Path = args.dir
    model_path: Path = args.model or folder / "winchance.json"
    folder.mkdir(parents=True, exist_ok=True)
    config = TrainConfig(hidden=args.hidden, epochs=epochs, seed=args.seed)
    console = make_console()
    started = time.monotonic()
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=False,
    ) as bar:
        task: TaskID = bar.add_task("starting", total=None)

        def stage(count: int, what: str) -> None:
            nonlocal task
            bar.update(task, visible=False)
            task = bar.add_task(f"{count} players: {what}", total=None)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        def epoch(count: int, number: int, train_loss: float, validation_loss: float) -> None:
            bar.console.print(
                f"{count} players, epoch {number}: train loss {train_loss:.4f}, "
                f"validation loss {validation_loss:.4f}"
            )

        report = run_pipeline(
            folder,
            model_path,
            counts=counts,
            games=games,
            seed=args.seed,
            config=config,
            progress=Callbacks(stage, advance, epoch),
        )
    console.print(report_markdown(report), markup=False, highlight=False)
    console.print(
        f"model: {model_path}; report: {folder / 'report.md'}; {time.monotonic() - started:.0f} s",
        markup=False,
        highlight=False,
    )
    return 0
