"""Worker processes on one PostgreSQL schema behind HAProxy with deploy/haproxy.cfg.

Without haproxy these tests skip on a developer's machine and fail in CI
(``CI=true``); scripts/test installs Debian's package when run as root.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import pytest
from websockets.sync.client import connect

from .live import LivePlayer, free_port

DEPLOY: Final = Path(__file__).resolve().parents[2] / "deploy" / "haproxy.cfg"


def haproxy() -> str:
    """The haproxy command; skips the test (fails it in CI) when it is missing."""
    found = shutil.which("haproxy") or shutil.which("/usr/sbin/haproxy")
    if found:
        return found
    message = "haproxy is not installed (apt-get install haproxy; scripts/test does as root)"
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


def _get(url: str) -> tuple[int, dict[str, Any]]:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, {}


class Worker:
    """``python -m sequence_stacks.server`` on a PostgreSQL URL, as worker ``name``."""

    def __init__(self, name: str, database: str, env: dict[str, str], logs: Path) -> None:
        self.name = name
        self.database = database
        self.port = free_port()
        self.env = {**os.environ, **env}
        self.log_path = logs / f"{name}.log"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        command = [sys.executable, "-m", "sequence_stacks.server", "--host", "127.0.0.1"]
        command += ["--port", str(self.port), "--db", self.database]
        command += ["--worker-name", self.name, "--log-format", "json", "--log-level", "info"]
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(command, env=self.env, stdout=log, stderr=log)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError):
                if self.health()[0] == 200:
                    return
            time.sleep(0.05)
        raise RuntimeError(f"{self.name} did not start: {self.log_path.read_text()[-2000:]}")

    def health(self) -> tuple[int, dict[str, Any]]:
        return _get(f"{self.url}/api/health")

    def owned(self) -> int:
        status, body = self.health()
        return int(body["tables"]) if status == 200 else 0

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class Proxy:
    """haproxy -f deploy/haproxy.cfg with two entry points in front of two workers."""

    def __init__(self, workers: list[Worker], logs: Path) -> None:
        self.entries = [free_port(), free_port()]
        self.env = {
            **os.environ,
            "SEQUENCE_STACKS_PROXY_BIND": ",".join(f"127.0.0.1:{p}" for p in self.entries),
            **{
                f"SEQUENCE_STACKS_WORKER_{index + 1}": f"127.0.0.1:{worker.port}"
                for index, worker in enumerate(workers)
            },
        }
        self.log_path = logs / "haproxy.log"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [haproxy(), "-db", "-f", str(DEPLOY)]
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(command, env=self.env, stdout=log, stderr=log)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError):
                if all(_get(f"{self.url(i)}/api/health")[0] == 200 for i in range(2)):
                    return
            time.sleep(0.1)
        raise RuntimeError(f"haproxy did not start: {self.log_path.read_text()[-2000:]}")

    def url(self, entry: int = 0) -> str:
        return f"http://127.0.0.1:{self.entries[entry]}"

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)

    def post(self, path: str, body: dict[str, Any], entry: int = 0) -> dict[str, Any]:
        """POST through an entry point, retried while no worker may take it (503)."""
        for _ in range(100):
            request = urllib.request.Request(
                f"{self.url(entry)}{path}",
                data=json.dumps(body).encode(),
                headers={"content-type": "application/json"},
                method="POST",
            )
            try:
                with urllib.request.urlopen(request, timeout=5) as response:
                    data: dict[str, Any] = json.loads(response.read())
                    return data
            except urllib.error.HTTPError as error:
                if error.code != 503:
                    raise
            time.sleep(0.2)
        raise AssertionError(f"POST {path} kept failing with 503")

    @contextlib.contextmanager
    def player(self, table_id: str, name: str, entry: int = 0) -> Iterator[LivePlayer]:
        url = f"ws://127.0.0.1:{self.entries[entry]}/ws/{table_id}"
        with connect(url, open_timeout=5) as connection:
            yield LivePlayer(connection, name)
