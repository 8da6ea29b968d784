"""Positions from random legal play, and the hidden-card permutation, for the env tests."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from sequence_stacks.engine import (
    Settings,
    State,
    action_space,
    apply_in_place,
    legal_action_ids,
    new_game,
    validate_state,
)

__all__ = ["permute_hidden", "play", "positions"]


def play(
    settings: Settings,
    seed: int,
    *,
    steps: int,
    until: Callable[[State], bool] | None = None,
) -> State:
    """Play up to ``steps`` uniformly random legal actions (seeded), stopping early when
    the game ends or ``until(state)`` holds."""
    rng = random.Random(seed)
    state = new_game(settings, seed)
    space = action_space(settings.player_count, settings.piles_per_colour)
    for _ in range(steps):
        seat = state.current_player()
        if seat is None or (until is not None and until(state)):
            break
        action_id = rng.choice(legal_action_ids(state, seat))
        apply_in_place(state, seat, space.action(action_id, seat))
    return state


def positions(settings: Settings, seed: int, *, every: int = 7) -> Iterator[State]:
    """Yield a copy of every ``every``-th state of one random game, the last one too."""
    rng = random.Random(seed)
    state = new_game(settings, seed)
    space = action_space(settings.player_count, settings.piles_per_colour)
    step = 0
    while True:
        if step % every == 0 or state.is_over:
            yield state.clone()
        seat = state.current_player()
        if seat is None:
            return
        action_id = rng.choice(legal_action_ids(state, seat))
        apply_in_place(state, seat, space.action(action_id, seat))
        step += 1


def permute_hidden(state: State, seat: int, rng: random.Random) -> State:
    """Return a copy in which every card ``seat`` cannot see (other seats' cards that are
    not publicly known, and the draw pile) is shuffled among the places holding a card
    of the same shuffle epoch, as :func:`~sequence_stacks.engine.resample` does."""
    new = state.clone()
    epochs = new.card_epoch
    slots: list[tuple[list[int], int]] = []
    for other, hand in enumerate(new.hands):
        if other != seat:
            slots += [(hand, i) for i, card in enumerate(hand) if card not in new.known[other]]
    slots += [(new.draw, i) for i in range(len(new.draw))]
    groups: dict[int, list[int]] = {}
    for zone, index in slots:
        groups.setdefault(epochs[zone[index]], []).append(zone[index])
    for cards in groups.values():
        rng.shuffle(cards)
    for zone, index in slots:
        zone[index] = groups[epochs[zone[index]]].pop()
    validate_state(new)
    return new
