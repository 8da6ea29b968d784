"""R37 refusals as data: every IllegalActionError has a stable ``code`` and ``params``
(seats, kinds, piles, colours, numbers), and each code one message ``illegal.<code>``
whose placeholders are exactly the params' names (issue #13)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from sequence_stacks.engine import (
    ILLEGAL_PARAMS,
    Action,
    ActionType,
    IllegalActionError,
    IllegalCode,
    Kind,
    Settings,
    State,
    check,
    parse_action,
)
from sequence_stacks.i18n import MESSAGES, placeholders, refusal_message, render, words

from .helpers import play_random_game, rig, run


def _refused(state: State, seat: object, action: object) -> Callable[[], None]:
    return lambda: check(state, seat, action)  # type: ignore[arg-type]


def _acts(state: State, seat: int, text: str) -> Callable[[], None]:
    return _refused(state, seat, parse_action(text))


def _turn() -> State:
    """Seat 0's turn: blue pile 1 holds B1 B2, the rest as named."""
    return rig(
        hands={0: ["B1", "B2", "B4", "SCARD", "SCHIP"], 1: ["R1", "R2"]},
        piles={0: ["B1", "B2"]},
        discards={0: ["R3"]},
        chips={0: (2, 1), 1: (0, 1)},
    )


def _window(players: int = 3) -> State:
    """Seat 0 completed blue pile 1; seats 1 and 2 (if any) are asked (R29)."""
    state = rig(
        Settings(player_count=players),
        hands={0: ["B5", "R3"], 1: ["R1"], 2: ["BLOCK"]},
        piles={0: ["B1", "B2", "B3", "B4"]},
    )
    return run(state, (0, "B5>1"))


def _over() -> State:
    state, _ = play_random_game(Settings(player_count=2), 3)
    assert state.is_over
    return state


def _both_blue_piles() -> State:
    return rig(hands={0: ["B1", "R2"]}, piles={0: ["B1", "B2"], 1: ["B1"]})


def _winning_steal() -> State:
    return rig(hands={0: ["SCHIP", "R2"]}, chips={0: (2, 2), 1: (1, 0)})


# Every code, provoked through the public API (the test below checks none is missing).
PROVOKED: dict[IllegalCode, Callable[[], object]] = {
    IllegalCode.NOT_AN_ACTION: _refused(_turn(), 0, "end"),
    IllegalCode.MALFORMED_ACTION: lambda: Action(ActionType.END, Kind.B3),
    IllegalCode.NOT_A_SEAT: _refused(_turn(), "0", Action(ActionType.END)),
    IllegalCode.NO_SUCH_SEAT: _refused(_turn(), 7, Action(ActionType.END)),
    IllegalCode.GAME_OVER: _acts(_over(), 0, "end"),
    IllegalCode.NO_BLOCK_WINDOW: _acts(_turn(), 1, "pass"),
    IllegalCode.WINDOW_OPEN: _acts(_window(), 1, "discard R1"),
    IllegalCode.OWN_SEQUENCE: _acts(_window(), 0, "pass"),
    IllegalCode.ALREADY_ANSWERED: _acts(run(_window(), (1, "pass")), 1, "pass"),
    IllegalCode.NO_BLOCK_CARD: _acts(_window(), 1, "block"),
    IllegalCode.NOT_YOUR_TURN: _acts(_turn(), 1, "R1>new"),
    IllegalCode.HAND_NOT_EMPTY: _acts(_turn(), 0, "end"),
    IllegalCode.NOTHING_TO_DISCARD: _acts(_turn(), 0, "discard R5"),
    IllegalCode.NO_SUCH_PILE: _acts(_turn(), 0, "B1>3"),
    IllegalCode.NOT_ON_DISCARD_TOP: _acts(_turn(), 0, "^B4>1"),
    IllegalCode.NO_SUCH_CARD: _acts(_turn(), 0, "B3>1"),
    IllegalCode.NEW_PILE_NEEDS_ONE: _acts(_turn(), 0, "B4>new"),
    IllegalCode.NO_FREE_PILE: _acts(_both_blue_piles(), 0, "B1>new"),
    IllegalCode.PILE_EMPTY: _acts(_turn(), 0, "B1>2"),
    IllegalCode.PILE_NEEDS: _acts(_turn(), 0, "B4>1"),
    IllegalCode.NOT_AN_OPPONENT: _acts(_turn(), 0, "SCARD>p0"),
    IllegalCode.DISCARD_EMPTY: _acts(_turn(), 0, "SCARD>p2"),
    IllegalCode.NO_CHIP: _acts(_turn(), 0, "SCHIP>p1:B"),
    IllegalCode.STEAL_CANNOT_WIN: _acts(_winning_steal(), 0, "SCHIP>p1:B"),
}


