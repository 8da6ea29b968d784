"""The table service: the one place that changes tables.

Every change of a table goes through one pipeline, under the table's ``asyncio.Lock``:
it is **prepared** (validated by the table and the engine; a refusal changes nothing
and is answered to the sender alone), **applied** to the table in memory, **committed**
to storage (awaited: the storage's writer thread commits it), then **acknowledged** to
its sender and **broadcast** to every connection, each frame rendered for the seat
that connection's token holds *now*. If the commit fails the table is reloaded from
storage, so memory never runs ahead of the database. A person's command, an HTTP
request (a seat taken) and a plan of the table's :class:`~.scheduler.Schedule` falling
due (a bot's move, a time-out, a grace period over) all take this path.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import dataclasses
import hashlib
import logging
import math
import random
import secrets
import time
from collections.abc import Callable, Mapping
from typing import Any, Final, Protocol, assert_never

from sequence_stacks.bots import BOT_NAMES
from sequence_stacks.engine import (
    Action,
    ActionType,
    Phase,
    Settings,
    SettingsError,
    action_space,
)

from .config import ServerSettings
from .entries import (
    LogPayload,
    Op,
    SeatKind,
    TableStatus,
    encode,
)
from .hints import hint_bot
from .protocol import (
    CHAT_PHRASES,
    ack_frame,
    chat_frame,
    dumps,
    hint_frame,
    lobby_dict,
    presence_frame,
    refused_frame,
    replay_frame,
    sync_frame,
    timer_dict,
    update_frame,
)
from .scheduler import BotMove, GraceOver, Plan, Schedule, Thinker, TimedOut
from .storage import ListingCursor, LogEntry, Storage, StorageUnavailableError, TableRow
from .table import Entry, Refusal, Table, clean_name

__all__ = ["Subscriber", "TableService", "hash_token"]

log = logging.getLogger("sequence_stacks.server")

AUTOPILOT_LIMIT: Final = 100
CHAT_GAP: Final = 2.0  # seconds between two quick-chat phrases of one seat
HINT_GAP: Final = 3.0  # seconds between two hints of one seat
UNAVAILABLE_RETRY: Final = 1.0  # seconds between a cut-off table's attempts to reload
_UNAVAILABLE: Final = (
    "the game's database cannot be reached; nothing was done. Try again in a moment."
)
VISIBILITIES: Final = ("public", "unlisted")
LISTING_PAGE: Final = 50
# Entries after which a seat may be held by another token (or by none).
_SEATING: Final = frozenset({Op.SIT, Op.LEAVE, Op.REPLACE, Op.RECLAIM, Op.START})


class Subscriber(Protocol):
    """A connection watching a table; ``send`` must not block (queue the frame).

    ``token_hash`` is who the connection says it is (set by ``hello``); ``seat`` is
    the seat that token holds *now*, recomputed by the service after every change of
    the table (a seat left, handed to a bot, taken back, taken by someone else), and
    read for nothing but presence: every frame and command asks the table afresh.
    """

    seat: int | None
    token_hash: str | None

    def send(self, frame: Mapping[str, Any]) -> None:
        """Queue one frame for the client."""
        ...

    def send_text(self, text: str) -> None:
        """Queue one frame already encoded as JSON (shared by many subscribers)."""
        ...


def hash_token(token: str) -> str:
    """Return the stored form of a seat token (only its SHA-256 is ever kept)."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclasses.dataclass(eq=False, slots=True)
class _Runtime:
    """One loaded table: its state, its lock, its connections and its schedule."""

    table: Table
    schedule: Schedule
    lock: asyncio.Lock = dataclasses.field(default_factory=asyncio.Lock)
    subscribers: set[Subscriber] = dataclasses.field(default_factory=set)
    task: asyncio.Task[None] | None = None
    # Set when a commit failed and the table could not be read back: memory may be
    # ahead of the database, so nothing is done here until a reload succeeds.
    broken: bool = False
    # When each seat last said something in the quick chat (clock seconds).
    chatted: dict[int, float] = dataclasses.field(default_factory=dict)
    # When each seat last asked for a hint (clock seconds).
    hinted: dict[int, float] = dataclasses.field(default_factory=dict)

    def connected(self) -> list[bool]:
        """Per seat, whether a connection holds it now."""
        seats = {sub.seat for sub in self.subscribers}
        return [index in seats for index in range(len(self.table.seats))]


