"""Hypothesis strategies and helpers for random legal play (tier-3 tests).

``settings_strategy`` draws any valid variant (R40) within small bounds so that games
are short; ``games`` adds a seed and a Hypothesis-drawn ``random.Random`` that picks
uniformly among a decider's legal ids. ``random_play`` yields every step of such a game.
``permute_hidden`` rearranges what one seat cannot see, for the no-leak property.
The ``assert_*`` checks are shared by the property tests and the stateful machine.
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections import Counter
from collections.abc import Iterator

from hypothesis import strategies as st

from sequence_stacks.engine import (
    Action,
    ActionSpace,
    Event,
    IllegalActionError,
    Settings,
    State,
    action_space,
    apply,
    check,
    deck_for,
    legal_action_ids,
    legal_actions,
    new_game,
    parse_action,
    validate_state,
)
from sequence_stacks.engine.rng import Seed
from sequence_stacks.engine.state import AWAITING, BLOCK_WINDOW, BLOCKED, PASSED

__all__ = [
    "RULE_ID",
    "Game",
    "Step",
    "assert_conserved",
    "assert_legal_lists",
    "assert_refused",
    "can_vary",
    "games",
    "hidden_arrangement",
    "hidden_slots",
    "permute_hidden",
    "random_play",
    "refusal",
    "scramble",
    "seeds",
    "settings_strategy",
    "space_of",
    "step_limit",
]


# A rule id of RULES.md, R1-R41.
RULE_ID = re.compile(r"R([1-9]|[1-3][0-9]|4[01])")
# How many unlisted ids of a non-deciding seat ``assert_legal_lists`` tries.
UNLISTED_SAMPLE = 24


@st.composite
def settings_strategy(draw: st.DrawFn) -> Settings:
    """Draw any valid settings: 2-6 players, small hands, short games, small chip goals."""
    player_count = draw(st.integers(2, 6))
    chips_to_win = draw(st.integers(1, 8))
    min_each = draw(st.integers(0, chips_to_win // 2))
    # R3/R31 validation: supply >= min_each and 2 * supply >= chips_to_win.
    least_supply = max(min_each, (chips_to_win + 1) // 2)
    chip_supply = draw(st.none() | st.integers(least_supply, least_supply + 6))
    return Settings(
        player_count=player_count,
        piles_per_colour=draw(st.integers(1, 3)),
        refill_at_turn_start=draw(st.booleans()),
        chip_supply=chip_supply,
        steal_chip_can_win=draw(st.booleans()),
        two_player_reverses=draw(st.booleans()),
        max_turns=draw(st.integers(5, 400)),
        hand_size=draw(st.integers(1, 7)),
        chips_to_win=chips_to_win,
        min_each_colour=min_each,
        first_seat=draw(st.integers(0, player_count - 1)),
    )


seeds: st.SearchStrategy[Seed] = st.integers(0, 2**64) | st.text(max_size=6)


@dataclasses.dataclass(frozen=True, slots=True)
class Game:
    """What one random game is made of: settings, seed and the chooser's RNG."""

    settings: Settings
    seed: Seed
    rng: random.Random


games: st.SearchStrategy[Game] = st.builds(
    Game, settings_strategy(), seeds, st.randoms(use_true_random=True)
)


@dataclasses.dataclass(frozen=True, slots=True)
class Step:
    """One accepted action: the state before it, who took it, and what came of it."""

    before: State
    seat: int
    action: Action
    action_id: int
    after: State
    events: tuple[Event, ...]


def space_of(state: State) -> ActionSpace:
    """Return the action space of a state's game."""
    return action_space(state.player_count, state.settings.piles_per_colour)


def step_limit(settings: Settings) -> int:
    """A generous bound on the actions of one game, so a runaway game fails, not hangs."""
    return 300 * settings.max_turns + 1000


def random_play(game: Game, start_events: list[Event] | None = None) -> Iterator[Step]:
    """Play ``game`` to its end with pure :func:`apply`, choosing uniformly at random.

    A decider is picked uniformly among ``state.deciders()`` (so Block answers come in
    any order, N5), then an action uniformly among its legal ids.
    """
    state = new_game(game.settings, game.seed, start_events)
    space = space_of(state)
    rng = game.rng
    for _ in range(step_limit(game.settings)):
        if state.is_over:
            return
        seat = rng.choice(state.deciders())
        action_id = rng.choice(legal_action_ids(state, seat))
        action = space.action(action_id, seat)
        after, events = apply(state, seat, action)
        yield Step(state, seat, action, action_id, after, events)
        state = after
    raise AssertionError(f"the game did not end within {step_limit(game.settings)} actions")


def hidden_slots(state: State, seat: int | None) -> list[tuple[list[int], int]]:
    """Return ``(zone, index)`` for every card ``seat`` cannot see (None: a spectator).

    Those are the other seats' hand cards that are not publicly known (R25, N11) and the
    whole draw pile (R36).
    """
    slots: list[tuple[list[int], int]] = []
    for other, hand in enumerate(state.hands):
        if other != seat:
            known = state.known[other]
            slots.extend((hand, index) for index, card in enumerate(hand) if card not in known)
    slots.extend((state.draw, index) for index in range(len(state.draw)))
    return slots


