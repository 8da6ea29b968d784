"""Connections and rate buckets: one WebSocket's outgoing queue and writer, the
direct write and read paths through uvicorn's ``websockets`` protocol, and the token
buckets that limit messages per connection and requests per client address."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Mapping
from typing import Any, Final

from starlette.websockets import WebSocket
from websockets.protocol import State

try:
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover - websockets built without its C part
    from websockets.utils import apply_mask

from sequence_stacks.server.config import ServerSettings
from sequence_stacks.server.play.codec import dumps

__all__ = [
    "RAW_SEND",
    "SEND_QUEUE_LIMIT",
    "AddressLimits",
    "Connection",
    "DirectWriter",
    "FastReader",
    "TokenBucket",
]

SEND_QUEUE_LIMIT: Final = 1000
RAW_SEND: Final = "sequence_stacks.raw_send"  # where the server's own send is kept
# Address buckets kept at most; idle (full) buckets are dropped beyond it.
ADDRESS_LIMIT: Final = 10_000


class TokenBucket:
    """A rate limit: ``rate`` takes a second on average, bursts of ``burst``."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        """Take one token; False (nothing taken) when the bucket is empty."""
        self._refill()
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def wait(self) -> float:
        """Seconds until the next take succeeds."""
        return max(0.0, (1 - self.tokens) / self.rate)

    def is_full(self) -> bool:
        """True when the bucket has recovered its whole burst (its owner is idle)."""
        self._refill()
        return self.tokens >= self.burst

    def _refill(self) -> None:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now


class AddressLimits:
    """Token buckets per client address and kind of request (tables created, seats
    taken), so one client cannot fill the database or the lobby (docs/server.md)."""

    def __init__(self, settings: ServerSettings) -> None:
        self.rates = {
            "create": (settings.create_per_minute / 60, settings.create_burst),
            "sit": (settings.sit_per_minute / 60, settings.sit_burst),
            "signup": (settings.signup_per_minute / 60, settings.signup_burst),
            "signin": (settings.signin_per_minute / 60, settings.signin_burst),
        }
        self.buckets: dict[tuple[str, str], TokenBucket] = {}

    def take(self, kind: str, address: str) -> float:
        """Take one request of ``kind``; 0.0 if allowed, else seconds to wait."""
        key = (kind, address)
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) >= ADDRESS_LIMIT:
                self._prune()
            bucket = self.buckets[key] = TokenBucket(*self.rates[kind])
        return 0.0 if bucket.take() else bucket.wait()

    def _prune(self) -> None:
        for key in [key for key, bucket in self.buckets.items() if bucket.is_full()]:
            del self.buckets[key]


class Connection:
    """One WebSocket: outgoing frames gathered for one write.

    Frames queued while the event loop runs its ready callbacks are written together
    when the table service says a change's frames are all queued (``flush``: an
    action's ack and its update in one write), or else at the end of that round:
    when the socket is served by uvicorn's ``websockets`` protocol and can take them,
    framed and handed to the transport in one write, with no task woken (see
    :class:`DirectWriter`); otherwise (the test client, a socket that is closing or
    paused by flow control) they go to a queue that a writer task sends one by one
    through ASGI, and later frames follow them there until it is empty. A connection
    is a table service ``Subscriber``: ``seat`` and ``token_hash`` are the service's
    to set.
    """

    def __init__(self, websocket: WebSocket, direct: DirectWriter | None = None) -> None:
        self.websocket = websocket
        self.direct = direct
        self.seat: int | None = None
        self.token_hash: str | None = None
        self.notation = False
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.pending: list[str] = []  # queued this round, written by _flush at its end
        self.sending = False  # the writer task is sending frames through ASGI
        self.loop = asyncio.get_running_loop()
        self.overflowed = False
        self.close_code = (1013, "too far behind; reconnect")

    def kick(self, code: int, reason: str) -> None:
        """Close the socket once the queued frames are out (the table moved away)."""
        if not self.overflowed:
            self._flush()
            self.overflowed = True
            self.close_code = (code, reason)
            self.queue.put_nowait(None)

    def send(self, frame: Mapping[str, Any]) -> None:
        """Queue one frame."""
        self.send_text(dumps(frame))

    def send_text(self, text: str) -> None:
        """Queue one frame already encoded (shared by many connections)."""
        if self.overflowed:
            return
        pending = self.pending
        pending.append(text)
        if len(pending) == 1:
            self.loop.call_soon(self._flush)

    def flush(self) -> None:
        """Write the frames queued so far now, not at the end of the loop's round (a
        change's frames are all queued: its ack and update go in one write)."""
        if self.pending:
            self._flush()

    def _flush(self) -> None:
        """Write this round's frames: directly if nothing waits for the writer task and
        the socket takes them, else behind what waits (dropping a client too far
        behind)."""
        texts, self.pending = self.pending, []
        if not texts or self.overflowed:
            return
        queue = self.queue
        idle = queue.empty() and not self.sending
        if idle and self.direct is not None and self.direct.write(texts):
            return
        for text in texts:
            if queue.qsize() >= SEND_QUEUE_LIMIT:
                self.overflowed = True  # a client this far behind is dropped; it will resync
                queue.put_nowait(None)
                return
            queue.put_nowait(text)

    async def write(self) -> None:
        """The writer task: send what the direct path could not, until told to close."""
        queue = self.queue
        while True:
            batch = [await queue.get()]
            while not queue.empty():
                batch.append(queue.get_nowait())
            texts = [text for text in batch if text is not None]
            if texts and not (self.direct is not None and self.direct.write(texts)):
                self.sending = True  # later frames wait behind these (see _flush)
                try:
                    for text in texts:
                        await self.websocket.send_text(text)
                finally:
                    self.sending = False
            if len(texts) < len(batch):
                await self.websocket.close(code=self.close_code[0], reason=self.close_code[1])
                return

    async def close(self, code: int, reason: str) -> None:
        """Close now, after letting queued frames (such as the error saying why) go."""
        self._flush()
        for _ in range(50):
            if self.queue.empty():
                break
            await asyncio.sleep(0.01)
        with contextlib.suppress(Exception):
            await self.websocket.close(code=code, reason=reason)


