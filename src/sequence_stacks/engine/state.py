"""The complete state of one game: every zone of RULES §3, chips, turn and window.

A :class:`State` is mutable inside the engine for speed; callers get a new one from
:func:`~sequence_stacks.engine.rules.apply` and never see a half-changed state. Use
:meth:`State.clone` to keep a copy (it copies lists, never ``copy.deepcopy``).
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Any, Final, final

from .cards import CARD_COUNT
from .compiling import given, python_class
from .rng import Seed
from .settings import Settings

__all__ = ["EndReason", "Phase", "Result", "State"]


class Phase(enum.IntEnum):
    """What a game is waiting for: a turn's play, Block answers (R29), or nothing."""

    PLAYING = 0
    BLOCK_WINDOW = 1
    OVER = 2

    @property
    def key(self) -> str:
        """The phase's name on the wire and in files: ``playing``, ``block_window``,
        ``over`` (``View.to_dict``, positions, the catalog)."""
        return _PHASE_KEYS[self]

    @classmethod
    def from_key(cls, key: str) -> Phase:
        """The phase named ``key``; raise ValueError for a name no phase has."""
        for phase, name in _PHASE_KEYS.items():
            if name == key:
                return phase
        raise ValueError(f"no phase is called {key!r}")


_PHASE_KEYS: Final = {phase: phase.name.lower() for phase in Phase}

# The members again, as module names for the engine's hottest loops: a module global is
# read ten times faster than an enum class attribute, and ``state.phase is PLAYING`` (a
# State's phase is always a Phase member) is faster than comparing IntEnum values.
PLAYING: Final = Phase.PLAYING
BLOCK_WINDOW: Final = Phase.BLOCK_WINDOW
OVER: Final = Phase.OVER


class EndReason(enum.StrEnum):
    """Why a game ended: a win (R31), a stalemate or the turn limit (R33), or a turn
    that ran too long (N17)."""

    WIN = "win"
    STALEMATE = "stalemate"
    MAX_TURNS = "max_turns"
    MAX_TURN_ACTIONS = "max_turn_actions"


# Answers in a Block window (R29).
AWAITING: Final = -1
PASSED: Final = 0
BLOCKED: Final = 1


@python_class  # its reason may be given as text (read back from a record)
@dataclasses.dataclass(frozen=True, slots=True)
class Result:
    """How a game ended (R31, R33).

    Attributes:
        reason: why it ended (given as text, it is read as an :class:`EndReason`).
        winner: the winning seat, or None.
        returns: per seat, +1 for the winner and -1/(N-1) for the others; 0 for all
            when nobody wins. The returns always sum to 0.
    """

    reason: EndReason
    winner: int | None
    returns: tuple[float, ...]

    def __post_init__(self) -> None:
        reason: Any = given(self, "reason")  # text when read back from a record
        if type(reason) is not EndReason:  # raises ValueError for an unknown reason
            object.__setattr__(self, "reason", EndReason(reason))

    @classmethod
    def of(cls, reason: EndReason, winner: int | None, player_count: int) -> Result:
        """Build the result with the standard returns vector."""
        if winner is None:
            return cls(reason, None, (0.0,) * player_count)
        loss = -1.0 / (player_count - 1)
        return cls(reason, winner, tuple(1.0 if s == winner else loss for s in range(player_count)))

    def to_dict(self) -> dict[str, Any]:
        """The result as JSON-ready data: ``{"reason", "winner", "returns"}`` (records,
        positions, views and the server's frames all write it so)."""
        return {"reason": self.reason.value, "winner": self.winner, "returns": list(self.returns)}


# Every attribute of a State: its slots, what equality compares and a clone copies.
_FIELDS: Final = (
    "card_epoch",
    "chips",
    "current",
    "direction",
    "discards",
    "draw",
    "hands",
    "known",
    "pending_skips",
    "phase",
    "piles",
    "player_count",
    "pool",
    "result",
    "seed",
    "settings",
    "shuffle_count",
    "special",
    "stall_mask",
    "supply",
    "turn_actions",
    "turn_count",
    "window_answers",
    "window_completer",
    "window_pending",
    "window_slot",
)


