"""The post-game review: win chances over the game, the moments that swung it, and how
the viewer's own decisions compare with the strongest bot's (docs/records.md, "Review").

:func:`review_record` replays a finished :class:`~sequence_stacks.engine.GameRecord` (from
its own deal, or from another first position) and computes, for a viewer seat, a
:class:`~sequence_stacks.bots.review_format.Review`:

- **the graph**: at every turn's start and at the end, each player's win chance from
  that player's own view (:class:`~sequence_stacks.bots.winchance.WinChanceModel`: its
  own hand and everything public, at that moment);
- **the moments**: the three steps (an action, with the Block window it opened) that
  moved the viewer's chance most, from the viewer's own view before and after; with no
  viewer (a spectator), each player's own chance and the largest move of any. The step
  that ends the game is left out (the result says it already);
- **the decisions**: at each of the viewer's decisions with a choice, what the
  ``expert`` bot plays from the viewer's view at that moment, why (:func:`~.explain`),
  and how much the move played gave up against it: both are played out on the same
  deals of the cards the viewer could not see (the bot's search), and the difference of
  the estimated win chances is the loss. A loss of at least ``threshold`` (5 points by
  default) and of at least two standard errors is a mistake.

Nothing the viewer could not see is used for the viewer's moments and decisions: they
are computed from ``observe(state, viewer)`` only, and the bot's deals are its own
imagination, seeded from the decision's place in the game, not from the game's seed
(a test deals every hidden card anew and gets the same review of them).
"""

from __future__ import annotations

import dataclasses
import math
import statistics
from collections.abc import Callable, Sequence
from typing import Final

from sequence_stacks.engine import (
    CARD_KIND,
    Action,
    ActionType,
    DrawReason,
    Event,
    GameRecord,
    Kind,
    Phase,
    State,
    View,
    action_space,
    apply_in_place,
    new_game,
    observe,
)
from sequence_stacks.engine.events import (
    BlockWindowOpened,
    CardPlayed,
    CardsDrawn,
    CardStolen,
    ChipStolen,
    ChipTaken,
    Discarded,
    PileBlocked,
    PileCompleted,
    ReversePlayed,
    SkipPlayed,
)

from .expert import make_expert
from .explain import explain
from .ismcts import IsmctsBot
from .review_format import (
    MISTAKE_THRESHOLD,
    ChancePoint,
    Decision,
    Moment,
    MomentKind,
    Review,
)
from .winchance import WinChanceModel, default_model

__all__ = ["BotFactory", "Progress", "review_record"]

_MOMENTS: Final = 3
_SIGNIFICANCE: Final = 2.0  # standard errors a loss must reach to be a mistake
BotFactory = Callable[[int], IsmctsBot]
Progress = Callable[[int, int], None]


# --- computing a review ----------------------------------------------------------------


def _default_bot(seed: int) -> IsmctsBot:
    return make_expert(seed=seed)


