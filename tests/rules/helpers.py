"""Rigged positions and small checks for the rule-by-rule tests (tier 1).

:func:`rig` builds a valid mid-turn state with named cards in named places; every card
not named goes to one ``rest`` zone (the bottom of the draw pile unless told otherwise).
Cards are named by kind (``"B3"``: the lowest free copy) or by id (``"B3#20"``).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest

from sequence_stacks.engine import (
    CARD_KIND,
    Action,
    Event,
    IllegalActionError,
    IllegalCode,
    Phase,
    Settings,
    State,
    action_space,
    apply,
    apply_in_place,
    card_from_text,
    deck_for,
    is_legal,
    kind_from_text,
    kind_text,
    legal_action_ids,
    legal_actions,
    new_game,
    parse_action,
    position_digest,
    validate_state,
)

__all__ = [
    "act",
    "assert_malformed",
    "assert_refused",
    "kinds",
    "legal_texts",
    "pass_window",
    "play_random_game",
    "rig",
    "run",
]

# The zones that may take every card not named.
_REST_ZONES = ("draw", "pool", "special")


class _Claimer:
    """Hands out card ids of a deck: exact ids first, then the lowest free copy of a kind."""

    def __init__(self, deck: Sequence[int]) -> None:
        self.free = sorted(deck)

    def exact(self, text: str) -> int:
        card = card_from_text(text)
        if card not in self.free:
            raise ValueError(f"card {text} is not free to place (named twice or not in the deck)")
        self.free.remove(card)
        return card

    def of_kind(self, text: str) -> int:
        kind = kind_from_text(text)
        for card in self.free:
            if CARD_KIND[card] == kind:
                self.free.remove(card)
                return card
        raise ValueError(f"no free {text} is left to place")

    def filler(self, count: int) -> list[int]:
        """Take ``count`` coloured cards, highest ids first (red wilds, red fives ...)."""
        coloured = [card for card in reversed(self.free) if CARD_KIND[card] < 12][:count]
        for card in coloured:
            self.free.remove(card)
        return coloured


def _resolve(zones: dict[str, list[str]], claimer: _Claimer) -> dict[str, list[int]]:
    placed: dict[str, list[int | None]] = {
        name: [None] * len(specs) for name, specs in zones.items()
    }
    for exact_pass in (True, False):
        for name, specs in zones.items():
            for index, spec in enumerate(specs):
                if ("#" in spec) == exact_pass:
                    take = claimer.exact if exact_pass else claimer.of_kind
                    placed[name][index] = take(spec)
    return {name: [card for card in cards if card is not None] for name, cards in placed.items()}


def rig(
    settings: Settings | None = None,
    *,
    hands: Mapping[int, Sequence[str]] | None = None,
    draw: Sequence[str] = (),
    piles: Mapping[int, Sequence[str]] | None = None,
    discards: Mapping[int, Sequence[str]] | None = None,
    special: Sequence[str] = (),
    pool: Sequence[str] = (),
    rest: str = "draw",
    chips: Mapping[int, tuple[int, int]] | None = None,
    current: int | None = None,
    direction: int = 1,
    pending_skips: int = 0,
    turn_count: int = 1,
    seed: int = 7,
) -> State:
    """Return a valid state in the middle of ``current``'s turn, with cards placed as named.

    ``draw`` is listed bottom to top (the last card is drawn first); cards not named go
    under it (``rest="draw"``), into the pool, or into the special pile (``"special"``:
    out of play for good). Seats missing from ``hands`` get ``hand_size`` coloured filler
    cards. ``piles`` maps a slot (blue slots first) to its cards, bottom first. With
    nothing left to draw, ``current`` is marked towards a stalemate, as at the start of a
    turn (N7).
    """
    settings = settings or Settings()
    if rest not in _REST_ZONES:
        raise ValueError(f"rest must be one of {_REST_ZONES}")
    hands = hands or {}
    piles = piles or {}
    discards = discards or {}
    count = settings.player_count
    zones: dict[str, list[str]] = {"draw": list(draw), "special": list(special), "pool": list(pool)}
    zones.update({f"hand{seat}": list(cards) for seat, cards in hands.items()})
    zones.update({f"pile{slot}": list(cards) for slot, cards in piles.items()})
    zones.update({f"discard{seat}": list(cards) for seat, cards in discards.items()})
    deck = deck_for(count, keep_two_player_reverses=settings.two_player_reverses)
    claimer = _Claimer(deck)
    placed = _resolve(zones, claimer)
    state = State.empty(settings, seed)
    for seat in range(count):
        name = f"hand{seat}"
        state.hands[seat] = placed[name] if name in placed else claimer.filler(settings.hand_size)
        state.discards[seat] = placed.get(f"discard{seat}", [])
    for slot in range(len(state.piles)):
        state.piles[slot] = placed.get(f"pile{slot}", [])
    state.draw = placed["draw"]
    state.pool = placed["pool"]
    state.special = placed["special"]
    leftover = list(claimer.free)
    if rest == "draw":
        state.draw = leftover + state.draw
    else:
        getattr(state, rest).extend(leftover)
    _set_chips(state, chips or {})
    state.current = settings.first_seat if current is None else current
    state.direction = direction
    state.pending_skips = pending_skips
    state.turn_count = turn_count
    state.shuffle_count = 1
    if not state.draw and not state.pool:  # as the turn's start would (R33, N7)
        state.stall_mask = 1 << state.current
    validate_state(state)
    return state


def _set_chips(state: State, chips: Mapping[int, tuple[int, int]]) -> None:
    for seat, (blue, red) in chips.items():
        state.chips[seat] = [blue, red]
    limit = state.settings.chip_supply
    if limit is not None:
        state.supply = [limit - sum(pair[colour] for pair in state.chips) for colour in (0, 1)]


def act(state: State, seat: int, text: str) -> tuple[State, tuple[Event, ...]]:
    """Apply the action written ``text`` (notation) for ``seat``; return state and events."""
    return apply(state, seat, parse_action(text))


def run(state: State, *moves: tuple[int, str]) -> State:
    """Apply ``(seat, notation)`` moves one after another; return the final state."""
    for seat, text in moves:
        state, _ = act(state, seat, text)
    return state


def legal_texts(state: State, seat: int) -> set[str]:
    """Return the notation of every legal action of ``seat``."""
    return {action.notation() for action in legal_actions(state, seat)}


def kinds(cards: Iterable[int]) -> list[str]:
    """Return the kind names of ``cards`` in order, e.g. ``["B1", "SKIP"]``."""
    return [kind_text(CARD_KIND[card]) for card in cards]


def assert_refused(state: State, seat: int, action: Action | str, rule_id: str) -> str:
    """Assert ``action`` is refused naming ``rule_id`` and changes nothing (R37).

    Checks :func:`apply`, :func:`apply_in_place`, :func:`is_legal` and the legal list;
    returns the plain-language reason.
    """
    if isinstance(action, str):
        action = parse_action(action)
    before = state.clone()
    digest = position_digest(state)
    with pytest.raises(IllegalActionError) as refused:
        apply(state, seat, action)
    assert refused.value.rule_id == rule_id, refused.value
    assert refused.value.reason
    with pytest.raises(IllegalActionError):
        apply_in_place(state, seat, action, [])
    assert state == before
    assert position_digest(state) == digest
    assert not is_legal(state, seat, action)
    if 0 <= seat < state.player_count:
        assert action not in legal_actions(state, seat)
    return refused.value.reason


def assert_malformed(**fields: Any) -> str:
    """Assert that an Action with these fields cannot be built: it is refused as
    malformed (R37) before any game sees it; returns the reason."""
    with pytest.raises(IllegalActionError) as refused:
        Action(**fields)
    assert refused.value.rule_id == "R37", refused.value
    assert refused.value.code == IllegalCode.MALFORMED_ACTION
    assert refused.value.params == {}
    return refused.value.reason


def play_random_game(
    settings: Settings, seed: int | str, *, rng_seed: int = 0, step_limit: int = 5000
) -> tuple[State, list[tuple[int, Action]]]:
    """Play uniformly random legal actions from a new game; return the state and moves."""
    rng = random.Random(rng_seed)
    state = new_game(settings, seed)
    space = action_space(settings.player_count, settings.piles_per_colour)
    moves: list[tuple[int, Action]] = []
    for _ in range(step_limit):
        if state.is_over:
            break
        seat = state.deciders()[0]
        action = space.action(rng.choice(legal_action_ids(state, seat)), seat)
        apply_in_place(state, seat, action)
        moves.append((seat, action))
    return state, moves


def pass_window(state: State) -> State:
    """Answer pass for every seat still asked in an open Block window."""
    while state.phase == Phase.BLOCK_WINDOW:
        seat = state.deciders()[0]
        state, _ = act(state, seat, "pass")
    return state
