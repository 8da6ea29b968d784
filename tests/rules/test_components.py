"""RULES §1, components: the deck, the two-player deck, chips, card identity (R1-R4)."""

from __future__ import annotations

from collections import Counter

import pytest

from sequence_stacks.engine import (
    CARD_COLOUR,
    CARD_KIND,
    Kind,
    PositionError,
    Settings,
    card_from_text,
    card_text,
    deck_for,
    legal_actions,
    new_game,
    observe,
    validate_state,
)

from .helpers import rig

_ACTION_KINDS = (Kind.SKIP, Kind.REV, Kind.SCARD, Kind.BLOCK, Kind.SCHIP)


def _kind_counts(cards: tuple[int, ...] | list[int]) -> Counter[Kind]:
    return Counter(Kind(CARD_KIND[card]) for card in cards)


@pytest.mark.parametrize("player_count", [3, 4, 5, 6])
def test_r1_deck_has_120_cards_for_three_to_six_players(player_count: int) -> None:
    deck = deck_for(player_count)
    assert sorted(deck) == list(range(120))
    counts = _kind_counts(deck)
    for colour in "BR":
        for number in "12345":
            assert counts[Kind[colour + number]] == 9
        assert counts[Kind[colour + "W"]] == 7
    assert sum(counts[kind] for kind in Kind if kind < 12) == 104
    expected = {Kind.SKIP: 3, Kind.REV: 3, Kind.SCARD: 3, Kind.BLOCK: 3, Kind.SCHIP: 4}
    assert {kind: counts[kind] for kind in _ACTION_KINDS} == expected
    state = new_game(Settings(player_count=player_count), 11)
    assert sorted(state.cards_in_play()) == list(range(120))


def test_r1_action_cards_are_colourless() -> None:
    action_ids = [card for card in range(120) if CARD_KIND[card] >= Kind.SKIP]
    assert len(action_ids) == 16
    assert all(CARD_COLOUR[card] == -1 for card in action_ids)
    assert all(CARD_COLOUR[card] in (0, 1) for card in range(120) if card not in action_ids)


def test_r1_action_card_plays_the_same_whatever_its_printed_colour() -> None:
    # Two Skips: printed colour differs on the physical cards, play does not (colourless).
    for skip in ("SKIP#104", "SKIP#106"):
        state = rig(hands={0: [skip, "B3"]})
        assert "SKIP" in {action.notation() for action in legal_actions(state, 0)}


def test_r2_two_player_deck_has_112_cards() -> None:
    deck = deck_for(2)
    assert len(deck) == 112
    assert len(set(deck)) == 112
    counts = _kind_counts(deck)
    assert sum(counts[kind] for kind in Kind if kind < 12) == 104
    expected = {Kind.SKIP: 2, Kind.REV: 0, Kind.SCARD: 2, Kind.BLOCK: 2, Kind.SCHIP: 2}
    assert {kind: counts[kind] for kind in _ACTION_KINDS} == expected
    state = new_game(Settings(player_count=2), 5)
    assert sorted(state.cards_in_play()) == sorted(deck)


def test_r3_forty_chips_twenty_of_each_colour_in_the_supply() -> None:
    state = new_game(Settings(), 3)
    assert state.supply == [20, 20]
    assert all(pair == [0, 0] for pair in state.chips)
    assert sum(state.supply) == 40


def test_r3_chip_piles_are_face_up() -> None:
    state = rig(chips={2: (1, 2)})
    for seat in (None, 0, 1, 3):
        assert observe(state, seat).chips[2] == (1, 2)


def test_r4_every_card_has_a_stable_text_identity() -> None:
    assert card_text(20) == "B3#20"
    assert card_text(0) == "B1#0"
    assert card_text(104) == "SKIP#104"
    assert card_text(119) == "SCHIP#119"
    for card in range(120):
        assert card_from_text(card_text(card)) == card
    with pytest.raises(ValueError, match="R4"):
        card_from_text("B4#20")
    with pytest.raises(ValueError, match="R4"):
        card_from_text("B1#120")


def test_r4_id_layout_is_as_documented() -> None:
    for colour, letter in enumerate("BR"):
        for number in range(1, 6):
            for copy in range(9):
                assert CARD_KIND[colour * 52 + (number - 1) * 9 + copy] == Kind[f"{letter}{number}"]
        for copy in range(7):
            assert CARD_KIND[colour * 52 + 45 + copy] == Kind[f"{letter}W"]


def test_r4_a_duplicated_card_is_caught() -> None:
    state = rig(hands={0: ["B1#0", "B2"]})
    state.draw.append(0)  # the same physical card in two places
    with pytest.raises(PositionError, match="R39"):
        validate_state(state)