def review_record(
    record: GameRecord,
    *,
    seat: int | None,
    model: WinChanceModel | None = None,
    threshold: float = MISTAKE_THRESHOLD,
    bot: BotFactory | None = None,
    progress: Progress | None = None,
    start: State | None = None,
) -> Review:
    """Review a recorded game for ``seat`` (None: a spectator); see the module docstring.

    ``bot(seed)`` makes the bot whose choices the viewer's are compared with (default
    the ``expert``); ``progress(done, total)`` hears of each reviewed action. ``start``
    replays the record's actions from another first position than the record's own
    deal (not changed; the tests re-deal what the viewer never saw).
    """
    if start is None:
        start = new_game(record.settings, record.seed)
    count = start.player_count
    if seat is not None and not 0 <= seat < count:
        raise ValueError(f"there is no seat {seat} in a {count}-player game")
    model = model or default_model()
    make = bot or _default_bot
    state = start.clone()
    subjects = list(range(count)) if seat is None else [seat]
    points: list[ChancePoint] = []
    steps: list[Moment] = []
    decisions: list[Decision] = []
    last_turn = -1
    step_start = step_turn = 0
    step_events: list[Event] = []
    before = _chances(model, state, subjects)
    actions = record.actions
    for index, (actor, action) in enumerate(actions):
        if state.phase == Phase.PLAYING and state.turn_count != last_turn:
            last_turn = state.turn_count
            points.append(_point_at(model, state, index))
        if index == step_start:
            step_turn = state.turn_count
        if actor == seat:
            decision = _review_decision(
                state, seat, action, index=index, threshold=threshold, make=make
            )
            if decision is not None:
                decisions.append(decision)
        events: list[Event] = []
        apply_in_place(state, actor, action, events)
        step_events += events
        if state.phase == Phase.BLOCK_WINDOW:
            continue  # the window's answers belong to the same step
        after = _chances(model, state, subjects)
        if not state.is_over:
            first = actions[step_start]
            step = _Step(step_start, step_turn, *first, step_events)
            steps.append(_moment_of(step, subjects, before, after))
        before, step_start, step_events = after, index + 1, []
        if progress is not None:
            progress(index + 1, len(actions))
    points.append(_point_at(model, state, len(actions)))
    return Review(
        seat=seat,
        player_count=count,
        piles_per_colour=start.settings.piles_per_colour,
        threshold=threshold,
        points=tuple(points),
        moments=tuple(sorted(steps, key=lambda m: -abs(m.change))[:_MOMENTS]),
        decisions=tuple(decisions),
        action_count=len(actions),
        model=dict(model.meta),
    )


def _chances(model: WinChanceModel, state: State, seats: Sequence[int]) -> list[float]:
    return [model.chance(observe(state, seat)) for seat in seats]


def _point_at(model: WinChanceModel, state: State, index: int) -> ChancePoint:
    chances = tuple(_chances(model, state, range(state.player_count)))
    seat = None if state.is_over else state.current
    return ChancePoint(index, state.turn_count, seat, chances)


@dataclasses.dataclass(frozen=True, slots=True)
class _Step:
    """One step of the game: an action and the answers of the Block window it opened."""

    index: int
    turn: int
    actor: int
    action: Action
    events: Sequence[Event]


def _moment_of(
    step: _Step, subjects: Sequence[int], before: Sequence[float], after: Sequence[float]
) -> Moment:
    """The moment of one step, for the subject whose chance moved most."""
    which = max(range(len(subjects)), key=lambda i: abs(after[i] - before[i]))
    subject = subjects[which]
    kind, actor, victim, card, colour, count = _what_happened(
        step.actor, step.action, step.events, subject
    )
    return Moment(
        index=step.index,
        turn=step.turn,
        kind=kind,
        actor=actor,
        victim=victim,
        card=card,
        colour=colour,
        count=count,
        subject=subject,
        before=before[which],
        after=after[which],
    )


_Happened = tuple[MomentKind, int, int | None, Kind | None, int | None, int | None]


def _what_happened(actor: int, action: Action, events: Sequence[Event], subject: int) -> _Happened:
    """The most telling event of a step: (kind, actor, victim, card, colour, count)."""
    completer = actor
    for event in events:
        if isinstance(event, BlockWindowOpened):
            completer = event.completer
    for event in events:
        if isinstance(event, PileBlocked):
            return MomentKind.PILE_BLOCKED, event.blocker, completer, None, event.colour, None
    for event in events:
        if isinstance(event, ChipTaken):
            kind = MomentKind.CHIP_TAKEN if event.taken else MomentKind.PILE_COMPLETED
            return kind, event.seat, None, None, event.colour, None
    for event in events:
        if isinstance(event, PileCompleted):
            return MomentKind.PILE_COMPLETED, event.seat, None, None, event.colour, None
    return _simple(actor, action, events, subject)


