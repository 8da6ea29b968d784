"""`sequence-stacks play`: arguments, seats, errors and resuming."""

from __future__ import annotations

import argparse
import io
from pathlib import Path

import pytest

from sequence_stacks.cli import build_parser
from sequence_stacks.tui import (
    HUMAN,
    SeatSpec,
    add_play_parser,
    build_session,
    configure_play_parser,
    run_play,
)


def _args(*argv: str) -> argparse.Namespace:
    return configure_play_parser(argparse.ArgumentParser()).parse_args(argv)


def test_seats_bots_seed_and_options() -> None:
    session = build_session(
        _args("--players", "4", "--bots", "random,greedy", "--seed", "42", "-o", "max_turns=9")
    )
    assert session.seats == (
        SeatSpec(HUMAN),
        SeatSpec("random"),
        SeatSpec("greedy"),
        SeatSpec("greedy"),
    )
    assert session.seed == 42
    assert session.settings.max_turns == 9
    assert build_session(_args("--seed", "abc")).seed == "abc"
    assert build_session(_args()).player_count == 4
    watch = build_session(_args("--players", "2", "--humans", "0", "--bots", "random"))
    assert watch.human_seats == ()


def test_bots_get_their_own_stable_seeds() -> None:
    first = build_session(
        _args("--players", "3", "--humans", "0", "--bots", "random", "--seed", "7")
    )
    again = build_session(
        _args("--players", "3", "--humans", "0", "--bots", "random", "--seed", "7")
    )
    for _ in range(30):
        seat = first.to_act()
        assert seat is not None
        action = first.bot_for(seat).choose(first.view(seat))
        assert again.bot_for(seat).choose(again.view(seat)) == action
        first.submit(seat, action)
        again.submit(seat, action)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--bots", "nobody"], "unknown bot"),
        (["--players", "2", "--humans", "3"], "--humans 3"),
        (["--players", "9"], "R5"),
        (["-o", "colour=green"], "unknown option"),
        (["--load", "/nonexistent/game.json"], "cannot read"),
    ],
)
def test_bad_arguments_exit_2_with_a_message(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_play(_args(*argv)) == 2
    err = capsys.readouterr().err
    assert err.startswith("sequence-stacks play: error: ")
    assert message in err


def test_plain_game_saved_then_resumed_with_its_seats(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save = tmp_path / "game.json"
    argv = ["--plain", "--players", "3", "--bots", "random", "--seed", "8", "--bot-delay", "0"]
    assert run_play(_args(*argv, "--save", str(save)), stdin=io.StringIO("1\n1\nsave\nquit\n")) == 0
    assert f"Saved to {save}." in capsys.readouterr().out
    resumed = build_session(_args("--load", str(save)))
    assert resumed.seats == (SeatSpec(HUMAN), SeatSpec("random"), SeatSpec("random"))
    assert resumed.step_count > 0
    assert resumed.seed == 8
    # Seats given on the command line win over the saved ones.
    override = build_session(_args("--load", str(save), "--humans", "0"))
    assert override.human_seats == ()
    # Resuming continues the game: the save path defaults to the loaded file.
    assert (
        run_play(
            _args("--plain", "--load", str(save), "--bot-delay", "0"),
            stdin=io.StringIO("save\nquit\n"),
        )
        == 0
    )
    assert f"Saved to {save}." in capsys.readouterr().out


def test_add_play_parser_adds_the_subcommand() -> None:
    parser = argparse.ArgumentParser(prog="sequence-stacks")
    subparsers = parser.add_subparsers(dest="command")
    add_play_parser(subparsers)
    args = parser.parse_args(["play", "--plain", "--players", "2", "--seed", "5"])
    assert args.command == "play"
    assert args.plain is True
    assert args.run is run_play
    assert build_session(args).player_count == 2


def test_the_play_subcommand_fits_the_sequence_stacks_parser(
    capsys: pytest.CaptureFixture[str],
) -> None:
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    if "play" not in commands.choices:  # until cli/app.py calls add_play_parser itself
        add_play_parser(commands)
    argv = ["play", "--plain", "--players", "2", "--humans", "0", "--bot-delay", "0"]
    args = parser.parse_args([*argv, "-o", "max_turns=20"])
    assert args.run(args, stdin=io.StringIO("\n")) == 0
    assert "Game over" in capsys.readouterr().out


def test_a_corrupt_save_is_refused_with_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save = tmp_path / "game.json"
    argv = ["--plain", "--players", "2", "--seed", "8", "--bot-delay", "0", "--save", str(save)]
    assert run_play(_args(*argv), stdin=io.StringIO("1\nquit\ny\n")) == 0
    whole = save.read_text()
    capsys.readouterr()
    save.write_text(whole[: len(whole) // 2])  # cut short, as by a crash or a full disk
    assert run_play(_args("--load", str(save))) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"sequence-stacks play: error: {save} is not a saved game")
    assert "Traceback" not in err
    save.write_text(whole.replace('"0 ', '"1 ', 1))  # the first move given to the wrong seat
    assert run_play(_args("--load", str(save))) == 2
    assert f"{save} does not replay as a saved game" in capsys.readouterr().err
    save.write_text(whole)
    assert build_session(_args("--load", str(save))).step_count > 0
