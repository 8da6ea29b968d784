"""``serve --workers N`` (#17): the worker command lines, the refusal without
PostgreSQL, the JSON log lines that carry the worker and the table id, and the real
command run with its workers supervised (restarted after SIGKILL, stopped on SIGTERM)."""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from sequence_stacks.server.config import ServerSettings
from sequence_stacks.server.serve import add_serve_parser, run_serve
from sequence_stacks.server.workers import JsonFormatter, worker_command
from support.cluster import Proxy
from support.postgres import fresh_schema
from support.server_process import free_port, get_json, wait_until


def _args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_serve_parser(parser.add_subparsers(dest="command"))
    return parser.parse_args(["serve", *argv])


def test_each_worker_gets_its_own_port_and_name_and_the_same_database() -> None:
    args = _args("--workers", "3", "--port", "9000", "--db", "postgresql://u@h/db")
    settings = ServerSettings(port=9000, database="postgresql://u@h/db", block_timeout=5.0)
    commands = [worker_command(args, settings, index) for index in range(3)]
    for index, command in enumerate(commands):
        assert command[command.index("--port") + 1] == str(9000 + index)
        assert command[command.index("--worker-name") + 1] == f"w{index + 1}"
        assert command[command.index("--db") + 1] == "postgresql://u@h/db"
        assert command[command.index("--workers") + 1] == "1"
        assert command[command.index("--block-timeout") + 1] == "5.0"
        assert command[command.index("--log-format") + 1] == "json"


def test_workers_need_postgresql(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_serve(_args("--workers", "2", "--db", "memory")) == 2
    assert "postgresql" in capsys.readouterr().err


def test_workers_on_an_unreachable_database_stop_at_start_with_one_line() -> None:
    """The parent tries the database before starting any worker (it used to start
    them, and restart each as it failed, for ever)."""
    url = f"postgresql://nobody@127.0.0.1:{free_port()}/nothing"
    command = [str(Path(sys.executable).with_name("sequence-stacks")), "serve", "--workers", "2"]
    started = subprocess.run(
        [*command, "--port", str(free_port()), "--db", url],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert started.returncode == 2
    lines = started.stderr.strip().splitlines()
    assert len(lines) == 1, started.stderr
    assert "cannot connect to postgresql://" in lines[0]
    assert "worker" not in started.stdout


def test_a_log_line_about_a_table_names_it() -> None:
    formatter = JsonFormatter("w2")
    record = logging.LogRecord(
        "sequence_stacks.server", logging.WARNING, __file__, 1, "table %s: taken", ("T1",), None
    )
    line = json.loads(formatter.format(record))
    assert line["worker"] == "w2"
    assert line["table"] == "T1"
    assert line["msg"] == "table T1: taken"
    other = logging.LogRecord("x", logging.INFO, __file__, 1, "started %d", (3,), None)
    assert "table" not in json.loads(formatter.format(other))


def _two_free_ports() -> int:
    """A port P with P and P + 1 both free (``serve --workers 2 --port P`` uses both)."""
    for _ in range(50):
        port = free_port()
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port + 1))
            except OSError:
                continue
        return port
    raise AssertionError("no two free ports in a row")


def _children(pid: int) -> dict[str, int]:
    """The worker processes of a ``serve --workers`` parent: name -> pid."""
    found: dict[str, int] = {}
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            stat = (proc / "stat").read_text()
            if int(stat.rsplit(")", 1)[1].split()[1]) != pid:  # the parent's pid
                continue
            argv = (proc / "cmdline").read_bytes().split(b"\0")
            if b"--worker-name" in argv:
                found[argv[argv.index(b"--worker-name") + 1].decode()] = int(proc.name)
    return found


def _alive(pid: int) -> bool:
    return Path(f"/proc/{pid}").exists()


def _healthy(port: int, name: str) -> bool:
    status, body = get_json(f"http://127.0.0.1:{port}/api/health")
    return status == 200 and body.get("worker") == name


@pytest.mark.timeout(120)
def test_serve_workers_starts_restarts_and_stops_its_workers(tmp_path: Path) -> None:
    """The real ``sequence-stacks serve --workers 2``: both workers answer on their
    ports (and behind the proxy); a worker killed with SIGKILL is started again; on
    SIGTERM the parent stops both workers (each exits 0) and exits 0 itself."""
    port = _two_free_ports()
    command = [str(Path(sys.executable).with_name("sequence-stacks")), "serve", "--workers", "2"]
    log_path = tmp_path / "serve.log"
    seen: set[int] = set()
    with fresh_schema() as url, log_path.open("ab") as log:
        command += ["--host", "127.0.0.1", "--port", str(port), "--db", url]
        parent = subprocess.Popen(command, stdout=log, stderr=log)
        proxy = Proxy([port, port + 1], tmp_path)
        try:
            wait_until(lambda: _healthy(port, "w1") and _healthy(port + 1, "w2"), "both up", 30)
            workers = _children(parent.pid)
            seen.update(workers.values())
            assert sorted(workers) == ["w1", "w2"]
            proxy.start()
            table = proxy.post("/api/tables", {"options": {"player_count": 2}})["id"]
            proxy.post(f"/api/tables/{table}/seats", {"name": "Ann"})
            os.kill(workers["w1"], signal.SIGKILL)
            wait_until(
                lambda: _children(parent.pid).get("w1") not in (None, workers["w1"]),
                "w1 started again",
                20,
            )
            seen.update(_children(parent.pid).values())
            wait_until(lambda: _healthy(port, "w1"), "the new w1 answers", 30)
            assert _children(parent.pid)["w2"] == workers["w2"]
            proxy.post(f"/api/tables/{table}/seats", {"name": "Bob"})  # still served
            parent.send_signal(signal.SIGTERM)
            assert parent.wait(timeout=40) == 0
            assert not any(_alive(pid) for pid in seen)
        finally:
            proxy.stop()
            if parent.poll() is None:
                parent.kill()
                parent.wait()
            for pid in seen:
                if _alive(pid):
                    os.kill(pid, signal.SIGKILL)
    output = log_path.read_text()
    assert "worker w1 exited (-9); restarting" in output
    assert "worker w1 stopped (0)" in output
    assert "worker w2 stopped (0)" in output
