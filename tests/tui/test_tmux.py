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

from sequence_stacks.engine import ActionType
from sequence_stacks.tui import load_record

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

DEADLINE_SECONDS = 30.0


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
        assert re.search(r"Turn \d+: Player 1\.", text)
        terminal.send("save", "Enter")
        terminal.wait_for(r"Saved to game\.json")
        terminal.send("quit", "Enter")
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
        terminal.wait_for("Player 0 to play")
        for turn in (3, 5):
            terminal.send("1")
            terminal.wait_for("pick a target")
            terminal.send("x")
            terminal.wait_for(f"Turn {turn} · Player 0 to play")
        terminal.send("?")
        terminal.wait_for("THE RULES")
        terminal.send("Escape")
        terminal.wait_for("YOUR HAND")
        terminal.send("s")
        terminal.wait_for("Saved to game.json")
        terminal.send("q")
        terminal.wait_closed()
    finally:
        terminal.close()
    record = load_record(tmp_path / "game.json")
    discards = [a for seat, a in record.actions if seat == 0 and a.type == ActionType.DISCARD]
    assert len(discards) == 2


@pytest.mark.parametrize(
    ("language", "word"),
    [("hi", "खिलाड़ी"), ("ko", "플레이어")],  # "player" in the seat names of the log
)
def test_the_game_in_hindi_and_korean_at_80x24(tmp_path: Path, language: str, word: str) -> None:
    command = [*_play_command(), "--players", "2", "--seed", "3", "--lang", language]
    terminal = Terminal([*command, "--bot-delay", "0"], tmp_path, size=(80, 24))
    try:
        text = terminal.wait_for(word)
        for _ in range(2):
            terminal.send("1")
            terminal.send("x")
            text = terminal.wait_for(word)
        time.sleep(0.5)
        text = terminal.screen()
        lines = text.splitlines()
        assert word in text
        assert len(lines) <= 24
        # The footer's first keys (help, quit) are whole on the last line.
        footer = lines[-1]
        assert footer.lstrip().startswith("? "), footer
        assert re.search(r"\bq \S", footer), footer
        terminal.send("q")
        terminal.wait_closed()
    finally:
        terminal.close()
