"""The review's data and its JSON form (docs/records.md, "Review"), and the message keys
that turn its moments into words (:func:`moment_event`, :func:`moment_change`).

:mod:`.review` computes a :class:`Review`; this module only holds it: frozen records, a
``to_dict`` / ``from_dict`` pair with a format name and a version, and, for clients,
each moment's sentence as message keys and arguments (data that the i18n messages
``review.*`` turn into words in every language).
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from typing import Any, Final

from sequence_stacks.engine import Action, Kind, parse_action
from sequence_stacks.engine.catalog import action_fields

from .explain import Explanation
from .fileformat import check_format

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
]

REVIEW_FORMAT: Final = "sequence-stacks/review"
REVIEW_VERSION: Final = 1
MISTAKE_THRESHOLD: Final = 0.05


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
        why: what ``best`` does, as a hint's reason (:func:`~.explain.explain`).
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
    why: Explanation


@dataclasses.dataclass(frozen=True, slots=True)
class Review:
    """A finished game's review for one viewer (docs/records.md, "Review").

    Attributes:
        seat: the viewer (None: a spectator's review, without decisions).
        player_count: the table's size.
        piles_per_colour: the table's piles per colour (R9): where a played card goes.
        threshold: the loss from which a decision is a mistake.
        points: the graph, one point per turn's start and one at the end.
        moments: the three steps that moved the subject's chance most, largest first.
        decisions: the viewer's decisions that had a choice, in order.
        action_count: the game's actions.
        model: what made the chances (the model's training date and command).
    """

    seat: int | None
    player_count: int
    piles_per_colour: int
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

    @property
    def better(self) -> tuple[Decision, ...]:
        """The decisions where the bot's move was better by at least a whole point as
        shown (the list the review shows, its mistakes marked; the browser's
        ``review.js`` picks the same)."""
        return tuple(
            d
            for d in self.decisions
            if d.best != d.played
            and percent(d.best_chance or 0.0) > percent(d.played_chance or 0.0)
        )

    def to_dict(self) -> dict[str, Any]:
        """The review's JSON form (docs/records.md)."""
        return {
            "format": REVIEW_FORMAT,
            "version": REVIEW_VERSION,
            "seat": self.seat,
            "player_count": self.player_count,
            "piles_per_colour": self.piles_per_colour,
            "threshold": self.threshold,
            "action_count": self.action_count,
            "model": dict(self.model),
            "points": [dataclasses.asdict(p) | {"chances": list(p.chances)} for p in self.points],
            "moments": [_moment_dict(moment, self.seat) for moment in self.moments],
            "decisions": [_decision_dict(d, self.piles_per_colour) for d in self.decisions],
        }

    @classmethod
    def from_dict(cls, data: Any) -> Review:
        """Read :meth:`to_dict`'s data; raise ValueError saying what does not fit."""
        check_format(data, noun="review", format_=REVIEW_FORMAT, version=REVIEW_VERSION)
        try:
            return cls(
                seat=_optional_int(data["seat"]),
                player_count=int(data["player_count"]),
                piles_per_colour=int(data["piles_per_colour"]),
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


def _moment_dict(moment: Moment, viewer: int | None) -> dict[str, Any]:
    data = dataclasses.asdict(moment)
    data["kind"] = moment.kind.value
    data["card"] = None if moment.card is None else int(moment.card)
    for name, (key, args) in (
        ("event", moment_event(moment, viewer)),
        ("change", moment_change(moment, viewer)),
    ):
        data[name] = {"key": key, "args": args}
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


def _action_dict(action: Action, piles_per_colour: int) -> dict[str, Any]:
    return {"notation": action.notation(), **action_fields(action, piles_per_colour)}


def _decision_dict(decision: Decision, piles_per_colour: int) -> dict[str, Any]:
    return {
        "index": decision.index,
        "turn": decision.turn,
        "played": _action_dict(decision.played, piles_per_colour),
        "best": _action_dict(decision.best, piles_per_colour),
        "played_chance": decision.played_chance,
        "best_chance": decision.best_chance,
        "loss": decision.loss,
        "loss_error": decision.loss_error,
        "mistake": decision.mistake,
        "why": decision.why.to_dict(),
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
        why=Explanation.from_dict(data["why"]),
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
