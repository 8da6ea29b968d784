"""Bad input is refused with a precise error and changes nothing (R37, R39, R40, R41).

Covers malformed game records, malformed and inconsistent positions, unknown or bad
settings, malformed action notation and ids outside the action space.
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest

from sequence_stacks.engine import (
    CARD_KIND,
    Action,
    ActionType,
    GameRecord,
    IllegalActionError,
    IllegalCode,
    Kind,
    NotationError,
    Phase,
    PositionError,
    RecordError,
    Settings,
    SettingsError,
    State,
    action_space,
    apply,
    apply_id,
    apply_in_place,
    card_from_text,
    check,
    legal_action_ids,
    new_game,
    observe,
    parse_action,
    position_digest,
    position_from_dict,
    position_to_dict,
    resample,
)

Mutation = Callable[[dict[str, Any]], object]


# --- fixtures: a short record, a position, a position with a Block window open ---------


def play_until(settings: Settings, seed: int, stop: Callable[[State, int], bool]) -> GameRecord:
    """Play seeded random moves (plays preferred) until ``stop(state, action_count)``."""
    state = new_game(settings, seed)
    space = action_space(settings.player_count, settings.piles_per_colour)
    rng = random.Random(seed)
    actions: list[tuple[int, Action]] = []
    while not stop(state, len(actions)) and not state.is_over:
        seat = state.deciders()[0]
        ids = legal_action_ids(state, seat)
        plays = [action_id for action_id in ids if action_id >= space.play_base]
        action = space.action(rng.choice(plays or ids), seat)
        apply_in_place(state, seat, action)
        actions.append((seat, action))
    return GameRecord(
        settings=settings,
        seed=seed,
        actions=tuple(actions),
        result=state.result,
        digest=position_digest(state),
    )


SHORT_RECORD = play_until(Settings(player_count=3), 5, lambda _, count: count >= 30)
WINDOW_RECORD = play_until(
    Settings(player_count=3), 0, lambda state, _: state.phase == Phase.BLOCK_WINDOW
)
FINISHED_RECORD = play_until(Settings(player_count=2, max_turns=12), 3, lambda _, __: False)


@pytest.fixture
def record_data() -> dict[str, Any]:
    """A 30-action unfinished record as JSON data, digest included."""
    return copy.deepcopy(SHORT_RECORD.to_dict())


@pytest.fixture
def position() -> dict[str, Any]:
    """A freshly dealt 4-player position as JSON data."""
    return position_to_dict(new_game(Settings(), 7))


@pytest.fixture
def window_position() -> dict[str, Any]:
    """A 3-player position with a Block window open (completer 0, asked 1 and 2)."""
    return position_to_dict(WINDOW_RECORD.replay())


def test_fixtures_are_what_the_tests_assume() -> None:
    """The fixtures load back as valid positions and records."""
    assert len(SHORT_RECORD.actions) == 30
    assert SHORT_RECORD.result is None
    assert FINISHED_RECORD.result is not None
    window = WINDOW_RECORD.replay()
    assert window.phase == Phase.BLOCK_WINDOW
    assert window.window_completer == 0
    assert window.window_pending == [1, 2]
    assert position_from_dict(position_to_dict(window)) == window


# --- game records (R41) ---------------------------------------------------------------


@pytest.mark.parametrize("data", [[], "a record", 5, None, ["0 end"]])
def test_record_that_is_not_an_object_is_refused(data: Any) -> None:
    """A record is a JSON object."""
    with pytest.raises(RecordError, match="JSON object"):
        GameRecord.from_dict(data)


def _set(name: str, value: object) -> Mutation:
    return lambda data: data.__setitem__(name, value)


def _set_action(index: int, text: object) -> Mutation:
    return lambda data: data["actions"].__setitem__(index, text)


RECORD_CASES: list[tuple[str, Mutation, str]] = [
    ("missing format", lambda d: d.pop("format"), "'format' must be"),
    ("wrong format", _set("format", "sequence-stacks/position"), "not a game record"),
    ("wrong version", _set("version", 2), "unsupported record version 2"),
    ("version as text", _set("version", "1"), "unsupported record version '1'"),
    ("missing seed", lambda d: d.pop("seed"), "seed must be an integer or a string"),
    ("float seed", _set("seed", 1.5), "seed must be an integer or a string"),
    ("boolean seed", _set("seed", True), "seed must be an integer or a string"),
    ("list seed", _set("seed", [1]), "seed must be an integer or a string"),
    ("actions as text", _set("actions", "0 end"), "'actions' must be a list"),
    ("actions as object", _set("actions", {"0": "end"}), "'actions' must be a list"),
    ("entry not text", _set_action(3, 17), "action 3 must be a string"),
    ("entry is a list", _set_action(3, [0, "end"]), "action 3 must be a string"),
    ("entry without seat", _set_action(4, "B1>new"), "action 4 'B1>new' must start with"),
    ("entry with word seat", _set_action(4, "p0 pass"), "action 4 'p0 pass' must start with"),
    ("negative seat", _set_action(4, "-1 pass"), "action 4 '-1 pass' must start with"),
    ("empty entry", _set_action(5, ""), "action 5 '' must start with"),
    ("seat only", _set_action(5, "1"), r"action 5: cannot read action ''.*\(R37\)"),
    ("bad notation", _set_action(6, "0 B9>1"), r"action 6: cannot read action 'B9>1'"),
    ("bad target", _set_action(6, "0 B1>zero"), r"action 6: cannot read action 'B1>zero'"),
    ("unknown settings", lambda d: d["settings"].update(colour=1), "settings: unknown option"),
    ("bad settings", lambda d: d["settings"].update(player_count=9), "settings: .*2-6"),
    ("settings as list", _set("settings", [4]), r"settings must be a JSON object, not \[4\]"),
    ("result as list", _set("result", [1]), "malformed result"),
    ("result without returns", _set("result", {"reason": "win", "winner": 0}), "malformed"),
    (
        "result with text winner",
        _set("result", {"reason": "win", "winner": "0", "returns": [1, -0.5, -0.5]}),
        "malformed result",
    ),
    ("digest not text", _set("digest", 1234), "digest must be a string"),
]


@pytest.mark.parametrize(
    ("mutate", "message"),
    [pytest.param(mutate, message, id=name) for name, mutate, message in RECORD_CASES],
)
def test_malformed_record_is_refused(
    record_data: dict[str, Any], mutate: Mutation, message: str
) -> None:
    """Each malformed field is refused with a RecordError that says what is wrong."""
    mutate(record_data)
    with pytest.raises(RecordError, match=message):
        GameRecord.from_dict(record_data)


@pytest.mark.parametrize("meta", [[1, 2], "notes", 5])
def test_record_with_non_object_meta_is_refused(record_data: dict[str, Any], meta: object) -> None:
    """``meta`` is a JSON object (or null)."""
    record_data["meta"] = meta
    with pytest.raises(RecordError):
        GameRecord.from_dict(record_data)


def test_record_with_boolean_winner_is_refused(record_data: dict[str, Any]) -> None:
    """A winner is a seat number or null, never true/false."""
    record_data["result"] = {"reason": "win", "winner": True, "returns": [1.0, -0.5, -0.5]}
    with pytest.raises(RecordError):
        GameRecord.from_dict(record_data)


def _acting_seat_after(record: GameRecord, count: int) -> tuple[State, int]:
    """Replay the first ``count`` actions; return the state and the seat to act."""
    shorter = GameRecord(settings=record.settings, seed=record.seed, actions=record.actions[:count])
    state = shorter.replay()
    return state, state.deciders()[0]


def test_action_out_of_turn_names_its_index_and_rule(record_data: dict[str, Any]) -> None:
    """R37, R41: an action by the wrong seat mid-record names the action and R20."""
    state, seat = _acting_seat_after(SHORT_RECORD, 12)
    assert state.phase != Phase.BLOCK_WINDOW
    other = (seat + 1) % state.player_count
    record_data["actions"][12] = f"{other} end"
    record = GameRecord.from_dict(record_data)
    with pytest.raises(RecordError, match=r"^action 12 \(\d [^)]*\) is illegal: R20: "):
        record.replay()


def test_card_not_held_names_its_index_and_rule(record_data: dict[str, Any]) -> None:
    """R37, R41: discarding a kind not in the hand names the action and R19."""
    state, seat = _acting_seat_after(SHORT_RECORD, 9)
    assert state.phase != Phase.BLOCK_WINDOW
    held = {CARD_KIND[card] for card in state.hands[seat]}
    missing = next(kind for kind in Kind if kind not in held)
    record_data["actions"][9] = f"{seat} discard {missing.name}"
    with pytest.raises(RecordError, match=rf"^action 9 \({seat} discard {missing.name}\).*R19"):
        GameRecord.from_dict(record_data).replay()


def test_action_after_the_end_names_rule_r32() -> None:
    """An action appended after the game ended is refused with R32."""
    data = FINISHED_RECORD.to_dict()
    data["actions"].append("0 pass")
    index = len(data["actions"]) - 1
    with pytest.raises(RecordError, match=rf"^action {index} \(0 pass\) is illegal: R32: "):
        GameRecord.from_dict(data).replay()


def test_record_with_wrong_digest_is_refused(record_data: dict[str, Any]) -> None:
    """R41: the replayed position must match the recorded digest."""
    GameRecord.from_dict(record_data).replay()
    record_data["digest"] = "0" * 64
    with pytest.raises(RecordError, match="digest"):
        GameRecord.from_dict(record_data).replay()


def test_record_with_wrong_result_is_refused() -> None:
    """R41: a finished record must replay to the result it states."""
    data = FINISHED_RECORD.to_dict()
    assert data["result"]["reason"] != "stalemate"
    data["result"] = {"reason": "stalemate", "winner": None, "returns": [0.0, 0.0]}
    with pytest.raises(RecordError, match="the record says"):
        GameRecord.from_dict(data).replay()


def test_result_on_an_unfinished_game_is_refused(record_data: dict[str, Any]) -> None:
    """A record that claims a result its actions never reach is refused."""
    record_data["result"] = {"reason": "win", "winner": 0, "returns": [1.0, -0.5, -0.5]}
    with pytest.raises(RecordError, match="replaying gives None"):
        GameRecord.from_dict(record_data).replay()


# --- positions (R39) ------------------------------------------------------------------


@pytest.mark.parametrize("data", [[], "position", 3, None])
def test_position_that_is_not_an_object_is_refused(data: Any) -> None:
    """A position is a JSON object."""
    with pytest.raises(PositionError, match="JSON object"):
        position_from_dict(data)


def _move_to_pile(colour: str, texts: list[str]) -> Mutation:
    """Move the named cards (found anywhere) onto a new pile of ``colour``."""

    def mutate(data: dict[str, Any]) -> None:
        for zone in (data["draw"], *data["hands"]):
            for text in texts:
                if text in zone:
                    zone.remove(text)
        data["piles"][colour][0] = list(texts)

    return mutate


def _first_draw(prefix: str) -> Callable[[dict[str, Any]], str]:
    return lambda data: next(text for text in data["draw"] if text.startswith(prefix))


def _pile_of(data: dict[str, Any], prefixes: list[str]) -> list[str]:
    return [_first_draw(prefix)(data) for prefix in prefixes]


def _pile_case(colour: str, prefixes: list[str]) -> Mutation:
    return lambda data: _move_to_pile(colour, _pile_of(data, prefixes))(data)


def _hand_card(data: dict[str, Any], seat: int = 0) -> str:
    text: str = data["hands"][seat][0]
    return text


POSITION_CASES: list[tuple[str, Mutation, str]] = [
    ("missing format", lambda d: d.pop("format"), "not a position"),
    ("record format", _set("format", "sequence-stacks/record"), "not a position"),
    ("wrong version", _set("version", 9), "unsupported position version 9"),
    ("missing settings", lambda d: d.pop("settings"), "the position has no 'settings'"),
    ("unknown setting", lambda d: d["settings"].update(colour="blue"), "unknown option"),
    ("bad setting", lambda d: d["settings"].update(hand_size=0), "hand_size=0 is outside"),
    ("float seed", _set("seed", 2.5), "seed must be an integer or a string"),
    ("missing hands", lambda d: d.pop("hands"), "the position has no 'hands'"),
    ("too few hands", lambda d: d["hands"].pop(), "hands must hold 4 entries, one per seat, not 3"),
    ("hand not a list", lambda d: d["hands"].__setitem__(0, "B1#0"), r"hands\[0\] must be"),
    ("unknown kind", lambda d: d["hands"][0].__setitem__(0, "X1#5"), "unknown card kind"),
    ("card without id", lambda d: d["hands"][0].__setitem__(0, "B3"), "KIND#ID"),
    ("card with empty id", lambda d: d["hands"][0].__setitem__(0, "B3#"), "KIND#ID"),
    ("card id too big", lambda d: d["draw"].__setitem__(0, "B3#999"), "outside 0-119"),
    ("kind and id disagree", lambda d: d["draw"].__setitem__(0, "B3#30"), "id 30 is a B4#30"),
    ("card as number", lambda d: d["draw"].__setitem__(0, 20), r"draw\[0\] must be a card"),
    ("duplicated card", lambda d: d["hands"][0].append(d["draw"][0]), "duplicated or foreign"),
    ("missing card", lambda d: d["draw"].pop(), r"missing \[\w+#\d+\]"),
    ("card in two zones", lambda d: d["special"].append(_hand_card(d)), "not conserved"),
    ("chips not conserved", _set("chips", [[1, 0], [0, 0], [0, 0], [0, 0]]), "blue chips"),
    ("supply too big", _set("supply", [20, 21]), "red chips are not conserved"),
    ("negative chips", _set("chips", [[-1, 0], [1, 0], [0, 0], [0, 0]]), "negative"),
    (
        "chips not numbers",
        _set("chips", [["a", 0]] * 4),
        r"chips\[0\] must be a \[blue, red\] pair",
    ),
    (
        "red card on blue pile",
        _pile_case("blue", ["R1#"]),
        r"R1#\d+ cannot be card 1 of blue pile 1",
    ),
    ("pile starts with 2", _pile_case("red", ["R2#"]), r"R2#\d+ cannot be card 1 of red pile 1"),
    ("pile skips a number", _pile_case("blue", ["B1#", "B3#"]), "cannot be card 2"),
    ("action card on a pile", _pile_case("blue", ["SKIP#"]), "cannot be card 1"),
    (
        "five-card pile outside a window",
        _pile_case("blue", ["B1#", "B2#", "B3#", "B4#", "B5#"]),
        "holds 5 cards",
    ),
    ("three blue piles", lambda d: d["piles"].__setitem__("blue", [[], [], []]), "2 of each"),
    ("piles not an object", _set("piles", [[], []]), "piles must be a JSON object"),
    ("unknown phase", _set("phase", "finished"), "phase must be one of"),
    ("window without data", _set("phase", "block_window"), "needs a 'window' object"),
    ("window while playing", _set("window", {"completer": 0}), "only given while"),
    ("over without result", _set("phase", "over"), "result is given exactly when phase"),
    (
        "result while playing",
        _set("result", {"reason": "stalemate", "winner": None, "returns": [0, 0, 0, 0]}),
        "result is given exactly when",
    ),
    ("known card not in hand", lambda d: d["known"].__setitem__(1, [_hand_card(d)]), "known"),
    ("direction 0", _set("direction", 0), "direction must be 1 or -1"),
    ("direction as float", _set("direction", 1.0), r"direction must be 1 or -1 \(R27\), not 1.0"),
    ("current seat 4", _set("current", 4), "current: there is no seat 4"),
    ("negative skips", _set("pending_skips", -1), "pending_skips must be a whole number"),
    ("stall mask too wide", _set("stall_mask", 16), "stall_mask"),
    ("no shuffle yet", _set("shuffle_count", 0), "at least 1"),
    ("epoch of the future", _set("card_epoch", {"B1#0": 3}), "card_epoch of B1#0 is 3"),
    ("epoch not a number", _set("card_epoch", {"B1#0": "x"}), "must be a shuffle number"),
    ("epoch of a bad card", _set("card_epoch", {"B1": 1}), "KIND#ID"),
]


@pytest.mark.parametrize(
    ("mutate", "message"),
    [pytest.param(mutate, message, id=name) for name, mutate, message in POSITION_CASES],
)
def test_malformed_position_is_refused(
    position: dict[str, Any], mutate: Mutation, message: str
) -> None:
    """Each malformed or inconsistent position is refused, saying what is wrong."""
    position_from_dict(copy.deepcopy(position))
    mutate(position)
    with pytest.raises(PositionError, match=message):
        position_from_dict(position)


def test_draw_pile_of_an_old_shuffle_is_refused(position: dict[str, Any]) -> None:
    """The draw pile always holds cards of the latest shuffle (N13)."""
    position["shuffle_count"] = 2
    with pytest.raises(PositionError, match=r"the draw pile holds .* from shuffle 0"):
        position_from_dict(position)


def _window(**changes: object) -> Mutation:
    return lambda data: data["window"].update(changes)


WINDOW_CASES: list[tuple[str, Mutation, str]] = [
    ("window missing", _set("window", None), "needs a 'window' object"),
    ("window not an object", _set("window", [0, 0, [1, 2]]), "needs a 'window' object"),
    ("no slot", lambda d: d["window"].pop("slot"), "window has no 'slot'"),
    ("slot of an unfinished pile", _window(slot=3), "window.slot 3 is red pile 2, which holds"),
    ("slot out of range", _window(slot=99), "window.slot must be a pile slot 0-3"),
    ("completer out of range", _window(completer=7), "there is no seat 7"),
    ("completer asked", _window(pending=[0, 1, 2]), "every opponent either still asked"),
    ("nobody asked", _window(pending=[]), "every opponent either still asked"),
    ("pending not a list", _window(pending=None), "window.pending must be a list of seats"),
    ("bad answer", _window(pending=[2], answers={"1": "maybe"}), "'pass' or 'block'"),
    ("answers not an object", _window(answers=[1]), "window.answers must be a JSON object"),
    ("closed window with a 5-card pile", _set("phase", "playing"), "only given while"),
]


@pytest.mark.parametrize(
    ("mutate", "message"),
    [pytest.param(mutate, message, id=name) for name, mutate, message in WINDOW_CASES],
)
def test_malformed_block_window_is_refused(
    window_position: dict[str, Any], mutate: Mutation, message: str
) -> None:
    """R29: a Block window needs a full pile, a completer and the opponents asked."""
    position_from_dict(copy.deepcopy(window_position))
    mutate(window_position)
    with pytest.raises(PositionError, match=message):
        position_from_dict(window_position)


def _case(name: str, mutate: Mutation, gap: str) -> Any:
    """A position the loader once accepted or crashed on; ``gap`` says what was missed."""
    del gap  # documentation only
    return pytest.param(mutate, id=name)


@pytest.mark.parametrize(
    "mutate",
    [
        _case(
            "chip pair too short",
            _set("chips", [[0]] * 4),
            "_load_turn indexes pair[1] unchecked: IndexError escapes, not PositionError",
        ),
        _case(
            "supply too short",
            _set("supply", [20]),
            "_load_turn indexes supply[1] unchecked: IndexError escapes",
        ),
        _case(
            "result reason unknown",
            lambda d: d.update(
                phase="over", result={"reason": "boredom", "winner": None, "returns": [0] * 4}
            ),
            "validate_state never checks the result's reason",
        ),
        _case(
            "result returns per seat",
            lambda d: d.update(
                phase="over", result={"reason": "stalemate", "winner": None, "returns": [1]}
            ),
            "validate_state never checks the returns vector against the player count",
        ),
        _case(
            "result winner not a seat",
            lambda d: d.update(phase="over", result={"reason": "win", "winner": 9, "returns": []}),
            "validate_state never checks the winner is a seat",
        ),
        _case(
            "known card listed twice",
            lambda d: d["known"].__setitem__(0, [_hand_card(d)] * 2),
            "known[] is checked as a set, so duplicates pass (and one copy goes stale "
            "once the card leaves the hand)",
        ),
        _case(
            "negative card epoch",
            lambda d: d.__setitem__("card_epoch", {_hand_card(d): -1}),
            "validate_state checks card_epoch < shuffle_count but not >= 0",
        ),
        _case(
            "negative turn count",
            _set("turn_count", -5),
            "turn_count is never validated",
        ),
    ],
)
def test_inconsistent_position_is_refused(position: dict[str, Any], mutate: Mutation) -> None:
    """Inconsistent positions are refused with a PositionError (R39)."""
    mutate(position)
    with pytest.raises(PositionError):
        position_from_dict(position)


@pytest.mark.parametrize(
    "mutate",
    [
        _case(
            "answer from a seat out of range",
            _window(answers={"9": "pass"}),
            "_load_window assigns answers[9]: IndexError escapes, not PositionError",
        ),
        _case(
            "asked seat out of range",
            _window(pending=[9]),
            "window pending seats are not range-checked; deciders() then offers seat 9",
        ),
        _case(
            "seat both answered and pending",
            _window(answers={"1": "pass"}),
            "a seat may be both pending and answered in a loaded window",
        ),
        _case(
            "completer answered",
            _window(answers={"0": "block"}),
            "the completer may hold an answer in its own window",
        ),
        _case(
            "an opponent neither asked nor answered",
            _window(pending=[1]),
            "a loaded window may leave an opponent never asked (R29: every opponent is)",
        ),
    ],
)
def test_inconsistent_block_window_is_refused(
    window_position: dict[str, Any], mutate: Mutation
) -> None:
    """Inconsistent Block windows are refused with a PositionError (R29, R39)."""
    mutate(window_position)
    with pytest.raises(PositionError):
        position_from_dict(window_position)


# --- random damage: every malformed file is one short PositionError or RecordError ------

_ODD_VALUES: list[Any] = [
    None,
    True,
    0,
    -1,
    7,
    10**30,
    1.5,
    float("inf"),
    float("nan"),
    "",
    "x",
    "B3#999",
    "B3#" + "9" * 60,
    [],
    [[]],
    ["B1#0"] * 200,
    {},
    {"0": "pass"},
    [[["deep"]]],
    "x" * 10_000,
]


def _damage(data: Any, rng: random.Random, depth: int = 0) -> None:
    """Delete, add or replace one value somewhere in ``data`` (a dict or a list)."""
    keys: list[Any] = list(data) if isinstance(data, dict) else list(range(len(data)))
    if not keys:
        return
    key = rng.choice(keys)
    roll = rng.random()
    if roll < 0.15:
        del data[key]
    elif roll < 0.25 and isinstance(data, dict):
        data[f"extra{rng.randrange(3)}"] = rng.choice(_ODD_VALUES)
    elif roll < 0.6 and isinstance(data[key], dict | list) and depth < 4:
        _damage(data[key], rng, depth + 1)
    else:
        data[key] = copy.deepcopy(rng.choice(_ODD_VALUES))


def _assert_short(error: Exception) -> None:
    message = str(error)
    assert "\n" not in message
    assert len(message) < 400, message


def test_damaged_positions_raise_one_short_position_error() -> None:
    """R39: whatever is damaged, loading says so in one line; nothing else escapes."""
    rng = random.Random(12)
    bases = [position_to_dict(WINDOW_RECORD.replay()), position_to_dict(new_game(Settings(), 7))]
    bases.append(position_to_dict(FINISHED_RECORD.replay()))
    for _ in range(3000):
        data = copy.deepcopy(rng.choice(bases))
        for _ in range(rng.randint(1, 3)):
            _damage(data, rng)
        try:
            position_from_dict(data)
        except PositionError as error:
            _assert_short(error)


def test_damaged_records_raise_one_short_record_error() -> None:
    """R41: the same for game records, replayed to their end."""
    rng = random.Random(13)
    bases = [SHORT_RECORD.to_dict(), FINISHED_RECORD.to_dict()]
    for _ in range(1500):
        data = copy.deepcopy(rng.choice(bases))
        for _ in range(rng.randint(1, 3)):
            _damage(data, rng)
        try:
            GameRecord.from_dict(data).replay()
        except RecordError as error:
            _assert_short(error)


# --- settings (R40) -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["colour=blue"], "unknown option 'colour'; known options: player_count"),
        (["players=4"], "unknown option 'players'"),
        (["=4"], "unknown option ''"),
        (["player_count"], "not of the form name=value"),
        ([""], "not of the form name=value"),
        (["player_count=seven"], "takes a whole number, not 'seven'"),
        (["player_count=7"], r"player_count=7 is outside 2-6 \(R5\)"),
        (["player_count=1"], r"player_count=1 is outside 2-6 \(R5\)"),
        (["max_turns=2.5"], "takes a whole number"),
        (["max_turns=0"], r"outside 1-1000000 \(R33\)"),
        (["hand_size=0"], r"outside 1-10 \(R6\)"),
        (["piles_per_colour=5"], r"outside 1-4 \(R9\)"),
        (["refill_at_turn_start=maybe"], "takes true or false, not 'maybe'"),
        (["steal_chip_can_win=2"], "takes true or false"),
        (["chip_supply=lots"], "takes a whole number, not 'lots'"),
        (["chip_supply=-1"], r"outside 0-1000 \(R3\)"),
        (["chip_supply=1"], r"nobody could ever win \(R3, R31\)"),
        (["chips_to_win=9", "min_each_colour=5"], r"nobody could ever win \(R31\)"),
        (["min_each_colour=-1"], "outside 0-20"),
        (["first_seat=4"], r"first_seat=4 is outside 0-3 \(R7\)"),
        (["player_count=3", "first_seat=3"], "first_seat=3 is outside 0-2"),
    ],
)
def test_bad_options_are_refused(options: list[str], message: str) -> None:
    """Unknown names and bad values are refused with the reason (and rule id)."""
    with pytest.raises(SettingsError, match=message):
        Settings.from_options(options)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([4], "settings must be a JSON object, not list"),
        ("player_count=4", "settings must be a JSON object, not str"),
        ({"colour": "blue"}, r"unknown option\(s\) 'colour'"),
        ({"player_count": 4, "seats": 4, "speed": 1}, r"'seats', 'speed'"),
        ({"player_count": "4"}, "must be a whole number, not '4'"),
        ({"player_count": 4.0}, "must be a whole number, not 4.0"),
        ({"player_count": True}, "must be a whole number, not True"),
        ({"first_seat": None}, "must be a whole number, not None"),
        ({"refill_at_turn_start": 1}, "must be true or false, not 1"),
        ({"two_player_reverses": "yes"}, "must be true or false"),
        ({"chip_supply": "lots"}, "must be a whole number"),
        ({"chip_supply": 2}, "nobody could ever win"),
        ({"max_turns": -3}, "outside 1-1000000"),
    ],
)
def test_bad_settings_data_is_refused(data: Any, message: str) -> None:
    """``Settings.from_dict`` refuses non-objects, unknown names and bad values."""
    with pytest.raises(SettingsError, match=message):
        Settings.from_dict(data)


def test_settings_constructor_refuses_bad_values() -> None:
    """The frozen Settings checks itself on construction and on ``replace``."""
    with pytest.raises(SettingsError, match="outside 2-6"):
        Settings(player_count=8)
    with pytest.raises(SettingsError, match="outside 0-1"):
        Settings(player_count=2).replace(first_seat=3)


# --- action notation (R37) ------------------------------------------------------------

MALFORMED_NOTATION = [
    "",
    "   ",
    "B6>1",
    "B3>0",
    "B3>-1",
    "B3>x",
    "B3>1.0",
    "B3>>1",
    "B3 > 1",
    "BW>new>1",
    "^",
    "^BLOCK",
    "^discard B3",
    "^pass",
    "blocks",
    "discard",
    "discard X9",
    "discardB3",
    "end now",
    "p1",
    "SKIP>1",
    "REV>p1",
    "SCARD",
    "SCARD>2",
    "SCARD>pp2",
    "SCARD>p2:R",
    "SCHIP>p2",
    "SCHIP>p:R",
    "SCHIP>p2:G",
    "B3>²",
]


@pytest.mark.parametrize("text", MALFORMED_NOTATION)
def test_malformed_notation_is_refused_with_r37(text: str) -> None:
    """Every malformed action text raises NotationError citing R37."""
    with pytest.raises(NotationError, match=re.escape("(R37)")) as caught:
        parse_action(text)
    assert caught.value.rule_id == "R37"
    assert repr(text) in str(caught.value)


@pytest.mark.parametrize("value", [5, None, b"B3>1", ["B3>1"], 1.5])
def test_notation_that_is_not_text_is_refused(value: Any) -> None:
    """Only text is parsed."""
    with pytest.raises(NotationError, match="an action must be text") as caught:
        parse_action(value)
    assert caught.value.rule_id == "R37"


@pytest.mark.parametrize("text", ["B3>\u0661", "SCARD>p\u0661", "SCHIP>p\u0661:R"])
def test_notation_with_non_ascii_digits_is_refused(text: str) -> None:
    """Pile and seat numbers are ASCII digits."""
    with pytest.raises(NotationError):
        parse_action(text)


def test_card_text_with_non_ascii_digits_is_refused() -> None:
    """Card ids are ASCII digits."""
    with pytest.raises(ValueError, match="KIND#ID"):
        card_from_text("B3#\u0662\u0660")


def test_record_seat_with_non_ascii_digit_is_refused(record_data: dict[str, Any]) -> None:
    """A record's acting seat is ASCII digits."""
    seat, notation = record_data["actions"][0].split(" ", 1)
    record_data["actions"][0] = f"{chr(0x0660 + int(seat))} {notation}"
    with pytest.raises(RecordError):
        GameRecord.from_dict(record_data)