def _raised(code: IllegalCode) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as refused:
        PROVOKED[code]()
    return refused.value


def test_every_code_is_provoked_here() -> None:
    assert set(PROVOKED) == set(IllegalCode) == set(ILLEGAL_PARAMS)


@pytest.mark.parametrize("code", list(IllegalCode), ids=str)
def test_each_refusal_carries_its_code_and_the_params_of_that_code(code: IllegalCode) -> None:
    error = _raised(code)
    assert error.code == code
    assert set(error.params) == ILLEGAL_PARAMS[code]
    assert error.rule_id.startswith("R")
    assert error.reason  # the English sentence for developers and the CLI, as before
    for value in error.params.values():  # data, never words
        parts = value if isinstance(value, tuple) else (value,)
        assert all(type(part) is int for part in parts), error.params


@pytest.mark.parametrize("code", list(IllegalCode), ids=str)
def test_each_code_has_one_message_whose_placeholders_are_its_params(
    code: IllegalCode,
) -> None:
    error = _raised(code)
    key, args = refusal_message(code.value, error.params)
    message = MESSAGES[key]
    # A message worded per colour (illegal.no_chip.blue) takes its colour from its key.
    worded = ILLEGAL_PARAMS[code] - ({"colour"} if key != f"illegal.{code}" else set())
    assert placeholders(message.text) | placeholders(message.plural or "") == worded
    line = render(key, **words(args, lambda seat: f"Player {seat}"))
    assert "{" not in line
    assert "#" not in line  # cards and kinds in words, never notation


def test_a_refusal_naming_a_chip_colour_is_worded_per_colour() -> None:
    """So that Slovenian can write "modrega žetona" and "rdečega žetona" in full (#14)."""
    for colour, word in ((0, "blue"), (1, "red")):
        key, args = refusal_message("no_chip", {"victim": 1, "colour": colour})
        assert (key, args) == (f"illegal.no_chip.{word}", {"victim": 1})
        assert render(key, victim="Ana") == f"Ana has no {word} chip."


def test_no_illegal_message_lacks_a_code() -> None:
    keys = {
        key.removeprefix("illegal.").removesuffix(".blue").removesuffix(".red")
        for key in MESSAGES
        if key.startswith("illegal.")
    }
    assert keys == {code.value for code in IllegalCode}


def test_the_params_name_what_the_reason_says() -> None:
    pile = _raised(IllegalCode.PILE_NEEDS)
    assert pile.rule_id == "R15"
    assert pile.reason == "blue pile 1 needs a 3 (or a blue wild)"
    assert pile.params == {"pile": (0, 0), "rank": 3, "colour": 0}
    assert render("illegal.pile_needs", **words(pile.params, str)) == (
        "The blue pile 1 needs a 3 (or a blue wild)."
    )
    turn = _raised(IllegalCode.NOT_YOUR_TURN)
    assert (turn.rule_id, turn.reason) == ("R20", "it is seat 0's turn, not seat 1's")
    assert turn.params == {"player": 0}
    held = _raised(IllegalCode.NO_SUCH_CARD)
    assert (held.reason, held.params) == ("you hold no B3", {"kind": int(Kind.B3)})
    assert render("illegal.no_such_card", **words(held.params, str)) == "You hold no blue 3."
