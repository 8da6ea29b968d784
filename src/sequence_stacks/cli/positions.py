"""The `legal`, `apply`, `new-position` and `rules` subcommands: one position at a time."""

from __future__ import annotations

import argparse
import sys

from rich.table import Table

from sequence_stacks.engine import (
    OPTION_RULES,
    IllegalActionError,
    NotationError,
    PositionError,
    Settings,
    State,
    action_space,
    apply,
    event_to_dict,
    legal_actions,
    new_game,
    parse_action,
    position_from_dict,
    position_to_dict,
)

from .common import (
    EXIT_ILLEGAL,
    CliError,
    make_console,
    print_json,
    read_json,
    settings_from_args,
    source_name,
)

__all__ = ["run_apply", "run_legal", "run_new_position", "run_rules"]


def load_position(source: str) -> State:
    """Load and validate a position from a file, ``-`` or inline JSON."""
    data = read_json(source, "position")
    try:
        return position_from_dict(data)
    except PositionError as error:
        raise CliError(f"bad position {source_name(source)}: {error}") from None


def run_legal(args: argparse.Namespace) -> int:
    """List the legal actions of every seat that may act now."""
    state = load_position(args.position)
    deciders = state.deciders()
    space = action_space(state.player_count, state.settings.piles_per_colour)
    actions = {seat: legal_actions(state, seat) for seat in deciders}
    if args.json:
        print_json(
            {
                "deciders": list(deciders),
                "actions": {str(s): [a.notation() for a in acts] for s, acts in actions.items()},
                "ids": {str(s): [space.id_of(a, s) for a in acts] for s, acts in actions.items()},
            }
        )
        return 0
    if not deciders:
        result = state.result
        reason = "over" if result is None else result.reason
        print(f"the game is over ({reason}): nobody may act")
    for seat, seat_actions in actions.items():
        for action in seat_actions:
            print(f"seat {seat}: {action.notation()}")
    return 0


def run_apply(args: argparse.Namespace) -> int:
    """Apply one action to a position and print the new position and the events."""
    state = load_position(args.position)
    try:
        action = parse_action(args.action)
    except NotationError as error:
        raise CliError(str(error)) from None
    seat = _acting_seat(state, args.seat)
    try:
        new_state, events = apply(state, seat, action)
    except IllegalActionError as error:
        raise CliError(f"illegal ({error.rule_id}): {error.reason}", EXIT_ILLEGAL) from None
    print_json(
        {"position": position_to_dict(new_state), "events": [event_to_dict(e) for e in events]}
    )
    return 0


def _acting_seat(state: State, seat: int | None) -> int:
    if seat is not None:
        return seat
    deciders = state.deciders()
    if len(deciders) > 1:
        listed = ", ".join(map(str, deciders))
        raise CliError(f"seats {listed} may all act now (a Block window): choose one with --seat")
    return deciders[0] if deciders else state.current  # over: apply explains R32


def run_new_position(args: argparse.Namespace) -> int:
    """Print the position at the start of a fresh game."""
    settings = settings_from_args(args)
    seed: int = args.seed if args.seed is not None else 0
    print_json(position_to_dict(new_game(settings, seed)))
    return 0


def run_rules(args: argparse.Namespace) -> int:
    """Print the variant options with their defaults and rules."""
    defaults = Settings().to_dict()
    if args.json:
        print_json(
            {
                name: {"default": defaults[name], "rule": rule, "help": text}
                for name, (rule, text) in OPTION_RULES.items()
            }
        )
        return 0
    table = Table(title="Variant options (set with --option NAME=VALUE; see RULES.md)")
    for header in ("Option", "Default", "Rule", "Meaning"):
        table.add_column(header)
    for name, (rule, text) in OPTION_RULES.items():
        table.add_row(name, _text(defaults[name]), rule, text)
    make_console().print(table)
    print("player_count is set with --players.", file=sys.stdout)
    return 0


def _text(value: object) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)
