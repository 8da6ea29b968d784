"""`legal`, `apply` and `replay` on bad files (#12.12): one plain line on stderr that says
what is wrong and names the file, exit status 2 (1 for an illegal action), never a
traceback (R37, R39, R41)."""

import copy
import io
import json
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sequence_stacks.cli import main
from sequence_stacks.engine import (
    Action,
    GameRecord,
    Phase,
    Settings,
    State,
    action_space,
    apply_in_place,
    legal_action_ids,
    new_game,
    position_digest,
    position_to_dict,
)

Data = dict[str, Any]
Mutation = Callable[[Data], object]

# A value written where a mutation needs raw JSON text that json.dumps cannot write.
_RAW = "@@raw@@"


def _play_until(seed: int, stop: Callable[[State], bool]) -> tuple[State, GameRecord]:
    """Seeded random play in a 3-player game until ``stop``; the state and its record."""
    settings = Settings(player_count=3)
    state = new_game(settings, seed)
    space = action_space(3, settings.piles_per_colour)
    rng = random.Random(seed)
    actions: list[tuple[int, Action]] = []
    while not stop(state):
        seat = state.deciders()[0]
        ids = legal_action_ids(state, seat)
        plays = [action_id for action_id in ids if action_id >= space.play_base]
        action = space.action(rng.choice(plays or ids), seat)
        apply_in_place(state, seat, action)
        actions.append((seat, action))
    record = GameRecord(settings, seed, tuple(actions), state.result, position_digest(state))
    return state, record


_WINDOW_STATE, _RECORD = _play_until(0, lambda state: state.phase == Phase.BLOCK_WINDOW)


def _position() -> Data:
    return position_to_dict(new_game(Settings(player_count=3), 5))


def _window_position() -> Data:
    return position_to_dict(_WINDOW_STATE)


def _record() -> Data:
    return copy.deepcopy(_RECORD.to_dict())


def _write(path: Path, data: Data, raw: str = "") -> str:
    """Write ``data`` as JSON, with ``raw`` JSON text in place of the ``_RAW`` marker."""
    path.write_text(json.dumps(data).replace(json.dumps(_RAW), raw), encoding="utf-8")
    return str(path)


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str]:
    code = main(argv)
    return code, capsys.readouterr().err


def _assert_refused(code: int, err: str, path: str, phrases: list[str], exit_code: int = 2) -> None:
    """One line, naming the file, saying ``phrases``; the exit status; no traceback."""
    assert "Traceback" not in err
    assert code == exit_code, err
    assert len(err.strip().splitlines()) == 1, err
    assert len(err) < 400, err
    assert path in err
    for phrase in phrases:
        assert phrase in err


def _argv(command: str, path: str) -> list[str]:
    return [command, path, "end"] if command == "apply" else [command, path]


# --- files that are not JSON one can read ------------------------------------------------

UNREADABLE: dict[str, tuple[bytes, list[str]]] = {
    "bytes that are not UTF-8": (b'\xff\xfe{"format": 1}', ["is not UTF-8", "0xff at offset 0"]),
    "Latin-1 text": ('{"seed": "caf\xe9"}'.encode("latin-1"), ["is not UTF-8", "0xe9"]),
    "JSON nested 100,000 deep": (b"[" * 100_000 + b"]" * 100_000, ["nests arrays or objects"]),
    "an integer of 5,000 digits": (b'{"seed": ' + b"9" * 5000 + b"}", ["5000 digits"]),
}


