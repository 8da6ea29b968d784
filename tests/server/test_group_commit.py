"""The writer thread (SQLite's, and PostgreSQL's: the same one) commits in groups and
nothing is heard of before its commit: an acknowledgement or broadcast never precedes
the commit, a refused entry in a group fails alone, and an entry committed just before
a crash is there after a restart."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import random
import sqlite3
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import psycopg
import pytest

from sequence_stacks.engine import Settings, State, apply, legal_actions, new_game, observe
from sequence_stacks.server import MemoryStorage, SqliteStorage, TableService, open_storage
from sequence_stacks.server.play import commands
from sequence_stacks.server.play.codec import dumps
from sequence_stacks.server.play.table import Table
from sequence_stacks.server.play.viewdata import view_dict
from sequence_stacks.server.store import (
    ListingCursor,
    LogEntry,
    Storage,
    StorageConflictError,
    StorageUnavailableError,
    TableRow,
)
from sequence_stacks.server.store.postgres import PostgresStorage

from .harness import FAST
from .postgres import fresh_schema

pytestmark = pytest.mark.timeout(60)


def _row(table_id: str) -> TableRow:
    return TableRow(table_id, 1.0, "public", {"player_count": 2})


def _stored_versions(path: str, table_id: str) -> set[int]:
    """What a brand-new connection (another process, say) can read from the file."""
    with sqlite3.connect(path) as other:
        rows = other.execute("SELECT version FROM log WHERE table_id = ?", (table_id,))
        return {version for (version,) in rows}


def test_a_future_completes_only_once_another_connection_can_read_the_entry(
    tmp_path: Path,
) -> None:
    path = str(tmp_path / "db.sqlite3")
    store = SqliteStorage(path)
    tables = ["a", "b", "c"]
    for table_id in tables:
        store.create_table(_row(table_id))
    seen: list[tuple[str, int, bool]] = []

    def check(table_id: str, version: int) -> Any:
        # Runs in the writer thread the moment the future completes.
        def done(future: concurrent.futures.Future[None]) -> None:
            assert future.exception() is None
            seen.append((table_id, version, version in _stored_versions(path, table_id)))

        return done

    futures = []
    for version in range(1, 41):
        for table_id in tables:
            future = store.submit(
                table_id, LogEntry(version, {"op": "x"}), status="lobby", summary={}
            )
            future.add_done_callback(check(table_id, version))
            futures.append(future)
    store.close()  # joins the writer thread: every callback has run
    assert all(future.result(timeout=0) is None for future in futures)
    assert len(seen) == 120
    assert all(readable for _, _, readable in seen)
    assert store.grouped == 123  # three create_table jobs and 120 entries


def _queue_behind(store: SqliteStorage | PostgresStorage, release: Callable[[], object]) -> None:
    """Queue entries of the new tables a and b (and a repeated version) while the
    writer cannot commit; ``release`` lets it. They share at most two commits (the first entry alone
    at most, then every other one at once) and the repeat fails alone."""
    commits_before = store.commits
    good = [
        store.submit(table_id, LogEntry(version, {"op": "x"}), status="lobby", summary={})
        for version in range(1, 11)
        for table_id in ("a", "b")
    ]
    repeat = store.submit("a", LogEntry(3, {"op": "again"}), status="lobby", summary={})
    assert not any(future.done() for future in [*good, repeat])
    release()
    for future in good:
        assert future.result(timeout=10) is None
    with pytest.raises(StorageConflictError):
        repeat.result(timeout=10)
    assert store.commits - commits_before <= 2
    assert [e.version for e in store.entries("a")] == list(range(1, 11))
    assert [e.payload["op"] for e in store.entries("a")] == ["x"] * 10
    row = store.table("b")
    assert row is not None
    assert row.version == 10


def test_waiting_entries_share_one_commit_and_a_refused_one_fails_alone(tmp_path: Path) -> None:
    path = str(tmp_path / "db.sqlite3")
    store = SqliteStorage(path)
    store.create_table(_row("a"))
    store.create_table(_row("b"))
    blocker = sqlite3.connect(path, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")  # the writer cannot begin until this ends
    _queue_behind(store, lambda: blocker.execute("ROLLBACK"))
    blocker.close()
    store.close()


def test_postgresql_shares_the_writer_waiting_entries_share_one_commit() -> None:
    """The same writer on PostgreSQL: entries queued while the writer waits for a lock
    are committed together, a refused one fails alone, later ones are refused."""
    with fresh_schema() as url:
        store = PostgresStorage(url)
        store.create_table(_row("a"))
        store.create_table(_row("b"))
        with psycopg.connect(url, autocommit=True) as blocker:
            blocker.execute("BEGIN")
            blocker.execute("LOCK TABLE log IN ACCESS EXCLUSIVE MODE")  # the writer waits
            _queue_behind(store, lambda: blocker.execute("ROLLBACK"))
        store.close()
        late = store.submit("a", LogEntry(11, {"op": "x"}), status="lobby", summary={})
        with pytest.raises(StorageUnavailableError):
            late.result(timeout=0)


def test_close_finishes_queued_writes_and_later_ones_fail(tmp_path: Path) -> None:
    path = str(tmp_path / "db.sqlite3")
    store = SqliteStorage(path)
    store.create_table(_row("a"))
    futures = [
        store.submit("a", LogEntry(version, {"op": "x"}), status="lobby", summary={})
        for version in range(1, 21)
    ]
    store.close()
    assert all(future.result(timeout=0) is None for future in futures)
    late = store.submit("a", LogEntry(21, {"op": "x"}), status="lobby", summary={})
    with pytest.raises(sqlite3.ProgrammingError):
        late.result(timeout=0)
    assert _stored_versions(path, "a") == set(range(1, 21))


def test_an_in_memory_database_is_the_memory_storage() -> None:
    with pytest.raises(ValueError, match="file path"):
        SqliteStorage(":memory:")
    assert isinstance(open_storage(":memory:"), MemoryStorage)
    assert isinstance(open_storage("memory"), MemoryStorage)


# --- the service: acknowledge and broadcast only after the commit ---------------------


class _Gated:
    """A storage whose commits complete only when the test says so."""

    def __init__(self, inner: Storage) -> None:
        self.inner = inner
        self.pending: list[tuple[asyncio.Future[None], asyncio.Future[None]]] = []
        self.gated = False

    def create_table(self, row: TableRow) -> None:
        self.inner.create_table(row)

    def append(
        self, table_id: str, entry: LogEntry, *, status: str, summary: Mapping[str, Any] | None
    ) -> None:
        self.inner.append(table_id, entry, status=status, summary=summary)

    def table(self, table_id: str) -> TableRow | None:
        return self.inner.table(table_id)

    def entries(self, table_id: str) -> list[LogEntry]:
        return self.inner.entries(table_id)

    def tables(self, *, status: str | None = None, visibility: str | None = None) -> list[TableRow]:
        return self.inner.tables(status=status, visibility=visibility)

    def listed_tables(
        self, *, since: float, limit: int, before: ListingCursor | None = None
    ) -> list[TableRow]:
        return self.inner.listed_tables(since=since, limit=limit, before=before)

    def close(self) -> None:
        self.inner.close()

    def submit(
        self, table_id: str, entry: LogEntry, *, status: str, summary: Mapping[str, Any] | None
    ) -> concurrent.futures.Future[None]:
        return self.inner.submit(table_id, entry, status=status, summary=summary)

    def commit_async(
        self, table_id: str, entry: LogEntry, *, status: str, summary: Mapping[str, Any] | None
    ) -> asyncio.Future[None]:
        real = self.inner.commit_async(table_id, entry, status=status, summary=summary)
        if not self.gated:
            return real
        held: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.pending.append((real, held))
        return held

    async def release(self) -> None:
        for real, held in self.pending:
            await real
            held.set_result(None)
        self.pending.clear()


class _Subscriber:
    def __init__(self) -> None:
        self.seat: int | None = None
        self.token_hash: str | None = None
        self.notation = False
        self.frames: list[dict[str, Any]] = []

    def send(self, frame: Mapping[str, Any]) -> None:
        self.frames.append(json.loads(json.dumps(frame)))

    def send_text(self, text: str) -> None:
        self.frames.append(json.loads(text))

    def flush(self) -> None:
        pass  # frames are taken as they are queued

    def kick(self, code: int, reason: str) -> None:
        self.frames.append({"type": "kicked", "code": code, "reason": reason})

    def types(self) -> list[str]:
        return [frame["type"] for frame in self.frames]


async def _seated_table(
    service: TableService, storage: _Gated
) -> tuple[str, _Subscriber, _Subscriber]:
    del storage
    table_id = await service.create_table({"player_count": 2}, visibility="public")
    _, ann_token = await service.sit(table_id, "Ann", None)
    _, bob_token = await service.sit(table_id, "Bob", None)
    ann, bob = _Subscriber(), _Subscriber()
    await service.hello(table_id, ann, ann_token, None)
    await service.hello(table_id, bob, bob_token, None)
    return table_id, ann, bob


def test_no_ack_or_broadcast_before_the_commit_completes() -> None:
    async def scenario() -> None:
        storage = _Gated(MemoryStorage())
        service = TableService(storage, FAST, rng=random.Random(3))
        table_id, ann, bob = await _seated_table(service, storage)
        storage.gated = True
        version = 2  # two seats taken
        ann.frames.clear()
        bob.frames.clear()
        task = asyncio.create_task(
            service.command(table_id, ann, commands.Start(id="go", version=version))
        )
        for _ in range(20):
            await asyncio.sleep(0)
        assert len(storage.pending) == 1
        assert "ack" not in ann.types()
        assert "update" not in ann.types() + bob.types()
        await storage.release()
        await task
        assert ann.types() == ["ack", "update"]
        assert bob.types() == ["update"]
        assert ann.frames[0]["version"] == ann.frames[1]["version"] == version + 1
        await service.close()

    asyncio.run(scenario())


def test_a_cancelled_command_still_acks_and_broadcasts_after_its_commit() -> None:
    async def scenario() -> None:
        storage = _Gated(MemoryStorage())
        service = TableService(storage, FAST, rng=random.Random(3))
        table_id, ann, bob = await _seated_table(service, storage)
        storage.gated = True
        bob.frames.clear()
        ann.frames.clear()
        task = asyncio.create_task(
            service.command(table_id, ann, commands.Start(id="go", version=2))
        )
        for _ in range(20):
            await asyncio.sleep(0)
        task.cancel()
        for _ in range(20):
            await asyncio.sleep(0)
        assert not task.done()  # still waiting for its commit
        assert ann.frames == []
        await storage.release()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert ann.types() == ["ack", "update"]
        assert bob.types() == ["update"]
        await service.close()

    asyncio.run(scenario())


def test_a_crash_between_commit_and_broadcast_loses_nothing(tmp_path: Path) -> None:
    """The entry is committed, the server dies before acknowledging: a restart has it."""
    path = str(tmp_path / "db.sqlite3")

    dead = _Gated(SqliteStorage(path))

    async def before_crash() -> tuple[str, str | None, int]:
        storage = dead
        service = TableService(storage, FAST, rng=random.Random(5))
        table_id, ann, _ = await _seated_table(service, storage)
        storage.gated = True
        task = asyncio.create_task(
            service.command(table_id, ann, commands.Start(id="go", version=2))
        )
        for _ in range(20):
            await asyncio.sleep(0)
        real, held = storage.pending[0]
        await real  # committed by the writer thread ...
        assert "ack" not in ann.types()  # ... but never acknowledged: the process "dies"
        held.set_exception(RuntimeError("the server process died here"))
        with pytest.raises(RuntimeError):
            await task
        assert "ack" not in ann.types()
        return table_id, ann.token_hash, 3  # the service is abandoned, never closed

    table_id, ann_hash, version = asyncio.run(before_crash())
    client_id = "go"
    assert version in _stored_versions(path, table_id)

    async def after_restart() -> None:
        storage = SqliteStorage(path)
        service = TableService(storage, FAST, rng=random.Random(6))
        await service.start()  # rebuilds every table with a game being played
        viewer = _Subscriber()
        await service.hello(table_id, viewer, None, 2)
        sync = next(frame for frame in viewer.frames if frame["type"] == "sync")
        assert sync["version"] >= version
        assert [e["op"] for e in sync["entries"]][:1] == ["start"]
        assert sync["table"]["status"] == "playing"
        # The client, back with its token, resends the unacknowledged command: it is
        # answered as a duplicate (ids are per token: docs/protocol.md).
        seated = _Subscriber()
        seated.token_hash = ann_hash
        await service.command(table_id, seated, commands.Start(id=client_id, version=version - 1))
        assert seated.frames[-1] == {
            "type": "ack",
            "id": client_id,
            "version": version,
            "duplicate": True,
        }
        await service.close()
        storage.close()

    asyncio.run(after_restart())
    dead.close()


# --- the faster view encoding is the engine's -----------------------------------------


def test_view_dict_is_the_engines_view_to_dict() -> None:
    settings = Settings(player_count=3)
    rng = random.Random(8)
    table = Table(TableRow("t", 0.0, "public", settings.to_dict()))
    state: State = new_game(settings, 1234)
    for _ in range(300):
        table.state = state
        for viewer in (None, 0, 1, 2):
            # The same JSON on the wire (the server leaves tuples as tuples).
            fast = dumps({"view": view_dict(table, viewer)})
            assert fast == dumps({"view": observe(state, viewer).to_dict()})
            assert json.loads(fast)["view"] == observe(state, viewer).to_dict()
        if state.is_over:
            break
        seat = rng.choice(state.deciders())
        state, _ = apply(state, seat, rng.choice(legal_actions(state, seat)))


def test_a_postgresql_group_with_no_conflict_is_one_statement_an_entry() -> None:
    """#17: an entry is one round trip (one statement moves the row and writes the
    entry), and a group with no refused entry runs with no savepoint round trips."""
    with fresh_schema() as url:
        store = PostgresStorage(url)
        store.create_table(_row("a"))
        store.create_table(_row("b"))
        statements: list[str] = []
        connect = store._connect

        class Counting:
            def __init__(self, inner: psycopg.Connection[Any]) -> None:
                self.inner = inner

            def execute(self, query: Any, *args: Any, **kwargs: Any) -> Any:
                statements.append(str(query))
                return self.inner.execute(query, *args, **kwargs)

            def __getattr__(self, name: str) -> Any:
                return getattr(self.inner, name)

        store._connect = lambda: Counting(connect())  # type: ignore[method-assign,assignment,return-value]
        if store._writer_db is not None:
            store._writer_db.close()  # the next write opens a counted one
        store._writer_db = None
        with psycopg.connect(url, autocommit=True) as blocker:
            blocker.execute("BEGIN")
            blocker.execute("LOCK TABLE log IN ACCESS EXCLUSIVE MODE")  # the writer waits
            futures = [
                store.submit(table_id, LogEntry(version, {"op": "x"}), status="lobby", summary={})
                for version in range(1, 6)
                for table_id in ("a", "b")
            ]
            blocker.execute("ROLLBACK")
        for future in futures:
            assert future.result(timeout=10) is None
        writes = [s for s in statements if "INSERT INTO log" in s]
        assert len(writes) == 10
        assert not [s for s in statements if "SAVEPOINT" in s]
        assert [e.version for e in store.entries("b")] == [1, 2, 3, 4, 5]
        store.close()
