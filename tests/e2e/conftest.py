"""Browser tests: a real uvicorn server in a subprocess and Debian's chromium via Playwright."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class ServerProcess:
    """`python -m sequence_stacks.server` on 127.0.0.1, restartable on the same database."""

    def __init__(self, database: Path, env: dict[str, str]) -> None:
        self.database = database
        self.port = _free_port()
        self.env = {**os.environ, **env}
        self.process: subprocess.Popen[bytes] | None = None
        self.log = database.with_suffix(".log").open("ab")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        command = [sys.executable, "-m", "sequence_stacks.server"]
        command += ["--host", "127.0.0.1", "--port", str(self.port), "--db", str(self.database)]
        self.process = subprocess.Popen(command, env=self.env, stdout=self.log, stderr=self.log)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{self.url}/api/health", timeout=1) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the server did not start")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs at all."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()

    def get(self, path: str) -> str:
        with urllib.request.urlopen(f"{self.url}{path}", timeout=5) as response:
            text: str = response.read().decode()
            return text


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    env = {
        "SEQUENCE_STACKS_BOT_DELAY": "0.02,0.08",
        "SEQUENCE_STACKS_BOT_BLOCK_DELAY": "0.05,0.2",
        "SEQUENCE_STACKS_BLOCK_TIMEOUT": "30",
        "SEQUENCE_STACKS_TURN_TIMEOUT": "120",
        "SEQUENCE_STACKS_GRACE_PERIOD": "120",
    }
    process = ServerProcess(tmp_path / "e2e.sqlite3", env)
    process.start()
    yield process
    process.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI") == "true":
            pytest.fail("chromium is not installed (scripts/test installs it as root)")
        pytest.skip("Debian's chromium is not installed: apt-get install chromium")
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()