def _simple(  # noqa: PLR0911 - one case per event kind
    actor: int, action: Action, events: Sequence[Event], subject: int
) -> _Happened:
    for event in events:
        if isinstance(event, ChipStolen):
            return (
                MomentKind.CHIP_STOLEN,
                event.seat,
                event.victim,
                Kind.SCHIP,
                event.colour,
                None,
            )
        if isinstance(event, CardStolen):
            stolen = Kind(CARD_KIND[event.stolen])
            return MomentKind.CARD_STOLEN, event.seat, event.victim, stolen, None, None
        if isinstance(event, SkipPlayed):
            return MomentKind.SKIP, event.seat, None, Kind.SKIP, None, None
        if isinstance(event, ReversePlayed):
            return MomentKind.REVERSE, event.seat, None, Kind.REV, None, None
        if isinstance(event, CardPlayed):
            card = Kind(CARD_KIND[event.card])
            return MomentKind.CARD_PLAYED, event.seat, None, card, event.colour, None
    drew = any(
        isinstance(e, CardsDrawn) and e.seat == subject and e.reason == DrawReason.REFILL
        for e in events
    )
    if drew and actor != subject:
        return MomentKind.DREW, subject, None, None, None, None
    for event in events:
        if isinstance(event, Discarded):
            return MomentKind.DISCARD, event.seat, None, Kind(CARD_KIND[event.card]), None, None
    return MomentKind.TURN_ENDED, actor, None, None, None, None


def _review_decision(
    state: State, seat: int, action: Action, *, index: int, threshold: float, make: BotFactory
) -> Decision | None:
    """The review of the viewer's decision at ``state`` (None when it had no choice)."""
    view = observe(state, seat)
    if len(view.legal_action_ids) < 2:
        return None
    bot = make(index)
    table = action_space(view.settings.player_count, view.settings.piles_per_colour)
    actions = table.actions_of(seat)
    played_id = actions.index(action)
    if view.phase == Phase.BLOCK_WINDOW:
        found = bot.decide_block(view)
        best = Action(ActionType.BLOCK if found.chosen_block else ActionType.PASS)
        by_answer = {ActionType.BLOCK: found.block_values, ActionType.PASS: found.pass_values}
        best_values, played_values = by_answer[best.type], by_answer[action.type]
    else:
        best_values, played_values, best_id = _turn_values(bot, view, played_id)
        best = actions[best_id]
    values = (best_values, played_values)
    return _judged(view, index, action, best, values=values, threshold=threshold)


def _turn_values(
    bot: IsmctsBot, view: View, played_id: int
) -> tuple[list[float], list[float], int]:
    """The bot's choice in its turn, and the values of its plan and of the move played
    on the same deals (a searched plan starting with it, or both played out anew)."""
    found = bot.search(view)
    chosen = found.plans[found.chosen]
    best_id = chosen.ids[0]
    if best_id == played_id:
        return chosen.values, chosen.values, best_id
    same = [p for p in found.plans if p.ids[0] == played_id and p.values]
    if same and chosen.values:
        return chosen.values, max(same, key=lambda p: p.mean).values, best_id
    compared = bot.compare(view, [chosen.ids, (played_id,)])
    return compared[0].values, compared[1].values, best_id


def _judged(
    view: View,
    index: int,
    played: Action,
    best: Action,
    *,
    values: tuple[list[float], list[float]],
    threshold: float,
) -> Decision:
    """The decision's review from the values of ``best`` and of ``played`` on the same
    deals (a plan dropped from a race has values for the first deals only)."""
    best_values, played_values = values
    why = explain(view, best)
    if played == best or not best_values or not played_values:
        chance = statistics.fmean(best_values) if best_values else None
        turn = view.turn_count
        return Decision(index, turn, played, best, chance, chance, 0.0, 0.0, False, why)
    diffs = [b - p for b, p in zip(best_values, played_values, strict=False)]
    loss = statistics.fmean(diffs)
    error = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.inf
    mistake = loss >= threshold and loss >= _SIGNIFICANCE * error
    deals = len(diffs)
    return Decision(
        index=index,
        turn=view.turn_count,
        played=played,
        best=best,
        played_chance=statistics.fmean(played_values[:deals]),
        best_chance=statistics.fmean(best_values[:deals]),
        loss=loss,
        loss_error=error if math.isfinite(error) else 0.0,
        mistake=mistake,
        why=why,
    )
