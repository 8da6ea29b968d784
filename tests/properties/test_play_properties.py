"""Properties of random legal play over random variants (R38, R39, R41, R36; STYLE 11).

Every test plays whole games chosen by :mod:`.strategies` and checks, at every step,
what must always hold: cards and chips are conserved, legal actions are listed exactly,
``apply`` is pure, states clone and round-trip, games replay and end, and views leak
nothing a seat may not know.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings

from sequence_stacks.engine import (
    CARD_KIND,
    Event,
    GameRecord,
    Kind,
    Replay,
    Settings,
    State,
    View,
    apply,
    event_for,
    legal_action_ids,
    new_game,
    observe,
    parse_action,
    position_digest,
    position_from_dict,
    position_to_dict,
    resample,
    validate_state,
)
from sequence_stacks.engine.events import (
    BlockAnswered,
    CardPlayed,
    CardsDrawn,
    TurnEnded,
    TurnStarted,
)

from .strategies import (
    Game,
    Step,
    assert_conserved,
    assert_legal_lists,
    can_vary,
    games,
    hidden_arrangement,
    permute_hidden,
    random_play,
    scramble,
    settings_strategy,
)

RESAMPLE_DRAWS = 30


def assert_result_consistent(state: State) -> None:
    """A finished game says why it ended, and that reason is true of the final state."""
    result = state.result
    settings = state.settings
    assert state.is_over
    assert result is not None
    assert len(result.returns) == state.player_count
    assert abs(sum(result.returns)) < 1e-9
    assert state.turn_count <= settings.max_turns
    assert all(legal_action_ids(state, seat) == [] for seat in range(state.player_count))
    if result.reason == "win":
        assert result.winner is not None
        blue, red = state.chips[result.winner]
        assert blue + red >= settings.chips_to_win
        assert min(blue, red) >= settings.min_each_colour
        assert result.returns[result.winner] == 1.0
    else:
        assert result.winner is None
        assert result.returns == (0.0,) * state.player_count
        if result.reason == "stalemate":
            assert not state.draw
            assert not state.pool
        else:
            assert result.reason == "max_turns"
            assert state.turn_count == settings.max_turns


def assert_stalemate_timing(steps: list[Step]) -> None:
    """R33, N7 from the events: a stalemate ends exactly the turn that completes a run of
    consecutive turns covering every seat, each begun with nothing to draw (after its
    refill) and with no card played to a pile; a turn with a play ends any run."""
    first = steps[0].before
    seats = set(range(first.player_count))
    run: set[int] = set()
    counts = not first.draw and not first.pool
    for step in steps:
        result = step.after.result
        stalemate = result is not None and result.reason == "stalemate"
        for event in step.events:
            if isinstance(event, CardPlayed):
                counts = False
            elif isinstance(event, TurnEnded):
                run = run | {event.seat} if counts else set()
                assert stalemate == (run == seats), (event, sorted(run))
            elif isinstance(event, TurnStarted):
                counts = not step.after.draw and not step.after.pool


# --- what must hold over one random game ---------------------------------------------


def check_every_step(game: Game) -> None:
    """R37-R39 at every step; ``apply`` leaves its input state unchanged."""
    check_rng = random.Random(0)
    expected_digest = position_digest(new_game(game.settings, game.seed))
    final: State | None = None
    for step in random_play(game):
        assert position_digest(step.before) == expected_digest, "apply changed its input"
        assert_conserved(step.before)
        assert_legal_lists(step.before, check_rng)
        expected_digest = position_digest(step.after)
        final = step.after
    assert final is not None
    assert_conserved(final)
    assert_legal_lists(final, check_rng)
    assert_result_consistent(final)


def check_clones_and_positions(game: Game) -> None:
    """A clone equals its original and is independent; a position survives JSON."""
    for step in random_play(game):
        state = step.after
        digest = position_digest(state)
        clone = state.clone()
        assert clone == state
        scramble(clone)
        assert clone != state
        assert position_digest(state) == digest, "mutating a clone changed the original"
        text = json.dumps(position_to_dict(state))
        loaded = position_from_dict(json.loads(text))
        assert loaded == state
        assert position_digest(loaded) == digest


def check_end_and_replay(game: Game) -> None:
    """R33 every game ends; R41 its record replays to the same position and events."""
    start_events: list[Event] = []
    steps = list(random_play(game, start_events))
    assert steps, "a game needs at least one action to end"
    final = steps[-1].after
    assert_result_consistent(final)
    assert_stalemate_timing(steps)
    record = GameRecord(
        settings=game.settings,
        seed=game.seed,
        actions=tuple((step.seat, step.action) for step in steps),
        result=final.result,
        digest=position_digest(final),
    )
    assert record.replay() == final
    loaded = GameRecord.from_dict(json.loads(json.dumps(record.to_dict())))
    assert loaded == record
    replay = Replay(loaded)
    assert replay.start_events == start_events
    for (index, seat, action, events), step in zip(replay, steps, strict=True):
        assert (seat, action) == (step.seat, step.action), index
        assert tuple(events) == step.events, f"apply_in_place and apply differ at {index}"
    assert position_digest(replay.state) == record.digest


def check_views(game: Game) -> None:
    """R35, R36: rearranging hidden cards (within their shuffle) or others' Block
    answers never changes a seat's view; views hold no seed; events are redacted."""
    leak_rng = random.Random(1)
    for step in random_play(game):
        state = step.after
        for seat in (None, *range(state.player_count)):
            view = observe(state, seat)
            assert not hasattr(view, "seed")
            assert "seed" not in view.to_dict()
            permuted = permute_hidden(state, seat, leak_rng)
            validate_state(permuted)
            assert observe(permuted, seat) == view
            assert json.dumps(observe(permuted, seat).to_dict()) == json.dumps(view.to_dict())
            for event in step.events:
                assert_redacted(event_for(event, seat), seat)