def permute_hidden(state: State, seat: int | None, rng: random.Random) -> State:
    """Return a copy where the cards ``seat`` cannot see are shuffled among their places.

    Cards move only within their ``card_epoch`` class (N13): which shuffle a hidden card
    came from is public. Other seats' answers in an open Block window, also private
    (N5), are redrawn at random.
    """
    permuted = state.clone()
    by_epoch: dict[int, list[tuple[list[int], int]]] = {}
    for zone, index in hidden_slots(permuted, seat):
        by_epoch.setdefault(permuted.card_epoch[zone[index]], []).append((zone, index))
    for slots in by_epoch.values():
        cards = [zone[index] for zone, index in slots]
        rng.shuffle(cards)
        for (zone, index), card in zip(slots, cards, strict=True):
            zone[index] = card
    if permuted.phase == BLOCK_WINDOW:
        answers = permuted.window_answers
        for other, answer in enumerate(answers):
            if other != seat and answer != AWAITING:
                answers[other] = rng.choice((PASSED, BLOCKED))
    return permuted


def hidden_arrangement(state: State, seat: int) -> tuple[tuple[int, ...], ...]:
    """Where the cards ``seat`` cannot see are: each other hand's hidden cards (as a set,
    sorted) and the draw pile in order."""
    hands = tuple(
        tuple(sorted(card for card in hand if card not in state.known[other]))
        for other, hand in enumerate(state.hands)
        if other != seat
    )
    return (*hands, tuple(state.draw))


def can_vary(state: State, seat: int) -> bool:
    """True when some epoch class of hidden cards has two cards in different places (two
    hands, a hand and the draw pile, or two draw-pile positions), so that a fair resample
    can change :func:`hidden_arrangement`."""
    places: dict[int, set[object]] = {}
    for other, hand in enumerate(state.hands):
        if other != seat:
            for card in hand:
                if card not in state.known[other]:
                    places.setdefault(state.card_epoch[card], set()).add(("hand", other))
    for index, card in enumerate(state.draw):
        places.setdefault(state.card_epoch[card], set()).add(("draw", index))
    return any(len(where) >= 2 for where in places.values())


# --- checks shared by the property tests and the stateful machine -------------------


def assert_conserved(state: State) -> None:
    """R39: every card of the deck exactly once, chips held + supply constant."""
    validate_state(state)
    settings = state.settings
    deck = deck_for(settings.player_count, keep_two_player_reverses=settings.two_player_reverses)
    counts = Counter(state.cards_in_play())
    assert counts == Counter(deck), "a card is lost, duplicated or foreign"
    assert all(count == 1 for count in counts.values())
    assert all(value >= 0 for pair in state.chips for value in pair)
    for colour in (0, 1):
        held = sum(pair[colour] for pair in state.chips)
        if settings.chip_supply is None:
            assert state.supply == [0, 0]
        else:
            assert held + state.supply[colour] == settings.chip_supply


def assert_legal_lists(state: State, rng: random.Random) -> None:
    """R38, R37: deciders (and only they) have legal actions; lists, ids, ``check`` and
    notation agree; every unlisted id of a decider (a sample of a non-decider's) is
    refused with a rule id."""
    space = space_of(state)
    deciders = state.deciders()
    for seat in range(state.player_count):
        ids = legal_action_ids(state, seat)
        if seat in deciders:
            assert ids, f"seat {seat} must decide but has no legal action (R38)"
        else:
            assert ids == [], f"seat {seat} may not act now but is offered {ids}"
        assert ids == sorted(set(ids))
        actions = legal_actions(state, seat)
        assert [space.id_of(action, seat) for action in actions] == ids
        for action_id, action in zip(ids, actions, strict=True):
            check(state, seat, action)
            assert space.action(action_id, seat) == action
            assert parse_action(action.notation()) == action
        listed = set(ids)
        unlisted = [action_id for action_id in range(space.size) if action_id not in listed]
        if seat not in deciders:  # a non-decider is refused everything: sample it
            unlisted = rng.sample(unlisted, min(UNLISTED_SAMPLE, len(unlisted)))
        for action_id in unlisted:
            assert_refused(state, seat, action_id)


def assert_refused(state: State, seat: int, action_id: int) -> None:
    """``check`` must refuse an unlisted id with a RULES.md id and a reason."""
    action = space_of(state).action(action_id, seat)
    error = refusal(state, seat, action)
    assert error is not None, f"seat {seat}: {action} (id {action_id}) passes check, unlisted"
    assert RULE_ID.fullmatch(error.rule_id), error.rule_id
    assert error.reason


def refusal(state: State, seat: int, action: Action) -> IllegalActionError | None:
    """Return the error ``check`` raises for ``action``, or None if it is legal."""
    try:
        check(state, seat, action)
    except IllegalActionError as error:
        return error
    return None


def scramble(state: State) -> None:
    """Change every mutable part of ``state`` in place."""
    for zone in (state.hands, state.piles, state.discards, state.known):
        for cards in zone:
            cards.append(999)
    for cards in (state.draw, state.special, state.pool, state.card_epoch):
        cards.append(999)
    for pair in state.chips:
        pair[0] += 1
    state.supply[1] += 1
    state.window_pending.append(99)
    state.window_answers.append(99)