class DirectWriter:
    """Frames text messages with the connection's own ``websockets`` protocol object
    and writes them to the transport in one call, skipping the per-message ASGI path
    (Starlette's wrappers, uvicorn's ``send``, a transport write per frame).

    Only used when the ASGI ``send`` is a method of uvicorn's
    ``WebSocketsSansIOProtocol`` (``serve`` selects that implementation); anything
    else, and any socket that is closing or paused for flow control, takes the plain
    ASGI path. Frames are the same bytes either way (permessage-deflate included).
    """

    def __init__(self, protocol: Any) -> None:
        self.protocol = protocol

    @classmethod
    def of(cls, send: object) -> DirectWriter | None:
        """The direct writer of an ASGI ``send``, or None where there is none."""
        protocol = getattr(send, "__self__", None)
        if type(protocol).__name__ != "WebSocketsSansIOProtocol":
            return None
        if not all(hasattr(protocol, name) for name in _DIRECT_ATTRIBUTES):
            return None
        return cls(protocol)

    def write(self, texts: list[str]) -> bool:
        """Send ``texts`` as one write; False (nothing sent) if the ASGI path must.

        With no extension negotiated (permessage-deflate is off unless configured), a
        server's text frame is two to ten header bytes and the payload, unmasked
        (RFC 6455 5.2): framed here, without a frame object per message; otherwise the
        connection's own ``websockets`` protocol frames them.
        """
        protocol = self.protocol
        conn = protocol.conn
        if (
            protocol.close_sent
            or protocol.disconnected
            or not protocol.handshake_complete
            or not protocol.writable.is_set()
            or conn.state.name != "OPEN"
        ):
            return False
        if conn.extensions:
            for text in texts:
                conn.send_text(text.encode())
            protocol.transport.write(b"".join(conn.data_to_send()))
            return True
        protocol.transport.write(b"".join([_framed(text.encode()) for text in texts]))
        return True


