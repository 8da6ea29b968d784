"""Regression tests for the holes an outside audit found (issue #12), each at the level
where a user meets it: real WebSocket connections and HTTP requests to the app."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from sequence_stacks.engine import Replay, observe
from sequence_stacks.server import MemoryStorage, ServerSettings, Storage, create_app
from sequence_stacks.server.play import Refusal
from sequence_stacks.server.play.codec import dumps
from sequence_stacks.server.play.commands import Ping, decode
from sequence_stacks.server.play.table import Table
from sequence_stacks.server.store import TableRow

from .harness import (
    FAST,
    SHORT_GAME,
    Player,
    assert_no_leaks,
    connect,
    create_table,
    play_until_over,
    sit,
)

pytestmark = pytest.mark.timeout(120)


def _strict(text: str) -> Any:
    def refuse(name: str) -> None:
        raise AssertionError(f"{name} in a frame: {text[:200]}")

    return json.loads(text, parse_constant=refuse)


def _play_one_turn(player: Player) -> None:
    """Act until it is no longer the player's turn (a discard ends a turn)."""
    for _ in range(20):
        player.drain()
        legal = player.legal()
        if not legal:
            return
        choice = player.choose()
        assert choice is not None
        reply = player.reply(player.act(choice))
        assert reply["type"] == "ack", reply


# --- 1. a socket that sent `leave` keeps no rights over the seat (R36, R37) ------------


def test_a_leaver_mid_game_sees_no_hand_and_cannot_play_the_seat(
    client: TestClient, storage: Storage
) -> None:
    table_id = create_table(client, {**SHORT_GAME, "player_count": 3})
    _, ann_token = sit(client, table_id, "Ann")
    _, bob_token = sit(client, table_id, "Bob")
    with connect(client, table_id, "ann") as ann, connect(client, table_id, "bob") as bob:
        ann.hello(ann_token)
        bob.hello(bob_token)
        assert ann.reply(ann.command("start"))["type"] == "ack"
        ann.drain()
        assert ann.view is not None
        assert ann.view["hand"]  # seated: Ann sees her hand
        left = ann.reply(ann.command("leave"))
        assert left["type"] == "ack"
        leave_version = left["version"]
        # The game goes on with a bot in seat 0; Bob plays, Ann's socket stays open.
        bob.plays = False
        for _ in range(3):
            # Bob's turn comes after the stand-in bot's: wait for it (a slow commit could
            # make three quick looks miss it), unless the game has ended.
            bob.drain()
            if not bob.legal() and not bob.over():
                bob.wait_for(lambda _: bool(bob.legal()) or bob.over())
            _play_one_turn(bob)
        ann.drain(0.2)
        after = [f for f in ann.frames if f["type"] == "update" and f["version"] >= leave_version]
        assert len(after) > 3
        for frame in after:
            assert frame["view"]["hand"] is None, f"update {frame['version']} shows a hand"
            assert frame["view"]["seat"] is None
            assert frame["actions"] is None if "actions" in frame else True
        # Its commands for the seat are refused: it holds no seat now.
        refused = ann.reply(ann.act("pass", version=ann.version))
        assert refused["type"] == "refused"
        assert refused["code"] == "not_seated"
        # A sync asked for now renders a spectator's view.
        ann.send({"type": "sync", "last_version": ann.version})
        sync = ann.wait_for(lambda f: f["type"] == "sync")
        assert sync["view"]["hand"] is None
        assert sync["you"] is None
        assert assert_no_leaks(storage, table_id, [ann, bob]) > 0


