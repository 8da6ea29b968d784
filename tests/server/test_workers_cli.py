"""``serve --workers N`` (#17): the worker command lines, the refusal without
PostgreSQL, and the JSON log lines that carry the worker and the table id."""

from __future__ import annotations

import argparse
import json
import logging

import pytest

from sequence_stacks.server.config import ServerSettings
from sequence_stacks.server.serve import add_serve_parser, run_serve
from sequence_stacks.server.workers import JsonFormatter, worker_command


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
