"""RULES §7, what each player sees: public facts, private hands, hidden order and seed
(R34-R36)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from sequence_stacks.engine import (
    Phase,
    Settings,
    State,
    View,
    apply_in_place,
    event_for,
    legal_action_ids,
    legal_actions,
    new_game,
    observe,
    observe_seats,
)
from sequence_stacks.engine.events import CardsDrawn

from .helpers import act, kinds, rig, run


def _busy() -> State:
    """A position with something in every public zone."""
    return rig(
        hands={0: ["B3", "R4", "SKIP"], 1: ["B2", "R2"], 2: ["BLOCK", "RW", "R5", "B5", "BW"]},
        piles={0: ["B1"], 2: ["R1", "R2"]},
        discards={1: ["B4", "SCARD"], 3: ["R3"]},
        special=["REV"],
        pool=["B1", "B2", "B3", "B4", "B5"],
        chips={1: (1, 0), 3: (2, 1)},
        pending_skips=1,
        direction=-1,
    )


def _card_ids_in(view: View) -> set[int]:
    """Every card id the view names anywhere (hands, piles, discards, special, pool)."""
    found: set[int] = set(view.hand or ())
    for zone in (view.known_cards, view.piles, view.discards):
        for cards in zone:
            found.update(cards)
    found.update(view.special)
    found.update(view.pool)
    return found


@pytest.mark.parametrize("seat", [None, 0, 1, 2, 3])
def test_r34_public_facts_are_in_every_view(seat: int | None) -> None:
    state = _busy()
    view = observe(state, seat)
    assert view.piles == tuple(tuple(pile) for pile in state.piles)
    assert view.discards == tuple(tuple(pile) for pile in state.discards)
    assert view.special == tuple(state.special)
    assert view.pool == tuple(state.pool)
    assert view.draw_size == len(state.draw)
    assert view.hand_sizes == (3, 2, 5, 5)
    assert view.chips == ((0, 0), (1, 0), (0, 0), (2, 1))
    assert view.supply == (17, 19)
    assert view.direction == -1
    assert view.current == 0
    assert view.pending_skips == 1
    assert view.phase == Phase.PLAYING
    assert view.to_dict()["phase"] == "playing"


def test_r34_a_view_says_who_decides_now() -> None:
    state = rig(hands={0: ["B5", "R1"]}, piles={0: ["B1", "B2", "B3", "B4"]})
    for seat in (None, 0, 2):
        assert observe(state, seat).deciders == (0,)
    state, _ = act(state, 0, "B5>1")  # completes the pile: a Block window asks the others
    assert state.phase == Phase.BLOCK_WINDOW
    assert observe(state, None).deciders == (1, 2, 3) == state.deciders()
    state, _ = act(state, 2, "pass")
    assert observe(state, 0).deciders == (1, 3)
    assert observe(state, 0).to_dict()["deciders"] == [1, 3]


@pytest.mark.parametrize(
    ("piles", "slots"),
    [
        ({}, (0, 2)),
        ({0: ["B1"], 2: ["R1", "R2"]}, (1, 3)),
        ({1: ["B1"]}, (0, 2)),
        ({0: ["B1"], 1: ["BW"], 3: ["R1"]}, (None, 2)),
    ],
)
def test_r9_a_view_says_which_slot_a_new_pile_takes(
    piles: dict[int, list[str]], slots: tuple[int | None, int | None]
) -> None:
    state = rig(hands={0: ["B1", "R1"]}, piles=piles)
    view = observe(state, 1)
    assert view.new_pile_slots == slots
    assert view.to_dict()["new_pile_slots"] == list(slots)
    for colour, slot in enumerate(slots):
        if slot is None:
            continue
        played, _ = act(state, 0, f"{'BR'[colour]}1>new")  # the engine puts it there
        assert kinds(played.piles[slot]) == [f"{'BR'[colour]}1"]


def test_r34_public_effects_of_actions_reach_everyone() -> None:
    state = rig(hands={0: ["B3"], 1: ["R1"]})
    state, events = act(state, 0, "discard B3")
    drawn = next(e for e in events if isinstance(e, CardsDrawn))
    for seat in (None, 0, 2, 3):
        seen = event_for(drawn, seat)
        assert isinstance(seen, CardsDrawn)
        assert (seen.seat, seen.count, seen.reason) == (1, 4, "refill")
        assert seen.cards == ()
    assert kinds(observe(state, 2).discards[0]) == ["B3"]


def test_r35_a_player_sees_their_own_hand_and_their_own_draws() -> None:
    state = rig(hands={0: ["B3"], 1: ["R1"]})
    state, events = act(state, 0, "discard B3")
    view = observe(state, 1)
    assert view.hand == tuple(state.hands[1])
    drawn = next(e for e in events if isinstance(e, CardsDrawn))
    assert event_for(drawn, 1) == drawn
    assert len(drawn.cards) == 4
    assert view.legal_action_ids == tuple(legal_action_ids(state, 1))


def test_r36_a_view_names_no_card_of_another_hand_nor_of_the_draw_pile() -> None:
    state = _busy()
    view = observe(state, 1)
    secret = set(state.hands[2]) | set(state.draw)
    assert _card_ids_in(view).isdisjoint(secret)
    assert view.hand == tuple(state.hands[1])


def test_r36_a_spectator_view_has_no_hand() -> None:
    view = observe(_busy(), None)
    assert view.hand is None
    assert view.seat is None
    assert view.legal_action_ids == ()
    assert _card_ids_in(view).isdisjoint(set().union(*_busy().hands))


def test_r36_a_view_has_no_seed() -> None:
    state = rig(seed=987654321)
    view = observe(state, 0)
    assert not hasattr(view, "seed")
    assert "seed" not in {field.name for field in dataclasses.fields(View)}
    data = view.to_dict()
    assert "seed" not in data
    assert "987654321" not in repr(data)


def test_r36_hidden_cards_can_be_exchanged_without_changing_the_view() -> None:
    state = _busy()
    other = state.clone()
    # Swap a card of seat 2's hand with one deep in the draw pile (same shuffle).
    index = 3
    other.hands[2][0], other.draw[index] = other.draw[index], other.hands[2][0]
    other.draw.reverse()  # and the draw pile's order is hidden too
    assert other != state
    for seat in (None, 0, 1, 3):
        assert observe(other, seat) == observe(state, seat)
    assert observe(other, 2) != observe(state, 2)


def test_r36_views_stay_hidden_after_moves() -> None:
    state = rig(hands={0: ["B1", "SKIP", "B2", "R3"]})
    state = run(state, (0, "B1>new"), (0, "SKIP"), (0, "B2>1"), (0, "discard R3"))
    for seat in range(4):
        view = observe(state, seat)
        secret = set(state.draw)
        for other in range(4):
            if other != seat:
                secret |= set(state.hands[other])
        assert _card_ids_in(view).isdisjoint(secret)


def test_r36_observe_refuses_a_seat_not_in_the_game() -> None:
    with pytest.raises(ValueError, match="no seat 4"):
        observe(_busy(), 4)


@pytest.mark.parametrize("player_count", [2, 4, 6])
def test_r34_r36_views_of_several_seats_at_once_are_each_seat_s_own(player_count: int) -> None:
    """``observe_seats`` shares what everyone sees and gives each seat what it alone may
    see: each of its views is exactly ``observe``'s, at every position of a game."""
    rng = random.Random(player_count)
    state = new_game(Settings(player_count=player_count), player_count)
    seats: list[int | None] = [None, *range(player_count)]
    for _ in range(400):
        if state.is_over:
            break
        views = observe_seats(state, seats)
        assert [view.to_dict() for view in views] == [observe(state, s).to_dict() for s in seats]
        seat = rng.choice(state.deciders())
        apply_in_place(state, seat, rng.choice(legal_actions(state, seat)))
    with pytest.raises(ValueError, match="no seat"):
        observe_seats(state, [0, player_count])
