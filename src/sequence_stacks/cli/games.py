"""The `watch` and `selfplay` subcommands: bots playing one game, or many."""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Final

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from sequence_stacks.bots import make_bot
from sequence_stacks.engine import Event, State, event_for
from sequence_stacks.engine.events import (
    BlockAnswered,
    CardPlayed,
    CardStolen,
    ChipStolen,
    Discarded,
    ReversePlayed,
    SkipPlayed,
    TurnEnded,
    TurnStarted,
)
from sequence_stacks.i18n import MESSAGES, colour_name, event_line, render
from sequence_stacks.sim import GameRow, Rate, Summary, iter_selfplay, play_game, summarize
from sequence_stacks.tui import player_name
from sequence_stacks.tui.cells import use_terminal_widths
from sequence_stacks.tui.command import choose_language

from .common import CliError, make_console, print_json, settings_from_args, styled, write_json

__all__ = ["run_selfplay", "run_watch"]

# Events that show a decision being taken: `watch --delay` pauses after each.
_PACED_EVENTS: Final = (
    CardPlayed,
    SkipPlayed,
    ReversePlayed,
    CardStolen,
    ChipStolen,
    BlockAnswered,
    Discarded,
    TurnEnded,
)


def run_watch(args: argparse.Namespace) -> int:
    """Play one bot-vs-bot game and tell it in words."""
    settings = settings_from_args(args)
    seed: int = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    delay: float = args.delay if args.delay is not None else (0.3 if sys.stdout.isatty() else 0.0)
    if delay < 0:
        raise CliError("--delay must be zero or more seconds")
    names: list[str] = args.bots
    seat_names = [names[seat % len(names)] for seat in range(settings.player_count)]
    bots = [make_bot(name, seed=seed * 8 + seat) for seat, name in enumerate(seat_names)]
    choose_language(args.lang)
    use_terminal_widths()  # the chips table's columns, as the terminal counts cells
    console = make_console()
    title = render("term.watch.title", count=settings.player_count)  # no seed yet (R36)
    console.print(styled(title), style="bold")
    for seat, name in enumerate(seat_names):
        bot = _bot_word(name)
        console.print(styled("  " + render("term.watch.seat", player=_player(seat), bot=bot)))
    reveal: bool = args.reveal

    def show(event: Event) -> None:
        shown = event if reveal else event_for(event, None)
        line = event_line(shown, _player)
        if isinstance(event, TurnStarted):
            console.print()
        if line:
            console.print(styled(line))
        if delay and isinstance(event, _PACED_EVENTS):
            time.sleep(delay)

    state, record = play_game(settings, seed, bots, on_event=show, meta={"command": "watch"})
    console.print()
    console.print(_chips_table(state, seat_names))
    console.print(styled(render("term.summary.seed", seed=str(seed))))
    if args.record is not None:
        write_json(Path(args.record), record.to_dict())
        console.print(f"record saved to {args.record}")
    return 0


def _bot_word(name: str) -> str:
    """A bot's name in the reader's language (its ``bot.<name>`` message), else as typed."""
    key = f"bot.{name}"
    return render(key) if key in MESSAGES else name


def _player(seat: int) -> str:
    """A seat as people read it: seat 0 is Player 1 (as in play and the browser)."""
    return player_name(seat)


def _chips_table(state: State, seat_names: list[str]) -> Table:
    result = state.result
    assert result is not None
    turns = state.turn_count
    if result.winner is None:
        title = render("term.watch.none", reason=render(f"end.{result.reason}"), count=turns)
    else:
        title = render("term.watch.win", player=_player(result.winner), count=turns)
    table = Table(title=title)
    colours = [colour_name(colour).capitalize() for colour in (0, 1)]
    bot_header = render("term.watch.bot")
    headers = [render("term.watch.player"), bot_header, *colours, render("term.watch.chips")]
    for header in headers:
        table.add_column(header, justify="left" if header == bot_header else "right")
    for seat, (blue, red) in enumerate(state.chips):
        winner = seat == result.winner
        name = _bot_word(seat_names[seat])
        table.add_row(
            str(seat + 1),
            render("term.watch.winner", bot=name) if winner else name,
            f"[blue]{blue}[/]",
            f"[red]{red}[/]",
            str(blue + red),
            style="bold" if winner else None,
        )
    return table


def run_selfplay(args: argparse.Namespace) -> int:
    """Play many bot-vs-bot games and summarize them."""
    settings = settings_from_args(args)
    games: int = args.games
    if games < 1:
        raise CliError("--games must be at least 1")
    seed: int = args.seed if args.seed is not None else 0
    records_dir = _records_dir(args.records)
    console = make_console()
    progress = Progress(
        TextColumn("selfplay"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=make_console(stderr=True),
        transient=True,
        disable=args.quiet or args.json or not sys.stderr.isatty(),
    )
    rows: list[GameRow] = []
    start = time.perf_counter()
    with progress:
        task = progress.add_task("games", total=games)
        for row, record in iter_selfplay(settings, args.bots, games=games, seed=seed):
            rows.append(row)
            if records_dir is not None:
                write_json(records_dir / f"game-{row.index:05d}.json", record.to_dict())
            progress.advance(task)
    elapsed = time.perf_counter() - start
    summary = summarize(rows, settings.player_count)
    if args.json:
        data = {
            "settings": settings.to_dict(),
            "seed": seed,
            "bot_names": list(args.bots),
            **summary.to_dict(),
            "elapsed_seconds": elapsed,
            "games_per_second": games / elapsed if elapsed > 0 else None,
        }
        print_json(data)
        return 0
    console.print(
        f"selfplay: {games} games, {settings.player_count} players, "
        f"bots {','.join(args.bots)}, seed {seed}",
        style="bold",
    )
    console.print(_summary_table(summary, elapsed))
    console.print(_rates_table("By seat", [(f"seat {s}", r) for s, r in enumerate(summary.seats)]))
    console.print(_rates_table("By bot", list(summary.bots.items()), played="Seats played"))
    return 0


def _records_dir(text: str | None) -> Path | None:
    if text is None:
        return None
    path = Path(text)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise CliError(f"cannot create {text!r}: {error.strerror or error}") from None
    return path


def _summary_table(summary: Summary, elapsed: float) -> Table:
    table = Table(show_header=False)
    table.add_column("What")
    table.add_column("Value", justify="right")
    per_second = summary.games / elapsed if elapsed > 0 else float("inf")
    for what, value in (
        ("games", str(summary.games)),
        ("won", str(summary.wins)),
        ("stalemates (R33)", str(summary.stalemates)),
        ("max_turns endings (R33)", str(summary.max_turns)),
        ("mean turns", f"{summary.mean_turns:.1f}"),
        ("median turns", f"{summary.median_turns:.1f}"),
        ("games/s", f"{per_second:.1f}"),
    ):
        table.add_row(what, value)
    return table


def _rates_table(title: str, rows: list[tuple[str, Rate]], *, played: str = "Games") -> Table:
    table = Table(title=title)
    for header in ("", played, "Wins", "Win rate", "95% CI (Wilson)"):
        table.add_column(header, justify="left" if not header else "right")
    for label, rate in rows:
        low, high = rate.interval
        table.add_row(
            label,
            str(rate.played),
            str(rate.wins),
            f"{rate.rate:.1%}",
            f"{low:.1%} - {high:.1%}",
        )
    return table
