"""`sequence-stacks` help, `watch`, `selfplay` and `rules`: output and exit codes."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.cells import cell_len

from sequence_stacks import __version__
from sequence_stacks.cli import main
from sequence_stacks.engine import OPTION_RULES, GameRecord
from sequence_stacks.i18n import set_language, translation
from sequence_stacks.tui.cells import use_terminal_widths

_COMMANDS = ("watch", "selfplay", "replay", "legal", "apply", "new-position", "rules")


def test_help_explains_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for command in _COMMANDS:
        assert command in out
    assert "exit status: 0 ok, 1 illegal action" in out
    assert "examples:" in out


@pytest.mark.parametrize("command", _COMMANDS)
def test_each_command_has_help_with_examples(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([command, "--help"]) == 0
    out = capsys.readouterr().out
    assert f"usage: sequence-stacks {command}" in out
    assert "examples:" in out
    assert f"sequence-stacks {command}" in out.split("examples:")[1] or command == "rules"


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    # The version, then which engine runs (compiled or pure Python, and why; #16).
    out = capsys.readouterr().out.strip()
    assert out.split(",")[0] == f"sequence-stacks {__version__}"
    assert "engine" in out


def test_a_command_is_required(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "required: COMMAND" in capsys.readouterr().err


def test_module_entry_point_prints_help() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "sequence_stacks.cli", "--help"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert completed.returncode == 0
    assert "selfplay" in completed.stdout
    assert completed.stderr == ""


# --- watch ------------------------------------------------------------------------------


def _watch(capsys: pytest.CaptureFixture[str], *extra: str) -> str:
    code = main(["watch", "--players", "2", "--seed", "3", "--delay", "0", *extra])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return captured.out


def test_watch_tells_a_game_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    out = _watch(capsys, "--bots", "greedy,random")
    assert out.startswith("Sequence Stacks: 2 players\n")
    # The seed is told once the game is over, never while it is told (R36).
    playing, _, after = out.partition("Chips")
    assert "seed" not in playing.lower()
    assert after.rstrip().endswith(
        "Seed: 3 (with the same options, --seed 3 deals this game again)."
    )
    # Seats count from 1 for people, as in play and the browser (#15).
    assert "Player 1: Greedy" in out
    assert "Player 2: Random" in out
    assert "Turn 1: Player 1." in out
    assert "Player 0" not in out
    assert re.search(r"Player [12] wins after \d+ turns|No winner", out)
    assert "┃ Blue ┃ Red ┃ Chips ┃" in out
    assert re.search(r"│ +1 │ Greedy", out)
    assert "(winner)" in out or "No winner" in out
    # Cards in words, never the internal ids of the notation (B1#7).
    assert not re.search(r"#\d", out)


def test_every_game_command_takes_o_for_an_option(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    _watch(capsys, "-o", "max_turns=5", "--record", str(path))
    assert GameRecord.from_dict(json.loads(path.read_text())).settings.max_turns == 5
    assert main(["selfplay", "--games", "2", "--quiet", "--json", "-o", "max_turns=7"]) == 0
    assert json.loads(capsys.readouterr().out)["settings"]["max_turns"] == 7
    assert main(["new-position", "--players", "2", "-o", "max_turns=9"]) == 0
    assert '"max_turns": 9' in capsys.readouterr().out


@pytest.mark.parametrize("language", ["ko", "hi", "sl"])
def test_watch_speaks_the_chosen_language(
    capsys: pytest.CaptureFixture[str], language: str
) -> None:
    out = _watch(capsys, "--lang", language)
    set_language("en")
    words = translation(language)
    title = words.text("term.watch.title").split("{")[0].strip()
    assert title
    assert title in out
    assert words.text("term.watch.chips") in out
    assert "Turn 1" not in out
    assert "Chips" not in out


def test_watch_with_an_unknown_language_is_english(capsys: pytest.CaptureFixture[str]) -> None:
    out = _watch(capsys, "--lang", "xx")
    assert out.startswith("Sequence Stacks: 2 players\n")
    assert out.rstrip().endswith("Seed: 3 (with the same options, --seed 3 deals this game again).")


def test_watch_is_reproducible_with_a_seed(capsys: pytest.CaptureFixture[str]) -> None:
    assert _watch(capsys) == _watch(capsys)


def test_watch_shows_a_spectators_view_unless_revealed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    hidden = _watch(capsys)
    assert re.search(r"drew \d cards?\.", hidden)
    assert not re.search(r"(drew|dealt) \d cards?: ", hidden)
    revealed = _watch(capsys, "--reveal")
    assert re.search(r"was dealt 5 cards: (blue|red|Skip|Reverse|Steal|Block)", revealed)


def test_watch_saves_a_record_that_replays(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    out = _watch(capsys, "--record", str(path), "--option", "max_turns=400")
    assert f"record saved to {path}" in out
    record = GameRecord.from_dict(json.loads(path.read_text()))
    assert record.settings.max_turns == 400
    assert record.meta["bots"] == ["greedy", "greedy"]
    assert record.replay().result == record.result


def test_watch_without_a_seed_prints_the_one_it_chose(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["watch", "--players", "2", "--delay", "0"]) == 0
    out = capsys.readouterr().out.rstrip()
    assert re.search(
        r"\nSeed: (\d+) \(with the same options, --seed \1 deals this game again\)\.$", out
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "greedy,clever"], "unknown bot(s) 'clever'; known bots: random, greedy"),
        (["--option", "colour=3"], "unknown option 'colour'"),
        (["--option", "max_turns=lots"], "option max_turns takes a whole number"),
        (["--option", "max_turns"], "is not of the form name=value"),
        (["--option", "player_count=3"], "give the number of players with --players"),
        (["--players", "7"], "player_count=7 is outside 2-6 (R5)"),
        (["--delay", "-1"], "--delay must be zero or more seconds"),
        (["--players", "two"], "invalid int value: 'two'"),
    ],
)
def test_watch_refuses_bad_arguments(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["watch", *args]) == 2
    captured = capsys.readouterr()
    assert message in captured.err
    assert "Traceback" not in captured.err
    assert captured.out == ""


def test_watch_reports_an_unwritable_record(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "missing" / "game.json"
    assert main(["watch", "--players", "2", "--seed", "1", "--record", str(target)]) == 2
    assert f"error: cannot write '{target}'" in capsys.readouterr().err


# --- selfplay ---------------------------------------------------------------------------


def test_selfplay_prints_a_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--games", "6", "--players", "2", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "selfplay: 6 games, 2 players, bots greedy,random, seed 0" in out
    for label in ("stalemates (R33)", "max_turns endings (R33)", "mean turns", "games/s"):
        assert label in out
    assert "By seat" in out
    assert "By bot" in out
    assert re.search(r"greedy\s+│\s+6 │", out)


def test_selfplay_json_summary(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["selfplay", "--games", "8", "--players", "3", "--bots", "greedy,random", "--json"]
    assert main([*args, "--seed", "5"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 8
    assert data["seed"] == 5
    assert data["bot_names"] == ["greedy", "random"]
    assert data["settings"]["player_count"] == 3
    assert len(data["seats"]) == 3
    assert sum(seat["wins"] for seat in data["seats"]) == data["wins"]
    assert data["wins"] + data["stalemates"] + data["max_turns"] == 8
    assert data["bots"]["greedy"]["played"] + data["bots"]["random"]["played"] == 24
    low, high = data["bots"]["greedy"]["ci95"]
    assert 0.0 <= low <= data["bots"]["greedy"]["rate"] <= high <= 1.0
    assert data["games_per_second"] > 0


def test_selfplay_saves_each_record(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    folder = tmp_path / "records"
    args = ["selfplay", "--games", "3", "--players", "2", "--records", str(folder), "--json"]
    assert main(args) == 0
    capsys.readouterr()
    paths = sorted(folder.iterdir())
    assert [path.name for path in paths] == [f"game-0000{i}.json" for i in range(3)]
    for path in paths:
        record = GameRecord.from_dict(json.loads(path.read_text()))
        assert record.replay().result == record.result


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--games", "0"], "--games must be at least 1"),
        (["--bots", ""], "unknown bot(s) ''"),
        (["--option", "hand_size=0"], "hand_size=0 is outside 1-10 (R6)"),
    ],
)
def test_selfplay_refuses_bad_arguments(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["selfplay", "--quiet", *args]) == 2
    assert message in capsys.readouterr().err


# --- rules ------------------------------------------------------------------------------


def test_rules_lists_every_option_with_its_default(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    for name in OPTION_RULES:
        assert name in out
    assert re.search(r"max_turns\s+│ 2000\s+│ R33", out)
    assert re.search(r"refill_at_turn_start\s+│ true\s+│ R13", out)


def test_rules_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data) == list(OPTION_RULES)
    assert data["chip_supply"] == {
        "default": 20,
        "rule": "R3/R17",
        "help": OPTION_RULES["chip_supply"][1],
    }


def test_serve_help_shows_every_default(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--help"]) == 0
    out = capsys.readouterr().out
    # Each option's help: from its line ("  --name ...") to the next option's.
    helps = {
        block.split()[0]: " ".join(block.split())
        for block in re.split(r"\n(?=  -)", out[out.index("options:") :])[1:]
    }
    for option, default in (
        ("--host", "127.0.0.1"),
        ("--port", "8000"),
        ("--turn-timeout", "90"),
        ("--block-timeout", "5"),
        ("--grace-period", "60"),
        ("--bot-delay", "0.5,1.2"),
        ("--log-level", "warning"),
        ("--workers", "1"),
        ("--log-format", "text"),
        ("--review-workers", "1"),
    ):
        assert "default" in helps[option], helps[option]
        assert default in helps[option], helps[option]


@pytest.mark.parametrize(
    ("argv", "env", "said"),
    [
        (["--review-workers", "0"], {}, "review_workers is 1-64, not 0"),
        (["--turn-timeout", "-1"], {}, "turn_timeout must be positive"),
        (["--bot-delay", "soon"], {}, "--bot-delay is low,high in seconds, not 'soon'"),
        ([], {"SEQUENCE_STACKS_REVIEW_BACKLOG": "lots"}, "SEQUENCE_STACKS_REVIEW_BACKLOG='lots'"),
    ],
)
def test_serve_refuses_a_bad_setting_in_one_line_and_starts_nothing(
    argv: list[str],
    env: dict[str, str],
    said: str,
    *,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    database = tmp_path / "never.sqlite3"
    assert main(["serve", "--db", str(database), "--port", "0", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("sequence-stacks serve: "), err
    assert said in err, err
    assert err.count("\n") == 1, err  # one line, no traceback
    assert not database.exists()


def test_watch_in_hindi_draws_its_table_in_terminal_cells(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # A Devanagari vowel sign such as U+093E takes a cell in a terminal (wcwidth, tmux);
    # the chips table is laid out so, its borders in one column (#14).
    out = _watch(capsys, "--lang", "hi")
    set_language("en")
    table = [line for line in out.splitlines() if line and line[0] in "┏┃┡│└"]
    assert len(table) == 6
    use_terminal_widths()  # measure as the terminal does (tests/tui/test_cells.py)
    widths = {cell_len(line) for line in table}
    assert len(widths) == 1, table
