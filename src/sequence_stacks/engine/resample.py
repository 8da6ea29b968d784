"""Sample a full state consistent with what one seat knows (for search bots)."""

from __future__ import annotations

import random

from .cards import CARD_COUNT, deck_for
from .errors import EngineError
from .rng import shuffle_with
from .settings import Settings
from .state import AWAITING, BLOCK_WINDOW, PASSED, State
from .view import View

__all__ = ["resample"]


def resample(source: State | View, seat: int, rng: random.Random) -> State:
    """Return a state ``seat`` cannot tell apart from ``source`` (R35, R36).

    Every card ``seat`` cannot see (other seats' hidden cards and the draw pile) is
    dealt again at random among the same places, keeping each card in a place where it
    could be: a card from shuffle ``k`` only goes where a card from shuffle ``k`` was.
    Publicly known cards stay put, the seed is replaced by a fresh one from ``rng``,
    and other seats' hidden answers in an open Block window become passes.
    """
    if isinstance(source, View):
        if source.seat != seat:
            raise ValueError(f"a view of seat {source.seat} cannot be resampled for seat {seat}")
        state = _state_from_view(source)
    else:
        state = source.clone()
    _redeal_hidden(state, seat, rng)
    state.seed = rng.getrandbits(63)
    if state.phase == BLOCK_WINDOW:
        answers = state.window_answers
        for other in range(state.player_count):
            if other != seat and answers[other] != AWAITING:
                answers[other] = PASSED
    return state


def _redeal_hidden(state: State, seat: int, rng: random.Random) -> None:
    epochs = state.card_epoch
    groups: dict[int, list[int]] = {}
    for other, hand in enumerate(state.hands):
        if other != seat:
            known = state.known[other]
            for card in hand:
                if card not in known:
                    groups.setdefault(epochs[card], []).append(card)
    for card in state.draw:
        groups.setdefault(epochs[card], []).append(card)
    for cards in groups.values():
        shuffle_with(rng, cards)  # as rng.shuffle does, on every Python version
    for other, hand in enumerate(state.hands):
        if other != seat:
            known = state.known[other]
            for index, card in enumerate(hand):
                if card not in known:
                    hand[index] = groups[epochs[card]].pop()
    state.draw = groups.get(state.shuffle_count - 1, []) if state.draw else []


def _state_from_view(view: View) -> State:
    """Rebuild a state from a seat's view, with placeholder hidden cards to redeal."""
    if view.hand is None or view.seat is None:
        raise ValueError("a spectator's view holds no hand to resample from")
    settings: Settings = view.settings
    state = State.empty(settings, 0)
    state.shuffle_count = view.shuffle_count
    state.card_epoch = list(view.card_epoch)
    state.piles = [list(pile) for pile in view.piles]
    state.discards = [list(pile) for pile in view.discards]
    state.special = list(view.special)
    state.pool = list(view.pool)
    state.chips = [list(pair) for pair in view.chips]
    state.supply = list(view.supply) if view.supply is not None else [0, 0]
    state.direction = view.direction
    state.current = view.current
    state.pending_skips = view.pending_skips
    state.phase = view.phase
    state.turn_count = view.turn_count
    state.turn_actions = view.turn_actions
    state.stall_mask = view.stall_mask
    state.result = view.result
    state.known = [list(cards) for cards in view.known_cards]
    _fill_zones(state, view)
    if view.window_completer is not None and view.window_pile is not None:
        state.window_completer = view.window_completer
        state.window_slot = view.window_pile
        state.window_pending = list(view.window_pending)
        answers = [AWAITING] * settings.player_count
        for other in range(settings.player_count):
            if other != view.window_completer and other not in view.window_pending:
                answers[other] = PASSED
        if view.my_answer is not None:
            answers[view.seat] = int(view.my_answer)
        state.window_answers = answers
    return state


def _fill_zones(state: State, view: View) -> None:
    """Put any unseen card of the right epoch in each hidden place (redealt later)."""
    settings = view.settings
    seen = set(view.hand or ())
    for zone in (view.piles, view.discards, view.known_cards):
        for cards in zone:
            seen.update(cards)
    seen.update(view.special)
    seen.update(view.pool)
    deck = deck_for(settings.player_count, keep_two_player_reverses=settings.two_player_reverses)
    unseen: dict[int, list[int]] = {}
    for card in deck:
        if card not in seen:
            unseen.setdefault(view.card_epoch[card], []).append(card)
    try:
        for other, epochs in enumerate(view.hidden_epochs):
            hand = list(view.hand or ()) if other == view.seat else list(view.known_cards[other])
            hand.extend(unseen[epoch].pop() for epoch in epochs)
            state.hands[other] = hand
        state.draw = unseen.pop(view.draw_epoch, []) if view.draw_size else []
    except (KeyError, IndexError):
        raise EngineError(
            "the view is inconsistent: its hidden cards do not add up (R39)"
        ) from None
    leftover = sum(len(cards) for cards in unseen.values())
    if len(state.draw) != view.draw_size or leftover or len(deck) > CARD_COUNT:
        raise EngineError("the view is inconsistent: its hidden cards do not add up (R39)")
