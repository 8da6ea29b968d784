"""A real server process (``python -m sequence_stacks.server``) and WebSocket players
over real sockets, for tests that kill and restart the server or need real HTTP."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from .harness import ClosedError, Frame, Player


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class LiveServer:
    """The server in a subprocess on 127.0.0.1, restartable on the same database."""

    def __init__(self, database: Path, env: dict[str, str]) -> None:
        self.database = database
        self.port = free_port()
        self.env = {**os.environ, **env}
        self.process: subprocess.Popen[bytes] | None = None
        self.log_path = database.with_suffix(".log")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        command = [sys.executable, "-m", "sequence_stacks.server", "--host", "127.0.0.1"]
        command += ["--port", str(self.port), "--db", str(self.database)]
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(command, env=self.env, stdout=log, stderr=log)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{self.url}/api/health", timeout=1) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"the server did not start: {self.log_path.read_text()[-2000:]}")

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

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        request = urllib.request.Request(
            f"{self.url}{path}",
            data=json.dumps(body).encode(),
            headers={"content-type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=5) as response:
            data: dict[str, Any] = json.loads(response.read())
            return data

    @contextlib.contextmanager
    def player(self, table_id: str, name: str) -> Iterator[LivePlayer]:
        """A connection to a table's socket, closed on leaving the block."""
        url = f"ws://127.0.0.1:{self.port}/ws/{table_id}"
        with connect(url, open_timeout=5) as connection:
            yield LivePlayer(connection, name)


class LivePlayer(Player):
    """The harness's player over a real WebSocket (``websockets``' sync client)."""

    def __init__(self, connection: ClientConnection, name: str = "") -> None:
        super().__init__(connection, name)  # type: ignore[arg-type]  # same interface used
        self.connection = connection

    def send(self, message: dict[str, Any]) -> None:
        self.connection.send(json.dumps(message))

    def poll(self, timeout: float) -> Frame | None:
        if self.closed is not None:
            raise ClosedError(self.closed)
        try:
            text = self.connection.recv(timeout=timeout)
        except TimeoutError:
            return None
        except ConnectionClosed as closed:
            self.closed = closed.rcvd.code if closed.rcvd is not None else 1006
            raise ClosedError(self.closed) from None
        assert isinstance(text, str)
        frame: Frame = json.loads(text)
        self.raw.append(text)
        self.frames.append(frame)
        self._track(frame)
        return frame
