"""Reclaiming a seat: a player whose seat a bot took over after the grace period gets
it back by reconnecting with the same token (a ``reclaim`` entry); one who left does not."""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from sequence_stacks.server import MemoryStorage, ServerSettings, SqliteStorage, create_app
from sequence_stacks.server.play import hash_token
from sequence_stacks.server.play.table import Table
from sequence_stacks.server.store import Storage

from .harness import (
    FAST,
    SHORT_GAME,
    Frame,
    Player,
    assert_no_leaks,
    connect,
    create_table,
    play_until_over,
    sit,
)

pytestmark = pytest.mark.timeout(90)

# Ann is replaced 50 ms after her socket closes; Bob, a human who stays, holds the game
# up on his turns (no turn time-out), so it cannot end while Ann is away.
AWAY = dataclasses.replace(FAST, grace_period=0.05)
TWO = {**SHORT_GAME, "player_count": 2}


def _op(op: str, seat: int | None = None) -> Callable[[Frame], bool]:
    def matches(frame: Frame) -> bool:
        return frame["type"] == "update" and frame["op"] == op and seat in (None, frame["seat"])

    return matches


def _ops(storage: Storage, table_id: str) -> list[str]:
    return [str(entry.payload["op"]) for entry in storage.entries(table_id)]


@dataclasses.dataclass
class _Game:
    client: TestClient
    storage: Storage
    table_id: str
    tokens: list[str]


@pytest.fixture
def away() -> Iterator[tuple[_Game, Player]]:
    """A running two-seat game whose seat 0 (Ann) a bot has taken over; Bob watches."""
    storage = MemoryStorage()
    with TestClient(create_app(AWAY, storage=storage)) as client:
        table_id = create_table(client, TWO)
        tokens = [sit(client, table_id, name)[1] for name in ("Ann", "Bob")]
        with connect(client, table_id, "bob") as bob:
            bob.hello(tokens[1])
            with connect(client, table_id, "ann") as ann:
                ann.hello(tokens[0])
                ann.reply(ann.command("start"))
            bob.wait_for(_op("replace", 0))
            assert bob.table is not None
            assert bob.table["seats"][0]["kind"] == "bot"
            yield _Game(client, storage, table_id, tokens), bob


def _stand_in_acted(storage: Storage, table_id: str, after: int) -> list[int]:
    """Versions after ``after`` at which seat 0 acted without a client (a bot, a time-out)."""
    return [
        entry.version
        for entry in storage.entries(table_id)
        if entry.version > after
        and entry.payload["op"] == "act"
        and entry.payload["seat"] == 0
        and entry.payload["client"] is None
    ]


def test_a_replaced_player_reconnects_and_plays_their_seat_again(
    away: tuple[_Game, Player],
) -> None:
    game, bob = away
    with connect(game.client, game.table_id, "ann") as ann:
        sync = ann.hello(game.tokens[0])
        assert sync["you"] == 0
        assert sync["token_rejected"] is False
        assert sync["view"]["hand"] is not None  # her hand is shown again
        assert sync["actions"] is not None
        assert sync["table"]["seats"][0]["kind"] == "human"
        assert sync["table"]["seats"][0]["name"] == "Ann"
        reclaim = bob.wait_for(_op("reclaim", 0))
        assert reclaim["version"] == sync["version"]
        assert reclaim["table"]["seats"][0] == {
            "seat": 0,
            "kind": "human",
            "name": "Ann",
            "bot": None,
            "label": None,
            "connected": False,  # the update precedes her subscription; presence follows
        }
        play_until_over([ann, bob])
        for player in (ann, bob):
            player.drain()
        entries = game.storage.entries(game.table_id)
        assert _ops(game.storage, game.table_id).count("reclaim") == 1
        # The reclaimed seat acted again, through Ann's commands, and the bot never did.
        mine = [
            e.payload for e in entries if e.version > reclaim["version"] and e.payload["seat"] == 0
        ]
        assert any(p["op"] == "act" and p["client"] for p in mine)
        assert _stand_in_acted(game.storage, game.table_id, reclaim["version"]) == []
        # Nothing hidden reached anyone, and no frame holds a token or its hash.
        assert assert_no_leaks(game.storage, game.table_id, [ann, bob]) > 0
        secrets_seen = [*game.tokens, *map(hash_token, game.tokens)]
        for raw in [*ann.raw, *bob.raw]:
            assert not any(secret in raw for secret in secrets_seen)


def test_a_wrong_token_reclaims_nothing(away: tuple[_Game, Player]) -> None:
    game, bob = away
    with connect(game.client, game.table_id, "eve") as eve:
        sync = eve.hello(secrets.token_urlsafe(24))
        assert sync["you"] is None
        assert sync["token_rejected"] is True
        assert sync["view"]["hand"] is None
        with connect(game.client, game.table_id, "bob2") as again:  # Bob's own token
            assert again.hello(game.tokens[1])["you"] == 1
    assert "reclaim" not in _ops(game.storage, game.table_id)
    assert bob.table is not None
    assert bob.table["seats"][0]["kind"] == "bot"