def test_a_leaver_between_games_sees_nothing_of_who_sits_there_next(
    client: TestClient, storage: Storage
) -> None:
    table_id = create_table(client, {**SHORT_GAME, "player_count": 2})
    _, ann_token = sit(client, table_id, "Ann", seat=0)
    with connect(client, table_id, "ann") as ann, connect(client, table_id, "cara") as cara:
        ann.hello(ann_token)
        assert ann.reply(ann.command("leave"))["type"] == "ack"
        ann.drain()
        # Cara takes the very seat Ann left and starts a game.
        seat, cara_token = sit(client, table_id, "Cara", seat=0)
        assert seat == 0
        cara.hello(cara_token)
        assert cara.reply(cara.command("start"))["type"] == "ack"
        cara.drain()
        ann.drain(0.2)
        assert cara.view is not None
        assert cara.view["hand"]
        started = next(f for f in ann.frames if f["type"] == "update" and f["op"] == "start")
        assert started["view"]["hand"] is None
        assert started.get("actions") is None
        for frame in ann.frames:
            if frame["type"] == "update" and frame["version"] >= started["version"]:
                assert frame["view"]["hand"] is None
        refused = ann.reply(ann.act("discard B1", version=ann.version))
        assert refused["code"] == "not_seated"
        assert ann.reply(ann.command("leave"))["code"] == "not_seated"
        assert assert_no_leaks(storage, table_id, [ann, cara]) > 0


# --- 5. and 9. malformed types and non-JSON numbers keep the connection ----------------


@pytest.mark.parametrize(
    "text",
    [
        '{"type": ["act"]}',
        '{"type": {"kind": "act"}}',
        '{"type": 7}',
        '{"type": null}',
        '{"type": ["hello"], "token": "x"}',
    ],
)
def test_a_type_that_is_not_a_string_is_an_unknown_type(client: TestClient, text: str) -> None:
    table_id = create_table(client)
    with connect(client, table_id, "eve") as eve:
        eve.hello()
        eve.session.send_text(text)
        error = eve.wait_for(lambda f: f["type"] == "error")
        assert error["code"] == "unknown_type"
        eve.send({"type": "ping", "t": 1})
        assert eve.wait_for(lambda f: f["type"] == "pong")["t"] == 1  # still connected


@pytest.mark.parametrize(
    "text",
    [
        '{"type": "ping", "t": NaN}',
        '{"type": "ping", "t": Infinity}',
        '{"type": "ping", "t": -Infinity}',
        '{"type": "ping", "t": 1e999}',
        '{"type": "sync", "last_version": NaN}',
    ],
)
def test_nan_and_infinity_are_refused_and_never_echoed(client: TestClient, text: str) -> None:
    table_id = create_table(client)
    with connect(client, table_id, "eve") as eve:
        eve.hello()
        eve.session.send_text(text)
        error = eve.wait_for(lambda f: f["type"] == "error")
        assert error["code"] == "bad_json"
        eve.send({"type": "ping", "t": 2.5})
        assert eve.wait_for(lambda f: f["type"] == "pong")["t"] == 2.5
        for raw in eve.raw:
            _strict(raw)


@pytest.mark.parametrize("text", ["9" * 5000, "[" * 100_000, b"\xff\xfe", "NaN", "1e400"])
def test_strict_decoding_refuses_what_json_cannot_hold(text: str | bytes) -> None:
    with pytest.raises(Refusal) as refused:
        decode(text)
    assert refused.value.code == "bad_json"


@pytest.mark.parametrize("number", ["9" * 5000, "NaN", "Infinity", "-1e400", "1e400"])
def test_no_frame_can_hold_a_number_json_cannot(number: str) -> None:
    """The one number a client can put in a frame is a ping's stamp, echoed in the
    pong: one JSON cannot hold is refused on the way in, so it never comes back out."""
    with pytest.raises(Refusal) as refused:
        decode('{"type": "ping", "t": ' + number + "}")
    assert refused.value.code == "bad_json"
    largest = decode('{"type": "ping", "t": 1.7976931348623157e308}')
    assert isinstance(largest, Ping)
    _strict(dumps({"type": "pong", "t": largest.t}))


@pytest.mark.parametrize("stamp", [[1, 2], {"a": 1}, True, "x" * 65])
def test_a_ping_stamp_is_a_number_or_short_text(client: TestClient, stamp: object) -> None:
    table_id = create_table(client)
    with connect(client, table_id, "eve") as eve:
        eve.hello()
        eve.send({"type": "ping", "t": stamp})
        assert eve.wait_for(lambda f: f["type"] in ("error", "refused"))["code"] == "bad_request"
        eve.send({"type": "ping", "t": "abc"})
        assert eve.wait_for(lambda f: f["type"] == "pong")["t"] == "abc"


