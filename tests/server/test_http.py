"""The lobby HTTP API, the pages, replays, settings and the serve command."""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import gc
import json
from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient
from websockets.frames import Frame
from websockets.protocol import Protocol, Side

from sequence_stacks.server import MemoryStorage, ServerSettings, add_serve_parser, create_app
from sequence_stacks.server.play.audit import card_ids, hidden_history
from sequence_stacks.server.web.transport import DirectWriter

from .harness import FAST, SHORT_GAME, connect, create_table, play_until_over, sit

pytestmark = pytest.mark.timeout(90)


@pytest.fixture
def storage() -> MemoryStorage:
    return MemoryStorage()


@pytest.fixture
def client(storage: MemoryStorage) -> Iterator[TestClient]:
    with TestClient(create_app(FAST, storage=storage)) as test_client:
        yield test_client


def test_create_list_get_and_sit(client: TestClient) -> None:
    public = create_table(client, visibility="public")
    hidden = create_table(client, visibility="unlisted")
    listed = [t["id"] for t in client.get("/api/tables").json()["tables"]]
    assert public in listed
    assert hidden not in listed
    seat, token = sit(client, public, "  Ann   Lee ")
    assert seat == 0
    assert len(token) >= 30
    table = client.get(f"/api/tables/{public}").json()
    assert table["seats"][0] == {
        "seat": 0,
        "kind": "human",
        "name": "Ann Lee",
        "bot": None,
        "label": None,  # a person's own name: nothing for clients to word
        "connected": False,
    }
    assert token not in json.dumps(table)
    assert "token" not in json.dumps(table)
    assert client.get(f"/api/tables/{hidden}").status_code == 200  # the link still works


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"options": {"player_count": 7}}, 400, "player_count=7"),
        ({"options": {"bogus": 1}}, 400, "unknown option"),
        ({"options": {"chips_to_win": 3, "min_each_colour": 2}}, 400, "nobody could ever win"),
        ({"options": [], "visibility": "public"}, 400, "options"),
        ({"visibility": "secret"}, 400, "visibility"),
    ],
)
def test_bad_tables_are_refused_with_a_reason(
    client: TestClient, body: dict[str, object], status: int, words: str
) -> None:
    response = client.post("/api/tables", json=body)
    assert response.status_code == status
    assert words in response.json()["reason"]


def test_bad_bodies_and_seats(client: TestClient) -> None:
    table_id = create_table(client, {**SHORT_GAME, "player_count": 2})
    assert client.post("/api/tables", content=b"{oops").json()["code"] == "bad_json"
    big = client.post("/api/tables", content=b"{" + b" " * 5000 + b"}")
    assert big.json()["code"] == "too_large"
    url = f"/api/tables/{table_id}/seats"
    assert client.post(url, json={"name": ""}).status_code == 400
    assert client.post(url, json={"name": "x\u0007y"}).status_code == 400
    assert client.post(url, json={"name": "A", "seat": 9}).status_code == 400
    assert client.post(url, json={"name": "A", "seat": True}).status_code == 400
    sit(client, table_id, "A")
    sit(client, table_id, "B")
    assert client.post(url, json={"name": "C"}).status_code == 409
    assert client.get("/api/tables/none").status_code == 404
    assert client.post("/api/tables/none/seats", json={"name": "A"}).status_code == 404


def test_pages_and_static_files_are_served_without_game_data(client: TestClient) -> None:
    table_id = create_table(client)
    for url in ("/", f"/t/{table_id}", f"/replay/{table_id}/1"):
        page = client.get(url)
        assert page.status_code == 200
        assert "<html" in page.text
        assert not card_ids(page.text)
    for name in ("app.css", "table.js", "cards.js", "net.js", "lobby.js", "replay.js"):
        assert client.get(f"/static/{name}").status_code == 200, name
    assert client.get("/api/health").json() == {"ok": True, "ready": True}


def test_replays_show_a_seat_during_the_game_and_everything_after(
    client: TestClient, storage: MemoryStorage
) -> None:
    table_id = create_table(client, {**SHORT_GAME, "player_count": 2})
    _, token = sit(client, table_id, "Ann")
    with connect(client, table_id, "ann") as ann:
        ann.hello(token)
        ann.reply(ann.command("start"))
        ann.wait_for(lambda f: f["type"] == "update" and f["op"] == "start")
        url = f"/api/tables/{table_id}/games/1"
        mine = client.get(url, headers={"x-seat-token": token}, params={"step": 0}).json()
        theirs = client.get(url, params={"step": 0}).json()
        assert mine["over"] is False
        assert mine["view"]["hand"] is not None
        assert theirs["view"]["hand"] is None
        assert theirs["hands"] is None
        row = storage.table(table_id)
        assert row is not None
        history, seeds = hidden_history(row, storage.entries(table_id), None)
        start = next(e.version for e in storage.entries(table_id) if e.payload["op"] == "start")
        assert not card_ids(theirs) & history[start].after
        assert not any(seed in json.dumps(theirs) for seed in seeds)
        play_until_over([ann])
        final = client.get(url).json()
        assert final["over"] is True
        assert final["step"] == final["steps"] > 0
        assert final["hands"] is not None
        assert len(final["hands"]) == 2
        assert not any(seed in json.dumps(final) for seed in seeds)
        middle = client.get(url, params={"step": 1}).json()
        assert middle["step"] == 1
        assert middle["entry"]["op"] == "act"
    assert client.get(f"/api/tables/{table_id}/games/2").status_code == 404
    assert client.get(f"/api/tables/{table_id}/games/1?step=x").status_code == 400