class FastReader:
    """Reads a table socket's plain messages straight off the transport: the one path
    every move takes, with no parser object, event, queue or task wake-up between the
    bytes and the socket's inbox (``deliver``).

    Put in front of uvicorn's ``websockets`` protocol once the handshake is done (the
    transport then calls this object, which hands it everything it does not take). It
    takes only the common case, a chunk that is exactly one whole, final text frame
    of the client (RFC 6455 5.2: FIN, no reserved bits, the text opcode, masked as a
    client's must be, a length under 64 KiB) arriving while that protocol holds
    nothing half-read and no message of its own waits for the application; its payload
    is unmasked and checked as UTF-8 here. Anything else (a frame split over reads or
    several in one, a ping, a pong, a close, a fragment, binary, compressed or invalid
    text) goes to the protocol as before, which keeps its own state, answers control
    frames, closes on errors and queues what it reads for ``websocket.receive``: so
    both ways lead to the same inbox, in the order the frames came.
    """

    def __init__(self, protocol: Any, deliver: Callable[[str], None]) -> None:
        self.inner = protocol
        self.conn = protocol.conn
        self.reader_buffer = protocol.conn.reader.buffer
        self.queue = protocol.queue
        self.deliver = deliver
        self.transport = protocol.transport
        self.transport.set_protocol(self)

    @classmethod
    def attach(
        cls, direct: DirectWriter | None, deliver: Callable[[str], None]
    ) -> FastReader | None:
        """Read ``direct``'s socket this way, if it can be (else None: the ASGI way)."""
        if direct is None:
            return None
        protocol = direct.protocol
        transport = getattr(protocol, "transport", None)
        conn = getattr(protocol, "conn", None)
        if (
            transport is None
            or not hasattr(transport, "set_protocol")
            or not hasattr(protocol, "queue")
            or conn is None
            or not hasattr(conn, "current_size")
            or not isinstance(getattr(getattr(conn, "reader", None), "buffer", None), bytearray)
        ):
            return None
        return cls(protocol, deliver)

    def detach(self) -> None:
        """Give the transport back to the protocol."""
        if self.transport.get_protocol() is self:
            self.transport.set_protocol(self.inner)

    def data_received(self, data: bytes) -> None:
        text = self._text(data)
        if text is None:
            self.inner.data_received(data)
        else:
            self.deliver(text)

    def _text(self, data: bytes) -> str | None:
        """The text of ``data`` when it is one whole plain text frame (else None)."""
        size = len(data)
        if size < 6 or data[0] != 0x81:
            return None
        length = data[1] ^ 0x80  # the mask bit must be set: then this is the length
        if length < 126:
            start = 6
        elif length == 126 and size >= 8:
            length = int.from_bytes(data[2:4], "big")
            start = 8
        else:
            return None
        conn = self.conn
        if (
            size != start + length
            or self.reader_buffer
            or conn.current_size is not None
            or conn.parser_exc is not None
            or conn.state is not _OPEN
            or self.inner.close_sent
            or not self.queue.empty()
        ):
            return None
        try:
            return apply_mask(data[start:], data[start - 4 : start]).decode()
        except UnicodeDecodeError:
            return None  # the protocol closes with 1007

    def eof_received(self) -> bool | None:
        keep_open: bool | None = self.inner.eof_received()
        return keep_open

    def connection_lost(self, exc: Exception | None) -> None:
        self.inner.connection_lost(exc)

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()

    def connection_made(self, transport: Any) -> None:  # pragma: no cover - never again
        self.inner.connection_made(transport)


def _framed(payload: bytes) -> bytes:
    """One unmasked, final text frame holding ``payload`` (RFC 6455 5.2)."""
    length = len(payload)
    if length < 126:
        return _TEXT + bytes((length,)) + payload
    if length < 65536:
        return _TEXT + b"\x7e" + length.to_bytes(2, "big") + payload
    return _TEXT + b"\x7f" + length.to_bytes(8, "big") + payload


_TEXT: Final = b"\x81"  # FIN and the text opcode
_OPEN: Final = State.OPEN
_DIRECT_ATTRIBUTES: Final = (
    "conn",
    "transport",
    "close_sent",
    "disconnected",
    "handshake_complete",
    "writable",
)
