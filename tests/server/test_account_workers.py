"""Accounts with several workers on one PostgreSQL database (#26): a session made on one
worker is valid on the other and ends on both; a seat an account took through one
worker is opened by the other (one sealing key for all); both sign push messages with
the same VAPID key; a notice marked sent by one is refused to the other."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from sequence_stacks.server import create_app
from sequence_stacks.server.store import AccountStore

from .accounts import sign_up
from .harness import FAST, create_table, sit
from .postgres import fresh_schema
from .softkey import SoftKey


@pytest.fixture
def workers() -> Iterator[tuple[TestClient, TestClient]]:
    """Two workers (each its own app and connections) on one fresh schema."""
    from sequence_stacks.server.store.postgres import PostgresStorage  # noqa: PLC0415

    with fresh_schema() as url:
        stores = [PostgresStorage(url), PostgresStorage(url)]
        try:
            apps = [
                create_app(dataclasses.replace(FAST, worker=f"w{n}"), storage=store)
                for n, store in enumerate(stores, 1)
            ]
            with TestClient(apps[0]) as one, TestClient(apps[1]) as two:
                yield one, two
        finally:
            for store in stores:
                store.close()


def test_a_session_holds_on_every_worker_and_ends_on_all(
    workers: tuple[TestClient, TestClient],
) -> None:
    one, two = workers
    account = sign_up(one, SoftKey(), "Ann")
    two.cookies.set("session", str(one.cookies.get("session")))
    assert two.get("/api/me").json()["account"]["id"] == account["id"]
    assert two.post("/api/accounts/signout").status_code == 200
    assert one.get("/api/me").status_code == 401


def test_a_seat_taken_on_one_worker_is_opened_on_the_other(
    workers: tuple[TestClient, TestClient],
) -> None:
    one, two = workers
    sign_up(one, SoftKey(), "Ann")
    table_id = create_table(one, {"player_count": 3}, turn_hours=24)
    _, token = sit(one, table_id, "ignored: an account sits as itself")
    two.cookies.set("session", str(one.cookies.get("session")))
    assert two.get(f"/api/me/seat/{table_id}").json() == {"token": token}
    assert [game["id"] for game in two.get("/api/me/games").json()["games"]] == [table_id]


def test_one_vapid_key_and_each_notice_sent_once_across_workers(
    workers: tuple[TestClient, TestClient],
) -> None:
    one, two = workers
    key = one.get("/api/push/key").json()["key"]
    assert key is not None
    assert two.get("/api/push/key").json()["key"] == key
    account = sign_up(one, SoftKey(), "Ann")
    stores: list[AccountStore] = [c.app.state.rooms.accounts.store for c in workers]  # type: ignore[attr-defined]
    notice = "turn:t1:1:7"
    assert stores[0].mark_sent(account["id"], notice)
    assert not stores[1].mark_sent(account["id"], notice)
    assert not stores[0].mark_sent(account["id"], notice)
    assert stores[1].mark_sent(account["id"], "turn:t1:1:8")
