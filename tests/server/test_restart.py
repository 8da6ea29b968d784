"""A real server process killed with SIGKILL and started again on its database (#12.3):
an open Block window keeps its askees' right to answer (R29)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from .harness import ClosedError, Frame
from .live import LivePlayer, LiveServer

pytestmark = pytest.mark.timeout(180)

BLOCK_TIMEOUT = 6.0


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    env = {
        "SEQUENCE_STACKS_BLOCK_TIMEOUT": str(BLOCK_TIMEOUT),
        "SEQUENCE_STACKS_TURN_TIMEOUT": "300",
        "SEQUENCE_STACKS_GRACE_PERIOD": "300",
    }
    live = LiveServer(tmp_path / "restart.sqlite3", env)
    live.start()
    yield live
    live.stop()


def _until_a_window_asks(players: list[LivePlayer]) -> LivePlayer:
    """Play (cards first) until a Block window asks one of the players; return it."""
    for _ in range(2000):
        for player in players:
            player.drain(0.02)
            view = player.view
            if view is None:
                continue
            if view["phase"] == "block_window" and player.seat in view["window_pending"]:
                return player
            legal = player.legal()
            if legal and "pass" not in legal:
                choice = player.choose()
                assert choice is not None
                reply = player.reply(player.act(choice))
                assert reply["type"] == "ack" or reply["code"] == "stale", reply
    raise AssertionError("no Block window opened")


@pytest.fixture
def stack() -> Iterator[contextlib.ExitStack]:
    with contextlib.ExitStack() as connections:
        yield connections


def test_a_block_window_open_at_a_sigkill_gets_a_fresh_full_time(
    server: LiveServer, stack: contextlib.ExitStack
) -> None:
    table = server.post("/api/tables", {"options": {"player_count": 2}})["id"]
    tokens = [server.post(f"/api/tables/{table}/seats", {"name": n})["token"] for n in "AB"]
    players = [stack.enter_context(server.player(table, name)) for name in ("ann", "bob")]
    for player, token in zip(players, tokens, strict=True):
        player.hello(token)
    players[0].reply(players[0].command("start"))
    asked = _until_a_window_asks(players)
    index = players.index(asked)
    seen = asked.version
    server.kill()
    for player in players:
        with pytest.raises(ClosedError):
            player.wait_for(lambda frame: False, timeout=5)
    server.start()
    back = stack.enter_context(server.player(table, "back"))
    sync: Frame = back.hello(tokens[index], last_version=seen)
    assert sync["version"] == seen  # nothing was lost, nothing happened while down
    assert sync["view"]["phase"] == "block_window"
    assert sync["you"] in sync["view"]["window_pending"]
    timer = sync["timer"]
    assert timer["kind"] == "block"
    assert sync["you"] in timer["seats"]
    assert timer["remaining_ms"] >= (BLOCK_TIMEOUT - 1.5) * 1000, timer
    # Nobody is passed for them meanwhile: past the old deadline, they are still asked.
    time.sleep(1.5)
    back.drain(0.1)
    assert back.view is not None
    assert back.view["phase"] == "block_window"
    assert sync["you"] in back.view["window_pending"]
    answer = "block" if "block" in back.legal() else "pass"
    # A Block is played at once; a pass is stored (and acknowledged) when the fresh
    # window's whole time is up (docs/rules-notes.md, Block windows at a table).
    reply = back.reply(back.act(answer))
    assert reply["type"] == "ack", reply


def test_an_unanswered_window_still_times_out_after_a_restart(
    server: LiveServer, stack: contextlib.ExitStack
) -> None:
    """The fresh window is a full window, not forever: unanswered, it is a pass (R29)."""
    table = server.post("/api/tables", {"options": {"player_count": 2}})["id"]
    tokens = [server.post(f"/api/tables/{table}/seats", {"name": n})["token"] for n in "AB"]
    players = [stack.enter_context(server.player(table, name)) for name in ("ann", "bob")]
    for player, token in zip(players, tokens, strict=True):
        player.hello(token)
    players[0].reply(players[0].command("start"))
    asked = _until_a_window_asks(players)
    seen = asked.version
    seat = asked.seat
    server.kill()
    server.start()
    watcher = stack.enter_context(server.player(table, "eve"))
    watcher.hello(None, last_version=seen)
    passed = watcher.wait_for(
        lambda f: f["type"] == "update" and f["seat"] == seat and f["op"] == "act",
        timeout=BLOCK_TIMEOUT + 5,
    )
    assert passed["auto"] is True
