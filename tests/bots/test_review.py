"""The post-game review: it never uses a card the viewer could not see, its JSON form
round-trips, and its graph, moments and decisions say what happened."""

import itertools
import json
from collections.abc import Sequence

import pytest

from sequence_stacks.bots import make_bot
from sequence_stacks.bots.expert import make_expert
from sequence_stacks.bots.ismcts import IsmctsBot
from sequence_stacks.bots.review import review_record
from sequence_stacks.bots.review_format import (
    MISTAKE_THRESHOLD,
    MomentKind,
    Review,
    moment_change,
    moment_event,
    percent,
)
from sequence_stacks.engine import (
    CARD_KIND,
    Action,
    GameRecord,
    Settings,
    State,
    View,
    apply_in_place,
    new_game,
    observe,
    validate_state,
)
from sequence_stacks.i18n import MESSAGES
from sequence_stacks.sim import play_game


def _small_bot(seed: int) -> IsmctsBot:
    """The review's bot with a small search (the review's logic, not its strength)."""
    return make_expert(seed=seed, iterations=6, candidates=4)


def _game(player_count: int, seed: int, bots: Sequence[str], max_turns: int = 2000) -> GameRecord:
    settings = Settings(player_count=player_count, max_turns=max_turns)
    players = [make_bot(name, seed=seed * 10 + s) for s, name in enumerate(bots)]
    return play_game(settings, seed, players)[1]


def _seen_by(start: State, actions: Sequence[tuple[int, Action]], seat: int) -> set[int]:
    """Every card ``seat``'s view showed at any moment of the game."""
    seen: set[int] = set()
    state = start.clone()
    views = [observe(state, seat)]
    for actor, action in actions:
        apply_in_place(state, actor, action)
        views.append(observe(state, seat))
    for view in views:
        seen.update(view.hand or ())
        for zone in (view.piles, view.discards, view.known_cards):
            for cards in zone:
                seen.update(cards)
        seen.update(view.special)
        seen.update(view.pool)
    return seen


