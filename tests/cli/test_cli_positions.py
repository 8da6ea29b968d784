"""`sequence-stacks` `new-position`, `legal`, `apply` and `replay`: output and exit codes."""

import io
import json
import re
from pathlib import Path

import pytest

from sequence_stacks.bots import make_bot
from sequence_stacks.cli import main
from sequence_stacks.engine import (
    GameRecord,
    Settings,
    State,
    action_space,
    apply_in_place,
    is_legal,
    legal_action_ids,
    new_game,
    observe,
    parse_action,
    position_digest,
    position_from_dict,
    position_to_dict,
)
from sequence_stacks.sim import play_game


def _write(path: Path, data: object) -> str:
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def _position_file(tmp_path: Path, state: State) -> str:
    return _write(tmp_path / "pos.json", position_to_dict(state))


def _block_window(player_count: int = 3) -> State:
    """Greedy play from a fixed deal up to the first Block window."""
    state = new_game(Settings(player_count=player_count), 2)
    bots = [make_bot("greedy", seed=seat) for seat in range(player_count)]
    while len(state.deciders()) < 2:
        seat = state.current_player()
        assert seat is not None
        apply_in_place(state, seat, bots[seat].choose(observe(state, seat)))
    return state


def _record_file(tmp_path: Path, player_count: int = 3) -> tuple[str, GameRecord]:
    bots = [make_bot("greedy", seed=seat) for seat in range(player_count)]
    _, record = play_game(Settings(player_count=player_count), 2, bots)
    return _write(tmp_path / "game.json", record.to_dict()), record


# --- new-position -----------------------------------------------------------------------


def test_new_position_prints_a_fresh_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new-position", "--players", "2", "--seed", "5"]) == 0
    state = position_from_dict(json.loads(capsys.readouterr().out))
    assert state == new_game(Settings(player_count=2), 5)


