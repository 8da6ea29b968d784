"""Frames to the connections of a loaded table: each rendered for one viewer (the seat
that connection's token holds *now*, or None for a spectator) by :mod:`.protocol`,
encoded once and shared by every connection of that viewer."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sequence_stacks.bots import BOT_NAMES

from .codec import dumps
from .commands import CHAT_PHRASES
from .protocol import (
    ack_frame,
    chat_frame,
    lobby_dict,
    presence_frame,
    sync_frame,
    timer_dict,
    update_frame,
)
from .runtime import Runtime, Subscriber
from .table import Entry

__all__ = ["Frames"]


class Frames:
    """Renders and sends the frames of loaded tables."""

    def ack(self, client_id: str, version: int, *, duplicate: bool = False) -> dict[str, Any]:
        """The frame telling a sender its command was committed as ``version``."""
        return ack_frame(client_id, version, duplicate=duplicate)

    def sync(
        self, runtime: Runtime, seat: int | None, last_version: int | None, *, rejected: bool
    ) -> dict[str, Any]:
        """Everything a connection needs to draw the table (see ``sync_frame``)."""
        return sync_frame(
            runtime.table,
            seat,
            connected=runtime.connected(),
            last_version=last_version,
            token_rejected=rejected and seat is None,
            timer=runtime.schedule.timer(runtime.table),
            bots=BOT_NAMES,
        ) | {"chat": list(CHAT_PHRASES)}

    def broadcast(self, runtime: Runtime, entry: Entry) -> None:
        """One entry to every connection, as the seat its token holds now hears of it
        (R36): one frame per seat (and one for spectators), encoded once."""
        table = runtime.table
        lobby = lobby_dict(table, runtime.connected())
        timer = timer_dict(runtime.schedule.timer(table))
        holders = table.holders()
        texts: dict[int | None, str] = {}
        for subscriber in list(runtime.subscribers):
            seat = holders.get(subscriber.token_hash) if subscriber.token_hash else None
            text = texts.get(seat)
            if text is None:
                frame = update_frame(table, entry, seat, lobby=lobby, timer=timer)
                text = texts[seat] = dumps(frame)
            subscriber.send_text(text)

    def presence(self, runtime: Runtime) -> None:
        """Which seats have a connection now, to everyone at the table."""
        runtime.send_all(dumps(presence_frame(runtime.connected())))

    def chat(self, runtime: Runtime, seat: int, phrase: str) -> None:
        """A quick-chat phrase of ``seat``, to everyone at the table."""
        runtime.send_all(dumps(chat_frame(seat, phrase)))

    def send(self, subscribers: Sequence[Subscriber], frame: dict[str, Any]) -> None:
        """One frame to some connections."""
        text = dumps(frame)
        for subscriber in subscribers:
            subscriber.send_text(text)
