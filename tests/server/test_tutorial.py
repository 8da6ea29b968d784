"""The tutorial (#15 item 1): every lesson's position is one the engine's strict reader
accepts, the move it waits for is legal there and does what its words say; the HTTP
API applies a move to a lesson's position (nothing stored) and tells the awaited move
from another legal one and from an illegal one; every lesson's words exist in every
language and cite the rules the lesson teaches."""

from __future__ import annotations

import re
from typing import Any

import pytest
from starlette.testclient import TestClient

from sequence_stacks.engine import (
    Phase,
    action_space,
    card_text,
    meets_win_condition,
    observe,
    position_from_dict,
    position_to_dict,
)
from sequence_stacks.i18n import LANGUAGES, MESSAGES, translation
from sequence_stacks.server import create_app
from sequence_stacks.server.play.tutorial import (
    LEARNER,
    LESSONS,
    awaited_ids,
    awaited_reason,
    lesson_state,
    try_move,
)

from .harness import FAST

pytestmark = pytest.mark.timeout(60)

KEYS = [lesson.key for lesson in LESSONS]


def _index(key: str) -> int:
    return KEYS.index(key)


def _types(events: list[dict[str, Any]]) -> list[str]:
    return [event["type"] for event in events]


def test_the_lessons_cover_the_game() -> None:
    assert KEYS == [
        "start_pile",
        "next_number",
        "wild",
        "complete",
        "discard",
        "block",
        "skip",
        "reverse",
        "steal_card",
        "steal_chip",
        "win",
    ]


@pytest.mark.parametrize("key", KEYS)
def test_a_lesson_s_position_reads_back_through_the_strict_reader(key: str) -> None:
    state = lesson_state(_index(key))
    again = position_from_dict(position_to_dict(state))
    assert position_to_dict(again) == position_to_dict(state)
    assert state.phase != Phase.OVER
    assert LEARNER in state.deciders()


@pytest.mark.parametrize("key", KEYS)
def test_every_awaited_move_is_legal_and_counts(key: str) -> None:
    index = _index(key)
    ids = awaited_ids(index)
    assert ids, f"{key}: no legal move is awaited"
    for action_id in ids:
        assert try_move(index, action_id).expected


def test_each_awaited_move_does_what_its_words_say() -> None:
    def after(key: str) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
        index = _index(key)
        before = position_to_dict(lesson_state(index))
        tried = try_move(index, awaited_ids(index)[0])
        return before, tried.events, tried.view

    _, events, view = after("start_pile")
    assert _types(events) == ["CardPlayed"]
    assert len(view["piles"][0]) == 1
    _, events, view = after("next_number")
    assert [len(pile) for pile in view["piles"][:2]] == [2, 0]
    _, events, view = after("wild")
    assert card_text(view["piles"][0][2]).startswith("BW#")
    # Completing a sequence opens a Block window; nobody blocks; the chip is taken (R17).
    _, events, view = after("complete")
    assert _types(events)[:2] == ["CardPlayed", "BlockWindowOpened"]
    assert "PileCompleted" in _types(events)
    taken = {"type": "ChipTaken", "seat": LEARNER, "colour": 0, "taken": True}
    message = {"key": "log.ChipTaken.blue", "args": {"player": LEARNER}}
    assert {**taken, "message": message} in events
    assert view["chips"][LEARNER] == [1, 0]
    assert view["phase"] == "playing"
    _, events, view = after("discard")
    assert "TurnEnded" in _types(events)
    assert view["current"] == 1
    # A Block window is open and the learner is asked; blocking sets the pile aside (R29).
    before, events, view = after("block")
    assert before["phase"] == "block_window"
    assert LEARNER in before["window"]["pending"]
    assert "PileBlocked" in _types(events)
    assert "ChipTaken" not in _types(events)
    assert view["chips"] == before["chips"]
    assert view["hand_sizes"][LEARNER] == 4
    _, events, view = after("skip")
    assert view["pending_skips"] == 1
    _, events, view = after("reverse")
    assert view["direction"] == -1
    _, events, view = after("steal_card")
    assert _types(events) == ["CardStolen"]
    assert any(card_text(card).startswith("B3#") for card in view["hand"])
    before, events, view = after("steal_chip")
    assert sum(view["chips"][LEARNER]) == sum(before["chips"][LEARNER]) + 1
    # The win: five chips, two of each colour at least (R31).
    _, events, view = after("win")
    assert view["result"]["winner"] == LEARNER
    assert "GameEnded" in _types(events)
    assert view["chips"][LEARNER] == [2, 3]


