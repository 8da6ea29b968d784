"""The interactive tutorial (#15, "Learn to play"): lessons as data, run on the engine.

Each lesson is a prepared position in the engine's own position format
(docs/records.md), the seat the learner plays, the move(s) it waits for (matched on an
action's fields, so several equivalent moves can count) and the message keys of its
explanation (``learn.<lesson>.title`` / ``.goal`` / ``.after``). A lesson's position
names only the cards that matter; every other card of the deck goes to the draw pile,
and the whole is read by the engine's strict position reader
(:func:`~sequence_stacks.engine.position_from_dict`) when this module is imported.

Trying a move is stateless: the lesson's position plus the move, applied by the engine
(:func:`try_move`); nothing is stored. The other seats' Block answers that the lesson
scripts (everyone passes unless told otherwise) follow at once, so a completed pile
ends in its chip (R17) or its block (R29) within one answer.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, Final

from sequence_stacks.engine import (
    CARD_KIND,
    Action,
    ActionType,
    Event,
    Phase,
    State,
    action_space,
    apply,
    deck_for,
    event_for,
    kind_from_text,
    kind_text,
    observe,
    position_from_dict,
)
from sequence_stacks.engine import Settings as EngineSettings
from sequence_stacks.engine import card_text as engine_card_text
from sequence_stacks.engine.catalog import pile_slots, seat_action_fields

from .hints import reason
from .viewdata import event_dict

__all__ = [
    "LEARNER",
    "LESSONS",
    "Lesson",
    "Match",
    "Tried",
    "awaited_ids",
    "awaited_reason",
    "lesson_state",
    "try_move",
    "tutorial_dict",
]

LEARNER: Final = 0  # the learner plays seat 0 in every lesson
_SETTINGS: Final = {"player_count": 3}  # three seats: a Reverse is a real card (R2)


@dataclasses.dataclass(frozen=True, slots=True)
class Match:
    """A move a lesson waits for: an action type and, when given, its card kind, pile
    (``None`` means any; ``new`` a new pile), victim and chip colour."""

    type: ActionType
    kind: str | None = None
    pile: int | str | None = None

    def fits(self, action: Action) -> bool:
        """True when ``action`` is this move."""
        if action.type != self.type:
            return False
        if self.kind is not None and (action.kind is None or kind_text(action.kind) != self.kind):
            return False
        if self.pile == "new":
            return action.pile is None
        return self.pile is None or action.pile == self.pile


@dataclasses.dataclass(frozen=True, slots=True)
class Lesson:
    """One step of the tutorial.

    Attributes:
        key: the lesson's name; its words are ``learn.<key>.title``, ``.goal``, ``.after``.
        rules: the rule ids of RULES.md the lesson teaches (shown beside it).
        position: the position in the engine's format (the draw pile left out: every
            card not named goes there).
        awaited: the moves that count (any one of them).
        answers: the other seats' Block answers after the learner's move (``pass`` for
            any seat not named).
    """

    key: str
    rules: tuple[str, ...]
    position: Mapping[str, Any]
    awaited: tuple[Match, ...]
    answers: Mapping[int, str] = dataclasses.field(default_factory=dict)


def _hands(learner: Sequence[str], *others: Sequence[str]) -> list[list[str]]:
    fillers = (["R2", "B5", "R1", "B2", "R4"], ["B4", "R5", "B3", "R3", "B1"])
    return [list(learner), *(list(hand) for hand in others or fillers)]


def _piles(blue: Sequence[Sequence[str]] = (), red: Sequence[Sequence[str]] = ()) -> dict[str, Any]:
    return {"blue": [list(pile) for pile in blue], "red": [list(pile) for pile in red]}


_PLAY = ActionType.PLAY
LESSONS: Final = (
    Lesson(
        "start_pile",
        ("R15",),
        {"hands": _hands(["R3", "B1", "R5", "B4", "R4"]), "piles": _piles()},
        (Match(_PLAY, "B1", "new"),),
    ),
    Lesson(
        "next_number",
        ("R15",),
        {"hands": _hands(["R4", "B2", "R5", "B4", "R3"]), "piles": _piles([["B1"]])},
        (Match(_PLAY, "B2", 0),),
    ),
    Lesson(
        "wild",
        ("R16",),
        {"hands": _hands(["R4", "BW", "R5", "B5", "R3"]), "piles": _piles([["B1", "B2"]])},
        (Match(_PLAY, "BW", 0),),
    ),
    Lesson(
        "complete",
        ("R17",),
        {
            "hands": _hands(["R4", "B5", "R3", "R5", "B3"]),
            "piles": _piles([["B1", "B2", "BW", "B4"]]),
        },
        (Match(_PLAY, "B5", 0),),
    ),
    Lesson(
        "discard",
        ("R19", "R13"),
        {"hands": _hands(["R4", "B3", "R5", "B2"]), "piles": _piles([["B1"]], [["R1", "R2"]])},
        (Match(ActionType.DISCARD),),
    ),
    Lesson(
        "block",
        ("R29",),
        {
            "hands": _hands(["B2", "BLOCK", "R4", "B3", "R3"], ["B4", "R5", "B1"], ["B5", "B2"]),
            "piles": _piles(red=[["R1", "R2", "R3", "RW", "R5"]]),
            "current": 1,
            "phase": "block_window",
            "window": {"completer": 1, "slot": 2, "pending": [2, 0]},
            "turn_actions": 1,
        },
        (Match(ActionType.BLOCK),),
    ),
    Lesson(
        "skip",
        ("R23", "R26"),
        {"hands": _hands(["R4", "SKIP", "R5", "B4", "R3"]), "piles": _piles([["B1"]])},
        (Match(ActionType.SKIP),),
    ),
    Lesson(
        "reverse",
        ("R24", "R27"),
        {"hands": _hands(["R4", "REV", "R5", "B4", "R3"]), "piles": _piles([["B1"]])},
        (Match(ActionType.REVERSE),),
    ),
    Lesson(
        "steal_card",
        ("R25",),
        {
            "hands": _hands(["R4", "SCARD", "R5", "B5", "R1"]),
            "piles": _piles([["B1", "B2"]]),
            "discards": [[], ["R2", "B3"], []],
        },
        (Match(ActionType.STEAL_CARD),),
    ),
    Lesson(
        "steal_chip",
        ("R28",),
        {
            "hands": _hands(["R4", "SCHIP", "R5", "B4", "R3"]),
            "piles": _piles([["B1"]]),
            "chips": [[1, 0], [1, 2], [0, 1]],
        },
        (Match(ActionType.STEAL_CHIP),),
    ),
    Lesson(
        "win",
        ("R31",),
        {
            "hands": _hands(["B3", "R5", "B4", "RW", "SKIP"]),
            "piles": _piles([["B1"]], [["R1", "R2", "R3", "R4"]]),
            "chips": [[2, 2], [1, 1], [0, 1]],
        },
        (Match(_PLAY, "R5", 0), Match(_PLAY, "RW", 0)),
    ),
)


def _position(lesson: Lesson) -> dict[str, Any]:
    """The lesson's position in full: each card kind named becomes the lowest card id
    of that kind not yet used, and every card left over goes to the draw pile."""
    settings = EngineSettings.from_dict(_SETTINGS)
    free: dict[int, list[int]] = {}
    for card in deck_for(settings.player_count):
        free.setdefault(CARD_KIND[card], []).append(card)

    def cards(kinds: Sequence[str]) -> list[str]:
        return [engine_card_text(free[kind_from_text(kind)].pop(0)) for kind in kinds]

    data = dict(lesson.position)
    position: dict[str, Any] = {
        "format": "sequence-stacks/position",
        "version": 1,
        "settings": settings.to_dict(),
        "seed": f"tutorial/{lesson.key}",
        **{key: value for key, value in data.items() if key not in ("hands", "piles", "discards")},
        "hands": [cards(hand) for hand in data["hands"]],
        "piles": {name: [cards(pile) for pile in slots] for name, slots in data["piles"].items()},
        "discards": [cards(pile) for pile in data.get("discards", [[]] * settings.player_count)],
    }
    position["draw"] = [engine_card_text(card) for kind in free.values() for card in kind]
    return position


def lesson_state(index: int) -> State:
    """A fresh copy of lesson ``index``'s position (read and checked by the engine)."""
    return position_from_dict(_POSITIONS[index])


