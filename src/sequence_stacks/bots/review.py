"""The post-game review: win chances over the game, the moments that swung it, and how
the viewer's own decisions compare with the strongest bot's (docs/records.md, "Review").

:func:`review_record` replays a finished :class:`~sequence_stacks.engine.GameRecord` (or
:func:`review_replay` a start position and its actions) and computes, for a viewer seat:

- **the graph**: at every turn's start and at the end, each player's win chance from
  that player's own view (:class:`~sequence_stacks.bots.winchance.WinChanceModel`: its
  own hand and everything public, at that moment);
- **the moments**: the three steps (an action, with the Block window it opened) that
  moved the viewer's chance most, from the viewer's own view before and after; with no
  viewer (a spectator), each player's own chance and the largest move of any. The step
  that ends the game is left out (the result says it already);
- **the decisions**: at each of the viewer's decisions with a choice, what the
  ``expert`` bot plays from the viewer's view at that moment, and how much the move
  played gave up against it: both are played out on the same deals of the cards the
  viewer could not see (the bot's search), and the difference of the estimated win
  chances is the loss. A loss of at least ``threshold`` (5 points by default) and of
  at least two standard errors is a mistake.

Nothing the viewer could not see is used for the viewer's moments and decisions: they
are computed from ``observe(state, viewer)`` only, and the bot's deals are its own
imagination, seeded from the decision's place in the game, not from the game's seed
(a test deals every hidden card anew and gets the same review of them).
"""

from __future__ import annotations

import dataclasses
import enum
import math
import statistics
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

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
    parse_action,
)
from sequence_stacks.engine.catalog import action_fields
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

from .ismcts import IsmctsBot
from .winchance import WinChanceModel, default_model

__all__ = [
    "MISTAKE_THRESHOLD",
    "REVIEW_FORMAT",
    "REVIEW_VERSION",
    "ChancePoint",
    "Decision",
    "Moment",
    "MomentKind",
    "Review",
    "moment_change",
    "moment_event",
    "percent",
    "review_record",
    "review_replay",
]

REVIEW_FORMAT: Final = "sequence-stacks/review"
REVIEW_VERSION: Final = 1
MISTAKE_THRESHOLD: Final = 0.05
_MOMENTS: Final = 3
_SIGNIFICANCE: Final = 2.0  # standard errors a loss must reach to be a mistake
BotFactory = Callable[[int], IsmctsBot]
Progress = Callable[[int, int], None]


class MomentKind(enum.StrEnum):
    """What happened in a moment of the game (one step: an action and its Block window)."""

    CHIP_TAKEN = "chip_taken"  # a completed pile gave its completer a chip (R17)
    PILE_COMPLETED = "pile_completed"  # a pile was completed, no chip left to take
    PILE_BLOCKED = "pile_blocked"  # a Block stopped a completion (R29)
    CHIP_STOLEN = "chip_stolen"  # a Steal-a-Chip (R28)
    CARD_STOLEN = "card_stolen"  # a Steal-a-Card (R25)
    SKIP = "skip"  # a Skip (R23)
    REVERSE = "reverse"  # a Reverse (R24)
    CARD_PLAYED = "card_played"  # a card laid on a pile (R15, R16)
    DISCARD = "discard"  # a turn ended by a discard (R19)
    TURN_ENDED = "turn_ended"  # a turn ended with an empty hand (R19)
    DREW = "drew"  # the subject's own new cards at its turn's start (R13)


