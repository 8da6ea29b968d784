"""A real server process and WebSocket players over real sockets, for tests that kill
and restart the server or need real HTTP (the process itself: support/server_process.py)."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from support.server_process import ServerProcess, free_port

from .harness import ClosedError, Frame, Player

__all__ = ["LivePlayer", "LiveServer", "free_port", "live_player"]


@contextlib.contextmanager
def live_player(url: str, name: str) -> Iterator[LivePlayer]:
    """A connection to a table's socket at ``url`` (ws://...), closed on leaving."""
    with connect(url, open_timeout=5) as connection:
        yield LivePlayer(connection, name)


class LiveServer(ServerProcess):
    """The server in a subprocess, with players on its table sockets."""

    def player(self, table_id: str, name: str) -> contextlib.AbstractContextManager[LivePlayer]:
        """A connection to a table's socket, closed on leaving the block."""
        return live_player(f"ws://127.0.0.1:{self.port}/ws/{table_id}", name)


class LivePlayer(Player):
    """The harness's player over a real WebSocket (``websockets``' sync client)."""

    def __init__(self, connection: ClientConnection, name: str = "") -> None:
        super().__init__(connection, name)  # type: ignore[arg-type]  # same interface used
        self.connection = connection

    def send(self, message: dict[str, Any]) -> None:
        if self.closed is not None:
            raise ClosedError(self.closed)
        try:
            self.connection.send(json.dumps(message))
        except ConnectionClosed as closed:  # the server closed it first (e.g. 1012)
            self.closed = closed.rcvd.code if closed.rcvd is not None else 1006
            raise ClosedError(self.closed) from None

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
