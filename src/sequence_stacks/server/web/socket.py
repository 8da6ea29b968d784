"""One WebSocket per table and browser tab: the read loop, the socket's inbox (size,
rate and heartbeat limits, one message handled at a time, in order) and the dispatch
of each decoded command to the table service."""

from __future__ import annotations

import asyncio
import collections
import contextlib
from collections.abc import Callable
from typing import Final, assert_never

from starlette.websockets import WebSocket, WebSocketDisconnect

from sequence_stacks.server.config import ServerSettings
from sequence_stacks.server.play import Refusal, RefusalCode, TableService, commands
from sequence_stacks.server.play.protocol import refused_frame
from sequence_stacks.server.store import StorageUnavailableError

from .transport import RAW_SEND, Connection, DirectWriter, FastReader, TokenBucket

__all__ = ["table_socket"]

# Messages read but not yet handled, at most, in multiples of the rate limit's burst: a
# client that sends faster than its messages are handled this far is flooding.
BACKLOG_BURSTS: Final = 2


async def table_socket(websocket: WebSocket) -> None:
    """``/ws/{table_id}``: accept, read until the client goes, then forget it."""
    settings: ServerSettings = websocket.app.state.settings
    service: TableService = websocket.app.state.service
    table_id = websocket.path_params["table_id"]
    await websocket.accept()
    direct = DirectWriter.of(websocket.scope.get(RAW_SEND))
    connection = Connection(websocket, direct)
    writer = asyncio.create_task(connection.write())
    # Told of every message: the post-game reviews wait while the tables are busy.
    activity: Callable[[], None] = getattr(websocket.app.state, "activity", _nothing)
    inbox = _Inbox(_Session(connection, service, table_id), settings, activity)
    try:
        await _read(websocket, inbox, settings, direct)
    except WebSocketDisconnect:
        pass
    finally:
        await inbox.close()
        await service.leave(table_id, connection)
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await writer


async def _read(
    websocket: WebSocket, inbox: _Inbox, settings: ServerSettings, direct: DirectWriter | None
) -> None:
    """Read until the client goes (or the inbox closes the socket); silence for three
    heartbeats closes it. A plain text frame is read straight off the transport where
    the server allows it (:class:`FastReader`), anything else through ASGI: both go to
    the inbox, in the order they came."""
    try:
        async with asyncio.timeout(None) as deadline:
            with _Silence(3 * settings.heartbeat_interval, deadline) as silence:
                inbox.open(silence, deadline)
                reader = FastReader.attach(direct, inbox.put)
                try:
                    while not inbox.closing:
                        message = await websocket.receive()
                        if message["type"] == "websocket.disconnect":
                            return
                        inbox.put(message.get("text") or message.get("bytes") or b"")
                finally:
                    if reader is not None:
                        reader.detach()
    except TimeoutError:
        if inbox.error is not None:
            raise inbox.error from None
        if not inbox.closing:
            await inbox.session.connection.close(1001, "no heartbeat")


def _nothing() -> None:
    """No one to tell of a message (an application with no reviews)."""


class _Inbox:
    """A socket's messages, handled one at a time in the order they came, by a task
    that runs while there are any (none while the socket is idle).

    Each message is held to the size limit (too large: refused, then the socket
    closed) and the rate limit (over it: refused; a client that keeps flooding past
    its burst is cut off, and so is one whose unhandled messages pile up past
    :data:`BACKLOG_BURSTS` bursts). When the inbox closes the socket it ends the read
    loop through the loop's ``deadline``; an error it did not expect is raised there.
    """

    def __init__(
        self, session: _Session, settings: ServerSettings, activity: Callable[[], None]
    ) -> None:
        self.session = session
        self.settings = settings
        self.activity = activity
        self.pending: collections.deque[str | bytes] = collections.deque()
        self.limit = BACKLOG_BURSTS * settings.rate_burst
        self.bucket = TokenBucket(settings.rate_per_second, settings.rate_burst)
        # Turned-away messages are forgiven at the same rate: a client that floods past
        # its burst again and again within a few seconds is cut off, one that bursts
        # now and then over a long life is not.
        self.patience = TokenBucket(settings.rate_per_second, settings.rate_burst)
        self.task: asyncio.Task[None] | None = None
        self.closing = False  # the socket is being closed: nothing more is handled
        self.flooded = False
        self.error: Exception | None = None
        self.silence: _Silence | None = None
        self.deadline: asyncio.Timeout | None = None

    def open(self, silence: _Silence, deadline: asyncio.Timeout) -> None:
        """Start listening: the heartbeat's clock runs while the inbox is empty."""
        self.silence = silence
        self.deadline = deadline
        silence.listen()

    def put(self, data: str | bytes) -> None:
        """A message came: handle it after those before it."""
        if self.closing or self.flooded:
            return
        self.activity()
        if self.silence is not None:
            self.silence.listening = False
        if len(self.pending) >= self.limit:
            self.flooded = True  # cut off once the message under way is done
            self.pending.clear()
        else:
            self.pending.append(data)
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._run())

    async def close(self) -> None:
        """The socket is done: the message under way finishes, the rest are dropped."""
        self.closing = True
        self.pending.clear()
        task = self.task
        if task is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(task)

    async def _run(self) -> None:
        pending = self.pending
        try:
            while not self.closing:
                if self.flooded:
                    await self._close(1008, "rate limit")
                elif pending:
                    await self._handle(pending.popleft())
                    # Handled (committed, acknowledged, broadcast): the tables are busy
                    # until the last message of a burst is done, not just read.
                    self.activity()
                else:
                    break
        except Exception as error:  # raised in the read loop (see _read)
            self.error = error
            self._stop()
        finally:
            self.task = None
            if self.silence is not None and not self.closing:
                self.silence.listen()

    async def _handle(self, data: str | bytes) -> None:
        connection = self.session.connection
        settings = self.settings
        if len(data) > settings.max_message_bytes and (
            isinstance(data, bytes) or len(data.encode()) > settings.max_message_bytes
        ):
            limit = settings.max_message_bytes
            refusal = Refusal(RefusalCode.TOO_LARGE, f"messages may be at most {limit} bytes")
            connection.send(refused_frame(refusal, None, -1))
            await self._close(1009, "message too large")
            return
        if not self.bucket.take():
            if not self.patience.take():  # more than rate_burst turned away, net of forgiveness
                await self._close(1008, "rate limit")
                return
            refusal = Refusal(RefusalCode.RATE_LIMITED, "too many messages; slow down")
            connection.send(refused_frame(refusal, None, -1))
            return
        await self.session.handle(data)

    async def _close(self, code: int, reason: str) -> None:
        """Close the socket (after the frames queued for it) and end the read loop."""
        self.closing = True
        self.pending.clear()
        await self.session.connection.close(code, reason)
        self._stop()

    def _stop(self) -> None:
        """End the read loop now: its deadline is moved to now (it then finds
        ``closing`` or ``error`` set)."""
        self.closing = True
        if self.deadline is not None:
            with contextlib.suppress(RuntimeError):  # the loop has ended already
                self.deadline.reschedule(asyncio.get_running_loop().time())


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
