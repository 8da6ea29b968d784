"""The OpenSpiel game ``python_sequence_stacks``, registered with pyspiel on import.

Importing this module registers the game, as OpenSpiel's own Python games do; then::

    import pyspiel
    import sequence_stacks.env.openspiel_game  # noqa: F401 - registers the game

    game = pyspiel.load_game("python_sequence_stacks", {"players": 3})

Chance is *sampled* (``SAMPLED_STOCHASTIC``): the engine shuffles with its own seeded
generator (R41) inside ``apply_action``, so there are no chance nodes. Each new
initial state takes its seed from a generator the game parameter ``seed`` starts, so a
program that makes the same calls deals the same games. (OpenSpiel clones a Python
state by making a new initial state and copying attributes onto it, so clones draw
seeds from that generator too.) ``resample_from_infostate`` uses the engine's
:func:`~sequence_stacks.engine.resample`, which is what OpenSpiel's ISMCTS bot needs.

Observers (``make_py_observer``):

- the default observation (imperfect recall) is the tensor of
  :class:`~sequence_stacks.env.encoding.ObservationEncoder` (named pieces in ``dict``)
  and a text of the seat's view;
- with ``private_info=NONE`` the same with the seat's private parts removed (hand, own
  Block answer; the hand counts as unseen);
- with ``perfect_recall=True`` (the information state) a string only: every event of
  the game as that seat saw it (its own draws and answers in full, other seats' as
  counts), then its current view. There is no information-state tensor: a whole game's
  history has no fixed size.
"""

from __future__ import annotations

import random
from typing import Any, Final

import numpy as np
import pyspiel

from sequence_stacks.engine import (
    ActionSpace,
    Event,
    Settings,
    State,
    View,
    action_space,
    apply_in_place,
    event_for,
    legal_action_ids,
    new_game,
    observe,
    resample,
)

from .encoding import ObservationEncoder, encoder_for
from .text import event_text, view_text

__all__ = [
    "GAME_NAME",
    "SequenceStacksGame",
    "SequenceStacksObserver",
    "SequenceStacksState",
    "settings_from_params",
]

GAME_NAME: Final = "python_sequence_stacks"
_DEFAULTS: Final = Settings()
_PARAMETERS: Final[dict[str, Any]] = {
    "players": _DEFAULTS.player_count,
    "piles_per_colour": _DEFAULTS.piles_per_colour,
    "refill_at_turn_start": _DEFAULTS.refill_at_turn_start,
    "chip_supply": _DEFAULTS.chip_supply,  # -1 means unlimited
    "steal_chip_can_win": _DEFAULTS.steal_chip_can_win,
    "two_player_reverses": _DEFAULTS.two_player_reverses,
    "max_turns": _DEFAULTS.max_turns,
    "max_turn_actions": _DEFAULTS.max_turn_actions,
    "hand_size": _DEFAULTS.hand_size,
    "chips_to_win": _DEFAULTS.chips_to_win,
    "min_each_colour": _DEFAULTS.min_each_colour,
    "first_seat": _DEFAULTS.first_seat,
    "seed": 0,
}

_GAME_TYPE: Final = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Sequence Stacks",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_PARAMETERS,
)


def settings_from_params(params: dict[str, Any]) -> Settings:
    """Return the engine settings for OpenSpiel game parameters (missing ones default)."""
    values = {**_PARAMETERS, **params}
    supply = int(values["chip_supply"])
    return Settings(
        player_count=int(values["players"]),
        piles_per_colour=int(values["piles_per_colour"]),
        refill_at_turn_start=bool(values["refill_at_turn_start"]),
        chip_supply=None if supply < 0 else supply,
        steal_chip_can_win=bool(values["steal_chip_can_win"]),
        two_player_reverses=bool(values["two_player_reverses"]),
        max_turns=int(values["max_turns"]),
        max_turn_actions=int(values["max_turn_actions"]),
        hand_size=int(values["hand_size"]),
        chips_to_win=int(values["chips_to_win"]),
        min_each_colour=int(values["min_each_colour"]),
        first_seat=int(values["first_seat"]),
    )


class _Shared:
    """What every state of one game shares; copying a state shares it, not copies it."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.space: ActionSpace = action_space(settings.player_count, settings.piles_per_colour)
        self.encoder: ObservationEncoder = encoder_for(settings)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_Shared, (self.settings,))


class _Box:
    """Holds the engine state; a deep copy is a cheap :meth:`State.clone`."""

    def __init__(self, state: State) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        return _Box(self.state.clone())


# One trail entry: (owner, owner's text, everyone else's text); owner -1 means public.
_Entry = tuple[int, str, str]


class _Trail:
    """Every event so far, as each seat saw it; entries are immutable, so a copy is a slice."""

    def __init__(self, entries: list[_Entry]) -> None:
        self.entries = entries

    def __deepcopy__(self, memo: dict[int, Any]) -> _Trail:
        return _Trail(self.entries[:])

    def add(self, events: list[Event]) -> None:
        """Append events, each with its public (redacted) text (R35, R36)."""
        for event in events:
            full = event_text(event)
            public = event_text(event_for(event, None))
            owner = -1 if public == full else int(getattr(event, "seat", -1))
            self.entries.append((owner, full, public))

    def text_for(self, seat: int) -> str:
        """Return the trail as ``seat`` saw it."""
        return "\n".join(full if owner == seat else public for owner, full, public in self.entries)

    def redacted_for(self, seat: int) -> _Trail:
        """Return a copy in which only ``seat``'s private entries keep their full text."""
        return _Trail(
            [
                (owner, full if owner in (-1, seat) else public, public)
                for owner, full, public in self.entries
            ]
        )


class SequenceStacksGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel is untyped
    """The game; ``params`` are those of ``parameter_specification`` (see the module)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_PARAMETERS, **(params or {})}
        settings = settings_from_params(params)
        count = settings.player_count
        space = action_space(count, settings.piles_per_colour)
        info = pyspiel.GameInfo(
            num_distinct_actions=space.size,
            max_chance_outcomes=0,
            num_players=count,
            min_utility=-1.0 / (count - 1),
            max_utility=1.0,
            utility_sum=0.0,
            # Each turn: at most max_turn_actions + 1 plays (N17), each answered by up
            # to count - 1 opponents in a Block window, and one ending discard.
            max_game_length=settings.max_turns * ((settings.max_turn_actions + 1) * count + 1),
        )
        super().__init__(_GAME_TYPE, info, params)
        self.settings = settings
        self._shared = _Shared(settings)
        self._seeds = random.Random(int(params["seed"]))

    def new_initial_state(self) -> SequenceStacksState:
        """Return a new game dealt from the next seed of the game's generator."""
        return SequenceStacksState(self, self._seeds.getrandbits(63))

    def new_initial_state_for_seed(self, seed: int) -> SequenceStacksState:
        """Return the game the engine deals for ``seed`` (R41)."""
        return SequenceStacksState(self, seed)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> SequenceStacksObserver:
        """Return an observer for ``iig_obs_type`` (default: imperfect recall)."""
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        obs_type = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        return SequenceStacksObserver(obs_type, self._shared.encoder)


class SequenceStacksState(pyspiel.State):  # type: ignore[misc]  # pyspiel is untyped
    """One game in progress; wraps an engine state and the events each seat saw."""

    def __init__(self, game: SequenceStacksGame, seed: int) -> None:
        super().__init__(game)
        self._shared = game._shared  # the game's own shared tables
        events: list[Event] = []
        self._box = _Box(new_game(game.settings, seed, events))
        self._trail = _Trail([])
        self._trail.add(events)

    @property
    def engine_state(self) -> State:
        """Return the engine state (hidden cards included: for referees and tests)."""
        return self._box.state

    def current_player(self) -> int:
        """Return the seat that must decide now, or TERMINAL."""
        seat = self._box.state.current_player()
        return pyspiel.PlayerId.TERMINAL if seat is None else seat

    def _legal_actions(self, player: int) -> list[int]:
        return legal_action_ids(self._box.state, player)

    def _apply_action(self, action: int) -> None:
        state = self._box.state
        seat = state.current_player()
        assert seat is not None
        events: list[Event] = []
        # OpenSpiel's apply_action has already checked the id against _legal_actions.
        apply_in_place(state, seat, self._shared.space.action(action, seat), events, checked=False)
        self._trail.add(events)

    def _action_to_string(self, player: int, action: int) -> str:
        seat = player if player >= 0 else 0
        return self._shared.space.action(action, seat).notation()

    def is_terminal(self) -> bool:
        """Return True once the game has ended (R31-R33)."""
        return self._box.state.is_over

    def returns(self) -> list[float]:
        """Return the engine's returns vector at the end, zeros before."""
        result = self._box.state.result
        if result is None:
            return [0.0] * self._box.state.player_count
        return list(result.returns)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """Return a state ``player_id`` cannot tell from this one (engine resample)."""
        rng = random.Random(int(probability_sampler() * 2**53))
        clone = self.clone()
        clone._box = _Box(resample(self._box.state, player_id, rng))
        clone._trail = self._trail.redacted_for(player_id)
        return clone

    def view(self, seat: int | None) -> View:
        """Return what ``seat`` may see now (None: a spectator)."""
        return observe(self._box.state, seat)

    def trail_text(self, seat: int) -> str:
        """Return every event of the game as ``seat`` saw it."""
        return self._trail.text_for(seat)

    def __str__(self) -> str:
        state = self._box.state
        hands = "\n".join(
            f"seat {seat} holds {' '.join(str(card) for card in hand) or '-'}"
            for seat, hand in enumerate(state.hands)
        )
        return f"{view_text(observe(state, None))}\n{hands}\ndraw order {state.draw}"


class SequenceStacksObserver:
    """An observer in OpenSpiel's PyObserver form (``tensor``, ``dict``, ``set_from``,
    ``string_from``)."""

    def __init__(self, iig_obs_type: Any, encoder: ObservationEncoder) -> None:
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("Sequence Stacks offers no observation of every seat's hand (R36)")
        self._encoder = encoder
        self._perfect_recall = bool(iig_obs_type.perfect_recall)
        self._public_only = iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE
        self.tensor: np.ndarray[Any, np.dtype[np.float32]] | None
        if self._perfect_recall:
            self.tensor = None
            self.dict: dict[str, np.ndarray[Any, Any]] = {}
        else:
            self.tensor = np.zeros(encoder.size, np.float32)
            self.dict = encoder.split(self.tensor)

    def set_from(self, state: SequenceStacksState, player: int) -> None:
        """Write ``player``'s observation of ``state`` into ``tensor``."""
        if self.tensor is None:
            return
        self._encoder.encode(state.view(player), out=self.tensor)
        if self._public_only:
            pieces = self.dict
            pieces["unseen_kinds"] += pieces["hand"]
            pieces["hand"].fill(0.0)
            pieces["my_answer"].fill(0.0)

    def string_from(self, state: SequenceStacksState, player: int) -> str:
        """Return ``player``'s observation (or information state) of ``state`` as text."""
        view = state.view(None if self._public_only else player)
        text = f"p{player}\n{view_text(view)}"
        if self._perfect_recall:
            seat = -2 if self._public_only else player  # -2: nobody's private entries
            return f"{state.trail_text(seat)}\n{text}"
        return text


pyspiel.register_game(_GAME_TYPE, SequenceStacksGame)