def test_new_position_takes_options(capsys: pytest.CaptureFixture[str]) -> None:
    options = ["--option", "hand_size=7", "--option", "chip_supply=unlimited"]
    assert main(["new-position", *options]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["settings"]["player_count"] == 4
    assert data["settings"]["chip_supply"] == "unlimited"
    assert all(len(hand) == 7 for hand in data["hands"])


def test_new_position_refuses_bad_settings(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new-position", "--players", "1"]) == 2
    assert "error: option player_count=1 is outside 2-6 (R5)" in capsys.readouterr().err


# --- legal ------------------------------------------------------------------------------


def test_legal_lists_the_turn_owners_actions(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    state = new_game(Settings(player_count=2), 5)
    assert main(["legal", _position_file(tmp_path, state)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines
    assert len(lines) == len(legal_action_ids(state, 0))
    for line in lines:
        seat_text, _, notation = line.partition(": ")
        assert seat_text == "seat 0"
        assert is_legal(state, 0, parse_action(notation))


def test_legal_json_lists_every_decider_of_a_block_window(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    state = _block_window()
    assert main(["legal", "--json", _position_file(tmp_path, state)]) == 0
    data = json.loads(capsys.readouterr().out)
    deciders = list(state.deciders())
    assert data["deciders"] == deciders
    assert set(data["actions"]) == {str(seat) for seat in deciders}
    for seat in deciders:
        assert data["ids"][str(seat)] == legal_action_ids(state, seat)
        assert data["actions"][str(seat)][0] == "pass"


def test_legal_text_names_each_deciders_seat(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    state = _block_window()
    assert main(["legal", _position_file(tmp_path, state)]) == 0
    out = capsys.readouterr().out
    for seat in state.deciders():
        assert f"seat {seat}: pass\n" in out


def test_legal_reads_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    state = new_game(Settings(player_count=3), 1)
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(position_to_dict(state))))
    assert main(["legal", "-"]) == 0
    assert capsys.readouterr().out.startswith("seat 0: ")


def test_legal_of_a_finished_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bots = [make_bot("greedy", seed=1), make_bot("greedy", seed=2)]
    state, _ = play_game(Settings(player_count=2), 4, bots)
    path = _position_file(tmp_path, state)
    assert main(["legal", path]) == 0
    assert "the game is over (win): nobody may act" in capsys.readouterr().out
    assert main(["legal", "--json", path]) == 0
    assert json.loads(capsys.readouterr().out) == {"deciders": [], "actions": {}, "ids": {}}


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "is not valid JSON"),
        ('{"format": "other"}', "pos.json': not a position"),
        ("[]", "pos.json': a position is a JSON object, not list"),
    ],
)
def test_legal_refuses_malformed_positions(
    content: str, message: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "pos.json"
    path.write_text(content)
    assert main(["legal", str(path)]) == 2
    captured = capsys.readouterr()
    assert message in captured.err
    assert "Traceback" not in captured.err


def test_legal_refuses_an_inconsistent_position(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = position_to_dict(new_game(Settings(player_count=2), 1))
    data["hands"][0].append(data["draw"][0])  # one card in two places
    assert main(["legal", _write(tmp_path / "pos.json", data)]) == 2
    assert "cards are not conserved (R39)" in capsys.readouterr().err


def test_legal_reports_a_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["legal", str(tmp_path / "nowhere.json")]) == 2
    assert "error: cannot read position" in capsys.readouterr().err


# --- apply ------------------------------------------------------------------------------


def test_apply_prints_the_new_position_and_events(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    state = new_game(Settings(player_count=2), 5)
    action = parse_action("discard R1")
    assert is_legal(state, 0, action)
    assert main(["apply", _position_file(tmp_path, state), "discard R1"]) == 0
    data = json.loads(capsys.readouterr().out)
    after = position_from_dict(data["position"])
    assert after.current == 1
    assert [event["type"] for event in data["events"]][:3] == [
        "Discarded",
        "TurnEnded",
        "TurnStarted",
    ]
    apply_in_place(state, 0, action)
    assert position_digest(after) == position_digest(state)


def test_apply_refuses_an_illegal_action(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = _position_file(tmp_path, new_game(Settings(player_count=2), 5))
    assert main(["apply", path, "B5>1"]) == 1
    captured = capsys.readouterr()
    assert captured.err == "illegal (R14): you hold no B5\n"
    assert captured.out == ""
    assert main(["apply", path, "pass"]) == 1
    assert "illegal (R29): Block and pass answer a Block window" in capsys.readouterr().err
    assert main(["apply", path, "discard R1", "--seat", "1"]) == 1
    assert "illegal (R20): it is seat 0's turn, not seat 1's" in capsys.readouterr().err


def test_apply_refuses_malformed_input(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = _position_file(tmp_path, new_game(Settings(player_count=2), 5))
    assert main(["apply", path, "B9>1"]) == 2
    assert "error: cannot read action 'B9>1'" in capsys.readouterr().err
    bad = _write(tmp_path / "bad.json", {"format": "sequence-stacks/position", "version": 9})
    assert main(["apply", bad, "end"]) == 2
    assert "bad.json': unsupported position version 9" in capsys.readouterr().err


def test_apply_in_a_block_window_needs_a_seat(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    state = _block_window()
    path = _position_file(tmp_path, state)
    first, second = state.deciders()
    assert main(["apply", path, "pass"]) == 2
    assert f"seats {first}, {second} may all act now" in capsys.readouterr().err
    assert main(["apply", path, "pass", "--seat", str(second)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["events"] == [{"type": "BlockAnswered", "seat": second, "blocked": False}]
    assert position_from_dict(data["position"]).deciders() == (first,)


def test_apply_after_the_end_is_illegal(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bots = [make_bot("greedy", seed=1), make_bot("greedy", seed=2)]
    state, _ = play_game(Settings(player_count=2), 4, bots)
    assert main(["apply", _position_file(tmp_path, state), "end"]) == 1
    assert "illegal (R32): the game is over" in capsys.readouterr().err


def test_apply_legal_round_trip_through_ids(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    state = new_game(Settings(player_count=4), 8)
    path = _position_file(tmp_path, state)
    assert main(["legal", "--json", path]) == 0
    data = json.loads(capsys.readouterr().out)
    space = action_space(4, 2)
    for notation, action_id in zip(data["actions"]["0"], data["ids"]["0"], strict=True):
        assert space.action(action_id, 0) == parse_action(notation)


# --- replay -----------------------------------------------------------------------------


def test_replay_verifies_a_record(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path, record = _record_file(tmp_path)
    assert main(["replay", path]) == 0
    assert record.result is not None
    line = capsys.readouterr().out.strip()
    assert line.startswith(f"ok: {len(record.actions)} actions, result {record.result.reason}")
    assert line.endswith(f"digest {record.digest}")


def test_replay_without_a_digest_computes_one(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    _, record = _record_file(tmp_path)
    data = record.to_dict()
    data["digest"] = None
    assert main(["replay", _write(tmp_path / "nodigest.json", data)]) == 0
    assert f"digest {record.digest} (computed; the record has none)" in capsys.readouterr().out


def test_replay_step_prints_actions_and_events(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path, record = _record_file(tmp_path)
    assert main(["replay", path, "--step"]) == 0
    out = capsys.readouterr().out
    first_seat, first_action = record.actions[0]
    assert f"[0] Player {first_seat}: {first_action.notation()}\n" in out
    assert re.search(r"Player 1 was dealt 5 cards: (blue|red|Skip|Reverse|Steal|Block)", out)
    assert "#" not in out.split("ok: ")[0]  # cards in words, not notation
    assert re.search(r"Player 2 answers (pass|block)\.", out)
    assert out.splitlines()[-1].startswith(f"ok: {len(record.actions)} actions")


def test_replay_step_for_one_seat_hides_what_it_could_not_see(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path, _ = _record_file(tmp_path)
    assert main(["replay", path, "--step", "--seat", "1"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"Player 1 was dealt 5 cards: (blue|red|Skip|Reverse|Steal|Block)", out)
    assert "Player 0 was dealt 5 cards.\n" in out
    assert not re.search(r"Player [02] (was dealt|drew|emptied the hand and drew) \d cards?:", out)
    assert not re.search(r"Player [02]: (pass|block)\b", out)
    assert not re.search(r"Player [02] answers (pass|block)", out)
    assert "Player 2: answers the Block window" in out
    assert re.search(r"Player 1: (pass|block)\n", out)


def test_replay_refuses_a_tampered_record(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    _, record = _record_file(tmp_path)
    data = record.to_dict()
    data["digest"] = "0" * 64
    path = _write(tmp_path / "tampered.json", data)
    for extra in ([], ["--step"]):
        assert main(["replay", path, *extra]) == 2
        captured = capsys.readouterr()
        assert "tampered.json': the replayed final position does not match" in captured.err


def test_replay_refuses_an_illegal_action(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    _, record = _record_file(tmp_path)
    data = record.to_dict()
    data["actions"][0] = "1 end"
    assert main(["replay", _write(tmp_path / "bad.json", data)]) == 2
    assert "bad.json': action 0 (1 end) is illegal: R20" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "is not valid JSON"),
        ('{"format": "sequence-stacks/position"}', "not a game record"),
        (
            '{"format": "sequence-stacks/record", "version": 1, "seed": 1, "actions": [7]}',
            "action 0 must be a string",
        ),
    ],
)
def test_replay_refuses_malformed_files(
    content: str, message: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "record.json"
    path.write_text(content)
    assert main(["replay", str(path)]) == 2
    captured = capsys.readouterr()
    assert message in captured.err
    assert "Traceback" not in captured.err


def test_replay_checks_the_seat(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path, _ = _record_file(tmp_path)
    assert main(["replay", path, "--step", "--seat", "3"]) == 2
    assert "--seat 3: the game has seats 0-2" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "absent.json")]) == 2
    assert "error: cannot read record" in capsys.readouterr().err