def test_a_player_who_left_cannot_take_the_seat_back() -> None:
    storage = MemoryStorage()
    with TestClient(create_app(AWAY, storage=storage)) as client:
        table_id = create_table(client, TWO)
        tokens = [sit(client, table_id, name)[1] for name in ("Ann", "Bob")]
        with connect(client, table_id, "bob") as bob:
            bob.hello(tokens[1])
            with connect(client, table_id, "ann") as ann:
                ann.hello(tokens[0])
                ann.reply(ann.command("start"))
                ann.wait_for(_op("start"))
                assert ann.reply(ann.command("leave"))["type"] == "ack"
            bob.wait_for(_op("leave", 0))
            with connect(client, table_id, "ann") as ann:
                sync = ann.hello(tokens[0])
                assert sync["you"] is None
                assert sync["token_rejected"] is True
            assert bob.table is not None
            assert bob.table["seats"][0]["kind"] == "bot"
    ops = _ops(storage, table_id)
    assert "leave" in ops
    assert "reclaim" not in ops
    assert "replace" not in ops  # she had left: nothing to hand over after the grace


def test_a_restart_in_between_still_lets_the_player_reclaim(tmp_path: Path) -> None:
    settings = dataclasses.replace(AWAY, database=str(tmp_path / "db.sqlite3"))
    with TestClient(create_app(settings)) as client:
        table_id = create_table(client, TWO)
        tokens = [sit(client, table_id, name)[1] for name in ("Ann", "Bob")]
        with connect(client, table_id, "bob") as bob:
            bob.hello(tokens[1])
            with connect(client, table_id, "ann") as ann:
                ann.hello(tokens[0])
                ann.reply(ann.command("start"))
            bob.wait_for(_op("replace", 0))
    # A restart: the table is rebuilt from its log (the bot's claim-holder included).
    restarted = create_app(dataclasses.replace(settings, grace_period=600.0))
    with (
        TestClient(restarted) as client,
        connect(client, table_id, "ann") as ann,
        connect(client, table_id, "bob") as bob,
    ):
        bob.hello(tokens[1])
        sync = ann.hello(tokens[0])
        assert sync["you"] == 0
        assert sync["table"]["seats"][0]["kind"] == "human"
        bob.wait_for(_op("reclaim", 0))
        play_until_over([ann, bob])
        for player in (ann, bob):
            player.drain()
    store = SqliteStorage(str(tmp_path / "db.sqlite3"))
    try:
        ops = _ops(store, table_id)
        assert ops.count("replace") == 1
        assert ops.count("reclaim") == 1
        reclaimed = ops.index("reclaim") + 1
        assert _stand_in_acted(store, table_id, reclaimed) == []
        assert assert_no_leaks(store, table_id, [ann, bob]) > 0
    finally:
        store.close()


def test_the_claim_ends_when_the_next_game_starts() -> None:
    """Away through the end of a game: the seat can be taken back before the rematch,
    not after it (the rematch deals the bot in for good)."""
    storage = MemoryStorage()
    settings = dataclasses.replace(AWAY, turn_timeout=600.0)
    with TestClient(create_app(settings, storage=storage)) as client:
        table_id = create_table(client, TWO)
        tokens = [sit(client, table_id, name)[1] for name in ("Ann", "Bob")]
        with connect(client, table_id, "bob") as bob:
            bob.hello(tokens[1])
            with connect(client, table_id, "ann") as ann:
                ann.hello(tokens[0])
                ann.reply(ann.command("start"))
            bob.wait_for(_op("replace", 0))
            play_until_over([bob])  # the bot plays Ann's seat to the end
            with connect(client, table_id, "ann") as ann:  # between games: taken back
                sync = ann.hello(tokens[0])
                assert sync["you"] == 0
                assert sync["table"]["status"] == "over"
            bob.wait_for(_op("reclaim", 0))
            play_rematch_without(bob, client, table_id, tokens[0])


def play_rematch_without(bob: Player, client: TestClient, table_id: str, token: str) -> None:
    """Ann (back, then gone again) is replaced in the rematch; after it, her token fails."""
    bob.drain()
    assert bob.reply(bob.command("start"))["type"] == "ack"
    bob.wait_for(_op("replace", 0))
    play_until_over([bob])
    bob.drain()
    assert bob.reply(bob.command("start"))["type"] == "ack"  # game 3: the claim is gone
    bob.wait_for(_op("start"))
    with connect(client, table_id, "ann") as ann:
        sync = ann.hello(token)
        assert sync["you"] is None
        assert sync["token_rejected"] is True


def test_the_log_rebuilds_the_same_seats() -> None:
    """replace keeps the player's token hash with the bot; reclaim restores the player;
    start forgets a claim nobody used; leave keeps none."""
    storage = MemoryStorage()
    with TestClient(create_app(AWAY, storage=storage)) as client:
        table_id = create_table(client, TWO)
        token = sit(client, table_id, "Ann")[1]
        with connect(client, table_id, "eve") as eve:
            eve.hello()
            with connect(client, table_id, "ann") as ann:
                ann.hello(token)
                ann.reply(ann.command("start"))
            eve.wait_for(_op("replace", 0))
            with connect(client, table_id, "ann") as ann:
                assert ann.hello(token)["you"] == 0
    row = storage.table(table_id)
    assert row is not None
    table = Table.rebuild(row, storage.entries(table_id))
    seat = table.seats[0]
    assert (seat.kind, seat.name, seat.token_hash) == ("human", "Ann", hash_token(token))
    assert seat.public() == {"kind": "human", "name": "Ann", "bot": None, "label": None}


def test_settings_keep_compression_switchable() -> None:
    assert ServerSettings.from_env({"SEQUENCE_STACKS_COMPRESSION": "on"}).compression is True
    assert ServerSettings.from_env({"SEQUENCE_STACKS_COMPRESSION": "off"}).compression is False
