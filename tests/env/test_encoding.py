"""The observation encoding: shape, bounds, meaning of each piece, mask, and no leaks (R34-R36)."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sequence_stacks.engine import (
    CARD_KIND,
    Kind,
    Phase,
    Settings,
    State,
    View,
    action_space,
    observe,
    resample,
)
from sequence_stacks.env import ObservationEncoder, encoder_for
from sequence_stacks.env.encoding import KIND_COUNT

from .helpers import permute_hidden, play, positions

PLAYER_COUNTS = [2, 3, 4, 5, 6]


def _kind_counts(cards: tuple[int, ...] | list[int]) -> list[int]:
    counts = Counter(CARD_KIND[card] for card in cards)
    return [counts[kind] for kind in range(KIND_COUNT)]


@pytest.mark.parametrize("player_count", PLAYER_COUNTS)
@pytest.mark.parametrize("piles_per_colour", [1, 2, 3])
def test_layout_is_contiguous_and_sized_per_player_count(
    player_count: int, piles_per_colour: int
) -> None:
    settings = Settings(player_count=player_count, piles_per_colour=piles_per_colour)
    encoder = ObservationEncoder(settings)
    position = 0
    for piece in encoder.pieces.values():
        assert piece.start == position, piece.name
        position = piece.stop
    assert position == encoder.size
    n, slots = player_count, 2 * piles_per_colour
    assert encoder.size == 99 + 62 * n + 7 * slots
    assert encoder.action_count == action_space(player_count, piles_per_colour).size
    assert encoder.low.shape == encoder.high.shape == (encoder.size,)
    assert (encoder.high > encoder.low).all()  # PettingZoo warns on equal bounds


def test_four_player_observation_has_the_documented_size() -> None:
    assert encoder_for(Settings()).size == 375


@pytest.mark.parametrize("player_count", PLAYER_COUNTS)
def test_observations_are_float32_within_bounds_and_masks_match_legal_ids(
    player_count: int,
) -> None:
    settings = Settings(player_count=player_count)
    encoder = encoder_for(settings)
    for state in positions(settings, seed=player_count, every=5):
        for seat in range(player_count):
            view = observe(state, seat)
            obs = encoder.encode(view)
            assert obs.dtype == np.float32
            assert obs.shape == (encoder.size,)
            assert (obs >= encoder.low).all()
            assert (obs <= encoder.high).all()
            mask = encoder.mask(view)
            assert mask.dtype == np.int8
            assert mask.shape == (encoder.action_count,)
            assert np.flatnonzero(mask).tolist() == list(view.legal_action_ids)


def _check_pieces(state: State, seat: int, view: View, pieces: dict[str, np.ndarray]) -> None:
    """Compare every piece with the facts it encodes, relative to ``seat``."""
    count = state.player_count
    order = [(seat + rel) % count for rel in range(count)]
    assert pieces["hand"].tolist() == _kind_counts(state.hands[seat])
    assert pieces["pool_kinds"].tolist() == _kind_counts(state.pool)
    assert pieces["special_kinds"].tolist() == _kind_counts(state.special)
    assert pieces["pile_kinds"].tolist() == _kind_counts([c for pile in state.piles for c in pile])
    for rel, other in enumerate(order):
        assert pieces["known"][rel].tolist() == _kind_counts(state.known[other])
        assert pieces["discard_kinds"][rel].tolist() == _kind_counts(state.discards[other])
        assert pieces["discard_sizes"][rel] == len(state.discards[other])
        assert pieces["hand_sizes"][rel] == len(state.hands[other])
        assert pieces["chips"][rel].tolist() == state.chips[other]
        top = state.discards[other][-1] if state.discards[other] else None
        assert pieces["discard_top"][rel].argmax() == (
            KIND_COUNT if top is None else CARD_KIND[top]
        )
        assert pieces["stalled"][rel] == (state.stall_mask >> other & 1)
    hidden = list(state.draw)
    for other in order[1:]:
        hidden += [c for c in state.hands[other] if c not in state.known[other]]
    assert pieces["unseen_kinds"].tolist() == _kind_counts(hidden)
    assert [pile.argmax() for pile in pieces["pile_counts"]] == [len(p) for p in state.piles]
    assert pieces["draw_size"][0] == len(state.draw)
    assert pieces["pool_size"][0] == len(state.pool)
    assert pieces["reversed"][0] == (state.direction < 0)
    assert pieces["pending_skips"][0] == state.pending_skips
    assert pieces["turn_plays"][0] == state.turn_actions
    assert pieces["phase"].argmax() == state.phase
    assert order[int(pieces["current"].argmax())] == state.current
    assert pieces["seat"].argmax() == seat
    assert pieces["turn_progress"][0] == pytest.approx(state.turn_count / 2000)
    assert pieces["supply"].tolist() == state.supply
    assert view.seat == seat


@pytest.mark.parametrize("player_count", [3, 4, 6])
def test_each_piece_encodes_its_facts_relative_to_the_observer(player_count: int) -> None:
    settings = Settings(player_count=player_count)
    encoder = encoder_for(settings)
    checked = 0
    for state in positions(settings, seed=11 * player_count, every=3):
        for seat in range(player_count):
            view = observe(state, seat)
            _check_pieces(state, seat, view, encoder.split(encoder.encode(view)))
            checked += 1
    assert checked > 100


def test_block_window_pieces() -> None:
    settings = Settings()
    encoder = encoder_for(settings)
    found = 0
    for seed in range(40):
        state = play(settings, seed, steps=3000, until=lambda s: s.phase == Phase.BLOCK_WINDOW)
        if state.phase != Phase.BLOCK_WINDOW:
            continue
        found += 1
        asker = state.window_pending[0]
        view = observe(state, asker)
        pieces = encoder.split(encoder.encode(view))
        order = [(asker + rel) % 4 for rel in range(4)]
        assert order[int(pieces["window_completer"].argmax())] == state.window_completer
        assert pieces["window_completer"].sum() == 1
        assert pieces["window_pile"].argmax() == state.window_slot
        pending = {order[rel] for rel in np.flatnonzero(pieces["window_pending"])}
        assert pending == set(state.window_pending)
        assert pieces["my_answer"].sum() == 0  # not answered yet
        assert pieces["phase"].tolist() == [0, 1, 0]
        assert set(np.flatnonzero(encoder.mask(view))) <= {0, 1}  # pass, block
    assert found > 5


def test_a_won_game_marks_the_winner() -> None:
    settings = Settings(player_count=3)
    encoder = encoder_for(settings)
    for seed in range(60):
        state = play(settings, seed, steps=5000)
        if state.result is not None and state.result.winner is not None:
            break
    else:
        pytest.fail("no random 3-player game was won in 60 seeds")
    assert state.result is not None
    winner = state.result.winner
    for seat in range(3):
        pieces = encoder.split(encoder.encode(observe(state, seat)))
        assert (seat + int(pieces["winner"].argmax())) % 3 == winner
        assert pieces["phase"].tolist() == [0, 0, 1]
        assert not encoder.mask(observe(state, seat)).any()


def test_unlimited_supply_is_flagged() -> None:
    settings = Settings(chip_supply=None)
    encoder = encoder_for(settings)
    pieces = encoder.split(encoder.encode(observe(play(settings, 1, steps=50), 0)))
    assert pieces["supply_unlimited"][0] == 1
    assert pieces["supply"].tolist() == [0, 0]


def test_encode_writes_into_a_given_array() -> None:
    settings = Settings()
    encoder = encoder_for(settings)
    view = observe(play(settings, 3, steps=40), 0)
    out = np.full(encoder.size, 9.0, np.float32)
    mask_out = np.ones(encoder.action_count, np.int8)
    assert encoder.encode(view, out) is out
    assert encoder.mask(view, mask_out) is mask_out
    assert np.array_equal(out, encoder.encode(view))
    assert np.array_equal(mask_out, encoder.mask(view))


def test_encoder_refuses_spectators_and_other_settings() -> None:
    state = play(Settings(), 2, steps=10)
    encoder = encoder_for(Settings())
    with pytest.raises(ValueError, match="spectator"):
        encoder.encode(observe(state, None))
    with pytest.raises(ValueError, match="other settings"):
        encoder_for(Settings(player_count=3)).encode(observe(state, 0))


# --- no leaks: the observation depends on the view only (R35, R36) ------------------


@given(
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 400),
    player_count=st.sampled_from(PLAYER_COUNTS),
    shuffle_seed=st.integers(0, 2**32),
)
def test_permuting_hidden_cards_leaves_the_observation_unchanged(
    seed: int, steps: int, player_count: int, shuffle_seed: int
) -> None:
    settings = Settings(player_count=player_count)
    encoder = encoder_for(settings)
    state = play(settings, seed, steps=steps)
    rng = random.Random(shuffle_seed)
    for seat in range(player_count):
        permuted = permute_hidden(state, seat, rng)
        before = encoder.encode(observe(state, seat))
        assert np.array_equal(before, encoder.encode(observe(permuted, seat)))
        resampled = resample(state, seat, rng)
        assert np.array_equal(before, encoder.encode(observe(resampled, seat)))
        assert np.array_equal(
            encoder.mask(observe(state, seat)), encoder.mask(observe(permuted, seat))
        )


def test_the_leak_check_can_fail_when_own_cards_change() -> None:
    """Swapping a card of one's own hand for a hidden one of another kind does show."""
    settings = Settings()
    encoder = encoder_for(settings)
    state = play(settings, 5, steps=30)
    changed = state.clone()
    hand = changed.hands[0]
    draw = changed.draw
    index = next(i for i, card in enumerate(draw) if CARD_KIND[card] != CARD_KIND[hand[0]])
    hand[0], draw[index] = draw[index], hand[0]
    assert not np.array_equal(
        encoder.encode(observe(state, 0)), encoder.encode(observe(changed, 0))
    )


def test_kinds_table_covers_every_kind() -> None:
    assert KIND_COUNT == len(Kind) == 17