# --- 10. command ids belong to their sender ---------------------------------------------


def test_command_ids_are_deduplicated_per_seat_not_per_table(client: TestClient) -> None:
    table_id = create_table(client, {**SHORT_GAME, "player_count": 3})
    _, ann_token = sit(client, table_id, "Ann")
    _, bob_token = sit(client, table_id, "Bob")
    with (
        connect(client, table_id, "ann") as ann,
        connect(client, table_id, "bob") as bob,
        connect(client, table_id, "eve") as eve,
    ):
        ann.hello(ann_token)
        bob.hello(bob_token)
        eve.hello()
        ann.send({"type": "add_bot", "id": "same", "version": 2, "bot": "random"})
        first = ann.wait_for(lambda f: f["type"] == "ack" and f["id"] == "same")
        assert "duplicate" not in first
        ann.drain()
        bob.drain()
        # Bob uses the id Ann used: his command is his own and is carried out.
        bob.send({"type": "start", "id": "same", "version": bob.version})
        mine = bob.wait_for(lambda f: f["type"] in ("ack", "refused") and f["id"] == "same")
        assert mine["type"] == "ack"
        assert "duplicate" not in mine
        assert mine["version"] == first["version"] + 1
        bob.drain()
        assert bob.table is not None
        assert bob.table["status"] == "playing"
        # Ann sending her id again is a duplicate of her own command.
        ann.send({"type": "add_bot", "id": "same", "version": 2, "bot": "random"})
        again = ann.wait_for(lambda f: f["type"] == "ack" and f["id"] == "same")
        assert again == {**first, "duplicate": True}
        # A spectator is told it is not seated, whatever the id.
        for client_id in ("same", "fresh"):
            eve.send({"type": "start", "id": client_id, "version": bob.version})
            answer = eve.wait_for(_answer_to(client_id))
            assert answer["type"] == "refused"
            assert answer["code"] == "not_seated"


def _answer_to(client_id: str) -> Callable[[dict[str, Any]], bool]:
    return lambda frame: frame.get("id") == client_id


def test_a_resent_command_is_a_duplicate_after_a_restart_too(storage: Storage) -> None:
    """The per-sender key is rebuilt from the log (``by`` / ``seat``), so a reconnecting
    client resending an unacknowledged command is answered as a duplicate."""
    with TestClient(create_app(FAST, storage=storage)) as client:
        table_id = create_table(client, {**SHORT_GAME, "player_count": 2})
        _, token = sit(client, table_id, "Ann")
        with connect(client, table_id, "ann") as ann:
            ann.hello(token)
            ann.send({"type": "add_bot", "id": "b1", "version": 1, "bot": "random"})
            version = ann.wait_for(lambda f: f.get("id") == "b1")["version"]
    payloads = [entry.payload for entry in storage.entries(table_id)]
    assert payloads[-1]["by"] == 0
    with TestClient(create_app(FAST, storage=storage)) as client, connect(client, table_id) as ann:
        ann.hello(token)
        ann.send({"type": "add_bot", "id": "b1", "version": 1, "bot": "random"})
        answer = ann.wait_for(lambda f: f.get("id") == "b1")
        assert answer == {"type": "ack", "id": "b1", "version": version, "duplicate": True}


# --- 4. the replay endpoint: step k is the position after k actions --------------------