_POSITIONS: Final = tuple(_position(lesson) for lesson in LESSONS)
for _index in range(len(LESSONS)):  # every lesson's position is checked at import
    lesson_state(_index)


@dataclasses.dataclass(frozen=True, slots=True)
class Tried:
    """What a move did in a lesson: whether it is the awaited move, the events as the
    learner sees them and the learner's view after it (JSON-ready), and after another
    move, why the awaited move is the one to make (a hint's reason, #27: ``{key, args}``)."""

    expected: bool
    events: list[dict[str, Any]]
    view: dict[str, Any]
    why: dict[str, Any] | None = None


def try_move(index: int, action_id: int) -> Tried:
    """Apply the learner's move (an action id of the learner's seat) to lesson
    ``index``'s position, then the other seats' scripted Block answers.

    Raises IllegalActionError (R37) for a move the engine refuses, and IndexError for
    an id outside the action space.
    """
    lesson = LESSONS[index]
    state = lesson_state(index)
    space = action_space(state.player_count, state.settings.piles_per_colour)
    action = space.action(action_id, LEARNER)
    state, events = apply(state, LEARNER, action)
    seen = list(events)
    while state.phase == Phase.BLOCK_WINDOW and LEARNER not in state.window_pending:
        seat = state.window_pending[0]
        answer = ActionType.BLOCK if lesson.answers.get(seat) == "block" else ActionType.PASS
        state, more = apply(state, seat, Action(answer))
        seen.extend(more)
    expected = any(match.fits(action) for match in lesson.awaited)
    told = _events(seen, state.settings.piles_per_colour)
    why = None if expected else awaited_reason(index)
    return Tried(expected, told, observe(state, LEARNER).to_dict(), why)


