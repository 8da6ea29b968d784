"""Frames to the connections of a loaded table: each rendered for one viewer (the seat
that connection's token holds *now*, or None for a spectator) by :mod:`.protocol` from
what :mod:`.viewdata` makes, encoded once and shared by every connection of that viewer."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sequence_stacks.bots import BOT_NAMES
from sequence_stacks.engine import View

from .codec import dumps
from .commands import CHAT_PHRASES
from .entries import Op, TableStatus
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
from .schedule import Timer
from .table import Entry
from .viewdata import EntryViews, observed, public_view_changes, view_changes, view_data

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
        runtime.views[seat] = (table.version, observed(table, [seat])[seat])
        return sync_frame(
            table,
            seat,
            connected=runtime.connected(),
            last_version=last_version,
            token_rejected=rejected and seat is None,
            timer=runtime.schedule.timer(table),
            bots=BOT_NAMES,
            notation=subscriber.notation,
        ) | {"chat": list(CHAT_PHRASES)}

    def broadcast(self, runtime: Runtime, entry: Entry, countdown: Timer | None) -> None:
        """One entry to every connection, as the seat its token holds now hears of it
        (R36): one frame per seat (and one for spectators), encoded once, with only
        what changed since the version before (docs/protocol.md), and ``countdown``
        (the schedule's timer after the entry)."""
        table = runtime.table
        changed_lobby = _changed_lobby(runtime, entry)
        timer = timer_dict(countdown)
        # A seat that changed hands may be watched by a connection that held another.
        whole = entry.effects.seats_changed or entry.op is Op.START
        holders = table.holders()
        subscribers = [
            (sub, holders.get(sub.token_hash) if sub.token_hash else None)
            for sub in runtime.subscribers
        ]
        rendered = observed(table, list(dict.fromkeys(seat for _, seat in subscribers)))
        entry_views = EntryViews(table, entry) if len(rendered) > 1 else None
        texts: dict[tuple[int | None, bool], str] = {}
        views: dict[int | None, tuple[int, View | None]] = {}
        # The changes every viewer shares, found once (the views before are all of the
        # same position, and so are those after).
        public: dict[str, Any] | None = None
        for subscriber, seat in subscribers:
            key = (seat, subscriber.notation and entry.op is Op.START)
            text = texts.get(key)
            if text is None:
                view = rendered[seat]
                before = None if whole else _before(runtime.views.get(seat), view, entry)
                views[seat] = (entry.version, view)
                changes = None
                if view is not None and before is not None:
                    if public is None:
                        public = public_view_changes(table, before, view)
                    changes = view_changes(table, before, view, public)
                frame = update_frame(
                    table,
                    entry,
                    seat,
                    lobby=changed_lobby,
                    timer=timer,
                    view=None if view is None or before is not None else view_data(table, view),
                    changes=changes,
                    notation=key[1],
                    views=entry_views,
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


def _changed_lobby(runtime: Runtime, entry: Entry) -> dict[str, Any] | None:
    """The table's public facts if they changed since the last update, else None.
    A move in a running game that goes on changes none of them but who is connected
    (seats, game, settings and options change by other entries; the result and the
    standings when the game ends), so then only that is compared."""
    table = runtime.table
    connected = runtime.connected()
    sent = runtime.lobby_sent
    if (
        sent is not None
        and entry.op is Op.ACT
        and sent["status"] == TableStatus.PLAYING
        and table.status == TableStatus.PLAYING
        and sent["game"] == table.game_no
        and [seat["connected"] for seat in sent["seats"]] == connected
    ):
        return None
    lobby = lobby_dict(table, connected)
    runtime.lobby_sent = lobby
    return lobby if lobby != sent else None


def _before(sent: tuple[int, View | None] | None, view: View | None, entry: Entry) -> View | None:
    """The seat's view at the version before ``entry`` (its update then sends only what
    changed), or None (send it whole) when that view is not known or either has no game."""
    if sent is None or view is None:
        return None
    version, old = sent
    return old if version == entry.version - 1 else None
