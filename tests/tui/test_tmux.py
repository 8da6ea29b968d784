"""The real command in a real terminal: tmux runs it, send-keys types, capture-pane reads.

Each test starts its own tmux server (``-L``, no user config), runs the command the way a
user would, and polls the pane until the expected text shows (a generous deadline, never
a fixed sleep).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from rich.cells import cell_len

from sequence_stacks.engine import ActionType
from sequence_stacks.i18n import render, set_language
from sequence_stacks.tui import load_record
from sequence_stacks.tui.cells import use_terminal_widths

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

DEADLINE_SECONDS = 30.0
# The tmux server passes its own environment on to the command: without COLUMNS and
# LINES (pytest's terminal may set them), which would fix the app's size whatever the
# window's.
_SERVER_ENVIRONMENT = {
    key: value for key, value in os.environ.items() if key not in {"COLUMNS", "LINES"}
}


def _play_command() -> list[str]:
    """``sequence-stacks play`` if the CLI has it, else the same entry point via -m."""
    script = Path(sys.executable).with_name("sequence-stacks")
    if script.exists():
        probe = subprocess.run(
            [str(script), "play", "--help"], capture_output=True, text=True, check=False
        )
        if probe.returncode == 0:
            return [str(script), "play"]
    return [sys.executable, "-m", "sequence_stacks.tui"]


class Terminal:
    """One tmux server with one window (120x40 unless told) running one command."""

    def __init__(self, command: list[str], cwd: Path, *, size: tuple[int, int] = (120, 40)) -> None:
        self.socket = f"sequence-stacks-test-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        env = {"TERM": "xterm-256color", "LANG": "C.UTF-8"}
        width, height = (str(n) for n in size)
        self._tmux(
            "new-session", "-d", "-s", "play", "-x", width, "-y", height, "-c", str(cwd),
            *(f"-e{key}={value}" for key, value in env.items()),
            shlex.join(command),
        )  # fmt: skip

    def _tmux(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["tmux", "-L", self.socket, "-f", "/dev/null", *args],
            capture_output=True,
            text=True,
            check=check,
            env=_SERVER_ENVIRONMENT,
        )

    def send(self, *keys: str) -> None:
        """Type keys (tmux key names: Enter, Escape, or literal text)."""
        self._tmux("send-keys", "-t", "play", *keys)

    def screen(self, *, history: bool = False) -> str:
        """Return the pane's text (with the whole scrollback if ``history``)."""
        extra = ["-S", "-"] if history else []
        return self._tmux("capture-pane", "-p", "-t", "play", *extra).stdout

    def wait_for(self, pattern: str, *, history: bool = False, count: int = 1) -> str:
        """Poll the pane until ``pattern`` (a regex) shows ``count`` times; return it."""
        deadline = time.monotonic() + DEADLINE_SECONDS
        text = ""
        while time.monotonic() < deadline:
            text = self.screen(history=history)
            if len(re.findall(pattern, text)) >= count:
                return text
            time.sleep(0.05)
        raise AssertionError(f"{pattern!r} never showed; the pane shows:\n{text}")

    def wait_gone(self, pattern: str) -> None:
        """Poll the pane until ``pattern`` (a regex) no longer shows."""
        deadline = time.monotonic() + DEADLINE_SECONDS
        while time.monotonic() < deadline:
            if not re.search(pattern, self.screen()):
                return
            time.sleep(0.05)
        raise AssertionError(f"{pattern!r} never went; the pane shows:\n{self.screen()}")

    def wait_closed(self) -> None:
        """Poll until the command has exited (its tmux session is gone)."""
        deadline = time.monotonic() + DEADLINE_SECONDS
        while time.monotonic() < deadline:
            if self._tmux("has-session", "-t", "play", check=False).returncode != 0:
                return
            time.sleep(0.05)
        raise AssertionError(f"the command did not exit; the pane shows:\n{self.screen()}")

    def close(self) -> None:
        """Stop this test's tmux server."""
        self._tmux("kill-server", check=False)


def test_plain_mode_plays_a_few_turns_in_tmux(tmp_path: Path) -> None:
    command = [*_play_command(), "--plain", "--players", "2", "--seed", "3"]
    terminal = Terminal([*command, "--bot-delay", "0", "--save", "game.json"], tmp_path)
    try:
        text = terminal.wait_for(r"your move \(1-\d+", history=True)
        for turn in range(1, 4):
            # The move list puts discards last: the last number ends the turn.
            last = re.findall(r"your move \(1-(\d+)", text)[-1]
            terminal.send(last, "Enter")
            text = terminal.wait_for(r"your move \(1-\d+", history=True, count=turn + 1)
        assert re.search(r"Turn \d+: Player 2\.", text)  # seat 1, counted from 1
        terminal.send("save", "Enter")
        terminal.wait_for(r"Saved to game\.json")
        terminal.send("quit", "Enter")
        terminal.wait_for(r"Leave the game\?")
        terminal.send("x", "Enter")
        terminal.wait_closed()
    finally:
        terminal.close()
    record = load_record(tmp_path / "game.json")
    discards = [a for seat, a in record.actions if seat == 0 and a.type == ActionType.DISCARD]
    assert len(discards) == 3