# --- action ids and hand-built actions (R37) -------------------------------------------


def test_ids_outside_the_action_space_are_refused() -> None:
    """Ids below 0 or at/after ``size`` raise NotationError (R37), and change nothing."""
    state = new_game(Settings(), 3)
    digest = position_digest(state)
    space = action_space(4, 2)
    for action_id in (-1, space.size, space.size + 1, 10**9):
        with pytest.raises(NotationError, match=r"outside 0-\d+ \(R37\)"):
            space.action(action_id, 0)
        with pytest.raises(NotationError, match=r"\(R37\)"):
            apply_id(state, state.current, action_id)
    assert position_digest(state) == digest


@pytest.mark.parametrize(
    "action",
    [
        Action(ActionType.STEAL_CARD, Kind.SCARD, victim=0),
        Action(ActionType.STEAL_CHIP, Kind.SCHIP, victim=4, colour=0),
        Action(ActionType.PLAY, Kind.B3, pile=2),
    ],
    ids=repr,
)
def test_actions_without_an_id_are_refused(action: Action) -> None:
    """``id_of`` refuses actions that are not in the space for that seat (R37)."""
    with pytest.raises(NotationError, match=r"has no id for seat 0 .*\(R37\)"):
        action_space(4, 2).id_of(action, 0)