def test_settings_come_from_the_environment() -> None:
    env = {
        "SEQUENCE_STACKS_PORT": "9001",
        "SEQUENCE_STACKS_BOT_DELAY": "0.1,0.2",
        "SEQUENCE_STACKS_BLOCK_TIMEOUT": "3",
        "SEQUENCE_STACKS_DATABASE": "x.sqlite3",
    }
    settings = ServerSettings.from_env(env, port=9002, host=None)
    assert (settings.port, settings.bot_delay, settings.block_timeout) == (9002, (0.1, 0.2), 3.0)
    assert settings.database == "x.sqlite3"
    assert settings.host == "127.0.0.1"
    with pytest.raises(ValueError, match="PORT"):
        ServerSettings.from_env({"SEQUENCE_STACKS_PORT": "many"})
    with pytest.raises(ValueError, match="block_timeout"):
        ServerSettings(block_timeout=0)


def test_freeze_heap_is_read_from_the_environment_and_checked() -> None:
    assert ServerSettings().freeze_heap is False
    for text, value in (("1", True), ("Yes", True), ("off", False), ("0", False)):
        assert ServerSettings.from_env({"SEQUENCE_STACKS_FREEZE_HEAP": text}).freeze_heap is value
    with pytest.raises(ValueError, match="FREEZE_HEAP"):
        ServerSettings.from_env({"SEQUENCE_STACKS_FREEZE_HEAP": "maybe"})


def test_freeze_heap_freezes_what_is_alive_once_the_server_has_started() -> None:
    gc.unfreeze()
    settings = dataclasses.replace(FAST, freeze_heap=True)
    try:
        with TestClient(create_app(settings, storage=MemoryStorage())) as test_client:
            assert test_client.get("/api/health").status_code == 200
            assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
    with TestClient(create_app(FAST, storage=MemoryStorage())) as test_client:
        assert test_client.get("/api/health").status_code == 200
        assert gc.get_freeze_count() == 0


def test_serve_subcommand_parses_its_options() -> None:
    parser = argparse.ArgumentParser(prog="sequence-stacks")
    add_serve_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["serve", "--port", "0", "--db", "g.sqlite3", "--block-timeout", "5"])
    assert (args.command, args.port, args.database, args.block_timeout) == (
        "serve",
        0,
        "g.sqlite3",
        5.0,
    )
    assert callable(args.run)
    origins = ["serve", "--allowed-origin", "https://a.example", "--allowed-origin", "http://b:1"]
    assert parser.parse_args(origins).allowed_origins == ["https://a.example", "http://b:1"]


# --- the direct write path (one transport write per batch of frames) ------------------


class WebSocketsSansIOProtocol:
    """Stands in for uvicorn's protocol of that name: what ``DirectWriter`` uses."""

    def __init__(self) -> None:
        self.conn = Protocol(Side.SERVER)
        self.writes: list[bytes] = []
        self.transport = self
        self.close_sent = False
        self.disconnected = False
        self.handshake_complete = True
        self.writable = asyncio.Event()
        self.writable.set()

    def write(self, data: bytes) -> None:
        self.writes.append(data)

    async def send(self, message: object) -> None:
        raise AssertionError("the direct path does not go through ASGI send")


def test_direct_writes_are_the_same_frames_in_one_write() -> None:
    protocol = WebSocketsSansIOProtocol()
    writer = DirectWriter.of(protocol.send)
    assert writer is not None
    texts = ['{"type":"ack","id":"a","version":7}', '{"type":"update","é":"ü"}']
    assert writer.write(texts)
    assert len(protocol.writes) == 1
    client = Protocol(Side.CLIENT)
    client.receive_data(protocol.writes[0])
    frames = [event for event in client.events_received() if isinstance(event, Frame)]
    assert [bytes(frame.data).decode() for frame in frames] == texts
    protocol.writable.clear()  # paused by flow control: the ASGI path must wait
    assert not writer.write(["{}"])
    protocol.writable.set()
    protocol.close_sent = True
    assert not writer.write(["{}"])
    assert len(protocol.writes) == 1
    assert DirectWriter.of(print) is None  # any other server: the ASGI path


def test_names_the_server_makes_come_as_messages_to_word(client: TestClient) -> None:
    """A bot's name is data (a message key and its arguments) so each reader's client
    words it in their language; the English name stays for older clients (#14)."""
    table_id = create_table(client, {**SHORT_GAME, "player_count": 3})
    _, token = sit(client, table_id, "Ann")
    with connect(client, table_id, "ann") as ann:
        ann.hello(token)
        ann.reply(ann.command("add_bot", bot="random", seat=2))
        ann.drain()
        ann.reply(ann.command("start"))
        ann.drain()
        ann.reply(ann.command("leave"))
        ann.drain()
    seats = client.get(f"/api/tables/{table_id}").json()["seats"]
    assert seats[2]["label"] == {"key": "seat.bot", "args": {"bot": "random", "number": 3}}
    assert seats[2]["name"] == "Random bot 3"
    assert seats[1]["label"] == {"key": "seat.bot", "args": {"bot": "greedy", "number": 2}}
    assert seats[0]["label"] == {"key": "seat.stand_in", "args": {"name": "Ann"}}