def test_textual_interface_plays_a_few_turns_in_tmux(tmp_path: Path) -> None:
    command = [*_play_command(), "--players", "2", "--seed", "3"]
    terminal = Terminal([*command, "--bot-delay", "0", "--save", "game.json"], tmp_path)
    try:
        terminal.wait_for("YOUR HAND")
        terminal.wait_for("Player 1 to play")  # seat 0, counted from 1 for people
        for turn in (3, 5):
            terminal.send("1")
            terminal.wait_for("pick a target")
            terminal.send("x")
            terminal.wait_for(f"Turn {turn} · Player 1 to play")
        terminal.send("?")
        terminal.wait_for("THE RULES")
        terminal.send("Escape")
        terminal.wait_gone("THE RULES")  # YOUR HAND shows behind the help: not a sign
        terminal.send("s")
        terminal.wait_for("Saved to game.json")
        terminal.send("q")
        terminal.wait_for("Leave the game?")
        terminal.send("x")
        terminal.wait_closed()
    finally:
        terminal.close()
    record = load_record(tmp_path / "game.json")
    discards = [a for seat, a in record.actions if seat == 0 and a.type == ActionType.DISCARD]
    assert len(discards) == 2


@pytest.mark.parametrize("language", ["hi", "ko"])
def test_the_game_in_hindi_and_korean_at_80x24(tmp_path: Path, language: str) -> None:
    """The real command at 80x24: the status, piles, players, log, hand and footer are all
    on screen, nothing cut (every box's right edge in the last column, as tmux measures
    the Devanagari and Hangul cells); q asks, saves, and --load resumes the game (#14, #15)."""
    use_terminal_widths()  # cell_len counts as the terminal (test_cells.py checks it)
    set_language(language)
    try:
        expected = _screen_words(language)
    finally:
        set_language("en")
    command = [*_play_command(), "--players", "4", "--seed", "3", "--lang", language]
    terminal = Terminal([*command, "--bot-delay", "0"], tmp_path, size=(80, 24))
    try:
        terminal.wait_for(re.escape(expected["to_play"]))
        for turn in (5, 9):  # four players: Player 1 plays turns 1, 5, 9
            terminal.send("1")
            terminal.wait_for(re.escape(expected["pick_target"]))
            terminal.send("x")
            terminal.wait_for(re.escape(expected[f"turn{turn}"]))
        text = terminal.wait_for(re.escape(expected["log_turn9"]))
        _assert_whole(text, expected)
        terminal.send("q")
        terminal.wait_for(re.escape(expected["quit_ask"]))
        terminal.send("y")
        terminal.wait_closed()
    finally:
        terminal.close()
    record = load_record(tmp_path / "sequence-stacks-save.json")
    assert len([a for seat, a in record.actions if seat == 0]) == 2
    load = [*_play_command(), "--load", "sequence-stacks-save.json", "--lang", language]
    resumed = Terminal(load, tmp_path, size=(80, 24))
    try:
        resumed.wait_for(re.escape(expected["turn9"]))  # where the game was left
        resumed.send("q")
        resumed.send("x")
        resumed.wait_closed()
    finally:
        resumed.close()


def _screen_words(language: str) -> dict[str, str]:
    """What the screen must show, in ``language``'s words."""
    you = render("seat.numbered", number=1)
    words = {
        "to_play": render("term.status.to_play", player=you),
        "pick_target": render("term.key.drop"),
        "log_title": render("term.log"),
        "log_turn9": render("log.TurnStarted", player=you, turn=9).rstrip(".।"),
        "hand": render("term.hand.title"),
        "quit_ask": render("term.quit.ask"),
        "piles": render("term.piles.title"),
        "players": render("term.players.title"),
    }
    for turn in (5, 9):
        turn_words = render("term.status.turn", turn=turn)
        words[f"turn{turn}"] = f"{turn_words} · {words['to_play']}"
    for number in range(1, 5):
        words[f"player{number}"] = render("seat.numbered", number=number)
    for key in ("help", "quit", "save", "bot_speed"):
        words[f"key.{key}"] = render(f"term.key.{key}")
    return words


def _assert_whole(text: str, expected: dict[str, str]) -> None:
    lines = text.rstrip("\n").split("\n")
    assert len(lines) == 24, text
    for name, words in expected.items():
        if not name.startswith(("turn", "pick", "quit")):
            assert words in text, f"{name}: {words!r} is not on the screen:\n{text}"
    # The footer is the last line and holds every key it offers, the last one whole.
    footer = lines[-1].rstrip()
    assert footer.startswith("? "), footer
    assert footer.endswith(expected["key.bot_speed"]), footer
    assert cell_len(footer) <= 80
    # The log's box is closed on the right in the last column, on every one of its rows:
    # tmux counts the cells of each script as rich does, so nothing spills or is cut.
    box = [line for line in lines if line.startswith(("╭", "│", "╰"))]
    assert len(box) >= 4, text
    assert expected["log_title"] in box[0]
    for line in box:
        assert line.endswith(("╮", "│", "╯")), line
        assert cell_len(line) == 80, line