def test_the_win_lesson_s_state_meets_the_win_condition_only_after_the_move() -> None:
    index = _index("win")
    state = lesson_state(index)
    assert not meets_win_condition(state.settings, state.chips[LEARNER])
    assert try_move(index, awaited_ids(index)[0]).view["result"]["reason"] == "win"


def _legal_ids(index: int) -> list[int]:
    return list(observe(lesson_state(index), LEARNER).legal_action_ids)


@pytest.mark.parametrize("key", KEYS)
def test_another_legal_move_is_not_the_awaited_one(key: str) -> None:
    index = _index(key)
    others = [i for i in _legal_ids(index) if i not in awaited_ids(index)]
    assert others, f"{key}: every legal move is the awaited one"
    tried = try_move(index, others[0])
    assert not tried.expected
    assert tried.events
    # Why the step's own move (#27): a hint's reason for the first awaited move.
    assert tried.why == awaited_reason(index)
    assert tried.why["key"].startswith("hint.reason.")
    assert tried.why["key"] in MESSAGES


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_every_lesson_has_its_words_and_its_rules_but_players_read_no_rule_id(
    language: str,
) -> None:
    """Each lesson names the rules it teaches (for the rule book's link and the tests),
    and its words are for players: no rule id in them (#24)."""
    words = translation(language)
    for lesson in LESSONS:
        assert lesson.rules, lesson.key
        assert all(re.fullmatch(r"R[1-9][0-9]?", rule) for rule in lesson.rules), lesson.key
        for part in ("title", "goal", "after"):
            key = f"learn.{lesson.key}.{part}"
            assert key in MESSAGES, key
            text = words.text(key, None)
            assert text, (language, key)
            assert not re.search(r"\bR[0-9]+\b", text), (language, key, text)


# --- the HTTP API -----------------------------------------------------------------------


@pytest.fixture
def web() -> Any:
    with TestClient(create_app(FAST)) as test_client:
        yield test_client


def test_the_lessons_are_served_with_the_learner_s_view_only(web: TestClient) -> None:
    response = web.get("/api/tutorial")
    assert response.status_code == 200
    data = response.json()
    assert [lesson["key"] for lesson in data["lessons"]] == KEYS
    for index, lesson in enumerate(data["lessons"]):
        view = lesson["view"]
        assert view["seat"] == LEARNER == lesson["seat"]
        assert view["hand"] == list(lesson_state(index).hands[LEARNER])
        assert "hands" not in view
        assert "draw" not in view
        assert "seed" not in view
    assert len(data["action_table"]) == len(action_space(3, 2).actions_of(LEARNER))


def test_a_move_is_applied_to_the_lesson_and_nothing_is_kept(web: TestClient) -> None:
    index = _index("complete")
    action_id = awaited_ids(index)[0]
    first = web.post(f"/api/tutorial/{index}", json={"action_id": action_id})
    assert first.status_code == 200
    body = first.json()
    assert body["expected"] is True
    assert body["why"] is None  # the awaited move needs no reason told
    assert "PileCompleted" in _types(body["events"])
    # Stateless: the same move again finds the lesson's position as it was.
    assert web.post(f"/api/tutorial/{index}", json={"action_id": action_id}).json() == body


def test_an_illegal_move_gets_the_engine_s_refusal(web: TestClient) -> None:
    index = _index("start_pile")
    legal = set(_legal_ids(index))
    illegal = next(i for i in range(len(action_space(3, 2).actions_of(LEARNER))) if i not in legal)
    response = web.post(f"/api/tutorial/{index}", json={"action_id": illegal})
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "illegal"
    assert body["rule"]
    assert body["detail"]["key"] in MESSAGES


@pytest.mark.parametrize(
    ("path", "body", "status"),
    [
        ("/api/tutorial/0", {"action_id": "B1>new"}, 400),
        ("/api/tutorial/0", {"action_id": True}, 400),
        ("/api/tutorial/0", {"action_id": 10_000}, 400),
        ("/api/tutorial/0", {"action_id": -1}, 400),
        ("/api/tutorial/0", {}, 400),
        ("/api/tutorial/99", {"action_id": 0}, 404),
    ],
)
def test_bad_tutorial_requests_are_refused(
    web: TestClient, path: str, body: dict[str, Any], status: int
) -> None:
    response = web.post(path, json=body)
    assert response.status_code == status
    assert response.json()["code"] in ("bad_request", "not_found")


def test_the_tutorial_page_is_served_in_the_reader_s_language(web: TestClient) -> None:
    response = web.get("/learn?lang=ko")
    assert response.status_code == 200
    assert '<html lang="ko"' in response.text
    assert "/static/tutorial.js" in response.text
    lobby = web.get("/").text
    assert 'href="/learn"' in lobby
