"""Hints in practice games (#15 item 1, #27): a seated player of a game against bots
asks, and that connection alone hears the expert bot's choice for its own view, as an
action id, and why (a message key and its arguments); spectators, players at a table
with other people, a player whose decision it is not and a flood are refused. The hint
depends on the asker's view only (R36): moving cards between other hands and the draw
pile, unseen by the asker, changes nothing."""

from __future__ import annotations

import random
from typing import Any

import pytest
from starlette.testclient import TestClient

from sequence_stacks.engine import (
    Settings,
    action_space,
    new_game,
    observe,
    position_from_dict,
    position_to_dict,
)
from sequence_stacks.i18n import LANGUAGES, MESSAGES, render, set_language, words
from sequence_stacks.server import Storage
from sequence_stacks.server.play.hints import reason, suggestion

from .harness import Player, connect, create_table, sit

pytestmark = pytest.mark.timeout(60)


def _refused(player: Player) -> dict[str, Any]:
    return player.wait_for(lambda f: f["type"] in ("refused", "error"))


def test_a_practice_player_alone_hears_a_hint_of_a_legal_move(
    client: TestClient, storage: Storage
) -> None:
    body = client.post("/api/play", json={"name": "Mina", "players": 2}).json()
    table_id = body["id"]
    with connect(client, table_id, "mina") as mina, connect(client, table_id, "eve") as eve:
        sync = mina.hello(body["token"])
        eve.hello()
        assert sync["view"]["current"] == 0
        before = len(storage.entries(table_id))
        mina.send({"type": "hint"})
        hint = mina.wait_for(lambda f: f["type"] == "hint")
        assert set(hint) == {"type", "version", "action_id", "why"}
        assert hint["why"]["key"].startswith("hint.reason.")
        assert hint["why"]["key"] in MESSAGES
        assert hint["version"] == sync["version"]
        assert hint["action_id"] in sync["view"]["legal_action_ids"]
        # Too soon after the last one: refused. Nothing reached the spectator.
        mina.send({"type": "hint"})
        assert _refused(mina)["code"] == "rate_limited"
        assert not [f for f in eve.drain(0.2) if f["type"] == "hint"]
        # A spectator gets none; nothing of it enters the table's log.
        eve.send({"type": "hint"})
        assert _refused(eve)["code"] == "not_seated"
        assert len(storage.entries(table_id)) == before


def test_no_hint_at_a_table_with_other_people(client: TestClient) -> None:
    table_id = create_table(client, {"player_count": 2})
    _, ann_token = sit(client, table_id, "Ann")
    _, bob_token = sit(client, table_id, "Bob")
    with connect(client, table_id, "ann") as ann, connect(client, table_id, "bob") as bob:
        ann.hello(ann_token)
        bob.hello(bob_token)
        ann.reply(ann.command("start"))
        ann.send({"type": "hint"})
        refused = _refused(ann)
        assert refused["detail"] == {"key": "table.hint_practice_only", "args": {}}


def test_no_hint_when_the_decision_is_not_yours(client: TestClient) -> None:
    table_id = create_table(client, {"player_count": 2})
    _, ann_token = sit(client, table_id, "Ann")
    with connect(client, table_id, "ann") as ann:
        ann.hello(ann_token)
        assert ann.reply(ann.command("add_bot", seat=1, bot="random"))["type"] == "ack"
        ann.send({"type": "hint"})  # a practice table, but no game yet
        assert _refused(ann)["detail"] == {"key": "table.hint_not_now", "args": {}}


def _shuffled_unseen(state_dict: dict[str, object], seat: int, seed: int) -> dict[str, object]:
    """The same position with the cards ``seat`` cannot see dealt again at random among
    the places they were (other hands and the draw pile, each keeping its size)."""
    data = dict(state_dict)
    hands = [list(hand) for hand in data["hands"]]  # type: ignore[attr-defined]
    draw = list(data["draw"])  # type: ignore[call-overload]
    unseen = [card for other, hand in enumerate(hands) if other != seat for card in hand] + draw
    random.Random(seed).shuffle(unseen)
    for other, hand in enumerate(hands):
        if other != seat:
            hands[other], unseen = unseen[: len(hand)], unseen[len(hand) :]
    data["hands"], data["draw"] = hands, unseen
    return data


@pytest.mark.parametrize("seed", range(6))
def test_the_hint_depends_on_the_asker_s_view_only(seed: int) -> None:
    state = new_game(Settings(player_count=3), seed)
    seat = state.current
    original = position_to_dict(state)
    space = action_space(3, 2)
    hint = space.id_of(suggestion(observe(state, seat), seed=11), seat)
    for other_seed in range(3):
        moved = position_from_dict(_shuffled_unseen(original, seat, other_seed))
        assert position_to_dict(moved)["hands"] != original["hands"]
        again = space.id_of(suggestion(observe(moved, seat), seed=11), seat)
        assert again == hint


@pytest.mark.parametrize("seed", range(3))
def test_the_hint_s_reason_is_worded_in_every_language(seed: int) -> None:
    """The reason names only what the asker sees: its message renders in the six
    languages with the arguments the browser words (seats, a card kind, a pile)."""
    state = new_game(Settings(player_count=2), seed)
    seat = state.current
    view = observe(state, seat)
    why = reason(view, suggestion(view, seed=3))
    assert why["key"] in MESSAGES
    try:
        for language in LANGUAGES:
            set_language(language)
            text = render(why["key"], **words(why["args"], lambda other: f"P{other}"))
            assert text
            assert "{" not in text
    finally:
        set_language("en")
