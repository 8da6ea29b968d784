"""The app on a real uvicorn server (in this process), as ``serve`` runs it.

``app.py`` writes frames through uvicorn's ``websockets-sansio`` protocol object when it
can (``DirectWriter``) and falls back to plain ASGI sends otherwise. The fallback is
silent by design, so this test pins that the direct path really is taken on the server
``serve`` starts (a uvicorn upgrade that renamed what it relies on would fail here, not
just get slower) and that a client reads the same frames either way.
"""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn
from websockets.frames import Frame, Opcode
from websockets.sync.client import connect

from sequence_stacks.server import MemoryStorage, create_app
from sequence_stacks.server.web.transport import DirectWriter, _framed

from .harness import FAST, SHORT_GAME

pytestmark = pytest.mark.timeout(60)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
def base_url() -> Iterator[str]:
    port = _free_port()
    config = uvicorn.Config(
        create_app(FAST, storage=MemoryStorage()),
        host="127.0.0.1",
        port=port,
        ws="websockets-sansio",  # as serve.py runs it
        log_level="warning",
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive(), "uvicorn stopped while starting"
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    yield f"127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=20)


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        data: dict[str, Any] = json.loads(response.read())
        return data


def test_frames_go_out_in_one_direct_write_per_batch_on_uvicorn(
    base_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    batches: list[tuple[int, bool]] = []
    original = DirectWriter.write

    def spy(self: DirectWriter, texts: list[str]) -> bool:
        sent = original(self, texts)
        batches.append((len(texts), sent))
        return sent

    monkeypatch.setattr(DirectWriter, "write", spy)
    table = _post(f"http://{base_url}/api/tables", {"options": SHORT_GAME})["id"]
    seat = _post(f"http://{base_url}/api/tables/{table}/seats", {"name": "Ann"})
    with connect(f"ws://{base_url}/ws/{table}") as socket_:
        socket_.send(json.dumps({"type": "hello", "token": seat["token"], "last_version": None}))
        sync = json.loads(socket_.recv(timeout=10))
        assert sync["type"] == "sync"
        assert sync["you"] == seat["seat"]
        version = sync["version"]
        socket_.send(json.dumps({"type": "start", "id": "s-1", "version": version}))
        frames: list[dict[str, Any]] = []
        while not any(f["type"] == "update" and f.get("op") == "start" for f in frames):
            frames.append(json.loads(socket_.recv(timeout=10)))
    acks = [f for f in frames if f["type"] == "ack" and f["id"] == "s-1"]
    assert len(acks) == 1
    # Every frame the client read went out through the direct path, none via ASGI send.
    assert batches
    assert all(sent for _, sent in batches)
    assert sum(count for count, _ in batches) >= 1 + len(frames)


@pytest.mark.parametrize("length", [0, 5, 125, 126, 200, 65535, 65536, 70_000])
def test_the_direct_path_frames_text_as_websockets_does(length: int) -> None:
    """With no extension, the direct writer frames a text message itself (no frame
    object per message): byte for byte what ``websockets`` makes of it."""
    payload = ("é" * length).encode()[:length]
    assert _framed(payload) == Frame(Opcode.TEXT, payload).serialize(mask=False)
