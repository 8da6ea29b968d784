"""The review API (#27): ``GET /api/tables/{id}/games/{game}/review`` after a game,
on the in-memory store, SQLite and PostgreSQL. A seat's review goes only to whoever
holds that seat's token now; anyone else (no token, a spectator, another table's
token) reads the spectators' review, which has no decisions; while the review is made
the answer is 202 "computing"; a running game or a missing one has none. The reviews
table comes with the databases' migrations."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from sequence_stacks.server import Storage, create_app
from sequence_stacks.server.store import ReviewStore, SqliteStorage
from sequence_stacks.server.store.sqlite import SCHEMA_VERSION

from .harness import FAST, SHORT_GAME, connect, create_table, play_until_over, sit
from .postgres import STORAGE_KINDS, storage_of

pytestmark = pytest.mark.timeout(180)


@pytest.fixture(params=[*STORAGE_KINDS, "sqlite"])
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Storage]:
    if request.param == "sqlite":
        sqlite_store = SqliteStorage(str(tmp_path / "reviews.sqlite3"))
        yield sqlite_store
        sqlite_store.close()
        return
    with storage_of(request.param) as store:
        yield store


@pytest.fixture
def client(storage: Storage) -> Iterator[TestClient]:
    with TestClient(create_app(FAST, storage=storage)) as test_client:
        yield test_client


def _review(client: TestClient, table_id: str, token: str | None = None) -> Any:
    headers = {"x-seat-token": token} if token else {}
    return client.get(f"/api/tables/{table_id}/games/1/review", headers=headers)


def _ready(client: TestClient, table_id: str, token: str | None = None) -> dict[str, Any]:
    deadline = time.monotonic() + 150
    while True:
        response = _review(client, table_id, token)
        if response.status_code == 200:
            data: dict[str, Any] = response.json()
            return data
        assert response.status_code == 202, response.text
        assert response.json() == {"state": "computing", "retry_after": 3}
        assert time.monotonic() < deadline, "the review was never ready"
        time.sleep(0.2)


def test_each_seat_reads_its_own_review_and_everyone_else_the_spectators(
    client: TestClient,
) -> None:
    table_id = create_table(client, SHORT_GAME)
    _, ann_token = sit(client, table_id, "Ann")
    _, bob_token = sit(client, table_id, "Bob")
    with connect(client, table_id, "ann") as ann, connect(client, table_id, "bob") as bob:
        ann.hello(ann_token)
        bob.hello(bob_token)
        assert ann.reply(ann.command("add_bot", bot="heuristic", seat=2))["type"] == "ack"
        bob.drain()
        ann.drain()
        assert _review(client, table_id, ann_token).status_code == 404  # no game yet
        assert ann.reply(ann.command("start"))["type"] == "ack"
        assert _review(client, table_id, ann_token).status_code == 409  # still running
        play_until_over([ann, bob])
    own = _ready(client, table_id, ann_token)
    assert own["viewer"] == 0
    assert own["review"]["seat"] == 0
    assert own["slots"]  # what each pile slot of the game is called
    assert {d["played"]["type"] for d in own["review"]["decisions"]} <= {
        "play",
        "discard",
        "end",
        "pass",
        "block",
        "skip",
        "reverse",
        "steal_card",
        "steal_chip",
    }
    bobs = _ready(client, table_id, bob_token)
    assert bobs["viewer"] == 1
    assert bobs["review"]["seat"] == 1
    assert bobs["review"]["decisions"] != own["review"]["decisions"]
    for token in (None, "not-a-token"):
        spectators = _ready(client, table_id, token)
        assert spectators["viewer"] is None
        assert spectators["review"]["seat"] is None
        assert spectators["review"]["decisions"] == []
        # the graph and the moments are public: the same for everyone
        assert spectators["review"]["points"] == own["review"]["points"]
    assert client.get(f"/api/tables/{table_id}/games/2/review").status_code == 404
    assert client.get("/api/tables/nothing/games/1/review").status_code == 404


def test_the_sqlite_schema_gains_the_reviews_table(tmp_path: Path) -> None:
    """A database of the schema before reviews migrates to one with the table, and a
    review written through ReviewStore reads back."""
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:
        from sequence_stacks.server.store.sqlite import _MIGRATIONS  # noqa: PLC0415

        for version, script in _MIGRATIONS:
            if version < SCHEMA_VERSION:
                db.executescript(script)
        db.execute(f"PRAGMA user_version={SCHEMA_VERSION - 1}")
        db.execute(
            "INSERT INTO tables (table_id, created_at, visibility, settings, status, summary,"
            " version) VALUES ('t1', 0, 'public', '{}', 'over', '{}', 0)"
        )
    store = SqliteStorage(str(path))
    store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    reviews = ReviewStore.sqlite(str(path))
    reviews.save("t1", 1, {0: '{"seat":0}', -1: '{"seat":null}'}, 5.0)
    reviews.save("t1", 1, {0: '{"seat":"other"}'}, 6.0)  # the first stays
    assert reviews.viewers("t1", 1) == [-1, 0]
    assert reviews.load("t1", 1, 0) == '{"seat":0}'
    assert reviews.load("t1", 2, 0) is None
    reviews.close()


def test_a_game_s_end_starts_its_reviews_without_anyone_asking(client: TestClient) -> None:
    """The reviews are one of the play room's table watchers: a finished game's reviews
    are computed and kept though nobody has asked for them yet."""
    table_id = create_table(client, SHORT_GAME)
    _, token = sit(client, table_id, "Ann")
    with connect(client, table_id, "ann") as ann:
        ann.hello(token)
        for seat in (1, 2):
            assert ann.reply(ann.command("add_bot", bot="heuristic", seat=seat))["type"] == "ack"
            ann.drain()
        assert ann.reply(ann.command("start"))["type"] == "ack"
        play_until_over([ann])
    book = client.app.state.reviews.book  # type: ignore[attr-defined]
    deadline = time.monotonic() + 150
    while not book.viewers(table_id, 1):
        assert time.monotonic() < deadline, "the game's reviews were never made"
        time.sleep(0.2)
    assert book.viewers(table_id, 1) == [-1, 0]  # the spectators' and Ann's, not the bots'
