"""The `replay` subcommand: verify a game record, or tell it step by step."""

from __future__ import annotations

import argparse

from rich.console import Console

from sequence_stacks.engine import (
    Action,
    ActionType,
    Event,
    GameRecord,
    RecordError,
    Replay,
    State,
    event_for,
    position_digest,
)
from sequence_stacks.i18n import event_line, render

from .common import CliError, make_console, read_json, source_name, styled

__all__ = ["run_replay"]


def run_replay(args: argparse.Namespace) -> int:
    """Replay a record; check its result and digest; optionally print every step."""
    data = read_json(args.record, "record")
    try:
        record = GameRecord.from_dict(data)
        seat = _viewer(record, args.seat)
        final = _step_through(record, seat) if args.step else record.replay()
    except RecordError as error:
        raise CliError(f"bad record {source_name(args.record)}: {error}") from None
    print(_ok_line(record, final))
    return 0


def _viewer(record: GameRecord, seat: int | None) -> int | None:
    count = record.settings.player_count
    if seat is not None and not 0 <= seat < count:
        raise CliError(f"--seat {seat}: the game has seats 0-{count - 1}")
    return seat


def _step_through(record: GameRecord, seat: int | None) -> State:
    """Print every action and event (as ``seat`` may see them); check like replay()."""
    console = make_console()
    replay = Replay(record)
    _print_events(console, replay.start_events, seat)
    for index, actor, action, events in replay:
        console.print(styled(f"[{index}] {_action_text(actor, action, seat)}"))
        _print_events(console, events, seat)
    return replay.checked_state()


def _action_text(actor: int, action: Action, seat: int | None) -> str:
    hidden = seat is not None and actor != seat
    if hidden and action.type in (ActionType.PASS, ActionType.BLOCK):
        return f"Player {actor}: answers the Block window"  # N5: answers stay secret
    return f"Player {actor}: {action.notation()}"


def _print_events(console: Console, events: list[Event], seat: int | None) -> None:
    for event in events:
        shown = event if seat is None else event_for(event, seat)
        line = event_line(shown, _player)
        if line:
            console.print(styled(f"    {line}"))


def _player(seat: int) -> str:
    return render("seat.numbered", number=seat)


def _ok_line(record: GameRecord, final: State) -> str:
    result = final.result
    if result is None:
        outcome = "unfinished"
    elif result.winner is None:
        outcome = f"{result.reason}, no winner"
    else:
        outcome = f"{result.reason}, winner seat {result.winner}"
    digest = record.digest if record.digest is not None else position_digest(final)
    note = "" if record.digest is not None else " (computed; the record has none)"
    return f"ok: {len(record.actions)} actions, result {outcome}, digest {digest}{note}"
