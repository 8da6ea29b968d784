"""A stateful machine over random legal play (R37-R39; STYLE 1 and 11).

Rules take a random legal action of a decider, try a random illegal id (refused with a
rule id, nothing changes), clone and compare, and undo by going back to a kept state,
which must be exactly as it was. Invariants: conservation, and every decider has a legal
action while the game runs.
"""

from __future__ import annotations

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from sequence_stacks.engine import (
    IllegalActionError,
    Settings,
    State,
    apply,
    apply_in_place,
    legal_action_ids,
    new_game,
    position_digest,
)
from sequence_stacks.engine.rng import Seed

from .strategies import (
    assert_conserved,
    assert_refused,
    scramble,
    seeds,
    settings_strategy,
    space_of,
)

choices = st.integers(0, 2**16)


class RandomPlay(RuleBasedStateMachine):
    """One game, played and unplayed at random; ``history`` keeps every earlier state."""

    def __init__(self) -> None:
        super().__init__()
        self._state: State | None = None
        self.digest = ""
        self.history: list[tuple[State, str]] = []

    @property
    def state(self) -> State:
        """The current state (set by the initialize rule)."""
        assert self._state is not None
        return self._state

    def _go_to(self, state: State) -> None:
        self._state = state
        self.digest = position_digest(state)

    def is_running(self) -> bool:
        """True while the game is on (rules that act need it)."""
        return self._state is not None and not self._state.is_over

    @initialize(options=settings_strategy(), seed=seeds)
    def start(self, options: Settings, seed: Seed) -> None:
        """Deal a new game."""
        self._go_to(new_game(options, seed))

    @precondition(is_running)
    @rule(pick=choices, choice=choices)
    def take_legal_action(self, pick: int, choice: int) -> None:
        """Apply a legal action of some decider; the old state must stay as it was."""
        state = self.state
        deciders = state.deciders()
        seat = deciders[pick % len(deciders)]
        ids = legal_action_ids(state, seat)
        action = space_of(state).action(ids[choice % len(ids)], seat)
        new, _ = apply(state, seat, action)
        assert position_digest(state) == self.digest, "apply changed its input"
        self.history.append((state, self.digest))
        self._go_to(new)

    @rule(pick=choices, choice=choices)
    def try_illegal_action(self, pick: int, choice: int) -> None:
        """An unlisted id of any seat is refused by check, apply and apply_in_place."""
        state = self.state
        seat = pick % state.player_count
        space = space_of(state)
        listed = set(legal_action_ids(state, seat))
        unlisted = [action_id for action_id in range(space.size) if action_id not in listed]
        action_id = unlisted[choice % len(unlisted)]
        assert_refused(state, seat, action_id)
        action = space.action(action_id, seat)
        with pytest.raises(IllegalActionError):
            apply(state, seat, action)
        with pytest.raises(IllegalActionError):
            apply_in_place(state, seat, action)
        assert position_digest(state) == self.digest, "a refused action changed the state"

    @rule()
    def clone_and_compare(self) -> None:
        """A clone equals the state; changing the clone leaves the state alone."""
        clone = self.state.clone()
        assert clone == self.state
        scramble(clone)
        assert clone != self.state
        assert position_digest(self.state) == self.digest

    @precondition(lambda self: bool(self.history))
    @rule(steps=st.integers(1, 5))
    def undo(self, steps: int) -> None:
        """Go back up to ``steps`` actions: each kept state is unchanged (STYLE 1)."""
        for _ in range(min(steps, len(self.history))):
            state, digest = self.history.pop()
            assert position_digest(state) == digest, "a kept state changed"
            self._go_to(state)

    @invariant()
    def conserved(self) -> None:
        """R39 holds after every rule."""
        if self._state is not None:
            assert_conserved(self._state)

    @invariant()
    def deciders_can_act(self) -> None:
        """R38: every decider has a legal action while the game runs; none after."""
        state = self._state
        if state is None:
            return
        for seat in range(state.player_count):
            ids = legal_action_ids(state, seat)
            assert bool(ids) == (seat in state.deciders())
        assert state.deciders() or state.is_over


RandomPlay.TestCase.settings = settings(max_examples=60, stateful_step_count=60)
TestRandomPlay = RandomPlay.TestCase
