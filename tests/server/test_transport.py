"""A connection's writes and its heartbeat deadline (server/web/transport.py, socket.py),
and the serving process's collector policy (server/heap.py)."""

from __future__ import annotations

import asyncio
import dataclasses
import gc
from typing import Any, cast

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocket

from sequence_stacks.server import MemoryStorage, create_app
from sequence_stacks.server.heap import YOUNG_THRESHOLD, HeapKeeper
from sequence_stacks.server.web.transport import Connection, DirectWriter

from .harness import FAST, ClosedError, connect, create_table


class _Writer:
    """Stands in for the direct path: records each write; ``takes`` says whether the
    socket takes frames now (False: flow control, so the ASGI path must)."""

    def __init__(self) -> None:
        self.writes: list[list[str]] = []
        self.takes = True

    def write(self, texts: list[str]) -> bool:
        if not self.takes:
            return False
        self.writes.append(list(texts))
        return True


class _Socket:
    """Stands in for the ASGI WebSocket: records what the fallback path sends."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    async def send_text(self, text: str) -> None:
        self.sent.append(text)

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.sent.append(f"close {code}")


def _connection() -> tuple[Connection, _Writer, _Socket]:
    socket, writer = _Socket(), _Writer()
    connection = Connection(cast(WebSocket, socket), cast(DirectWriter, writer))
    return connection, writer, socket


def test_frames_of_one_round_go_out_in_one_write_with_no_task() -> None:
    async def run() -> list[list[str]]:
        connection, writer, socket = _connection()
        connection.send_text("ack")
        connection.send_text("update")
        assert writer.writes == []  # written at the end of the loop's round, together
        await asyncio.sleep(0)
        connection.send_text("next")
        await asyncio.sleep(0)
        assert socket.sent == []
        return writer.writes

    assert asyncio.run(run()) == [["ack", "update"], ["next"]]


def test_frames_the_socket_cannot_take_wait_in_order_for_the_writer_task() -> None:
    async def run() -> tuple[list[list[str]], list[str]]:
        connection, writer, socket = _connection()
        task = asyncio.create_task(connection.write())
        writer.takes = False
        connection.send_text("a")
        await asyncio.sleep(0)
        assert writer.writes == []
        connection.send_text("b")  # behind "a", which waits for the writer task
        await asyncio.sleep(0)
        assert writer.writes == []
        for _ in range(10):
            await asyncio.sleep(0)
        connection.send_text("c")
        await asyncio.sleep(0)
        connection.kick(1013, "moved")
        await asyncio.wait_for(task, 5)
        return writer.writes, socket.sent

    writes, sent = asyncio.run(run())
    assert sent == ["a", "b", "c", "close 1013"]  # by ASGI, in order, then closed
    assert writes == []


def test_the_writer_task_takes_the_direct_path_again_once_the_socket_takes_frames() -> None:
    async def run() -> tuple[list[list[str]], list[str]]:
        connection, writer, socket = _connection()
        task = asyncio.create_task(connection.write())
        writer.takes = False
        connection.send_text("a")
        await asyncio.sleep(0)
        writer.takes = True
        connection.send_text("b")
        for _ in range(10):
            await asyncio.sleep(0)
        connection.send_text("c")  # the queue is empty again: written at the round's end
        await asyncio.sleep(0)
        connection.kick(1013, "moved")
        await asyncio.wait_for(task, 5)
        return writer.writes, socket.sent

    writes, sent = asyncio.run(run())
    assert [text for batch in writes for text in batch] == ["a", "b", "c"]
    assert writes[-1] == ["c"]
    assert sent == ["close 1013"]


def test_a_silent_socket_is_closed_after_three_heartbeats_and_a_pinging_one_is_not() -> None:
    settings = dataclasses.replace(FAST, heartbeat_interval=0.1)
    with TestClient(create_app(settings, storage=MemoryStorage())) as client:
        table_id = create_table(client)
        with connect(client, table_id, "pinging") as pinging, connect(client, table_id) as silent:
            pinging.hello()
            silent.hello()
            for _ in range(8):  # 0.8 s: well past three intervals of silence
                pinging.send({"type": "ping", "t": 1})
                pinging.wait_for(lambda frame: frame["type"] == "pong")
                pinging.drain(0.1)
            with pytest.raises(ClosedError) as closed:
                silent.wait_for(lambda frame: False, timeout=5)
            assert closed.value.code == 1001
            assert pinging.closed is None


def test_the_heap_keeper_freezes_what_survives_each_collection() -> None:
    async def run() -> tuple[int, int, int]:
        keeper = HeapKeeper(full_every=3600)
        keeper.start()
        try:
            frozen = gc.get_freeze_count()
            made = 3 * YOUNG_THRESHOLD  # past the threshold
            kept: list[Any] = [[index] for index in range(made)]
            await asyncio.sleep(0)
            survivors = gc.get_freeze_count() - frozen
            assert len(kept) == made  # alive until counted
            keeper.full_collection()
            return keeper.collections, survivors, keeper.full_collections
        finally:
            keeper.stop()
            gc.unfreeze()

    thresholds = gc.get_threshold()
    collections, survivors, full = asyncio.run(run())
    assert collections >= 1
    assert survivors >= YOUNG_THRESHOLD  # the young lists lived through a collection: frozen
    assert full == 1
    assert gc.get_threshold() == thresholds


def test_a_full_collection_is_due_once_the_frozen_heap_has_doubled() -> None:
    keeper = HeapKeeper()
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        assert frozen > 2
        keeper.frozen_after_full = frozen
        assert not keeper.due()
        keeper.frozen_after_full = frozen // 3  # (frozen objects freed meanwhile leave)
        assert keeper.due()
    finally:
        gc.unfreeze()


def test_frames_wait_behind_those_the_writer_task_is_still_sending() -> None:
    """The socket takes frames again while the writer task still sends earlier ones by
    ASGI: a new frame waits for them rather than overtaking them by the direct path."""
    order: list[str] = []

    class _SlowSocket(_Socket):
        def __init__(self) -> None:
            super().__init__()
            self.gate = asyncio.Event()

        async def send_text(self, text: str) -> None:
            await self.gate.wait()
            order.append(text)

    class _LoggingWriter(_Writer):
        def write(self, texts: list[str]) -> bool:
            taken = super().write(texts)
            if taken:
                order.extend(texts)
            return taken

    async def run() -> None:
        socket, writer = _SlowSocket(), _LoggingWriter()
        connection = Connection(cast(WebSocket, socket), cast(DirectWriter, writer))
        task = asyncio.create_task(connection.write())
        writer.takes = False
        connection.send_text("a")
        for _ in range(3):
            await asyncio.sleep(0)  # the task has taken "a" and waits in send_text
        writer.takes = True
        connection.send_text("b")
        await asyncio.sleep(0)
        socket.gate.set()
        for _ in range(10):
            await asyncio.sleep(0)
        connection.kick(1013, "moved")
        await asyncio.wait_for(task, 5)

    asyncio.run(run())
    assert order == ["a", "b"]
