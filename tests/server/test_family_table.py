"""What a family's table gets from the server (#24): the lobby frames carry the table's
own options (its pace and name); a refused combination of options names them as data;
a player back at the seat a bot kept gets a summary of what the bot did."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from starlette.testclient import TestClient

from sequence_stacks.server import MemoryStorage, create_app

from .harness import FAST, SHORT_GAME, Frame, connect, create_table, sit

pytestmark = pytest.mark.timeout(90)

AWAY = dataclasses.replace(FAST, grace_period=0.05)


def test_the_lobby_frames_carry_the_pace_and_the_name() -> None:
    with TestClient(create_app(FAST, storage=MemoryStorage())) as client:
        table_id = create_table(client, SHORT_GAME, pace="fast", visibility="public")
        lobby = client.get(f"/api/tables/{table_id}").json()
        assert lobby["options"]["pace"] == "fast"
        assert set(lobby["options"]["name"]) == {"animal", "number"}
        listed = client.get("/api/tables").json()["tables"]
        assert [t["options"] for t in listed if t["id"] == table_id] == [lobby["options"]]
        _, token = sit(client, table_id, "Ann")
        with connect(client, table_id) as ann:
            assert ann.hello(token)["table"]["options"] == lobby["options"]


@pytest.mark.parametrize(
    ("options", "key", "named"),
    [
        ({"chips_to_win": 3, "min_each_colour": 2}, "settings.min_each_colour", "chips_to_win"),
        ({"chip_supply": 2, "chips_to_win": 5}, "settings.chip_supply", "chips_to_win"),
    ],
)
def test_a_refused_combination_names_its_options(
    options: dict[str, Any], key: str, named: str
) -> None:
    with TestClient(create_app(FAST, storage=MemoryStorage())) as client:
        response = client.post("/api/tables", json={"options": options})
        assert response.status_code == 400
        detail = response.json()["detail"]
        assert detail["key"] == key
        assert detail["args"]["other_option"] == named
        assert detail["args"]["option"] in options


def _ended_by(seat: int) -> Any:
    def matches(frame: Frame) -> bool:
        events = frame.get("events") or []
        return frame["type"] == "update" and any(
            e["type"] == "TurnEnded" and e["seat"] == seat for e in events
        )

    return matches


def test_a_returning_player_hears_what_the_bot_did_for_them() -> None:
    with TestClient(create_app(AWAY, storage=MemoryStorage())) as client:
        table_id = create_table(client, {**SHORT_GAME, "player_count": 2})
        tokens = [sit(client, table_id, name)[1] for name in ("Ann", "Bob")]
        with connect(client, table_id, "bob") as bob:
            bob.hello(tokens[1])
            with connect(client, table_id, "ann") as ann:
                ann.hello(tokens[0])
                ann.reply(ann.command("start"))
            # Bob plays his turns; the bot finishes at least one of Ann's.
            for _ in range(200):
                frame = bob.poll(0.2)
                if frame is not None and _ended_by(0)(frame):
                    break
                choice = bob.choose()
                if choice is not None:
                    bob.reply(bob.act(choice))
            else:
                raise AssertionError("the stand-in bot never ended a turn")
            with connect(client, table_id, "ann") as back:
                sync = back.hello(tokens[0])
                assert sync["you"] == 0
                summary = sync["stand_in"]
                assert summary[0]["key"] == "away.turns"
                assert summary[0]["args"]["count"] >= 1
                assert all(line["args"].get("count", 1) > 0 for line in summary)
                # A second tab of hers (nothing reclaimed) gets no summary.
                with connect(client, table_id, "ann") as again:
                    assert again.hello(tokens[0])["stand_in"] is None
