"""Table ownership among workers (#17): one owner per table through a session-level
advisory lock; a forced race (a worker that lost its lock without noticing yet) never
lets two workers commit one version."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import AsyncIterator, Iterator

import psycopg
import pytest

from sequence_stacks.server.play import Refusal, TableService
from sequence_stacks.server.play.cluster import OwnershipGate
from sequence_stacks.server.play.ownership import Ownership, table_key
from sequence_stacks.server.store.postgres import PostgresStorage

from .harness import FAST
from .postgres import fresh_schema

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def url() -> Iterator[str]:
    with fresh_schema() as schema_url:
        yield schema_url


@dataclasses.dataclass
class Worker:
    """One worker's table service and the advisory locks its gate holds."""

    service: TableService
    ownership: Ownership


@contextlib.asynccontextmanager
async def worker(url: str, name: str) -> AsyncIterator[Worker]:
    store = PostgresStorage(url)
    ownership = Ownership(url, name)
    service = TableService(store, FAST, gate=OwnershipGate(ownership, FAST))
    await service.start()
    try:
        yield Worker(service, ownership)
    finally:
        await service.close()
        store.close()


def _log(url: str, table_id: str) -> list[tuple[int, str]]:
    with psycopg.connect(url) as db:
        rows = db.execute(
            "SELECT version, payload::text FROM log WHERE table_id = %s ORDER BY version",
            (table_id,),
        ).fetchall()
    return [(int(version), str(payload)) for version, payload in rows]


async def _until(condition: object, what: str) -> None:
    for _ in range(200):
        if callable(condition) and condition():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"never happened: {what}")


def test_the_key_is_the_same_for_every_worker_and_differs_between_tables() -> None:
    assert table_key("abc") == table_key("abc")
    assert table_key("abc") != table_key("abd")
    assert -(2**63) <= table_key("abc") < 2**63


def test_one_owner_the_other_worker_is_refused_and_reads_from_the_database(url: str) -> None:
    async def scenario() -> None:
        async with worker(url, "a") as a, worker(url, "b") as b:
            table_id = await a.service.create_table({"player_count": 2}, visibility="public")
            await a.service.sit(table_id, "Ann", None)
            assert a.ownership.holds(table_id)
            with pytest.raises(Refusal) as refused:
                await b.service.sit(table_id, "Bob", None)
            assert refused.value.code == "elsewhere"
            assert not b.ownership.holds(table_id)
            # Any worker answers the lobby, from the database when it does not own it.
            lobby = await b.service.lobby(table_id)
            assert [seat.get("name") for seat in lobby["seats"]][:1] == ["Ann"]
            assert b.service.health()["tables"] == 0
            assert a.service.health()["tables"] == 1
            assert _log(url, table_id)[-1][0] == 1

    asyncio.run(scenario())


def test_a_dead_owners_table_is_taken_and_a_graceful_stop_releases_it(url: str) -> None:
    async def scenario() -> None:
        async with worker(url, "b") as b:
            async with worker(url, "a") as a:
                table_id = await a.service.create_table({"player_count": 2}, visibility="public")
                await a.service.sit(table_id, "Ann", None)
            # a stopped (its session ended): b takes the table on the next request.
            await b.service.sit(table_id, "Bob", None)
            assert b.ownership.holds(table_id)
            assert [version for version, _ in _log(url, table_id)] == [1, 2]

    asyncio.run(scenario())


def test_a_forced_race_lets_only_one_worker_commit_a_version(url: str) -> None:
    """Worker a's lock session is killed while its heartbeat is paused, so a still
    believes it owns the table; b takes the lock and commits version 2. a's own
    version 2 is refused by the storage, a drops the table, and the log holds b's."""

    async def scenario() -> None:
        async with worker(url, "a") as a, worker(url, "b") as b:
            table_id = await a.service.create_table({"player_count": 3}, visibility="public")
            await a.service.sit(table_id, "Ann", None)
            a.ownership.paused.set()
            pid = a.ownership.backend_pid
            assert pid is not None
            with psycopg.connect(url, autocommit=True) as admin:
                # With a timeout it returns once the session is gone (PostgreSQL 14+).
                admin.execute("SELECT pg_terminate_backend(%s, 10000)", (pid,))
            assert a.ownership.holds(table_id)  # a has not noticed
            await b.service.sit(table_id, "Bob", None)
            assert b.ownership.holds(table_id)
            with pytest.raises(Refusal) as refused:
                await a.service.sit(table_id, "Cat", None)
            assert refused.value.code == "elsewhere"
            log = _log(url, table_id)
            assert [version for version, _ in log] == [1, 2]
            assert "Bob" in log[1][1]
            assert all("Cat" not in payload for _, payload in log)
            await _until(lambda: table_id not in a.service.tables.loaded(), "a drops the table")
            a.ownership.paused.clear()
            await _until(lambda: not a.ownership.held, "a's heartbeat finds its session gone")
            # b acts on: its table is at version 2 and takes version 3.
            await b.service.sit(table_id, "Dee", None)
            assert [version for version, _ in _log(url, table_id)] == [1, 2, 3]

    asyncio.run(scenario())


def test_a_worker_refused_a_table_gets_it_handed_over_on_the_retry(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The proxy sends a table's players to b (say a dead worker back in the ring)
    while a owns it: b refuses, asks a to let go, and b takes it on the retry."""
    monkeypatch.setattr("sequence_stacks.server.play.cluster.MIN_HOLD", 0.0)

    async def scenario() -> None:
        async with worker(url, "a") as a, worker(url, "b") as b:
            table_id = await a.service.create_table({"player_count": 3}, visibility="public")
            await a.service.sit(table_id, "Ann", None)
            with pytest.raises(Refusal) as refused:
                await b.service.sit(table_id, "Bob", None)
            assert refused.value.code == "elsewhere"
            await _until(lambda: not a.ownership.holds(table_id), "a lets the table go")
            assert table_id not in a.service.tables.loaded()
            await b.service.sit(table_id, "Bob", None)
            assert b.ownership.holds(table_id)
            assert [version for version, _ in _log(url, table_id)] == [1, 2]

    asyncio.run(scenario())
