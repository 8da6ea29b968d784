"""The one way a table changes: prepare -> apply -> store -> acknowledge -> replan ->
broadcast, under the table's lock, for a person's command, an HTTP request (a seat
taken) and a plan of the table's schedule falling due (a bot's move, a time-out, a
grace period over).

An entry is **prepared** by the table (validated by it and the engine; a refusal
changes nothing and is answered to the sender alone), **applied** to the table in
memory, **committed** to storage (awaited: the storage's writer thread commits it),
then **acknowledged** to its sender and **broadcast** to every connection, each frame
rendered for the seat that connection's token holds *now*. If the commit fails the
table is reloaded from storage, so memory never runs ahead of the database.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import logging
from typing import Final, assert_never

from sequence_stacks.engine import Action, ActionType, Phase
from sequence_stacks.server.store import (
    LogEntry,
    StorageConflictError,
    StorageUnavailableError,
)

from .entries import Act, LogPayload, Op, encode
from .frames import Frames
from .hooks import TableWatcher, news_of, watched
from .protocol import refused_frame
from .refusals import Refusal, RefusalCode
from .runtime import Runtime, Subscriber
from .schedule import BotMove, GraceOver, Plan, StandingPass, TimedOut, WindowEnds, asks_people
from .table import Entry, Table
from .tables import Tables, unavailable

__all__ = ["AUTOPILOT_LIMIT", "Pipeline"]

log = logging.getLogger("sequence_stacks.server")

AUTOPILOT_LIMIT: Final = 100
_PASS_ACTION: Final = Action(ActionType.PASS)
_ANSWERS: Final = {
    _PASS_ACTION.notation(): _PASS_ACTION,
    Action(ActionType.BLOCK).notation(): Action(ActionType.BLOCK),
}
UNAVAILABLE_RETRY: Final = 1.0  # seconds between a cut-off table's attempts to reload


class Pipeline:
    """Commits prepared entries to loaded tables (see the module's docstring)."""

    def __init__(self, tables: Tables, frames: Frames, *, watcher: TableWatcher) -> None:
        self.context = tables.context
        self.watcher = watcher
        self.tables = tables
        self.frames = frames
        tables.set_firer(self.fire)

    async def commit(
        self,
        runtime: Runtime,
        payload: LogPayload,
        *,
        ack: tuple[Subscriber, str] | None = None,
    ) -> Entry:
        """Apply, commit, acknowledge, replan, broadcast: the one way a table changes.

        The entry is applied to the table in memory first (it was prepared: it applies),
        then stored; the lock stays held until the storage has committed it, so nobody
        hears of it before it is durable. A failed commit reloads the table from storage.
        """
        table = runtime.table
        if runtime.broken:
            raise unavailable()
        if runtime.retired or not self.context.gate.owns(table.table_id):
            raise self.context.gate.conflict(table.table_id) or unavailable()
        version = table.version + 1
        entry = table.apply_payload(version, payload)
        # The lobby's summary (seats, game number) never changes with a game action.
        summary = None if entry.op is Op.ACT else table.summary()
        stored = self.context.storage.commit_async(
            table.table_id, LogEntry(version, encode(payload)), status=table.status, summary=summary
        )
        interrupted = await self._stored(runtime, stored, version)
        runtime.schedule.absorb(entry.effects, connected=runtime.present())
        if entry.effects.seats_changed:
            runtime.rebind()
        if ack is not None:
            ack[0].send(self.frames.ack(ack[1], version))
        runtime.schedule.replan(table)
        timer = runtime.schedule.timer(table)  # the countdown now, for frames and news
        self.frames.broadcast(runtime, entry, timer)
        if watched(self.watcher, runtime):
            self.watcher.changed(news_of(runtime, timer))
        if runtime.waiting and (table.state is None or table.state.phase != Phase.BLOCK_WINDOW):
            self._answer_waiting(runtime)
        # Out now, each change's frames as it is made: in a burst the first players hear
        # back while the later moves are still being made, not all after the last one.
        if ack is not None:
            ack[0].flush()
        runtime.flush()
        if interrupted:
            raise asyncio.CancelledError
        return entry

    async def _stored(self, runtime: Runtime, stored: asyncio.Future[None], version: int) -> bool:
        """Wait for the commit of ``version``; True if cancelled meanwhile. A failure
        reloads the table (and, if another process wrote it, drops it here)."""
        table_id = runtime.table.table_id
        try:
            return await _committed(stored)
        except StorageUnavailableError as error:
            log.error("table %s: storing version %d failed: %s", table_id, version, error)
            self._reload(runtime)
            raise unavailable() from None
        except StorageConflictError:
            moved = self.context.gate.conflict(table_id)
            if moved is None:
                log.exception("table %s: storing version %d failed", table_id, version)
                self._reload(runtime)
                raise
            log.error("table %s: another worker committed first; dropping", table_id)
            self.tables.spawn_drop(table_id, release=False)
            raise moved from None
        except Exception:
            log.exception("table %s: storing version %d failed; reloading", table_id, version)
            self._reload(runtime)
            raise

    def _reload(self, runtime: Runtime) -> None:
        """Rebuild the table from storage (memory never runs ahead of the database); if
        the storage cannot be read either, mark the table broken and refuse."""
        table_id = runtime.table.table_id
        try:
            row = self.context.storage.table(table_id)
            assert row is not None
            runtime.table = Table.rebuild(row, self.context.storage.entries(table_id))
        except StorageUnavailableError as error:
            runtime.broken = True
            log.error("table %s: cut off from its database: %s", table_id, error)
            raise unavailable() from None
        runtime.broken = False

    def recover(self, runtime: Runtime) -> None:
        """Under the lock: reload a broken table (raising Refusal while still cut off)."""
        if runtime.broken:
            self._reload(runtime)
            runtime.rebind()
            runtime.schedule.replan(runtime.table)
            log.warning("table %s: database reached again; reloaded", runtime.table.table_id)

    # --- plans falling due: bots, time-outs, grace periods ---------------------------

    async def fire(self, runtime: Runtime, plan: Plan) -> None:
        """Turn a plan that fell due into entries (under the table's lock); a failure
        is logged and the plans made again, never raised into the runner."""
        try:
            self.recover(runtime)
            await self._fire(runtime, plan)
        except Exception as error:
            if isinstance(error, Refusal) and error.code == RefusalCode.UNAVAILABLE:
                # Cut off from the database: try again shortly, not in a busy loop.
                await asyncio.sleep(UNAVAILABLE_RETRY)
            else:
                log.exception("table %s: automatic action failed", runtime.table.table_id)
            runtime.schedule.replan(runtime.table)

    async def _fire(self, runtime: Runtime, plan: Plan) -> None:
        table, schedule = runtime.table, runtime.schedule
        state = table.state
        if state is None or state.is_over:
            return
        bot = self.context.settings.default_bot
        match plan:
            case GraceOver(seat=seat):
                schedule.grace_over(seat)
                await self.commit(runtime, table.prepare_replace(seat, bot))
            case BotMove(seat=seat, answer=answer):
                future = answer if answer is not None else schedule.think(table, seat)
                action = await asyncio.wrap_future(future)
                await self.submit(runtime, table.prepare_act(seat, action))
            case StandingPass(seat=seat):
                await self.commit(runtime, table.prepare_act(seat, _PASS_ACTION))
                await self._close_if_answered(runtime)
            case WindowEnds():
                await self.close_window(runtime)
            case TimedOut(seat=seat):
                await self._autopilot(runtime, seat)
            case _:
                assert_never(plan)

    # --- Block windows ----------------------------------------------------------------

    async def submit(
        self,
        runtime: Runtime,
        payload: LogPayload,
        *,
        ack: tuple[Subscriber, str] | None = None,
    ) -> None:
        """Commit a prepared entry, except an answer to a Block window: that is held
        for the window's end, so nobody learns who answered what, or when (R29: the
        answers are secret until the window closes), and acknowledged once stored then,
        like any command. A practice game's window ends as soon as every asked seat
        has answered: nobody else is there to learn anything from its timing."""
        table = runtime.table
        state = table.state
        answer = _answer_of(payload) if state is not None else None
        if answer is None or state is None or state.phase != Phase.BLOCK_WINDOW:
            await self.commit(runtime, payload, ack=ack)
            return
        assert isinstance(payload, Act)
        held = runtime.schedule.held.get(payload.seat)
        if held is not None and held[1] != payload.client:
            detail = {"key": "illegal.already_answered", "args": {"player": payload.seat}}
            raise Refusal(
                RefusalCode.ILLEGAL,
                "you have already answered this Block window",
                "R29",
                detail=detail,
            )
        if held is None:
            runtime.schedule.hold(payload.seat, answer, payload.client)
        if ack is not None:
            runtime.waiting.setdefault(payload.seat, []).append(ack)
        if not await self._close_if_answered(runtime):
            runtime.schedule.replan(table)

    async def _close_if_answered(self, runtime: Runtime) -> bool:
        """Close the open window before its time when every asked seat has answered
        and nobody could learn anything from when: a practice game (N20), or a window
        of a turn-based table that asks no person, only bots and players who never
        block (N25). True if it closed."""
        table = runtime.table
        state = table.state
        if state is None or state.phase != Phase.BLOCK_WINDOW:
            return False
        if not runtime.schedule.all_held(state.window_pending):
            return False
        if not (runtime.alone() or (table.options.turn_based and not asks_people(table))):
            return False
        await self.close_window(runtime)
        return True

    def _answer_waiting(self, runtime: Runtime) -> None:
        """A window that closed with answers still waiting (the table reloaded, a seat
        changed hands): their senders hear that it is over (nothing was stored)."""
        version = runtime.table.version
        refusal = Refusal(
            RefusalCode.STALE,
            "the Block window was over before your pass was needed",
            detail={"key": "refused.stale.window_closed", "args": {}},
        )
        for waiting in runtime.waiting.values():
            for subscriber, client_id in waiting:
                subscriber.send(refused_frame(refusal, client_id, version))
        runtime.waiting.clear()

    async def close_window(self, runtime: Runtime) -> None:
        """The window's time is up: every asked seat's answer is stored, in turn order,
        each as its own entry (no answer is a pass, R29); a held answer goes with the
        command that gave it and is acknowledged to whoever sent it. The engine then
        spends the first blocker's Block, or gives the completer the chip."""
        table, schedule = runtime.table, runtime.schedule
        version = table.window_version
        while True:
            state = table.state
            closed = state is None or state.phase != Phase.BLOCK_WINDOW
            if closed or version != table.window_version:
                return
            assert state is not None
            seat = state.window_pending[0]
            answer, client = schedule.held.get(seat, (_PASS_ACTION, None))
            given = dataclasses.replace(table.prepare_act(seat, answer), client=client)
            waiting = runtime.waiting.pop(seat, [])
            entry = await self.commit(runtime, given)
            for index, (subscriber, client_id) in enumerate(waiting):
                frame = self.frames.ack(client_id, entry.version, duplicate=index > 0)
                subscriber.send(frame)

    async def _autopilot(self, runtime: Runtime, seat: int) -> None:
        """A person ran out of time: a bot finishes this turn for them."""
        table = runtime.table
        state = table.state
        assert state is not None
        for _ in range(AUTOPILOT_LIMIT):
            if state.deciders() != (seat,) or state.phase == Phase.BLOCK_WINDOW or state.is_over:
                return
            action = await asyncio.wrap_future(runtime.schedule.think(table, seat))
            await self.commit(runtime, table.prepare_act(seat, action))


async def _committed(stored: asyncio.Future[None]) -> bool:
    """Wait until the storage has committed an entry; True if cancelled meanwhile.

    A cancellation (the server stopping) does not cut the wait short: the entry is
    already applied to the table, so its acknowledgement and broadcast must follow
    its commit before the caller hears of the cancellation.
    """
    interrupted = False
    while not stored.done():
        # What asyncio.shield does, without its two callbacks and a future each: a
        # cancellation cancels the waiter, never the storage's own future.
        waiter = stored.get_loop().create_future()
        stored.add_done_callback(functools.partial(_release, waiter))
        try:
            await waiter
        except asyncio.CancelledError:
            interrupted = True
    stored.result()
    return interrupted


def _release(waiter: asyncio.Future[None], _: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)


def _answer_of(payload: LogPayload) -> Action | None:
    """The Block-window answer (pass or block) an entry gives, or None."""
    return _ANSWERS.get(payload.action) if isinstance(payload, Act) else None
