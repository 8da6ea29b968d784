"""The table service: the one place that changes tables.

Per table, an ``asyncio.Lock`` serialises every change; each change is prepared
(validated), committed to storage, applied, acknowledged, then broadcast, in that order.
A runner task per table plays bots, answers Block windows that time out (a pass, R29),
finishes the turns of players who ran out of time, and hands absent players' seats to
bots after the grace period.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import dataclasses
import hashlib
import itertools
import logging
import math
import random
import secrets
import time
from collections.abc import Callable, Mapping
from typing import Any, Final, Protocol

from sequence_stacks.bots import BOT_NAMES, Bot, make_bot
from sequence_stacks.engine import (
    Action,
    ActionType,
    EngineError,
    GameRecord,
    Replay,
    Settings,
    SettingsError,
    View,
    legal_actions,
    observe,
)

from .config import ServerSettings
from .protocol import action_table, dumps, entry_dict, lobby_dict, refused_frame, view_dict
from .storage import ListingCursor, LogEntry, Storage, TableRow
from .table import BOT, HUMAN, Entry, Refusal, Table

__all__ = ["Subscriber", "TableService", "hash_token"]

log = logging.getLogger("sequence_stacks.server")

AUTOPILOT_LIMIT: Final = 100
CATCH_UP_LIMIT: Final = 1000
LOG_LIMIT: Final = 400
VISIBILITIES: Final = ("public", "unlisted")
# Entries after which a seat may be held by another token (or by none).
_SEATING: Final = frozenset({"sit", "leave", "replace", "reclaim", "start"})
# Commands whose payload's "seat" is not the sender's: the sender is stored as "by".
_NAMES_OTHER_SEAT: Final = frozenset({"add_bot", "remove_bot", "start"})
LISTING_PAGE: Final = 50


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


@dataclasses.dataclass(slots=True)
class _Plan:
    """An automatic action the runner will take at ``due`` (clock seconds)."""

    due: float
    seat: int
    kind: str  # "bot", "timeout" or "replace"
    # A bot's Block-window answer, chosen from its view as the window opens, on the
    # service's thinking thread: how long the bot thinks may depend on its hand (a
    # search runs only when it holds a Block), when its answer is sent may not (R36).
    answer: concurrent.futures.Future[Action] | None = None


@dataclasses.dataclass(eq=False, slots=True)
class _Runtime:
    table: Table
    lock: asyncio.Lock = dataclasses.field(default_factory=asyncio.Lock)
    wake: asyncio.Event = dataclasses.field(default_factory=asyncio.Event)
    subscribers: set[Subscriber] = dataclasses.field(default_factory=set)
    plans: dict[tuple[object, ...], _Plan] = dataclasses.field(default_factory=dict)
    absent_since: dict[int, float] = dataclasses.field(default_factory=dict)
    bots: dict[int, Bot] = dataclasses.field(default_factory=dict)
    window_opened_at: float = 0.0
    # When the runner sleeps until its next plan is due, that time; else -inf. A
    # replan wakes it only if something is now due sooner (most replans, one per
    # action, only push the next plan later).
    sleeping_until: float = -math.inf
    task: asyncio.Task[None] | None = None

    def connected(self) -> list[bool]:
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
        self._thinker: concurrent.futures.ThreadPoolExecutor | None = None

    # --- life cycle -----------------------------------------------------------------

    async def start(self) -> None:
        """Rebuild every table with an unfinished game and restart its runner."""
        for row in self.storage.tables(status="playing"):
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
        if self._thinker is not None:
            self._thinker.shutdown(wait=False, cancel_futures=True)

    async def _runtime(self, table_id: str) -> _Runtime:
        runtime = self._runtimes.get(table_id)
        if runtime is not None:
            return runtime
        async with self._loading:
            runtime = self._runtimes.get(table_id)
            if runtime is not None:
                return runtime
            row = self.storage.table(table_id)
            if row is None:
                raise Refusal("not_found", f"there is no table {table_id!r}")
            runtime = _Runtime(Table.rebuild(row, self.storage.entries(table_id)))
            now = self.clock()
            for index, seat in enumerate(runtime.table.seats):
                if seat.kind == HUMAN:
                    runtime.absent_since[index] = now
            # Loaded (a restart): like the turn timer and the grace period, a Block
            # window still open gets a fresh full time from now, since its players
            # must reconnect first (docs/server.md, Restarts).
            runtime.window_opened_at = now
            self._runtimes[table_id] = runtime
            self._replan(runtime)
            runtime.task = asyncio.create_task(self._run(runtime), name=f"table-{table_id}")
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
        await asyncio.to_thread(
            self.storage.create_table,
            TableRow(
                table_id=table_id,
                created_at=time.time(),
                visibility=visibility,
                settings=settings.to_dict(),
                summary={"seats": [{"kind": "empty"}] * settings.player_count, "game": 0},
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
        return int(payload["seat"]), token

    # --- connections ---------------------------------------------------------------

    async def hello(
        self, table_id: str, subscriber: Subscriber, token: str | None, last_version: int | None
    ) -> None:
        """(Re)identify a connection by its seat token and send it a sync frame."""
        runtime = await self._runtime(table_id)
        async with runtime.lock:
            table = runtime.table
            token_hash = hash_token(token) if token else None
            seat = table.seat_of(token_hash) if token_hash else None
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
                runtime.absent_since.pop(seat, None)
            self._replan(runtime)
            subscriber.send(self._sync_frame(runtime, seat, last_version, bool(token)))
            self._presence(runtime)

    async def sync(self, table_id: str, subscriber: Subscriber, last_version: int | None) -> None:
        """Send a sync frame: entries since ``last_version`` and the current view."""
        runtime = await self._runtime(table_id)
        async with runtime.lock:
            seat = runtime.table.seat_of(subscriber.token_hash)
            subscriber.send(self._sync_frame(runtime, seat, last_version, False))

    async def leave(self, table_id: str, subscriber: Subscriber) -> None:
        """Forget a closed connection; its seat's grace period starts if it was the last."""
        runtime = self._runtimes.get(table_id)
        if runtime is None or subscriber not in runtime.subscribers:
            return
        async with runtime.lock:
            self._forget(runtime, subscriber)
            self._replan(runtime)
            self._presence(runtime)

    def _forget(self, runtime: _Runtime, subscriber: Subscriber) -> None:
        if subscriber not in runtime.subscribers:
            return
        runtime.subscribers.discard(subscriber)
        seat = subscriber.seat
        if seat is not None and not runtime.connected()[seat]:
            runtime.absent_since[seat] = self.clock()

    def _sync_frame(
        self, runtime: _Runtime, seat: int | None, last_version: int | None, had_token: bool
    ) -> dict[str, Any]:
        table = runtime.table
        history = table.history
        missed = None
        if last_version is not None and 0 <= last_version <= table.version:
            count = table.version - last_version
            if count <= min(CATCH_UP_LIMIT, len(history)):
                missed = history[len(history) - count :] if count else []
        reset = missed is None
        if missed is None:
            game = table.game_no
            missed = [entry for entry in history if entry.game == game][-LOG_LIMIT:]
        return {
            "type": "sync",
            "version": table.version,
            "you": seat,
            "token_rejected": had_token and seat is None,
            "table": lobby_dict(table, runtime.connected()),
            "view": view_dict(table, seat),
            "actions": action_table(table, seat) if table.state is not None else None,
            "bots": list(BOT_NAMES),
            "reset": reset,
            "entries": [entry_dict(entry, seat) for entry in missed],
            "timer": self._timer(runtime),
        }

    def _presence(self, runtime: _Runtime) -> None:
        text = dumps({"type": "presence", "connected": runtime.connected()})
        for subscriber in list(runtime.subscribers):
            subscriber.send_text(text)

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
                    subscriber.send(
                        {"type": "ack", "id": client_id, "version": done, "duplicate": True}
                    )
                    return
                payload = self._prepare(runtime, seat, message)
            except Refusal as refusal:
                subscriber.send(refused_frame(refusal, client_id, table.version))
                return
            payload["client"] = client_id
            if payload["op"] in _NAMES_OTHER_SEAT:
                payload["by"] = seat
            await self._commit(runtime, payload, ack=(subscriber, client_id))

    def _prepare(self, runtime: _Runtime, seat: int, message: Mapping[str, Any]) -> dict[str, Any]:
        table = runtime.table
        kind = str(message["type"])
        if not table.is_expected(int(message["version"]), kind, seat):
            raise Refusal(
                "stale", f"the table is at version {table.version}; you saw {message['version']}"
            )
        if kind == "act":
            action = message.get("action")
            if action is None:
                action = message.get("action_id")
            return table.prepare_act(seat, action, client=None)
        if kind == "add_bot":
            bot = message.get("bot", self.settings.default_bot)
            return table.prepare_add_bot(message.get("seat"), str(bot), BOT_NAMES)
        if kind == "remove_bot":
            target = message.get("seat")
            if target is None:
                raise Refusal("bad_request", "remove_bot needs the 'seat' of the bot")
            return table.prepare_remove_bot(int(target))
        if kind == "start":
            return table.prepare_start(secrets.randbits(63), self.settings.default_bot)
        if kind == "leave":
            return table.prepare_leave(seat, self.settings.default_bot)
        raise Refusal("unknown_type", f"unknown command {kind!r}")

    async def _commit(
        self,
        runtime: _Runtime,
        payload: dict[str, Any],
        *,
        ack: tuple[Subscriber, str] | None = None,
    ) -> Entry:
        """Store, apply, acknowledge, broadcast, replan: the one way a table changes."""
        table = runtime.table
        version = table.version + 1
        entry = table.apply(LogEntry(version, payload))
        stored = self.storage.submit(
            table.table_id, LogEntry(version, payload), status=table.status, summary=table.summary()
        )
        try:
            interrupted = await _committed(stored)
        except Exception:
            log.exception("table %s: storing version %d failed; reloading", table.table_id, version)
            self._reload(runtime)
            raise
        if entry.op == "start":
            runtime.bots.clear()
        if entry.op == "reclaim" and entry.seat is not None:
            # The stand-in bot stops: its pending Block answer goes, and the plans are
            # made again for a human seat (the window's deadline, the turn's time-out).
            runtime.bots.pop(entry.seat, None)
            runtime.plans = {
                key: plan for key, plan in runtime.plans.items() if plan.seat != entry.seat
            }
        if entry.op == "sit" and entry.seat is not None and not runtime.connected()[entry.seat]:
            runtime.absent_since[entry.seat] = self.clock()
        if table.state is not None and table.window_version == version:
            runtime.window_opened_at = self.clock()
        if entry.op in _SEATING:
            self._rebind(runtime)
        if ack is not None:
            ack[0].send({"type": "ack", "id": ack[1], "version": version})
        self._replan(runtime)
        self._broadcast(runtime, entry)
        if interrupted:
            raise asyncio.CancelledError
        return entry

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
        row = self.storage.table(runtime.table.table_id)
        assert row is not None
        runtime.table = Table.rebuild(row, self.storage.entries(row.table_id))

    def _broadcast(self, runtime: _Runtime, entry: Entry) -> None:
        table = runtime.table
        lobby = lobby_dict(table, runtime.connected())
        timer = self._timer(runtime)
        holders = table.holders()
        # One frame per seat (and one for spectators), encoded once for every
        # connection of that seat: the seat its token holds now (R36).
        frames: dict[int | None, str] = {}
        for subscriber in list(runtime.subscribers):
            seat = holders.get(subscriber.token_hash) if subscriber.token_hash else None
            text = frames.get(seat)
            if text is None:
                frame = {
                    "type": "update",
                    **entry_dict(entry, seat),
                    "table": lobby,
                    "view": view_dict(table, seat),
                    "timer": timer,
                }
                if entry.op == "start":
                    frame["actions"] = action_table(table, seat)
                text = frames[seat] = dumps(frame)
            subscriber.send_text(text)

    # --- the runner: bots, timers, grace periods ------------------------------------

    def _timer(self, runtime: _Runtime) -> dict[str, Any] | None:
        state = runtime.table.state
        if state is None or state.is_over:
            return None
        now = self.clock()
        if state.phase == 1:
            deadline = runtime.window_opened_at + self.settings.block_timeout
            return {
                "kind": "block",
                "seats": list(state.window_pending),
                "remaining_ms": max(0, round((deadline - now) * 1000)),
            }
        plan = runtime.plans.get(("turn", runtime.table.version))
        if plan is None or plan.kind != "timeout":
            return None
        return {
            "kind": "turn",
            "seats": [plan.seat],
            "remaining_ms": max(0, round((plan.due - now) * 1000)),
        }

    def _replan(self, runtime: _Runtime) -> None:
        """Recompute the automatic actions due; keep those whose situation is unchanged."""
        table = runtime.table
        state = table.state
        wanted: dict[tuple[object, ...], _Plan] = {}
        if state is not None and not state.is_over:
            now = self.clock()
            if state.phase == 1:
                for seat in state.window_pending:
                    key: tuple[object, ...] = ("window", table.window_version, seat)
                    wanted[key] = runtime.plans.get(key) or self._window_plan(runtime, seat)
            else:
                seat = state.current
                key = ("turn", table.version)
                wanted[key] = runtime.plans.get(key) or self._turn_plan(table, seat, now)
            for seat_index, since in runtime.absent_since.items():
                if table.seats[seat_index].kind == HUMAN:
                    due = since + self.settings.grace_period
                    wanted[("replace", seat_index)] = _Plan(due, seat_index, "replace")
        runtime.plans = wanted
        sleeping_until = runtime.sleeping_until
        if any(plan.due < sleeping_until for plan in wanted.values()):
            runtime.wake.set()

    def _window_plan(self, runtime: _Runtime, seat: int) -> _Plan:
        opened = runtime.window_opened_at
        if runtime.table.seats[seat].kind == BOT:
            # The same delay distribution whatever the bot holds: no hint by timing (R36).
            low, high = self.settings.bot_block_delay
            delay = min(self.rng.uniform(low, high), self.settings.block_timeout)
            return _Plan(opened + delay, seat, "bot", self._think(runtime, seat))
        return _Plan(opened + self.settings.block_timeout, seat, "timeout")

    def _turn_plan(self, table: Table, seat: int, now: float) -> _Plan:
        if table.seats[seat].kind == BOT:
            low, high = self.settings.bot_delay
            return _Plan(now + self.rng.uniform(low, high), seat, "bot")
        return _Plan(now + self.settings.turn_timeout, seat, "timeout")

    async def _run(self, runtime: _Runtime) -> None:
        while not self._closed:
            runtime.wake.clear()
            if not runtime.plans:
                runtime.sleeping_until = math.inf
                await runtime.wake.wait()
                runtime.sleeping_until = -math.inf
                continue
            key, plan = min(runtime.plans.items(), key=lambda item: item[1].due)
            delay = plan.due - self.clock()
            if delay > 0:
                runtime.sleeping_until = plan.due
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(delay):
                        await runtime.wake.wait()
                runtime.sleeping_until = -math.inf
                continue
            async with runtime.lock:
                if runtime.plans.get(key) is plan:
                    del runtime.plans[key]
                    try:
                        await self._fire(runtime, plan)
                    except Exception:
                        log.exception("table %s: automatic action failed", runtime.table.table_id)
                        self._replan(runtime)
            await asyncio.sleep(0)

    async def _fire(self, runtime: _Runtime, plan: _Plan) -> None:
        table = runtime.table
        state = table.state
        if state is None or state.is_over:
            return
        if plan.kind == "replace":
            runtime.absent_since.pop(plan.seat, None)
            runtime.bots.pop(plan.seat, None)
            await self._commit(runtime, table.prepare_replace(plan.seat, self.settings.default_bot))
            return
        if plan.kind == "bot" or state.phase == 1:
            if plan.kind == "timeout":
                action = Action(ActionType.PASS)
            elif plan.answer is not None:
                action = await asyncio.wrap_future(plan.answer)
            else:
                action = await self._bot_choice(runtime, plan.seat)
            await self._commit(runtime, table.prepare_act(plan.seat, action))
            return
        # A human ran out of time: a bot finishes this turn for them.
        for _ in range(AUTOPILOT_LIMIT):
            if state.deciders() != (plan.seat,) or state.phase != 0:
                return
            action = await self._bot_choice(runtime, plan.seat)
            await self._commit(runtime, table.prepare_act(plan.seat, action))

    def _bot(self, runtime: _Runtime, seat: int) -> Bot:
        bot = runtime.bots.get(seat)
        if bot is None:
            name = runtime.table.seats[seat].bot or self.settings.default_bot
            bot = make_bot(name, seed=self.rng.getrandbits(32))
            runtime.bots[seat] = bot
        return bot

    async def _bot_choice(self, runtime: _Runtime, seat: int) -> Action:
        """The bot's choice, made on the thinking thread: a search (ismcts: up to ~0.9 s)
        must not stop the event loop and with it every other table of the process."""
        return await asyncio.wrap_future(self._think(runtime, seat))

    def _think(self, runtime: _Runtime, seat: int) -> concurrent.futures.Future[Action]:
        """Start choosing the bot's action on the thinking thread (one thread: bots
        choose one at a time, and never two choices of one bot at once)."""
        state = runtime.table.state
        assert state is not None
        if self._thinker is None:
            self._thinker = concurrent.futures.ThreadPoolExecutor(
                max_workers=1, thread_name_prefix="bot-thinker"
            )
        bot = self._bot(runtime, seat)
        legal = legal_actions(state, seat)  # taken now: the state may move on meanwhile
        return self._thinker.submit(_choose, bot, observe(state, seat), lambda: legal[-1])

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
            total = len(archive.actions)
            record = archive.record(table.settings)
            over = game < table.game_no or table.status == "over"
            settings = table.settings
        chosen = total if step is None else max(0, min(step, total))
        return _replay_step(record, settings, chosen, total, seat, over=over)


