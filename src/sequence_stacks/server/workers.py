"""``serve --workers N``: N worker processes on one machine, and their logs (#17).

Each worker is a whole server (``python -m sequence_stacks.server``) on its own port,
``--port``, ``--port + 1`` ... (docs/deploy.md: a proxy such as HAProxy in front,
hashing on the table id). They share one PostgreSQL database and own tables through
advisory locks (``ownership.py``), so the same command may run on several machines.
This parent process only starts them, restarts one that dies (its tables are taken
over by the others meanwhile) and passes SIGTERM/SIGINT on, waiting for each to
release its tables and stop.
"""

from __future__ import annotations

import argparse
import json
import logging
import signal
import subprocess
import sys
import time
from typing import Any, Final

from .config import ServerSettings

__all__ = ["JsonFormatter", "configure_logging", "run_workers", "worker_command"]

RESTART_DELAY: Final = 1.0  # seconds before a worker that died is started again
MAX_RESTART_DELAY: Final = 60.0  # the longest wait for one that keeps dying at start
MIN_UPTIME: Final = 10.0  # seconds a worker must have run for its restart to be quick
STOP_TIMEOUT: Final = 30.0  # seconds a worker has to stop after SIGTERM


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, worker, message and, when the line is
    about a table (``"table %s: ..."`` or ``extra={"table": ...}``), its id."""

    def __init__(self, worker: str) -> None:
        super().__init__()
        self.worker = worker

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "ts": round(record.created, 3),
            "level": record.levelname.lower(),
            "worker": self.worker,
            "logger": record.name,
            "msg": record.getMessage(),
        }
        table = getattr(record, "table", None)
        if table is None and isinstance(record.msg, str) and record.msg.startswith("table %s"):
            args = record.args
            if isinstance(args, tuple) and args:
                table = args[0]
        if table is not None:
            line["table"] = str(table)
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


def configure_logging(worker: str, level: str) -> None:
    """Send the server's own log (``sequence_stacks.server``) to stderr as JSON lines."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter(worker))
    logger = logging.getLogger("sequence_stacks.server")
    logger.handlers[:] = [handler]
    logger.setLevel(max(logging.INFO, logging.getLevelName(level.upper()) or logging.INFO))
    logger.propagate = False


def worker_command(args: argparse.Namespace, settings: ServerSettings, index: int) -> list[str]:
    """The command line of worker ``index`` (0-based): this serve's options, its port."""
    command = [sys.executable, "-m", "sequence_stacks.server", "--workers", "1"]
    command += ["--host", settings.host, "--port", str(settings.port + index)]
    command += ["--db", settings.database, "--worker-name", f"w{index + 1}"]
    for name in ("turn_timeout", "block_timeout", "grace_period"):
        command += [f"--{name.replace('_', '-')}", str(getattr(settings, name))]
    bot_delay = getattr(args, "bot_delay", None)
    if bot_delay:
        command += ["--bot-delay", str(bot_delay)]
    for origin in settings.allowed_origins:
        command += ["--allowed-origin", origin]
    for name in ("public_url", "smtp_url", "mail_from", "vapid_key"):
        if getattr(settings, name):
            command += [f"--{name.replace('_', '-')}", str(getattr(settings, name))]
    command += ["--log-level", str(getattr(args, "log_level", "warning"))]
    command += ["--log-format", str(getattr(args, "log_format", None) or "json")]
    return command


def run_workers(args: argparse.Namespace, settings: ServerSettings, count: int) -> int:
    """Run ``count`` workers until SIGTERM/SIGINT; restart any that dies meanwhile.

    On SIGTERM or SIGINT each worker is sent SIGTERM (it hands its tables over and
    exits) and waited for, killed after :data:`STOP_TIMEOUT`; the status is 0 when
    every worker stopped by itself with status 0, else 1."""
    stopping = False

    def stop(signum: int, frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    commands = [worker_command(args, settings, index) for index in range(count)]
    processes = [subprocess.Popen(command) for command in commands]
    started = [time.monotonic()] * count
    delays = [0.0] * count
    restart_at: list[float | None] = [None] * count
    for index in range(count):
        port = settings.port + index
        print(f"worker w{index + 1}: http://{settings.host}:{port}/", flush=True)
    while not stopping:
        time.sleep(0.2)
        now = time.monotonic()
        for index, process in enumerate(processes):
            due = restart_at[index]
            if due is not None:
                if now >= due and not stopping:
                    processes[index] = subprocess.Popen(commands[index])
                    started[index], restart_at[index] = now, None
            elif process.poll() is not None:
                # One that keeps dying at start waits longer each time (up to a minute).
                delays[index] = _next_delay(delays[index], now - started[index])
                restart_at[index] = now + delays[index]
                print(
                    f"worker w{index + 1} exited ({process.returncode}); "
                    f"restarting in {delays[index]:g} s",
                    flush=True,
                )
    return _stop_all(processes)


def _next_delay(previous: float, uptime: float) -> float:
    """The wait before a restart: :data:`RESTART_DELAY`, doubled (up to
    :data:`MAX_RESTART_DELAY`) each time the worker died soon after it started."""
    if uptime >= MIN_UPTIME:
        return RESTART_DELAY
    return min(MAX_RESTART_DELAY, max(RESTART_DELAY, previous * 2))


def _stop_all(processes: list[subprocess.Popen[bytes]]) -> int:
    """SIGTERM every worker still running, wait for each; 0 if all stopped cleanly."""
    for process in processes:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + STOP_TIMEOUT
    status = 0
    for index, process in enumerate(processes):
        try:
            code = process.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            process.kill()
            code = process.wait()
            print(f"worker w{index + 1} killed after {STOP_TIMEOUT:g} s", flush=True)
        print(f"worker w{index + 1} stopped ({code})", flush=True)
        status = status or (0 if code == 0 else 1)
    return status