def assert_redacted(event: Event, seat: int | None) -> None:
    """Drawn cards and Block answers reach only their own seat (R35, N5)."""
    if isinstance(event, CardsDrawn) and event.seat != seat:
        assert event.cards == ()
    if isinstance(event, BlockAnswered) and event.seat != seat:
        assert event.blocked is None


def check_resample(game: Game) -> None:
    """N13: a resampled world looks the same to the seat, is valid, and differs."""
    chooser = random.Random(2)
    for index, step in enumerate(random_play(game)):
        if index % 3:
            continue
        state = step.after
        seat = chooser.randrange(state.player_count)
        view = observe(state, seat)
        assert_resample_fits(state, view, seat, from_view=False)
        assert_resample_fits(state, view, seat, from_view=True)


def assert_resample_fits(state: State, view: View, seat: int, *, from_view: bool) -> None:
    """Resample ``RESAMPLE_DRAWS`` times: each keeps the view; one at least differs."""
    truth = hidden_arrangement(state, seat)
    varied = False
    for draw in range(RESAMPLE_DRAWS):
        sampled = resample(view if from_view else state, seat, random.Random(draw))
        validate_state(sampled)
        assert observe(sampled, seat) == view
        if not from_view:
            assert sampled.seed != state.seed, "resample kept the true seed (R36)"
        if hidden_arrangement(sampled, seat) != truth:
            varied = True
            if draw:
                break
    if can_vary(state, seat):
        assert varied, "resample always returned the true hidden cards"


# --- the properties ------------------------------------------------------------------


@settings(max_examples=30)
@given(game=games)
def test_every_step_conserves_and_lists_actions_exactly(game: Game) -> None:
    """R37-R39 at every step; ``apply`` leaves its input state unchanged."""
    check_every_step(game)


@settings(max_examples=25)
@given(game=games)
def test_states_clone_and_round_trip_through_json(game: Game) -> None:
    """A clone equals its original and is independent; a position survives JSON."""
    check_clones_and_positions(game)


@settings(max_examples=30)
@given(game=games)
def test_games_end_and_replay_identically(game: Game) -> None:
    """R33 every game ends; R41 its record replays to the same position and events."""
    check_end_and_replay(game)


@settings(max_examples=25)
@given(game=games)
def test_views_do_not_depend_on_what_a_seat_cannot_see(game: Game) -> None:
    """R35, R36: rearranging hidden cards (within their shuffle) or others' Block
    answers never changes a seat's view; views hold no seed; events are redacted."""
    check_views(game)


@settings(max_examples=20)
@given(game=games)
def test_resample_keeps_the_view_and_varies_the_hidden_cards(game: Game) -> None:
    """N13: a resampled world looks the same to the seat, is valid, and differs."""
    check_resample(game)


@pytest.mark.slow
@settings(max_examples=300)
@given(game=games)
def test_soak_every_property(game: Game) -> None:
    """Every property above on many more games (run with --run-slow)."""
    for check in (
        check_every_step,
        check_clones_and_positions,
        check_end_and_replay,
        check_views,
        check_resample,
    ):
        check(game)


@settings(max_examples=50)
@given(options=settings_strategy())
def test_settings_round_trip_through_json_and_options(options: Settings) -> None:
    """R40: every variant survives ``to_dict``/JSON and ``name=value`` options."""
    data = json.loads(json.dumps(options.to_dict()))
    assert Settings.from_dict(data) == options
    texts = [f"{name}={str(value).lower()}" for name, value in data.items()]
    assert Settings.from_options(texts) == options


def _world_with_hidden(card: int) -> State:
    """3 players, seat 0 to act, holding ``card`` (hidden) first and B3#20 last, which
    everyone knows it holds (stolen, N11); the rest as dealt from seed 0."""
    state = new_game(Settings(player_count=3), 0).clone()
    hand, draw = state.hands[0], state.draw
    assert not any(CARD_KIND[c] == Kind.B3 for c in hand)
    for index, wanted in ((0, card), (len(hand) - 1, 20)):
        where = draw.index(wanted)
        hand[index], draw[where] = draw[where], hand[index]
    state.known[0] = [20]
    validate_state(state)
    return state


def test_which_copy_of_a_kind_is_spent_reveals_nothing_hidden() -> None:
    """Two worlds seat 1 cannot tell apart stay so after seat 0 discards ``B3``."""
    hidden_b3 = _world_with_hidden(18)
    other = next(c for c in new_game(Settings(player_count=3), 0).draw if CARD_KIND[c] != Kind.B3)
    hidden_other = _world_with_hidden(other)
    assert observe(hidden_b3, 1) == observe(hidden_other, 1)
    discard = parse_action("discard B3")
    after_b3, _ = apply(hidden_b3, 0, discard)
    after_other, _ = apply(hidden_other, 0, discard)
    assert observe(after_b3, 1) == observe(after_other, 1)