@final
class State:
    """Every fact of a running game, hidden ones included.

    Zones hold card ids; the top of the draw pile and of each discard pile is the last
    element. ``piles`` has ``2 * piles_per_colour`` slots, blue first; an empty list is
    a free slot. ``card_epoch[c]`` is the shuffle that last put card ``c`` in the draw
    pile (public knowledge, since every shuffled pool was seen). ``known[s]`` lists the
    cards everyone knows are in seat ``s``'s hand (stolen from a discard pile, R25).
    """

    __slots__ = _FIELDS

    settings: Settings
    seed: Seed
    shuffle_count: int
    player_count: int
    hands: list[list[int]]
    draw: list[int]
    piles: list[list[int]]
    discards: list[list[int]]
    special: list[int]
    pool: list[int]
    chips: list[list[int]]
    supply: list[int]
    direction: int
    current: int
    pending_skips: int
    phase: Phase
    window_slot: int
    window_completer: int
    window_pending: list[int]
    window_answers: list[int]
    turn_count: int
    turn_actions: int
    stall_mask: int
    card_epoch: list[int]
    known: list[list[int]]
    result: Result | None

    @classmethod
    def empty(cls, settings: Settings, seed: Seed) -> State:
        """Return a state with every zone empty (used by setup and by loaders)."""
        state = cls()
        count = settings.player_count
        supply = settings.chip_supply
        state.settings = settings
        state.seed = seed
        state.shuffle_count = 0
        state.player_count = count
        state.hands = [[] for _ in range(count)]
        state.draw = []
        state.piles = [[] for _ in range(2 * settings.piles_per_colour)]
        state.discards = [[] for _ in range(count)]
        state.special = []
        state.pool = []
        state.chips = [[0, 0] for _ in range(count)]
        state.supply = [0, 0] if supply is None else [supply, supply]
        state.direction = 1
        state.current = settings.first_seat
        state.pending_skips = 0
        state.phase = PLAYING
        state.window_slot = -1
        state.window_completer = -1
        state.window_pending = []
        state.window_answers = [AWAITING] * count
        state.turn_count = 0
        state.turn_actions = 0
        state.stall_mask = 0
        state.card_epoch = [0] * CARD_COUNT
        state.known = [[] for _ in range(count)]
        state.result = None
        return state

    def clone(self) -> State:
        """Return an independent copy (lists copied; cards and settings are immutable)."""
        new = State()
        new.settings = self.settings
        new.seed = self.seed
        new.shuffle_count = self.shuffle_count
        new.player_count = self.player_count
        new.hands = [hand[:] for hand in self.hands]
        new.draw = self.draw[:]
        new.piles = [pile[:] for pile in self.piles]
        new.discards = [pile[:] for pile in self.discards]
        new.special = self.special[:]
        new.pool = self.pool[:]
        new.chips = [pair[:] for pair in self.chips]
        new.supply = self.supply[:]
        new.direction = self.direction
        new.current = self.current
        new.pending_skips = self.pending_skips
        new.phase = self.phase
        new.window_slot = self.window_slot
        new.window_completer = self.window_completer
        new.window_pending = self.window_pending[:]
        new.window_answers = self.window_answers[:]
        new.turn_count = self.turn_count
        new.turn_actions = self.turn_actions
        new.stall_mask = self.stall_mask
        new.card_epoch = self.card_epoch[:]
        new.known = [cards[:] for cards in self.known]
        new.result = self.result
        return new

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in _FIELDS)

    __hash__ = None  # type: ignore[assignment]  # mutable: not hashable

    def __repr__(self) -> str:
        return (
            f"<State players={self.player_count} turn={self.turn_count} "
            f"seat={self.current} phase={self.phase.key} draw={len(self.draw)}>"
        )

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.phase is OVER

    def deciders(self) -> tuple[int, ...]:
        """Return the seats that may act now: the turn owner, or the unanswered
        opponents of a Block window in turn order; empty once the game is over."""
        if self.phase is PLAYING:
            return (self.current,)
        if self.phase is BLOCK_WINDOW:
            return tuple(self.window_pending)
        return ()

    def current_player(self) -> int | None:
        """Return the one seat a sequential adapter should ask next (None when over)."""
        if self.phase is PLAYING:
            return self.current
        if self.phase is BLOCK_WINDOW:
            return self.window_pending[0]
        return None

    def cards_in_play(self) -> list[int]:
        """Return every card id in every zone (R39 conservation checks)."""
        cards = [*self.draw, *self.special, *self.pool]
        for zone in (self.hands, self.piles, self.discards):
            for pile in zone:
                cards.extend(pile)
        return cards
