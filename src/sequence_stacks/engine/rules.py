"""The rules: start a game, list and check actions, apply them (RULES §2-§6).

Three ways to ask about an action (STYLE principle 4): :func:`check` raises an
:class:`IllegalActionError` naming the rule id, :func:`is_legal` answers yes or no, and
:func:`legal_actions` / :func:`legal_action_ids` list every legal action of a seat.
:func:`apply` returns a new state and the events; the old state is untouched.
:func:`apply_in_place` is the fast path for simulators that own their state.

This module checks what callers send and stays Python; performing a checked action
(:mod:`.play`) and listing legal ids (:mod:`.legality`) are the hot path, which the
install compiles when it can (README, "The compiled engine").
"""

from __future__ import annotations

from typing import Final

from .actions import Action, ActionType, action_space
from .cards import Kind
from .errors import IllegalActionError, IllegalCode
from .events import Event
from .legality import check_fields, check_play_phase, hand_has, legal_action_ids
from .play import pass_window, perform, start_game
from .rng import Seed
from .settings import Settings
from .state import BLOCK_WINDOW, OVER, State

__all__ = [
    "apply",
    "apply_id",
    "apply_in_place",
    "check",
    "is_legal",
    "legal_action_ids",
    "legal_action_mask",
    "legal_actions",
    "new_game",
    "pass_window",
]

_ANSWERS: Final = (ActionType.PASS, ActionType.BLOCK)


def new_game(settings: Settings, seed: Seed, events: list[Event] | None = None) -> State:
    """Shuffle, deal and start the first turn (R6, R7); fill ``events`` if given."""
    seed_value: object = seed  # callers may not be type-checked
    if not isinstance(seed_value, int | str) or isinstance(seed_value, bool):
        raise TypeError(f"a seed is an int or a str, not {type(seed).__name__} (R41)")
    return start_game(settings, seed, events)


# --- asking about actions -----------------------------------------------------------


def legal_action_mask(state: State, seat: int) -> bytearray:
    """Return one byte per id of the action space: 1 where the action is legal (R38)."""
    space = action_space(state.player_count, state.settings.piles_per_colour)
    mask = bytearray(space.size)
    for action_id in legal_action_ids(state, seat):
        mask[action_id] = 1
    return mask


def legal_actions(state: State, seat: int) -> list[Action]:
    """Return every legal action of ``seat`` as structured actions (R38)."""
    table = action_space(state.player_count, state.settings.piles_per_colour).actions_of(seat)
    return [table[action_id] for action_id in legal_action_ids(state, seat)]


def check(state: State, seat: int, action: Action) -> None:
    """Raise IllegalActionError naming the rule ``action`` breaks; return if legal (R37)."""
    check_fields(action)
    _check_seat(state, seat)
    if state.phase == OVER:
        raise IllegalActionError("R32", "the game is over", code=IllegalCode.GAME_OVER)
    if state.phase == BLOCK_WINDOW:
        _check_window(state, seat, action)
    elif action.type in _ANSWERS:
        raise IllegalActionError(
            "R29",
            "Block and pass answer a Block window, and none is open",
            code=IllegalCode.NO_BLOCK_WINDOW,
        )
    elif seat != state.current:
        raise IllegalActionError(
            "R20",
            f"it is seat {state.current}'s turn, not seat {seat}'s",
            code=IllegalCode.NOT_YOUR_TURN,
            params={"player": state.current},
        )
    else:
        check_play_phase(state, seat, action)


def _check_seat(state: State, seat: object) -> None:
    """R37: callers (servers, records) may pass anything as a seat."""
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise IllegalActionError(
            "R37", f"there is no seat {seat!r} in this game", code=IllegalCode.NOT_A_SEAT
        )
    if not 0 <= seat < state.player_count:
        raise IllegalActionError(
            "R37",
            f"there is no seat {seat!r} in this game",
            code=IllegalCode.NO_SUCH_SEAT,
            params={"seat": seat},
        )


def _check_window(state: State, seat: int, action: Action) -> None:
    if action.type not in _ANSWERS:
        raise IllegalActionError(
            "R29",
            "a Block window is open: the asked opponents must answer block or pass first",
            code=IllegalCode.WINDOW_OPEN,
        )
    if seat not in state.window_pending:
        if seat == state.window_completer:
            raise IllegalActionError(
                "R29",
                "a player cannot block their own sequence",
                code=IllegalCode.OWN_SEQUENCE,
            )
        raise IllegalActionError(
            "R29",
            f"seat {seat} has already answered this Block window",
            code=IllegalCode.ALREADY_ANSWERED,
        )
    if action.type == ActionType.BLOCK and not hand_has(state, seat, Kind.BLOCK):
        raise IllegalActionError(
            "R29",
            "a Block is played from the hand, and there is none in it",
            code=IllegalCode.NO_BLOCK_CARD,
        )


def is_legal(state: State, seat: int, action: Action) -> bool:
    """Return True when ``seat`` may take ``action`` now."""
    try:
        check(state, seat, action)
    except IllegalActionError:
        return False
    return True


# --- applying actions ---------------------------------------------------------------


def apply(state: State, seat: int, action: Action) -> tuple[State, tuple[Event, ...]]:
    """Return the state after ``seat`` takes ``action`` and the events it caused.

    Raises IllegalActionError (naming the rule) and leaves ``state`` unchanged if the
    action is illegal (R37).
    """
    check(state, seat, action)
    new = state.clone()
    events: list[Event] = []
    perform(new, seat, action, events)
    return new, tuple(events)


def apply_id(state: State, seat: int, action_id: int) -> tuple[State, tuple[Event, ...]]:
    """Like :func:`apply`, with the action given by its integer id."""
    space = action_space(state.player_count, state.settings.piles_per_colour)
    return apply(state, seat, space.action(action_id, seat))


def apply_in_place(
    state: State,
    seat: int,
    action: Action,
    events: list[Event] | None = None,
    *,
    checked: bool = True,
) -> None:
    """Apply ``action`` to ``state`` itself (the fast path for simulators and search).

    With ``checked=False`` the caller promises the action came from
    :func:`legal_action_ids`; an illegal one then corrupts the state.
    """
    if checked:
        check(state, seat, action)
    perform(state, seat, action, events)
