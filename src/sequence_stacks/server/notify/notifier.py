"""Who is told what, when, away from the table (#26): "your turn", "a Block window asks
you", "game over", for the accounts at turn-based tables.

The notifier watches every table's news on the worker that owns the table (so a notice
is sent once, by that worker), and the database refuses a notice sent before (a table
that moved between workers sends none twice). A notice goes to the account of a seat
the table awaits, only if no connection holds that seat now (a player watching the
game is told nothing), at most once per turn, per window, per game's end; a player
who leaves the table during their own turn or window is told then (once); a game's end
is told only to those not watching it end. Each kind
can be turned off, by channel: Web Push (every subscribed browser) and e-mail (a
verified address), each in the account's language.
"""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import logging
from collections.abc import Callable
from typing import Any, Final

from sequence_stacks.server.accounts import Channel, NoticeKind, SeatBook, prefs_of
from sequence_stacks.server.play import TableNews, TableStatus
from sequence_stacks.server.store import Account, AccountStore, TableRow

from .mail import Mailer
from .push import Delivery, Pusher
from .words import say, table_words

__all__ = ["Notice", "Notifier"]

log = logging.getLogger("sequence_stacks.server")

_REMEMBERED: Final = 4096  # notice keys remembered in memory (the database has all)
_NOTICE_KEYS: Final = {
    NoticeKind.TURN: "notice.turn",
    NoticeKind.WINDOW: "notice.window",
    NoticeKind.OVER: "notice.over",
}


@dataclasses.dataclass(frozen=True, slots=True)
class Notice:
    """One notice for one account: what, about which table, and its once-only key."""

    kind: NoticeKind
    table_id: str
    key: str


class Notifier:
    """A table watcher that tells accounts (see the module's docstring)."""

    def __init__(
        self,
        store: AccountStore,
        seats: SeatBook,
        table_row: Callable[[str], TableRow | None],
        *,
        public_url: str,
        mailer: Mailer | None = None,
        pusher: Pusher | None = None,
    ) -> None:
        self.store = store
        self.seats = seats
        self.table_row = table_row
        self.public_url = public_url.rstrip("/")
        self.mailer = mailer
        self.pusher = pusher
        self._locks: dict[str, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._sent: collections.OrderedDict[tuple[str, str], None] = collections.OrderedDict()

    # --- the watcher --------------------------------------------------------------------

    def watches(self, *, turn_based: bool, status: TableStatus) -> bool:
        """Turn-based tables only: their players are told of their turns."""
        return turn_based

    def changed(self, news: TableNews) -> None:
        """Look at a turn-based table's news in a task of its own (never blocking play)."""
        if not news.turn_based:
            return
        task = asyncio.ensure_future(self._look(news))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def drain(self) -> None:
        """Wait for the notices under way (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def _look(self, news: TableNews) -> None:
        lock = self._locks.setdefault(news.table_id, asyncio.Lock())
        async with lock:  # one table's news in order
            try:
                await self.seats.note_turns(news)
                await self._tell(news)
            except Exception:
                log.exception("table %s: notices failed", news.table_id)

    async def _tell(self, news: TableNews) -> None:
        due = list(_due(news))
        if not due:
            return
        links = await asyncio.to_thread(self.store.seats_at, news.table_id)
        by_hash = {link.token_hash: link.account_id for link in links}
        for seat, notice in due:
            owner = news.owners[seat]
            account_id = by_hash.get(owner) if owner is not None else None
            if account_id is None or (account_id, notice.key) in self._sent:
                continue  # a guest, or told already
            watching = news.connected[seat]
            if watching and notice.kind != NoticeKind.OVER:
                continue  # at the table now: told if they leave before it is done
            # A game's end is told at the end only: a player who saw it is never told.
            first = await asyncio.to_thread(self.store.mark_sent, account_id, notice.key)
            if first and not watching:
                await self._deliver(account_id, notice)
            self._remember(account_id, notice.key)

    def _remember(self, account_id: str, key: str) -> None:
        self._sent[(account_id, key)] = None
        while len(self._sent) > _REMEMBERED:
            self._sent.popitem(last=False)

    # --- delivering ---------------------------------------------------------------------

    async def _deliver(self, account_id: str, notice: Notice) -> None:
        account = await asyncio.to_thread(self.store.account, account_id)
        if account is None:
            return
        prefs = prefs_of(account)[notice.kind.value]
        row = await asyncio.to_thread(self.table_row, notice.table_id)
        table = table_words(account.language, row.options if row is not None else {})
        body = say(account.language, _NOTICE_KEYS[notice.kind], table=table)
        url = f"{self.public_url}/t/{notice.table_id}"
        if self.pusher is not None and prefs[Channel.PUSH.value]:
            await self._push(account, notice, body, url)
        if self.mailer is not None and prefs[Channel.EMAIL.value]:
            await self._mail(account, notice, body, url)

    async def _push(self, account: Account, notice: Notice, body: str, url: str) -> None:
        assert self.pusher is not None
        subscriptions = await asyncio.to_thread(self.store.pushes_of, account.account_id)
        payload = _payload(account.language, notice, body, url)
        for subscription in subscriptions:
            sent = await self.pusher.send(subscription.endpoint, subscription.keys, payload)
            if sent == Delivery.GONE:
                await asyncio.to_thread(self.store.remove_push, subscription.endpoint)

    async def _mail(self, account: Account, notice: Notice, body: str, url: str) -> None:
        assert self.mailer is not None
        if account.email is None or not account.email_verified:
            return
        language = account.language
        stop = f"{self.public_url}/unsubscribe/{account.unsubscribe}?kind={notice.kind.value}"
        lines = [
            say(language, "mail.hello", name=account.name),
            body,
            say(language, "mail.open_game", url=url),
            say(language, f"mail.unsubscribe.{notice.kind.value}", url=stop),
        ]
        await self.mailer.send(
            account.email, language=language, subject=body, lines=lines, unsubscribe=stop
        )


def _payload(language: str, notice: Notice, body: str, url: str) -> dict[str, Any]:
    """What a push message carries: the words already in the reader's language."""
    return {
        "title": say(language, "page.brand"),
        "body": body,
        "url": url,
        "tag": f"{notice.kind.value}:{notice.table_id}",
        "kind": notice.kind.value,
    }


def _due(news: TableNews) -> list[tuple[int, Notice]]:
    """The notices a table's news calls for, by seat (before anyone's presence or
    preferences are looked at)."""
    table_id = news.table_id
    if news.status == TableStatus.OVER:
        key = f"over:{table_id}:{news.game}"
        notice = Notice(NoticeKind.OVER, table_id, key)
        return [(seat, notice) for seat, owner in enumerate(news.owners) if owner is not None]
    if news.status != TableStatus.PLAYING:
        return []
    if news.window is not None:
        notice = Notice(NoticeKind.WINDOW, table_id, f"window:{table_id}:{news.window}")
        return [(seat, notice) for seat in news.awaited]
    key = f"turn:{table_id}:{news.game}:{news.turn}"
    return [(seat, Notice(NoticeKind.TURN, table_id, key)) for seat in news.awaited]
