"""`sequence-stacks simulate` as a real process: SIGTERM stops it like Ctrl-C (rows kept,
workers shut down), and its workers do not outlive a parent killed outright."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sequence_stacks.sim import read_results

pytestmark = pytest.mark.skipif(not Path("/proc/self").exists(), reason="needs Linux /proc")

_COMMAND = "from sequence_stacks.cli import main; raise SystemExit(main())"


def _start(out: Path) -> subprocess.Popen[bytes]:
    args = ["simulate", "--players", "2", "--bots", "random,random", "--games", "200000"]
    args += ["--workers", "2", "--quiet", "--out", str(out)]
    return subprocess.Popen(
        [sys.executable, "-c", _COMMAND, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def _children(pid: int) -> list[int]:
    text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    return [int(child) for child in text.split()]


def _running(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has stopped running


def _wait_for_rows(process: subprocess.Popen[bytes], out: Path) -> list[int]:
    """Wait (up to 60 s) until games are being written; return the worker pids."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert process.poll() is None, process.communicate()
        if out.exists() and out.read_text().count("\n") > 20:
            workers = [pid for pid in _children(process.pid) if _running(pid)]
            if len(workers) >= 2:
                return workers
        time.sleep(0.05)
    raise AssertionError("no rows were written within 60 s")


def _gone(pids: list[int], within_s: float) -> bool:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        if not any(_running(pid) for pid in pids):
            return True
        time.sleep(0.1)
    return False


def test_sigterm_stops_the_run_keeps_the_rows_and_shuts_the_workers_down(
    tmp_path: Path,
) -> None:
    out = tmp_path / "r.csv"
    process = _start(out)
    workers = _wait_for_rows(process, out)
    process.send_signal(signal.SIGTERM)
    try:
        _, err = process.communicate(timeout=60)
        assert process.returncode == 130, err  # stopped, as after Ctrl-C
        rows = read_results(out)
        assert 0 < len(rows) < 200_000
        assert len({(row["config_id"], row["game_index"]) for row in rows}) == len(rows)
        assert _gone(workers, within_s=30), "workers outlived the stopped run"
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
        _kill_all(workers)


def test_workers_exit_when_their_parent_is_killed_outright(tmp_path: Path) -> None:
    out = tmp_path / "r.csv"
    process = _start(out)
    workers = _wait_for_rows(process, out)
    process.send_signal(signal.SIGKILL)
    process.communicate(timeout=60)
    try:
        assert _gone(workers, within_s=30), "workers outlived a killed parent"
    finally:
        _kill_all(workers)


def _kill_all(pids: list[int]) -> None:
    """Leave nothing running whatever the outcome."""
    for pid in pids:
        if _running(pid):
            os.kill(pid, signal.SIGKILL)
