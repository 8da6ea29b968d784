"""Storage: the memory, SQLite and PostgreSQL implementations keep one contract; SQLite is durable
(committed before acknowledged) and a restarted server carries on mid-game."""

from __future__ import annotations

import dataclasses
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from sequence_stacks.server import SqliteStorage, create_app
from sequence_stacks.server.store import (
    ListingCursor,
    LogEntry,
    Storage,
    StorageConflictError,
    StorageVersionError,
    TableRow,
)
from sequence_stacks.server.store.sqlite import _LISTED, SCHEMA_VERSION

from .harness import FAST, SHORT_GAME, assert_no_leaks, connect, create_table, play_until_over, sit
from .postgres import storage_of

pytestmark = pytest.mark.timeout(90)


@pytest.fixture(params=["memory", "sqlite", "postgresql"])
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Storage]:
    if request.param == "sqlite":
        store = SqliteStorage(str(tmp_path / "t.sqlite3"))
        yield store
        store.close()
        return
    with storage_of(request.param) as fresh:
        yield fresh


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
        # The default five chips: a few moves in, the game is still running.
        table_id = create_table(client, {"player_count": 3})
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


FIXTURES = Path(__file__).parent / "fixtures"


def test_a_database_written_by_the_schema_1_server_migrates_and_replays(tmp_path: Path) -> None:
    """tests/server/fixtures/schema-1.sqlite3 was written by the server before schema 2
    (see its README): it opens, gains ``updated_at`` from its log, and its tables
    rebuild, list and replay as before."""
    path = tmp_path / "old.sqlite3"
    path.write_bytes((FIXTURES / "schema-1.sqlite3").read_bytes())
    with sqlite3.connect(path) as before:
        assert before.execute("PRAGMA user_version").fetchone()[0] == 1
        rows_before = before.execute("SELECT table_id, version FROM tables").fetchall()
        last_change = dict(
            before.execute("SELECT table_id, MAX(created_at) FROM log GROUP BY table_id")
        )
    store = SqliteStorage(str(path))
    try:
        assert {(r.table_id, r.version) for r in store.tables()} == set(rows_before)
        for row in store.tables():
            assert row.updated_at == last_change.get(row.table_id, row.created_at)
        # The fixture's tables were last changed when it was written: list them anyway.
        settings = dataclasses.replace(FAST, listing_idle=1e12)
        with TestClient(create_app(settings, storage=store)) as client:
            listed = client.get("/api/tables").json()["tables"]
            assert {t["status"] for t in listed} <= {"lobby", "playing"}
            playing = next(r for r in store.tables() if r.status == "playing")
            assert playing.table_id in {t["id"] for t in listed}
            finished = client.get(f"/api/tables/{playing.table_id}/games/1").json()
            assert finished["over"] is True
            assert finished["view"]["result"] is not None
            lobby = client.get(f"/api/tables/{playing.table_id}").json()
            assert lobby["game"] == 2
            assert lobby["status"] == "playing"
    finally:
        store.close()
    with sqlite3.connect(path) as after:
        assert after.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        # Tables stored before they had options read as a normal pace with no name.
        options = {row[0] for row in after.execute("SELECT options FROM tables")}
        assert options == {"{}"}


def test_a_database_from_a_newer_release_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA user_version=99")
    with pytest.raises(StorageVersionError, match="schema 99"):
        SqliteStorage(str(path))


def test_the_public_list_reads_a_page_through_its_index(tmp_path: Path) -> None:
    """However many tables there are, a page is read from the partial index in order:
    no scan of the table and no sort (what kept the lobby fast at 5,000 tables)."""
    store = SqliteStorage(str(tmp_path / "many.sqlite3"))
    try:
        for index in range(300):
            store.create_table(_row(f"t{index:03}", created_at=float(index)))
        with sqlite3.connect(store.path) as db:
            plan = " | ".join(
                str(step[-1])
                for step in db.execute(
                    "EXPLAIN QUERY PLAN " + _LISTED, (0.0, None, None, None, None, 50)
                )
            )
        assert "tables_listed" in plan
        assert "TEMP B-TREE" not in plan
        page = store.listed_tables(since=100.0, limit=10)
        assert [r.table_id for r in page] == [f"t{i:03}" for i in range(299, 289, -1)]
        cursor = ListingCursor(page[-1].updated_at, page[-1].table_id)
        following = store.listed_tables(since=100.0, limit=500, before=cursor)
        assert following[0].table_id == "t289"
        assert following[-1].table_id == "t100"
    finally:
        store.close()