def awaited_reason(index: int) -> dict[str, Any]:
    """Why lesson ``index``'s (first) awaited move is worth making, from the learner's
    view: a hint's reason (``hint.reason.*``, #27)."""
    state = lesson_state(index)
    space = action_space(state.player_count, state.settings.piles_per_colour)
    return reason(observe(state, LEARNER), space.action(awaited_ids(index)[0], LEARNER))


def _events(events: Sequence[Event], per_colour: int) -> list[dict[str, Any]]:
    return [event_dict(event_for(event, LEARNER), per_colour) for event in events]


def tutorial_dict() -> dict[str, Any]:
    """The whole tutorial for the browser: each lesson's words, rules and the learner's
    view of its position, and the learner's action table and the piles' slots (the
    same for every lesson)."""
    settings = EngineSettings.from_dict(_SETTINGS)
    lessons = [
        {
            "key": lesson.key,
            "rules": list(lesson.rules),
            "seat": LEARNER,
            "view": observe(lesson_state(index), LEARNER).to_dict(),
            "awaited": [
                {"type": ActionType(match.type).name.lower(), "kind": match.kind}
                for match in lesson.awaited
            ],
        }
        for index, lesson in enumerate(LESSONS)
    ]
    per_colour = settings.piles_per_colour
    table = seat_action_fields(settings.player_count, per_colour, LEARNER)
    return {"lessons": lessons, "action_table": table, "slots": pile_slots(per_colour)}


def awaited_ids(index: int) -> list[int]:
    """The learner's legal action ids in lesson ``index`` that are awaited moves."""
    state = lesson_state(index)
    space = action_space(state.player_count, state.settings.piles_per_colour)
    awaited = LESSONS[index].awaited
    return [
        action_id
        for action_id in observe(state, LEARNER).legal_action_ids
        if any(match.fits(space.action(action_id, LEARNER)) for match in awaited)
    ]
