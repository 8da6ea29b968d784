"""Frames to the connections of a loaded table: each rendered for one viewer (the seat
that connection's token holds *now*, or None for a spectator) by :mod:`.protocol`,
encoded once and shared by every connection of that viewer."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sequence_stacks.bots import BOT_NAMES

from .codec import dumps
from .commands import CHAT_PHRASES
from .entries import Op
from .protocol import (
    ack_frame,
    chat_frame,
    lobby_dict,
    presence_frame,
    sync_frame,
    timer_dict,
    update_frame,
    view_dicts,
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
        self, runtime: Runtime, subscriber: Subscriber, last_version: int | None, *, rejected: bool
    ) -> dict[str, Any]:
        """Everything a connection needs to draw the table (see ``sync_frame``)."""
        table = runtime.table
        seat = subscriber.seat
        frame = sync_frame(
            table,
            seat,
            connected=runtime.connected(),
            last_version=last_version,
            token_rejected=rejected and seat is None,
            timer=runtime.schedule.timer(table),
            bots=BOT_NAMES,
            notation=subscriber.notation,
        ) | {"chat": list(CHAT_PHRASES)}
        runtime.views[seat] = (table.version, frame["view"])
        return frame

    def broadcast(self, runtime: Runtime, entry: Entry) -> None:
        """One entry to every connection, as the seat its token holds now hears of it
        (R36): one frame per seat (and one for spectators), encoded once, with only
        what changed since the version before (docs/protocol.md)."""
        table = runtime.table
        lobby = lobby_dict(table, runtime.connected())
        changed_lobby = lobby if lobby != runtime.lobby_sent else None
        runtime.lobby_sent = lobby
        timer = timer_dict(runtime.schedule.timer(table))
        # A seat that changed hands may be watched by a connection that held another.
        whole = entry.effects.seats_changed or entry.op is Op.START
        holders = table.holders()
        subscribers = [
            (sub, holders.get(sub.token_hash) if sub.token_hash else None)
            for sub in runtime.subscribers
        ]
        rendered = view_dicts(table, list(dict.fromkeys(seat for _, seat in subscribers)))
        texts: dict[tuple[int | None, bool], str] = {}
        views: dict[int | None, tuple[int, dict[str, Any] | None]] = {}
        for subscriber, seat in subscribers:
            key = (seat, subscriber.notation and entry.op is Op.START)
            text = texts.get(key)
            if text is None:
                view = rendered[seat]
                changes = None if whole else _changes(runtime.views.get(seat), view, entry)
                views[seat] = (entry.version, view)
                frame = update_frame(
                    table,
                    entry,
                    seat,
                    lobby=changed_lobby,
                    timer=timer,
                    view=view,
                    changes=changes,
                    notation=key[1],
                )
                text = texts[key] = dumps(frame)
            subscriber.send_text(text)
        runtime.views = views

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


def _changes(
    before: tuple[int, dict[str, Any] | None] | None, view: dict[str, Any] | None, entry: Entry
) -> dict[str, Any] | None:
    """The view's fields that differ from the seat's view at the version before, or
    None (send it whole) when that view is not known or either has no game."""
    if before is None or view is None:
        return None
    version, old = before
    if old is None or version != entry.version - 1:
        return None
    return {name: value for name, value in view.items() if old.get(name) != value}
