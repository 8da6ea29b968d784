"""The leak audit over seats that change hands (R36, #12): a player leaves mid-game with
the socket still open, another is replaced by a bot while away and reclaims the seat, a
newcomer sits in the leaver's seat for the rematch. Every frame every connection got
is checked against what the seat its token held *at that version* may see."""

from __future__ import annotations

import dataclasses
import random

import pytest
from starlette.testclient import TestClient

from sequence_stacks.server import MemoryStorage, create_app

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

pytestmark = pytest.mark.timeout(180)

GRACE = 0.3


def _turns(players: list[Player], count: int) -> None:
    """Let the seated players act ``count`` times between them (bots play between)."""
    done = 0
    for _ in range(400):
        if done >= count or any(player.over() for player in players):
            return
        for player in players:
            player.drain()
            action = player.choose()
            if action is not None and not player.over():
                reply = player.reply(player.act(action))
                assert reply["type"] == "ack" or reply["code"] in ("stale", "not_seated"), reply
                done += 1


def _leave(player: Player) -> int:
    """Send ``leave`` (again if the table moved on meanwhile); return its version."""
    for _ in range(20):
        player.drain()
        reply = player.reply(player.command("leave"))
        if reply["type"] == "ack":
            return int(reply["version"])
        assert reply["code"] == "stale", reply
    raise AssertionError("leave was never accepted")


def _hands_after(player: Player, version: int) -> list[int]:
    """Versions at or after ``version`` whose frame showed this connection a hand."""
    return [
        frame["version"]
        for frame in player.frames
        if frame["type"] in ("update", "sync")
        and frame["version"] >= version
        and frame.get("view")
        and frame["view"]["hand"] is not None
    ]


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_no_frame_shows_more_than_the_seat_its_token_holds_then(seed: int) -> None:
    rng = random.Random(seed)
    storage = MemoryStorage()
    settings = dataclasses.replace(FAST, grace_period=GRACE, default_bot="random")
    with TestClient(create_app(settings, storage=storage)) as client:
        table_id = create_table(client, {**SHORT_GAME, "player_count": 3})
        _, ann_token = sit(client, table_id, "Ann", seat=0)
        _, bob_token = sit(client, table_id, "Bob", seat=1)
        everyone: list[Player] = []
        with connect(client, table_id, "ann") as ann, connect(client, table_id, "eve") as eve:
            ann.hello(ann_token)
            eve.hello()
            everyone += [ann, eve]
            with connect(client, table_id, "bob1") as bob1:
                bob1.hello(bob_token)
                everyone.append(bob1)
                bob1.reply(bob1.command("start"))
                _turns([ann, bob1], rng.randrange(0, 6))
            # Bob is away past the grace period: a bot holds seat 1 for him (replace).
            eve.wait_for(lambda f: f["type"] == "update" and f["op"] == "replace")
            _turns([ann], rng.randrange(0, 4))
            with connect(client, table_id, "bob2") as bob2:
                bob2.hello(bob_token)  # back: he reclaims seat 1
                everyone.append(bob2)
                assert bob2.seat == 1
                _turns([ann, bob2], rng.randrange(0, 6))
                left_at = _leave(ann)  # the socket stays open
                play_until_over([bob2])
                bob2.drain()
                # Between games Cara takes seat 0 (Ann's) and starts the rematch.
                if bob2.table is not None and bob2.table["seats"][0]["kind"] == "bot":
                    bob2.reply(bob2.command("remove_bot", seat=0))
                    bob2.drain()
                seat, cara_token = sit(client, table_id, "Cara", seat=0)
                assert seat == 0
                with connect(client, table_id, "cara") as cara:
                    cara.hello(cara_token)
                    everyone.append(cara)
                    cara.drain()
                    bob2.drain()
                    cara.reply(cara.command("start"))
                    _turns([cara, bob2], rng.randrange(2, 10))
                    for player in (ann, eve, bob2, cara):
                        player.drain(0.05)
        assert _hands_after(ann, left_at) == []
        assert _hands_after(eve, 0) == []
        ops = [entry.payload["op"] for entry in storage.entries(table_id)]
        for op in ("replace", "reclaim", "leave", "sit"):
            assert op in ops, f"the scenario never had a {op!r}"
        assert ops.count("start") == 2
        checked = assert_no_leaks(storage, table_id, everyone)
        assert checked > 50
