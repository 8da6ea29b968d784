"""Seats and accounts through the API (#26), on every storage: a guest's seat claimed
by an account afterwards, a seat moved to another device by a one-time code, and what
is refused with nothing changed (another account's table, a token that holds no seat,
a code used twice or guessed, a notice kind that does not exist); signing out."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from sequence_stacks.server import SqliteStorage, Storage, create_app

from .accounts import another_browser, sign_up
from .harness import FAST, create_table, sit
from .postgres import STORAGE_KINDS, storage_of
from .softkey import SoftKey

TOKEN = "x-seat-token"


@pytest.fixture(params=(*STORAGE_KINDS, "sqlite"))
def client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    """A server on the in-memory store, a fresh PostgreSQL schema or a SQLite file."""

    def serve(storage: Storage) -> Iterator[TestClient]:
        with TestClient(create_app(FAST, storage=storage)) as test_client:
            yield test_client

    if request.param == "sqlite":
        sqlite = SqliteStorage(str(tmp_path / "seats.sqlite3"))
        yield from serve(sqlite)
        sqlite.close()
        return
    with storage_of(request.param) as store:
        yield from serve(store)


def _table(client: TestClient) -> str:
    return create_table(client, {"player_count": 3}, turn_hours=24)


def _games(client: TestClient) -> list[str]:
    return [game["id"] for game in client.get("/api/me/games").json()["games"]]


def _seated_here(client: TestClient, table_id: str) -> bool:
    answer = client.get(f"/api/me/badge?table={table_id}").json()
    assert answer["signed_in"]
    seated: bool = answer["seated_here"]
    return seated


def test_a_guest_seat_is_claimed_by_an_account_afterwards(client: TestClient) -> None:
    table_id = _table(client)
    _, token = sit(client, table_id, "Ann")  # a guest: no account yet
    sign_up(client, SoftKey(), "Ann")
    assert not _seated_here(client, table_id)
    assert client.get(f"/api/me/seat/{table_id}").status_code == 404
    claimed = client.post(f"/api/tables/{table_id}/claim", headers={TOKEN: token})
    assert claimed.status_code == 200, claimed.text
    assert _seated_here(client, table_id)
    assert client.get(f"/api/me/seat/{table_id}").json() == {"token": token}
    assert _games(client) == [table_id]
    # Claimed again from another device of the same account: nothing changes.
    again = client.post(f"/api/tables/{table_id}/claim", headers={TOKEN: token})
    assert again.status_code == 200
    assert _games(client) == [table_id]


def test_another_accounts_seat_and_a_token_of_no_seat_are_refused(client: TestClient) -> None:
    table_id = _table(client)
    _, token = sit(client, table_id, "Ann")
    sign_up(client, SoftKey(), "Ann")
    assert client.post(f"/api/tables/{table_id}/claim", headers={TOKEN: token}).status_code == 200
    bob = another_browser(client)
    sign_up(bob, SoftKey(), "Bob")
    # Bob asks for Ann's seat: the table tells him nothing.
    refused = bob.get(f"/api/me/seat/{table_id}")
    assert refused.status_code == 404
    assert not _seated_here(bob, table_id)
    # Bob claims with Ann's token (he saw it somehow): it is her account's seat.
    taken = bob.post(f"/api/tables/{table_id}/claim", headers={TOKEN: token})
    assert taken.status_code == 409, taken.text
    assert taken.json()["detail"]["key"] == "account.seat_taken"
    # A guessed token, or none, holds no seat.
    for headers in ({TOKEN: "guessed-token"}, {}):
        guessed = bob.post(f"/api/tables/{table_id}/claim", headers=headers)
        assert guessed.status_code == 400, guessed.text
        assert guessed.json()["code"] == "not_seated"
    assert _games(bob) == []
    assert _games(client) == [table_id]
    assert client.get(f"/api/me/seat/{table_id}").json() == {"token": token}


def test_a_seat_moves_to_another_device_by_a_one_time_code(client: TestClient) -> None:
    table_id = _table(client)
    _, token = sit(client, table_id, "Ann")
    made = client.post(f"/api/tables/{table_id}/move", headers={TOKEN: token})
    assert made.status_code == 201, made.text
    code = made.json()["code"]
    assert made.json()["url"].endswith(f"/move#{code}")
    assert made.json()["qr"].startswith("data:image/svg+xml")
    phone = another_browser(client)
    moved = phone.post("/api/move", json={"code": code})
    assert moved.status_code == 200, moved.text
    assert moved.json() == {"id": table_id, "url": f"/t/{table_id}", "token": token}
    # Used once: the same code again, or a guessed one, is refused.
    for tried in (code, "ABCD-EFGH"):
        refused = phone.post("/api/move", json={"code": tried})
        assert refused.status_code == 410, refused.text
        assert refused.json()["detail"]["key"] == "refused.code_invalid"
    # No code is made for a token that holds no seat.
    assert (
        client.post(f"/api/tables/{table_id}/move", headers={TOKEN: "guessed"}).status_code == 400
    )


def test_notices_turned_off_per_kind_and_an_unknown_kind_refused(client: TestClient) -> None:
    sign_up(client, SoftKey(), "Ann")
    prefs = client.get("/api/me").json()["account"]["prefs"]
    turned = {kind: dict(channels) for kind, channels in prefs.items()}
    first = sorted(turned)[0]
    turned[first] = dict.fromkeys(turned[first], False)
    changed = client.put("/api/me/notifications", json={"prefs": turned})
    assert changed.status_code == 200, changed.text
    assert client.get("/api/me").json()["account"]["prefs"] == turned
    for bad in ({"not-a-kind": {"email": False}}, {first: {"pigeon": True}}):
        refused = client.put("/api/me/notifications", json={"prefs": bad})
        assert refused.status_code == 400, refused.text
    assert client.get("/api/me").json()["account"]["prefs"] == turned


def test_signing_out_ends_this_devices_session(client: TestClient) -> None:
    sign_up(client, SoftKey(), "Ann")
    cookie = client.cookies.get("session")
    assert client.post("/api/accounts/signout").json() == {"signed_in": False}
    assert client.get("/api/me").status_code == 401
    # The old cookie, kept and sent again, opens nothing.
    client.cookies.set("session", str(cookie))
    assert client.get("/api/me").status_code == 401