def _choose(bot: Bot, view: View, fallback: Callable[[], Action]) -> Action:
    """The bot's choice from ``view``; ``fallback()`` (the last legal action) if it fails."""
    try:
        return bot.choose(view)
    except (EngineError, ValueError):
        log.exception("bot %s failed; taking the last legal action", bot.name)
        return fallback()


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


def _replay_step(
    record: GameRecord, settings: Settings, step: int, total: int, seat: int | None, *, over: bool
) -> dict[str, Any]:
    replay = Replay(record)
    events = list(replay.start_events)
    last_seat: int | None = None
    last_action: Action | None = None
    # Exactly ``step`` actions: the position after them, the entry of the last one.
    for _, actor, action, step_events in itertools.islice(replay, step):
        events, last_seat, last_action = step_events, actor, action
    state = replay.state
    viewer = None if over else seat
    entry = Entry(0, "act" if step else "start", last_seat, 0, last_action, tuple(events))
    return {
        "step": step,
        "steps": total,
        "over": over,
        "you": seat,
        "settings": settings.to_dict(),
        "view": observe(state, viewer).to_dict(),
        # The full view only once the game is over (R36 protects a running game).
        "entry": entry_dict(entry, viewer, full=over),
        "hands": [list(hand) for hand in state.hands] if over else None,
    }
