"""The `review` subcommand: a finished game's review in the terminal (or as JSON)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any, Final

from rich.cells import cell_len
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from sequence_stacks.bots.review import review_record
from sequence_stacks.bots.review_format import (
    MISTAKE_THRESHOLD,
    Decision,
    Review,
    moment_change,
    moment_event,
    percent,
)
from sequence_stacks.engine import (
    GameRecord,
    RecordError,
    View,
    apply_in_place,
    new_game,
    observe,
)
from sequence_stacks.i18n import render, words
from sequence_stacks.tui.command import LANG_HELP, choose_language
from sequence_stacks.tui.present import action_words

from .common import CliError, make_console, print_json, read_json, source_name

__all__ = ["DESCRIPTION", "EXAMPLES", "add_review_parser", "run_review"]

DESCRIPTION: Final = """\
Review a finished game for one player: each player's chance of winning turn by turn
(each from what that player could see), the three moments that moved your chance most,
and each of your decisions against the choice of the Champion (the `expert` bot) from
your view at that moment (never a card you could not see); a decision that gave up 5
points or more of your chance (clearly more than the estimate's noise) is a mistake.
Takes a few seconds to half a minute: every decision is searched."""

EXAMPLES: Final = """\
  sequence-stacks review game.json --seat 0
  sequence-stacks review game.json --seat 1 --lang sl
  sequence-stacks review game.json --seat 0 --json > review.json
  sequence-stacks review game.json            # a spectator's review: no decisions"""

_BARS: Final = "▁▂▃▄▅▆▇█"
_CHART_WIDTH: Final = 60


def add_review_parser(parser: argparse.ArgumentParser) -> None:
    """Add the `review` options to its subparser."""
    parser.add_argument("record", metavar="RECORD", help="record file (JSON), or - for stdin")
    parser.add_argument(
        "--seat",
        type=int,
        default=None,
        metavar="N",
        help="whose review (seat N, from 0; default: a spectator's, without decisions)",
    )
    parser.add_argument("--lang", default=None, metavar="CODE", help=LANG_HELP)
    parser.add_argument("--json", action="store_true", help="print the review as JSON")
    parser.add_argument(
        "--threshold",
        type=float,
        default=MISTAKE_THRESHOLD,
        metavar="P",
        help=f"the loss of chance that makes a mistake, 0-1 (default {MISTAKE_THRESHOLD})",
    )


def run_review(args: argparse.Namespace) -> int:
    """Compute the review (with a progress bar on a terminal) and print it."""
    data = read_json(args.record, "record")
    try:
        record = GameRecord.from_dict(data)
        record.replay()
    except RecordError as error:
        raise CliError(f"bad record {source_name(args.record)}: {error}") from None
    count = record.settings.player_count
    seat: int | None = args.seat
    if seat is not None and not 0 <= seat < count:
        raise CliError(f"--seat {seat}: the game has seats 0-{count - 1}")
    if not 0.0 < args.threshold < 1.0:
        raise CliError("--threshold must be between 0 and 1")
    choose_language(args.lang)
    console = make_console(stderr=True)
    with Progress(
        TextColumn("reviewing"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        disable=args.json or not console.is_terminal,
    ) as bar:
        task = bar.add_task("review", total=len(record.actions))
        review = review_record(
            record,
            seat=seat,
            threshold=args.threshold,
            progress=lambda done, total: bar.update(task, completed=done, total=total),
        )
    if args.json:
        print_json(review.to_dict())
        return 0
    _print_review(make_console(), review, _decision_views(record, review.decisions))
    return 0


def _decision_views(record: GameRecord, decisions: Sequence[Decision]) -> dict[int, View]:
    """The viewer's view at each reviewed decision (to tell its moves in words)."""
    wanted = {d.index for d in decisions}
    views: dict[int, View] = {}
    state = new_game(record.settings, record.seed)
    for index, (actor, action) in enumerate(record.actions):
        if index in wanted:
            views[index] = observe(state, actor)
        apply_in_place(state, actor, action)
    return views


def _player(seat: int, viewer: int | None) -> str:
    name = render("seat.numbered", number=seat + 1)
    return render("seat.you_named", name=name) if seat == viewer else name


def _say(key: str, args: dict[str, Any], viewer: int | None) -> str:
    return render(key, **words(args, lambda seat: _player(seat, viewer)))


def chart_line(chances: Sequence[float], width: int = _CHART_WIDTH) -> str:
    """A row of block characters, one per point (sampled down to ``width``): the
    chance from 0 (▁) to 1 (█)."""
    if len(chances) > width:
        step = (len(chances) - 1) / (width - 1)
        chances = [chances[round(i * step)] for i in range(width)]
    top = len(_BARS) - 1
    return "".join(_BARS[min(top, max(0, round(c * top)))] for c in chances)


def _print_review(console: Console, review: Review, views: dict[int, View]) -> None:
    viewer = review.seat
    title = (
        render("review.title")
        if viewer is None
        else render("review.title.seat", player=_player(viewer, viewer))
    )
    console.print(title, style="bold", highlight=False)
    console.print()
    _print_graph(console, review)
    console.print()
    console.print(render("review.moments"), style="bold", highlight=False)
    if not review.moments:
        console.print("  " + render("review.moments.none"), highlight=False)
    for moment in review.moments:
        event = _say(*moment_event(moment, viewer), viewer)
        change = _say(*moment_change(moment, viewer), viewer)
        line = render("review.moment", turn=moment.turn, event=event, change=change)
        console.print("  " + line, highlight=False)
    if viewer is not None:
        console.print()
        _print_decisions(console, review, views)


def _print_graph(console: Console, review: Review) -> None:
    console.print(render("review.graph"), style="bold", highlight=False)
    points = review.points
    names = [_player(seat, review.seat) for seat in range(review.player_count)]
    width = max(cell_len(name) for name in names)
    for seat, name in enumerate(names):
        line = [point.chances[seat] for point in points]
        tail = render("review.graph.row", start=percent(line[0]), end=percent(line[-1]))
        label = name + " " * (width - cell_len(name))
        console.print(f"  {label}  {chart_line(line)}  {tail}", highlight=False)
    first, last = max(1, points[0].turn), points[-1].turn
    turns = render("review.graph.turns", first=first, last=last)
    console.print(" " * (width + 4) + turns, highlight=False)


def _print_decisions(console: Console, review: Review, views: dict[int, View]) -> None:
    console.print(render("review.decisions"), style="bold", highlight=False)
    console.print(
        "  " + render("review.decisions.count", count=len(review.decisions)), highlight=False
    )
    mistakes = review.mistakes
    if mistakes:
        console.print("  " + render("review.mistakes.count", count=len(mistakes)), highlight=False)
    else:
        console.print("  " + render("review.mistakes.none"), highlight=False)
    better = review.better
    if not better:
        return
    console.print("  " + render("review.better"), highlight=False)
    mark = render("review.mistake_mark")
    for decision in better:
        view = views[decision.index]
        console.print(
            "  "
            + (f"[{mark}] " if decision.mistake else "")
            + render(
                "review.mistake",
                turn=decision.turn,
                played=action_words(decision.played, view),
                best=action_words(decision.best, view),
                played_chance=percent(decision.played_chance or 0.0),
                best_chance=percent(decision.best_chance or 0.0),
            ),
            highlight=False,
            markup=False,  # the mark's brackets are text
        )
