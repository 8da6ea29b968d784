"""PostgreSQL storage (#17): committed before acknowledged, the public list read from
its index, a versioned schema, and a server cut off from its database refusing actions
(acknowledging nothing) until it can reach it again."""

from __future__ import annotations

import contextlib
import subprocess
import sys
from collections.abc import Iterator

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from starlette.testclient import TestClient

from sequence_stacks.server import create_app, open_storage
from sequence_stacks.server.store import (
    ListingCursor,
    LogEntry,
    StorageUnavailableError,
    StorageVersionError,
    TableRow,
)
from sequence_stacks.server.store.postgres import (
    _LISTED,
    POSTGRES_SCHEMA_VERSION,
    PostgresStorage,
)

from .harness import (
    FAST,
    SHORT_GAME,
    ClosedError,
    Player,
    connect,
    create_table,
    play_until_over,
    sit,
)
from .postgres import fresh_database, fresh_schema, server_url

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def url() -> Iterator[str]:
    with fresh_schema() as schema_url:
        yield schema_url


@pytest.fixture
def store(url: str) -> Iterator[PostgresStorage]:
    opened = PostgresStorage(url)
    yield opened
    opened.close()


@pytest.fixture
def own_database() -> Iterator[tuple[PostgresStorage, str]]:
    """A storage on a database of the test's own, and its URL, for a test that ends the
    database's sessions or closes it (the other pytest process's tests keep their
    sessions on the shared one)."""
    with fresh_database() as database_url:
        opened = PostgresStorage(database_url)
        try:
            yield opened, database_url
        finally:
            opened.close()


def _row(table_id: str, created_at: float = 1.0) -> TableRow:
    return TableRow(table_id, created_at, "public", {"player_count": 2})


def test_a_url_setting_opens_postgresql(url: str) -> None:
    opened = open_storage(url)
    try:
        assert isinstance(opened, PostgresStorage)
    finally:
        opened.close()


def test_an_acknowledged_action_is_already_in_postgresql(store: PostgresStorage, url: str) -> None:
    with TestClient(create_app(FAST, storage=store)) as client:
        table_id = create_table(client, {**SHORT_GAME, "player_count": 2})
        _, token = sit(client, table_id, "Ann")
        with connect(client, table_id, "ann") as ann:
            ann.hello(token)
            ack = ann.reply(ann.command("start"))
            assert ack["type"] == "ack"
            with psycopg.connect(url) as other:
                found = other.execute(
                    "SELECT max(version) FROM log WHERE table_id = %s", (table_id,)
                ).fetchone()
            assert found is not None
            assert found[0] >= ack["version"]


def test_the_public_list_reads_a_page_in_order_from_its_index(
    store: PostgresStorage, url: str
) -> None:
    for index in range(300):
        store.create_table(_row(f"t{index:03}", created_at=float(index)))
    with psycopg.connect(url) as db:
        db.execute("ANALYZE tables")
        db.execute("SET enable_seqscan = off")  # a few hundred rows: show the index can
        plan = "\n".join(row[0] for row in db.execute("EXPLAIN " + _LISTED, (0.0, 50)))
    assert "Index Scan using tables_listed" in plan
    assert "Sort" not in plan
    page = store.listed_tables(since=100.0, limit=10)
    assert [r.table_id for r in page] == [f"t{i:03}" for i in range(299, 289, -1)]
    cursor = ListingCursor(page[-1].updated_at, page[-1].table_id)
    following = store.listed_tables(since=100.0, limit=500, before=cursor)
    assert (following[0].table_id, following[-1].table_id) == ("t289", "t100")


def test_the_schema_is_versioned_and_a_second_opening_migrates_nothing(
    store: PostgresStorage, url: str
) -> None:
    store.create_table(_row("a"))
    again = PostgresStorage(url)  # another worker starting on the same database
    try:
        assert [row.table_id for row in again.tables()] == ["a"]
    finally:
        again.close()
    with psycopg.connect(url) as db:
        versions = db.execute("SELECT version FROM schema_version").fetchall()
    assert versions == [(POSTGRES_SCHEMA_VERSION,)]


def test_a_database_from_a_newer_release_is_refused(url: str) -> None:
    with psycopg.connect(url, autocommit=True) as db:
        db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        db.execute("INSERT INTO schema_version VALUES (99)")
    with pytest.raises(StorageVersionError, match="schema 99"):
        PostgresStorage(url)


def test_an_unreachable_database_is_one_clear_error() -> None:
    parts = conninfo_to_dict(server_url())
    closed_port = _closed_port()
    url = f"postgresql://{parts.get('user', 'x')}@127.0.0.1:{closed_port}/nothing"
    with pytest.raises(StorageUnavailableError, match=r"cannot connect to postgresql://") as info:
        PostgresStorage(url, connect_timeout=2)
    assert "\n" not in str(info.value)


def test_a_database_restart_is_survived_and_a_closed_one_refuses_writes(
    own_database: tuple[PostgresStorage, str],
) -> None:
    store, url = own_database
    store.create_table(_row("a"))
    store.append("a", LogEntry(1, {"op": "x"}), status="lobby", summary={})
    _terminate_sessions(url)  # as a restart of the database would: fresh connections
    store.append("a", LogEntry(2, {"op": "y"}), status="lobby", summary={})
    with _database_closed(url), pytest.raises(StorageUnavailableError):
        store.append("a", LogEntry(3, {"op": "lost"}), status="lobby", summary={})
    store.append("a", LogEntry(3, {"op": "z"}), status="lobby", summary={})
    assert [e.payload["op"] for e in store.entries("a")] == ["x", "y", "z"]