@dataclasses.dataclass(frozen=True, slots=True)
class ChancePoint:
    """One point of the graph: every player's win chance at a turn's start (or the end).

    Attributes:
        index: how many actions of the game came before it.
        turn: the turn about to start (turns taken so far); at the end, the last turn.
        seat: whose turn starts (None at the end).
        chances: per seat, that seat's chance from its own view at that moment.
    """

    index: int
    turn: int
    seat: int | None
    chances: tuple[float, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class Moment:
    """A step of the game that moved a player's chance (the ``subject``'s) a lot.

    Attributes:
        index: the step's first action's index in the game.
        turn: the turn it happened in.
        kind: what happened.
        actor: the seat that did it (the completer, the blocker, the thief, the mover).
        victim: the seat it was done to (a stolen chip's or card's owner, a blocked
            completer), or None.
        card: the card kind played, discarded or stolen, or None.
        colour: the pile's or the chip's colour (0 blue, 1 red), or None.
        count: for a stolen chip, how many chips of that colour the victim held before.
        subject: whose chance moved (the viewer's, with a viewer).
        before: the subject's chance before the step, from the subject's own view.
        after: the same after it.
    """

    index: int
    turn: int
    kind: MomentKind
    actor: int
    victim: int | None
    card: Kind | None
    colour: int | None
    count: int | None
    subject: int
    before: float
    after: float

    @property
    def change(self) -> float:
        """How much the subject's chance moved (negative: it fell)."""
        return self.after - self.before


@dataclasses.dataclass(frozen=True, slots=True)
class Decision:
    """One of the viewer's decisions: what was played, what the bot would have played.

    Attributes:
        index: the action's index in the game.
        turn: the turn it was made in.
        played: the action taken.
        best: the ``expert`` bot's choice from the same view.
        played_chance: the bot's estimate of the viewer's chance after ``played``
            (None when nothing was searched: one move was sure, or the same as best).
        best_chance: the same after ``best``.
        loss: ``best_chance - played_chance`` over the same deals (0 if the same move).
        loss_error: the standard error of ``loss``.
        mistake: the loss is at least the review's threshold and two standard errors.
    """

    index: int
    turn: int
    played: Action
    best: Action
    played_chance: float | None
    best_chance: float | None
    loss: float
    loss_error: float
    mistake: bool


@dataclasses.dataclass(frozen=True, slots=True)
class Review:
    """A finished game's review for one viewer (docs/records.md, "Review").

    Attributes:
        seat: the viewer (None: a spectator's review, without decisions).
        player_count: the table's size.
        threshold: the loss from which a decision is a mistake.
        points: the graph, one point per turn's start and one at the end.
        moments: the three steps that moved the subject's chance most, largest first.
        decisions: the viewer's decisions that had a choice, in order.
        action_count: the game's actions.
        model: what made the chances (the model's training date and command).
    """

    seat: int | None
    player_count: int
    threshold: float
    points: tuple[ChancePoint, ...]
    moments: tuple[Moment, ...]
    decisions: tuple[Decision, ...]
    action_count: int
    model: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    @property
    def mistakes(self) -> tuple[Decision, ...]:
        """The decisions marked as mistakes."""
        return tuple(d for d in self.decisions if d.mistake)

    def to_dict(self) -> dict[str, Any]:
        """The review's JSON form (docs/records.md)."""
        return {
            "format": REVIEW_FORMAT,
            "version": REVIEW_VERSION,
            "seat": self.seat,
            "player_count": self.player_count,
            "threshold": self.threshold,
            "action_count": self.action_count,
            "model": dict(self.model),
            "points": [dataclasses.asdict(p) | {"chances": list(p.chances)} for p in self.points],
            "moments": [_moment_dict(moment) for moment in self.moments],
            "decisions": [_decision_dict(decision) for decision in self.decisions],
        }

    @classmethod
    def from_dict(cls, data: Any) -> Review:
        """Read :meth:`to_dict`'s data; raise ValueError saying what does not fit."""
        if not isinstance(data, Mapping) or data.get("format") != REVIEW_FORMAT:
            raise ValueError(f"not a review: 'format' must be {REVIEW_FORMAT!r}")
        if data.get("version") != REVIEW_VERSION:
            raise ValueError(f"unsupported review version {data.get('version')!r}")
        try:
            return cls(
                seat=_optional_int(data["seat"]),
                player_count=int(data["player_count"]),
                threshold=float(data["threshold"]),
                points=tuple(_point(p) for p in data["points"]),
                moments=tuple(_moment(m) for m in data["moments"]),
                decisions=tuple(_decision(d) for d in data["decisions"]),
                action_count=int(data["action_count"]),
                model=dict(data.get("model") or {}),
            )
        except (KeyError, TypeError) as error:
            raise ValueError(f"malformed review: {error!r}") from None


def _optional_int(value: Any) -> int | None:
    return None if value is None else int(value)


def _optional_float(value: Any) -> float | None:
    return None if value is None else float(value)


def _point(data: Mapping[str, Any]) -> ChancePoint:
    chances = tuple(float(c) for c in data["chances"])
    return ChancePoint(int(data["index"]), int(data["turn"]), _optional_int(data["seat"]), chances)


def _moment_dict(moment: Moment) -> dict[str, Any]:
    data = dataclasses.asdict(moment)
    data["kind"] = moment.kind.value
    data["card"] = None if moment.card is None else int(moment.card)
    return data


def _moment(data: Mapping[str, Any]) -> Moment:
    card = data["card"]
    return Moment(
        index=int(data["index"]),
        turn=int(data["turn"]),
        kind=MomentKind(data["kind"]),
        actor=int(data["actor"]),
        victim=_optional_int(data["victim"]),
        card=None if card is None else Kind(int(card)),
        colour=_optional_int(data["colour"]),
        count=_optional_int(data["count"]),
        subject=int(data["subject"]),
        before=float(data["before"]),
        after=float(data["after"]),
    )


def _action_dict(action: Action) -> dict[str, Any]:
    return {"notation": action.notation(), **action_fields(action)}


def _decision_dict(decision: Decision) -> dict[str, Any]:
    return {
        "index": decision.index,
        "turn": decision.turn,
        "played": _action_dict(decision.played),
        "best": _action_dict(decision.best),
        "played_chance": decision.played_chance,
        "best_chance": decision.best_chance,
        "loss": decision.loss,
        "loss_error": decision.loss_error,
        "mistake": decision.mistake,
    }


def _decision(data: Mapping[str, Any]) -> Decision:
    return Decision(
        index=int(data["index"]),
        turn=int(data["turn"]),
        played=parse_action(str(data["played"]["notation"])),
        best=parse_action(str(data["best"]["notation"])),
        played_chance=_optional_float(data["played_chance"]),
        best_chance=_optional_float(data["best_chance"]),
        loss=float(data["loss"]),
        loss_error=float(data["loss_error"]),
        mistake=bool(data["mistake"]),
    )


# --- computing a review ----------------------------------------------------------------


def _default_bot(seed: int) -> IsmctsBot:
    from .registry import make_bot  # noqa: PLC0415 - the registry imports this package's bots

    bot = make_bot("expert", seed=seed)
    assert isinstance(bot, IsmctsBot)
    return bot


def review_record(
    record: GameRecord,
    *,
    seat: int | None,
    model: WinChanceModel | None = None,
    threshold: float = MISTAKE_THRESHOLD,
    bot: BotFactory | None = None,
    progress: Progress | None = None,
) -> Review:
    """Review a recorded game for ``seat`` (None: a spectator); see the module docstring.

    ``bot(seed)`` makes the bot whose choices the viewer's are compared with (default
    the ``expert``); ``progress(done, total)`` hears of each reviewed action.
    """
    start = new_game(record.settings, record.seed)
    return review_replay(
        start,
        record.actions,
        seat=seat,
        model=model,
        threshold=threshold,
        bot=bot,
        progress=progress,
    )


def review_replay(
    start: State,
    actions: Sequence[tuple[int, Action]],
    *,
    seat: int | None,
    model: WinChanceModel | None = None,
    threshold: float = MISTAKE_THRESHOLD,
    bot: BotFactory | None = None,
    progress: Progress | None = None,
) -> Review:
    """Review the game that ``actions`` play from ``start`` (which is not changed)."""
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
    if played == best or not best_values or not played_values:
        chance = statistics.fmean(best_values) if best_values else None
        return Decision(index, view.turn_count, played, best, chance, chance, 0.0, 0.0, False)
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
    )