def test_replay_step_k_is_the_position_after_k_actions_and_its_entry_is_action_k(
    client: TestClient, storage: Storage
) -> None:
    table_id = create_table(client, {**SHORT_GAME, "player_count": 2})
    _, token = sit(client, table_id, "Ann")
    with connect(client, table_id, "ann") as ann:
        ann.hello(token)
        ann.reply(ann.command("start"))
        play_until_over([ann])
    row = storage.table(table_id)
    assert row is not None
    table = Table.rebuild(row, storage.entries(table_id))
    record = table.games[0].record(table.settings)
    total = len(record.actions)
    for step in (0, 1, 2, 3, total // 2, total - 1, total):
        data = client.get(f"/api/tables/{table_id}/games/1?step={step}").json()
        assert data["step"] == step
        replay = Replay(record)
        for _ in zip(range(step), replay, strict=False):
            pass
        expected = json.loads(json.dumps(observe(replay.state, None).to_dict()))
        assert data["view"] == expected, f"step {step}: not the position after {step} actions"
        if step == 0:
            assert data["entry"]["action"] is None
        else:
            seat, action = record.actions[step - 1]
            assert data["entry"]["seat"] == seat
            assert data["entry"]["action"] == action.notation()
    beyond = client.get(f"/api/tables/{table_id}/games/1?step={total + 10}").json()
    assert beyond["step"] == total
    for bad in ("-1", "x", "1.5", "1e3"):
        response = client.get(f"/api/tables/{table_id}/games/1?step={bad}")
        assert response.status_code == 400
        assert response.json()["code"] == "bad_request"


# --- 6. bodies over the limit are refused before they are read -------------------------


def test_a_declared_oversized_body_is_refused_with_413(client: TestClient) -> None:
    headers = {"content-type": "application/json", "content-length": str(64 * 1024 * 1024)}
    response = client.post("/api/tables", content=b"{}", headers=headers)
    assert response.status_code == 413
    assert response.json()["code"] == "too_large"
    assert client.get("/api/tables").json()["tables"] == []


def test_a_streamed_oversized_body_is_refused_while_reading(client: TestClient) -> None:
    sent = 0

    def chunks() -> Iterator[bytes]:
        nonlocal sent
        for _ in range(1000):
            sent += 1
            yield b" " * 1024

    response = client.post("/api/tables", content=chunks())
    assert response.status_code == 413
    assert response.json()["code"] == "too_large"
    table_id = create_table(client)
    seat = client.post(f"/api/tables/{table_id}/seats", content=chunks())
    assert seat.status_code == 413


# --- 7. rate limits per client address; a cheap, paged public list ---------------------


def test_table_creation_is_limited_per_client_address(storage: Storage) -> None:
    settings = dataclasses.replace(FAST, create_burst=3, create_per_minute=1)
    app = create_app(settings, storage=storage)
    with TestClient(app, client=("10.0.0.1", 1)) as one, TestClient(app, client=("10.0.0.2", 2)):
        for _ in range(3):
            assert one.post("/api/tables", json={}).status_code == 201
        refused = one.post("/api/tables", json={})
        assert refused.status_code == 429
        assert refused.json()["code"] == "rate_limited"
        assert int(refused.headers["retry-after"]) >= 1
        assert len(storage.tables()) == 3
    with TestClient(app, client=("10.0.0.2", 2)) as other:
        assert other.post("/api/tables", json={}).status_code == 201  # another address


def test_seat_taking_is_limited_per_client_address(storage: Storage) -> None:
    settings = dataclasses.replace(FAST, sit_burst=2, sit_per_minute=1)
    with TestClient(create_app(settings, storage=storage)) as client:
        table_id = create_table(client, {**SHORT_GAME, "player_count": 4})
        for name in ("A", "B"):
            sit(client, table_id, name)
        refused = client.post(f"/api/tables/{table_id}/seats", json={"name": "C"})
        assert refused.status_code == 429
        assert "retry-after" in refused.headers
        seats = client.get(f"/api/tables/{table_id}").json()["seats"]
        assert [s["kind"] for s in seats] == ["human", "human", "empty", "empty"]


# It ages a table by hand in the memory store's dictionary.
@pytest.mark.parametrize("storage", ["memory"], indirect=True)
def test_the_public_list_pages_through_open_tables_only(storage: MemoryStorage) -> None:
    settings = dataclasses.replace(FAST, create_burst=500, listing_idle=3600)
    with TestClient(create_app(settings, storage=storage)) as client:
        created = {create_table(client) for _ in range(120)}
        unlisted = create_table(client, visibility="unlisted")
        finished = create_table(client, {**SHORT_GAME, "player_count": 2})
        _, token = sit(client, finished, "Ann")
        with connect(client, finished, "ann") as ann:
            ann.hello(token)
            ann.reply(ann.command("start"))
            play_until_over([ann])
        # An abandoned lobby: nothing happened at it for longer than listing_idle.
        old = storage.table(min(created))  # one of the lobbies (tables()[0] is the newest)
        assert old is not None
        storage._rows[old.table_id] = dataclasses.replace(old, updated_at=old.updated_at - 4000)
        listed: list[str] = []
        url = "/api/tables"
        pages = 0
        while url:
            page = client.get(url).json()
            assert len(page["tables"]) <= 50
            listed += [table["id"] for table in page["tables"]]
            url = f"/api/tables?before={page['next']}" if page["next"] else ""
            pages += 1
        assert pages == 3
        assert len(listed) == len(set(listed))
        assert set(listed) == created - {old.table_id}
        assert unlisted not in listed
        assert finished not in listed
        small = client.get("/api/tables?limit=7").json()
        assert len(small["tables"]) == 7
        assert small["next"] is not None
        for bad in ("limit=0", "limit=51", "limit=x", "before=nonsense", "before=nan~x"):
            response = client.get(f"/api/tables?{bad}")
            assert response.status_code == 400, bad


# --- 8. another web site can neither change state nor open a table socket --------------


def test_cross_origin_posts_are_refused_and_change_nothing(
    client: TestClient, storage: Storage
) -> None:
    evil = {"origin": "http://evil.example", "content-type": "text/plain"}
    response = client.post("/api/tables", content='{"options": {}}', headers=evil)
    assert response.status_code == 403
    assert response.json()["code"] == "bad_origin"
    assert "content-security-policy" in response.headers
    assert storage.tables() == []
    table_id = create_table(client)
    seat = client.post(f"/api/tables/{table_id}/seats", content='{"name": "x"}', headers=evil)
    assert seat.status_code == 403
    assert storage.entries(table_id) == []
    for origin in ("null", "http://testserver.evil.example", "file://", "https://testserver:1"):
        refused = client.post("/api/tables", json={}, headers={"origin": origin})
        assert refused.status_code == 403, origin
    # The page's own origin, and a request with no Origin (not a browser), are served.
    assert client.post("/api/tables", json={}, headers={"origin": "http://testserver"}).is_success
    assert client.get("/api/tables", headers=evil).status_code == 200  # reading is harmless


def test_a_cross_origin_websocket_handshake_is_refused(client: TestClient) -> None:
    table_id = create_table(client)
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect(f"/ws/{table_id}", headers={"origin": "http://evil.example"}),
    ):
        pass
    assert refused.value.code == 1008
    with client.websocket_connect(f"/ws/{table_id}", headers={"origin": "http://testserver"}) as ws:
        ws.send_text(json.dumps({"type": "ping", "t": 1}))
        assert json.loads(ws.receive_text())["type"] == "pong"


def test_allowed_origins_come_from_the_settings(storage: Storage) -> None:
    settings = dataclasses.replace(FAST, allowed_origins=("https://play.example.org",))
    with TestClient(create_app(settings, storage=storage)) as client:
        allowed = {"origin": "https://play.example.org"}
        assert client.post("/api/tables", json={}, headers=allowed).status_code == 201
        other = {"origin": "https://example.org"}
        assert client.post("/api/tables", json={}, headers=other).status_code == 403
    env = {"SEQUENCE_STACKS_ALLOWED_ORIGINS": "https://a.example, http://b.example:8080"}
    assert ServerSettings.from_env(env).allowed_origins == (
        "https://a.example",
        "http://b.example:8080",
    )
    with pytest.raises(ValueError, match="allowed origin"):
        ServerSettings(allowed_origins=("evil.example",))


def test_storage_rows_carry_when_they_last_changed(storage: Storage) -> None:
    row = TableRow("t", 100.0, "public", SHORT_GAME)
    storage.create_table(row)
    assert storage.tables()[0].updated_at == 100.0