def test_both_storages_list_the_same_pages(storage: Storage) -> None:
    for index in range(12):
        storage.create_table(_row(f"t{index:02}", created_at=float(index % 4)))
    storage.create_table(_row("secret", "unlisted", created_at=5.0))
    storage.append("t00", LogEntry(1, {"op": "x"}), status="over", summary={})
    pages: list[list[str]] = []
    cursor = None
    while True:
        page = storage.listed_tables(since=0.0, limit=5, before=cursor)
        if not page:
            break
        pages.append([row.table_id for row in page])
        cursor = ListingCursor(page[-1].updated_at, page[-1].table_id)
    flat = [table_id for page in pages for table_id in page]
    assert len(flat) == 11
    assert "t00" not in flat
    assert "secret" not in flat
    assert flat == sorted(flat, key=lambda t: (int(t[1:]) % 4, t), reverse=True)


def test_moves_in_quick_succession_leave_the_rows_listing_time_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite moves a table's ``updated_at`` at most every TOUCH_INTERVAL seconds when
    nothing else of its row changes (its index entries stay put), always when the
    status or summary changes; a rolled-back transaction forgets what it wrote."""
    now = [1000.0]
    monkeypatch.setattr("sequence_stacks.server.store.sqlite.time.time", lambda: now[0])
    store = SqliteStorage(str(tmp_path / "t.sqlite3"))
    try:
        store.create_table(_row("a"))

        def listed() -> tuple[str, float, int]:
            row = store.table("a")
            assert row is not None
            return row.status, row.updated_at, row.version

        store.append("a", LogEntry(1, {"op": "start"}), status="playing", summary={"n": 1})
        assert listed() == ("playing", 1000.0, 1)
        now[0] = 1003.0
        store.append("a", LogEntry(2, {"op": "act"}), status="playing", summary=None)
        assert listed() == ("playing", 1000.0, 2)  # a move: only the version moved
        now[0] = 1006.0  # TOUCH_INTERVAL after the last write of updated_at
        store.append("a", LogEntry(3, {"op": "act"}), status="playing", summary=None)
        assert listed() == ("playing", 1006.0, 3)
        now[0] = 1007.0
        store.append("a", LogEntry(4, {"op": "act"}), status="over", summary=None)
        assert listed() == ("over", 1007.0, 4)  # a new status is always written
        now[0] = 1008.0
        with pytest.raises(StorageConflictError):  # a repeated version: rolled back
            store.append("a", LogEntry(4, {"op": "act"}), status="over", summary=None)
        store.append("a", LogEntry(5, {"op": "act"}), status="over", summary=None)
        assert listed() == ("over", 1008.0, 5)  # after a rollback, written in full
    finally:
        store.close()


def test_the_write_ahead_log_is_started_over_under_writes_that_never_pause(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Passive checkpoints alone never restart a log that is written without a pause
    (checkpoint starvation: it grew to 1.1 GB in 25 s of saturated play); past
    WAL_RESTART_PAGES the checkpointer takes the writer's turn and starts it over."""
    monkeypatch.setattr("sequence_stacks.server.store.sqlite.CHECKPOINT_INTERVAL", 0.02)
    monkeypatch.setattr("sequence_stacks.server.store.sqlite.WAL_RESTART_PAGES", 64)
    restarts: list[float] = []
    restart = SqliteStorage._restart

    def counted(store: SqliteStorage, db: sqlite3.Connection) -> None:
        restart(store, db)
        restarts.append(1.0)

    monkeypatch.setattr(SqliteStorage, "_restart", counted)
    path = tmp_path / "t.sqlite3"
    store = SqliteStorage(str(path))
    try:
        for table in range(20):
            store.create_table(_row(f"t{table}"))
        versions = [0] * 20
        payload = {"op": "act", "seat": 0, "action": "x" * 3000}  # about a page an entry
        for step in range(8000):  # writes without a pause, one table after another
            table = step % 20
            versions[table] += 1
            entry = LogEntry(versions[table], payload)
            store.append(f"t{table}", entry, status="playing", summary=None)
        assert [entry.version for entry in store.entries("t7")] == list(range(1, 401))
        assert restarts  # the log was started over while the writes went on
        # And a restart does start it over: the next move is the log's first pages.
        db = store._connect()
        try:
            store._restart(db)
            store.append("t0", LogEntry(401, payload), status="playing", summary=None)
            _, pages, _ = db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        finally:
            db.close()
        assert pages <= 8, pages
    finally:
        store.close()
