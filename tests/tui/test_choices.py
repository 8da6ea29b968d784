"""Cards, targets and labels: every legal action is reachable, nothing illegal is offered,
and only legal targets' piles light up."""

from __future__ import annotations

import pytest

from sequence_stacks.engine import ActionType, Kind, Phase, card_from_text, kind_colour
from sequence_stacks.tui.choices import (
    highlighted_slots,
    playable_sources,
    sources,
    targets,
)
from sequence_stacks.tui.present import (
    action_words,
    card_label,
    card_words,
    kind_label,
    kind_words,
)

from .helpers import make_session


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 7), (5, 12)])
def test_the_menus_reach_exactly_the_legal_actions(players: int, seed: int) -> None:
    session = make_session(players=players, humans=0, bot="greedy", seed=seed)
    checked = 0
    while not session.is_over and session.step_count < 400:
        seat = session.to_act()
        assert seat is not None
        view = session.view(seat)
        if view.phase == Phase.PLAYING:
            legal = set(view.legal_action_ids)
            offered = [
                t.action_id
                for source in sources(view)
                for t in targets(view, session.space, source)
            ]
            assert set(offered) <= legal  # nothing illegal is offered (#15)
            reachable = set(offered) | (legal & {2})  # "end" (empty hand) has its key, e
            assert reachable == legal
            marked = playable_sources(view, session.space)
            for source in sources(view):
                found = targets(view, session.space, source)
                plays = [t for t in found if t.action.type != ActionType.DISCARD]
                assert ((source.from_discard, source.kind) in marked) == bool(plays)
                lit = highlighted_slots(view, found)
                per_colour = view.settings.piles_per_colour
                colour = kind_colour(source.kind)
                assert all(slot // per_colour == colour for slot in lit)
                for target in plays:
                    if target.action.type == ActionType.PLAY and target.action.pile is not None:
                        assert colour * per_colour + target.action.pile in lit
            checked += 1
        session.submit(seat, session.bot_for(seat).choose(view))
    assert checked > 20


def test_discard_top_is_a_source_and_cannot_be_discarded() -> None:
    session = make_session(players=2, humans=0, bot="greedy", seed=3)
    tops_seen = with_a_play = 0
    while not session.is_over and with_a_play < 3:
        seat = session.to_act()
        assert seat is not None
        view = session.view(seat)
        if view.phase == Phase.PLAYING and view.discards[seat]:
            top = [s for s in sources(view) if s.from_discard]
            assert len(top) == 1
            assert top[0].card == view.discards[seat][-1]
            found = targets(view, session.space, top[0])
            assert all(t.action.from_discard for t in found)
            assert all(t.action.type != ActionType.DISCARD for t in found)
            tops_seen += 1
            with_a_play += bool(found)
        session.submit(seat, session.bot_for(seat).choose(view))
    assert tops_seen
    assert with_a_play


def test_labels_carry_a_cue_besides_colour() -> None:
    assert kind_label(Kind.B3) == "◆B3"
    assert kind_label(Kind.RW) == "●RW"
    assert kind_label(Kind.SCHIP) == "StealChip"
    assert card_label(card_from_text("R2#61")) == "●R2"
    assert kind_words(Kind.BW) == "blue wild"
    assert kind_words(Kind.R5) == "red 5"
    assert card_words(card_from_text("SKIP#104")) == "Skip"


def test_action_words_describe_targets() -> None:
    session = make_session(players=3, seed=2)
    view = session.view(0)
    words = [action_words(session.action_of(i, 0), view) for i in view.legal_action_ids]
    assert any(w.startswith("discard ") and w.endswith("and end the turn") for w in words)
    assert action_words(session.action_of(0, 0), view).startswith("pass")
    assert action_words(session.action_of(1, 0), view) == "block the sequence"
    steal = next(
        a
        for a in session.space.actions_of(0)
        if a.type == ActionType.STEAL_CHIP and a.victim == 2 and a.colour == 1
    )
    # Seat 2 is the third player: people count seats from 1 (#15).
    assert action_words(steal, view) == ("play Steal-a-Chip: take a red chip from Player 3 (has 0)")
