"""One WebSocket per table and browser tab: the read loop (size, rate and heartbeat
limits) and the dispatch of each decoded command to the table service."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import assert_never

from starlette.websockets import WebSocket, WebSocketDisconnect

from sequence_stacks.server.config import ServerSettings
from sequence_stacks.server.play import Refusal, RefusalCode, TableService, commands
from sequence_stacks.server.play.protocol import refused_frame
from sequence_stacks.server.store import StorageUnavailableError

from .transport import RAW_SEND, Connection, DirectWriter, TokenBucket

__all__ = ["table_socket"]


async def table_socket(websocket: WebSocket) -> None:
    """``/ws/{table_id}``: accept, read until the client goes, then forget it."""
    settings: ServerSettings = websocket.app.state.settings
    service: TableService = websocket.app.state.service
    table_id = websocket.path_params["table_id"]
    await websocket.accept()
    connection = Connection(websocket, DirectWriter.of(websocket.scope.get(RAW_SEND)))
    writer = asyncio.create_task(connection.write())
    try:
        await _read(websocket, _Session(connection, service, table_id), settings)
    except WebSocketDisconnect:
        pass
    finally:
        await service.leave(table_id, connection)
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await writer


async def _read(websocket: WebSocket, session: _Session, settings: ServerSettings) -> None:
    """Read until the client goes; silence for three heartbeats closes the socket."""
    connection = session.connection
    try:
        async with asyncio.timeout(None) as deadline:
            with _Silence(3 * settings.heartbeat_interval, deadline) as silence:
                await _read_messages(websocket, session, settings, silence)
    except TimeoutError:
        await connection.close(1001, "no heartbeat")


async def _read_messages(
    websocket: WebSocket, session: _Session, settings: ServerSettings, silence: _Silence
) -> None:
    connection = session.connection
    bucket = TokenBucket(settings.rate_per_second, settings.rate_burst)
    # Turned-away messages are forgiven at the same rate: a client that floods past its
    # burst again and again within a few seconds is cut off, one that bursts now and
    # then over a long life is not.
    patience = TokenBucket(settings.rate_per_second, settings.rate_burst)
    # Told of every message: the post-game reviews wait while the tables are busy.
    activity: Callable[[], None] = getattr(websocket.app.state, "activity", _nothing)
    while True:
        silence.listen()
        message = await websocket.receive()
        silence.listening = False
        activity()
        if message["type"] == "websocket.disconnect":
            return
        data: str | bytes = message.get("text") or message.get("bytes") or b""
        if len(data) > settings.max_message_bytes and (
            isinstance(data, bytes) or len(data.encode()) > settings.max_message_bytes
        ):
            limit = settings.max_message_bytes
            refusal = Refusal(RefusalCode.TOO_LARGE, f"messages may be at most {limit} bytes")
            connection.send(refused_frame(refusal, None, -1))
            await connection.close(1009, "message too large")
            return
        if not bucket.take():
            if not patience.take():  # more than rate_burst turned away, net of forgiveness
                await connection.close(1008, "rate limit")
                return
            refusal = Refusal(RefusalCode.RATE_LIMITED, "too many messages; slow down")
            connection.send(refused_frame(refusal, None, -1))
            continue
        await session.handle(data)


def _nothing() -> None:
    """No one to tell of a message (an application with no reviews)."""


class _Silence:
    """The heartbeat deadline of one socket, checked by one timer per ``limit``
    rather than a timer made and cancelled for every message: each message only
    notes when the reader began to wait for it; when the timer finds the reader
    waiting for ``limit``, it moves the reader's ``deadline`` to now (TimeoutError)."""

    def __init__(self, limit: float, deadline: asyncio.Timeout) -> None:
        self.limit = limit
        self.deadline = deadline
        self.loop = asyncio.get_running_loop()
        self.last = self.loop.time()
        self.listening = False  # waiting for a message (not running one)
        self.timer: asyncio.TimerHandle | None = None

    def __enter__(self) -> _Silence:
        self.timer = self.loop.call_later(self.limit, self._check)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.timer is not None:
            self.timer.cancel()

    def listen(self) -> None:
        """The reader waits for the next message from now on."""
        self.listening = True
        self.last = self.loop.time()

    def _check(self) -> None:
        now = self.loop.time()
        quiet = now - self.last
        if self.listening and quiet >= self.limit:
            self.timer = None
            self.deadline.reschedule(now)
            return
        self.timer = self.loop.call_later(max(self.limit - quiet, 0.01), self._check)


class _Session:
    """What one socket has said: whether it greeted, and the table it is for."""

    def __init__(self, connection: Connection, service: TableService, table_id: str) -> None:
        self.connection = connection
        self.service = service
        self.table_id = table_id
        self.greeted = False

    async def handle(self, data: str | bytes) -> None:
        """Decode one message and run it; a refusal is answered to this socket."""
        client_id: str | None = None
        try:
            try:
                message = commands.decode(data)
            except Refusal:
                client_id = commands.client_id_of(data)
                raise
            if isinstance(message, commands.Command):
                client_id = message.id
            await self._dispatch(message)
        except Refusal as refusal:
            self.connection.send(refused_frame(refusal, client_id, -1))
            if refusal.code == RefusalCode.ELSEWHERE:  # another worker owns it: retry later
                self.connection.kick(1013, "the table is moving between workers; try again")
        except StorageUnavailableError:
            cut_off = Refusal(
                RefusalCode.UNAVAILABLE, "the database cannot be reached; try again shortly"
            )
            self.connection.send(refused_frame(cut_off, client_id, -1))

    async def _dispatch(self, message: commands.Message) -> None:
        service, table_id, connection = self.service, self.table_id, self.connection
        if isinstance(message, commands.Ping):
            connection.send({"type": "pong", "t": message.t})
            return
        if isinstance(message, commands.Hello):
            connection.notation = message.notation
            await service.hello(table_id, connection, message.token, message.last_version)
            self.greeted = True
            return
        if not self.greeted:
            raise Refusal(RefusalCode.HELLO_FIRST, "send a hello message first")
        match message:
            case commands.Sync(last_version=last_version):
                await service.sync(table_id, connection, last_version)
            case commands.Chat(phrase=phrase):
                await service.chat(table_id, connection, phrase)
            case commands.Hint():
                await service.hint(table_id, connection)
            case (
                commands.Act()
                | commands.AddBot()
                | commands.RemoveBot()
                | commands.Start()
                | commands.Leave()
            ):
                await service.command(table_id, connection, message)
            case _:
                assert_never(message)