@pytest.mark.parametrize("command", ["legal", "apply", "replay"])
@pytest.mark.parametrize("kind", list(UNREADABLE))
def test_unreadable_file_is_one_line_and_exit_2(
    command: str, kind: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    content, phrases = UNREADABLE[kind]
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    what = "record" if command == "replay" else "position"
    code, err = _run(capsys, _argv(command, str(path)))
    _assert_refused(code, err, str(path), [f"error: {what} ", *phrases])


@pytest.mark.parametrize(
    "kind", ["bytes that are not UTF-8", "JSON nested 100,000 deep", "an integer of 5,000 digits"]
)
def test_unreadable_file_through_the_real_command_line(kind: str, tmp_path: Path) -> None:
    """The same in a fresh process, at the real stack depth: no traceback at all."""
    content, phrases = UNREADABLE[kind]
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    completed = subprocess.run(
        [sys.executable, "-m", "sequence_stacks.cli", "legal", str(path)],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    _assert_refused(completed.returncode, completed.stderr, str(path), phrases)


def test_bytes_on_stdin_that_are_not_utf8(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    stdin = io.TextIOWrapper(io.BytesIO(b'{"format": "caf\xe9"}'), encoding="utf-8")
    monkeypatch.setattr("sys.stdin", stdin)
    code, err = _run(capsys, ["legal", "-"])
    _assert_refused(code, err, "on stdin", ["not UTF-8 text", "0xe9 at offset 15"])


def test_a_utf8_byte_order_mark_is_read(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "pos.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(_position()).encode())
    assert main(["legal", str(path)]) == 0
    assert capsys.readouterr().out.startswith("seat 0: ")


@pytest.mark.parametrize(
    ("raw", "phrase"),
    [
        ("NaN", "holds NaN, which is not a JSON number"),
        ("Infinity", "holds Infinity, which is not a JSON number"),
        ("-Infinity", "holds -Infinity, which is not a JSON number"),
        ("1e400", "holds the number 1e400, too large to read"),
    ],
)
def test_numbers_that_are_not_finite_are_refused(
    raw: str, phrase: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = _position()
    data["card_epoch"] = {"B1#0": _RAW}
    path = _write(tmp_path / "pos.json", data, raw)
    code, err = _run(capsys, ["legal", path])
    _assert_refused(code, err, path, [phrase])


# --- positions whose fields are wrong -------------------------------------------------------


def _set(name: str, value: object) -> Mutation:
    return lambda data: data.__setitem__(name, value)


def _window(**changes: object) -> Mutation:
    return lambda data: data["window"].update(changes)


def _over_with(result: object) -> Mutation:
    return lambda data: data.update(phase="over", result=result)


def _hand_card(value: object) -> Mutation:
    return lambda data: data["hands"][0].__setitem__(0, value)


def _free_slot(data: Data) -> int:
    """A pile slot other than the Block window's."""
    return 3 if data["window"]["slot"] != 3 else 0


def _unlimited_with_supply(data: Data) -> None:
    data["settings"]["chip_supply"] = "unlimited"
    data["supply"] = [20, 20]


POSITION_FILES: list[tuple[str, Callable[[], Data], Mutation, list[str]]] = [
    (
        "window slot outside the game",
        _window_position,
        _window(slot=99),
        ["window.slot must be a pile slot 0-3 (blue slots first, R9), not 99"],
    ),
    (
        "window slot below 0",
        _window_position,
        _window(slot=-1),
        ["window.slot must be a pile slot 0-3", "not -1"],
    ),
    (
        "window slot true",
        _window_position,
        _window(slot=True),
        ["window.slot must be a pile slot 0-3", "not True"],
    ),
    (
        "window slot of a pile that is not complete",
        _window_position,
        lambda d: d["window"].update(slot=_free_slot(d)),
        ["which holds", "a Block window is open on a completed 5-card pile (R17, R29)"],
    ),
    (
        "window completer as text",
        _window_position,
        _window(completer="1"),
        ["window.completer must be a whole number 0-2, not '1'"],
    ),
    (
        "window pending not a list",
        _window_position,
        _window(pending=None),
        ["window.pending must be a list of seats, not None"],
    ),
    (
        "window answer from no seat",
        _window_position,
        _window(answers={"x": "pass"}),
        ["window.answers: there is no seat 'x'"],
    ),
    (
        "card_epoch not a number",
        _position,
        _set("card_epoch", {"B1#0": "x"}),
        ["card_epoch['B1#0'] must be a shuffle number from 0, not 'x'"],
    ),
    (
        "result without winner",
        _position,
        _over_with({"reason": "stalemate", "returns": [0, 0, 0]}),
        ["result has no 'winner'"],
    ),
    (
        "result returns not numbers",
        _position,
        _over_with({"reason": "stalemate", "winner": None, "returns": ["x", 0, 0]}),
        ["result.returns[0] must be a finite number, not 'x'"],
    ),
    (
        "result returns past any float",
        _position,
        _over_with({"reason": "stalemate", "winner": None, "returns": [10**400, 0, 0]}),
        ["result.returns[0] must be a finite number"],
    ),
    (
        "card id of 5,000 digits",
        _position,
        _hand_card("B1#" + "9" * 5000),
        ["hands[0][0]: card id", "is outside 0-119 (R4)"],
    ),
    (
        "card as a number",
        _position,
        _hand_card(20),
        ["hands[0][0] must be a card like 'B3#20', not 20"],
    ),
    (
        "hand of 1,000 cards",
        _position,
        lambda d: d["hands"].__setitem__(0, ["B1#0"] * 1000),
        ["hands[0] holds 1000 cards", "at most 120 fit"],
    ),
    (
        "version true",
        _position,
        _set("version", True),
        ["unsupported position version True"],
    ),
    (
        "unknown field",
        _position,
        _set("colour", "blue"),
        ["the position has unknown field(s) 'colour'; known fields: format"],
    ),
    (
        "Skips pending past the deck's",
        _position,
        _set("pending_skips", 10**100),
        ["pending_skips must be 0-3: one per Skip played this turn (R26)"],
    ),
    (
        "shuffle count past any game",
        _position,
        _set("shuffle_count", 10**4000),
        ["shuffle_count must be 1-501", "(R22)"],
    ),
    (
        "a supply with unlimited chips",
        _position,
        _unlimited_with_supply,
        ["supply must be 'unlimited' with unlimited chips, not [20, 20]"],
    ),
    (
        "a setting as 100,000 characters",
        _position,
        lambda d: d["settings"].update(max_turns="x" * 100_000),
        ["settings: option max_turns must be a whole number, not 'xxxx"],
    ),
]


@pytest.mark.parametrize(
    ("make", "mutate", "phrases"),
    [
        pytest.param(make, mutate, phrases, id=name)
        for name, make, mutate, phrases in POSITION_FILES
    ],
)
def test_malformed_position_file_says_which_field_and_why(
    make: Callable[[], Data],
    mutate: Mutation,
    phrases: list[str],
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    data = make()
    mutate(data)
    path = _write(tmp_path / "pos.json", data)
    for argv in (["legal", path], ["apply", path, "pass"]):
        code, err = _run(capsys, argv)
        _assert_refused(code, err, path, [f"error: bad position '{path}': ", *phrases])


# --- records whose fields are wrong ---------------------------------------------------------


def _set_action(index: int, text: str) -> Mutation:
    return lambda data: data["actions"].__setitem__(index, text)


RECORD_FILES: list[tuple[str, Mutation, list[str]]] = [
    (
        "seat of 5,000 digits",
        _set_action(0, "9" * 5000 + " end"),
        ["action 0", "there is no seat '99999"],
    ),
    (
        "pile number of 5,000 digits",
        _set_action(0, "0 B1>" + "9" * 5000),
        ["action 0: cannot read action", "pile number '99999", "is far too large (R37)"],
    ),
    ("version 1.0", _set("version", 1.0), ["unsupported record version 1.0"]),
    ("unknown field", _set("notes", "x"), ["the record has unknown field(s) 'notes'"]),
    (
        "result without winner",
        _set("result", {"reason": "stalemate", "returns": [0, 0, 0]}),
        ["malformed result: result has no 'winner'"],
    ),
    (
        "result returns past any float",
        _set("result", {"reason": "stalemate", "winner": None, "returns": [10**400, 0, 0]}),
        ["result.returns[0] must be a finite number"],
    ),
]


@pytest.mark.parametrize(
    ("mutate", "phrases"),
    [pytest.param(mutate, phrases, id=name) for name, mutate, phrases in RECORD_FILES],
)
def test_malformed_record_file_says_which_field_and_why(
    mutate: Mutation, phrases: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = _record()
    mutate(data)
    path = _write(tmp_path / "game.json", data)
    for argv in (["replay", path], ["replay", path, "--step"]):
        code, err = _run(capsys, argv)
        _assert_refused(code, err, path, [f"error: bad record '{path}': ", *phrases])


# --- actions naming a pile the game does not have -------------------------------------------


def test_a_pile_number_outside_the_game_says_so(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """R9, R37: two piles a colour, so ``B1>3`` names no pile; no Action dump."""
    path = _write(tmp_path / "pos.json", _position())
    code = main(["apply", path, "B1>3"])
    err = capsys.readouterr().err
    assert code == 1
    assert err == (
        "illegal (R37): there is no blue pile 3: this game has 2 blue piles "
        "(piles_per_colour=2, R9), numbered from 1\n"
    )


def test_a_pile_number_far_outside_the_game_is_unreadable(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = _write(tmp_path / "pos.json", _position())
    code = main(["apply", path, "B1>99999999"])
    err = capsys.readouterr().err
    assert code == 2
    assert err == (
        "error: cannot read action 'B1>99999999': pile number '99999999' is far too large (R37)\n"
    )
