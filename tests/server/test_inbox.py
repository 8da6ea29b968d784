"""A table socket's inbox (server/web/socket.py): messages handled one at a time in the
order they came, whichever way they were read; a client whose messages pile up past
two bursts is cut off; an error the inbox did not expect ends the read loop."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any, cast

import pytest

from sequence_stacks.server.web import socket
from sequence_stacks.server.web.socket import _Inbox, _Silence

from .harness import FAST


class _Connection:
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.closed: tuple[int, str] | None = None

    def send(self, frame: dict[str, Any]) -> None:
        self.sent.append(frame)

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


class _FakeSession:
    """Handles a message by waiting for ``gate`` (while ``running`` says which)."""

    def __init__(self) -> None:
        self.connection = _Connection()
        self.gate = asyncio.Event()
        self.gate.set()
        self.handled: list[str | bytes] = []
        self.running: list[str | bytes] = []

    async def handle(self, data: str | bytes) -> None:
        assert not self.running, "two messages handled at once"
        self.running.append(data)
        await self.gate.wait()
        if data == "boom":
            raise ValueError("boom")
        self.handled.append(data)
        self.running.clear()


async def _inbox(
    session: _FakeSession, deadline: asyncio.Timeout, **settings: Any
) -> tuple[_Inbox, list[int]]:
    told: list[int] = []
    config = dataclasses.replace(FAST, **settings)
    inbox = _Inbox(cast(socket._Session, session), config, lambda: told.append(1))
    inbox.open(_Silence(60, deadline), deadline)
    return inbox, told


async def _settled() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


def test_messages_are_handled_one_at_a_time_in_order() -> None:
    async def run() -> None:
        session = _FakeSession()
        session.gate.clear()
        async with asyncio.timeout(None) as deadline:
            inbox, told = await _inbox(session, deadline)
            for text in ("a", "b", "c"):
                inbox.put(text)
            await _settled()
            assert session.running == ["a"]  # b and c wait behind a
            assert len(told) == 3  # the pacer heard of each as it came ...
            session.gate.set()
            await _settled()
            assert session.handled == ["a", "b", "c"]
            assert len(told) == 6  # ... and again once it was handled
            assert inbox.task is None  # no task while the socket is idle
            await inbox.close()

    asyncio.run(run())


def test_a_client_whose_messages_pile_up_is_cut_off() -> None:
    async def run() -> None:
        session = _FakeSession()
        session.gate.clear()
        inboxes: list[_Inbox] = []

        async def read() -> None:
            async with asyncio.timeout(None) as deadline:
                inbox, _ = await _inbox(session, deadline, rate_burst=4, rate_per_second=1.0)
                inboxes.append(inbox)
                inbox.put("0")
                await _settled()  # under way
                for index in range(1, 2 * 4 + 2):  # 8 wait behind it, 1 too many
                    inbox.put(str(index))
                await _settled()
                session.gate.set()
                await asyncio.sleep(10)

        with pytest.raises(TimeoutError):  # the inbox ends the read loop
            await read()
        inbox = inboxes[0]
        assert session.handled == ["0"]  # the one under way finished; the rest dropped
        assert session.connection.closed == (1008, "rate limit")
        assert inbox.closing
        assert inbox.error is None
        inbox.put("late")
        assert inbox.task is None  # nothing more is taken

    asyncio.run(run())


def test_an_error_the_inbox_did_not_expect_ends_the_read_loop() -> None:
    async def run() -> None:
        session = _FakeSession()
        inboxes: list[_Inbox] = []

        async def read() -> None:
            async with asyncio.timeout(None) as deadline:
                inbox, _ = await _inbox(session, deadline)
                inboxes.append(inbox)
                inbox.put("boom")
                inbox.put("after")
                await asyncio.sleep(10)

        with pytest.raises(TimeoutError):
            await read()
        inbox = inboxes[0]
        assert isinstance(inbox.error, ValueError)
        assert session.handled == []  # "after" was not handled

    asyncio.run(run())
