"""HTTP limits on the real server process (uvicorn): a body over the limit is refused
before it is read, and another site's page cannot open a table socket (#12.6, #12.8)."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect
from websockets.typing import Origin

from .live import LiveServer

pytestmark = pytest.mark.timeout(60)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    live = LiveServer(Path(tmp_path_factory.mktemp("live")) / "http.sqlite3", {})
    live.start()
    yield live
    live.stop()


def _exchange(server: LiveServer, head: str, body_parts: list[bytes]) -> tuple[int, bytes]:
    """Send a raw request (headers, then parts of a body) and read the status line.

    The socket times out after 5 s: a server waiting for the rest of the body
    would never answer and the test fails instead of hanging.
    """
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
        sock.sendall(head.encode())
        for part in body_parts:
            sock.sendall(part)
        response = b""
        while b"\r\n\r\n" not in response:
            chunk = sock.recv(4096)
            if not chunk:
                break
            response += chunk
        status = int(response.split(b" ", 2)[1])
        return status, response


def test_a_declared_64_mib_body_is_refused_without_reading_it(server: LiveServer) -> None:
    head = (
        "POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        "Content-Type: application/json\r\nContent-Length: 67108864\r\n\r\n"
    )
    status, response = _exchange(server, head, [b"{"])  # 1 byte of the 64 MiB is sent
    assert status == 413
    assert b"too_large" in response or b"content-length" in response.lower()


def test_a_chunked_body_is_refused_as_soon_as_it_passes_the_limit(server: LiveServer) -> None:
    head = (
        "POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    )
    chunk = b"400\r\n" + b" " * 1024 + b"\r\n"
    status, _ = _exchange(server, head, [chunk] * 8)  # 8 KiB and no final chunk
    assert status == 413


def test_a_table_socket_from_another_origin_is_refused(server: LiveServer) -> None:
    table = server.post("/api/tables", {})["id"]
    url = f"ws://127.0.0.1:{server.port}/ws/{table}"
    with (
        pytest.raises(InvalidStatus) as refused,
        connect(url, origin=Origin("http://evil.example")),
    ):
        pass
    assert refused.value.response.status_code == 403
    own = f"http://127.0.0.1:{server.port}"
    with connect(url, origin=Origin(own)) as websocket:
        websocket.send(json.dumps({"type": "ping", "t": 1}))
        assert json.loads(websocket.recv(timeout=5))["type"] == "pong"
