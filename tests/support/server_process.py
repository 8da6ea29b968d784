"""A real server process (``python -m sequence_stacks.server``) on 127.0.0.1, for tests
that kill, stop and restart it or need real HTTP and WebSocket sockets.

One class serves the live server tests (tests/server/live.py), the workers behind
HAProxy (support/cluster.py) and the browser tests (tests/e2e/conftest.py).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

__all__ = ["START_TIMEOUT", "ServerProcess", "free_port", "get_json", "post_json", "wait_until"]

START_TIMEOUT: Final = 30.0  # seconds a server has to answer its health check
STOP_TIMEOUT: Final = 15.0  # seconds a server has to exit after SIGTERM


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def get_json(url: str, timeout: float = 2.0) -> tuple[int, dict[str, Any]]:
    """GET a JSON document: its status and body (an empty body for an error status)."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, {}


def post_json(url: str, body: Mapping[str, Any], timeout: float = 5.0) -> dict[str, Any]:
    """POST a JSON body; return the JSON answer (an error status raises HTTPError)."""
    request = urllib.request.Request(
        url,
        data=json.dumps(dict(body)).encode(),
        headers={"content-type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=timeout) as response:
        data: dict[str, Any] = json.loads(response.read())
        return data


def wait_until(condition: Any, what: str, timeout: float = 20.0, every: float = 0.1) -> None:
    """Poll ``condition()`` until it is true; fail naming ``what`` after ``timeout``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError):
            if condition():
                return
        time.sleep(every)
    raise AssertionError(f"not within {timeout} s: {what}")


class ServerProcess:
    """The server in a subprocess on 127.0.0.1, restartable on the same database and
    port; its output is appended to ``log_path`` (``<database>.log`` by default)."""

    def __init__(
        self,
        database: str | Path,
        env: Mapping[str, str],
        *,
        log_path: Path | None = None,
        arguments: Sequence[str] = (),
    ) -> None:
        self.database = database
        self.port = free_port()
        self.env = {**os.environ, **env}
        self.arguments = list(arguments)
        if log_path is None:
            if not isinstance(database, Path):
                raise ValueError("a database URL needs a log_path")
            log_path = database.with_suffix(".log")
        self.log_path = log_path
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def command(self) -> list[str]:
        """The command line that starts this server."""
        command = [sys.executable, "-m", "sequence_stacks.server", "--host", "127.0.0.1"]
        return [*command, "--port", str(self.port), "--db", str(self.database), *self.arguments]

    def start(self) -> None:
        """Start the process; return once its health check answers 200."""
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(self.command(), env=self.env, stdout=log, stderr=log)
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            with contextlib.suppress(OSError):
                if self.health()[0] == 200:
                    return
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"the server did not start: {self.log_tail()}")

    def health(self) -> tuple[int, dict[str, Any]]:
        """``GET /api/health``: its status and body."""
        return get_json(f"{self.url}/api/health")

    def log_tail(self, size: int = 2000) -> str:
        """The end of the process's output, for a failure message."""
        return self.log_path.read_text(errors="replace")[-size:] if self.log_path.exists() else ""

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs at all."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def terminate(self) -> None:
        """SIGTERM, without waiting: the server shuts down gracefully."""
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)

    def stop(self) -> None:
        """SIGTERM and wait (SIGKILL after :data:`STOP_TIMEOUT`); nothing if not running."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def get(self, path: str) -> str:
        """GET a page or document as text."""
        with urllib.request.urlopen(f"{self.url}{path}", timeout=5) as response:
            text: str = response.read().decode()
            return text

    def post(self, path: str, body: Mapping[str, Any]) -> dict[str, Any]:
        """POST a JSON body; return the JSON answer."""
        return post_json(f"{self.url}{path}", body)