@pytest.mark.parametrize(
    "fields",
    [
        {"type": ActionType.STEAL_CHIP, "kind": Kind.SCHIP, "victim": 1, "colour": 2},
        {"type": ActionType.PLAY, "kind": Kind.SKIP, "pile": 0},
        {"type": ActionType.PLAY, "kind": Kind.SKIP},
        {"type": ActionType.PLAY, "kind": None},
        {"type": ActionType.DISCARD, "kind": None},
        {"type": ActionType.DISCARD, "kind": Kind.B1, "from_discard": True},
        {"type": ActionType.END, "kind": Kind.B1},
        {"type": ActionType.SKIP, "kind": Kind.REV},
        {"type": ActionType.STEAL_CHIP, "kind": Kind.SCARD, "victim": 1, "colour": 0},
    ],
    ids=repr,
)
def test_ill_formed_actions_cannot_be_built(fields: dict[str, Any]) -> None:
    """Hand-built actions whose fields do not fit their type are refused (R37) when
    they are built, before any game sees them."""
    with pytest.raises(IllegalActionError) as caught:
        Action(**fields)
    assert caught.value.rule_id == "R37"
    assert caught.value.code == IllegalCode.MALFORMED_ACTION


def test_a_pile_the_game_lacks_is_refused_with_r37() -> None:
    state = new_game(Settings(), 3)
    digest = position_digest(state)
    with pytest.raises(IllegalActionError) as caught:
        apply(state, state.current, Action(ActionType.PLAY, Kind.B1, pile=7))
    assert caught.value.rule_id == "R37"
    assert caught.value.code == IllegalCode.NO_SUCH_PILE
    assert caught.value.params == {"pile": (0, 7), "colour": 0, "count": 2}
    assert position_digest(state) == digest


