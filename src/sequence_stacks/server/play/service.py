"""The table service: the one place that changes tables, and the play room's face.

The WebSocket and HTTP handlers call only this. It is composed of the tables loaded in
this process (:class:`~.tables.Tables`, loading through a :class:`~.gate.Gate`), the
pipeline every change goes through (:class:`~.pipeline.Pipeline`: prepare -> apply ->
store -> acknowledge -> replan -> broadcast) and the frames it sends
(:class:`~.frames.Frames`). Which tables the process may act on is the gate's to say:
all of them alone on a database (:class:`~.gate.OpenGate`), those it owns among
several workers on PostgreSQL (``cluster.OwnershipGate``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import math
import random
import secrets
import time
from collections.abc import Callable, Mapping
from typing import Any, Final

from sequence_stacks.engine import GameRecord, action_space, observe
from sequence_stacks.server.config import ServerSettings
from sequence_stacks.server.store import ListingCursor, Storage

from . import commands
from .archive import Archive
from .frames import Frames
from .gate import Gate, OpenGate
from .hints import hint_bot, reason
from .hooks import NoWatcher, TableWatcher, news_of, watched
from .listing import LISTING_PAGE, VISIBILITIES, Listing
from .pipeline import Pipeline
from .prepare import prepare_command
from .protocol import hint_frame, lobby_dict, refused_frame, stand_in_summary
from .refusals import Refusal, RefusalCode
from .runtime import Runtime, Subscriber, hash_token
from .schedule import Thinker
from .seats import clean_name
from .table import Table
from .tables import PlayContext, Tables

__all__ = ["LISTING_PAGE", "VISIBILITIES", "TableService"]

CHAT_GAP: Final = 2.0  # seconds between two quick-chat phrases of one seat
HINT_GAP: Final = 3.0  # seconds between two hints of one seat


class TableService:
    """Creates, loads and changes tables (see the module's docstring)."""

    def __init__(
        self,
        storage: Storage,
        settings: ServerSettings,
        *,
        gate: Gate | None = None,
        clock: Callable[[], float] = time.monotonic,
        rng: random.Random | None = None,
        watcher: TableWatcher | None = None,
    ) -> None:
        self.storage = storage
        self.settings = settings
        self.clock = clock
        self.gate = gate or OpenGate()
        self._thinker = Thinker()
        self.tables = Tables(
            PlayContext(
                storage,
                settings,
                self.gate,
                clock=clock,
                rng=rng or random.Random(),
                thinker=self._thinker,
            )
        )
        self.frames = Frames()
        self.listing = Listing(storage, settings)
        self.archive = Archive(self.tables)
        self.watcher = watcher or NoWatcher()
        self.pipeline = Pipeline(self.tables, self.frames, watcher=self.watcher)

    # --- life cycle -----------------------------------------------------------------

    async def start(self) -> None:
        """Take the tables this process runs (every playing table, when alone)."""
        await self.gate.start()

    async def close(self) -> None:
        """Stop every runner (the storage is closed by its owner)."""
        await self.gate.close()
        await self.tables.close()
        self._thinker.close()

    def health(self) -> dict[str, Any]:
        """Whether this process takes work (and, among workers, what it owns)."""
        return self.gate.health()

    async def hand_over(self) -> None:
        """Graceful shutdown: give every table to the other workers, if any."""
        await self.gate.hand_over()

    async def _runtime(self, table_id: str) -> Runtime:
        runtime = await self.tables.get(table_id)
        if runtime.broken:
            async with runtime.lock:
                self.pipeline.recover(runtime)
        return runtime

    # --- lobby (HTTP) ----------------------------------------------------------------

    async def create_table(
        self,
        options: Mapping[str, Any],
        *,
        visibility: str,
        pace: str | None = None,
        turn_hours: int | None = None,
    ) -> str:
        """Create a table (see :meth:`.listing.Listing.create`); return its id."""
        return await self.listing.create(
            options, visibility=visibility, pace=pace, turn_hours=turn_hours
        )

    def public_tables(
        self, *, limit: int = LISTING_PAGE, before: ListingCursor | None = None
    ) -> dict[str, Any]:
        """One page of the public list (see :meth:`.listing.Listing.page`)."""
        return self.listing.page(limit=limit, before=before)

    async def lobby(self, table_id: str) -> dict[str, Any]:
        """A table's public facts: from memory where it is loaded, else from storage."""
        runtime = self.tables.current(table_id)
        if runtime is not None:
            async with runtime.lock:  # never a change whose commit is still under way
                table = runtime.table
                return lobby_dict(table, runtime.connected())
        table = await self.tables.read(table_id)
        return lobby_dict(table, [False] * len(table.seats))

    async def sit(
        self, table_id: str, name: str, seat: int | None, *, never_block: bool = False
    ) -> tuple[int, str]:
        """Seat a human; return the seat and its secret token (only its hash is stored).
        ``never_block``: the player's standing answer (kept at turn-based tables)."""
        runtime = await self._runtime(table_id)
        token = secrets.token_urlsafe(24)
        async with runtime.lock:
            payload = runtime.table.prepare_sit(
                name, seat, hash_token(token), never_block=never_block
            )
            await self.pipeline.commit(runtime, payload)
        return payload.seat, token

    async def play_now(
        self, name: str, players: int, *, pace: str | None = None
    ) -> tuple[str, int, str]:
        """One click to a game (#15): an unlisted table of ``players`` seats, the person
        in the first seat, bots of the default strength in the others, the game started.
        Returns the table id, the seat and its secret token."""
        clean_name(name)  # a name refused before any table is made
        table_id = await self.create_table(
            {"player_count": players}, visibility="unlisted", pace=pace
        )
        seat, token = await self.sit(table_id, name, 0)
        runtime = await self._runtime(table_id)
        async with runtime.lock:
            start = runtime.table.prepare_start(secrets.randbits(63), self.settings.default_bot)
            await self.pipeline.commit(runtime, dataclasses.replace(start, by=seat))
        return table_id, seat, token

    # --- connections ---------------------------------------------------------------

    async def hello(
        self, table_id: str, subscriber: Subscriber, token: str | None, last_version: int | None
    ) -> None:
        """(Re)identify a connection by its seat token and send it a sync frame."""
        runtime = await self._runtime(table_id)
        async with runtime.lock:
            table = runtime.table
            token_hash = hash_token(token) if token else None
            seat = table.seat_of(token_hash)
            summary = None
            if seat is None and token_hash is not None:
                # Back after a bot took the seat over (not after leaving): reclaim it.
                claim = table.claim_of(token_hash)
                if claim is not None:
                    await self.pipeline.commit(runtime, table.prepare_reclaim(claim))
                    seat = claim
                    summary = stand_in_summary(table, claim)
            runtime.join(subscriber, token_hash, seat)
            runtime.schedule.replan(table)
            frame = self.frames.sync(runtime, subscriber, last_version, rejected=bool(token))
            # What the stand-in bot did meanwhile, for the returning player alone (#24).
            frame["stand_in"] = summary
            subscriber.send(frame)
            if runtime.shows_presence():
                self.frames.presence(runtime)
            if watched(self.watcher, runtime):
                self.watcher.changed(news_of(runtime, runtime.schedule.timer(runtime.table)))

    async def sync(self, table_id: str, subscriber: Subscriber, last_version: int | None) -> None:
        """Send a sync frame: entries since ``last_version`` and the current view."""
        runtime = await self._runtime(table_id)
        async with runtime.lock:
            subscriber.seat = runtime.table.seat_of(subscriber.token_hash)
            subscriber.send(self.frames.sync(runtime, subscriber, last_version, rejected=False))

    async def leave(self, table_id: str, subscriber: Subscriber) -> None:
        """Forget a closed connection; its seat's grace period starts if it was the last."""
        runtime = self.tables.current(table_id)
        if runtime is None or subscriber not in runtime.subscribers:
            return
        async with runtime.lock:
            runtime.forget(subscriber)
            runtime.schedule.replan(runtime.table)
            if runtime.shows_presence():
                self.frames.presence(runtime)
            if watched(self.watcher, runtime):
                self.watcher.changed(news_of(runtime, runtime.schedule.timer(runtime.table)))

    async def chat(self, table_id: str, subscriber: Subscriber, phrase: str) -> None:
        """A quick-chat phrase (#15) from a seated player to everyone at the table, at
        most one every CHAT_GAP seconds per seat. Words from a fixed set, so nothing to
        moderate; not a change of the table, so not in its log or its record."""
        runtime = await self._runtime(table_id)
        async with runtime.lock:
            seat = self._seat(runtime.table, subscriber, "use the quick chat")
            _throttle(runtime.chatted, seat, self.clock(), CHAT_GAP, "quick-chat phrase")
            self.frames.chat(runtime, seat, phrase)

    async def hint(self, table_id: str, subscriber: Subscriber) -> None:
        """A hint (#15) for a seated player of a practice game (everyone else a bot)
        whose decision it is: the hint bot's choice from that seat's own view, sent
        to the asking connection alone; one every HINT_GAP seconds per seat."""
        runtime = await self._runtime(table_id)
        async with runtime.lock:
            table = runtime.table
            seat = self._seat(table, subscriber, "ask for a hint")
            if not table.is_practice_for(seat):
                detail = {"key": "table.hint_practice_only", "args": {}}
                raise Refusal(
                    RefusalCode.BAD_REQUEST, "hints are for games against bots", detail=detail
                )
            state = table.state
            if state is None or state.is_over or seat not in state.deciders():
                detail = {"key": "table.hint_not_now", "args": {}}
                raise Refusal(
                    RefusalCode.BAD_REQUEST, "a hint is for your own decision", detail=detail
                )
            _throttle(runtime.hinted, seat, self.clock(), HINT_GAP, "hint")
            version, view = table.version, observe(state, seat)
            future = self._thinker.submit(hint_bot(version), state, seat)
        action = await asyncio.wrap_future(future)
        space = action_space(state.player_count, state.settings.piles_per_colour)
        why = reason(view, action)
        subscriber.send(hint_frame(version, space.id_of(action, seat), why))

    async def seat_of_token(self, table_id: str, token: str) -> int | None:
        """The seat a token holds at a table now (None: it holds none)."""
        runtime = self.tables.current(table_id)
        table = runtime.table if runtime is not None else await self.tables.read(table_id)
        return table.seat_of(hash_token(token))

    def clock_moved(self) -> None:
        """The clock jumped (a test's simulated days): every table looks at its plans again."""
        for table_id in self.tables.loaded():
            runtime = self.tables.current(table_id)
            if runtime is not None:
                runtime.schedule.wake.set()

    @staticmethod
    def _seat(table: Table, subscriber: Subscriber, what: str) -> int:
        """The seat the connection's token holds now; refused for a spectator."""
        seat = table.seat_of(subscriber.token_hash)
        if seat is None:
            raise Refusal(RefusalCode.NOT_SEATED, f"only a seated player can {what}")
        return seat

    # --- commands (WebSocket) ----------------------------------------------------------

    async def command(
        self, table_id: str, subscriber: Subscriber, command: commands.Command
    ) -> None:
        """Run one client command; answer the sender with ack or refused."""
        runtime = await self._runtime(table_id)
        async with runtime.lock:
            table = runtime.table
            try:
                # Who holds the seat now, not who did at hello (a seat changes hands).
                seat = self._seat(table, subscriber, "do that; take a seat first")
                done = table.accepted(subscriber.token_hash, command.id)
                if done is not None:
                    subscriber.send(self.frames.ack(command.id, done, duplicate=True))
                    return
                payload = prepare_command(
                    table, command, seat, seed=_new_seed, bot=self.settings.default_bot
                )
            except Refusal as refusal:
                subscriber.send(refused_frame(refusal, command.id, table.version))
                return
            await self.pipeline.submit(runtime, payload, ack=(subscriber, command.id))

    # --- games played (replays, reviews) ----------------------------------------------

    async def replay(
        self, table_id: str, game: int, step: int | None, token: str | None
    ) -> dict[str, Any]:
        """One step of a game (see :meth:`.archive.Archive.replay`)."""
        return await self.archive.replay(table_id, game, step, token)

    async def finished_game(
        self, table_id: str, game: int
    ) -> tuple[GameRecord, tuple[int, ...]] | None:
        """A finished game and its people (see :meth:`.archive.Archive.finished_game`)."""
        return await self.archive.finished_game(table_id, game)

    async def review_viewer(self, table_id: str, game: int, token: str | None) -> int | None:
        """Who reads a game's review (see :meth:`.archive.Archive.review_viewer`)."""
        return await self.archive.review_viewer(table_id, game, token)


def _throttle(last: dict[int, float], seat: int, now: float, gap: float, what: str) -> None:
    """At most one ``what`` every ``gap`` seconds per seat; refused (rate_limited) sooner."""
    if now - last.get(seat, -math.inf) < gap:
        raise Refusal(RefusalCode.RATE_LIMITED, f"one {what} every {gap:g} s")
    last[seat] = now


def _new_seed() -> int:
    """A game's secret seed (R41: it never leaves the server)."""
    return secrets.randbits(63)
