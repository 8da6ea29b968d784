"""Rigged positions for bot tests: named cards placed in a dealt game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sequence_stacks.engine import (
    CARD_KIND,
    Phase,
    Settings,
    State,
    deck_for,
    kind_from_text,
    new_game,
    validate_state,
)


class Cards:
    """Hands out distinct card ids by kind text (``"B3"``), lowest id first."""

    def __init__(self, player_count: int) -> None:
        self.free = list(deck_for(player_count))

    def __call__(self, *texts: str) -> list[int]:
        cards: list[int] = []
        for text in texts:
            kind = kind_from_text(text)
            card = next(c for c in self.free if CARD_KIND[c] == kind)
            self.free.remove(card)
            cards.append(card)
        return cards


def rig(
    cards: Cards,
    *,
    player_count: int = 2,
    hands: Mapping[int, Sequence[int]],
    piles: Mapping[int, Sequence[int]] | None = None,
    discards: Mapping[int, Sequence[int]] | None = None,
    chips: Sequence[tuple[int, int]] | None = None,
    supply: tuple[int, int] | None = None,
    current: int = 0,
    window: tuple[int, int] | None = None,
) -> State:
    """A dealt game with the named cards moved into place; every other card is drawn.

    ``window`` is ``(completer, slot)`` to open a Block window on a five-card pile.
    """
    state = new_game(Settings(player_count=player_count), 0).clone()
    placed = {*cards.free}
    state.hands = [list(hands.get(seat, ())) for seat in range(player_count)]
    state.piles = [list((piles or {}).get(slot, ())) for slot in range(4)]
    state.discards = [list((discards or {}).get(seat, ())) for seat in range(player_count)]
    state.draw = sorted(placed)
    state.known = [[] for _ in range(player_count)]
    state.chips = [list(pair) for pair in (chips or [(0, 0)] * player_count)]
    if supply is None:
        supply = (
            20 - sum(pair[0] for pair in state.chips),
            20 - sum(pair[1] for pair in state.chips),
        )
    state.supply = list(supply)
    state.current = current
    if window is not None:
        completer, slot = window
        state.phase = Phase.BLOCK_WINDOW
        state.window_slot = slot
        state.window_completer = completer
        state.window_pending = [(completer + s) % player_count for s in range(1, player_count)]
        state.window_answers = [-1] * player_count
    validate_state(state)
    return state
