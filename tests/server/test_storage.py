"""Storage: the memory and SQLite implementations keep one contract; SQLite is durable
(committed before acknowledged) and a restarted server carries on mid-game."""

from __future__ import annotations

import dataclasses
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from sequence_stacks.server import MemoryStorage, SqliteStorage, create_app
from sequence_stacks.server.storage import LogEntry, Storage, StorageConflictError, TableRow

from .harness import FAST, SHORT_GAME, assert_no_leaks, connect, create_table, play_until_over, sit

pytestmark = pytest.mark.timeout(90)


@pytest.fixture(params=["memory", "sqlite"])
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Storage]:
    store: Storage = (
        MemoryStorage() if request.param == "memory" else SqliteStorage(str(tmp_path / "t.sqlite3"))
    )
    yield store
    store.close()


def _row(table_id: str, visibility: str = "public", created_at: float = 1.0) -> TableRow:
    return TableRow(table_id, created_at, visibility, {"player_count": 2})


def test_entries_append_in_order_with_the_summary(storage: Storage) -> None:
    storage.create_table(_row("a"))
    storage.append("a", LogEntry(1, {"op": "sit", "seat": 0}), status="lobby", summary={"n": 1})
    storage.append("a", LogEntry(2, {"op": "start"}), status="playing", summary={"n": 2})
    assert [e.version for e in storage.entries("a")] == [1, 2]
    assert storage.entries("a")[0].payload == {"op": "sit", "seat": 0}
    row = storage.table("a")
    assert row is not None
    assert (row.status, row.version, row.summary) == ("playing", 2, {"n": 2})
    assert storage.table("missing") is None


def test_a_version_gap_or_repeat_is_refused(storage: Storage) -> None:
    storage.create_table(_row("a"))
    storage.append("a", LogEntry(1, {"op": "x"}), status="lobby", summary={})
    for version in (1, 3):
        with pytest.raises(StorageConflictError):
            storage.append("a", LogEntry(version, {"op": "y"}), status="lobby", summary={})
    assert len(storage.entries("a")) == 1
    with pytest.raises(StorageConflictError):
        storage.create_table(_row("a"))


def test_tables_filter_by_status_and_visibility(storage: Storage) -> None:
    storage.create_table(_row("old", created_at=1.0))
    storage.create_table(_row("new", created_at=2.0))
    storage.create_table(_row("secret", "unlisted", created_at=3.0))
    storage.append("old", LogEntry(1, {"op": "start"}), status="playing", summary={})
    assert [r.table_id for r in storage.tables(visibility="public")] == ["new", "old"]
    assert [r.table_id for r in storage.tables(status="playing")] == ["old"]


def test_sqlite_uses_wal_and_survives_reopening(tmp_path: Path) -> None:
    path = str(tmp_path / "db.sqlite3")
    store = SqliteStorage(path)
    store.create_table(_row("a"))
    store.append("a", LogEntry(1, {"op": "sit"}), status="lobby", summary={})
    # Another connection sees the entry at once: it was committed before append returned.
    with sqlite3.connect(path) as other:
        assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert other.execute("SELECT count(*) FROM log").fetchone()[0] == 1
    store.close()
    again = SqliteStorage(path)
    assert [e.payload for e in again.entries("a")] == [{"op": "sit"}]
    again.close()


def test_an_acknowledged_action_is_already_in_the_database(tmp_path: Path) -> None:
    path = str(tmp_path / "db.sqlite3")
    with TestClient(create_app(FAST, storage=SqliteStorage(path))) as client:
        table_id = create_table(client, {**SHORT_GAME, "player_count": 2})
        _, token = sit(client, table_id, "Ann")
        with connect(client, table_id, "ann") as ann:
            ann.hello(token)
            ack = ann.reply(ann.command("start"))
            with sqlite3.connect(path) as other:
                stored = other.execute(
                    "SELECT max(version) FROM log WHERE table_id = ?", (table_id,)
                ).fetchone()[0]
            assert stored >= ack["version"]


def test_a_restarted_server_rebuilds_the_table_and_the_game_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    settings = dataclasses.replace(FAST, database=str(path))
    with TestClient(create_app(settings)) as client:
        table_id = create_table(client, {**SHORT_GAME, "player_count": 3})
        tokens = [sit(client, table_id, name)[1] for name in ("Ann", "Bob")]
        with connect(client, table_id, "ann") as ann, connect(client, table_id, "bob") as bob:
            ann.hello(tokens[0])
            bob.hello(tokens[1])
            ann.reply(ann.command("start"))
            for player in (ann, bob):
                player.wait_for(lambda f: f["type"] == "update" and f["op"] == "start")
            for _ in range(4):  # a few moves, then the server stops mid-game
                for player in (ann, bob):
                    player.drain()
                    choice = player.choose()
                    if choice is not None:
                        player.reply(player.act(choice))
            seen = ann.version
            assert ann.view is not None
            assert ann.view["result"] is None
    with TestClient(create_app(settings)) as client:
        with connect(client, table_id, "ann") as ann, connect(client, table_id, "bob") as bob:
            sync = ann.hello(tokens[0], last_version=seen)
            assert sync["you"] == 0
            assert sync["version"] >= seen
            bob.hello(tokens[1])
            play_until_over([ann, bob])
            for player in (ann, bob):
                player.drain()
        store = SqliteStorage(str(path))
        entries = store.entries(table_id)
        assert ann.version == len(entries)
        assert_no_leaks(store, table_id, [ann, bob])
        store.close()
