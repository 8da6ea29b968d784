"""A turn-based table on a fake clock, with accounts, seats linked to them and the
notifier wired as the composition root wires it, a push service that records what it
is given, and connections that record every frame and when."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
import time
from collections.abc import Mapping
from typing import Any

from sequence_stacks.server import MemoryStorage, ServerSettings, TableService
from sequence_stacks.server.accounts import Accounts, GameRecorder, SeatBook, default_prefs
from sequence_stacks.server.app import Watchers
from sequence_stacks.server.notify import Delivery, Notifier
from sequence_stacks.server.play import commands
from sequence_stacks.server.play.runtime import Runtime
from sequence_stacks.server.store import Account, AccountStore, PushSubscription

from .harness import FAST

__all__ = ["Clock", "Recorder", "RecordingPusher", "TurnTable", "fire_next"]

HOUR = 3600.0


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Recorder:
    """A connection: every frame it is sent, with the fake time it was sent at."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.seat: int | None = None
        self.token_hash: str | None = None
        self.notation = False  # no notation tables: a browser's hello
        self.frames: list[tuple[float, dict[str, Any]]] = []

    def send(self, frame: Mapping[str, Any]) -> None:
        self.frames.append((self.clock.now, json.loads(json.dumps(frame))))

    def send_text(self, text: str) -> None:
        self.frames.append((self.clock.now, json.loads(text)))

    def flush(self) -> None:
        pass  # frames are taken as they are queued

    def kick(self, code: int, reason: str) -> None:
        raise AssertionError(f"kicked: {code} {reason}")


class RecordingPusher:
    """A push service stand-in: what would be sent, to whom, at what (fake) time."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.sent: list[tuple[float, str, dict[str, Any]]] = []
        self.public_key = "test"

    async def send(
        self, endpoint: str, keys: Mapping[str, str], payload: Mapping[str, Any]
    ) -> Delivery:
        self.sent.append((self.clock.now, endpoint, dict(payload)))
        return Delivery.SENT


@dataclasses.dataclass
class TurnTable:
    """A started turn-based table of Ann and Bob (accounts) and a bot."""

    clock: Clock
    service: TableService
    runtime: Runtime
    notifier: Notifier
    pusher: RecordingPusher
    store: AccountStore
    table_id: str
    tokens: dict[str, str]
    ann: Recorder

    @classmethod
    async def start(
        cls,
        *,
        seed: float,
        never_block: bool = False,
        turn_hours: int = 24,
        settings: ServerSettings | None = None,
    ) -> TurnTable:
        clock = Clock()
        store = AccountStore.memory()
        accounts = Accounts(store)
        await accounts.start()
        storage = MemoryStorage()
        seats = SeatBook(store, lambda: accounts.sealer, storage.table)
        pusher = RecordingPusher(clock)
        notifier = Notifier(
            store,
            seats,
            storage.table,
            public_url="http://games.test",
            pusher=pusher,  # type: ignore[arg-type]
        )
        service = TableService(
            storage,
            settings or dataclasses.replace(FAST, bot_block_delay=(5.0, 50.0)),
            clock=clock,
            rng=random.Random(seed),
            watcher=Watchers(notifier, GameRecorder(store)),
        )
        table_id = await service.create_table(
            {"player_count": 3}, visibility="unlisted", pace="normal", turn_hours=turn_hours
        )
        tokens: dict[str, str] = {}
        for name in ("Ann", "Bob"):
            account = _account(store, name)
            blocks_never = never_block and name == "Bob"
            _, token = await service.sit(table_id, name, None, never_block=blocks_never)
            await seats.link(account, table_id, token)
            tokens[name] = token
        ann = Recorder(clock)
        await service.hello(table_id, ann, tokens["Ann"], None)
        runtime = await service.tables.get(table_id)
        await service.command(table_id, ann, commands.Start(id="go", version=runtime.table.version))
        await notifier.drain()
        return cls(clock, service, runtime, notifier, pusher, store, table_id, tokens, ann)

    async def close(self) -> None:
        await self.notifier.drain()
        await self.service.close()
        self.store.close()


def _account(store: AccountStore, name: str) -> Account:
    account = Account(
        account_id=f"id-{name}",
        name=name,
        name_key=name.lower(),
        avatar="star",
        language="sl" if name == "Bob" else "en",
        unsubscribe=f"u-{name}",
        created_at=time.time(),
        prefs=default_prefs(),
    )
    store.create_account(account, _credential(account.account_id))
    store.add_push(PushSubscription(f"https://push.test/{name}", account.account_id, {}))
    return account


def _credential(account_id: str) -> Any:
    from sequence_stacks.server.store import Credential  # noqa: PLC0415

    return Credential(f"cred-{account_id}", account_id, "key", 0, "?", 0.0, 0.0)


async def fire_next(table: TurnTable) -> None:
    """Run the plan due first (a bot's move, a time-out, a window's end) at its time."""
    runtime = table.runtime
    # The table's own runner is acting on a plan (under the table's lock: a bot's answer
    # it awaits from the thinking thread): let it finish first, or the next plan left
    # (a window's end, hours later) would jump the clock past that answer.
    if not runtime.schedule.plans or runtime.lock.locked():
        await asyncio.sleep(0.001)
        await table.notifier.drain()
        return
    plan = min(runtime.schedule.plans.values(), key=lambda p: p.due)
    runtime.schedule.plans = {k: p for k, p in runtime.schedule.plans.items() if p is not plan}
    table.clock.now = max(table.clock.now, plan.due)
    async with runtime.lock:
        await table.service.pipeline.fire(runtime, plan)
    await table.notifier.drain()
