"""The app on a real uvicorn server (in this process), as ``serve`` runs it.

``app.py`` writes frames through uvicorn's ``websockets-sansio`` protocol object when it
can (``DirectWriter``) and falls back to plain ASGI sends otherwise. The fallback is
silent by design, so this test pins that the direct path really is taken on the server
``serve`` starts (a uvicorn upgrade that renamed what it relies on would fail here, not
just get slower) and that a client reads the same frames either way.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn
from websockets.exceptions import ConnectionClosed
from websockets.frames import Frame, Opcode
from websockets.sync.client import connect

from sequence_stacks.server import MemoryStorage, ServerSettings, create_app
from sequence_stacks.server.web.transport import DirectWriter, FastReader, _framed

from .harness import FAST, SHORT_GAME

pytestmark = pytest.mark.timeout(60)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
def base_url() -> Iterator[str]:
    with _serving(FAST) as url:
        yield url


@contextlib.contextmanager
def _serving(settings: ServerSettings) -> Iterator[str]:
    port = _free_port()
    config = uvicorn.Config(
        create_app(settings, storage=MemoryStorage()),
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


# --- the direct read path (FastReader) ----------------------------------------------


def _frame(payload: bytes, *, opcode: int = 0x1, fin: bool = True) -> bytes:
    """A client's frame, masked as RFC 6455 5.3 wants (the mask random)."""
    return Frame(Opcode(opcode), payload, fin=fin).serialize(mask=True)


def _ping(t: int) -> bytes:
    return _frame(json.dumps({"type": "ping", "t": t}).encode())


def _pongs(socket_: Any, count: int) -> list[int]:
    """The next ``count`` pong frames' ``t``, in the order they came."""
    found: list[int] = []
    while len(found) < count:
        frame = json.loads(socket_.recv(timeout=10))
        if frame["type"] == "pong":
            found.append(frame["t"])
    return found


@pytest.fixture
def taken(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The messages the direct read path took (the rest went through ASGI)."""
    seen: list[str] = []
    original = FastReader._text

    def spy(self: FastReader, data: bytes) -> str | None:
        text = original(self, data)
        if text is not None:
            seen.append(text)
        return text

    monkeypatch.setattr(FastReader, "_text", spy)
    return seen


def test_a_whole_text_frame_is_read_straight_off_the_transport(
    base_url: str, taken: list[str]
) -> None:
    """A move, as browsers send it: one whole masked text frame per read (serve.py
    turns permessage-deflate off unless told: compressed frames take the ASGI path)."""
    table = _post(f"http://{base_url}/api/tables", {"options": SHORT_GAME})["id"]
    seat = _post(f"http://{base_url}/api/tables/{table}/seats", {"name": "Ann"})
    with connect(f"ws://{base_url}/ws/{table}", compression=None) as socket_:
        hello = json.dumps({"type": "hello", "token": seat["token"], "last_version": None})
        socket_.send(hello)
        assert json.loads(socket_.recv(timeout=10))["type"] == "sync"
        socket_.send("é" * 100)  # 200 bytes: a two-byte length; not JSON: refused
        frame = json.loads(socket_.recv(timeout=10))
        while frame["type"] == "presence":
            frame = json.loads(socket_.recv(timeout=10))
        assert frame["type"] == "error"
        assert frame["code"] == "bad_json"
    assert taken == [hello, "é" * 100]


def test_frames_split_or_packed_together_are_read_in_order(base_url: str, taken: list[str]) -> None:
    """Two frames in one read, a frame split over two reads, a message in two
    fragments, a ping of the protocol's own: all answered, in the order sent, with
    the reads that are not one whole text frame left to the ASGI path."""
    with connect(f"ws://{base_url}/ws/none", compression=None) as socket_:
        raw = socket_.socket
        raw.sendall(_ping(1) + _ping(2))  # two in one read
        assert _pongs(socket_, 2) == [1, 2]
        split = _ping(3)
        raw.sendall(split[:3])  # a frame over two reads, then a whole one behind it
        time.sleep(0.2)
        raw.sendall(split[3:])
        raw.sendall(_ping(4))
        assert _pongs(socket_, 2) == [3, 4]
        message = json.dumps({"type": "ping", "t": 5}).encode()
        raw.sendall(_frame(message[:4], fin=False))  # two fragments
        time.sleep(0.1)
        raw.sendall(_frame(message[4:], opcode=0x0))
        raw.sendall(_ping(6))
        assert _pongs(socket_, 2) == [5, 6]
        socket_.ping(b"are you there").wait(timeout=10)  # a control frame: the protocol's
        raw.sendall(_ping(7))
        assert _pongs(socket_, 1) == [7]
    # What reads the direct path took depends on how the kernel packed the writes
    # (4 and 6 may come in one read with the frame before them); 7 came alone.
    took = [json.loads(text)["t"] for text in taken]
    assert took == sorted(took)
    assert set(took) <= {4, 6, 7}
    assert 7 in took


def test_text_that_is_not_utf8_closes_the_socket(base_url: str, taken: list[str]) -> None:
    with connect(f"ws://{base_url}/ws/none", compression=None) as socket_:
        socket_.socket.sendall(_frame(b'{"type": "ping", "t": "\xff"}'))
        with pytest.raises(ConnectionClosed) as closed:
            socket_.recv(timeout=10)
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == 1007
    assert taken == []


def test_compressed_frames_take_the_asgi_path(base_url: str, taken: list[str]) -> None:
    """With permessage-deflate (``--compression``), every frame is the protocol's."""
    with connect(f"ws://{base_url}/ws/none") as socket_:  # the client asks to compress
        for t in range(3):
            socket_.send(json.dumps({"type": "ping", "t": t}))
        assert _pongs(socket_, 3) == [0, 1, 2]
    assert taken == []


def test_the_limits_hold_for_messages_read_straight_off_the_transport(taken: list[str]) -> None:
    """Through the direct reader as through ASGI: a silent socket is closed after three
    heartbeats while a pinging one is not, and a message past max_message_bytes (here
    in the two-byte length form the reader takes) is refused and its socket closed."""
    settings = dataclasses.replace(FAST, heartbeat_interval=0.1, max_message_bytes=300)
    with (
        _serving(settings) as url,
        connect(f"ws://{url}/ws/none", compression=None) as pinging,
        connect(f"ws://{url}/ws/none", compression=None) as silent,
    ):
        for t in range(8):  # 0.8 s: well past three intervals of silence
            pinging.send(json.dumps({"type": "ping", "t": t}))
            assert _pongs(pinging, 1) == [t]
            time.sleep(0.1)
        with pytest.raises(ConnectionClosed) as closed:
            silent.recv(timeout=5)
        assert closed.value.rcvd is not None
        assert closed.value.rcvd.code == 1001
        pinging.send(json.dumps({"type": "ping", "t": "x" * 400}))
        refused = json.loads(pinging.recv(timeout=10))
        assert refused["code"] == "too_large"
        with pytest.raises(ConnectionClosed) as too_large:
            pinging.recv(timeout=10)
        assert too_large.value.rcvd is not None
        assert too_large.value.rcvd.code == 1009
    assert len(taken) == 9  # the eight pings and the large one, all read directly