def _redealt(start: State, hidden: Sequence[int]) -> State:
    """``start`` with the ``hidden`` cards' places rotated among themselves, so that
    each goes where a card of another kind was (the ones the viewer never saw)."""
    ordered = sorted(hidden, key=lambda card: (CARD_KIND[card], card))
    shift = max(1, len(ordered) // 2)
    mapping = {card: ordered[(i + shift) % len(ordered)] for i, card in enumerate(ordered)}
    state = start.clone()
    state.hands = [[mapping.get(card, card) for card in hand] for hand in state.hands]
    state.draw = [mapping.get(card, card) for card in state.draw]
    validate_state(state)
    return state


def _views(start: State, actions: Sequence[tuple[int, Action]], seat: int) -> list[View]:
    state = start.clone()
    views = [observe(state, seat)]
    for actor, action in actions:
        apply_in_place(state, actor, action)
        views.append(observe(state, seat))
    return views


@pytest.mark.parametrize(("player_count", "seed"), [(2, 3), (3, 8)])
def test_the_review_never_uses_a_card_the_viewer_could_not_see(
    player_count: int, seed: int
) -> None:
    """Deal every card the viewer never saw anew (other hands, the draw pile): the same
    actions stay legal, the viewer's views are the same at every step, the other seats'
    are not, and the review of the viewer's chances, moments and decisions is the same."""
    names = ["greedy", "heuristic", "random"][:player_count]
    record = _game(player_count, seed, names, max_turns=40)
    viewer = 0
    start = new_game(record.settings, record.seed)
    hidden = sorted(set(range(len(CARD_KIND))) - _seen_by(start, record.actions, viewer))
    hidden = [card for card in hidden if card in {*start.draw, *itertools.chain(*start.hands)}]
    assert len({CARD_KIND[card] for card in hidden}) > 3  # kinds really change places
    other = _redealt(start, hidden)
    assert _views(other, record.actions, viewer) == _views(start, record.actions, viewer)
    assert _views(other, record.actions, 1) != _views(start, record.actions, 1)

    def review(first: State) -> Review:
        return review_record(record, seat=viewer, bot=_small_bot, start=first)

    original, redealt = review(start), review(other)
    assert redealt.decisions == original.decisions
    assert redealt.moments == original.moments
    assert [p.chances[viewer] for p in redealt.points] == [
        p.chances[viewer] for p in original.points
    ]
    assert original.decisions  # there was something to compare


def test_a_review_round_trips_through_its_json_form() -> None:
    record = _game(2, 5, ["heuristic", "greedy"], max_turns=30)
    review = review_record(record, seat=1, bot=_small_bot)
    data = json.loads(json.dumps(review.to_dict()))
    assert data["format"] == "sequence-stacks/review"
    assert data["version"] == 1
    assert Review.from_dict(data) == review
    for moment in data["moments"]:  # each moment's words, as message keys and data
        assert moment["event"]["key"] in MESSAGES
        assert moment["change"]["key"] in MESSAGES
        assert moment["change"]["args"]["before"] == round(100 * moment["before"])
    for decision in data["decisions"]:
        assert decision["why"]["key"] in MESSAGES
        assert decision["best"]["type"] in (
            "play",
            "discard",
            "pass",
            "block",
            "skip",
            "end",
            "reverse",
            "steal_card",
            "steal_chip",
        )
    with pytest.raises(ValueError, match="not a review"):
        Review.from_dict({"format": "sequence-stacks/record"})
    with pytest.raises(ValueError, match="unsupported review version"):
        Review.from_dict({**data, "version": 99})
    with pytest.raises(ValueError, match="malformed review"):
        Review.from_dict({k: v for k, v in data.items() if k != "points"})


def test_the_graph_has_a_point_per_turn_and_ends_with_the_result() -> None:
    record = _game(3, 4, ["heuristic", "heuristic", "greedy"])
    review = review_record(record, seat=None)
    result = record.result
    assert result is not None
    assert result.winner is not None
    turns = [point.turn for point in review.points[:-1]]
    assert turns == sorted(set(turns))
    assert turns[0] == 1
    assert all(0.0 <= c <= 1.0 for point in review.points for c in point.chances)
    final = review.points[-1]
    assert final.seat is None
    assert final.index == len(record.actions)
    assert final.chances == tuple(float(s == result.winner) for s in range(3))
    assert review.decisions == ()  # a spectator made no decisions


def test_moments_are_the_largest_swings_of_the_viewer_chance() -> None:
    record = _game(2, 9, ["heuristic", "heuristic"])
    review = review_record(record, seat=0, bot=_small_bot)
    changes = [abs(m.change) for m in review.moments]
    assert len(review.moments) == 3
    assert changes == sorted(changes, reverse=True)
    assert changes[0] > 0.05
    assert all(m.subject == 0 for m in review.moments)
    assert all(m.index < len(record.actions) - 1 for m in review.moments)  # not the last step
    for moment in review.moments:
        seat, _ = record.actions[moment.index]
        if moment.kind in (MomentKind.CARD_PLAYED, MomentKind.SKIP, MomentKind.CHIP_STOLEN):
            assert moment.actor == seat


def test_a_random_player_makes_mistakes_the_review_finds() -> None:
    record = _game(2, 12, ["random", "heuristic"], max_turns=60)
    review = review_record(record, seat=0, bot=_small_bot)
    indexes = [d.index for d in review.decisions]
    assert indexes == sorted(indexes)
    assert all(record.actions[i][0] == 0 for i in indexes)
    assert review.mistakes
    for decision in review.mistakes:
        assert decision.loss >= MISTAKE_THRESHOLD
        assert decision.loss >= 2 * decision.loss_error
        assert decision.played != decision.best
        assert decision.best_chance is not None
        assert decision.played_chance is not None
        assert decision.best_chance - decision.played_chance == pytest.approx(decision.loss)
    same = [d for d in review.decisions if d.played == d.best]
    assert all(d.loss == 0.0 and not d.mistake for d in same)
    # What the review lists: every mistake, and only moves better by a whole point shown.
    assert set(review.mistakes) <= set(review.better)
    for decision in review.better:
        assert decision.played != decision.best
        assert percent(decision.best_chance or 0.0) > percent(decision.played_chance or 0.0)
    assert not any(d in review.better for d in same)


def test_every_moment_of_every_kind_has_its_words() -> None:
    record = _game(4, 2, ["heuristic", "greedy", "heuristic", "greedy"])
    review = review_record(record, seat=None)
    for moment in review.moments:
        for viewer in (None, moment.actor, moment.victim, moment.subject):
            for key, _ in (moment_event(moment, viewer), moment_change(moment, viewer)):
                assert key in MESSAGES, key
    for kind in MomentKind:
        roles = (
            ("by_you", "to_you", "other")
            if kind in (MomentKind.PILE_BLOCKED, MomentKind.CHIP_STOLEN, MomentKind.CARD_STOLEN)
            else ("you", "other")
        )
        for role in roles:
            key = f"review.event.{kind.value}.{role}"
            assert key in MESSAGES or {f"{key}.blue", f"{key}.red"} <= MESSAGES.keys(), key


def test_a_review_refuses_a_seat_the_game_does_not_have() -> None:
    record = _game(2, 1, ["greedy", "greedy"], max_turns=5)
    with pytest.raises(ValueError, match="no seat 2"):
        review_record(record, seat=2)