# --- the words' data: message keys and arguments (i18n turns them into sentences) -----

_TWO_PARTY: Final = frozenset(
    {MomentKind.PILE_BLOCKED, MomentKind.CHIP_STOLEN, MomentKind.CARD_STOLEN}
)
_PER_COLOUR: Final = frozenset(
    {
        MomentKind.CHIP_TAKEN,
        MomentKind.PILE_COMPLETED,
        MomentKind.PILE_BLOCKED,
        MomentKind.CHIP_STOLEN,
    }
)


def percent(chance: float) -> int:
    """A chance as the whole percentage the review's sentences show."""
    return round(100 * chance)


def moment_event(moment: Moment, viewer: int | None) -> tuple[str, dict[str, Any]]:
    """The message key and arguments (seats, a card kind) of what happened in a moment,
    told to ``viewer``: ``review.event.<kind>.<role>[.<colour>]``, the role ``you`` /
    ``other``, or for a deed done to someone ``by_you`` / ``to_you`` / ``other``."""
    kind = moment.kind
    if kind in _TWO_PARTY:
        role = (
            "by_you" if moment.actor == viewer else "to_you" if moment.victim == viewer else "other"
        )
    else:
        role = "you" if moment.actor == viewer else "other"
    key = f"review.event.{kind.value}.{role}"
    if kind in _PER_COLOUR and moment.colour is not None:
        key += ".blue" if moment.colour == 0 else ".red"
    args: dict[str, Any] = {"player": moment.actor}
    if moment.victim is not None:
        args["victim"] = moment.victim
    if moment.card is not None and kind not in (MomentKind.SKIP, MomentKind.REVERSE):
        args["kind"] = int(moment.card)
    return key, args


def moment_change(moment: Moment, viewer: int | None) -> tuple[str, dict[str, Any]]:
    """The message key and arguments of how the subject's chance moved:
    ``review.change.<you|other>.<rose|fell>``."""
    who = "you" if moment.subject == viewer else "other"
    way = "rose" if moment.after >= moment.before else "fell"
    args = {
        "player": moment.subject,
        "before": percent(moment.before),
        "after": percent(moment.after),
    }
    return f"review.change.{who}.{way}", args
