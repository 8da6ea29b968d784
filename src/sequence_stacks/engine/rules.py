"""The rules: start a game, list and check actions, apply them (RULES §2-§6).

Three ways to ask about an action (STYLE principle 4): :func:`check` raises an
:class:`IllegalActionError` naming the rule id, :func:`is_legal` answers yes or no, and
:func:`legal_actions` / :func:`legal_action_ids` list every legal action of a seat.
:func:`apply` returns a new state and the events; the old state is untouched.
:func:`apply_in_place` is the fast path for simulators that own their state.

This module stays Python; the checks (:func:`~.legality.checked_action`), performing an
action (:mod:`.play`) and listing legal ids (:mod:`.legality`) are the hot path, which
the install compiles when it can (README, "The compiled engine"). :func:`apply_in_place`
is :func:`.play.apply_in_place` itself, so that a call reaches compiled code without a
Python frame between; compiled, it takes its seat and action as plain objects (and
refuses bad ones with the rule, as :func:`check` does), while type checkers see the
signature below.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import Action, action_space
from .errors import IllegalActionError
from .events import Event
from .legality import checked_action, legal_action_ids
from .play import pass_window, perform, start_game
from .rng import Seed
from .settings import Settings
from .state import State

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
    """Raise IllegalActionError naming the rule ``action`` breaks; return if legal (R37).

    Callers (servers, records) may pass anything as the seat and the action: a seat that
    is no seat number or an action that is no Action is refused the same way.
    """
    checked_action(state, seat, action)


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


if TYPE_CHECKING:

    def apply_in_place(
        state: State,
        seat: int,
        action: Action,
        events: list[Event] | None = None,
        *,
        checked: bool = True,
    ) -> None:
        """Apply ``action`` to ``state`` itself (the fast path for simulators and search).

        Checked unless ``checked=False`` (then the caller promises the action came from
        :func:`legal_action_ids`; an illegal one corrupts the state).
        """

else:
    from .play import apply_in_place
