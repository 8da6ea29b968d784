"""Worker processes on one PostgreSQL schema behind HAProxy with deploy/haproxy.cfg.

Without haproxy these tests skip on a developer's machine and fail in CI
(``CI=true``); scripts/test installs Debian's package when run as root.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import shutil
import subprocess
import time
import urllib.error
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, Final

import pytest

from .postgres import fresh_schema
from .server_process import ServerProcess, free_port, get_json, post_json

__all__ = ["DEPLOY", "Cluster", "Proxy", "Worker", "haproxy", "running_cluster"]

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


class Worker(ServerProcess):
    """A server on a PostgreSQL URL as worker ``name``, logging JSON to ``<name>.log``."""

    def __init__(self, name: str, database: str, env: Mapping[str, str], logs: Path) -> None:
        arguments = ["--worker-name", name, "--log-format", "json", "--log-level", "info"]
        super().__init__(database, env, log_path=logs / f"{name}.log", arguments=arguments)
        self.name = name

    def owned(self) -> int:
        """How many tables the worker owns (0 when it does not answer)."""
        try:
            status, body = self.health()
        except OSError:
            return 0
        return int(body["tables"]) if status == 200 else 0


class Proxy:
    """haproxy -f deploy/haproxy.cfg with two entry points in front of two workers
    (their ``ports`` on 127.0.0.1)."""

    def __init__(self, ports: list[int], logs: Path) -> None:
        self.entries = [free_port(), free_port()]
        self.env = {
            **os.environ,
            "SEQUENCE_STACKS_PROXY_BIND": ",".join(f"127.0.0.1:{p}" for p in self.entries),
            **{
                f"SEQUENCE_STACKS_WORKER_{index + 1}": f"127.0.0.1:{port}"
                for index, port in enumerate(ports)
            },
        }
        self.log_path = logs / "haproxy.log"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start haproxy; return once both entry points reach a healthy worker."""
        command = [haproxy(), "-db", "-f", str(DEPLOY)]
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(command, env=self.env, stdout=log, stderr=log)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError):
                if all(get_json(f"{self.url(i)}/api/health")[0] == 200 for i in range(2)):
                    return
            time.sleep(0.1)
        raise RuntimeError(f"haproxy did not start: {self.log_path.read_text()[-2000:]}")

    def url(self, entry: int = 0) -> str:
        return f"http://127.0.0.1:{self.entries[entry]}"

    def ws_url(self, table_id: str, entry: int = 0) -> str:
        """A table's WebSocket address through an entry point."""
        return f"ws://127.0.0.1:{self.entries[entry]}/ws/{table_id}"

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)

    def post(self, path: str, body: Mapping[str, Any], entry: int = 0) -> dict[str, Any]:
        """POST through an entry point, retried while no worker may take it (503)."""
        for _ in range(100):
            try:
                return post_json(f"{self.url(entry)}{path}", body)
            except urllib.error.HTTPError as error:
                if error.code != 503:
                    raise
            time.sleep(0.2)
        raise AssertionError(f"POST {path} kept failing with 503")


@dataclasses.dataclass
class Cluster:
    """Two workers and the proxy in front of them, on one fresh schema (``database``)."""

    proxy: Proxy
    workers: list[Worker]
    database: str

    def owners(self) -> list[Worker]:
        """The workers that own at least one table."""
        return [worker for worker in self.workers if worker.owned() > 0]


@contextlib.contextmanager
def running_cluster(logs: Path, env: Mapping[str, str]) -> Iterator[Cluster]:
    """Start workers w1 and w2 and the proxy on a fresh schema; stop them all after."""
    haproxy()
    with fresh_schema() as url:
        workers = [Worker(f"w{i}", url, env, logs) for i in (1, 2)]
        proxy = Proxy([worker.port for worker in workers], logs)
        try:
            for worker in workers:
                worker.start()
            proxy.start()
            yield Cluster(proxy, workers, url)
        finally:
            proxy.stop()
            for worker in workers:
                worker.stop()
