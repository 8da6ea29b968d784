"""'Play now' (#15 item 8): one request makes an unlisted table, seats the asker in the
first seat, fills the others with bots of the default strength and starts the game;
bad input makes no table at all."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from sequence_stacks.server import Storage

from .harness import FAST, connect

pytestmark = pytest.mark.timeout(60)


def test_play_now_seats_the_asker_with_bots_and_starts_the_game(
    client: TestClient, storage: Storage
) -> None:
    response = client.post("/api/play", json={"name": "  Mina  ", "players": 3})
    assert response.status_code == 201
    body = response.json()
    assert body["seat"] == 0
    assert body["url"] == f"/t/{body['id']}"
    lobby = client.get(f"/api/tables/{body['id']}").json()
    assert lobby["status"] == "playing"
    assert lobby["visibility"] == "unlisted"
    kinds = [seat["kind"] for seat in lobby["seats"]]
    assert kinds == ["human", "bot", "bot"]
    assert lobby["seats"][0]["name"] == "Mina"
    assert [seat["bot"] for seat in lobby["seats"][1:]] == [FAST.default_bot] * 2
    # Not in the public list, and the token is the seat's: its hello gets a hand.
    listed = {table["id"] for table in client.get("/api/tables").json()["tables"]}
    assert body["id"] not in listed
    with connect(client, body["id"], "mina") as mina:
        sync = mina.hello(body["token"])
        assert sync["you"] == 0
        assert sync["view"]["hand"] is not None
    # The start is in the log as the asker's command.
    ops = [entry.payload["op"] for entry in storage.entries(body["id"])]
    assert ops[:2] == ["sit", "start"]  # bots may have moved since


@pytest.mark.parametrize(
    "body",
    [
        {"name": ""},
        {"name": "   "},
        {"name": "\u0007bell"},
        {"players": 3},
        {"name": 7},
        {"name": "Mina", "players": 9},
        {"name": "Mina", "players": "4"},
        {"name": "Mina", "players": True},
    ],
)
def test_bad_play_now_requests_are_refused_and_make_no_table(
    client: TestClient, storage: Storage, body: dict[str, object]
) -> None:
    before = len(storage.tables())
    response = client.post("/api/play", json=body)
    assert response.status_code == 400
    assert response.json()["code"] == "bad_request"
    assert len(storage.tables()) == before
