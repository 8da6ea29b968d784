"""The replay's move list and final standings (#15): the last step's frame has every
step's seat and events, each exactly as that step's own frame gives it (so redacted for
a running game's viewer just the same), and a finished game's standings as the table
shows them."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from sequence_stacks.server import Storage
from sequence_stacks.server.play.audit import card_ids, hidden_history

from .harness import SHORT_GAME, Player, connect, create_table, play_until_over, sit


@contextlib.contextmanager
def _game(client: TestClient, options: dict[str, Any]) -> Iterator[tuple[str, str, Player]]:
    """A two-seat game Ann has started against a bot: the table, her token, her socket."""
    table_id = create_table(client, {**options, "player_count": 2})
    _, token = sit(client, table_id, "Ann")
    with connect(client, table_id, "ann") as ann:
        ann.hello(token)
        ann.reply(ann.command("start"))
        yield table_id, token, ann


@pytest.fixture
def started(client: TestClient) -> Iterator[tuple[str, str, Player]]:
    """A short game (two chips), to be played to its end."""
    with _game(client, SHORT_GAME) as game:
        yield game


@pytest.fixture
def running(client: TestClient) -> Iterator[tuple[str, str, Player]]:
    """A game of the default length (five chips, two of each colour): a few moves in,
    it is still running whatever the deal (two chips could be won in six moves)."""
    with _game(client, {}) as game:
        yield game


def _step(client: TestClient, url: str, step: int, token: str | None) -> dict[str, Any]:
    headers = {"x-seat-token": token} if token else {}
    data: dict[str, Any] = client.get(url, params={"step": step}, headers=headers).json()
    return data


def _assert_moves_are_the_steps(
    client: TestClient, url: str, token: str | None, steps: list[int] | None = None
) -> dict[str, Any]:
    headers = {"x-seat-token": token} if token else {}
    final: dict[str, Any] = client.get(url, headers=headers).json()
    moves = final["moves"]
    assert len(moves) == final["steps"] + 1
    for step in steps if steps is not None else range(final["steps"] + 1):
        entry = _step(client, url, step, token)["entry"]
        assert moves[step] == {"seat": entry["seat"], "events": entry["events"]}, step
    return final


def test_a_finished_game_s_last_step_has_every_move_and_the_standings(
    client: TestClient, started: tuple[str, str, Player]
) -> None:
    table_id, _, ann = started
    play_until_over([ann])
    url = f"/api/tables/{table_id}/games/1"
    total = client.get(url).json()["steps"]
    final = _assert_moves_are_the_steps(client, url, None, [0, 1, 2, total // 2, total])
    assert final["moves"][0]["seat"] is None  # the deal
    assert final["moves"][-1]["events"][-1]["type"] == "GameEnded"
    assert final["standings"] == client.get(f"/api/tables/{table_id}").json()["standings"]
    assert final["standings"][0]["winner"] is True
    middle = _step(client, url, 1, None)
    assert "moves" not in middle
    assert "standings" not in middle


def test_a_running_game_s_moves_show_a_seat_and_a_spectator_only_what_they_may_see(
    client: TestClient, storage: Storage, running: tuple[str, str, Player]
) -> None:
    table_id, token, ann = running
    url = f"/api/tables/{table_id}/games/1"
    ann.wait_for(lambda f: f["type"] == "update" and f["op"] == "start")
    for _ in range(6):
        ann.drain()
        action = ann.choose()
        if action is not None and not ann.over():
            ann.reply(ann.act(action))
    if not ann.legal():  # the bot moves first: then nothing changes while we read
        ann.wait_for(lambda _: bool(ann.legal()))
    mine = _assert_moves_are_the_steps(client, url, token)
    theirs = _assert_moves_are_the_steps(client, url, None)
    row = storage.table(table_id)
    assert row is not None
    history, _ = hidden_history(row, storage.entries(table_id), None)
    assert mine["over"] is False
    assert mine["standings"] is None
    dealt = mine["moves"][0]["events"][0]
    assert dealt["type"] == "CardsDrawn"
    assert dealt["cards"], "a seat's move list shows its own deal"
    deal = theirs["moves"][0]["events"]
    assert all(not e["cards"] for e in deal if e["type"] == "CardsDrawn")
    # The version of this frame: no card hidden from a spectator then is in its moves.
    version = max(history)
    hidden = history[version].after
    assert hidden
    assert not card_ids(theirs["moves"]) & hidden
