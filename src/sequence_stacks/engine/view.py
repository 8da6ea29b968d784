"""What one seat (or a spectator) may know: :func:`observe` (RULES §7, R34-R36)."""

from __future__ import annotations

import dataclasses
from typing import Any

from .cards import COLOURS
from .legality import legal_action_ids
from .settings import Settings
from .state import BLOCK_WINDOW, Phase, Result, State

__all__ = ["View", "new_pile_slots", "observe"]


@dataclasses.dataclass(frozen=True, slots=True)
class View:
    """A seat's view of a game: everything public (R34) plus its own hand (R35).

    Never holds another seat's hidden cards, the draw pile's order or the seed (R36).
    ``seat`` is None for a spectator, whose ``hand`` is then None.

    Attributes:
        hidden_epochs: per seat, the shuffle epochs of the cards in its hand that this
            viewer cannot see, sorted. Public: everyone saw every draw and every pool
            that was shuffled, so everyone knows which shuffle each hidden card came from.
        known_cards: per seat, the cards everyone knows are in that hand (stolen, R25).
        card_epoch: per card id, the shuffle that last put it in the draw pile.
        draw_epoch: the shuffle the current draw pile came from.
        phase: what the game waits for (written as its :attr:`Phase.key` in JSON).
        deciders: the seats that may act now (:meth:`State.deciders`): the turn owner,
            or the unanswered opponents of a Block window; empty once the game is over.
        new_pile_slots: per colour, the slot of ``piles`` a new pile of that colour
            would take (the colour's first free slot, R9), None when it has none.
        my_answer: the viewer's own answer in an open Block window (None if none).
        legal_action_ids: the viewer's legal actions now (R38).
    """

    settings: Settings
    seat: int | None
    hand: tuple[int, ...] | None
    hand_sizes: tuple[int, ...]
    known_cards: tuple[tuple[int, ...], ...]
    hidden_epochs: tuple[tuple[int, ...], ...]
    card_epoch: tuple[int, ...]
    draw_size: int
    draw_epoch: int
    piles: tuple[tuple[int, ...], ...]
    discards: tuple[tuple[int, ...], ...]
    special: tuple[int, ...]
    pool: tuple[int, ...]
    chips: tuple[tuple[int, int], ...]
    supply: tuple[int, int] | None
    direction: int
    current: int
    pending_skips: int
    phase: Phase
    deciders: tuple[int, ...]
    new_pile_slots: tuple[int | None, ...]
    window_completer: int | None
    window_pile: int | None
    window_pending: tuple[int, ...]
    my_answer: bool | None
    turn_count: int
    turn_actions: int
    stall_mask: int
    shuffle_count: int
    result: Result | None
    legal_action_ids: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        """Return the view as JSON-ready data."""
        data = {f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self)}
        data["settings"] = self.settings.to_dict()
        data["phase"] = self.phase.key
        return data


def _plain(value: object) -> object:
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    if isinstance(value, Result):
        return value.to_dict()
    return value


def observe(state: State, seat: int | None) -> View:
    """Return what ``seat`` may see of ``state``; ``None`` gives a spectator's view."""
    return observe_seats(state, [seat])[0]


def observe_seats(state: State, seats: list[int | None]) -> list[View]:
    """:func:`observe` for several seats at once: each view is the one ``observe``
    gives, the fields everyone sees computed once and shared (read-only tuples)."""
    for seat in seats:
        if seat is not None and not 0 <= seat < state.player_count:
            raise ValueError(f"there is no seat {seat} in a {state.player_count}-player game")
    known = tuple(map(tuple, state.known))
    hidden = [_hidden_epochs(state, hand, state.known[s]) for s, hand in enumerate(state.hands)]
    in_window = state.phase == BLOCK_WINDOW
    supply = None if state.settings.chip_supply is None else (state.supply[0], state.supply[1])
    hand_sizes = tuple(len(hand) for hand in state.hands)
    card_epoch = tuple(state.card_epoch)
    piles = tuple(map(tuple, state.piles))
    discards = tuple(map(tuple, state.discards))
    special = tuple(state.special)
    pool = tuple(state.pool)
    chips = tuple((pair[0], pair[1]) for pair in state.chips)
    deciders = state.deciders()
    free = new_pile_slots(state)
    window_pending = tuple(state.window_pending) if in_window else ()
    views: list[View] = []
    for seat in seats:
        answer = state.window_answers[seat] if in_window and seat is not None else -1
        views.append(
            View(
                settings=state.settings,
                seat=seat,
                hand=None if seat is None else tuple(state.hands[seat]),
                hand_sizes=hand_sizes,
                known_cards=known,
                hidden_epochs=tuple(() if s == seat else e for s, e in enumerate(hidden)),
                card_epoch=card_epoch,
                draw_size=len(state.draw),
                draw_epoch=state.shuffle_count - 1,
                piles=piles,
                discards=discards,
                special=special,
                pool=pool,
                chips=chips,
                supply=supply,
                direction=state.direction,
                current=state.current,
                pending_skips=state.pending_skips,
                phase=state.phase,
                deciders=deciders,
                new_pile_slots=free,
                window_completer=state.window_completer if in_window else None,
                window_pile=state.window_slot if in_window else None,
                window_pending=window_pending,
                my_answer=None if answer < 0 else bool(answer),
                turn_count=state.turn_count,
                turn_actions=state.turn_actions,
                stall_mask=state.stall_mask,
                shuffle_count=state.shuffle_count,
                result=state.result,
                legal_action_ids=() if seat is None else tuple(legal_action_ids(state, seat)),
            )
        )
    return views


def new_pile_slots(state: State) -> tuple[int | None, ...]:
    """Per colour, the slot a new pile of that colour takes: the first free one (R9)."""
    per_colour = state.settings.piles_per_colour
    found: list[int | None] = []
    for colour in COLOURS:
        slots = range(colour * per_colour, (colour + 1) * per_colour)
        found.append(next((slot for slot in slots if not state.piles[slot]), None))
    return tuple(found)


def _hidden_epochs(state: State, hand: list[int], known: list[int]) -> tuple[int, ...]:
    """Return the sorted shuffle epochs of the cards of ``hand`` not publicly known."""
    if state.shuffle_count == 1 and not known:  # before any reshuffle every card is epoch 0
        return (0,) * len(hand)
    epochs = state.card_epoch
    return tuple(sorted(epochs[c] for c in hand if c not in known))
