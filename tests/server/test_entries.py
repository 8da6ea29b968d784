"""Typed log entries and their one codec: today's JSON exactly, old databases unchanged."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from sequence_stacks.server import MemoryStorage, create_app
from sequence_stacks.server.play import Refusal, RefusalCode, commands
from sequence_stacks.server.play.entries import (
    Act,
    AddBot,
    Leave,
    LogPayload,
    Op,
    PayloadError,
    Reclaim,
    RemoveBot,
    Replace,
    Sit,
    Start,
    decode,
    encode,
    op_of,
)

from .harness import FAST, SHORT_GAME, connect, create_table, play_until_over, sit

FIXTURE = Path(__file__).parent / "fixtures" / "schema-1.sqlite3"

EXAMPLES: list[tuple[LogPayload, dict[str, Any]]] = [
    (Sit(0, "Ann", "ab12"), {"op": "sit", "seat": 0, "name": "Ann", "token_hash": "ab12"}),
    (Leave(1, "greedy", "c9"), {"op": "leave", "seat": 1, "bot": "greedy", "client": "c9"}),
    (
        AddBot(2, "random", "c1", 0),
        {"op": "add_bot", "seat": 2, "bot": "random", "client": "c1", "by": 0},
    ),
    (RemoveBot(2, "c2", 1), {"op": "remove_bot", "seat": 2, "client": "c2", "by": 1}),
    (
        Start(1, 123456789, "greedy", "go", 0),
        {"op": "start", "game": 1, "seed": 123456789, "bot": "greedy", "client": "go", "by": 0},
    ),
    (Replace(1, "greedy"), {"op": "replace", "seat": 1, "bot": "greedy"}),
    (Reclaim(1), {"op": "reclaim", "seat": 1}),
    (Act(0, "B1>new", "c3"), {"op": "act", "seat": 0, "action": "B1>new", "client": "c3"}),
    (Act(2, "pass"), {"op": "act", "seat": 2, "action": "pass", "client": None}),
    # Stored before commands named their sender ("by"): still read.
    (
        Start(2, 5, "random", "x"),
        {"op": "start", "game": 2, "seed": 5, "bot": "random", "client": "x"},
    ),
]


@pytest.mark.parametrize(("payload", "stored"), EXAMPLES)
def test_the_codec_writes_exactly_the_stored_json_and_reads_it_back(
    payload: LogPayload, stored: dict[str, Any]
) -> None:
    assert json.dumps(encode(payload)) == json.dumps(stored)  # same keys, same order
    assert decode(stored) == payload
    assert op_of(payload) == Op(stored["op"])


def test_every_entry_of_a_schema_1_database_round_trips_byte_for_byte() -> None:
    with sqlite3.connect(f"file:{FIXTURE}?mode=ro", uri=True) as db:
        payloads = [
            text for (text,) in db.execute("SELECT payload FROM log ORDER BY table_id, version")
        ]
    assert len(payloads) > 50
    ops = set()
    for text in payloads:
        entry = decode(json.loads(text))
        ops.add(op_of(entry))
        assert json.dumps(encode(entry), separators=(",", ":")) == text
    assert {Op.SIT, Op.ADD_BOT, Op.START, Op.ACT} <= ops


@pytest.mark.parametrize(
    "stored",
    [
        {"op": "kick", "seat": 0},
        {"op": ["act"]},
        {"seat": 0},
        {"op": "sit", "seat": "0", "name": "x", "token_hash": "h"},
        {"op": "sit", "seat": True, "name": "x", "token_hash": "h"},
        {"op": "act", "seat": 0, "client": None},
        {"op": "start", "game": 1, "seed": 2.5, "bot": "greedy"},
        {"op": "leave", "seat": 0, "bot": "greedy", "client": 7},
    ],
)
def test_a_stored_entry_that_is_not_one_is_a_clear_error(stored: dict[str, Any]) -> None:
    with pytest.raises(PayloadError):
        decode(stored)


def test_every_entry_the_server_stores_is_one_the_codec_reads_and_writes_again() -> None:
    storage = MemoryStorage()
    with TestClient(create_app(FAST, storage=storage)) as client:
        table_id = create_table(client, {**SHORT_GAME, "player_count": 3})
        _, token = sit(client, table_id, "Ann")
        with connect(client, table_id, "ann") as ann:
            ann.hello(token)
            ann.reply(ann.command("add_bot", bot="random", seat=1))
            ann.drain()
            ann.reply(ann.command("start"))
            play_until_over([ann])
    stored = [entry.payload for entry in storage.entries(table_id)]
    assert [p["op"] for p in stored[:3]] == ["sit", "add_bot", "start"]
    for payload in stored:
        assert encode(decode(payload)) == payload


def test_an_unknown_command_is_refused_and_changes_nothing() -> None:
    """A message of no known type never reaches the service as some other command:
    it is refused by the decoder (the socket answers with an error), naming the type,
    and the table's log is unchanged."""
    storage = MemoryStorage()
    with TestClient(create_app(FAST, storage=storage)) as client:
        table_id = create_table(client, {"player_count": 2})
        _, token = sit(client, table_id, "Ann")
        before = storage.entries(table_id)
        with connect(client, table_id, "ann") as ann:
            ann.hello(token)
            ann.send({"type": "kick", "id": "k1", "version": 1})
            refused = ann.wait_for(lambda frame: frame["type"] == "error")
        assert (refused["type"], refused["code"]) == ("error", "unknown_type")
        assert "kick" in refused["reason"]
        assert storage.entries(table_id) == before
    with pytest.raises(Refusal) as decoded:
        commands.decode('{"type": "kick", "id": "k1", "version": 1}')
    assert decoded.value.code == RefusalCode.UNKNOWN_TYPE