class TableService:
    """Creates, loads and changes tables; the WebSocket and HTTP handlers call only this."""

    def __init__(
        self,
        storage: Storage,
        settings: ServerSettings,
        *,
        clock: Callable[[], float] = time.monotonic,
        rng: random.Random | None = None,
    ) -> None:
        self.storage = storage
        self.settings = settings
        self.clock = clock
        self.rng = rng or random.Random()
        self._runtimes: dict[str, _Runtime] = {}
        self._loading = asyncio.Lock()
        self._closed = False
        self._thinker = Thinker()

    # --- life cycle -----------------------------------------------------------------

    async def start(self) -> None:
        """Rebuild every table with an unfinished game and restart its runner."""
        for row in self.storage.tables(status=TableStatus.PLAYING):
            await self._runtime(row.table_id)

    async def close(self) -> None:
        """Stop every runner (the storage is closed by its owner)."""
        self._closed = True
        tasks = [rt.task for rt in self._runtimes.values() if rt.task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._thinker.close()

    async def _runtime(self, table_id: str) -> _Runtime:
        runtime = self._runtimes.get(table_id)
        if runtime is not None:
            if runtime.broken:
                async with runtime.lock:
                    self._recover(runtime)
            return runtime
        async with self._loading:
            runtime = self._runtimes.get(table_id)
            if runtime is not None:
                return runtime
            try:
                row = self.storage.table(table_id)
            except StorageUnavailableError:
                raise Refusal("unavailable", _UNAVAILABLE) from None
            if row is None:
                raise Refusal("not_found", f"there is no table {table_id!r}")
            runtime = self._load(row)
            self._runtimes[table_id] = runtime
            runtime.task = asyncio.create_task(
                runtime.schedule.run(runtime.lock, self._firer(runtime), lambda: self._closed),
                name=f"table-{table_id}",
            )
            return runtime

    def _load(self, row: TableRow) -> _Runtime:
        """Rebuild a table from its log, with a schedule as after a restart: every
        person away since now, and a Block window still open given a fresh full time
        (its players must reconnect first: docs/server.md, Restarts)."""
        schedule = Schedule(self.settings, clock=self.clock, rng=self.rng, thinker=self._thinker)
        runtime = _Runtime(Table.rebuild(row, self.storage.entries(row.table_id)), schedule)
        now = self.clock()
        for index, seat in enumerate(runtime.table.seats):
            if seat.kind == SeatKind.HUMAN:
                schedule.absent_since[index] = now
        schedule.window_opened_at = now
        schedule.replan(runtime.table)
        return runtime

    # --- lobby (HTTP) ----------------------------------------------------------------

    async def create_table(self, options: Mapping[str, Any], *, visibility: str) -> str:
        """Create a table with validated engine settings; return its id."""
        if visibility not in VISIBILITIES:
            raise Refusal("bad_request", "visibility is 'public' or 'unlisted'")
        try:
            settings = Settings.from_dict(options)
        except (SettingsError, TypeError) as error:
            raise Refusal("bad_request", str(error)) from None
        table_id = secrets.token_urlsafe(9)
        empty = {"kind": SeatKind.EMPTY.value}
        await asyncio.to_thread(
            self.storage.create_table,
            TableRow(
                table_id=table_id,
                created_at=time.time(),
                visibility=visibility,
                settings=settings.to_dict(),
                summary={"seats": [empty] * settings.player_count, "game": 0},
            ),
        )
        return table_id

    def public_tables(
        self, *, limit: int = LISTING_PAGE, before: ListingCursor | None = None
    ) -> dict[str, Any]:
        """One page of the public list, most recently active first: tables in the lobby
        or playing, changed within ``listing_idle``; ``next`` is the following page's
        cursor (None on the last page)."""
        since = time.time() - self.settings.listing_idle
        rows = self.storage.listed_tables(since=since, limit=limit + 1, before=before)
        page = rows[:limit]
        more = len(rows) > limit
        return {
            "tables": [
                {
                    "id": row.table_id,
                    "status": row.status,
                    "players": row.settings.get("player_count"),
                    "seats": row.summary.get("seats", []),
                    "game": row.summary.get("game", 0),
                }
                for row in page
            ],
            "next": ListingCursor(page[-1].updated_at, page[-1].table_id).text() if more else None,
        }

    async def lobby(self, table_id: str) -> dict[str, Any]:
        """A table's public facts."""
        runtime = await self._runtime(table_id)
        async with runtime.lock:  # never a change whose commit is still under way
            return lobby_dict(runtime.table, runtime.connected())

    async def sit(self, table_id: str, name: str, seat: int | None) -> tuple[int, str]:
        """Seat a human; return the seat and its secret token (only its hash is stored)."""
        runtime = await self._runtime(table_id)
        token = secrets.token_urlsafe(24)
        async with runtime.lock:
            payload = runtime.table.prepare_sit(name, seat, hash_token(token))
            await self._commit(runtime, payload)
        return payload.seat, token

    async def play_now(self, name: str, players: int) -> tuple[str, int, str]:
        """One click to a game (#15): an unlisted table of ``players`` seats, the person
        in the first seat, bots of the default strength in the others, the game started.
        Returns the table id, the seat and its secret token."""
        clean_name(name)  # a name refused before any table is made
        table_id = await self.create_table({"player_count": players}, visibility="unlisted")
        seat, token = await self.sit(table_id, name, 0)
        runtime = await self._runtime(table_id)
        async with runtime.lock:
            start = runtime.table.prepare_start(secrets.randbits(63), self.settings.default_bot)
            await self._commit(runtime, dataclasses.replace(start, by=seat))
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
            if seat is None and token_hash is not None:
                # Back after a bot took the seat over (not after leaving): reclaim it.
                claim = table.claim_of(token_hash)
                if claim is not None:
                    await self._commit(runtime, table.prepare_reclaim(claim))
                    seat = claim
            self._forget(runtime, subscriber)
            subscriber.token_hash = token_hash
            subscriber.seat = seat
            runtime.subscribers.add(subscriber)
            if seat is not None:
                runtime.schedule.absent_since.pop(seat, None)
            runtime.schedule.replan(table)
            subscriber.send(self._sync(runtime, seat, last_version, rejected=bool(token)))
            self._presence(runtime)

    async def sync(self, table_id: str, subscriber: Subscriber, last_version: int | None) -> None:
        """Send a sync frame: entries since ``last_version`` and the current view."""
        runtime = await self._runtime(table_id)
        async with runtime.lock:
            seat = runtime.table.seat_of(subscriber.token_hash)
            subscriber.send(self._sync(runtime, seat, last_version, rejected=False))

    async def leave(self, table_id: str, subscriber: Subscriber) -> None:
        """Forget a closed connection; its seat's grace period starts if it was the last."""
        runtime = self._runtimes.get(table_id)
        if runtime is None or subscriber not in runtime.subscribers:
            return
        async with runtime.lock:
            self._forget(runtime, subscriber)
            runtime.schedule.replan(runtime.table)
            self._presence(runtime)

    def _forget(self, runtime: _Runtime, subscriber: Subscriber) -> None:
        if subscriber not in runtime.subscribers:
            return
        runtime.subscribers.discard(subscriber)
        seat = subscriber.seat
        if seat is not None and not runtime.connected()[seat]:
            runtime.schedule.absent_since[seat] = self.clock()

    def _sync(
        self, runtime: _Runtime, seat: int | None, last_version: int | None, *, rejected: bool
    ) -> dict[str, Any]:
        return sync_frame(
            runtime.table,
            seat,
            connected=runtime.connected(),
            last_version=last_version,
            token_rejected=rejected and seat is None,
            timer=runtime.schedule.timer(runtime.table),
            bots=BOT_NAMES,
        ) | {"chat": CHAT_PHRASES}

    def _presence(self, runtime: _Runtime) -> None:
        text = dumps(presence_frame(runtime.connected()))
        for subscriber in list(runtime.subscribers):
            subscriber.send_text(text)

    async def chat(self, table_id: str, subscriber: Subscriber, phrase: str) -> None:
        """A quick-chat phrase (#15) from a seated player to everyone at the table, at
        most one every CHAT_GAP seconds per seat. Words from a fixed set, so nothing to
        moderate; not a change of the table, so not in its log or its record."""
        runtime = await self._runtime(table_id)
        async with runtime.lock:
            seat = runtime.table.seat_of(subscriber.token_hash)
            if seat is None:
                raise Refusal("not_seated", "only a seated player can use the quick chat")
            now = self.clock()
            if now - runtime.chatted.get(seat, -math.inf) < CHAT_GAP:
                raise Refusal("rate_limited", f"one quick-chat phrase every {CHAT_GAP:g} s")
            runtime.chatted[seat] = now
            text = dumps(chat_frame(seat, phrase))
            for listener in list(runtime.subscribers):
                listener.send_text(text)

    async def hint(self, table_id: str, subscriber: Subscriber) -> None:
        """A hint (#15) for a seated player of a practice game (everyone else a bot)
        whose decision it is: the heuristic bot's choice from that seat's own view,
        sent to the asking connection alone; one every HINT_GAP seconds per seat."""
        runtime = await self._runtime(table_id)
        async with runtime.lock:
            table = runtime.table
            seat = table.seat_of(subscriber.token_hash)
            if seat is None:
                raise Refusal("not_seated", "only a seated player can ask for a hint")
            others = [s.kind for index, s in enumerate(table.seats) if index != seat]
            if any(kind != SeatKind.BOT for kind in others):
                detail = {"key": "table.hint_practice_only", "args": {}}
                raise Refusal("bad_request", "hints are for games against bots", detail=detail)
            state = table.state
            if state is None or state.is_over or seat not in state.deciders():
                detail = {"key": "table.hint_not_now", "args": {}}
                raise Refusal("bad_request", "a hint is for your own decision", detail=detail)
            now = self.clock()
            if now - runtime.hinted.get(seat, -math.inf) < HINT_GAP:
                raise Refusal("rate_limited", f"one hint every {HINT_GAP:g} s")
            runtime.hinted[seat] = now
            version = table.version
            future = self._thinker.submit(hint_bot(version), state, seat)
        action = await asyncio.wrap_future(future)
        space = action_space(state.player_count, state.settings.piles_per_colour)
        subscriber.send(hint_frame(version, space.id_of(action, seat)))

    # --- commands (WebSocket) ----------------------------------------------------------

    async def command(
        self, table_id: str, subscriber: Subscriber, message: Mapping[str, Any]
    ) -> None:
        """Run one decoded client command; answer the sender with ack or refused."""
        runtime = await self._runtime(table_id)
        client_id = str(message["id"])
        async with runtime.lock:
            table = runtime.table
            # Who holds the seat now, not who did at hello (a seat changes hands).
            seat = table.seat_of(subscriber.token_hash)
            try:
                if seat is None:
                    raise Refusal(
                        "not_seated", "only a seated player can do that; take a seat first"
                    )
                done = table.client_ids.get((subscriber.token_hash, client_id))
                if done is not None:
                    subscriber.send(ack_frame(client_id, done, duplicate=True))
                    return
                payload = self._prepare(table, seat, message, client_id)
            except Refusal as refusal:
                subscriber.send(refused_frame(refusal, client_id, table.version))
                return
            await self._commit(runtime, payload, ack=(subscriber, client_id))

    def _prepare(
        self, table: Table, seat: int, message: Mapping[str, Any], client_id: str
    ) -> LogPayload:
        """The entry a seat's command asks for, with its sender (``by``) and id."""
        kind = str(message["type"])
        seen = int(message["version"])
        if not table.is_expected(seen, kind, seat):
            why = table.stale_reason(seen, seat)
            raise Refusal(
                "stale",
                f"the table is at version {table.version}; you saw {seen} ({why})",
                detail={"key": f"refused.stale.{why}", "args": {}},
            )
        match kind:
            case "act":
                action = message.get("action")
                if action is None:
                    action = message.get("action_id")
                return dataclasses.replace(table.prepare_act(seat, action), client=client_id)
            case "add_bot":
                bot = str(message.get("bot", self.settings.default_bot))
                added = table.prepare_add_bot(message.get("seat"), bot, BOT_NAMES)
                return dataclasses.replace(added, client=client_id, by=seat)
            case "remove_bot":
                target = message.get("seat")
                if target is None:
                    raise Refusal("bad_request", "remove_bot needs the 'seat' of the bot")
                removed = table.prepare_remove_bot(int(target))
                return dataclasses.replace(removed, client=client_id, by=seat)
            case "start":
                start = table.prepare_start(secrets.randbits(63), self.settings.default_bot)
                return dataclasses.replace(start, client=client_id, by=seat)
            case "leave":
                left = table.prepare_leave(seat, self.settings.default_bot)
                return dataclasses.replace(left, client=client_id)
            case _:
                raise Refusal("unknown_type", f"unknown command {kind!r}"[:120])

    # --- the pipeline ------------------------------------------------------------------

    async def _commit(
        self,
        runtime: _Runtime,
        payload: LogPayload,
        *,
        ack: tuple[Subscriber, str] | None = None,
    ) -> Entry:
        """Apply, commit, acknowledge, broadcast, replan: the one way a table changes.

        The entry is applied to the table in memory first (it was prepared: it applies),
        then stored; the lock stays held until the storage has committed it, so nobody
        hears of it before it is durable. A failed commit reloads the table from storage.
        """
        if runtime.broken:
            raise Refusal("unavailable", _UNAVAILABLE)
        table = runtime.table
        version = table.version + 1
        entry = table.apply_payload(version, payload)
        stored = self.storage.submit(
            table.table_id,
            LogEntry(version, encode(payload)),
            status=table.status,
            summary=table.summary(),
        )
        try:
            interrupted = await _committed(stored)
        except StorageUnavailableError as error:
            log.error("table %s: storing version %d failed: %s", table.table_id, version, error)
            self._reload(runtime)
            raise Refusal("unavailable", _UNAVAILABLE) from None
        except Exception:
            log.exception("table %s: storing version %d failed; reloading", table.table_id, version)
            self._reload(runtime)
            raise
        self._after(runtime, entry)
        if ack is not None:
            ack[0].send(ack_frame(ack[1], version))
        runtime.schedule.replan(table)
        self._broadcast(runtime, entry)
        if interrupted:
            raise asyncio.CancelledError
        return entry

    def _after(self, runtime: _Runtime, entry: Entry) -> None:
        """What an applied entry changes outside the table: bots, clocks, connections."""
        table, schedule = runtime.table, runtime.schedule
        if entry.op == Op.START:
            schedule.bots.clear()
        if entry.op == Op.RECLAIM and entry.seat is not None:
            # The stand-in bot stops: its pending Block answer goes, and the plans are
            # made again for a human seat (the window's deadline, the turn's time-out).
            schedule.seat_changed_hands(entry.seat)
        if entry.op == Op.SIT and entry.seat is not None and not runtime.connected()[entry.seat]:
            schedule.absent_since[entry.seat] = self.clock()
        if table.state is not None and table.window_version == entry.version:
            schedule.window_opened_at = self.clock()
        if entry.op in _SEATING:
            self._rebind(runtime)

    def _rebind(self, runtime: _Runtime) -> None:
        """Give each connection the seat its token holds now (None: it watches)."""
        table = runtime.table
        for subscriber in runtime.subscribers:
            seat = table.seat_of(subscriber.token_hash)
            if seat != subscriber.seat:
                subscriber.seat = seat
                if seat is None:
                    log.info("table %s: a connection lost its seat", table.table_id)

    def _reload(self, runtime: _Runtime) -> None:
        """Rebuild the table from storage (memory never runs ahead of the database); if
        the storage cannot be read either, mark the table broken and refuse."""
        table_id = runtime.table.table_id
        try:
            row = self.storage.table(table_id)
            assert row is not None
            runtime.table = Table.rebuild(row, self.storage.entries(table_id))
        except StorageUnavailableError as error:
            runtime.broken = True
            log.error("table %s: cut off from its database: %s", table_id, error)
            raise Refusal("unavailable", _UNAVAILABLE) from None
        runtime.broken = False

    def _recover(self, runtime: _Runtime) -> None:
        """Under the lock: reload a broken table (raising Refusal while still cut off)."""
        if runtime.broken:
            self._reload(runtime)
            self._rebind(runtime)
            runtime.schedule.replan(runtime.table)
            log.warning("table %s: database reached again; reloaded", runtime.table.table_id)

    def _broadcast(self, runtime: _Runtime, entry: Entry) -> None:
        table = runtime.table
        lobby = lobby_dict(table, runtime.connected())
        timer = timer_dict(runtime.schedule.timer(table))
        holders = table.holders()
        # One frame per seat (and one for spectators), encoded once for every
        # connection of that seat: the seat its token holds now (R36).
        frames: dict[int | None, str] = {}
        for subscriber in list(runtime.subscribers):
            seat = holders.get(subscriber.token_hash) if subscriber.token_hash else None
            text = frames.get(seat)
            if text is None:
                frame = update_frame(table, entry, seat, lobby=lobby, timer=timer)
                text = frames[seat] = dumps(frame)
            subscriber.send_text(text)

    # --- plans falling due: bots, time-outs, grace periods ---------------------------

    def _firer(self, runtime: _Runtime) -> Callable[[Plan], Any]:
        async def fire(plan: Plan) -> None:
            try:
                self._recover(runtime)
                await self._fire(runtime, plan)
            except Exception as error:
                if isinstance(error, Refusal) and error.code == "unavailable":
                    # Cut off from the database: try again shortly, not in a busy loop.
                    await asyncio.sleep(UNAVAILABLE_RETRY)
                else:
                    log.exception("table %s: automatic action failed", runtime.table.table_id)
                runtime.schedule.replan(runtime.table)

        return fire

    async def _fire(self, runtime: _Runtime, plan: Plan) -> None:
        """Turn a plan that fell due into entries, through the pipeline."""
        table, schedule = runtime.table, runtime.schedule
        state = table.state
        if state is None or state.is_over:
            return
        match plan:
            case GraceOver(seat=seat):
                schedule.absent_since.pop(seat, None)
                schedule.bots.pop(seat, None)
                await self._commit(runtime, table.prepare_replace(seat, self.settings.default_bot))
            case BotMove(seat=seat, answer=answer):
                future = answer if answer is not None else schedule.think(table, seat)
                action = await asyncio.wrap_future(future)
                await self._commit(runtime, table.prepare_act(seat, action))
            case TimedOut(seat=seat) if state.phase == Phase.BLOCK_WINDOW:
                await self._commit(runtime, table.prepare_act(seat, Action(ActionType.PASS)))
            case TimedOut(seat=seat):
                await self._autopilot(runtime, seat)
            case _:
                assert_never(plan)

    async def _autopilot(self, runtime: _Runtime, seat: int) -> None:
        """A person ran out of time: a bot finishes this turn for them."""
        table = runtime.table
        state = table.state
        assert state is not None
        for _ in range(AUTOPILOT_LIMIT):
            if state.deciders() != (seat,) or state.phase == Phase.BLOCK_WINDOW or state.is_over:
                return
            action = await asyncio.wrap_future(runtime.schedule.think(table, seat))
            await self._commit(runtime, table.prepare_act(seat, action))

    # --- replays ---------------------------------------------------------------------

    async def replay(
        self, table_id: str, game: int, step: int | None, token: str | None
    ) -> dict[str, Any]:
        """One step of a game: a seat's view while it runs, everything once it is over."""
        runtime = await self._runtime(table_id)
        async with runtime.lock:
            table = runtime.table
            if not 1 <= game <= table.game_no:
                raise Refusal("not_found", f"there is no game {game} at this table")
            archive = table.games[game - 1]
            seat = table.seat_of(hash_token(token)) if token else None
            record = archive.record(table.settings)
            over = game < table.game_no or table.status == TableStatus.OVER
            settings = table.settings
        total = len(record.actions)
        chosen = total if step is None else max(0, min(step, total))
        return replay_frame(record, settings, chosen, seat, over=over)


async def _committed(stored: concurrent.futures.Future[None]) -> bool:
    """Wait until the storage has committed an entry; True if cancelled meanwhile.

    A cancellation (the server stopping) does not cut the wait short: the entry is
    already applied to the table, so its acknowledgement and broadcast must follow
    its commit before the caller hears of the cancellation.
    """
    waiter = asyncio.wrap_future(stored)
    interrupted = False
    while not waiter.done():
        try:
            await asyncio.shield(waiter)
        except asyncio.CancelledError:
            interrupted = True
    waiter.result()
    return interrupted