def test_a_server_cut_off_from_its_database_refuses_actions_and_acknowledges_nothing(
    own_database: tuple[PostgresStorage, str],
) -> None:
    """While the database refuses connections, a player's action is refused with
    ``unavailable`` (never acknowledged nor broadcast), or, when the worker notices first
    that its table lock went with its database session, the table is let go and the
    socket closed with 1012 (reconnect); once the database is back the table is
    reloaded from the log and the game finishes with a gap-free log."""
    store, url = own_database
    with TestClient(create_app(FAST, storage=store)) as client:
        table_id = create_table(client, {**SHORT_GAME, "player_count": 2})
        _, token = sit(client, table_id, "Ann")
        acks: list[dict[str, object]] = []
        with connect(client, table_id, "ann") as ann:
            ann.hello(token)
            assert ann.reply(ann.command("start"))["type"] == "ack"
            ann.wait_for(lambda f: f["type"] == "update" and f["op"] == "start")
            with _database_closed(url):
                refused_id, _ = _act_while_cut_off(ann)
            acks += [f for f in ann.frames if f["type"] == "ack"]
        acks += _finish_as_a_browser_would(client, table_id, token)
        assert refused_id not in {f["id"] for f in acks}
        versions = [entry.version for entry in store.entries(table_id)]
        assert versions == list(range(1, len(versions) + 1))
        assert {f["version"] for f in acks} <= set(versions)


def _finish_as_a_browser_would(
    client: TestClient, table_id: str, token: str
) -> list[dict[str, object]]:
    """Reconnect and play to the end, reconnecting again when the worker closes the
    socket with 1012 (it let the table go and takes it back: browsers do the same);
    return the acks received."""
    acks: list[dict[str, object]] = []
    for attempt in range(10):
        with connect(client, table_id, f"ann-{attempt}") as again:
            try:
                assert again.hello(token)["type"] == "sync"
                play_until_over([again])
            except ClosedError as closed:
                if closed.code != 1012:
                    raise
                acks += [f for f in again.frames if f["type"] == "ack"]
                continue
            assert again.over()
            return acks + [f for f in again.frames if f["type"] == "ack"]
    raise AssertionError("the table never came back after the database did")


def _act_while_cut_off(ann: Player) -> tuple[str, bool]:
    """Act on Ann's turn while the database is closed; return the command's id and
    whether the socket was closed (1012) instead of the action being refused."""
    try:
        choice = None
        while choice is None:  # the bot may move first: wait for Ann's turn
            ann.drain(0.05)
            choice = ann.choose()
        frames_before = len(ann.frames)
        refused_id = ann.act(choice)
        answer = ann.reply(refused_id)
    except ClosedError as closed:
        if closed.code != 1012:  # the worker let the table go: anything else is wrong
            raise
        return "", True
    assert answer["type"] == "refused"
    assert answer["code"] == "unavailable"
    assert not any(f["type"] == "update" for f in ann.frames[frames_before:])
    return refused_id, False


def _closed_port() -> int:
    import socket  # noqa: PLC0415

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def _admin_url(url: str) -> str:
    parts = conninfo_to_dict(url)
    parts.pop("options", None)
    parts["dbname"] = "postgres"
    return make_conninfo("", **{k: str(v) for k, v in parts.items()})


def _terminate_sessions(url: str) -> None:
    """End every other session on the test database (as a database restart would)."""
    dbname = conninfo_to_dict(url)["dbname"]
    with psycopg.connect(_admin_url(url), autocommit=True) as admin:
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = %s AND pid <> pg_backend_pid()",
            (dbname,),
        )


@contextlib.contextmanager
def _database_closed(url: str) -> Iterator[None]:
    """The test database refuses new connections and its sessions are ended."""
    dbname = str(conninfo_to_dict(url)["dbname"])
    with psycopg.connect(_admin_url(url), autocommit=True) as admin:
        admin.execute(f'ALTER DATABASE "{dbname}" WITH ALLOW_CONNECTIONS false')
        try:
            _terminate_sessions(url)
            yield
        finally:
            admin.execute(f'ALTER DATABASE "{dbname}" WITH ALLOW_CONNECTIONS true')


@pytest.mark.parametrize(
    ("database", "said"),
    [
        ("postgresql://nobody@127.0.0.1:{port}/nothing", "cannot connect to postgresql://"),
        ("postgresql://nobody@127.0.0.1:notaport/x", 'invalid integer value "notaport"'),
    ],
)
def test_serve_with_an_unusable_database_url_stops_with_one_line(database: str, said: str) -> None:
    url = database.format(port=_closed_port())
    started = subprocess.run(
        [sys.executable, "-m", "sequence_stacks.server", "--port", "0", "--db", url],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert started.returncode == 2
    lines = started.stderr.strip().splitlines()
    assert len(lines) == 1, started.stderr
    assert said in lines[0]
    assert "is being served" not in started.stdout
