"""Hints say why: explain(view, action) gives a reason as data, with words in every
language."""

import pytest

from sequence_stacks.bots.expert import make_expert
from sequence_stacks.bots.explain import Explanation, Reason, explain
from sequence_stacks.engine import (
    Action,
    ActionType,
    Kind,
    Settings,
    State,
    action_space,
    apply_in_place,
    new_game,
    observe,
    parse_action,
)
from sequence_stacks.i18n import LANGUAGES, MESSAGES, placeholders, render, set_language, words

from .rigging import Cards, rig


def _why(state: State, notation: str, seat: int = 0) -> Explanation:
    return explain(observe(state, seat), parse_action(notation))


def test_completing_a_pile_wins_its_chip_and_the_game_when_it_is_the_last() -> None:
    def position(chips: list[tuple[int, int]]) -> State:
        cards = Cards(2)
        piles = {2: cards("R1", "R2", "R3", "R4")}
        hands = {0: cards("R5", "BW", "B2", "B2", "R3"), 1: cards("R1")}
        return rig(cards, hands=hands, piles=piles, chips=chips)

    early = position([(0, 0), (1, 1)])
    assert _why(early, "R5>1") == Explanation(Reason.COMPLETES, Kind.R5, 1, 1, 5)
    last = position([(2, 2), (1, 1)])
    assert _why(last, "R5>1").reason == Reason.WINS
    assert _why(last, "BW>new") == Explanation(Reason.STARTS_PILE, Kind.BW, 0, None, 1)
    assert _why(last, "discard B2").reason == Reason.KEEPS_USEFUL


def test_block_answers_name_what_they_stop_or_keep() -> None:
    cards = Cards(3)
    base = {
        "player_count": 3,
        "hands": {0: cards("R1"), 1: cards("BLOCK", "R2"), 2: cards("R3")},
        "piles": {0: cards("B1", "B2", "B3", "B4", "B5")},
        "window": (0, 0),
    }
    winning = rig(cards, chips=[(1, 3), (0, 0), (0, 0)], **base)  # type: ignore[arg-type]
    early = rig(cards, chips=[(0, 0), (0, 1), (0, 0)], **base)  # type: ignore[arg-type]
    assert _why(winning, "block", seat=1) == Explanation(Reason.BLOCKS_WIN, Kind.BLOCK, 0, 1, 0, 0)
    assert _why(early, "block", seat=1).reason == Reason.BLOCKS
    assert _why(early, "pass", seat=1) == Explanation(Reason.KEEPS_BLOCK, None, 0, 1, None, 0)
    assert _why(early, "pass", seat=2).reason == Reason.PASSES  # seat 2 holds no Block


def test_action_cards_say_what_they_do_to_whom() -> None:
    cards = Cards(4)
    state = rig(
        cards,
        player_count=4,
        hands={0: cards("SCHIP", "SKIP", "REV", "SCARD", "B4"), 1: cards("R1")},
        discards={3: cards("B2")},
        piles={0: cards("B1")},
        chips=[(0, 0), (1, 0), (2, 2), (0, 1)],
    )
    steal = _why(state, "SCHIP>p2:R")
    assert steal == Explanation(Reason.STEALS_CHIP, Kind.SCHIP, 1, None, 1, 2)
    assert steal.message_key() == "hint.reason.steals_chip.red"
    assert _why(state, "SKIP") == Explanation(Reason.SKIPS_NEXT, Kind.SKIP, seat=2)
    assert _why(state, "REV") == Explanation(Reason.REVERSES, Kind.REV, seat=1)
    assert _why(state, "SCARD>p3") == Explanation(Reason.STEALS_CARD, Kind.B2, seat=3)
    two_cards = Cards(2)
    two = rig(two_cards, hands={0: two_cards("SKIP", "B4"), 1: two_cards("R1")})
    assert _why(two, "SKIP").reason == Reason.EXTRA_TURN


def test_a_discard_that_leaves_a_pile_short_of_the_next_player_says_so() -> None:
    cards = Cards(2)
    state = rig(
        cards,
        hands={0: cards("B4", "R3", "R3", "R4", "SCARD"), 1: cards("R1")},
        piles={0: cards("B1", "B2", "B3")},
        discards={0: cards("R2")},
    )
    assert _why(state, "discard SCARD") == Explanation(
        Reason.AVOIDS_FEEDING, Kind.SCARD, 0, None, 3, 1
    )
    assert _why(state, "B4>1").reason == Reason.BUILDS_PILE
    more = Cards(2)
    hands = {0: more("R1", "B2"), 1: more("B1")}
    stacked = rig(more, hands=hands, discards={0: more("R2")})
    assert _why(stacked, "discard R1").reason == Reason.STACKS_DISCARD  # R1 under an R2


def _every_explanation() -> list[tuple[Explanation, dict[str, object]]]:
    """The explanation of every legal action along a few games, with its arguments."""
    found = []
    for count, seed in ((2, 1), (3, 2), (4, 3)):
        state = new_game(Settings(player_count=count, max_turns=30), seed)
        bots = [make_expert(seed=s, iterations=2, candidates=2) for s in range(count)]
        table = action_space(count, 2)
        while not state.is_over:
            seat = state.current_player()
            assert seat is not None
            view = observe(state, seat)
            for action_id in view.legal_action_ids:
                explanation = explain(view, table.actions_of(seat)[action_id])
                found.append((explanation, explanation.args()))
            apply_in_place(state, seat, bots[seat].choose(view))
    return found


def test_every_explanation_has_a_sentence_in_every_language() -> None:
    found = _every_explanation()
    reasons = {explanation.reason for explanation, _ in found}
    assert len(reasons) >= 12  # the games met most reasons
    for language in LANGUAGES:
        set_language(language)
        try:
            for explanation, args in found:
                key = explanation.message_key()
                assert key in MESSAGES, key
                needed = placeholders(MESSAGES[key].text)
                assert needed <= args.keys(), (key, needed, args)
                text = render(key, **words(args, lambda seat: f"P{seat}"))
                assert text
                assert "{" not in text
        finally:
            set_language("en")


def test_every_reason_has_its_message() -> None:
    for reason in Reason:
        for colour in (0, 1) if reason == Reason.STEALS_CHIP else (None,):
            key = Explanation(reason, colour=colour).message_key()
            assert key in MESSAGES, key


def test_explain_refuses_a_spectator() -> None:
    state = new_game(Settings(player_count=2), 1)
    with pytest.raises(ValueError, match="spectator"):
        explain(observe(state, None), Action(ActionType.END))
