"""The expert bot (#27, the Champion) at a table of the web server: seated by a player
and playing a whole game through the server's bot thread, to the end."""

from __future__ import annotations

import functools
from typing import Any

import pytest
from starlette.testclient import TestClient

from .harness import SHORT_GAME, connect, create_table, play_until_over, sit

pytestmark = pytest.mark.timeout(120)


def test_the_expert_plays_a_whole_game_at_a_table(client: TestClient) -> None:
    table_id = create_table(client, SHORT_GAME)
    _, token = sit(client, table_id, "Ann")
    with connect(client, table_id, "ann") as ann:
        ann.hello(token)
        for seat, bot in ((1, "expert"), (2, "heuristic")):
            reply = ann.reply(ann.command("add_bot", bot=bot, seat=seat))
            assert reply["type"] == "ack", reply
            ann.wait_for(functools.partial(_seated, seat=seat))
        assert ann.reply(ann.command("start"))["type"] == "ack"
        play_until_over([ann])
        assert ann.table is not None
        assert ann.table["seats"][1]["kind"] == "bot"
        assert ann.table["seats"][1]["bot"] == "expert"
        assert ann.view is not None
        assert ann.view["result"]
    replay = client.get(f"/api/tables/{table_id}/games/1").json()
    assert replay["over"] is True
    assert replay["step"] == replay["steps"] > 0


def _seated(frame: dict[str, Any], *, seat: int) -> bool:
    """A frame whose table shows a bot at ``seat``."""
    table = frame.get("table")
    return table is not None and table["seats"][seat]["kind"] == "bot"
