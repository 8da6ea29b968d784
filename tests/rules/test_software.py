"""RULES §8, software rulings: refusals (R37), legal lists (R38), conservation (R39),
settings recorded (R40), replay (R41); and settings validation."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from sequence_stacks.engine import (
    OPTION_RULES,
    Action,
    ActionType,
    GameRecord,
    IllegalActionError,
    Kind,
    NotationError,
    PositionError,
    RecordError,
    Settings,
    SettingsError,
    State,
    action_space,
    apply_in_place,
    check,
    legal_action_ids,
    legal_action_mask,
    new_game,
    observe,
    parse_action,
    position_digest,
    position_from_dict,
    position_to_dict,
    validate_state,
)

from .helpers import act, assert_malformed, assert_refused, play_random_game, rig

# --- R37 refusals -----------------------------------------------------------------------


def _turn() -> State:
    return rig(hands={0: ["B1", "B3", "R2", "BW"], 1: ["B2", "R1"]}, piles={0: ["B1", "B2"]})


def test_r37_wrong_turn_is_refused() -> None:
    reason = assert_refused(_turn(), 1, "discard B2", "R20")
    assert "seat 0's turn" in reason
    assert_refused(_turn(), 1, "R1>new", "R20")


def test_r37_card_not_held_is_refused() -> None:
    assert_refused(_turn(), 0, "B4>1", "R14")
    assert_refused(_turn(), 0, "SKIP", "R14")


def test_r37_wrong_colour_is_refused() -> None:
    # Red piles are empty: a red 2 cannot join the blue pile that needs a 3 ... or any.
    assert_refused(_turn(), 0, "R2>1", "R15")
    assert_refused(_turn(), 0, "R2>new", "R15")


def test_r37_wrong_number_is_refused() -> None:
    reason = assert_refused(_turn(), 0, "B1>1", "R15")
    assert "needs a 3" in reason


def test_r37_third_pile_is_refused() -> None:
    state = rig(hands={0: ["B1"]}, piles={0: ["B1"], 1: ["B1"]})
    assert_refused(state, 0, "B1>new", "R9")


def test_r37_block_outside_a_window_is_refused() -> None:
    state = rig(hands={0: ["BLOCK", "B3"], 1: ["BLOCK"]})
    assert_refused(state, 0, "block", "R29")
    assert_refused(state, 1, "block", "R29")
    assert_refused(state, 0, "pass", "R29")
    assert parse_action("BLOCK") == Action(ActionType.BLOCK)
    with pytest.raises(NotationError, match="only played by answering"):
        parse_action("^BLOCK")


@pytest.mark.parametrize(
    "fields",
    [
        {"type": ActionType.END, "kind": Kind.B3},
        {"type": ActionType.DISCARD, "kind": Kind.B3, "from_discard": True},
        {"type": ActionType.DISCARD},
        {"type": ActionType.PLAY, "kind": Kind.SKIP},
        {"type": ActionType.PLAY},
        {"type": ActionType.PLAY, "kind": Kind.B3, "pile": -1},
        {"type": ActionType.SKIP, "kind": Kind.REV},
        {"type": ActionType.SKIP},
        {"type": ActionType.STEAL_CARD, "kind": Kind.SCHIP, "victim": 1},
        {"type": ActionType.STEAL_CHIP, "kind": Kind.SCARD, "victim": 1, "colour": 0},
        {"type": ActionType.STEAL_CHIP, "kind": Kind.SCHIP, "victim": 1},
        {"type": ActionType.STEAL_CHIP, "kind": Kind.SCHIP, "victim": 1, "colour": 2},
        {"type": ActionType.STEAL_CARD, "kind": Kind.SCARD},
    ],
    ids=repr,
)
def test_r37_malformed_action_objects_cannot_be_built(fields: dict[str, Any]) -> None:
    reason = assert_malformed(**fields)
    assert reason.startswith("not a well-formed action: ")


def test_r37_a_pile_this_game_does_not_have_is_refused() -> None:
    state = rig(hands={0: ["B3", "SKIP", "REV", "SCARD", "SCHIP"]}, discards={1: ["R1"]})
    reason = assert_refused(state, 0, Action(ActionType.PLAY, Kind.B3, pile=2), "R37")
    assert reason.startswith("there is no blue pile 3: this game has 2 blue piles")


def test_r37_a_kind_given_as_its_index_is_that_kind() -> None:
    action = Action(ActionType.PLAY, 2, pile=0)  # type: ignore[arg-type]
    assert action.kind is Kind.B3
    assert action == parse_action("B3>1")


@pytest.mark.parametrize("bad", ["B1>new", None, 5, ("PLAY", "B1")])
def test_r37_a_request_that_is_not_an_action_is_refused(bad: object) -> None:
    state = _turn()
    before = state.clone()
    with pytest.raises(IllegalActionError) as refused:
        check(state, 0, bad)  # type: ignore[arg-type]
    assert refused.value.rule_id == "R37"
    assert state == before


@pytest.mark.parametrize("seat", [-1, 4, "0", 0.5, None])
def test_r37_a_seat_not_in_the_game_is_refused(seat: object) -> None:
    state = _turn()
    before = state.clone()
    with pytest.raises(IllegalActionError) as refused:
        apply_in_place(state, seat, parse_action("discard B3"))  # type: ignore[arg-type]
    assert refused.value.rule_id == "R37"
    assert state == before


@pytest.mark.parametrize(
    "text", ["", "B6>1", "B3>0", "B3>x", "SKIP>p1", "SCARD>2", "SCHIP>p1:G", "discard X", "play"]
)
def test_r37_malformed_notation_is_refused(text: str) -> None:
    with pytest.raises(NotationError, match="R37") as refused:
        parse_action(text)
    assert refused.value.rule_id == "R37"


@pytest.mark.parametrize(
    "fields",
    [
        pytest.param({"type": 99}, id="unknown type"),
        pytest.param({"type": "PLAY", "kind": Kind.B3}, id="type as text"),
        pytest.param({"type": 4, "kind": Kind.B3}, id="type as a number"),
        pytest.param({"type": ActionType.DISCARD, "kind": 99}, id="unknown kind"),
        pytest.param({"type": ActionType.PLAY, "kind": -1}, id="negative kind"),
        pytest.param({"type": ActionType.PLAY, "kind": True}, id="kind as a bool"),
        pytest.param({"type": ActionType.PLAY, "kind": Kind.B3, "pile": "1"}, id="pile as text"),
        pytest.param({"type": ActionType.PLAY, "kind": Kind.B3, "from_discard": 1}, id="source 1"),
    ],
)
def test_r37_malformed_action_fields_are_refused_not_crashing(fields: dict[str, Any]) -> None:
    assert_malformed(**fields)


@pytest.mark.parametrize(
    "fields",
    [
        pytest.param({"type": ActionType.SKIP, "kind": Kind.SKIP, "victim": 3}, id="skip+victim"),
        pytest.param({"type": ActionType.DISCARD, "kind": Kind.B3, "pile": 1}, id="discard+pile"),
        pytest.param({"type": ActionType.PLAY, "kind": Kind.B1, "victim": 2}, id="play+victim"),
        pytest.param({"type": ActionType.PASS, "kind": Kind.B3}, id="answer+card"),
        pytest.param({"type": ActionType.BLOCK, "from_discard": True}, id="answer+source"),
    ],
)
def test_r37_actions_with_stray_fields_cannot_be_built(fields: dict[str, Any]) -> None:
    assert_malformed(**fields)


def test_r37_a_bool_seat_is_refused() -> None:
    state = rig(hands={1: ["B3"]}, current=1)
    with pytest.raises(IllegalActionError) as refused:
        check(state, True, parse_action("discard B3"))
    assert refused.value.rule_id == "R37"


# --- R38 legal actions ------------------------------------------------------------------


@pytest.mark.parametrize(("player_count", "seed"), [(2, 1), (3, 2), (4, 3), (6, 4)])
def test_r38_the_legal_list_is_never_empty_for_a_decider_and_empty_for_others(
    player_count: int, seed: int
) -> None:
    settings = Settings(player_count=player_count, max_turns=150)
    state = new_game(settings, seed)
    space = action_space(player_count, settings.piles_per_colour)
    for step in range(3000):
        deciders = state.deciders()
        for seat in range(player_count):
            ids = legal_action_ids(state, seat)
            assert bool(ids) == (seat in deciders), (step, seat)
            assert list(observe(state, seat).legal_action_ids) == ids
        if state.is_over:
            break
        seat = deciders[step % len(deciders)]
        ids = legal_action_ids(state, seat)
        apply_in_place(state, seat, space.action(ids[(step * 7919) % len(ids)], seat))
    assert state.is_over
    assert state.deciders() == ()


def test_r38_an_empty_hand_can_always_end_the_turn() -> None:
    state = rig(hands={0: ["B1"]}, rest="special")
    state, _ = act(state, 0, "B1>new")
    assert state.hands[0] == []
    assert [space_action.notation() for space_action in _legal(state, 0)] == ["end"]


def _legal(state: State, seat: int) -> list[Action]:
    space = action_space(state.player_count, state.settings.piles_per_colour)
    return [space.action(action_id, seat) for action_id in legal_action_ids(state, seat)]


# --- R39 conservation -------------------------------------------------------------------


@pytest.mark.parametrize("settings", [Settings(), Settings(player_count=2, chip_supply=5)])
def test_r39_every_card_in_one_place_and_chips_conserved_throughout(settings: Settings) -> None:
    state = new_game(settings.replace(max_turns=300), 17)
    space = action_space(settings.player_count, settings.piles_per_colour)
    steps = 0
    while not state.is_over:
        seat = state.deciders()[-1]
        ids = legal_action_ids(state, seat)
        apply_in_place(state, seat, space.action(ids[(steps * 31) % len(ids)], seat))
        validate_state(state)
        assert settings.chip_supply is not None
        for colour in (0, 1):
            held = sum(pair[colour] for pair in state.chips)
            assert held + state.supply[colour] == settings.chip_supply
        steps += 1
    assert steps > 50


def test_r39_a_lost_card_is_caught() -> None:
    state = rig()
    state.draw.pop()
    with pytest.raises(PositionError, match=r"cards are not conserved \(R39\): missing"):
        validate_state(state)


def test_r39_a_foreign_card_is_caught() -> None:
    state = rig(Settings(player_count=2))
    state.special.append(107)  # a Reverse: not in the two-player deck
    with pytest.raises(PositionError, match="R39"):
        validate_state(state)


def test_r39_a_created_chip_is_caught() -> None:
    state = rig()
    state.chips[1][0] += 1
    with pytest.raises(PositionError, match=r"blue chips are not conserved \(R39\)"):
        validate_state(state)


def test_r39_a_misbuilt_pile_is_caught() -> None:
    state = rig(piles={0: ["B1", "B2"]})
    state.piles[0].reverse()
    with pytest.raises(PositionError, match="R15, R16"):
        validate_state(state)


# --- R40 settings are recorded ----------------------------------------------------------

_EVERY_OPTION_CHANGED = Settings(
    player_count=3,
    piles_per_colour=3,
    refill_at_turn_start=False,
    chip_supply=None,
    steal_chip_can_win=True,
    two_player_reverses=True,
    max_turns=77,
    max_turn_actions=60,
    hand_size=6,
    chips_to_win=7,
    min_each_colour=3,
    first_seat=2,
)


def test_r40_every_variant_option_is_a_setting() -> None:
    names = {field.name for field in dataclasses.fields(Settings)}
    assert names == set(OPTION_RULES)
    defaults = Settings()
    assert defaults.to_dict() == {
        "player_count": 4,
        "piles_per_colour": 2,
        "refill_at_turn_start": True,
        "chip_supply": 20,
        "steal_chip_can_win": False,
        "two_player_reverses": False,
        "max_turns": 2000,
        "max_turn_actions": 500,
        "hand_size": 5,
        "chips_to_win": 5,
        "min_each_colour": 2,
        "first_seat": 0,
    }
    changed = _EVERY_OPTION_CHANGED.to_dict()
    assert all(changed[name] != value for name, value in defaults.to_dict().items())


def test_r40_settings_are_recorded_in_records_and_positions() -> None:
    settings = _EVERY_OPTION_CHANGED
    state = new_game(settings, "r40")
    record = GameRecord(settings=settings, seed="r40")
    record_data = json.loads(json.dumps(record.to_dict()))
    assert record_data["settings"]["chip_supply"] == "unlimited"
    assert GameRecord.from_dict(record_data).settings == settings
    position_data = json.loads(json.dumps(position_to_dict(state)))
    assert position_data["settings"] == settings.to_dict()
    assert position_from_dict(position_data).settings == settings
    assert position_from_dict(position_data) == state
    assert observe(state, 0).to_dict()["settings"] == settings.to_dict()


# --- R41 replay -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("settings", "seed"),
    [(Settings(), 41), (Settings(player_count=2), "forty-one"), (_EVERY_OPTION_CHANGED, 5)],
)
def test_r41_replaying_a_record_reproduces_the_game(settings: Settings, seed: int | str) -> None:
    settings = settings.replace(max_turns=200)
    final, moves = play_random_game(settings, seed)
    assert len(moves) > 20
    record = GameRecord(
        settings=settings,
        seed=seed,
        actions=tuple(moves),
        result=final.result,
        digest=position_digest(final),
    )
    loaded = GameRecord.from_dict(json.loads(json.dumps(record.to_dict())))
    assert loaded == record
    replayed = loaded.replay()
    assert position_digest(replayed) == position_digest(final)
    assert replayed == final


def test_r41_a_record_that_does_not_match_is_refused() -> None:
    final, moves = play_random_game(Settings(max_turns=40), 8)
    good = GameRecord(settings=Settings(max_turns=40), seed=8, actions=tuple(moves))
    assert position_digest(good.replay()) == position_digest(final)
    with pytest.raises(RecordError, match="digest"):
        dataclasses.replace(good, digest="0" * 64).replay()
    with pytest.raises(RecordError, match="illegal"):
        dataclasses.replace(good, seed=9).replay()


def test_r41_the_seed_must_be_an_int_or_a_str() -> None:
    with pytest.raises(TypeError, match="R41"):
        new_game(Settings(), 1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="R41"):
        new_game(Settings(), True)


# --- settings validation (R40) ----------------------------------------------------------


def test_settings_unknown_option_names_are_listed() -> None:
    with pytest.raises(SettingsError) as refused:
        Settings.from_dict({"colours": 3, "players": 4, "hand_size": 5})
    message = str(refused.value)
    assert "unknown option(s) 'colours', 'players'" in message
    assert "known options: player_count, piles_per_colour" in message
    with pytest.raises(SettingsError, match=r"unknown option 'players'; known options: "):
        Settings.from_options(["players=3"])


@pytest.mark.parametrize(
    ("name", "value", "expected"),
    [
        ("piles_per_colour", 0, r"piles_per_colour=0 is outside 1-4 \(R9\)"),
        ("piles_per_colour", 5, r"piles_per_colour=5 is outside 1-4 \(R9\)"),
        ("hand_size", 0, r"hand_size=0 is outside 1-10 \(R6\)"),
        ("hand_size", 11, r"hand_size=11 is outside 1-10 \(R6\)"),
        ("max_turns", 0, r"max_turns=0 is outside 1-1000000 \(R33\)"),
        ("chips_to_win", 41, r"chips_to_win=41 is outside 1-40 \(R31\)"),
        ("min_each_colour", -1, r"min_each_colour=-1 is outside 0-20 \(R31\)"),
        ("chip_supply", -1, r"chip_supply=-1 is outside 0-1000 \(R3\)"),
        ("first_seat", 4, r"first_seat=4 is outside 0-3 \(R7\)"),
        ("player_count", 7, r"player_count=7 is outside 2-6 \(R5\)"),
    ],
)
def test_settings_out_of_range_values_are_refused(name: str, value: int, expected: str) -> None:
    options: dict[str, Any] = {name: value}
    with pytest.raises(SettingsError, match=expected):
        Settings(**options)


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({"min_each_colour": 3}, r"min_each_colour=3 twice is more than chips_to_win=5"),
        ({"chip_supply": 1}, r"chip_supply=1 per colour cannot make 5 chips"),
        ({"chip_supply": 2}, r"chip_supply=2 per colour cannot make 5 chips"),
        ({"chips_to_win": 3}, r"min_each_colour=2 twice is more than chips_to_win=3"),
    ],
)
def test_settings_impossible_win_settings_are_refused(
    options: dict[str, Any], expected: str
) -> None:
    with pytest.raises(SettingsError, match=expected) as refused:
        Settings(**options)
    assert "nobody could ever win" in str(refused.value)


def test_settings_smallest_winnable_supply_is_accepted() -> None:
    assert Settings(chip_supply=3).chip_supply == 3
    assert Settings(chip_supply=1, chips_to_win=2, min_each_colour=1).chip_supply == 1
    with pytest.raises(SettingsError, match="nobody could ever win"):
        Settings(chip_supply=0, chips_to_win=1, min_each_colour=0)


@pytest.mark.parametrize(
    ("name", "value", "expected"),
    [
        ("max_turns", "10", r"option max_turns must be a whole number, not '10'"),
        ("hand_size", 5.0, r"option hand_size must be a whole number, not 5.0"),
        ("chip_supply", "lots", r"option chip_supply must be a whole number, not 'lots'"),
        ("refill_at_turn_start", "yes", r"option refill_at_turn_start must be true or false"),
        ("steal_chip_can_win", 1, r"option steal_chip_can_win must be true or false, not 1"),
        ("two_player_reverses", None, r"must be true or false, not None"),
        ("player_count", None, r"option player_count must be a whole number, not None"),
    ],
)
def test_settings_wrong_types_are_refused(name: str, value: object, expected: str) -> None:
    options: dict[str, Any] = {name: value}
    with pytest.raises(SettingsError, match=expected):
        Settings(**options)


@pytest.mark.parametrize("name", ["player_count", "max_turns", "hand_size", "first_seat"])
def test_settings_bools_are_not_whole_numbers(name: str) -> None:
    with pytest.raises(SettingsError, match=rf"option {name} must be a whole number, not True"):
        Settings(**{name: True})


def test_settings_from_options_parses_command_line_values() -> None:
    settings = Settings.from_options(
        ["chip_supply=unlimited", "two-player-reverses=on", "player_count=2", "max_turns=9"]
    )
    assert settings.chip_supply is None
    assert settings.two_player_reverses is True
    assert settings.player_count == 2
    assert settings.max_turns == 9
    with pytest.raises(SettingsError, match="takes true or false, not 'maybe'"):
        Settings.from_options(["refill_at_turn_start=maybe"])
    with pytest.raises(SettingsError, match="takes a whole number, not 'ten'"):
        Settings.from_options(["max_turns=ten"])
    with pytest.raises(SettingsError, match="not of the form name=value"):
        Settings.from_options(["max_turns"])
    with pytest.raises(SettingsError, match="must be a JSON object"):
        Settings.from_dict([("max_turns", 3)])  # type: ignore[arg-type]


def test_settings_are_frozen_and_replace_validates_again() -> None:
    settings = Settings()
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.max_turns = 3  # type: ignore[misc]
    assert settings.replace(max_turns=3).max_turns == 3
    with pytest.raises(SettingsError, match="R5"):
        settings.replace(player_count=9)


def test_r38_the_mask_marks_exactly_the_legal_ids() -> None:
    state, _ = play_random_game(Settings(player_count=3), 11, step_limit=40)
    space = action_space(3, 2)
    for seat in range(3):
        mask = legal_action_mask(state, seat)
        assert len(mask) == space.size
        assert [i for i, bit in enumerate(mask) if bit] == legal_action_ids(state, seat)
    assert sum(legal_action_mask(state, state.deciders()[0])) >= 1
