"""The game on one device (#25), in CPython: what the page's engine answers, its saves
(refused when changed or damaged) and its records (replayed by the engine)."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from sequence_stacks.device import DeviceGame, Player, SaveError, Session, bot_seed
from sequence_stacks.engine import (
    GameRecord,
    Phase,
    Settings,
    new_game,
    observe,
    position_digest,
)
from sequence_stacks.engine.catalog import pile_slots, seat_action_fields

PEOPLE = [Player("Ann"), Player("Ben"), Player("Greedy bot 3", "greedy")]


def play(game: DeviceGame, moves: int, rng: random.Random) -> None:
    """``moves`` moves: bots choose their own, people a random legal action."""
    for _ in range(moves):
        if game.state.result is not None:
            return
        seat = game.state.deciders()[0]
        if seat in game.bots:
            game.bot_move(seat, None)
        else:
            game.act(seat, rng.choice(observe(game.state, seat).legal_action_ids), None)


def test_the_game_is_the_engine_s_game_from_its_seed() -> None:
    game = DeviceGame(Settings(player_count=3), 41, PEOPLE)
    assert position_digest(game.state) == position_digest(new_game(Settings(player_count=3), 41))
    table = game.table()
    assert table["slots"] == pile_slots(2)
    assert table["action_tables"][1] == seat_action_fields(3, 2, 1)
    assert table["players"][2] == {"name": "Greedy bot 3", "bot": "greedy"}
    assert game.view(0) == observe(game.state, 0).to_dict()
    assert game.view(None)["hand"] is None


def test_bots_are_seeded_from_the_game_so_a_game_of_bots_replays_the_same() -> None:
    bots = [Player(f"B{seat}", "heuristic") for seat in range(4)]
    games = [DeviceGame(Settings(player_count=4), 7, bots) for _ in range(2)]
    for game in games:
        while game.state.result is None:
            game.bot_move(game.state.deciders()[0], None)
    assert games[0].actions == games[1].actions
    assert bot_seed(7, 1) != bot_seed(7, 2) != bot_seed(8, 2)


def test_an_entry_tells_the_listener_only_what_it_may_know() -> None:
    game = DeviceGame(Settings(player_count=3), 5, PEOPLE)
    deal = game.start_entry(None)
    assert [event["cards"] for event in deal["events"] if event["type"] == "CardsDrawn"] == [
        [],
        [],
        [],
    ]
    mine = game.start_entry(0)
    drawn = [event for event in mine["events"] if event["type"] == "CardsDrawn"]
    assert drawn[0]["cards"] == list(game.state.hands[0])  # own cards, and no one else's
    assert drawn[0]["message"]["key"] == "log.CardsDrawn.deal.seen"
    assert drawn[1]["cards"] == []


def test_a_block_answer_of_another_seat_is_only_an_answer() -> None:
    rng = random.Random(3)
    for seed in range(40):
        game = DeviceGame(Settings(player_count=3), seed, PEOPLE)
        while game.state.result is None and game.state.phase != Phase.BLOCK_WINDOW:
            play(game, 1, rng)
        if game.state.phase == Phase.BLOCK_WINDOW:
            break
    else:
        pytest.fail("no Block window in 40 games")
    seat = game.state.deciders()[0]
    answer = game.act(seat, 0, None)  # a pass, heard by the table
    assert answer["action"] == "answer"
    assert all(event.get("blocked") is None for event in answer["events"])


def test_a_save_loads_to_the_same_game_and_its_record_replays() -> None:
    game = DeviceGame(Settings(player_count=3), 12, PEOPLE)
    play(game, 60, random.Random(1))
    save = json.loads(json.dumps(game.save()))
    loaded = DeviceGame.load(save)
    assert position_digest(loaded.state) == position_digest(game.state)
    assert loaded.players == game.players
    assert loaded.version == game.version == len(game.actions)
    record = GameRecord.from_dict(json.loads(json.dumps(game.game_record())))
    assert position_digest(record.replay()) == record.digest == position_digest(game.state)
    assert record.meta["players"] == ["Ann", "Ben", "Greedy bot 3"]


def test_a_finished_game_s_save_loads_after_a_trip_through_javascript() -> None:
    """JavaScript writes the whole float 1.0 (a winner's return) as 1."""
    bots = [Player(f"B{seat}", "greedy") for seat in range(3)]
    game = DeviceGame(Settings(player_count=3), 4, bots)
    while game.state.result is None:
        game.bot_move(game.state.deciders()[0], None)
    save = game.save()
    text = json.dumps(save).replace("1.0", "1").replace("-0.0,", "0,")
    assert text != json.dumps(save)
    assert DeviceGame.load(json.loads(text)).state.result == game.state.result


def test_a_finished_game_has_standings_and_a_result_in_its_record() -> None:
    bots = [Player(f"B{seat}", "greedy") for seat in range(3)]
    game = DeviceGame(Settings(player_count=3), 2, bots)
    assert game.standings() is None
    while game.state.result is None:
        game.bot_move(game.state.deciders()[0], None)
    standings = game.standings()
    assert standings is not None
    assert [row["winner"] for row in standings].count(True) == (
        1 if game.state.result.winner is not None else 0
    )
    assert sorted(row["seat"] for row in standings) == [0, 1, 2]
    assert game.game_record()["result"] == game.state.result.to_dict()


def _changed(save: dict[str, Any], change: Any) -> dict[str, Any]:
    changed = copy.deepcopy(save)
    change(changed)
    return changed


def _resealed(save: dict[str, Any], change: Any) -> dict[str, Any]:
    """A save changed and given a checksum that fits again (a careful hand-editor)."""
    from sequence_stacks.device.game import _checksum  # noqa: PLC0415 - the one helper

    changed = _changed(save, change)
    del changed["check"]
    return {**changed, "check": _checksum(changed)}


@pytest.mark.parametrize(
    ("what", "change"),
    [
        ("a changed checksum", lambda s: s.update(check="0" * 64)),
        ("a changed action", lambda s: s["record"]["actions"].__setitem__(2, "0 end")),
        ("a field more", lambda s: s.update(extra=1)),
        ("another format", lambda s: s.update(format="something/else")),
    ],
)
def test_a_changed_save_is_refused(what: str, change: Any) -> None:
    game = DeviceGame(Settings(player_count=3), 12, PEOPLE)
    play(game, 20, random.Random(2))
    with pytest.raises(SaveError):
        DeviceGame.load(_changed(game.save(), change))


@pytest.mark.parametrize(
    ("what", "change"),
    [
        ("an illegal action", lambda s: s["record"]["actions"].__setitem__(2, "1 B1>new")),
        ("another digest", lambda s: s["record"].update(digest="ab" * 32)),
        ("no digest", lambda s: s["record"].update(digest=None)),
        ("a player too many", lambda s: s["players"].append({"name": "Cy", "bot": None})),
        ("an unknown bot", lambda s: s["players"][2].update(bot="oracle")),
        ("a name of spaces", lambda s: s["players"][0].update(name="   ")),
    ],
)
def test_a_resealed_save_is_still_checked_by_the_engine(what: str, change: Any) -> None:
    game = DeviceGame(Settings(player_count=3), 12, PEOPLE)
    play(game, 20, random.Random(2))
    with pytest.raises(SaveError):
        DeviceGame.load(_resealed(game.save(), change))


def test_the_session_answers_json_as_the_page_asks() -> None:
    session = Session()
    players = [p.to_dict() for p in PEOPLE]
    started = session.answer(json.dumps({"op": "new", "players": players, "seed": 9}))
    assert set(started) == {"table", "view", "version", "save", "standings", "entry"}
    seat = started["view"]["deciders"][0]
    view = session.answer(json.dumps({"op": "view", "viewer": seat}))["view"]
    hint = session.answer(json.dumps({"op": "hint", "seat": seat}))["action_id"]
    assert hint in view["legal_action_ids"]
    act = {"op": "act", "seat": seat, "action_id": hint, "viewer": seat, "log_viewer": None}
    moved = session.answer(json.dumps(act))
    assert moved["version"] == 1
    assert moved["view"]["seat"] == seat
    refused = session.answer(json.dumps({"op": "act", "seat": 2, "action_id": 1}))
    assert refused["refused"]["code"] == "illegal"
    assert refused["refused"]["detail"]["key"].startswith("illegal.")
    assert refused["refused"]["rule"].startswith("R")
    loaded = Session().answer(json.dumps({"op": "load", "save": moved["save"]}))
    assert loaded["version"] == 1
    record = session.answer(json.dumps({"op": "record"}))["record"]
    assert GameRecord.from_dict(record).replay() is not None


@pytest.mark.parametrize(
    ("request_text", "code"),
    [
        ("not json", "bad_request"),
        ('{"op": "fly"}', "bad_request"),
        ('{"op": "view"}', "bad_request"),  # no game yet
        ('{"op": "new", "players": [], "seed": 1}', "bad_save"),
        ('{"op": "new", "players": [{"name": "A"}], "seed": -1}', "bad_request"),
        ('{"op": "load", "save": [1, 2]}', "bad_save"),
    ],
)
def test_the_session_refuses_what_it_cannot_do(request_text: str, code: str) -> None:
    answer = Session().answer(request_text)
    assert answer["error"]["code"] == code


def test_a_person_or_a_bot_only_with_a_name_of_their_own() -> None:
    assert Player.from_dict({"name": "  Ann   Lee ", "bot": None}) == Player("Ann Lee")
    for bad in ({"name": ""}, {"name": 3}, {"name": "A", "bot": "oracle"}, {"name": "A", "x": 1}):
        with pytest.raises(SaveError):
            Player.from_dict(bad)