CHECKED_ENTRIES: dict[str, Callable[[State, Any, Any], object]] = {
    "check": check,
    "apply": apply,
    "apply_in_place": apply_in_place,  # compiled, it takes the seat and action as objects
}


@pytest.mark.parametrize("entry", sorted(CHECKED_ENTRIES))
@pytest.mark.parametrize("seat", [-1, 4, 99, "0", None, 1.0, True])
def test_unknown_seats_are_refused_with_r37(entry: str, seat: Any) -> None:
    """Every checked entry point refuses seats that are not in the game (R37), on the
    compiled engine as on the pure one (no bare TypeError), and changes nothing."""
    state = new_game(Settings(), 3)
    digest = position_digest(state)
    with pytest.raises(IllegalActionError, match="there is no seat") as caught:
        CHECKED_ENTRIES[entry](state, seat, Action(ActionType.END))
    assert caught.value.rule_id == "R37"
    assert position_digest(state) == digest


@pytest.mark.parametrize("entry", sorted(CHECKED_ENTRIES))
@pytest.mark.parametrize("thing", ["end", 2, None, {"type": "end"}])
def test_non_actions_are_refused_with_r37(entry: str, thing: Any) -> None:
    """Every checked entry point refuses anything that is not an Action (R37)."""
    state = new_game(Settings(), 3)
    digest = position_digest(state)
    with pytest.raises(IllegalActionError, match="is not an action") as caught:
        CHECKED_ENTRIES[entry](state, state.current, thing)
    assert caught.value.rule_id == "R37"
    assert position_digest(state) == digest


# --- other entry points ---------------------------------------------------------------


@pytest.mark.parametrize("seed", [1.5, None, True, b"seed", [1]])
def test_new_game_refuses_bad_seeds(seed: Any) -> None:
    """R41: a seed is an int or a str."""
    with pytest.raises(TypeError, match="a seed is an int or a str"):
        new_game(Settings(), seed)


def test_observe_and_resample_refuse_bad_seats() -> None:
    """A view names a real seat; a view is resampled only for its own seat."""
    state = new_game(Settings(), 3)
    rng = random.Random(0)
    with pytest.raises(ValueError, match="there is no seat 4"):
        observe(state, 4)
    with pytest.raises(ValueError, match="cannot be resampled for seat 2"):
        resample(observe(state, 1), 2, rng)
    with pytest.raises(ValueError, match="a view of seat None cannot be resampled"):
        resample(observe(state, None), 0, rng)


def test_positions_round_trip_json_after_refusals(position: dict[str, Any]) -> None:
    """The untouched fixture position itself loads (so each refusal above is the
    mutation's doing) and survives JSON."""
    state = position_from_dict(json.loads(json.dumps(position)))
    assert position_to_dict(state) == position
